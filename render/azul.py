"""The Azul table (coloured and grey wall) as one picture, designed for a phone first.

Layout, top to bottom: a strip with the round, bag and lid; the factories in one row (numbered as in the move
notation) and the centre; then the boards in a two-column grid, or one column for two players (the picture is then
one board wide, so a phone shows it twice as large). At the end of the game the factories give way to
the final standings with each player's bonus breakdown.

What the last move changed (the ``events`` of ``engine.apply``) is ringed in gold: the factory or centre the tiles
came from, the cells they went to, the wall tiles placed with the points each earned, the floor penalty.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

import engine
from engine.azul import (
    COLOR_BONUS,
    COLORS,
    COLUMN_BONUS,
    FLOOR_PENALTIES,
    FLOOR_SIZE,
    LINES,
    MARKER,
    ROW_BONUS,
    WALL_SIZE,
    AzulState,
    placement_points,
    wall_color,
    wall_column,
)
from render import common as c
from render.base import Renderer

TILE = 38  # pattern lines, wall and floor
GAP = 4
STEP = TILE + GAP
PAD = 12  # inside a board panel
MARGIN = 12  # around the picture and between panels
NUMBER_W = 16  # line numbers left of the pattern lines
BETWEEN = 14  # pattern lines | wall
HEADER_H = 40  # name and score
BOARD_W = PAD + NUMBER_W + 5 * STEP - GAP + BETWEEN + 5 * STEP - GAP + PAD
BOARD_H = PAD + HEADER_H + 5 * STEP - GAP + 12 + TILE + 22 + PAD
PENALTY_INK = (255, 160, 150)
WIDTH = 2 * BOARD_W + 3 * MARGIN
NARROW = BOARD_W + 2 * MARGIN  # two players: one column, so a phone shows the boards twice as large

STRIP_H = 36
FACTORY_D = 94
FACTORY_TILE = 30
CENTRE_H = 52
CENTRE_TILE = 34
NARROW_FACTORY_D = 84  # five factories across one board's width
NARROW_FACTORY_TILE = 27


@dataclass
class LastMove:
    """What the last move's events touched, in the renderer's terms (indices from 0)."""

    seat: int | None = None
    source: int | None = None  # the factory the tiles came from
    from_centre: bool = False
    line: int | None = None  # the pattern line they went to
    line_added: int = 0
    floor_added: dict[int, int] = field(default_factory=dict)  # seat -> tiles (and marker) just put on the floor
    wall_points: dict[tuple[int, int, int], int] = field(default_factory=dict)  # (seat, row, col) -> points
    floor_points: dict[int, int] = field(default_factory=dict)  # seat -> score change from the floor (<= 0)


@dataclass
class Table(c.Table):
    """One picture being drawn: the canvas, and what the last move touched."""

    state: AzulState
    last: LastMove


def draw_table(
    state: AzulState,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
    seats: Collection[int] | None = None,
) -> Image.Image:
    top_h = _top_height(state)
    width = _width(state.players)
    image, d = c.canvas(width, _height(state))
    table = Table(image, d, state, names, locale, read_events(events), info=info)
    y = _draw_strip(table)
    beside = _beside_last_board(state)
    if state.phase == "over":
        _draw_standings(table, beside or (MARGIN, y, width - MARGIN, y + _standings_height(state.players)))
    else:
        y = _draw_factories(table, y)
        _draw_centre(table, beside or (MARGIN, y, width - MARGIN, y + _centre_height(state.players)))
    acting = _acting(state)
    for seat in range(state.players):
        if seats is not None and seat not in seats:
            continue
        origin = _board_origin(seat, state.players, MARGIN + top_h + MARGIN)
        _draw_board(table, seat, origin, acting=seat in acting)
    return image


def closeup_regions(state: AzulState, seat: int) -> tuple[list[c.Box], c.Box]:
    """The shared areas (strip and factories, centre or standings) and ``seat``'s board with its margin."""
    top_h = _top_height(state)
    x, y = _board_origin(seat, state.players, MARGIN + top_h + MARGIN)
    size = (_width(state.players), _height(state))
    board = c.around((x, y, x + BOARD_W, y + BOARD_H), size, MARGIN)
    shared = [(0, 0, size[0], MARGIN + top_h + MARGIN // 2)]
    beside = _beside_last_board(state)
    if beside is not None and seat != state.players - 1:
        shared.append(c.around(beside, size, MARGIN // 2))
    return shared, board


def draw_personal(
    state: AzulState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
) -> Image.Image:
    """``seat``'s view of a table of three or four, one board wide so a phone shows it large: the shared area laid
    out at that width (factories in rows of five, the centre in rows), the player's own board, and one row for
    each other player (floor penalty and score)."""
    image, d = c.canvas(NARROW, _personal_height(state))
    acting = _acting(state)
    table = Table(image, d, state, names, locale, read_events(events), info=info, acting=acting)
    y = _draw_strip(table)
    if state.phase == "over":
        _draw_standings(table, (MARGIN, y, NARROW - MARGIN, y))
        y += _standings_height(state.players) + MARGIN
    else:
        count = len(state.factories)
        for first in range(0, count, 5):
            y = c.factory_row(
                table,
                y,
                COLORS,
                highlighted=None,  # the caption says where tiles came from; only moved tiles are outlined
                diameter=NARROW_FACTORY_D,
                tile_size=NARROW_FACTORY_TILE,
                margin=MARGIN,
                step=(NARROW - 2 * MARGIN) // 5,
                indices=range(first, min(count, first + 5)),
                span=(0, NARROW),
            )
        _draw_centre(table, (MARGIN, y, NARROW - MARGIN, y + _centre_height(2)))
        y += _centre_height(2) + MARGIN
    _draw_board(table, seat, (MARGIN, y + 4), acting=seat in acting)
    others = [other for other in range(state.players) if other != seat]
    c.opponent_rows(
        table, (MARGIN, y + 4 + BOARD_H + MARGIN + 4, NARROW - MARGIN), others, lambda s: _floor_words(table, s)
    )
    return image


def _personal_height(state: AzulState) -> int:
    top = MARGIN + STRIP_H + 8
    if state.phase == "over":
        top += _standings_height(state.players) + MARGIN
    else:
        top += -(-len(state.factories) // 5) * (NARROW_FACTORY_D + 26) + _centre_height(2) + MARGIN
    return top + 4 + BOARD_H + MARGIN + 4 + c.opponents_height(state.players - 1) + MARGIN


def _floor_words(table: Table, seat: int) -> list[str]:
    """What an opponent's floor costs now, when it costs anything."""
    floor = floor_penalty(table.state.boards[seat])
    return [table.label("floor_total", points=c.signed(floor))] if floor else []


def projected_score(board: Any) -> int:
    """``board``'s score after this round's tiling as it stands: each full pattern line's tile placed on the
    coloured wall (top to bottom, scored as placed), then the floor; never below 0."""
    wall = [list(row) for row in board.wall]
    score = int(board.score)
    for row in range(LINES):
        if board.line_count[row] == row + 1 and board.line_color[row] >= 0:
            col = wall_column(row, board.line_color[row])
            wall[row][col] = board.line_color[row]
            score += placement_points(wall, row, col)[0]
    return max(0, score + floor_penalty(board))


def floor_penalty(board: Any) -> int:
    """The points the tiles on ``board``'s floor will cost at the end of the round (0 or less)."""
    return sum(FLOOR_PENALTIES[: min(len(board.floor), FLOOR_SIZE)])


def _width(players: int) -> int:
    return NARROW if players == 2 else WIDTH


def _rows(players: int) -> int:
    return players if players == 2 else (players + 1) // 2


def _height(state: AzulState) -> int:
    return MARGIN + _top_height(state) + MARGIN + _rows(state.players) * (BOARD_H + MARGIN)


def _centre_height(players: int) -> int:
    return 2 * CENTRE_H - 8 if players == 2 else CENTRE_H  # in one column the centre's tiles take two rows


def _beside_last_board(state: AzulState) -> c.Box | None:
    """With an odd number of players the last board sits left and the centre (or the standings) fills the space
    beside it, instead of a full-width row above the boards and an empty quarter below."""
    if state.players % 2 == 0:
        return None
    x, y = _board_origin(state.players - 1, state.players, MARGIN + _top_height(state) + MARGIN)
    return (x + BOARD_W + MARGIN, y, WIDTH - MARGIN, y + BOARD_H)


# --- events ----------------------------------------------------------------------------------------------------------
def read_events(events: Sequence[Any]) -> LastMove:
    """Read the engine's events (documented in ``engine/azul.py``) into what to highlight.

    When the move also ended the round, the factories, lines and floor have moved on, so only the wall tiles and
    the floor penalties are shown.
    """
    last = LastMove()
    for event in events:
        data: Mapping[str, Any] = event.data
        seat = event.seat
        if event.kind == "take" and seat is not None:
            last.seat = seat
            source = data.get("source")
            last.from_centre = source == "centre"
            last.source = source if isinstance(source, int) else None
            line = data.get("line")
            last.line = line - 1 if isinstance(line, int) else None
            last.line_added = int(data.get("to_line", 0))
            last.floor_added[seat] = int(data.get("to_floor", 0)) + bool(data.get("marker"))
        elif event.kind == "line_to_floor" and seat is not None:
            last.floor_added[seat] = last.floor_added.get(seat, 0) + int(data.get("to_floor", 0))
        elif event.kind == "wall" and seat is not None:
            last.wall_points[seat, int(data["row"]), int(data["col"])] = int(data.get("points", 0))
        elif event.kind == "floor_penalty" and seat is not None:
            last.floor_points[seat] = int(data.get("applied", data.get("points", 0)))
        elif event.kind == "round_scored":
            last.seat, last.source, last.from_centre, last.line = None, None, False, None
            last.floor_added.clear()
    return last


def _acting(state: AzulState) -> set[int]:
    if state.phase == "offer":
        return {state.current}
    if state.phase == "wall":
        return set(state.choosing)
    return set()


# --- shared area -----------------------------------------------------------------------------------------------------
def _top_height(state: AzulState) -> int:
    beside = state.players % 2 == 1  # the centre or standings sit beside the last board
    if state.phase == "over":
        return STRIP_H + (0 if beside else 8 + _standings_height(state.players))
    factories = NARROW_FACTORY_D if state.players == 2 else FACTORY_D
    return STRIP_H + 8 + factories + 26 + (0 if beside else _centre_height(state.players))


def _draw_strip(table: Table) -> int:
    d, state = table.d, table.state
    y = MARGIN
    bold, regular = c.font(24, bold=True), c.font(22)
    title = table.label("game_over") if state.phase == "over" else table.label("round", round=state.round)
    if state.variant.endswith("grey"):
        title += " · " + table.label("grey_wall")
    mid, right = y + STRIP_H // 2, table.image.width - MARGIN - 4
    c.text_at(d, (MARGIN + 4, mid), title, bold, anchor="lm")
    counts = [table.label("bag", count=sum(state.bag)), table.label("lid", count=sum(state.lid))]
    if MARGIN + 4 + c.width(title, bold) + 16 + c.width("   ".join(counts), regular) <= right:
        c.text_at(d, (right, mid), "   ".join(counts), regular, fill=c.MUTED, anchor="rm")
    else:  # one column and a long title (the grey wall in Ukrainian): stack the counts, never overlap the title
        stacked = c.font(21)
        c.text_at(d, (right, mid - 1), counts[0], stacked, fill=c.MUTED, anchor="rd")
        c.text_at(d, (right, mid + 1), counts[1], stacked, fill=c.MUTED, anchor="ra")
    return y + STRIP_H + 8


def _draw_factories(table: Table, y: int) -> int:
    if table.state.players == 2:
        return c.factory_row(
            table,
            y,
            COLORS,
            highlighted=None,  # the caption says where tiles came from; only moved tiles are outlined
            diameter=NARROW_FACTORY_D,
            tile_size=NARROW_FACTORY_TILE,
            margin=MARGIN,
            step=(NARROW - 2 * MARGIN) // 5,
        )
    return c.factory_row(
        table,
        y,
        COLORS,
        highlighted=None,  # the caption says where tiles came from; only moved tiles are outlined
        diameter=FACTORY_D,
        tile_size=FACTORY_TILE,
        margin=MARGIN,
    )


def _draw_centre(table: Table, box: c.Box) -> None:
    """The centre's tiles with their counts in ``box``: one row across the picture, or flowing in rows under the
    label when the box is the space beside the last board."""
    image, d, state = table.image, table.d, table.state
    c.panel(d, box)
    c.mark_region("centre", box)
    tall = box[3] - box[1] > 2 * CENTRE_H  # beside the last board: room for larger tiles in rows
    size = CENTRE_TILE * 3 // 2 if tall else CENTRE_TILE
    label = c.font(20, bold=True)  # as every game labels its centre
    row_mid = box[1] + CENTRE_H // 2
    c.text_at(d, (box[0] + 16, row_mid), table.label("centre"), label, anchor="lm")
    x = box[0] + 24 + c.width(table.label("centre"), label)
    if tall:
        x, row_mid = box[0] + 20, row_mid + CENTRE_H // 2 + size // 2 + 4
    count_face = c.font(30 if tall else 22, bold=True)
    items = [("marker", "")] if state.marker_in_centre else []
    items += [(COLORS[color], f"×{count}") for color, count in enumerate(state.centre) if count]
    for name, text in items:
        item_w = size + (5 + c.width(text, count_face) if text else 0) + 22
        if x + item_w > box[2] - 8:
            x, row_mid = box[0] + 20, row_mid + size + 16
        c.paste(image, c.tile(name, size), (x, row_mid - size // 2))
        if text:
            c.text_at(d, (x + size + 5, row_mid), text, count_face, anchor="lm")
        x += item_w
    if not items:
        c.text_at(d, (x, row_mid), table.label("empty"), c.font(20), fill=c.MUTED, anchor="lm")


# --- boards ----------------------------------------------------------------------------------------------------------
def _board_origin(seat: int, players: int, top: int) -> tuple[int, int]:
    row, col = (seat, 0) if players == 2 else divmod(seat, 2)
    return MARGIN + col * (BOARD_W + MARGIN), top + row * (BOARD_H + MARGIN)


@cache
def _empty_board(grey: bool) -> Image.Image:
    """The board with nothing on it (panel, slots, wall prints, penalty numbers): drawn once, pasted every time."""
    image = Image.new("RGBA", (BOARD_W, BOARD_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    c.panel(d, (0, 0, BOARD_W - 1, BOARD_H - 1))
    number = c.font(19, bold=True)
    for row in range(LINES):
        y = _line_y(row)
        for k in range(row + 1):
            c.slot(d, (_line_x(k), y), TILE)
        c.text_at(d, (_line_x(row) - 5, y + TILE // 2), str(row + 1), number, fill=c.MUTED, anchor="rm")
        for col in range(WALL_SIZE):
            xy = (_wall_x(col), y)
            if grey:  # numbered, so players can name the column a full line goes to
                c.slot(d, xy, TILE)
                c.text_at(d, (xy[0] + TILE // 2, y + TILE // 2), str(col + 1), number, fill=c.SLOT_EDGE, anchor="mm")
            else:
                c.paste(image, c.ghost(COLORS[wall_color(row, col)], TILE), xy)
    penalty = c.font(19, bold=True)  # decides moves: readable on a phone
    for k, value in enumerate(FLOOR_PENALTIES):
        x = _floor_x(k)
        c.slot(d, (x, _floor_y()), TILE)
        c.text_at(d, (x + TILE // 2, _floor_y() + TILE + 1), f"−{-value}", penalty, fill=PENALTY_INK, anchor="ma")
    return image


@cache
def _board_background(grey: bool) -> Image.Image:
    """:func:`_empty_board` put down on the picture's background once: a board is drawn where the picture is still
    bare, so pasting this opaque copy gives the same pixels as blending the transparent board every time (which
    cost 0.7 ms a board; this costs 0.03)."""
    board = _empty_board(grey)
    image = Image.new("RGB", board.size, c.BG)
    c.paste(image, board, (0, 0))
    return image


def _line_x(k: int) -> int:
    """Left edge of the k-th cell (from the right, 0 = rightmost) of a pattern line; lines fill right to left."""
    return PAD + NUMBER_W + (4 - k) * STEP


def _line_y(row: int) -> int:
    return PAD + HEADER_H + row * STEP


def _wall_x(col: int) -> int:
    return PAD + NUMBER_W + 5 * STEP - GAP + BETWEEN + col * STEP


def _floor_x(k: int) -> int:
    return PAD + k * STEP


FLOOR_ROOM = BOARD_W - (PAD + FLOOR_SIZE * STEP + 6) - 6  # right of the floor, inside the board's panel


def _floor_y() -> int:
    return _line_y(LINES) - GAP + 12


def _draw_board(table: Table, seat: int, origin: tuple[int, int], *, acting: bool) -> None:
    image, d, state = table.image, table.d, table.state
    ox, oy = origin
    board = state.boards[seat]
    image.paste(_board_background(state.variant.endswith("grey")), origin)
    _draw_header(table, board.score, seat, origin)
    for row in range(LINES):
        y = oy + _line_y(row)
        for k in range(board.line_count[row]):
            c.paste(image, c.tile(COLORS[board.line_color[row]], TILE), (ox + _line_x(k), y))
        for col in range(WALL_SIZE):
            if board.wall[row][col] >= 0:
                c.paste(image, c.tile(COLORS[board.wall[row][col]], TILE), (ox + _wall_x(col), y))
    for k, piece in enumerate(board.floor[:FLOOR_SIZE]):
        color = "marker" if piece == MARKER else COLORS[piece]
        c.paste(image, c.tile(color, TILE), (ox + _floor_x(k), oy + _floor_y()))
    if acting and state.phase == "wall":
        _draw_column_choices(table, seat, origin)
    _draw_last_move(table, board, seat, origin)  # after the choices: no frame covers a points badge
    if acting:
        key = "choose_columns" if state.phase == "wall" else "to_act"
        c.mark_to_act(d, (ox, oy, ox + BOARD_W - 1, oy + BOARD_H - 1), table.label(key))


def _draw_column_choices(table: Table, seat: int, origin: tuple[int, int]) -> None:
    """Grey wall: frame the full line waiting for its column and the spaces it may go to."""
    ox, oy = origin
    rows = set()
    for move in engine.legal_moves(table.state, seat):
        choice = dict(move.choices())
        row, col = int(choice["line"]) - 1, int(choice["column"]) - 1
        rows.add(row)
        x, y = ox + _wall_x(col), oy + _line_y(row)
        c.rounded(table.d, (x + 3, y + 3, x + TILE - 4, y + TILE - 4), 6, outline=c.ACCENT, width=3)
    for row in rows:  # one line waits at a time, but nothing here depends on that
        y = oy + _line_y(row)
        left, right = ox + _line_x(row), ox + _line_x(0) + TILE - 1
        c.rounded(table.d, (left - 3, y - 3, right + 3, y + TILE + 2), 8, outline=c.ACCENT, width=3)


def _draw_header(table: Table, score: int, seat: int, origin: tuple[int, int]) -> None:
    ox, oy = origin
    notes = []
    board = table.state.boards[seat]
    projected = projected_score(board)
    if table.state.phase == "offer" and not table.state.variant.endswith("grey") and projected != score:
        # What this round's tiling would make of the score, as BGA shows it: muted, it is not yet won.
        words = table.label("after_round", score=projected)
        notes.append(c.Pill(words, fill=c.PANEL_EDGE, ink=c.MUTED, short=f"→ {projected}"))
    box = (ox + PAD + 2, oy + PAD - 4, ox + BOARD_W - PAD - 2, oy + PAD + HEADER_H - 4)
    last = table.last
    scored = sum(v for (owner, _, _), v in last.wall_points.items() if owner == seat) + last.floor_points.get(seat, 0)
    scored_now = any(owner == seat for owner, _, _ in last.wall_points) or seat in last.floor_points
    c.seat_header(table, seat, box, score, notes=notes, delta=scored if scored_now else 0, delta_key="round_points")
    floor = floor_penalty(board)
    if floor and table.state.phase != "over":  # the floor's cost this round, summed
        x, y = ox + _floor_x(FLOOR_SIZE) + 8, oy + _floor_y() + TILE // 2
        words, face = table.label("floor_total", points=c.signed(floor)), c.font(19, bold=True)
        if c.width(words, face) > FLOOR_ROOM - 2:  # said in words where they fit, else the number alone, larger
            words, face = c.signed(floor), c.font(24, bold=True)
        c.text_at(table.d, (x, y), words, face, fill=PENALTY_INK, anchor="lm")


def _draw_last_move(table: Table, board: Any, seat: int, origin: tuple[int, int]) -> None:
    d, last = table.d, table.last
    ox, oy = origin
    small = c.font(19, bold=True)
    if last.seat == seat and last.line is not None and last.line_added:
        filled = board.line_count[last.line]
        first = max(0, filled - last.line_added)
        if filled > first:
            y = oy + _line_y(last.line)
            c.highlight(d, (ox + _line_x(filled - 1), y, ox + _line_x(first) + TILE - 1, y + TILE - 1), width=3)
    end = min(len(board.floor), FLOOR_SIZE)
    start = max(0, end - last.floor_added.get(seat, 0))
    if end > start:
        y = oy + _floor_y()
        c.highlight(d, (ox + _floor_x(start), y, ox + _floor_x(end - 1) + TILE - 1, y + TILE - 1), width=3)
    placed = [
        (ox + _wall_x(col), oy + _line_y(row), value)
        for (owner, row, col), value in last.wall_points.items()
        if owner == seat
    ]
    for x, y, _ in placed:
        c.highlight(d, (x, y, x + TILE - 1, y + TILE - 1), width=3, radius=7)
    for x, y, value in placed:  # after every ring, so no ring covers a number
        c.points(d, (x + TILE // 2, y + TILE), value, small)
    if last.floor_points.get(seat):
        x, value = ox + _floor_x(FLOOR_SIZE) + 6, last.floor_points[seat]
        words, face = table.label("floor_total", points=c.signed(value)), c.font(19, bold=True)
        if c.width(words, face) + int(face.size) > FLOOR_ROOM:  # said in words where they fit, else the number
            words, face = c.signed(value), c.font(22, bold=True)
        c.badge(d, (x, oy + _floor_y() + TILE // 2), words, face, fill=c.LOSS if value < 0 else c.GAIN, anchor="lm")


# --- end of game -----------------------------------------------------------------------------------------------------
def _standings_height(players: int) -> int:
    return c.standings_height(players)


def bonus_counts(board: Any) -> tuple[int, int, int]:
    """Complete rows, complete columns and colours with all five tiles on the wall."""
    rows = sum(all(cell >= 0 for cell in row) for row in board.wall)
    cols = sum(all(board.wall[r][col] >= 0 for r in range(WALL_SIZE)) for col in range(WALL_SIZE))
    per_color = [0] * len(COLORS)
    for row in board.wall:
        for cell in row:
            if cell >= 0:
                per_color[cell] += 1
    return rows, cols, sum(n == WALL_SIZE for n in per_color)


def _draw_standings(table: Table, box: c.Box) -> None:
    """The final standings with each player's end bonuses: complete rows, columns and colours."""

    def bonuses(seat: int) -> list[int]:
        rows, cols, colors = bonus_counts(table.state.boards[seat])
        return [rows * ROW_BONUS, cols * COLUMN_BONUS, colors * COLOR_BONUS]

    heads = [(table.label(f"head.{key}"), table.label(f"head.{key}_short")) for key in ("rows", "columns", "colors")]
    c.standings(table, (box[0], box[1], box[2]), heads, bonuses)


RENDERER = Renderer(game="azul", draw_table=draw_table, closeup_regions=closeup_regions, draw_personal=draw_personal)
