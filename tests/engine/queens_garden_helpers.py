"""Building Queen's Garden positions for focused tests while keeping every tile and expansion accounted for."""

from __future__ import annotations

from engine import get_variant
from engine.queens_garden import CELL_INDEX, QGState, QueensGarden, area_cell, kind_of

CODES = ("bl", "ye", "lg", "dg", "lp", "dp")


def variant(name: str = "queens-garden") -> QueensGarden:
    found = get_variant(name)
    assert isinstance(found, QueensGarden)
    return found


def k(token: str) -> int:
    """``"bl3"`` → the kind of a blue butterfly."""
    return kind_of(CODES.index(token[:2]), int(token[2]))


def fresh(players: int = 2, seed: int = 1, name: str = "queens-garden") -> QGState:
    """A new game whose display is emptied back into the bag, so a test can lay out exactly what it needs."""
    state = variant(name).new_game(players, seed)
    for kind in state.top_tiles:
        state.bag[kind] += 1
    state.top_tiles = []
    return state


def take_from_bag(state: QGState, token: str) -> int:
    kind = k(token)
    if state.bag[kind] == 0:
        raise ValueError(f"no {token} left in the bag")
    state.bag[kind] -= 1
    return kind


def give(state: QGState, seat: int, *tokens: str) -> None:
    """Tiles into a storage."""
    for token in tokens:
        state.players[seat].tiles[take_from_bag(state, token)] += 1


def top(state: QGState, *tokens: str) -> None:
    state.top_tiles = sorted(take_from_bag(state, token) for token in tokens)


def display(state: QGState, tokens: tuple[str, ...], expansion: str | None = None, face_up: bool = False) -> None:
    """Move an expansion (by printed hexagon, else the supply's top) beside the stack with these tiles."""
    from engine.queens_garden import DisplayItem

    kind = pull_expansion(state, expansion)
    state.display.append(DisplayItem(kind, sorted(take_from_bag(state, t) for t in tokens), face_up))


def pull_expansion(state: QGState, token: str | None) -> int:
    """Take an expansion out of the supply or a future round stack (never the current stack)."""
    if token is None:
        return state.supply.pop(0)
    kind = k(token)
    for pile in [state.supply, *state.future_stacks]:
        if kind in pile:
            pile.remove(kind)
            return kind
    if kind in state.stack:
        # Swap it with a supply expansion so the round stack keeps its size.
        state.stack[state.stack.index(kind)] = state.supply.pop(0)
        return kind
    raise ValueError(f"expansion {token} is not available")


def store_expansion(state: QGState, seat: int, token: str) -> None:
    player = state.players[seat]
    player.expansions = sorted([*player.expansions, pull_expansion(state, token)])


def lay(state: QGState, seat: int, area: int, token: str | None = None, rotation: int = 0) -> None:
    """Lay an expansion in ``area`` (0-based): face up with ``token`` printed at outer cell ``rotation + 1``."""
    player = state.players[seat]
    kind = pull_expansion(state, token)
    player.areas[area] = kind
    player.rotations[area] = -1 if token is None else rotation
    if token is not None:
        player.hexes[area_cell(area, rotation + 1)] = kind


def put(state: QGState, seat: int, cell: str, token: str) -> None:
    """A tile straight onto a garden cell."""
    state.players[seat].hexes[CELL_INDEX[cell]] = take_from_bag(state, token)


def check(state: QGState) -> QGState:
    """The state is consistent (conservation and all): what from_json would accept."""
    v = variant(state.variant)
    return v.from_json(v.to_json(state))
