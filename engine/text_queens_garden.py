"""A plain-text picture of a Queen's Garden table, for the terminal game and for debugging.

Hexagons are written as the moves write them: colour code and pattern value (``bl3`` = blue butterfly), ``x`` before
an expansion (``xbl3``), ``j`` for jokers. Each garden is a hexagon map drawn on text rows: a hexagon already there
shows its token (``bl3``), a free cell its name (``A3-2``, as ``tile`` moves name it), an area without an expansion
its name at its centre (``A3``, as ``expansion`` moves name it) and dots; ornaments are in brackets: ``(F)``
fountain, ``(S1)`` statue, ``(B1)`` bench, ``(P3)`` the pavilion of area 3's face-up expansion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from engine import Event, get_variant
from engine.queens_garden import (
    CELL_COORDS,
    CELLS,
    ORNAMENTS,
    Item,
    QGPlayer,
    QGState,
    QueensGarden,
    area_cell,
    area_of,
)

_HINT = (
    "Type a move, e.g. acquire bl (the blue hexagons), acquire 3 ye3@d1 (the butterflies, the yellow one from d1);\n"
    "tile ye2 lg2 A4-1 (a yellow bird paid with a light green bird, on cell A4-1; - when nothing is paid);\n"
    "expansion ye1 - A3 2 (expansion ye1 from storage on area A3, its hexagon on the area's outer cell 2; supply\n"
    "instead of ye1 buys a face-down one); pass, or pass bl3+2j to discard from storage."
)
# Text columns per half-hexagon step: neighbours on one row are two steps (6 characters) apart.
STEP = 3


def _points(score: int) -> str:
    return f"{score} point" if score == 1 else f"{score} points"


def _variant(state: QGState) -> QueensGarden:
    return cast(QueensGarden, get_variant(state.variant))


def hint(variant: QueensGarden) -> str:
    """How to type moves, and what the colour codes and pattern values mean."""
    return f"{_HINT}\n{legend(variant)}"


def legend(variant: QueensGarden) -> str:
    comp = variant.components
    colours = ", ".join(
        f"{code} {name.replace('_', ' ')}" for code, name in zip(comp.color_codes, comp.colors, strict=True)
    )
    patterns = ", ".join(f"{value} {name}" for value, name in enumerate(comp.pattern_names, start=1))
    return f"Colours: {colours}\nPatterns: {patterns}"


def describe(event: Event) -> str | None:
    """One English line for an event of a Queen's Garden game (None for a kind it does not know)."""
    d = event.data
    texts: dict[str, Callable[[], str]] = {
        "acquire": lambda: (
            f"acquired by {d['by']}: "
            + ", ".join(
                ("expansion " if t["expansion"] else "") + f"{t['kind']} from {t['location']}" for t in d["taken"]
            )
        ),
        "stack_moved": lambda: f"the stack's top expansion went beside the stack with {d['tiles']} tiles on it",
        "display_refilled": lambda: f"tiles on the new stack top: {' '.join(d['tiles'])}",
        "expansion_turned": lambda: f"expansion {d['expansion']} at {d['location']} is face up now",
        "tile_placed": lambda: f"placed {d['tile']} on {d['cell']}" + _paid(d["payment"]),
        "expansion_placed": lambda: (
            f"laid expansion {d['expansion'] or 'face down'} on {d['area']}"
            + (f", its hexagon on outer cell {d['rotation']}" if d["rotation"] not in (None, "-") else "")
            + _paid(d["payment"])
            + (f", -{_points(d['points'])}" if d["points"] else "")
        ),
        "joker_earned": lambda: (
            f"surrounded {d['ornament']}: {d['count']} joker{'s' * (d['count'] != 1)}"
            + (f" ({d['lost']} lost: storage full)" if d["lost"] else "")
        ),
        "pass": lambda: (
            "passed"
            + (f", discarding {d['discarded']}" if d["discarded"] != "-" else "")
            + (f": -{d['penalty']}" if d["penalty"] else "")
            + (" (first to pass: starts the next round)" if d["marker"] else "")
        ),
        "round_scored": lambda: f"round {d['round']} scored: {d['scores']}",
        "round_started": lambda: f"round {d['round']} starts with seat {d['start_seat']}",
        "final_scored": lambda: (
            f"final scoring: storage {d['storage']:+d}, "
            + ", ".join(f"a group of {len(g['cells'])} {_category(g['category'])} +{g['points']}" for g in d["groups"])
            + f"; total {_points(d['total'])}"
        ),
        "game_over": lambda: f"game over: scores {d['scores']}, winners {d['standings'][0]}",
    }
    return texts[event.kind]() if event.kind in texts else None


def _category(category: str) -> str:
    """A group's colour code (``lg``) or pattern value (``1``, written ``value 1``)."""
    return f"value {category}" if category.isdecimal() else category


def _paid(payment: Any) -> str:
    return "" if payment in (None, "-") else f", paying {payment}"


def _criteria(variant: QueensGarden, state: QGState) -> str:
    comp = variant.components
    wheel = comp.sides[variant.side_name].wheel[min(state.round, comp.rounds) - 1]
    parts = []
    for criterion in wheel:
        if criterion.color is not None:
            what = comp.colors[criterion.color].replace("_", " ")
        else:
            what = comp.pattern_names[(criterion.pattern or 1) - 1]
        each = "its value" if criterion.points is None else f"{_points(criterion.points)} each"
        parts.append(f"{what}: {each}")
    return "; ".join(parts)


def _cell_text(variant: QueensGarden, player: QGPlayer, cell: int) -> str:
    kind = player.hexes[cell]
    if kind >= 0:
        return variant.notation.kind(kind)
    area = area_of(cell)
    if area >= 0 and player.areas[area] < 0:
        return f"A{area + 1}" if cell == area_cell(area, 0) else "."
    if area >= 0 and cell == area_cell(area, 0) and player.rotations[area] >= 0:
        return f"(P{area + 1})"
    return CELLS[cell]


def garden_lines(variant: QueensGarden, player: QGPlayer) -> list[str]:
    """The garden as rows of text: axial hexagon coordinates (q, r) go to row r, column 2q + r half-steps."""
    marks: dict[tuple[int, int], str] = {coord: _cell_text(variant, player, c) for c, coord in enumerate(CELL_COORDS)}
    for ornament in ORNAMENTS:
        if ornament.kind != "pavilion":
            marks[ornament.coord] = f"({ornament.name})"
    rows = sorted({r for _, r in marks})
    columns = [2 * q + r for q, r in marks]
    left = min(columns)
    lines = []
    for row in rows:
        line = ""
        for (q, r), text in sorted(((coord, text) for coord, text in marks.items() if coord[1] == row)):
            at = (2 * q + r - left) * STEP
            line = line.ljust(at) + text
        lines.append("  " + line.rstrip())
    return lines


def _storage(variant: QueensGarden, player: QGPlayer) -> list[str]:
    """Two lines: tiles and jokers (written as payments are), then face-up expansions, each with its room."""
    comp = variant.components
    tiles = {Item(kind): count for kind, count in enumerate(player.tiles) if count}
    expansions = " ".join(variant.notation.kind(kind) for kind in player.expansions) or "-"
    return [
        f"  storage    {variant.notation.bag(tiles, player.jokers)}  ({player.storage_used()} of {comp.storage_tiles})",
        f"  expansions {expansions}  ({len(player.expansions)} of {comp.storage_expansions})",
    ]


def _display(variant: QueensGarden, state: QGState) -> list[str]:
    kind = variant.notation.kind
    lines = []
    if state.stack:
        tiles = " ".join(kind(k) for k in state.top_tiles) or "-"
        lines.append(f"s    expansion {kind(state.stack[0])} with {tiles}   ({len(state.stack) - 1} below it)")
    for number, item in enumerate(state.display, start=1):
        if item.face_up:
            lines.append(f"d{number}   expansion {kind(item.expansion)}, face up")
        else:
            tiles = " ".join(kind(k) for k in item.tiles) or "-"
            lines.append(f"d{number}   expansion {kind(item.expansion)} with {tiles}")
    return lines


def render(state: QGState, names: Sequence[str] | None = None) -> str:
    """The whole table: round, what it scores, the display, supply, bag and tower, then every player and garden."""
    variant = _variant(state)
    comp = variant.components
    names = names or [f"Seat {seat}" for seat in range(state.player_count)]
    status = "game over" if state.phase == "over" else f"{names[state.current]} to move"
    out = [f"{state.variant} - round {state.round} of {comp.rounds} - {status}"]
    if state.phase != "over":
        out.append(f"This round scores: {_criteria(variant, state)}")
        out += _display(variant, state)
    out.append(
        f"Supply {len(state.supply)} expansions ({comp.supply_expansion_cost} points each)   "
        f"Bag {sum(state.bag)}   Tower {sum(state.tower)}"
    )
    for seat, player in enumerate(state.players):
        marks = []
        if state.phase != "over" and seat == state.current:
            marks.append("to move")
        if player.passed and state.phase != "over":
            marks.append("passed")
        if seat == state.marker and state.phase != "over":
            marks.append("first to pass")
        out.append("")
        out.append(f"{names[seat]}: {_points(player.score)}" + (f"  ({', '.join(marks)})" if marks else ""))
        if state.final:
            final = state.final[seat]
            groups = [int(group["points"]) for group in final["groups"]]
            out.append(f"  final scoring: storage {final['storage']}, {len(groups)} groups +{sum(groups)}")
        out += _storage(variant, player)
        out += garden_lines(variant, player)
    return "\n".join(out)
