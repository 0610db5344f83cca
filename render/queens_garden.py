"""The Queen's Garden table as one picture, designed for a phone first.

Layout, top to bottom: a strip with the round, the wheel's criteria for this round, supply, bag and tower; the
display (the round stack with the tiles on its top expansion, then the expansions beside it, named ``s``, ``d1``,
``d2``... as in the moves); then one panel per player in a two-column grid: the garden as a hex map with every free
cell's name (``F1``, ``A3-4``... the names the moves use), the storage (tiles, jokers, expansions) beside it.

A hexagon shows its colour (fill plus the colour's colour-blind mark, large, at its top) and its pattern as an icon with
the pattern's value. What the last move changed (the ``events`` of ``engine.apply``) is ringed in gold. At the end
of the game each panel lists its final breakdown: storage and every scoring group.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

import engine
from engine.queens_garden import (
    CELL_COORDS,
    CELLS,
    ORNAMENTS,
    QGPlayer,
    QGState,
    area_cell,
    area_of,
    color_of,
    pattern_of,
    storage_value,
)
from render import common as c
from render.base import Renderer

HEX = 28  # garden hexagon radius (centre to corner)
SMALL = 21  # storage and display hexagons
MARGIN = 12
PAD = 12
HEADER_H = 40
STORE_H = 112  # the storage strip under the garden
SQRT3 = math.sqrt(3)

STONE = (96, 104, 122)
STONE_EDGE = (140, 148, 166)
FREE = (54, 62, 80)
FREE_EDGE = (92, 104, 128)
UNLAID = (38, 44, 58)
JOKER = (246, 244, 236)

ORNAMENT_MARK = {"fountain": "ring", "statue": "diamond", "bench": "bars", "pavilion": "triangle"}


def _xy(coord: tuple[int, int], size: float) -> tuple[float, float]:
    q, r = coord
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


_ALL_COORDS = [*CELL_COORDS, *(o.coord for o in ORNAMENTS)]
_XS = [_xy(coord, HEX)[0] for coord in _ALL_COORDS]
_YS = [_xy(coord, HEX)[1] for coord in _ALL_COORDS]
GARDEN_W = int(max(_XS) - min(_XS) + SQRT3 * HEX) + 4
GARDEN_H = int(max(_YS) - min(_YS) + 2 * HEX) + 4
PANEL_W = PAD + GARDEN_W + PAD
PANEL_H = PAD + HEADER_H + GARDEN_H + STORE_H + PAD
WIDTH = 2 * PANEL_W + 3 * MARGIN
NARROW = PANEL_W + 2 * MARGIN  # two players: one column, so a phone shows the gardens twice as large
STRIP_H = 64
WHEEL_LINE = 24
NARROW_STRIP_H = STRIP_H + 52 + WHEEL_LINE  # one column: the wheel, what it scores and the counts, a line each
DISPLAY_ROW_H = 92


@dataclass
class LastMove:
    seat: int | None = None
    cells: set[str] = field(default_factory=set)
    locations: set[str] = field(default_factory=set)
    storage: bool = False
    delta: int = 0
    taken: dict[tuple[str, bool], int] = field(default_factory=dict)  # (kind's code, expansion) -> how many acquired


@dataclass
class Table(c.Table):
    """One picture being drawn: the canvas, what the last move touched and the variant's colours."""

    state: QGState
    last: LastMove
    codes: tuple[str, ...]
    colors: tuple[str, ...]

    def state_score(self, seat: int) -> int:
        return int(self.state.players[seat].score)


def draw_table(
    state: QGState,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
    seats: Collection[int] | None = None,
) -> Image.Image:
    image, d = c.canvas(_width(state), _height(state))
    table = _table(image, d, state, names, locale, info, events)
    _draw_strip(table, engine.get_variant(state.variant).components)  # type: ignore[attr-defined]
    shared = _shared_box(state)
    if state.phase == "over":
        _draw_standings(table, shared)
    else:
        _draw_display(table, shared)
    for seat in range(state.player_count):
        if seats is not None and seat not in seats:
            continue
        _draw_player(table, seat, *_panel_origin(state, seat))
    return image


def draw_personal(
    state: QGState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[Any] = (),
    locale: str = "en",
    info: Sequence[c.SeatInfo | None] = (),
) -> Image.Image:
    """``seat``'s view of a table of three or four, one garden wide so a phone shows it large: the strip, the
    display (or the standings), the player's own garden and storage, and one row for each other player (what their
    storage would score now, and their score)."""
    image, d = c.canvas(NARROW, _personal_height(state))
    table = _table(image, d, state, names, locale, info, events)
    table.acting = set(engine.to_act(state)) if state.phase != "over" else set()
    _draw_strip(table, engine.get_variant(state.variant).components)  # type: ignore[attr-defined]
    top = MARGIN + NARROW_STRIP_H + MARGIN
    shared = (MARGIN, top, NARROW - MARGIN, top + _shared_height(state, MARGIN, NARROW - MARGIN))
    if state.phase == "over":
        _draw_standings(table, shared)
    else:
        _draw_display(table, shared)
    y = shared[3] + MARGIN + 4
    _draw_player(table, seat, MARGIN, y)
    others = [other for other in range(state.player_count) if other != seat]
    rows_top = y + _panel_height(state) + MARGIN + 4
    c.opponent_rows(table, (MARGIN, rows_top, NARROW - MARGIN), others, lambda s: _storage_words(table, s))
    return image


def _personal_height(state: QGState) -> int:
    top = MARGIN + NARROW_STRIP_H + MARGIN + _shared_height(state, MARGIN, NARROW - MARGIN) + MARGIN + 4
    return top + _panel_height(state) + MARGIN + 4 + c.opponents_height(state.player_count - 1) + MARGIN


def _storage_words(table: Table, seat: int) -> list[str]:
    """What an opponent's storage would score now, while the game goes on."""
    if table.state.phase == "over":
        return []
    comp = engine.get_variant(table.state.variant).components  # type: ignore[attr-defined]
    value = storage_value(comp, table.state.players[seat])
    return [table.label("qg.storage_now", points=c.signed(value))]


def _table(  # noqa: PLR0917
    image: Image.Image,
    d: ImageDraw.ImageDraw,
    state: QGState,
    names: Sequence[str],
    locale: str,
    info: Sequence[c.SeatInfo | None],
    events: Sequence[Any],
) -> Table:
    comp = engine.get_variant(state.variant).components  # type: ignore[attr-defined]
    return Table(image, d, state, names, locale, read_events(events), comp.color_codes, comp.colors, info=info)


def _width(state: QGState) -> int:
    return NARROW if state.player_count == 2 else WIDTH


def _strip_height(state: QGState) -> int:
    return NARROW_STRIP_H if state.player_count == 2 else STRIP_H


def _shared_height(state: QGState, left: int, right: int) -> int:
    return _standings_height(state) if state.phase == "over" else _display_height(state, left, right)


def _boards_top(state: QGState) -> int:
    top = MARGIN + _strip_height(state) + MARGIN
    if state.player_count == 3:  # the display (or the standings) sits beside the last garden
        return top
    return top + _shared_height(state, MARGIN, _width(state) - MARGIN) + MARGIN


def _shared_box(state: QGState) -> c.Box:
    """Where the display (or the standings) goes: under the strip, or with three players at the top of the space
    beside the last garden, which was left empty otherwise."""
    if state.player_count == 3:
        x, top = _panel_origin(state, 2)
        left, right = x + PANEL_W + MARGIN, WIDTH - MARGIN
    else:
        top, left, right = MARGIN + _strip_height(state) + MARGIN, MARGIN, _width(state) - MARGIN
    return left, top, right, top + _shared_height(state, left, right)


def _panel_height(state: QGState) -> int:
    return PANEL_H + _final_h(state)


def _panel_origin(state: QGState, seat: int) -> tuple[int, int]:
    row, col = (seat, 0) if state.player_count == 2 else divmod(seat, 2)
    return MARGIN + col * (PANEL_W + MARGIN), _boards_top(state) + row * (_panel_height(state) + MARGIN)


def _height(state: QGState) -> int:
    rows = 2 if state.player_count == 2 else (state.player_count + 1) // 2
    return _boards_top(state) + rows * (_panel_height(state) + MARGIN)


def closeup_regions(state: QGState, seat: int) -> tuple[list[c.Box], c.Box]:
    """The shared area (strip and display, or standings) and ``seat``'s panel with its margin."""
    x, y = _panel_origin(state, seat)
    size = (_width(state), _height(state))
    panel = c.around((x, y, x + PANEL_W, y + _panel_height(state)), size, MARGIN)
    shared = [(0, 0, size[0], _boards_top(state) - MARGIN // 2)]
    if state.player_count == 3 and seat != 2:
        shared.append(c.around(_shared_box(state), size, MARGIN // 2))
    return shared, panel


def _final_h(state: QGState) -> int:
    if state.phase != "over":
        return 0
    return 30 + 22 * max(1, max((len(f.get("groups", [])) + 1) // 2 for f in state.final) if state.final else 1)


# --- events ----------------------------------------------------------------------------------------------------------
def read_events(events: Sequence[Any]) -> LastMove:
    """What the last move touched (events documented in ``engine/queens_garden.py``)."""
    last = LastMove()
    for event in events:
        data: Mapping[str, Any] = event.data
        if event.kind == "acquire":
            last.seat, last.storage = event.seat, True
            last.locations = {str(item["location"]) for item in data["taken"]}
            for item in data["taken"]:
                key = (str(item["kind"]), bool(item["expansion"]))
                last.taken[key] = last.taken.get(key, 0) + 1
        elif event.kind == "tile_placed":
            last.seat = event.seat
            last.cells.add(str(data["cell"]))
        elif event.kind == "expansion_placed":
            last.seat = event.seat
            area = int(str(data["area"])[1:]) - 1
            last.cells.update(CELLS[area_cell(area, p)] for p in range(7))
            last.delta -= int(data["points"])
        elif event.kind == "pass":
            last.seat, last.storage = event.seat, bool(data["discarded"] != "-")
            last.delta -= int(data["penalty"])
        elif event.kind == "joker_earned":
            last.storage = True
    return last


# --- hexagons --------------------------------------------------------------------------------------------------------
def _corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def _hexagon(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Any, outline: Any, w: int = 2) -> None:  # noqa: PLR0917
    """A filled hexagon with a ``w``-pixel edge (two plain fills: Pillow's wide outlines are much slower)."""
    if w <= 1:
        d.polygon(_corners(cx, cy, size - 1), fill=fill, outline=outline)
        return
    d.polygon(_corners(cx, cy, size - 1), fill=outline)
    d.polygon(_corners(cx, cy, size - 1 - w * 1.15), fill=fill)


def draw_pattern(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, pattern: int, ink: Any) -> None:  # noqa: PLR0917
    """The pattern's icon: 1 tree, 2 bird, 3 butterfly, 4 flower, 5 plant, 6 lily (each with its count of parts)."""
    s = size
    if pattern == 1:  # tree: one canopy on a trunk
        d.polygon([(cx, cy - s), (cx + 0.7 * s, cy + 0.35 * s), (cx - 0.7 * s, cy + 0.35 * s)], fill=ink)
        d.rectangle((cx - 0.14 * s, cy + 0.3 * s, cx + 0.14 * s, cy + 0.85 * s), fill=ink)
    elif pattern == 2:  # bird: two wings
        w = max(2, int(s * 0.28))
        d.line([(cx - s, cy - 0.3 * s), (cx - 0.45 * s, cy + 0.25 * s), (cx, cy - 0.1 * s)], fill=ink, width=w)
        d.line([(cx, cy - 0.1 * s), (cx + 0.45 * s, cy + 0.25 * s), (cx + s, cy - 0.3 * s)], fill=ink, width=w)
    elif pattern == 3:  # butterfly: three wing pairs' worth, drawn as three wings and a body
        for dx, dy, r in ((-0.5, -0.35, 0.42), (0.5, -0.35, 0.42), (0.0, 0.45, 0.36)):
            x, y = cx + dx * s, cy + dy * s
            d.ellipse((x - r * s, y - r * s, x + r * s, y + r * s), fill=ink)
    else:  # flower 4, plant 5, lily 6: that many petals round a centre
        r = 0.34 * s if pattern == 4 else 0.28 * s
        ring = 0.58 * s
        for i in range(pattern):
            angle = -math.pi / 2 + 2 * math.pi * i / pattern
            x, y = cx + ring * math.cos(angle), cy + ring * math.sin(angle)
            if pattern == 5:  # plant: leaves as wedges
                d.polygon([(cx, cy), (x - r * 0.8, y), (x, y - r * 0.3), (x + r * 0.8, y)], fill=ink)
                d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
            else:
                d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
        if pattern != 5:
            d.ellipse((cx - 0.2 * s, cy - 0.2 * s, cx + 0.2 * s, cy + 0.2 * s), fill=ink)


def draw_hexagon(table: Table, cx: float, cy: float, size: float, kind: int, *, printed: bool = False) -> None:
    """A hexagon tile: colour fill, its colour-blind mark at the top, pattern icon and value in the middle (a cached
    sprite per kind and size, put down centred on the nearest pixel)."""
    _put_centred(table.image, _hexagon_sprite(table.colors, kind, size, printed), cx, cy)


@cache
def _hexagon_sprite(colors: tuple[str, ...], kind: int, size: float, printed: bool) -> Sprite:
    side = int(2 * size) + 4
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    cx = cy = side // 2
    style = c.STYLES[colors[color_of(kind)]]
    ink = style.ink[:3]  # opaque, as drawing straight onto the RGB table did
    _hexagon(d, cx, cy, size, style.fill, (245, 245, 245) if printed else (20, 22, 28), 3 if printed else 2)
    pattern = pattern_of(kind)
    draw_pattern(d, cx - size * 0.32, cy + size * 0.3, size * 0.3, pattern, ink)
    face = c.font(max(19, int(size * 0.8)), bold=True)  # the value decides moves: readable on a phone
    c.text_at(d, (cx + size * 0.34, cy + size * 0.3), str(pattern), face, fill=ink, anchor="mm")
    box = mark_box(cx, cy, size)  # the mark tells light from dark green and purple: the hexagon's whole top
    c.draw_mark(d, tuple(round(v) for v in box), style.mark, ink)  # type: ignore[arg-type]
    return Sprite.of(image)


def mark_box(cx: float, cy: float, size: float) -> tuple[float, float, float, float]:
    """Where a hexagon of radius ``size`` centred at ``(cx, cy)`` carries its colour's mark: its top, above the
    pattern and value, as large as the slanting edges allow."""
    half = size * 0.29
    my = cy - size * 0.42
    return cx - half, my - half, cx + half, my + half


@dataclass(frozen=True, slots=True)
class Sprite:
    """A cached piece ready to put down: its colours and the mask of the pixels it sets. Pieces drawn without
    anti-aliasing (every hexagon at the sizes the pictures use) get a one-bit mask, which Pillow pastes about
    three times faster than blending through an alpha channel, for the same pixels."""

    rgb: Image.Image
    mask: Image.Image

    @classmethod
    def of(cls, image: Image.Image) -> Sprite:
        alpha = image.getchannel("A")
        levels = alpha.histogram()
        binary = sum(levels[1:255]) == 0
        return cls(image.convert("RGB"), alpha.convert("1") if binary else alpha)


def _put_centred(image: Image.Image, sprite: Sprite, cx: float, cy: float) -> None:
    """Put a cached sprite (drawn around its middle) with its middle at the pixel nearest ``(cx, cy)``."""
    rgb = sprite.rgb
    x, y = round(cx) - rgb.width // 2, round(cy) - rgb.height // 2
    image.im.paste(rgb.im, (x, y, x + rgb.width, y + rgb.height), sprite.mask.im)  # Pillow's core: see c.paste


@cache
def _unlaid_area(area: int) -> Sprite:
    """An area with no expansion yet: its seven cells dim and its name in the middle (a cached sprite)."""
    side = 6 * HEX + 8
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    mx, my = _xy(CELL_COORDS[area_cell(area, 0)], HEX)
    for p in range(7):
        px, py = _xy(CELL_COORDS[area_cell(area, p)], HEX)
        _hexagon(d, side // 2 + px - mx, side // 2 + py - my, HEX, UNLAID, FREE_EDGE, 1)
    c.text_at(d, (side // 2, side // 2), f"A{area + 1}", c.font(19, bold=True), fill=c.MUTED, anchor="mm")
    return Sprite.of(image)


@cache
def _ornament(name: str, kind: str, done: bool) -> Sprite:
    """A fountain, statue, bench or pavilion with its name, framed green once its ring is full (a cached sprite)."""
    side = 2 * HEX + 4
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    x = y = side // 2
    _hexagon(d, x, y, HEX, STONE, c.ACCENT if done else STONE_EDGE, 3 if done else 2)
    if kind == "pavilion":
        _pavilion(d, x, y - 4, HEX * 0.8, c.TEXT)
    else:
        m = HEX * 0.32
        c.draw_mark(d, (int(x - m), int(y - 5 - m), int(x + m), int(y - 5 + m)), ORNAMENT_MARK[kind], c.TEXT)
    c.text_at(d, (x, y + HEX * 0.55), name, c.font(20, bold=True), fill=c.TEXT, anchor="mm")
    return Sprite.of(image)


@cache
def _free_cell(name: str) -> Sprite:
    """An empty garden cell with its name (as the moves write it; none when nobody needs to type it): cached."""
    side = 2 * HEX + 4
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    _hexagon(d, side // 2, side // 2, HEX, FREE, FREE_EDGE, 1)
    # A cell's code as tall as the other numbers (19 px) in a hexagon too narrow for it: condensed, not smaller.
    c.condensed_text_at(d, (side // 2, side // 2), name, c.font(19, bold=True), fill=c.MUTED, squeeze=0.84)
    return Sprite.of(image)


def draw_joker(table: Table, cx: float, cy: float, size: float) -> None:
    _hexagon(table.d, cx, cy, size, JOKER, (20, 22, 28))
    c.text_at(table.d, (cx, cy), "J", c.font(int(size * 0.9), bold=True), fill=(20, 22, 28), anchor="mm")


def _pavilion(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, ink: Any) -> None:
    s = size * 0.5
    d.polygon([(cx, cy - s), (cx + s, cy - 0.2 * s), (cx - s, cy - 0.2 * s)], fill=ink)
    d.rectangle((cx - 0.7 * s, cy - 0.2 * s, cx - 0.45 * s, cy + 0.7 * s), fill=ink)
    d.rectangle((cx + 0.45 * s, cy - 0.2 * s, cx + 0.7 * s, cy + 0.7 * s), fill=ink)


# --- strip and display ---------------------------------------------------------------------------------------------
def _draw_strip(table: Table, comp: Any) -> None:
    d, state = table.d, table.state
    narrow = table.image.width <= NARROW  # one column (two players, or a personal view)
    box = (MARGIN, MARGIN, table.image.width - MARGIN, MARGIN + (NARROW_STRIP_H if narrow else STRIP_H))
    c.panel(d, box)
    face, small = c.font(22, bold=True), c.font(19)
    y = MARGIN + STRIP_H // 2
    side = table.label("qg.variant_side" if state.variant.endswith("variant") else "qg.standard_side")
    title = table.label("game_over") if state.phase == "over" else table.label("round", round=state.round)
    c.text_at(d, (MARGIN + 14, y - 10), title, face, anchor="lm")
    c.text_at(d, (MARGIN + 14, y + 14), side, small, fill=c.MUTED, anchor="lm")
    x = max(MARGIN + 200, MARGIN + 14 + max(c.width(title, face), c.width(side, small)) + 30)
    y -= 11
    if narrow:  # one column: the wheel, what it scores and the counts under the title, each on its own line
        x, y = MARGIN + 14, MARGIN + STRIP_H + 4
    info_x = x
    c.text_at(d, (x, y), table.label("qg.wheel"), small, fill=c.MUTED, anchor="lm")
    x += c.width(table.label("qg.wheel"), small) + 10
    wheel = comp.sides["variant" if state.variant.endswith("variant") else "standard"].wheel[state.round - 1]
    for criterion in wheel:
        x = _draw_criterion(table, x, y, criterion) + 8
    if any(criterion.points is None for criterion in wheel):  # said once, after the hexagons it is about
        if narrow:
            x, y = info_x, y + WHEEL_LINE
        c.text_at(d, (x, y), table.label("qg.points_value"), c.font(17), fill=c.MUTED, anchor="lm")
    info = " · ".join(
        [
            table.label("qg.supply", count=len(state.supply)),
            table.label("bag", count=sum(state.bag)),
            table.label("qg.tower", count=sum(state.tower)),
        ]
    )
    c.text_at(d, (info_x, y + 26), info, c.font(20), fill=c.MUTED, anchor="lm")  # 10 px digits at 0.69x


def _draw_criterion(table: Table, x: int, y: int, criterion: Any) -> int:
    d = table.d
    size = 13
    cx = x + size
    if criterion.color is not None:
        style = c.STYLES[table.colors[criterion.color]]
        _hexagon(d, cx, y, size, style.fill, (20, 22, 28))
        c.draw_mark(d, (cx - 7, y - 7, cx + 7, y + 7), style.mark, style.ink)  # the colour told by shape too
    else:
        _hexagon(d, cx, y, size, JOKER, (20, 22, 28))
        draw_pattern(d, cx, y, size * 0.5, criterion.pattern, (20, 22, 28))
    if criterion.points is None:  # the strip says once that these score their value
        return int(cx + size)
    label = table.label("qg.criterion_points", points=criterion.points)
    face = c.font(19)
    c.text_at(d, (cx + size + 4, y), label, face, anchor="lm")
    return int(cx + size + 6 + c.width(label, face))


def _display_boxes(state: QGState, left: int, right: int) -> list[tuple[str, int, int, int]]:
    """``(location, x, row, width)`` of every place in the display, wrapped into rows between ``left`` and
    ``right`` (the display panel's edges)."""
    step = SMALL * 2 + 2
    places = [("s", 4 * step + 10)] if state.stack else []
    for index, item in enumerate(state.display):
        count = 1 if item.face_up else max(1, len(item.tiles))
        places.append((f"d{index + 1}", max(count * step + 10, 48)))
    boxes = []
    x, row = left + 14, 0
    for location, width in places:
        if x + width > right - 10 and x > left + 14:
            x, row = left + 14, row + 1
        boxes.append((location, x, row, width))
        x += width + 12
    return boxes


def _display_height(state: QGState, left: int, right: int) -> int:
    boxes = _display_boxes(state, left, right)
    rows = boxes[-1][2] + 1 if boxes else 1
    return 12 + rows * DISPLAY_ROW_H


def _draw_display(table: Table, box: c.Box) -> None:
    d, state = table.d, table.state
    left, top = box[0], box[1]
    c.panel(d, box)
    label, small = c.font(19, bold=True), c.font(19)
    step = SMALL * 2 + 2
    for location, x, row, width in _display_boxes(state, box[0], box[2]):
        y = top + 12 + row * DISPLAY_ROW_H
        _location_box(table, location, x, y, width)
        if location == "s":
            c.text_at(d, (x + 4, y), table.label("qg.stack", count=len(state.stack)), label, fill=c.MUTED)
            for i, kind in enumerate(state.top_tiles):
                draw_hexagon(table, x + 6 + SMALL + i * step, y + 50, SMALL, kind)
            continue
        item = state.display[int(location[1:]) - 1]
        c.text_at(d, (x + 4, y), location, label, fill=c.MUTED)
        if item.face_up:
            draw_hexagon(table, x + 6 + SMALL, y + 50, SMALL, item.expansion, printed=True)
            _pavilion(d, x + width - 8, y + 8, 12, c.TEXT)
        else:
            for i, kind in enumerate(item.tiles):
                draw_hexagon(table, x + 6 + SMALL + i * step, y + 50, SMALL, kind)
    if not state.stack and not state.display:
        c.text_at(d, (left + 14, top + 12 + DISPLAY_ROW_H // 2), table.label("empty"), small, fill=c.MUTED, anchor="lm")


def _location_box(table: Table, location: str, x: int, y: int, width: int) -> None:
    box = (x, y - 4, x + width, y + 78)
    c.rounded(table.d, box, 8, fill=c.PANEL, outline=c.PANEL_EDGE, width=1)


# --- a player's panel ------------------------------------------------------------------------------------------------
def _draw_player(table: Table, seat: int, x: int, y: int) -> None:
    d, state = table.d, table.state
    box = (x, y, x + PANEL_W, y + PANEL_H + _final_h(state))
    c.panel(d, box)
    _draw_header(table, seat, x + PAD, y + PAD, x + PANEL_W - PAD)
    player = state.players[seat]
    _draw_garden(table, player, seat, x + PAD, y + PAD + HEADER_H)
    _draw_storage(table, player, seat, x + PAD, y + PAD + HEADER_H + GARDEN_H)
    if state.phase == "over" and seat < len(state.final):
        _draw_final(table, state.final[seat], x + PAD, y + PAD + HEADER_H + GARDEN_H + STORE_H)
    if seat in engine.to_act(state):
        c.mark_to_act(d, box, table.label("to_act"))


def _draw_header(table: Table, seat: int, left: int, top: int, right: int) -> None:
    """Name and score, with pills between them: points of the last move, winner, first player, passed, and what
    the bot tells about the seat."""
    state = table.state
    player = state.players[seat]
    notes = []
    if state.marker == seat:
        notes.append(c.Pill(table.label("qg.first_player"), short=table.label("qg.first_player_short")))
    if player.passed and state.phase != "over":
        notes.append(c.Pill(table.label("qg.passed")))
    delta = table.last.delta if table.last.seat == seat else 0
    c.seat_header(table, seat, (left, top, right, top + HEADER_H - 8), player.score, notes=notes, delta=delta)


def garden_origin(left: int, top: int) -> tuple[float, float]:
    """Where the garden's hex coordinates start for a garden drawn from ``(left, top)``."""
    return left - min(_XS) + SQRT3 * HEX / 2 + 2, top - min(_YS) + HEX + 2


def _draw_garden(table: Table, player: QGPlayer, seat: int, left: int, top: int) -> None:
    d = table.d
    ox, oy = garden_origin(left, top)
    for area in range(6):
        if player.areas[area] < 0:
            cx, cy = _xy(CELL_COORDS[area_cell(area, 0)], HEX)
            _put_centred(table.image, _unlaid_area(area), ox + cx, oy + cy)
    for ornament in ORNAMENTS:
        if ornament.kind == "pavilion" and not player.has_pavilion(ornament.area):
            continue
        px, py = _xy(ornament.coord, HEX)
        done = all(player.hexes[cell] >= 0 for cell in ornament.ring)
        _put_centred(table.image, _ornament(ornament.name, ornament.kind, done), ox + px, oy + py)
    state = table.state
    choosing = state.phase != "over" and seat == state.current and sum(player.tiles) > 0  # may place a tile now
    for cell, name in enumerate(CELLS):
        area = area_of(cell)
        if area >= 0 and player.areas[area] < 0:
            continue
        px, py = _xy(CELL_COORDS[cell], HEX)
        cx, cy = ox + px, oy + py
        kind = player.hexes[cell]
        if kind >= 0:
            printed = area >= 0 and player.rotations[area] >= 0 and cell == area_cell(area, player.rotations[area] + 1)
            draw_hexagon(table, cx, cy, HEX, kind, printed=printed)
        elif player.is_free(cell):
            _put_centred(table.image, _free_cell(name if choosing else ""), cx, cy)  # codes only to type them
        if table.last.seat == seat and name in table.last.cells:
            d.polygon(_corners(cx, cy, HEX + 1), outline=c.HIGHLIGHT, width=3)


def _draw_storage(table: Table, player: QGPlayer, seat: int, left: int, top: int) -> None:
    """Twelve spaces for tiles and jokers (two rows of six), then the two expansion spaces beside them."""
    d = table.d
    label = c.font(17, bold=True)
    c.text_at(d, (left, top - 2), table.label("qg.storage"), label, fill=c.MUTED)
    if table.state.phase != "over":  # what the storage would score now, not only at the end
        comp = engine.get_variant(table.state.variant).components  # type: ignore[attr-defined]
        value = storage_value(comp, player)
        x = left + c.width(table.label("qg.storage"), label) + 8
        ink = c.LOSS if value < 0 else c.MUTED
        c.text_at(d, (x, top - 4), c.signed(value), c.font(19, bold=True), fill=ink)
    step = SMALL * 2
    row_h = int(SMALL * 1.8)
    spaces: list[int | None] = [kind for kind in range(36) for _ in range(player.tiles[kind])]
    spaces += [None] * player.jokers
    y0 = top + 24 + SMALL
    notation = engine.get_variant(table.state.variant).notation  # type: ignore[attr-defined]
    new: dict[tuple[int, bool], int] = {}  # only what the last move brought is outlined
    if table.last.seat == seat:
        for (code, expansion), count in table.last.taken.items():
            new[notation.parse_kind(code), expansion] = count
    for i in reversed(range(12)):  # the newest of a kind are the last of its run
        cx, cy = left + SMALL + (i % 6) * step, y0 + (i // 6) * row_h
        if i >= len(spaces):
            _hexagon(d, cx, cy, SMALL, FREE, FREE_EDGE, 1)
        elif spaces[i] is None:
            draw_joker(table, cx, cy, SMALL)
        else:
            kind = int(spaces[i] or 0)
            draw_hexagon(table, cx, cy, SMALL, kind)
            if new.get((kind, False), 0) > 0:
                new[kind, False] -= 1
                d.polygon(_corners(cx, cy, SMALL + 2), outline=c.HIGHLIGHT, width=3)
    ex = left + 6 * step + 28
    c.text_at(d, (ex, top), table.label("qg.expansions"), label, fill=c.MUTED)
    big = SMALL + 6
    for i in range(2):
        cx, cy = ex + big + i * (2 * big + 30), y0 + row_h // 2
        if i < len(player.expansions):
            draw_hexagon(table, cx, cy, big, player.expansions[i], printed=True)
            _pavilion(d, cx + big + 10, cy - big + 4, 12, c.TEXT)
            if new.get((player.expansions[i], True), 0) > 0:
                new[player.expansions[i], True] -= 1
                d.polygon(_corners(cx, cy, big + 2), outline=c.HIGHLIGHT, width=3)
        else:
            _hexagon(d, cx, cy, big, FREE, FREE_EDGE, 1)


def _standings_height(state: QGState) -> int:
    return c.standings_height(state.player_count)


def _draw_standings(table: Table, box: c.Box) -> None:
    """The final standings with what each player's storage cost and groups scored at the end."""

    def final(seat: int) -> list[int]:
        points = table.state.final[seat] if seat < len(table.state.final) else {}
        return [int(points.get("storage", 0)), sum(int(g["points"]) for g in points.get("groups", []))]

    heads = [table.label("qg.head.storage"), table.label("qg.head.groups")]
    c.standings(table, (box[0], box[1], box[2]), heads, final)


def _draw_final(table: Table, final: Mapping[str, Any], left: int, top: int) -> None:
    d = table.d
    face = c.font(20)
    storage = int(final["storage"])
    c.text_at(d, (left, top), table.label("qg.final_storage", points=c.signed(storage)), face, fill=c.TEXT)
    groups = list(final.get("groups", []))
    if not groups:
        c.text_at(d, (left, top + 24), table.label("qg.no_groups"), face, fill=c.MUTED)
    for i, group in enumerate(groups):
        x = left + (i % 2) * (GARDEN_W // 2)
        y = top + 24 + (i // 2) * 22
        category = str(group["category"])
        text = table.label("qg.group", size=len(group["cells"]), points=group["points"])
        if category.isdecimal():
            draw_pattern(d, x + 8, y + 9, 7, int(category), c.TEXT)
        else:
            style = c.STYLES[table.colors[table.codes.index(category)]]
            _hexagon(d, x + 8, y + 9, 10, style.fill, (20, 22, 28), 1)
            c.draw_mark(d, (x + 3, y + 4, x + 13, y + 14), style.mark, style.ink)  # the group's colour by shape too
        c.text_at(d, (x + 22, y), text, face, fill=c.TEXT)


# --- expansion preview -----------------------------------------------------------------------------------------------
def draw_expansion_preview(
    state: QGState,
    seat: int,
    candidates: Sequence[tuple[str, Any]],
    *,
    names: Sequence[str],
    locale: str = "en",
) -> Image.Image:
    """``seat``'s panel with every candidate ``expansion`` move drawn where it would go: the area ringed and, for a
    face-up expansion, its printed hexagon on the outer cell the rotation names, under the candidate's label (as the
    picker shows it). Candidates that put the same hexagon on the same cell share one mark with all their labels; a
    face-down (supply) expansion marks its area's middle."""
    variant = engine.get_variant(state.variant)
    image, d = c.canvas(PANEL_W + 2 * MARGIN, PANEL_H + 2 * MARGIN)
    table = _table(image, d, state, names, locale, (), ())
    _draw_player(table, seat, MARGIN, MARGIN)
    ox, oy = garden_origin(MARGIN + PAD, MARGIN + PAD + HEADER_H)
    spots: dict[tuple[int, int], list[str]] = {}
    for label, move in candidates:
        choice = dict(move.choices())
        if move.command != "expansion":
            raise ValueError(f"not an expansion move: {move}")
        area = int(choice["area"][1:]) - 1
        rotation = choice["rotation"]
        face_up = rotation not in ("", "-")
        kind = variant.notation.parse_kind(choice["expansion"]) if face_up else -1  # type: ignore[attr-defined]
        cell = area_cell(area, int(rotation)) if face_up else area_cell(area, 0)
        spots.setdefault((cell, kind), []).append(label)
    for area in sorted({area_of(cell) for cell, _ in spots}):
        mask, box = area_ring(area, (ox, oy), image.size)
        image.paste(c.ACCENT, box, mask)
    face = c.font(17, bold=True)
    taken: list[c.Box] = []
    for (cell, kind), labels in spots.items():
        px, py = _xy(CELL_COORDS[cell], HEX)
        cx, cy = ox + px, oy + py
        if kind >= 0:
            draw_hexagon(table, cx, cy, HEX, kind, printed=True)
        printed = f"A{area_of(cell) + 1}"
        text = ",".join(dict.fromkeys(_unprinted(label, printed) for label in labels))
        # On the printed area name when the label is that name (it takes its place), else low on the cell, or
        # high where that would cover another label.
        spots_y = [cy] if text == printed else [cy + HEX * 0.45, cy - HEX * 0.45, cy]
        for y in spots_y:
            box = c.badge_box((round(cx), round(y)), text, face)
            if not any(_overlap(box, other) for other in taken):
                break
        taken.append(box)
        c.badge(d, (box[0], box[1]), text, face, fill=c.ACCENT, anchor="la")
        c.mark_region("preview label", box)
    return image


def _unprinted(label: str, area: str) -> str:
    """A candidate's label without the area name the garden prints in that area's middle: "A2-3" shows as "3" on
    its cell, beside the printed "A2"."""
    return label.removeprefix(area + "-") or label


def _overlap(a: c.Box, b: c.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@cache
def area_ring(area: int, origin: tuple[float, float], size: tuple[int, int]) -> tuple[Image.Image, c.Box]:
    """The outline of ``area``'s seven cells in a preview whose garden starts at ``origin``, as a mask (cropped to
    where it draws) and the box it goes in. Pillow draws each wide outline through a mask the size of the whole
    picture, which made the rings most of a preview's drawing; the same outlines drawn once into one mask put down
    the same pixels."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    for p in range(7):
        px, py = _xy(CELL_COORDS[area_cell(area, p)], HEX)
        d.polygon(_corners(origin[0] + px, origin[1] + py, HEX), outline=255, width=2)
    box = mask.getbbox()
    if box is None:
        raise ValueError(f"area {area + 1}'s outline falls outside a {size} picture")
    return mask.crop(box).convert("1"), box  # plain outlines: a one-bit mask pastes the same pixels faster


RENDERER = Renderer(
    game="queens-garden",
    draw_table=draw_table,
    closeup_regions=closeup_regions,
    draw_personal=draw_personal,
    draw_preview=draw_expansion_preview,
)
