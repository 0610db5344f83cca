"""A plain-text picture of an Azul table, for the terminal game and for debugging.

Tiles are the notation's colour letters (b y r k w); ``1`` is the starting-player marker. On the coloured wall a
free space shows its printed colour in lower case and a placed tile in upper case; on the grey wall a free space
is ``.``. Pattern lines fill from the right, as on the board.
"""

from __future__ import annotations

from engine.azul import (
    COLOR_LETTERS,
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
