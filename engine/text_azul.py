"""A plain-text picture of an Azul table, for the terminal game and for debugging.

Tiles are the notation's colour letters (b y r k w); ``1`` is the starting-player marker. On the coloured wall a
free space shows its printed colour in lower case and a placed tile in upper case; on the grey wall a free space
is ``.``. Pattern lines fill from the right, as on the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Event
from engine.azul import (
    COLOR_LETTERS,
    COLORS,
    FLOOR_PENALTIES,
    LINES,
    MARKER,
    OFFER,
    WALL,
    WALL_SIZE,
    AzulBoard,
    AzulState,
    AzulVariant,
    floor_penalty,
    wall_color,
)


def describe(event: Event) -> str | None:
    """One English line for an event of an Azul game (None for a kind it does not know)."""
    d = event.data
    texts: dict[str, Callable[[], str]] = {
        "take": lambda: (
            f"took {d['count']} {_color(d['color'])} from {_source(d['source'])} to line {d['line']}"
            f" ({d['to_line']} on the line, {d['to_floor']} to the floor, {d['to_lid']} to the lid)"
            + (", and the starting marker" if d["marker"] else "")
        ),
        "wall": lambda: f"tile on wall row {d['row'] + 1}, column {d['col'] + 1}: {d['points']} points",
        "line_to_floor": lambda: f"line {d['row'] + 1} has no free column: {d['count']} tiles to the floor",
        "choose_columns": lambda: f"now choosing columns: seats {', '.join(map(str, d['seats']))}",
        "floor_penalty": lambda: f"floor penalty {d['applied']} ({d['tiles']} tiles)",
        "round_scored": lambda: f"round {d['round']} scored: {d['scores']}",
        "round_started": lambda: f"round {d['round']} starts with seat {d['start_seat']}",
        "bonus": lambda: f"bonus {d['points']} ({d['rows']} rows, {d['columns']} columns, {d['colors']} colours)",
        "game_over": lambda: f"game over: scores {d['scores']}, winners {d['standings'][0]}",
    }
    return texts[event.kind]() if event.kind in texts else None


def _color(color: Any) -> str:
    return COLORS[color] if isinstance(color, int) and 0 <= color < len(COLORS) else str(color)


def _source(source: Any) -> str:
    return "the centre" if source == "centre" else f"factory {int(source) + 1}"


def hint(variant: AzulVariant) -> str:
    """How to type moves."""
    return "Type a move (e.g. 3b4: factory 3, blue, to line 4; cr5: centre; 1kF: floor; L3C2: grey wall column),"


def tiles_text(counts: list[int]) -> str:
    return " ".join(COLOR_LETTERS[color] * count for color, count in enumerate(counts) if count) or "-"


def _tile(tile: int) -> str:
    return "1" if tile == MARKER else COLOR_LETTERS[tile]


def board_lines(board: AzulBoard, grey: bool) -> list[str]:
    rows = []
    for line in range(LINES):
        count, color = board.line_count[line], board.line_color[line]
        pattern = " ".join(["."] * (line + 1 - count) + [COLOR_LETTERS[color]] * count)
        cells = []
        for col in range(WALL_SIZE):
            tile = board.wall[line][col]
            if tile >= 0:
                cells.append(COLOR_LETTERS[tile].upper())
            else:
                cells.append("." if grey else COLOR_LETTERS[wall_color(line, col)])
        rows.append(f"  {line + 1} {pattern:>9} | {' '.join(cells)}")
    floor = " ".join(_tile(tile) for tile in board.floor) or "-"
    penalty = floor_penalty(len(board.floor))
    rows.append(f"  floor {floor}  ({penalty} of {sum(FLOOR_PENALTIES)})" if board.floor else "  floor -")
    return rows


def render(state: AzulState, names: list[str] | None = None) -> str:
    """The whole table: round and phase, factories, centre, bag and lid, then every board."""
    grey = state.variant.endswith("grey")
    names = names or [f"Seat {seat}" for seat in range(state.players)]
    if state.phase == OFFER:
        status = f"factory offer, {names[state.current]} to move"
    elif state.phase == WALL:
        status = "wall tiling, choosing columns: " + ", ".join(names[seat] for seat in state.choosing)
    else:
        status = "game over"
    out = [f"{state.variant} - round {state.round} - {status}"]
    if state.phase == OFFER:
        factories = "   ".join(f"{i + 1}: {tiles_text(tiles)}" for i, tiles in enumerate(state.factories))
        centre = ("1 " if state.marker_in_centre else "") + tiles_text(state.centre)
        out += [f"Factories  {factories}", f"Centre     {centre}"]
    out.append(f"Bag {sum(state.bag)}   Lid {sum(state.lid)}")
    for seat, board in enumerate(state.boards):
        marks = []
        if state.phase == OFFER and seat == state.current:
            marks.append("to move")
        if seat in state.choosing:
            marks.append(f"choosing a column for line {AzulVariant.pending_line(board) + 1}")
        out.append("")
        out.append(f"{names[seat]}: {board.score} points" + (f"  ({', '.join(marks)})" if marks else ""))
        out += board_lines(board, grey)
    return "\n".join(out)
