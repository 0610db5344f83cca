"""The Azul: Summer Pavilion table (front and monochrome side) as one picture, designed for a phone first.

Layout, top to bottom: a strip with the round track (the wild colour of every round, the current one ringed), bag
and tower counts; the factories in one row (numbered as in the move notation); the centre (with the start tile
while it lies there) and the supply; then the pavilion boards in a two-column grid. Each board is the cluster of
seven stars of diamond spaces as printed: empty spaces show their cost in the star's colour (grey on the monochrome
side), covered ones the tile with its colour-blind mark; the pillars (1), statues (2) and windows (3) sit between
the stars and light up when completed. Under the stars: the tiles in hand, the tiles kept on the corners, and
whether the player has passed. At the end the factories give way to the standings with the end-bonus breakdown.

What the last move changed (the ``events`` of ``engine.apply``) is ringed in gold: the factory or centre the tiles
came from, the space covered with the points it earned, the structures completed, the hand that received tiles,
and the points lost by a start tile or a pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

import engine
from data.i18n import t
from engine.summer_pavilion import (
    CENTRE,
    COLORS,
    FRONT_STAR_COLORS,
    MAX_KEEP,
    ROUNDS,
    SPACES,
    STARS,
    STRUCTURES,
    SPState,
    Structure,
    end_bonuses,
    space_cost,
    wild_of,
)
from render import common as c
from render.base import Renderer

MARGIN = 12
PAD = 12
HEADER_H = 40
A = 46  # side of a diamond space
SS = 2  # the star cluster is drawn at twice the size and scaled down, for smooth diagonal edges
CLUSTER_W = round(2 * (3 * A + math.sqrt(3) * A)) + 8
CLUSTER_H = round(2 * (3 * A * math.sqrt(3) / 2 + math.sqrt(3) * A)) + 8
HAND_TILE = 30
HAND_H = HAND_TILE + 14
BOARD_W = (968 - 3 * MARGIN) // 2
BOARD_H = PAD + HEADER_H + CLUSTER_H + 6 + HAND_H + PAD
WIDTH = 2 * BOARD_W + 3 * MARGIN
NARROW = BOARD_W + 2 * MARGIN  # two players: one column, so a phone shows the boards twice as large
NARROW_FACTORY_D = 70  # five factories across one board's width
NARROW_FACTORY_TILE = 23

STRIP_H = 40
TRACK_LINE = 34
FACTORY_D = 94
FACTORY_TILE = 30
ROW_H = 52  # the centre and supply rows
ROW_TILE = 34

# Outer stars sit clockwise from the upper left at these angles (degrees, counter-clockwise from the right).
STAR_ANGLES = (120, 60, 0, -60, -120, 180)
EMPTY_FACE = (70, 78, 96)
MONO_FACE = (104, 112, 128)
EMPTY_MARK = 14  # the colour's mark in an empty space of a coloured star


@dataclass
class LastMove:
    """What the last move's events touched, in the renderer's terms (indices from 0)."""

    seat: int | None = None
    source: int | None = None  # the factory the tiles came from
    from_centre: bool = False
    placed: tuple[int, int, int] | None = None  # (star, space, points)
    structures: list[tuple[str, int]] = field(default_factory=list)  # (kind, star) completed
    hand_changed: bool = False
    score_change: int = 0  # start tile or pass penalty (<= 0)
    supply_changed: bool = False


@dataclass
class Table(c.Table):
    """One picture being drawn: the canvas, and what the last move touched."""

    state: SPState
    last: LastMove

    @property
    def mono(self) -> bool:
        return bool(self.state.variant.endswith("mono"))


def draw_table(
    state: SPState,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
    seats: Collection[int] | None = None,
) -> Image.Image:
    top_h = _top_height(state)
    image, d = c.canvas(_width(state.players), _height(state))
    table = Table(image, d, state, names, locale, read_events(events), info=info)
    y = _draw_strip(table)
    beside = _beside_last_board(state)
    if state.phase == "over":
        _draw_standings(table, beside or (MARGIN, y, table.image.width - MARGIN, y + _standings_height(state.players)))
    else:
        left, right = (beside[0], beside[2]) if beside else (MARGIN, table.image.width - MARGIN)
        y = _draw_factories(table, beside[1] + 6 if beside else y, (left, right))
        y = _draw_centre(table, y, (left, right))
        _draw_supply(table, y + 8, (left, right))
    for seat in range(state.players):
        if seats is not None and seat not in seats:
            continue
        origin = _board_origin(seat, state.players, MARGIN + top_h + MARGIN)
        _draw_board(table, seat, origin)
    return image


def draw_personal(
    state: SPState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
) -> Image.Image:
    """``seat``'s view of a table of three or four, one board wide so a phone shows it large: the strip with the
    round track on its own line, the factories in rows of at most five, the centre and supply, the player's own
    board, and one row for each other player (tiles in hand and score)."""
    image, d = c.canvas(NARROW, _personal_height(state, locale))
    acting = {state.current} if state.phase != "over" else set()
    table = Table(image, d, state, names, locale, read_events(events), info=info, acting=acting)
    y = _draw_strip(table)
    span = (MARGIN, NARROW - MARGIN)
    if state.phase == "over":
        _draw_standings(table, (MARGIN, y, NARROW - MARGIN, y))
        y += _standings_height(state.players)
    else:
        y = _draw_factories(table, y, span)
        y = _draw_centre(table, y, span, height=_centre_height(state, locale, span))
        _draw_supply(table, y + 8, span, height=_supply_height(state, locale, span))
        y += 8 + _supply_height(state, locale, span)
    y += MARGIN + 4
    _draw_board(table, seat, (MARGIN, y))
    others = [other for other in range(state.players) if other != seat]
    c.opponent_rows(table, (MARGIN, y + BOARD_H + MARGIN + 4, NARROW - MARGIN), others, lambda s: _hand_words(table, s))
    return image


def _personal_height(state: SPState, locale: str) -> int:
    top = MARGIN + _strip_height(2) + 8
    span = (MARGIN, NARROW - MARGIN)
    if state.phase == "over":
        top += _standings_height(state.players)
    else:
        factory_rows = 1 if len(state.factories) <= 5 else 2
        centre, supply = _centre_height(state, locale, span), _supply_height(state, locale, span)
        top += factory_rows * (NARROW_FACTORY_D + 26) + centre + supply + 8
    return top + MARGIN + 4 + BOARD_H + MARGIN + 4 + c.opponents_height(state.players - 1) + MARGIN


def _hand_words(table: Table, seat: int) -> list[str]:
    """How many tiles an opponent holds, while the game goes on."""
    held = sum(table.state.boards[seat].hand)
    return [table.label("sp.hand_count", count=held)] if held and table.state.phase != "over" else []


def _height(state: SPState) -> int:
    rows = state.players if state.players == 2 else (state.players + 1) // 2
    return int(MARGIN + _top_height(state) + MARGIN + rows * (BOARD_H + MARGIN))


def _width(players: int) -> int:
    return NARROW if players == 2 else WIDTH


def _row_height(players: int) -> int:
    """The centre and supply rows: one board wide (one column, or beside the last board) their tiles take two
    lines."""
    return ROW_H if players == 4 else 2 * ROW_H - 12


def _span_row_height(span: tuple[int, int]) -> int:
    """A centre or supply row as wide as ``span``: one board wide, its tiles take two lines."""
    return _row_height(2 if span[1] - span[0] <= WIDTH // 2 else 4)


def _beside_last_board(state: SPState) -> c.Box | None:
    """With three players the last board sits left and the factories, centre and supply (or the standings) fill
    the space beside it, instead of a full-width area above the boards and an empty quarter below."""
    if state.players != 3:
        return None
    x, y = _board_origin(2, 3, MARGIN + _top_height(state) + MARGIN)
    return (x + BOARD_W + MARGIN, y, WIDTH - MARGIN, y + BOARD_H)


def closeup_regions(state: SPState, seat: int) -> tuple[list[c.Box], c.Box]:
    """The shared area (strip, factories, centre and supply, or standings) and ``seat``'s board with its margin."""
    top_h = _top_height(state)
    x, y = _board_origin(seat, state.players, MARGIN + top_h + MARGIN)
    width = _width(state.players)
    size = (width, _height(state))
    board = c.around((x, y, x + BOARD_W, y + BOARD_H), size, MARGIN)
    shared = [(0, 0, width, MARGIN + top_h + MARGIN // 2)]
    beside = _beside_last_board(state)
    if beside is not None and seat != state.players - 1:
        shared.append(c.around(beside, size, MARGIN // 2))
    return shared, board


# --- events ----------------------------------------------------------------------------------------------------------
def read_events(events: Sequence[Any]) -> LastMove:
    """Read the engine's events (documented in ``engine/summer_pavilion.py``) into what to highlight. When the
    move also ended the round, the factories have been dealt again, so only board changes stay highlighted."""
    last = LastMove()
    for event in events:
        data: Mapping[str, Any] = event.data
        seat = event.seat
        if event.kind == "take" and seat is not None:
            last.seat = seat
            source = data.get("source")
            last.from_centre = source == "centre"
            last.source = source if isinstance(source, int) else None
            last.hand_changed = True
        elif event.kind == "start_tile" and seat is not None:
            last.score_change -= int(data.get("penalty", 0))
        elif event.kind == "place" and seat is not None:
            last.seat = seat
            last.placed = (int(data["star"]), int(data["space"]), int(data.get("points", 0)))
        elif event.kind == "bonus_earned" and seat is not None:
            last.structures = [(str(s["kind"]), int(s["star"])) for s in data.get("structures", [])]
        elif event.kind == "bonus_taken" and seat is not None:
            last.seat = seat
            last.hand_changed = True
            last.supply_changed = True
        elif event.kind == "pass" and seat is not None and last.seat in (None, seat) and not data.get("auto"):
            last.seat = seat
            last.score_change -= int(data.get("penalty", 0))
        elif event.kind == "round_started":
            last.source, last.from_centre, last.hand_changed, last.supply_changed = None, False, False, False
    return last


# --- shared area -----------------------------------------------------------------------------------------------------
def _top_height(state: SPState) -> int:
    if state.players == 3:  # everything but the strip sits beside the last board
        return _strip_height(state.players)
    if state.phase == "over":
        return _strip_height(state.players) + 8 + _standings_height(state.players)
    factories = NARROW_FACTORY_D if state.players == 2 else FACTORY_D
    return _strip_height(state.players) + 8 + factories + 26 + 2 * _row_height(state.players) + 8


def _strip_height(players: int) -> int:
    return STRIP_H + TRACK_LINE if players == 2 else STRIP_H  # in one column the round track has its own line


def _draw_strip(table: Table) -> int:
    d, state, image = table.d, table.state, table.image
    y = MARGIN
    mid = y + STRIP_H // 2
    bold, regular = c.font(24, bold=True), c.font(22)
    title = table.label("game_over") if state.phase == "over" else table.label("round", round=state.round)
    if table.mono:
        title += " · " + table.label("sp.mono")
    c.text_at(d, (MARGIN + 4, mid), title, bold, anchor="lm")
    x = MARGIN + 4 + c.width(title, bold) + 18
    title_end = x
    narrow = image.width <= NARROW  # one column: the round track gets its own line
    if narrow:
        x, mid = MARGIN + 4, mid + TRACK_LINE
    small = 26
    c.text_at(d, (x, mid), table.label("sp.wild"), c.font(18), fill=c.MUTED, anchor="lm")
    x += c.width(table.label("sp.wild"), c.font(18)) + 8
    for number in range(1, ROUNDS + 1):
        ty = mid - small // 2
        size = small if number != state.round or state.phase == "over" else small + 6
        if size != small:
            ty -= 3
        c.paste(image, c.tile(COLORS[wild_of(number)], size), (x, ty))
        if number == state.round:
            _mark_wild(table, wild_of(number), (x, ty), size)
        if number == state.round and state.phase != "over":
            c.highlight(d, (x, ty, x + size - 1, ty + size - 1), radius=7, width=3)
        elif number < state.round or state.phase == "over":
            d.line((x + 3, ty + size - 4, x + size - 4, ty + 3), fill=c.BG, width=3)  # a past round, struck out
        x += size + 8
    counts = [table.label("bag", count=sum(state.bag)), table.label("sp.tower", count=sum(state.tower))]
    right = table.image.width - MARGIN - 4
    stacked = c.font(21)
    # One column: the counts stay beside the title, unless a long title (Ukrainian, monochrome) fills its line:
    # then they go after the track.
    if narrow and right - max(c.width(text, stacked) for text in counts) > title_end + 4:
        x, mid = title_end, mid - TRACK_LINE
    if right - c.width("   ".join(counts), regular) > x + 4:
        c.text_at(d, (right, mid), "   ".join(counts), regular, fill=c.MUTED, anchor="rm")
    else:  # no room for one line: stack the counts, never overlap the title or the track
        c.text_at(d, (right, mid - 1), counts[0], stacked, fill=c.MUTED, anchor="rd")
        c.text_at(d, (right, mid + 1), counts[1], stacked, fill=c.MUTED, anchor="ra")
    return y + _strip_height(2 if narrow else state.players) + 8


def _mark_wild(table: Table, color: int, xy: tuple[int, int], size: int) -> None:
    """A folded white corner on tiles of the round's wild colour, the same in the round track as everywhere else."""
    if color != table.state.wild or table.state.phase == "over":
        return
    x, y = xy
    fold = max(10, size * 2 // 5)
    corner = [(x + size - fold, y), (x + size - 1, y), (x + size - 1, y + fold - 1)]
    table.d.polygon(corner, fill=c.TEXT, outline=c.DARK_INK)


def _draw_factories(table: Table, y: int, span: tuple[int, int]) -> int:
    """The factories in one row across the picture, or one board wide in rows of at most five."""
    count = len(table.state.factories)
    narrow = span[1] - span[0] < WIDTH // 2
    per_row = (count + 1) // 2 if narrow and count > 5 else count
    for first in range(0, count, per_row):
        y = c.factory_row(
            table,
            y,
            COLORS,
            highlighted=None,  # the caption says where tiles came from; only moved tiles are outlined
            on_tile=lambda color, xy, size: _mark_wild(table, color, xy, size),
            diameter=NARROW_FACTORY_D if narrow else FACTORY_D,
            tile_size=NARROW_FACTORY_TILE if narrow else FACTORY_TILE,
            margin=MARGIN,
            step=(NARROW - 2 * MARGIN) // 5 if narrow else None,
            indices=range(first, min(count, first + per_row)),
            span=(span[0] - MARGIN, span[1] + MARGIN),
        )
    return y


def _draw_counts_row(table: Table, box: tuple[int, int, int, int], title: str, counts: Sequence[int]) -> int:
    """A labelled row of tiles with their counts, going on in further lines when ``box`` is too narrow; returns
    where the tiles start."""
    image, d = table.image, table.d
    label, count_face = c.font(20, bold=True), c.font(22, bold=True)
    c.text_at(d, (box[0] + 16, box[1] + ROW_H // 2), title, label, anchor="lm")
    start, placed = _counts_layout(title, counts, box[0], box[2])
    for color, x, line in placed:
        y = box[1] + line * (ROW_H - 12)
        ty = y + (ROW_H - ROW_TILE) // 2
        c.paste(image, c.tile(COLORS[color], ROW_TILE), (x, ty))
        _mark_wild(table, color, (x, ty), ROW_TILE)
        c.text_at(d, (x + ROW_TILE + 5, y + ROW_H // 2), f"×{counts[color]}", count_face, anchor="lm")
    if not any(counts):
        c.text_at(d, (start, box[1] + ROW_H // 2), table.label("empty"), c.font(20), fill=c.MUTED, anchor="lm")
    return start


def _counts_layout(title: str, counts: Sequence[int], left: int, right: int) -> tuple[int, list[tuple[int, int, int]]]:
    """Where :func:`_draw_counts_row` puts each colour's tile between ``left`` and ``right``: where the tiles start,
    and ``(colour, x, line)`` for each colour present."""
    label, count_face = c.font(20, bold=True), c.font(22, bold=True)
    start = x = left + 28 + c.width(title, label)
    line, placed = 0, []
    for color, count in enumerate(counts):
        if not count:
            continue
        w = ROW_TILE + 5 + c.width(f"×{count}", count_face)
        if x + w > right - 8 and x > start:
            x, line = left + 16, line + 1
        placed.append((color, x, line))
        x += w + 16
    return start, placed


def _counts_height(title: str, counts: Sequence[int], span: tuple[int, int]) -> int:
    """How tall :func:`_draw_counts_row` draws its panel between ``span``: a line, and as many more as it needs."""
    _, placed = _counts_layout(title, counts, *span)
    return ROW_H + (ROW_H - 12) * max((line for _, _, line in placed), default=0)


def _centre_height(state: SPState, locale: str, span: tuple[int, int]) -> int:
    """The centre's panel in the personal view: as many lines as its tiles take (an empty centre says so on one)."""
    return _counts_height(_centre_title(state, locale), state.centre, span)


def _supply_height(state: SPState, locale: str, span: tuple[int, int]) -> int:
    return _counts_height(t("picture.sp.supply", locale), state.supply, span)


def _centre_title(state: SPState, locale: str) -> str:
    """The centre's label, with room after it for the start tile while it lies there."""
    return t("picture.centre", locale) + ("      " if state.start_tile < 0 else "")


def _draw_centre(table: Table, y: int, span: tuple[int, int], *, height: int | None = None) -> int:
    state, d = table.state, table.d
    box = (span[0], y, span[1], y + (height or _span_row_height(span)))
    c.panel(d, box)
    c.mark_region("centre", box)
    if state.start_tile < 0:
        label = c.font(20, bold=True)
        tx = box[0] + 28 + c.width(table.label("centre"), label)
        ty = y + (ROW_H - ROW_TILE) // 2
        c.paste(table.image, c.tile("marker", ROW_TILE), (tx, ty))
    _draw_counts_row(table, box, _centre_title(state, table.locale), state.centre)
    return box[3]


def _draw_supply(table: Table, y: int, span: tuple[int, int], *, height: int | None = None) -> None:
    d = table.d
    box = (span[0], y, span[1], y + (height or _span_row_height(span)))
    c.panel(d, box)
    _draw_counts_row(table, box, table.label("sp.supply"), table.state.supply)


# --- boards ----------------------------------------------------------------------------------------------------------
def _board_origin(seat: int, players: int, top: int) -> tuple[int, int]:
    row, col = (seat, 0) if players == 2 else divmod(seat, 2)
    return MARGIN + col * (BOARD_W + MARGIN), top + row * (BOARD_H + MARGIN)


def _unit(degrees: float) -> tuple[float, float]:
    """A unit vector in screen coordinates (y grows downwards) for an angle counter-clockwise from the right."""
    rad = math.radians(degrees)
    return math.cos(rad), -math.sin(rad)


@cache  # geometry: fixed, and asked for a hundred times a picture
def star_centre(star: int) -> tuple[float, float]:
    """The centre of a star relative to the middle of the cluster (1x pixels)."""
    if star == CENTRE:
        return 0.0, 0.0
    ux, uy = _unit(STAR_ANGLES[star])
    return 3 * A * ux, 3 * A * uy


def space_axis(star: int, space: int) -> float:
    """The angle a space points to from its star's centre: clockwise numbering, as on the board."""
    if star == CENTRE:
        return 90 - 60 * space
    return STAR_ANGLES[star] - 90 - 60 * space


def diamond(star: int, space: int, scale: float = 1.0, shrink: float = 0.9) -> list[tuple[float, float]]:
    """The four corners of a space (relative to the cluster's middle), shrunk around its centre to leave a gap."""
    sx, sy = star_centre(star)
    phi = space_axis(star, space)
    corners = [(0.0, 0.0), (A, phi + 30), (A * math.sqrt(3), phi), (A, phi - 30)]
    points = [(sx, sy)]
    for length, angle in corners[1:]:
        ux, uy = _unit(angle)
        points.append((sx + length * ux, sy + length * uy))
    mx, my = space_middle(star, space)
    return [((mx + (x - mx) * shrink) * scale, (my + (y - my) * shrink) * scale) for x, y in points]


@cache  # geometry: fixed, and asked for a hundred times a picture
def space_middle(star: int, space: int) -> tuple[float, float]:
    sx, sy = star_centre(star)
    ux, uy = _unit(space_axis(star, space))
    half = A * math.sqrt(3) / 2
    return sx + half * ux, sy + half * uy


@cache  # geometry: fixed, and asked for a hundred times a picture
def structure_middle(structure: Structure) -> tuple[float, float]:
    if structure.kind == "window":
        sx, sy = star_centre(structure.star)
        ux, uy = _unit(STAR_ANGLES[structure.star])
        return sx + 1.45 * A * ux, sy + 1.45 * A * uy
    xs = [space_middle(s, i) for s, i in structure.spaces]
    return sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)


def _star_face(mono: bool, star: int) -> tuple[int, int, int]:
    if mono:
        return MONO_FACE
    if star == CENTRE:
        return EMPTY_FACE
    fill = c.STYLES[COLORS[FRONT_STAR_COLORS[star]]].fill
    return tuple(round(v * 0.42 + b * 0.58) for v, b in zip(fill, c.PANEL, strict=True))  # type: ignore[return-value]


@cache
def _empty_cluster(mono: bool) -> Image.Image:
    """The stars with every space empty (cost printed) and the structures: drawn once per side."""
    size = (CLUSTER_W * SS, CLUSTER_H * SS)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    ox, oy = CLUSTER_W / 2, CLUSTER_H / 2
    for star in range(STARS):
        face = _star_face(mono, star)
        for space in range(SPACES):
            points = [((x + ox * SS), (y + oy * SS)) for x, y in diamond(star, space, SS)]
            d.polygon(points, fill=face, outline=c.PANEL_EDGE, width=2)
    image = layer.reduce(SS)
    d1 = ImageDraw.Draw(image)
    digits = c.font(23, bold=True)  # the costs decide moves: readable on a phone
    for star in range(STARS):
        for space in range(SPACES):
            mx, my = space_middle(star, space)
            cost = space_cost(mono, star, space)
            c.text_at(d1, (mx + ox, my + oy), str(cost), digits, fill=c.TEXT, anchor="mm")
            if not mono and star != CENTRE:
                _empty_space_mark(d1, star, space, (ox, oy))
    return image


def _empty_space_mark(d: ImageDraw.ImageDraw, star: int, space: int, offset: tuple[float, float]) -> None:
    """The star's colour-blind mark in an empty space's outer tip, so a space says which colour it takes by shape
    as well as by its dim fill (a tile covers it)."""
    style = c.STYLES[COLORS[FRONT_STAR_COLORS[star]]]
    x, y = empty_mark_middle(star, space)
    x, y = x + offset[0], y + offset[1]
    half = EMPTY_MARK // 2
    ink = _mix(style.fill, c.TEXT, 0.45)
    c.draw_mark(d, (round(x - half), round(y - half), round(x + half), round(y + half)), style.mark, ink)


def empty_mark_middle(star: int, space: int) -> tuple[float, float]:
    """Where an empty space's colour mark sits (relative to the cluster's middle): past the cost, where the tip is
    still wide enough."""
    sx, sy = star_centre(star)
    ux, uy = _unit(space_axis(star, space))
    reach = A * math.sqrt(3) * 0.75
    return sx + reach * ux, sy + reach * uy


def _mix(a: c.RGB, b: c.RGB, share_of_b: float) -> c.RGB:
    return tuple(round(x + (y - x) * share_of_b) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


# Pieces drawn over the cluster are cached as sprites and put down with a mask of exactly the pixels their drawing
# sets, so a picture is the same as if every piece were drawn in place, only much faster (see ``_put``).
Sprite = tuple[Image.Image, Image.Image, tuple[int, int]]  # (pixels, mask, offset from the anchor point)


def _sprite(size: int, draw: Callable[[ImageDraw.ImageDraw, int, int], None]) -> Sprite:
    """Run ``draw(d, x, y)`` around the middle of a transparent square of ``size`` pixels and keep what it set, as
    it shows on the board's panel (where the cluster lies: see :func:`_cluster_on_panel`)."""
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    half = size // 2
    draw(ImageDraw.Draw(layer), half, half)
    mask = layer.getchannel("A").point(lambda v: 255 if v else 0)
    return _on_panel(layer), mask, (-half, -half)


def _put(layer: Image.Image, sprite: Sprite, xy: tuple[int, int]) -> None:
    """Set the sprite's pixels on ``layer`` (the cluster on its panel) with its anchor at ``xy``."""
    pixels, mask, (dx, dy) = sprite
    x, y = xy[0] + dx, xy[1] + dy
    layer.im.paste(pixels.im, (x, y, x + pixels.width, y + pixels.height), mask.im)  # Pillow's core: see c.paste


@cache
def _hub(mono: bool, star: int, color: int = -1) -> Sprite:
    """The middle of an outer star: its number (monochrome side, as in the notation) or its colour's mark. On the
    monochrome side the number sits on the star's colour once its tiles so far are all of one colour (from the first
    tile on), so nobody has to work the colour out from the spaces."""

    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        if mono:
            style = c.STYLES[COLORS[color]] if color >= 0 else None
            fill, ink = (style.fill, style.ink[:3]) if style else (c.PANEL, c.TEXT)
            if style and sum(style.ink[:3]) < 200:
                ink = c.DARK_INK
            d.ellipse((x - 14, y - 14, x + 14, y + 14), fill=fill, outline=c.TEXT, width=2)
            c.text_at(d, (x, y), str(star + 1), c.font(20, bold=True), fill=ink, anchor="mm")
        else:  # for colour-blind players
            style = c.STYLES[COLORS[FRONT_STAR_COLORS[star]]]
            d.ellipse((x - 10, y - 10, x + 10, y + 10), fill=style.fill, outline=c.PANEL, width=2)
            c.draw_mark(d, (x - 7, y - 7, x + 7, y + 7), style.mark, style.ink)

    return _sprite(36, draw)


def hub_color(mono: bool, tiles: Sequence[int]) -> int:
    """The colour a monochrome star shows at its hub: the one colour of its tiles so far, or -1 (none or several)."""
    placed = {color for color in tiles if color >= 0}
    return placed.pop() if mono and len(placed) == 1 else -1


@cache
def _structure_icon(kind: str, bonus: int, done: bool) -> Sprite:
    r = 11 if kind == "pillar" else 12
    fill = c.HIGHLIGHT if done else c.PANEL
    ink = c.DARK_INK if done else c.MUTED

    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        if kind == "pillar":
            d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=c.PANEL_EDGE, width=2)
        elif kind == "statue":
            d.regular_polygon((x, y, r + 2), 4, rotation=45, fill=fill, outline=c.PANEL_EDGE)
        else:
            d.rounded_rectangle((x - r, y - r, x + r, y + r), 6, fill=fill, outline=c.PANEL_EDGE, width=2)
        c.text_at(d, (x, y), str(bonus), c.font(20, bold=True), fill=ink, anchor="mm")

    return _sprite(40, draw)


@cache
def _space_mark(color: int) -> Sprite:
    style = c.STYLES[COLORS[color]]
    return _sprite(24, lambda d, x, y: c.draw_mark(d, (x - 9, y - 9, x + 9, y + 9), style.mark, style.ink))


@cache
def _covered_space(star: int, space: int, color: int) -> tuple[Image.Image, tuple[int, int]]:
    """A covered space as the cluster shows it, and where it goes in the cluster: drawn at ``SS`` times the size in
    the cluster's own coordinates (Pillow's polygon edges depend on where they are drawn), cut out along whole
    ``SS`` blocks and shrunk, so its pixels equal those of the whole cluster drawn large and shrunk."""
    ox, oy = CLUSTER_W / 2 * SS, CLUSTER_H / 2 * SS
    points = [(x + ox, y + oy) for x, y in diamond(star, space, SS)]
    left = max(0, math.floor(min(x for x, _ in points)) // SS - 2) * SS
    top = max(0, math.floor(min(y for _, y in points)) // SS - 2) * SS
    right = min(CLUSTER_W, math.ceil(max(x for x, _ in points)) // SS + 3) * SS
    bottom = min(CLUSTER_H, math.ceil(max(y for _, y in points)) // SS + 3) * SS
    big = Image.new("RGBA", (right, bottom), (0, 0, 0, 0))
    style = c.STYLES[COLORS[color]]
    ImageDraw.Draw(big).polygon(points, fill=style.fill, outline=c.DARK_INK, width=2)
    return big.crop((left, top, right, bottom)).reduce(SS), (left // SS, top // SS)


def _draw_cluster(table: Table, seat: int, origin: tuple[int, int]) -> None:
    """The stars of one board: covered spaces, hubs and structures put over the cached empty cluster, which is
    already flattened onto the board's panel (:func:`_cluster_on_panel`), so the stars land with one plain paste."""
    board, last = table.state.boards[seat], table.last
    stars = tuple(tuple(star) for star in board.stars)
    placed = last.placed[:2] if last.seat == seat and last.placed is not None else None
    structures = tuple(last.structures) if last.seat == seat else ()
    cluster = _cluster(table.mono, stars, placed, structures)
    x0, y0 = origin
    table.image.paste(cluster, (x0 + (BOARD_W - CLUSTER_W) // 2, y0 + PAD + HEADER_H))


Stars = tuple[tuple[int, ...], ...]


@lru_cache(maxsize=16)
def _cluster(
    mono: bool, stars: Stars, placed: tuple[int, int] | None, structures: tuple[tuple[str, int], ...]
) -> Image.Image:
    """A board's cluster with the spaces ``stars`` covers, the space just ``placed`` ringed and the just completed
    ``structures`` circled; kept for the next picture (a board's stars change only when its player places a tile,
    a quarter of the picture's drawing otherwise; 16 clusters take 12 MB). Do not modify."""
    cluster = _cluster_on_panel(mono).copy()
    covered = [(star, space) for star in range(STARS) for space in range(SPACES) if stars[star][space] >= 0]
    ox, oy = CLUSTER_W / 2, CLUSTER_H / 2
    for star, space in covered:
        patch, xy = _covered_space(star, space, stars[star][space])
        c.paste(cluster, patch, xy)
    for star, space in covered:
        mx, my = space_middle(star, space)
        _put(cluster, _space_mark(stars[star][space]), (round(mx + ox), round(my + oy)))
    d = ImageDraw.Draw(cluster)
    if placed is not None:  # under the hubs and icons, so it never covers a number
        ring = [(ox + x, oy + y) for x, y in diamond(*placed, shrink=1.08)]
        d.polygon(ring, outline=c.HIGHLIGHT, width=4)
    for star in range(6):
        sx, sy = star_centre(star)
        _put(cluster, _hub(mono, star, hub_color(mono, stars[star])), (round(sx + ox), round(sy + oy)))
    for structure in STRUCTURES:
        mx, my = structure_middle(structure)
        done = all(stars[s][i] >= 0 for s, i in structure.spaces)
        icon = _structure_icon(structure.kind, structure.bonus, done)
        _put(cluster, icon, (round(mx + ox), round(my + oy)))
        if (structure.kind, structure.star) in structures:
            r = 17
            d.ellipse((mx + ox - r, my + oy - r, mx + ox + r, my + oy + r), outline=c.HIGHLIGHT, width=3)
    return cluster


@cache
def _cluster_on_panel(mono: bool) -> Image.Image:
    """:func:`_empty_cluster` on the panel's fill, where every board puts it: blending the transparent cluster onto
    the panel cost 0.6 ms a board; now it is done once per side, and each piece put on it is blended onto the
    panel's fill once too (:func:`_sprite`), as it was when it landed on the panel with the cluster."""
    return _on_panel(_empty_cluster(mono))


def _on_panel(layer: Image.Image) -> Image.Image:
    """A transparent ``layer`` as it shows on the board's panel."""
    flat = Image.new("RGB", layer.size, c.PANEL)
    flat.paste(layer, (0, 0), layer)
    return flat


def _draw_board(table: Table, seat: int, origin: tuple[int, int]) -> None:
    d, state = table.d, table.state
    ox, oy = origin
    box = (ox, oy, ox + BOARD_W - 1, oy + BOARD_H - 1)
    c.panel(d, box)
    board = state.boards[seat]
    header = (ox + PAD + 2, oy + PAD - 4, ox + BOARD_W - PAD - 2, oy + PAD + HEADER_H - 4)
    last = table.last
    change = last.score_change + (last.placed[2] if last.placed else 0)
    notes = []
    if _keep_rule_applies(state, board):  # what passing with this hand costs, as BGA labels the hand
        rule = table.label("sp.keep_rule", most=MAX_KEEP)
        short = table.label("sp.keep_rule_short", most=MAX_KEEP)
        notes.append(c.Pill(rule, fill=c.PANEL_EDGE, ink=c.MUTED, short=short))
    c.seat_header(table, seat, header, board.score, notes=notes, delta=change if last.seat == seat else 0)
    _draw_cluster(table, seat, origin)
    _draw_hand(table, seat, (ox + PAD, oy + BOARD_H - PAD - HAND_H, ox + BOARD_W - PAD, oy + BOARD_H - PAD))
    if state.phase != "over" and state.current == seat:
        key = "sp.pick_bonus" if state.phase == "bonus" else "to_act"
        c.mark_to_act(d, box, table.label(key, count=state.bonus_pending))


def _draw_hand(table: Table, seat: int, box: tuple[int, int, int, int]) -> None:
    """The tiles in hand (with counts), then the tiles kept on the corners, then "passed"."""
    image, d = table.image, table.d
    board = table.state.boards[seat]
    x, top, right, bottom = box
    mid = (top + bottom) // 2
    ty = mid - HAND_TILE // 2
    held = [(color, f"×{count}") for color, count in enumerate(board.hand) if count]
    room = right - x - (HAND_TILE + 8 if table.state.start_tile == seat else 0)
    for size, font_size, gap in ((HAND_TILE, 22, 10), (HAND_TILE, 19, 4), (24, 17, 2)):  # big hands: tighter
        count_face = c.font(font_size, bold=True)
        if sum(size + 2 + c.width(text, count_face) + gap for _, text in held) <= room:
            break
    start = x
    for color, text in held:
        c.paste(image, c.tile(COLORS[color], size), (x, mid - size // 2))
        _mark_wild(table, color, (x, mid - size // 2), size)
        c.text_at(d, (x + size + 2, mid), text, count_face, anchor="lm")
        x += size + 2 + c.width(text, count_face) + gap
    if not any(board.hand) and not any(board.kept):
        c.text_at(d, (x, mid), table.label("sp.no_tiles"), c.font(18), fill=c.MUTED, anchor="lm")
    if table.last.seat == seat and table.last.hand_changed and x > start:
        c.highlight(d, (start, ty, x - gap, ty + HAND_TILE - 1), width=3)
    if any(board.kept):
        x += 6
        label = table.label("sp.kept")
        c.text_at(d, (x, mid), label, c.font(20, bold=True), fill=c.MUTED, anchor="lm")
        x += c.width(label, c.font(20, bold=True)) + 6
        for color, count in enumerate(board.kept):
            for _ in range(count):
                c.paste(image, c.tile(COLORS[color], HAND_TILE - 6), (x, ty + 3))
                x += HAND_TILE - 2
    if table.state.start_tile == seat and table.state.phase != "over":
        right -= HAND_TILE
        c.paste(image, c.tile("marker", HAND_TILE), (right, ty))
        right -= 8
    if board.passed and table.state.phase != "over":
        c.badge(d, (right, mid), table.label("sp.passed"), c.font(18, bold=True), fill=c.MUTED, anchor="rm")


def _keep_rule_applies(state: SPState, board: Any) -> bool:
    """A hand of more than the tiles one may keep, before the last round's end (nothing is kept after it)."""
    return bool(state.phase == "play" and state.round < ROUNDS and sum(board.hand) > MAX_KEEP)


# --- end of game -----------------------------------------------------------------------------------------------------


def _standings_height(players: int) -> int:
    return c.standings_height(players)


def _draw_standings(table: Table, box: c.Box) -> None:
    """The final standings with each player's end bonuses: complete stars and all spaces of a cost."""

    def bonuses(seat: int) -> list[int]:
        stars, costs = end_bonuses(table.state.boards[seat], table.mono)
        return [sum(p for _, p in stars), sum(p for _, p in costs)]

    heads = [table.label("sp.head.stars"), table.label("sp.head.costs")]
    c.standings(table, (box[0], box[1], box[2]), heads, bonuses)


RENDERER = Renderer(
    game="summer-pavilion", draw_table=draw_table, closeup_regions=closeup_regions, draw_personal=draw_personal
)


# --- demo and benchmark ----------------------------------------------------------------------------------------------
def _sample_tables() -> dict[str, tuple[Any, list[Any], list[str]]]:
    """Seeded greedy games stopped at moments worth seeing: (state, last events, names) by sample name."""
    from engine.agents import GreedyAgent

    names = ["Zoë Żółtowska-Brzęczyszczykiewicz 🎲", "Олександра", "Bob", "ʕ•ᴥ•ʔ Kuba 💙"]
    wanted: dict[str, tuple[str, int, int, Callable[[Any, list[Any]], bool]]] = {
        "start-2p": ("summer-pavilion", 2, 1, lambda s, e: True),
        "bonus-4p": ("summer-pavilion", 4, 3, lambda s, e: s.round == 3 and any(x.kind == "bonus_earned" for x in e)),
        "mono-3p": ("summer-pavilion-mono", 3, 2, lambda s, e: s.round == 5 and any(x.kind == "place" for x in e)),
        "mono-4p": ("summer-pavilion-mono", 4, 6, lambda s, e: s.round == 6 and s.phase == "play"),
        "game-over-4p": ("summer-pavilion", 4, 4, lambda s, e: False),
    }
    tables = {}
    for sample, (variant, players, seed, stop) in wanted.items():
        state = engine.new_game(variant, players, seed)
        agent = GreedyAgent(seed)
        events: list[Any] = []
        while not engine.is_over(state) and not stop(state, events):
            seat = min(engine.to_act(state))
            state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        tables[sample] = (state, events, names[:players])
    return tables


def _main(argv: Sequence[str]) -> int:
    """``python -m render.summer_pavilion [dir] [--repeat N]``: time every sample picture (drawing and PNG), print
    its size, and write the PNGs to ``dir`` when given."""
    import argparse
    import statistics
    import time
    from pathlib import Path

    from render import render_png

    parser = argparse.ArgumentParser(prog="python -m render.summer_pavilion")
    parser.add_argument("directory", nargs="?", type=Path)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--locale", default="en")
    args = parser.parse_args(list(argv))
    print(f"{'picture':<16}{'median ms':>10}{'max ms':>8}{'KB':>6}")
    for sample, (state, events, names) in _sample_tables().items():
        png = render_png(state, names=names, events=events, locale=args.locale)  # warm the caches
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            png = render_png(state, names=names, events=events, locale=args.locale)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{sample:<16}{statistics.median(times):>10.1f}{max(times):>8.1f}{len(png) / 1024:>6.0f}")
        if args.directory:
            args.directory.mkdir(parents=True, exist_ok=True)
            (args.directory / f"summer_pavilion-{sample}.png").write_bytes(png)
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(_main(sys.argv[1:]))
