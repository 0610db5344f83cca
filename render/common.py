"""Drawing pieces shared by every game's picture. Reuse these instead of inventing new ones, so all pictures of the
family look and read alike:

- **Theme**: ``BG`` (the picture's own opaque background, readable in Discord's dark and light themes), ``PANEL``
  and ``PANEL_EDGE`` for boxes, ``SLOT``/``SLOT_EDGE`` for empty spaces, ``TEXT`` and ``MUTED`` for words,
  ``DARK_INK`` for words on light pills, ``ACCENT`` for "this player acts now", ``HIGHLIGHT`` for "changed by the
  last move", ``GAIN``/``LOSS`` for points won and lost.
- **Tile colours with colour-blind marks**: ``STYLES`` maps every tile colour id of the family (Azul, Summer
  Pavilion, Queen's Garden) to a fill and a mark; each game's colours have pairwise different marks, and a colour
  shared by two games (``blue``, ``yellow``, ``red``) keeps its mark everywhere. ``tile(color, size)`` is a cached
  RGBA tile with its mark; ``paste(canvas, image, xy)`` puts one down; ``ghost(color, size)`` is the faint version
  for printed-but-empty spaces. ``draw_mark`` draws any mark (also usable for pattern icons) into a box;
  ``MARK_SHAPES`` lists them.
- **Boxes and labels**: ``panel`` (rounded box), ``slot`` (an empty space for a tile), ``badge`` (a pill with
  text, e.g. points or counts), ``text_at`` (text anchored at a point).
- **Players**: ``seat_header`` (name left, score right, same faces everywhere, and between them "winner" at the
  end, the last move's points said what for ("move +3"), the game's own ``Pill`` notes and the seat's
  ``SeatInfo``: computer level with a drawn robot, "away until…", time left with a drawn clock; texts come
  translated from the caller, so the bot adds notes without touching any game); ``mark_to_act`` frames the panel
  of a player who must act and hangs a pill with ``t("picture.to_act")`` on it (``to_act_frame`` alone is the
  frame).
- **Last move**: ``highlight`` (a ring around whatever the last move touched) and ``points`` (a "+3"/"−2" badge).
- **End of game**: ``standings`` (the final standings panel, the same in every game: places, winner, the game's
  end-of-game points and the score).
- **Text** (see ``render.text``): ``font``, ``fit``, ``fit_name`` (long, emoji-laden display names made safe).
- **The picture being drawn**: ``Table`` (canvas, state, names, locale; ``label`` for ``picture.*`` texts and
  ``name`` for a seat's display name with the "Player N" fallback), which each game extends with what the last move
  touched; ``canvas`` makes a blank picture and ``grid_origin`` places player boards two per row, a lone last board
  centred; ``factory_row`` draws the numbered factory displays of Azul and Summer Pavilion.
- **Close-ups**: ``closeup`` cuts one board (``around`` its box) from the whole table and puts the shared area,
  shrunk to the board's width, above it.
- **Output**: ``render.png.to_png`` encodes deterministically (same image, same bytes) and small, mapped onto the
  game's fixed palette (``render.palette``) instead of quantizing every picture.
- **Tests**: ``tests/render/goldens.py`` (``check_golden(name, png)``) compares golden pictures with a tolerance,
  saves actual and difference images on failure and rewrites goldens with ``UPDATE_GOLDEN=1``.

Static layers are cached with ``functools.cache``: tiles and marks per size, each game's empty boards (Azul's and
Summer Pavilion's already flattened onto what lies under them, so they land with one plain paste), and text masks
per text or, for a line drawn once such as the caption (``line_at``), per word. Nothing else is kept between calls;
a turn draws only what the state puts on those layers. The legend and caption are strips of their own (``under``)
that reach the encoder beside the picture, never copied into it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

import engine
from data.i18n import t
from render.emoji import draw as emoji_text
from render.emoji import has_emoji
from render.inputs import SeatInfo
from render.names import fit_name
from render.text import Font, advance, fit, font, printable, width

__all__ = [
    "ACCENT",
    "BG",
    "DARK_INK",
    "GAIN",
    "HIGHLIGHT",
    "HIGHLIGHT_WIDTH",
    "LOSS",
    "MARK_SHAPES",
    "MUTED",
    "PANEL",
    "PANEL_EDGE",
    "RGB",
    "SLOT",
    "SLOT_EDGE",
    "STYLES",
    "TEXT",
    "TO_ACT_WIDTH",
    "Box",
    "DrawnText",
    "Font",
    "Ink",
    "Pill",
    "SeatInfo",
    "Table",
    "TileStyle",
    "around",
    "badge",
    "badge_box",
    "canvas",
    "cap_height",
    "caption_strip",
    "captioned",
    "closeup",
    "condensed_text_at",
    "delta_pill",
    "digit_height",
    "draw_mark",
    "factory_row",
    "fit",
    "fit_name",
    "font",
    "ghost",
    "grid_origin",
    "highlight",
    "legend_notes",
    "legend_strip",
    "legended",
    "line_at",
    "mark_region",
    "mark_to_act",
    "moved",
    "opponent_rows",
    "opponents_height",
    "panel",
    "paste",
    "pill",
    "points",
    "printable",
    "recording",
    "regions",
    "seat_header",
    "seat_pills",
    "shrunk",
    "signed",
    "slot",
    "stacked",
    "standings",
    "standings_height",
    "text_at",
    "tile",
    "to_act_frame",
    "under",
    "width",
    "within",
]

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Ink = tuple[int, ...]  # RGB or RGBA

# --- theme --------------------------------------------------------------------------------------------------------
BG: RGB = (27, 32, 43)
PANEL: RGB = (42, 49, 64)
PANEL_EDGE: RGB = (66, 76, 97)
SLOT: RGB = (58, 66, 84)
SLOT_EDGE: RGB = (84, 95, 118)
TEXT: RGB = (240, 243, 248)
MUTED: RGB = (160, 170, 189)
ACCENT: RGB = (76, 217, 123)
HIGHLIGHT: RGB = (255, 200, 40)
GAIN: RGB = (255, 200, 40)
LOSS: RGB = (255, 110, 100)
DARK_INK: RGB = (20, 22, 28)


# --- tile colours and their colour-blind marks ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TileStyle:
    fill: RGB
    mark: str

    @property
    def ink(self) -> tuple[int, int, int, int]:
        """The mark's colour: dark on light tiles, light on dark ones, so it stands out on every fill."""
        r, g, b = self.fill
        light = 0.299 * r + 0.587 * g + 0.114 * b > 140
        return (*DARK_INK, 170) if light else (255, 255, 255, 215)


STYLES: dict[str, TileStyle] = {
    # Azul (2017); "white" is light blue/turquoise in the box.
    "blue": TileStyle((38, 112, 206), "dot"),
    "yellow": TileStyle((245, 196, 48), "triangle"),
    "red": TileStyle((214, 54, 48), "diamond"),
    "black": TileStyle((30, 30, 36), "cross"),
    "white": TileStyle((120, 212, 222), "ring"),
    # Summer Pavilion adds these three to blue, yellow and red.
    "purple": TileStyle((138, 78, 186), "star"),
    "green": TileStyle((58, 162, 76), "plus"),
    "orange": TileStyle((242, 132, 36), "bars"),
    # Queen's Garden: blue, yellow and these four.
    "light_green": TileStyle((156, 214, 96), "plus"),
    "dark_green": TileStyle((28, 108, 62), "square"),
    "light_purple": TileStyle((196, 156, 228), "star"),
    "dark_purple": TileStyle((98, 42, 124), "bars"),  # a hexagon on a hexagonal tile read as blue's dot
    # The starting-player marker (Azul) and other neutral pieces.
    "marker": TileStyle((246, 244, 236), "one"),
}

SUPERSAMPLE = 4  # marks are drawn this many times larger, then shrunk: smooth edges, still cached once per size


def _polygon(points: list[tuple[float, float]]) -> Callable[[ImageDraw.ImageDraw, Box, Ink], None]:
    """A mark drawn as a filled polygon given in unit coordinates (0..1) of its box."""

    def draw(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
        x0, y0, x1, y1 = box
        d.polygon([(x0 + (x1 - x0) * u, y0 + (y1 - y0) * v) for u, v in points], fill=ink)

    return draw


def _star() -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.25  # thick enough arms to read as a star, not a blob, when small
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((0.5 + radius * math.cos(angle), 0.54 + radius * math.sin(angle)))
    return points


def _hexagon() -> list[tuple[float, float]]:
    return [(0.5 + 0.5 * math.cos(math.pi / 3 * i), 0.5 + 0.5 * math.sin(math.pi / 3 * i)) for i in range(6)]


def _dot(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    d.ellipse(box, fill=ink)


def _ring(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    d.ellipse(box, outline=ink, width=max(1, (box[2] - box[0]) // 5))


def _square(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    inset = (box[2] - box[0]) // 10
    x0, y0, x1, y1 = box
    d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=ink, width=max(1, (x1 - x0) // 5))


def _cross(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    x0, y0, x1, y1 = box
    w = max(1, (x1 - x0) // 4)
    d.line((x0, y0, x1, y1), fill=ink, width=w)
    d.line((x0, y1, x1, y0), fill=ink, width=w)


def _plus(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    x0, y0, x1, y1 = box
    w = max(1, (x1 - x0) // 4)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    d.rectangle((cx - w // 2, y0, cx + w // 2, y1), fill=ink)
    d.rectangle((x0, cy - w // 2, x1, cy + w // 2), fill=ink)


def _bars(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    x0, y0, x1, y1 = box
    h = max(1, (y1 - y0) // 5)
    for i in range(3):
        top = y0 + i * 2 * h
        d.rectangle((x0, top, x1, top + h), fill=ink)


def _one(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    x0, y0, x1, y1 = box
    face = font(int((y1 - y0) * 1.4), bold=True)  # as tall as the tile allows: it is read as a "1"
    text_at(d, ((x0 + x1) / 2, (y0 + y1) / 2), "1", face, fill=ink, anchor="mm")


MARK_SHAPES: dict[str, Callable[[ImageDraw.ImageDraw, Box, Ink], None]] = {
    "dot": _dot,
    "ring": _ring,
    "square": _square,
    "triangle": _polygon([(0.5, 0.0), (1.0, 0.92), (0.0, 0.92)]),
    "diamond": _polygon([(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]),
    "cross": _cross,
    "plus": _plus,
    "bars": _bars,
    "star": _polygon(_star()),
    "hexagon": _polygon(_hexagon()),
    "one": _one,
}


def draw_mark(d: ImageDraw.ImageDraw, box: Box, mark: str, ink: Ink) -> None:
    """Draw the named mark (a key of ``MARK_SHAPES``) filling ``box``."""
    MARK_SHAPES[mark](d, box, ink)


@cache
def tile(color: str, size: int) -> Image.Image:
    """A ``size``-pixel square RGBA tile of ``color`` (a key of ``STYLES``) with its mark; cached, do not modify."""
    with shrunk(SUPERSAMPLE):
        return _tile(STYLES[color], size * SUPERSAMPLE, faint=False).resize((size, size), Image.Resampling.LANCZOS)


@cache
def ghost(color: str, size: int) -> Image.Image:
    """The faint print of ``color`` on an empty space (Azul's coloured wall): recognisable, clearly not a tile."""
    with shrunk(SUPERSAMPLE):
        return _tile(STYLES[color], size * SUPERSAMPLE, faint=True).resize((size, size), Image.Resampling.LANCZOS)


def _tile(style: TileStyle, size: int, *, faint: bool) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    radius = size // 7
    if faint:
        # An empty space with the colour printed on it: a slot holding a smaller, dim print, so it reads as empty
        # by its size and flatness, not only by its colour.
        d.rounded_rectangle((0, 0, size - 1, size - 1), radius, fill=SLOT, outline=SLOT_EDGE, width=max(1, size // 40))
        inset = size // 9
        print_box = (inset, inset, size - 1 - inset, size - 1 - inset)
        d.rounded_rectangle(print_box, radius, fill=_mix(style.fill, SLOT, 0.72))
        ink: tuple[int, ...] = (*_mix(style.fill, SLOT, 0.4), 255)
    else:
        edge = (
            _mix(style.fill, (255, 255, 255), 0.45)
            if style.fill == STYLES["black"].fill
            else _mix(style.fill, DARK_INK, 0.35)
        )
        d.rounded_rectangle((0, 0, size - 1, size - 1), radius, fill=(*style.fill, 255), outline=edge, width=size // 16)
        sheen = _mix(style.fill, (255, 255, 255), 0.35)  # a lit top edge: a raised tile, not a print
        d.line((radius, size // 10, size - 1 - radius, size // 10), fill=sheen, width=max(1, size // 24))
        ink = style.ink
    inset = size * 27 // 100
    draw_mark(d, (inset, inset, size - 1 - inset, size - 1 - inset), style.mark, ink)
    return image


def _mix(a: RGB, b: RGB, share_of_b: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * share_of_b),
        round(a[1] + (b[1] - a[1]) * share_of_b),
        round(a[2] + (b[2] - a[2]) * share_of_b),
    )


def paste(canvas: Image.Image, image: Image.Image, xy: tuple[int, int]) -> None:
    """Put an RGBA piece (a tile, a ghost) on the canvas, respecting its transparency: what ``canvas.paste(image,
    xy, image)`` does, minus the checks Pillow's wrapper makes each time (a picture pastes dozens of tiles, and the
    wrapper cost more than the pasting)."""
    x, y = xy
    canvas.im.paste(image.im, (x, y, x + image.width, y + image.height), image.im)


def bitmap(d: ImageDraw.ImageDraw, xy: tuple[int, int], mask: Image.Image, fill: Ink) -> None:
    """``d.bitmap(xy, mask, fill=fill)`` for an RGB canvas and a mask in memory, straight to Pillow's core (a
    picture draws dozens of texts; its wrapper's checks cost as much as the drawing)."""
    d.draw.draw_bitmap(xy, mask.im, d.draw.draw_ink(fill))


# --- boxes, labels and highlights ------------------------------------------------------------------------------------
def panel(d: ImageDraw.ImageDraw, box: Box, *, fill: RGB = PANEL, outline: RGB = PANEL_EDGE, radius: int = 14) -> None:
    rounded(d, box, radius, fill=fill, outline=outline, width=2)


def rounded(  # noqa: PLR0917
    d: ImageDraw.ImageDraw, box: Box, radius: int, fill: RGB | None = None, outline: RGB | None = None, width: int = 1
) -> None:
    """``d.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)`` on an RGB canvas, the same
    pixels put down from a cached shape (:func:`_rounded_shape`): Pillow draws the corners in Python, a tenth of a
    millisecond a panel, and a picture has a dozen panels, frames and pills. Its pixels do not depend on where it is
    drawn (no anti-aliasing, whole-pixel corners), so one shape serves every place."""
    x0, y0, x1, y1 = box
    if d.mode != "RGB" or x1 < x0 or y1 < y0 or not all(type(v) is int for v in box):
        d.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)
        return
    for left, top, piece, mask in _rounded_shape(x1 - x0 + 1, y1 - y0 + 1, radius, fill, outline, width):
        x, y = x0 + left, y0 + top
        if mask is None:  # a run of one colour between the straight sides: a rectangle
            colour, (w, h) = piece
            d.im.paste(colour, (x, y, x + w, y + h))
        else:
            d.im.paste(piece.im, (x, y, x + piece.width, y + piece.height), mask.im)


ShapePiece = tuple[int, int, Any, Image.Image | None]
"""Where a piece of a shape goes (left, top) and what it is: pixels and the mask of those set, or a colour and a
size (mask None)."""


@lru_cache(maxsize=256)  # every game's pictures have some fifty shapes, the largest 70 KB
def _rounded_shape(  # noqa: PLR0917
    w: int, h: int, radius: int, fill: RGB | None, outline: RGB | None, width: int
) -> tuple[ShapePiece, ...]:
    """The pixels ``rounded_rectangle`` sets in a ``w`` x ``h`` box, as pieces to put down: the rows above and below
    the straight sides as pixels with a mask of what is set, and between them (rows all alike) each run of one
    colour as a plain rectangle."""
    pixels = Image.new("RGB", (w, h))
    mask = Image.new("L", (w, h), 0)
    box = (0, 0, w - 1, h - 1)
    ImageDraw.Draw(pixels).rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)
    ImageDraw.Draw(mask).rounded_rectangle(
        box, radius, fill=None if fill is None else 255, outline=None if outline is None else 255, width=width
    )
    rows = [(mask.crop((0, y, w, y + 1)).tobytes(), pixels.crop((0, y, w, y + 1)).tobytes()) for y in range(h)]
    mid = h // 2
    top, bottom = mid, mid + 1
    while top > 0 and rows[top - 1] == rows[mid]:
        top -= 1
    while bottom < h and rows[bottom] == rows[mid]:
        bottom += 1
    pieces: list[ShapePiece] = [
        (0, y0, pixels.crop((0, y0, w, y1)), mask.crop((0, y0, w, y1))) for y0, y1 in ((0, top), (bottom, h)) if y1 > y0
    ]
    setting, colours = rows[mid]
    x = 0
    while x < w:
        end = x + 1
        while end < w and setting[end] == setting[x] and colours[3 * end : 3 * end + 3] == colours[3 * x : 3 * x + 3]:
            end += 1
        if setting[x]:
            pieces.append((x, top, (tuple(colours[3 * x : 3 * x + 3]), (end - x, bottom - top)), None))
        x = end
    return tuple(pieces)


def slot(d: ImageDraw.ImageDraw, xy: tuple[int, int], size: int) -> None:
    """An empty space where a tile may go."""
    x, y = xy
    d.rounded_rectangle((x, y, x + size - 1, y + size - 1), size // 7, fill=SLOT, outline=SLOT_EDGE, width=1)


TO_ACT_WIDTH = 5  # "to move" is a thicker frame than any "last move" ring: told apart without hue
HIGHLIGHT_WIDTH = 4


def to_act_frame(d: ImageDraw.ImageDraw, box: Box, *, radius: int = 14) -> None:
    """The thick green frame around the panel of a player who must act now."""
    rounded(d, box, radius, outline=ACCENT, width=TO_ACT_WIDTH)


def mark_to_act(d: ImageDraw.ImageDraw, box: Box, label: str, *, radius: int = 14) -> None:
    """Frame a player's panel in green and hang a pill with ``label`` (e.g. ``picture.to_act``) on its bottom edge."""
    to_act_frame(d, (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=radius + 2)
    badge(d, ((box[0] + box[2]) // 2, box[3]), label, font(20, bold=True), fill=ACCENT)


# --- what the bot knows about a seat ---------------------------------------------------------------------------------
def seat_pills(info: SeatInfo) -> list[Pill]:
    """A seat's notes (:class:`render.inputs.SeatInfo`) as the pills its header draws."""
    result = []
    if info.robot:
        result.append(Pill(info.robot, fill=(92, 108, 150), ink=TEXT, icon="robot", short=info.robot_short))
    if info.away:
        result.append(Pill(info.away, fill=PANEL_EDGE, ink=TEXT, icon="moon", short=info.away_short))
    if info.clock:
        fill = LOSS if info.urgent else ACCENT
        result.append(Pill(info.clock, fill=fill, ink=DARK_INK, icon="clock", short=info.clock_short))
    return result


@dataclass(frozen=True, slots=True)
class Pill:
    """A note in a player's header: text on a rounded fill, optionally after a small drawn icon; ``short`` is the
    text drawn when the name needs the room (an icon's pill may also drop its text altogether)."""

    text: str
    fill: RGB = PANEL_EDGE
    ink: RGB = TEXT
    icon: str | None = None
    short: str | None = None

    def forms(self) -> list[Pill]:
        """This note from the longest to the shortest way of drawing it."""
        result = [self]
        if self.short is not None and self.short != self.text:
            result.append(Pill(self.short, self.fill, self.ink, self.icon))
        if self.icon and result[-1].text:
            result.append(Pill("", self.fill, self.ink, self.icon))
        return result


def _robot_icon(d: ImageDraw.ImageDraw, x: float, y: float, size: int, ink: Ink, fill: RGB) -> None:  # noqa: PLR0917
    """A robot's head, drawn (plainer than the emoji at pill size): antenna, square head, two eyes."""
    s = size / 2
    d.line((x, y - s, x, y - s * 0.55), fill=ink, width=max(1, size // 9))
    d.ellipse((x - s * 0.18, y - s * 1.08, x + s * 0.18, y - s * 0.72), fill=ink)
    d.rounded_rectangle((x - s * 0.85, y - s * 0.55, x + s * 0.85, y + s * 0.85), max(1, size // 6), fill=ink)
    for dx in (-0.38, 0.38):
        cx, cy, r = x + dx * s, y + s * 0.15, s * 0.2
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _clock_icon(d: ImageDraw.ImageDraw, x: float, y: float, size: int, ink: Ink) -> None:
    s = size / 2
    w = max(2, size // 8)
    d.ellipse((x - s, y - s, x + s, y + s), outline=ink, width=w)
    d.line((x, y, x, y - s * 0.6), fill=ink, width=w)
    d.line((x, y, x + s * 0.45, y + s * 0.2), fill=ink, width=w)


def _moon_icon(d: ImageDraw.ImageDraw, x: float, y: float, size: int, ink: Ink, fill: RGB) -> None:  # noqa: PLR0917
    s = size / 2
    d.ellipse((x - s, y - s, x + s, y + s), fill=ink)
    d.ellipse((x - s * 0.35, y - s * 1.05, x + s * 1.25, y + s * 0.55), fill=fill)


_legend: ContextVar[list[Pill] | None] = ContextVar("legend", default=None)


@contextmanager
def legend_notes() -> Iterator[list[Pill]]:
    """Collect, while the block runs, each note drawn in a short form that is no longer words ("3", "3.12", "+4",
    "→ 19", an icon alone) with its full text, so the picture can say in its legend what it means
    (:func:`legended`)."""
    kept: list[Pill] = []
    token = _legend.set(kept)
    try:
        yield kept
    finally:
        _legend.reset(token)


def shortened(drawn: Pill, wanted: Sequence[Pill]) -> None:
    """Note for the legend that ``drawn`` stands for one of ``wanted`` in a shorter form."""
    kept = _legend.get()
    if kept is None:
        return
    if any(ch.isalpha() for ch in drawn.text):  # still words ("1st player", "5 h"): they say what they are
        return
    for full in wanted:
        if drawn in full.forms() and drawn != full:
            entry = Pill(full.text, full.fill, full.ink, full.icon, short=drawn.text)
            if entry not in kept:
                kept.append(entry)
            return


LEGEND_ROW = 34


def legended(image: Image.Image, notes: Sequence[Pill]) -> Image.Image:
    """``image`` with a legend under it: each short note as drawn, then its full text, side by side while they fit
    the width, else on the next line."""
    return stacked([image, *under(image, notes=notes)])


def legend_strip(across: int, top: int, notes: Sequence[Pill]) -> Image.Image | None:
    """The legend of ``notes`` (see :func:`legended`), ``across`` wide, to go at ``top``, or None when none."""
    if not notes:
        return None
    face, words = font(20, bold=True), font(20)
    entries = []
    for note in notes:
        short = Pill(note.short or "", note.fill, note.ink, note.icon)
        said = fit(note.text, words, across - pill_width(short, face) - 52)
        entries.append((short, said, pill_width(short, face) + 8 + width(said, words)))
    lines: list[list[int]] = [[]]
    x = 16
    for k, (_, _, w) in enumerate(entries):
        if lines[-1] and x + w > across - 16:
            lines.append([])
            x = 16
        lines[-1].append(k)
        x += w + 24
    result = Image.new("RGB", (across, LEGEND_ROW * len(lines) + 6), BG)
    d = ImageDraw.Draw(result)
    with moved(top):
        for row, line in enumerate(lines):
            middle, x = 3 + LEGEND_ROW * row + LEGEND_ROW // 2, 16
            for k in line:
                short, said, w = entries[k]
                pill(d, x + pill_width(short, face), middle, short, face)
                text_at(d, (x + pill_width(short, face) + 8, middle), said, words, fill=MUTED, anchor="lm")
                x += w + 24
    return result


def pill_width(note: Pill, face: Font) -> int:
    """How wide :func:`pill` draws ``note`` in ``face``."""
    size = int(face.size)
    icon_w = size + 4 if note.icon else 0
    if not note.text:  # an icon alone: a round pill around it
        return icon_w + size // 2
    return width(note.text, face) + 2 * _pill_pad(size) + icon_w


def _pill_pad(size: int) -> int:
    """The room left and right of a pill's text: the rounded end and a little air."""
    return size * 2 // 5


def pill(d: ImageDraw.ImageDraw, right: int, middle: int, note: Pill, face: Font) -> int:
    """Draw ``note`` ending at ``right``, centred on ``middle``; returns its left edge."""
    size = int(face.size)
    icon_w = size + 4 if note.icon else 0
    w, h = pill_width(note, face), int(size * 1.45)
    box = (right - w, middle - h // 2, right, middle - h // 2 + h)
    rounded(d, box, h // 2, fill=note.fill)
    text_x = box[0] + _pill_pad(size) + icon_w
    if note.icon:
        ix = box[0] + _pill_pad(size) + size // 2 - (0 if note.text else size // 4)
        if note.icon == "robot":
            _robot_icon(d, ix, middle, size, note.ink, note.fill)
        elif note.icon == "clock":
            _clock_icon(d, ix, middle, size, note.ink)
        else:
            _moon_icon(d, ix, middle, size, note.ink, note.fill)
    if note.text:
        text_at(d, (text_x, middle), note.text, face, fill=note.ink, anchor="lm")
    return box[0]


NAME_SHARE = 0.45  # of a header's width, always left to the player's name
NAME_SIZE = 24  # a name's face: 18 px capitals, 12 px on a phone showing a picture at 0.67x (render.phone)
PILL_GAP = 6


def fitting_notes(notes: Sequence[Pill], room: int, face: Font) -> list[Pill]:
    """The ``notes`` drawn in at most ``room`` pixels: all in full if they fit, else shortened one step at a time
    (short form, then icon alone), the last note first, so the first ones keep their words longest; the last ones
    left out only when even the shortest forms do not fit."""
    forms = [note.forms() for note in notes]
    depth = [0] * len(forms)

    def fits() -> bool:
        return sum(pill_width(f[k], face) + PILL_GAP for f, k in zip(forms, depth, strict=True)) <= room

    for level in range(1, max((len(f) for f in forms), default=1)):
        for index in reversed(range(len(forms))):
            if fits():
                return [f[k] for f, k in zip(forms, depth, strict=True)]
            depth[index] = min(level, len(forms[index]) - 1)
    if fits():
        return [f[k] for f, k in zip(forms, depth, strict=True)]
    chosen = [f[-1] for f in forms]
    while chosen and sum(pill_width(note, face) + PILL_GAP for note in chosen) > room:
        chosen.pop()
    return chosen


def seat_header(
    table: Table,
    seat: int,
    box: Box,
    score: int,
    *,
    notes: Sequence[Pill] = (),
    delta: int = 0,
    delta_key: str = "move_points",
) -> None:
    """A player's header, the same in every game: the name on the left and the score in gold on the right, with
    between them a "winner" pill at the end of the game, the points ``delta`` just won or lost, said what for
    (``picture.<delta_key>``: "move +3", "round +12"), the game's own ``notes`` (passed...) and the pills of the
    seat's :class:`SeatInfo` (robot level, away, time left). The name always keeps ``NAME_SHARE`` of the width (or
    all it needs, when shorter): the notes shrink to their short forms ("+3"), then to icons, before they take it."""
    d = table.d
    left, top, right, bottom = box
    middle = (top + bottom) // 2
    score_face, name_face, note_face = font(28, bold=True), font(NAME_SIZE, bold=True), font(20, bold=True)
    score_text = str(score)
    if delta:
        notes = [delta_pill(table.label(delta_key, points=signed(delta)), delta), *notes]
    if engine.is_over(table.state) and seat in engine.standings(table.state)[0]:
        notes = [Pill(table.label("winner"), HIGHLIGHT, DARK_INK), *notes]  # the same pill in every game
    with within(box):
        text_at(d, (right, middle), score_text, score_face, fill=HIGHLIGHT, anchor="rm")
        x = right - width(score_text, score_face) - 10
        whole = width(table.name(seat, name_face, right - left), name_face) + 6
        name_room = min(int(NAME_SHARE * (right - left)), whole)  # a short name leaves the notes more room
        wanted = [*notes, *seat_pills(table.seat_info(seat))]
        for note in fitting_notes(wanted, x - left - name_room, note_face):
            x = pill(d, x, middle, note, note_face) - PILL_GAP
            shortened(note, wanted)
        table.draw_name(seat, (left, middle), name_face, x - left - 6)


def highlight(d: ImageDraw.ImageDraw, box: Box, *, radius: int = 8, width: int = HIGHLIGHT_WIDTH) -> None:
    """The gold ring marking what the last move changed (drawn just outside ``box``), never as thick as the frame
    of a player who must act."""
    width = min(width, HIGHLIGHT_WIDTH)
    x0, y0, x1, y1 = box
    rounded(d, (x0 - width, y0 - width, x1 + width, y1 + width), radius, outline=HIGHLIGHT, width=width)


def badge(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    face: Font,
    *,
    fill: RGB = HIGHLIGHT,
    ink: RGB = DARK_INK,
    anchor: str = "mm",
) -> Box:
    """A pill with ``text``; ``anchor`` places it like Pillow's text anchors ("mm" centre, "la" top-left...)."""
    shape = _pill_shape(width(text, face) + int(face.size), int(face.size * 1.45))
    x, y, _, _ = badge_box(xy, text, face, anchor=anchor)
    w, h = shape.width - 1, shape.height - 1
    bitmap(d, (x, y), shape, fill)
    text_at(d, (x + w / 2, y + h / 2), text, face, fill=ink, anchor="mm")
    return (x, y, x + w, y + h)


def badge_box(xy: tuple[int, int], text: str, face: Font, *, anchor: str = "mm") -> Box:
    """Where :func:`badge` draws ``text`` anchored at ``xy``."""
    w, h = width(text, face) + int(face.size), int(face.size * 1.45)
    x = xy[0] - {"l": 0, "m": w // 2, "r": w}[anchor[0]]
    y = xy[1] - {"a": 0, "t": 0, "m": h // 2, "b": h, "d": h, "s": h}[anchor[1]]
    return x, y, x + w, y + h


@cache
def _pill_shape(w: int, h: int) -> Image.Image:
    """The mask of a ``w`` x ``h`` pill as ``rounded_rectangle`` draws it (one pixel more each way: ends included)."""
    shape = Image.new("L", (w + 1, h + 1), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w, h), h // 2, fill=255)
    return shape


def delta_pill(text: str, value: int) -> Pill:
    """A header note for points won (gold) or lost (red), ``text`` saying what for ("floor −2"); its short form is
    the number alone."""
    return Pill(text, fill=GAIN if value >= 0 else LOSS, ink=DARK_INK, short=signed(value))


def points(d: ImageDraw.ImageDraw, xy: tuple[int, int], value: int, face: Font, *, anchor: str = "mm") -> Box:
    """A "+3" (gold) or "−2" (red) badge for points won or lost by the last move, on the piece that won them."""
    return badge(d, xy, signed(value), face, fill=LOSS if value < 0 else GAIN, anchor=anchor)


def signed(value: int) -> str:
    """Points with their sign, a true minus sign for losses: "+3", "0", "−18"."""
    return f"−{-value}" if value < 0 else f"+{value}" if value > 0 else "0"


def text_at(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: Font, *, fill: Ink = TEXT, anchor: str = "la"
) -> None:
    """Draw one line of ``text`` anchored at ``xy``: the same pixels as ``d.text``, with the glyphs' coverage mask
    rendered once per text, face, anchor and sub-pixel start (FreeType rendering was a third of a picture's drawing)."""
    if has_emoji(text):  # colour glyphs from the emoji font among the letters
        _record(text, emoji_text(d, xy, text, face, fill, anchor), face)
        return
    if not text or "\n" in text:
        d.text(xy, text, font=face, fill=fill, anchor=anchor)
        if text:
            x0, y0, x1, y1 = d.textbbox(xy, text, font=face, anchor=anchor)
            _record(text, (int(x0), int(y0), int(x1), int(y1)), face)
        return
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _text_mask(text, face, anchor, start)
    bitmap(d, (int(x) + dx, int(y) + dy), mask, fill)
    _record(text, (int(x) + dx, int(y) + dy, int(x) + dx + mask.size[0], int(y) + dy + mask.size[1]), face)


def condensed_text_at(  # noqa: PLR0917
    d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: Font, fill: Ink = TEXT, squeeze: float = 0.85
) -> None:
    """One line of ``text`` centred on ``xy``, its letters ``squeeze`` times as wide as the face draws them and as
    tall: a code that must be read where there is not room for it at a readable size."""
    if not text:
        return
    mask, _ = _text_mask(text, face, "mm", (0.0, 0.0))
    narrow = mask.resize((max(1, round(mask.size[0] * squeeze)), mask.size[1]), Image.Resampling.LANCZOS)
    x, y = round(xy[0] - narrow.size[0] / 2), round(xy[1] - narrow.size[1] / 2)
    d.bitmap((x, y), narrow, fill=fill)
    _record(text, (x, y, x + narrow.size[0], y + narrow.size[1]), face)


def line_at(  # noqa: PLR0917
    d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: Font, fill: Ink = TEXT, anchor: str = "lm"
) -> None:
    """:func:`text_at` for a line drawn once, such as the caption (a new sentence every turn): the same pixels, put
    down word by word from cached word masks, since the fonts kern nothing across a space (rendering a new 60-letter
    line took most of a millisecond; its words recur from turn to turn). Left anchors only."""
    if has_emoji(text) or "\n" in text or not text.strip() or anchor[0] != "l":
        text_at(d, xy, text, face, fill=fill, anchor=anchor)
        return
    x, y = xy
    pen, space = 0.0, advance(" ", face)
    left, top, right, bottom = math.inf, math.inf, -math.inf, -math.inf
    for word in text.split(" "):
        if word:
            at = x + pen
            mask, (dx, dy) = _text_mask(word, face, anchor, (math.modf(at)[0], math.modf(y)[0]))
            wx, wy = int(at) + dx, int(y) + dy
            bitmap(d, (wx, wy), mask, fill)
            left, top = min(left, wx), min(top, wy)
            right, bottom = max(right, wx + mask.size[0]), max(bottom, wy + mask.size[1])
            pen += advance(word, face)
        pen += space
    _record(text, (int(left), int(top), int(right), int(bottom)), face)


# --- what was drawn, for the tests: every text's box and size ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DrawnText:
    """One text as a picture drew it: where its glyphs' box lies (in the picture's pixels), its face's size, and
    the box it must stay inside (a player's header), when it has one."""

    text: str
    box: Box
    size: int
    inside: Box | None
    height: float = 0.0
    """How tall its capitals and digits are in the picture's pixels (a layer drawn large and shrunk counts shrunk)."""
    name: bool = False
    """A player's name (see :meth:`Table.draw_name`)."""


_drawn: ContextVar[list[DrawnText] | None] = ContextVar("drawn_texts", default=None)
_inside: ContextVar[Box | None] = ContextVar("text_container", default=None)
_shrink: ContextVar[float] = ContextVar("text_shrink", default=1.0)
_naming: ContextVar[bool] = ContextVar("drawing_a_name", default=False)
_top: ContextVar[int] = ContextVar("strip_top", default=0)


@contextmanager
def moved(top: int) -> Iterator[None]:
    """Texts drawn in the block go on a strip that will lie ``top`` pixels down the picture (recorded there)."""
    token = _top.set(_top.get() + top)
    try:
        yield
    finally:
        _top.reset(token)


@contextmanager
def shrunk(factor: float) -> Iterator[None]:
    """Texts drawn in the block go on a layer that is shrunk ``factor`` times before it reaches the picture."""
    token = _shrink.set(_shrink.get() / factor)
    try:
        yield
    finally:
        _shrink.reset(token)


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Collect every text drawn (on the table's canvas or a layer drawn meanwhile) while the block runs."""
    drawn: list[DrawnText] = []
    token = _drawn.set(drawn)
    try:
        yield drawn
    finally:
        _drawn.reset(token)


@contextmanager
def within(box: Box) -> Iterator[None]:
    """Texts drawn in the block belong inside ``box`` (recorded for the tests; drawing is unchanged)."""
    token = _inside.set(box)
    try:
        yield
    finally:
        _inside.reset(token)


_regions: ContextVar[dict[str, list[Box]] | None] = ContextVar("drawn_regions", default=None)


@contextmanager
def regions() -> Iterator[dict[str, list[Box]]]:
    """Collect the boxes of the named layout regions (standings, centre...) drawn while the block runs."""
    drawn: dict[str, list[Box]] = {}
    token = _regions.set(drawn)
    try:
        yield drawn
    finally:
        _regions.reset(token)


def mark_region(name: str, box: Box) -> None:
    """Record that the layout region ``name`` (standings, centre...) lies at ``box`` (for the tests)."""
    drawn = _regions.get()
    if drawn is not None:
        drawn.setdefault(name, []).append(box)


def _record(text: str, box: Box, face: Font) -> None:
    drawn = _drawn.get()
    if drawn is not None:
        height = cap_height(int(face.size), "Bold" in str(face.path)) * _shrink.get()
        top = _top.get()
        box = (box[0], box[1] + top, box[2], box[3] + top)
        drawn.append(DrawnText(text, box, int(face.size), _inside.get(), height, _naming.get()))


@cache
def digit_height(size: int, bold: bool = False) -> int:
    """How tall digits are, in pixels, in the bundled font at ``size``: what a number's readability depends on."""
    box = font(size, bold).getbbox("0123456789", anchor="ls")
    return int(box[3] - box[1])


@cache
def cap_height(size: int, bold: bool = False) -> int:
    """How tall capital letters are, in pixels, in the bundled font at ``size`` (DejaVu's digits are as tall)."""
    box = font(size, bold).getbbox("HEIKMNTZ", anchor="ls")
    return int(box[3] - box[1])


@lru_cache(maxsize=8192)
def _text_mask(text: str, face: Font, anchor: str, start: tuple[float, float]) -> tuple[Image.Image, tuple[int, int]]:
    """What ``ImageDraw.text`` renders for one line in an RGB picture: its coverage mask and offset from the anchor."""
    core, offset = face.getmask2(text, "L", anchor=anchor, start=start)
    return Image.Image()._new(core), offset


@lru_cache(maxsize=4096)
def _label(key: str, locale: str, params: tuple[tuple[str, Any], ...]) -> str:
    """A picture's text, kept: a picture says a dozen, mostly the same from turn to turn, and filling in a phrase
    with its plural and grammatical forms takes a few microseconds each time."""
    return t(f"picture.{key}", locale, **dict(params))


# --- the picture being drawn ----------------------------------------------------------------------------------------
@dataclass
class Table:
    """One picture being drawn: the canvas and what every game's drawing functions read. Each game subclasses it
    to add what the last move touched (its ``LastMove``)."""

    image: Image.Image
    d: ImageDraw.ImageDraw
    state: Any  # each game's Table narrows it to its state type; the shared pieces read Azul's and Summer Pavilion's
    names: Sequence[str]
    locale: str
    info: Sequence[SeatInfo | None] = field(default=(), kw_only=True)
    acting: Collection[int] = field(default=(), kw_only=True)  # who must act now (for the personal view's rows)

    def state_score(self, seat: int) -> int:
        """``seat``'s score; games whose state keeps it elsewhere override this."""
        return int(self.state.boards[seat].score)

    def seat_info(self, seat: int) -> SeatInfo:
        """What the bot told about ``seat`` (empty when nothing)."""
        return (self.info[seat] if seat < len(self.info) else None) or SeatInfo()

    def label(self, key: str, **params: Any) -> str:
        """The ``picture.<key>`` text in the table's language."""
        try:
            return _label(key, self.locale, tuple(params.items()))
        except TypeError:  # a parameter that cannot be a cache key
            return t(f"picture.{key}", self.locale, **params)

    def name(self, seat: int, face: Font, max_width: int) -> str:
        """The seat's display name made to fit, or "Player N" when there is none."""
        raw = self.names[seat] if seat < len(self.names) else ""
        return fit_name(raw, face, max_width, self.label("player", number=seat + 1))

    def draw_name(  # noqa: PLR0917
        self, seat: int, xy: tuple[float, float], face: Font, max_width: int, fill: Ink = TEXT, anchor: str = "lm"
    ) -> None:
        """Draw the seat's name made to fit ``max_width``: every picture draws names here, so they look alike and
        the tests can tell a name from other words."""
        token = _naming.set(True)
        try:
            text_at(self.d, xy, self.name(seat, face, max_width), face, fill=fill, anchor=anchor)
        finally:
            _naming.reset(token)


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture in the theme's background and its drawing context."""
    image = Image.new("RGB", (width, height), BG)
    return image, ImageDraw.Draw(image)


def grid_origin(
    seat: int, players: int, top: int, board: tuple[int, int], *, width: int, margin: int
) -> tuple[int, int]:
    """The top-left corner of ``seat``'s board in a two-column grid under ``top``; a lone board on the last row sits
    in the middle."""
    board_w, board_h = board
    row, col = divmod(seat, 2)
    x = margin + col * (board_w + margin)
    if players % 2 == 1 and seat == players - 1:
        x = (width - board_w) // 2
    return x, top + row * (board_h + margin)


def factory_row(
    table: Table,
    y: int,
    colors: Sequence[str],
    *,
    highlighted: int | None,
    on_tile: Callable[[int, tuple[int, int], int], None] | None = None,
    diameter: int = 94,
    tile_size: int = 30,
    margin: int = 12,
    step: int | None = None,
    indices: range | None = None,
    span: tuple[int, int] | None = None,
) -> int:
    """The factory displays of ``table.state.factories`` (tile counts per colour index) in one centred row, numbered
    as in the move notation, the ``highlighted`` one ringed; ``on_tile(color, xy, size)`` may decorate each tile;
    ``step`` (centre to centre) is a ninth of the width unless given. ``indices`` (all unless given) and ``span``
    (the row's left and right edges, the picture's unless given) draw part of them as one row of several.
    Returns the y under the row."""
    image, d = table.image, table.d
    indices = indices if indices is not None else range(len(table.state.factories))
    row_left, row_right = span or (0, image.width)
    step = step or (row_right - row_left - 2 * margin) // 9
    left = row_left + (row_right - row_left - len(indices) * step) // 2 - indices.start * step
    label = font(20, bold=True)
    r = diameter // 2
    for index in indices:
        counts = table.state.factories[index]
        cx, cy = left + index * step + step // 2, y + r
        box = (cx - r, cy - r, cx + r, cy + r)
        d.ellipse(box, fill=PANEL, outline=PANEL_EDGE, width=2)
        if highlighted == index:
            d.ellipse((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), outline=HIGHLIGHT, width=4)
        tiles = [color for color in range(len(colors)) for _ in range(counts[color])]
        for k, color in enumerate(tiles[:4]):
            xy = (cx - tile_size - 2 + (k % 2) * (tile_size + 4), cy - tile_size - 2 + (k // 2) * (tile_size + 4))
            paste(image, tile(colors[color], tile_size), xy)
            if on_tile is not None:
                on_tile(color, xy, tile_size)
        text_at(d, (cx, cy + r + 1), str(index + 1), label, anchor="ma")
    return y + diameter + 26


OPPONENT_ROW = 40


def opponents_height(count: int) -> int:
    """How tall :func:`opponent_rows` draws ``count`` players."""
    return 10 + OPPONENT_ROW * count


def opponent_rows(
    table: Table, box: tuple[int, int, int], seats: Sequence[int], numbers: Callable[[int], Sequence[str]]
) -> int:
    """The other players of a personal view in one panel (``box``: left, top, right), one row each, read as their
    header on a board: a green dot for whoever must act, the name, the game's one or two numbers that matter
    (``numbers(seat)``, already worded), the seat's notes (computer, away, time left) and the score. Returns the
    panel's bottom."""
    d = table.d
    left, top, right = box
    bottom = top + opponents_height(len(seats))
    panel(d, (left, top, right, bottom))
    for row, seat in enumerate(seats):
        middle = top + 5 + OPPONENT_ROW * row + OPPONENT_ROW // 2
        if seat in table.acting:
            d.ellipse((left + 10, middle - 6, left + 22, middle + 6), fill=ACCENT)
        words = [Pill(number, fill=PANEL, ink=MUTED) for number in numbers(seat)]
        row_box = (left + 30, middle - OPPONENT_ROW // 2, right - 14, middle + OPPONENT_ROW // 2)
        seat_header(table, seat, row_box, table.state_score(seat), notes=words)
    return bottom


STANDING_ROW = 36
STANDINGS_HEAD = 34


def standings_height(players: int) -> int:
    """How tall :func:`standings` draws ``players`` rows."""
    return STANDINGS_HEAD + STANDING_ROW * players + 8


def standings(
    table: Table,
    box: tuple[int, int, int],
    heads: Sequence[str | tuple[str, str]],
    points: Callable[[int], Sequence[int]],
) -> Box:
    """The final standings, drawn the same way in every game: a gold-edged panel (``box``: left, top, right) with
    one row per player in standard competition ranking (1, 1, 3): the place, the name (after a "winner" badge where
    there is room, else in gold), the game's end-of-game points under ``heads`` (``points(seat)``, one number per
    head, drawn with their sign; a head may be a (full, short) pair) and the score. Each column is as wide as its
    widest text, so no head runs into the next. Returns the panel's box."""
    d, state = table.d, table.state
    left, top, right = box
    order = list(_places(state))
    bottom = top + standings_height(len(order))
    panel(d, (left, top, right, bottom), outline=HIGHLIGHT)
    mark_region("standings", (left, top, right, bottom))
    body, bold = font(20), font(20, bold=True)
    forms = [(head, head) if isinstance(head, str) else head for head in heads]
    forms.append((table.label("head.score"), table.label("head.score")))
    rows = {seat: [*(signed(v) for v in points(seat)), str(table.state_score(seat))] for _, seat in order}
    gap = 22 if right - left > 560 else 14
    # Long heads (Ukrainian) get smaller, then take their short forms, before a name loses its room. Heads of 15 px
    # or more (16 with digits) give way to keep the longest name whole (up to what a long name may ask); smaller
    # ones only to keep a name its least room.
    name_face = font(NAME_SIZE, bold=True)  # names are never drawn smaller (:func:`fitting`)
    longest = max(width(table.name(seat, name_face, 10_000), name_face) for _, seat in order)
    layouts = [
        _head_layout(forms, rows, right, gap, short=short, size=size)
        for short, size in [(False, size) for size in range(19, 14, -1)] + [(True, size) for size in range(19, 13, -1)]
    ]
    whole = (lay for lay in layouts if lay[0].size >= _least_head(lay[1]) and lay[3] - left - 52 >= min(longest, 190))
    least = (lay for lay in layouts if lay[3] - left - 52 >= MIN_NAME_ROOM - 30)
    head_face, titles, columns, x = next(whole, None) or next(least, layouts[-1])
    for title, cx in zip(titles, columns, strict=True):
        text_at(d, (cx, top + 25), title, head_face, fill=MUTED, anchor="rs")  # one baseline, whatever the size
    winner = table.label("winner")
    badge_face = font(15, bold=True)
    badge_w = width(winner, badge_face) + int(badge_face.size) + 10
    for row, (place, seat) in enumerate(order):
        mid = top + STANDINGS_HEAD + STANDING_ROW * row + STANDING_ROW // 2
        text_at(d, (left + 16, mid), f"{place}.", bold, anchor="lm")
        name_x, room = left + 52, x - left - 52
        won = place == 1
        if won and room - badge_w >= MIN_NAME_ROOM:
            badge(d, (name_x, mid), winner, badge_face, anchor="lm")
            name_x, room = name_x + badge_w, room - badge_w
        ink = HIGHLIGHT if won and name_x == left + 52 else TEXT  # the winner in gold where no badge fits
        face = fitting(table, seat, room, NAME_SIZE, bold=won)
        table.draw_name(seat, (name_x, mid), face, room, fill=ink)
        for k, (cell, cx) in enumerate(zip(rows[seat], columns, strict=True)):
            last = k == len(columns) - 1
            text_at(d, (cx, mid), cell, bold if last else body, fill=HIGHLIGHT if last else TEXT, anchor="rm")
    return left, top, right, bottom


def _least_head(titles: Sequence[str]) -> int:
    """The smallest face the standings' heads take to keep a name whole: 15 px (11 px capitals, 8 px on a phone),
    16 px when a head has digits (they must stay 10 px there at the tallest pictures)."""
    return 16 if any(ch.isdigit() for title in titles for ch in title) else 15


def _head_layout(
    forms: Sequence[tuple[str, str]], rows: dict[int, list[str]], right: int, gap: int, *, short: bool, size: int
) -> tuple[Font, list[str], list[int], int]:
    """The standings' number columns with heads of ``size`` (their short forms if ``short``): the face, the heads,
    each column's right edge, and where the first column starts."""
    head_face, cell_face = font(size, bold=True), font(20, bold=True)
    titles = [form[short] for form in forms]
    columns: list[int] = []
    x = right - 18
    for k in reversed(range(len(titles))):
        columns.insert(0, x)
        x -= max(width(titles[k], head_face), *(width(cells[k], cell_face) for cells in rows.values())) + gap
    return head_face, titles, columns, x


MIN_NAME_ROOM = 150  # pixels a name keeps beside the winner's badge, else the badge gives way to a gold name


def fitting(table: Table, seat: int, room: int, size: int, *, bold: bool) -> Font:
    """The face of ``size`` for a name: never smaller, or the name is hard to read on a phone showing the tallest
    pictures at 0.69x (a long name is shortened instead)."""
    for smaller in range(size, size - 1, -1):
        face = font(smaller, bold=bold)
        if width(table.name(seat, face, 10_000), face) <= room:
            return face
    return font(size, bold=bold)


def _places(state: Any) -> Iterator[tuple[int, int]]:
    """``(place, seat)`` from first to last, ties sharing a place that uses up the places after it (1, 1, 3)."""
    place = 1
    for group in engine.standings(state):
        for seat in group:
            yield place, seat
        place += len(group)


CAPTION_H = 44


def captioned(image: Image.Image, caption: str) -> Image.Image:
    """``image`` with ``caption`` (the last move in words) in a line under it, so a picture forwarded alone, a replay
    frame or a board shown again still says what happened; a long caption ends in an ellipsis."""
    return stacked([image, *under(image, caption=caption)])


def under(image: Image.Image, *, notes: Sequence[Pill] = (), caption: str = "") -> list[Image.Image]:
    """The strips drawn under ``image``: its legend (:func:`legended`), then its caption (:func:`captioned`), each
    only when there is something to say. Kept apart, they reach the PNG encoder without a copy of the picture above
    them (:func:`render.png.to_png` takes the parts)."""
    parts = []
    legend = legend_strip(image.width, image.height, notes)
    if legend is not None:
        parts.append(legend)
    line = caption_strip(image.width, image.height + (legend.height if legend else 0), caption)
    if line is not None:
        parts.append(line)
    return parts


def caption_strip(across: int, top: int, caption: str) -> Image.Image | None:
    """The caption's line, ``across`` wide, to go at ``top`` (texts are recorded where they land), or None."""
    text = printable(caption)
    if not text:
        return None
    strip = Image.new("RGB", (across, CAPTION_H), BG)
    face = font(24, bold=True)
    with moved(top):
        line_at(ImageDraw.Draw(strip), (16, CAPTION_H // 2 - 4), fit(text, face, across - 32), face, fill=TEXT)
    return strip


def stacked(parts: Sequence[Image.Image]) -> Image.Image:
    """``parts`` one under the other, as one picture (the first alone is returned as it is)."""
    if len(parts) == 1:
        return parts[0]
    result = Image.new("RGB", (parts[0].width, sum(part.height for part in parts)), BG)
    y = 0
    for part in parts:
        result.paste(part, (0, y))
        y += part.height
    return result


def closeup(table: Image.Image, shared: Sequence[Box], board: Box) -> Image.Image:
    """One player's close-up cut from the whole ``table``: the ``board`` region (with the margin around it) at full
    size, under the ``shared`` regions at half size (a board is half the table's width, so they are as large as a
    phone shows them in the whole table; halving by 2x2 averages is fast and keeps edges clean). A table already one
    board wide keeps its shared area as it is."""
    own = table.crop(board)
    parts = [table.crop(box) for box in shared]
    parts = [part.reduce(2) if part.width > 1.5 * own.width else part for part in parts]  # a one-column table: as is
    image = Image.new("RGB", (max(own.width, *(p.width for p in parts)), sum(p.height for p in parts) + own.height), BG)
    y = 0
    for part in parts:
        image.paste(part, ((image.width - part.width) // 2, y))
        y += part.height
    image.paste(own, ((image.width - own.width) // 2, y))
    return image


def around(box: Box, limit: tuple[int, int], margin: int = 12) -> Box:
    """``box`` grown by ``margin`` above and below (room for the "to move" pill) and a little less on the sides
    (short of a neighbouring panel), kept inside a picture of size ``limit``."""
    side = margin - 3
    return (
        max(0, box[0] - side),
        max(0, box[1] - margin),
        min(limit[0], box[2] + side),
        min(limit[1], box[3] + margin),
    )
