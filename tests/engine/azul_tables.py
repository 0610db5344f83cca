"""Building Azul positions for tests from short pictures instead of hand-filled lists.

A wall is five strings of five characters: a colour letter (b y r k w) for a placed tile, ``.`` for a free space.
Pattern lines are ``{line: "rr"}`` with lines numbered from 1 as on the board. Factories and the centre are strings
of colour letters. Every tile not placed anywhere goes to the bag (or the lid, if the bag is given), so the 100
tiles are always conserved and the state passes ``from_json``.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.azul import (
    COLOR_LETTERS,
    FACTORIES_BY_PLAYERS,
    MARKER,
    OFFER,
    TILES_PER_COLOR,
    AzulBoard,
    AzulState,
)


def counts(letters: str) -> list[int]:
    tiles = [0] * 5
    for letter in letters.replace(" ", ""):
        tiles[COLOR_LETTERS.index(letter)] += 1
    return tiles


def board(
    wall: list[str] | None = None, *, lines: dict[int, str] | None = None, floor: str = "", score: int = 0
) -> AzulBoard:
    """``floor`` uses colour letters and ``1`` for the starting-player marker."""
    rows = wall or ["....."] * 5
    result = AzulBoard(score=score)
    result.wall = [[-1 if ch == "." else COLOR_LETTERS.index(ch) for ch in row] for row in rows]
    for line, tiles in (lines or {}).items():
        result.line_color[line - 1] = COLOR_LETTERS.index(tiles[0])
        result.line_count[line - 1] = len(tiles)
    result.floor = [MARKER if ch == "1" else COLOR_LETTERS.index(ch) for ch in floor]
    return result


def table(
    variant: str,
    boards: list[AzulBoard],
    *,
    factories: list[str] | None = None,
    centre: str = "",
    marker_in_centre: bool = True,
    current: int = 0,
    start_seat: int = 0,
    bag: str | None = None,
    seed: int = 1,
) -> AzulState:
    """A position in the factory offer. Unlisted tiles go to the bag, or if ``bag`` is given, the rest to the lid."""
    players = len(boards)
    rows = (factories or []) + [""] * (FACTORIES_BY_PLAYERS[players] - len(factories or []))
    state = AzulState(
        variant=variant,
        seed=seed,
        rng=12345,
        round=2,
        phase=OFFER,
        start_seat=start_seat,
        current=current,
        factories=[counts(tiles) for tiles in rows],
        centre=counts(centre),
        marker_in_centre=marker_in_centre,
        bag=[0] * 5,
        lid=[0] * 5,
        boards=boards,
    )
    used = [0] * 5
    for tiles in [*state.factories, state.centre]:
        used = [a + b for a, b in zip(used, tiles, strict=True)]
    for b in boards:
        for tile in b.floor:
            if tile != MARKER:
                used[tile] += 1
        for color, count in zip(b.line_color, b.line_count, strict=True):
            if count:
                used[color] += count
        for row in b.wall:
            for tile in row:
                if tile >= 0:
                    used[tile] += 1
    spare = [TILES_PER_COLOR - n for n in used]
    state.bag = counts(bag) if bag is not None else spare
    state.lid = [s - b for s, b in zip(spare, state.bag, strict=True)]
    return engine.from_json(engine.to_json(state))  # validated: a test never starts from an impossible state


def play(state: Any, *moves: tuple[int, str]) -> tuple[Any, list[engine.Event]]:
    """Apply ``(seat, notation)`` moves in turn and return the final state with all the events."""
    events: list[engine.Event] = []
    for seat, notation in moves:
        state, more = engine.apply(state, seat, notation)
        events += more
    return state, events


def kinds(events: list[engine.Event], kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind and (seat is None or e.seat == seat)]
