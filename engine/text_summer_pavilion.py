"""A plain-text picture of a Summer Pavilion table, for the terminal game and for debugging.

Tiles are the notation's colour letters (p g o y b r); ``1`` in the centre is the start tile. Each star is one row,
named first as moves name it (front side: the star's colour letter; monochrome side: ``1``..``6``; ``c``: the
centre star), then its six spaces in order 1..6: a covered space shows its tile in upper case, a free space its cost.
So ``b:6+2`` covers the last space of the ``b`` row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine import Event
from engine.summer_pavilion import (
    CENTRE,
    COLORS,
    FRONT_STAR_COLORS,
    LETTERS,
    ROUNDS,
    SPBoard,
    SPState,
    space_cost,
)

_HINT = (
    "Type a move, e.g. 3r (factory 3: the red tiles and a wild one), cr (the centre), b:6+2 (blue star, space 6,\n"
    "paying with 2 wild tiles), c:4r (centre star, space 4, red), pass or pass:2g (keep 2 green for the next round),\n"
    "bonus:1p2r (the bonus tiles you pick from the supply).\n"
    "On the boards a star's row lists its spaces 1..6: a free space shows its cost, a covered one its tile."
)
STAR_ORDER = (*range(6), CENTRE)


def hint(variant: Any) -> str:
    """How to type moves."""
    if variant.name.endswith("mono"):
        return _HINT + "\nOn this side stars are 1..6 and c, and the colour is always written: 3:2y+1."
    return _HINT


def describe(event: Event) -> str | None:
    """One English line for an event of a Summer Pavilion game (None for a kind it does not know)."""
    d = event.data
    texts: dict[str, Callable[[], str]] = {
        "take": lambda: (
            f"took {d['count']} {COLORS[d['color']]}"
            + (" and a wild tile" if d["wild"] else "")
            + f" from {_source(d['source'])}"
            + (f", {tiles_text(d['to_centre'])} to the centre" if any(d["to_centre"]) else "")
        ),
        "start_tile": lambda: f"took the start tile: -{d['penalty']}, now {_points(d['score'])}",
        "place": lambda: (
            f"covered space {d['space'] + 1} of the {d['star_token']} star with {COLORS[d['color']]}"
            f" (cost {d['cost']}" + (f", {d['wilds']} wild" if d["wilds"] else "") + f"): +{_points(d['points'])}"
        ),
        "bonus_earned": lambda: (
            "surrounded "
            + ", ".join(f"a {s['kind']}" for s in d["structures"])
            + f": {d['count']} bonus tile{'s' * (d['count'] != 1)} to pick"
        ),
        "bonus_taken": lambda: f"took {tiles_text(d['tiles'])} from the supply",
        "supply_refilled": lambda: f"supply refilled with {tiles_text(d['tiles'])}",
        "pass": lambda: (
            "passed"
            + (f", keeping {tiles_text(d['kept'])}" if any(d["kept"]) else "")
            + (f", discarding {sum(d['discarded'])}: -{d['penalty']}" if d["penalty"] else "")
        ),
        "round_scored": lambda: f"round {d['round']} over, scores {d['scores']}",
        "round_started": lambda: f"round {d['round']} starts with seat {d['start_seat']}, wild {COLORS[d['wild']]}",
        "end_bonus": lambda: f"end bonus +{_points(d['points'])}, now {_points(d['score'])}",
        "game_over": lambda: f"game over: scores {d['scores']}, winners {d['standings'][0]}",
    }
    return texts[event.kind]() if event.kind in texts else None


def _source(source: Any) -> str:
    return "the centre" if source == "centre" else f"factory {int(source) + 1}"


def tiles_text(counts: Sequence[int]) -> str:
    return " ".join(LETTERS[color] * count for color, count in enumerate(counts) if count) or "-"


def _points(score: int) -> str:
    return f"{score} point" if score == 1 else f"{score} points"


def star_token(mono: bool, star: int) -> str:
    """How moves name a star: ``b`` (front), ``3`` (monochrome) or ``c``."""
    if star == CENTRE:
        return "c"
    return str(star + 1) if mono else LETTERS[FRONT_STAR_COLORS[star]]


def _star_name(mono: bool, star: int) -> str:
    if star == CENTRE:
        return "centre"
    return f"star {star + 1}" if mono else COLORS[FRONT_STAR_COLORS[star]]


def star_lines(board: SPBoard, mono: bool) -> list[str]:
    rows = ["  star, space 1 2 3 4 5 6"]
    for star in STAR_ORDER:
        cells = [
            LETTERS[tile].upper() if tile >= 0 else str(space_cost(mono, star, space))
            for space, tile in enumerate(board.stars[star])
        ]
        rows.append(f"  {star_token(mono, star)} {_star_name(mono, star):<9} {' '.join(cells)}")
    return rows


def _status(state: SPState, names: Sequence[str]) -> str:
    who = names[state.current] if state.phase != "over" else ""
    return {
        "draft": f"taking tiles, {who} to move",
        "play": f"placing tiles, {who} to move",
        "bonus": f"{who} picks {state.bonus_pending} bonus tile{'s' * (state.bonus_pending != 1)} from the supply",
    }.get(state.phase, "game over")


def render(state: SPState, names: Sequence[str] | None = None) -> str:
    """The whole table: round, wild colour and phase, factories, centre, supply, bag and tower, then every board."""
    mono = state.variant.endswith("mono")
    names = names or [f"Seat {seat}" for seat in range(state.players)]
    wild = f"wild {COLORS[state.wild]} ({LETTERS[state.wild]})"
    out = [f"{state.variant} - round {min(state.round, ROUNDS)} of {ROUNDS} - {wild} - {_status(state, names)}"]
    if state.phase == "draft":
        factories = "   ".join(f"{i + 1}: {tiles_text(tiles)}" for i, tiles in enumerate(state.factories))
        centre = " ".join(["1"] * (state.start_tile < 0) + [tiles_text(state.centre)] * any(state.centre)) or "-"
        out += [f"Factories  {factories}", f"Centre     {centre}"]
    out.append(f"Supply     {tiles_text(state.supply)}")
    out.append(f"Bag {sum(state.bag)}   Tower {sum(state.tower)}")
    for seat, board in enumerate(state.boards):
        marks = []
        if state.phase != "over" and seat == state.current:
            marks.append("to move")
        if board.passed and state.phase == "play":
            marks.append("passed")
        if seat == state.start_tile:
            marks.append("has the start tile")
        out.append("")
        out.append(f"{names[seat]}: {_points(board.score)}" + (f"  ({', '.join(marks)})" if marks else ""))
        out.append(f"  hand {tiles_text(board.hand)}   kept {tiles_text(board.kept)}")
        out += star_lines(board, mono)
    return "\n".join(out)
