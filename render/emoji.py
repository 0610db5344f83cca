"""Emoji in pictures: drawn in colour from the bundled Noto Color Emoji (``data/fonts``, built by
``tools/emoji_font.py``), among letters drawn in DejaVu Sans.

The emoji font is a bitmap font with one strike (``STRIKE`` px), so a glyph is drawn once at that size, cut to its
box and scaled to the text's size (cached). Pillow's basic layout applies no ligatures, so a sequence (a flag, a
keycap, a family, a rainbow flag) is matched here, longest first, and drawn as the one glyph the build gave it a
private-use code point for. Skin tone modifiers are left out (the glyph is drawn in the default yellow) and a
zero-width joiner that joins nothing known is dropped: the pieces are drawn side by side.

A character the letters' font has (digits, ©, ❤) stays a letter unless an emoji variation selector (U+FE0F)
follows it, as on Discord.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from data import load_json, path
from render.cmap import covered

FILE = "NotoColorEmoji-small.ttf"
SEQUENCES = "emoji-sequences.json"
STRIKE = 36  # the font's only bitmap size (ppem): FreeType loads it at no other
EMOJI_STYLE = "\ufe0f"
TEXT_STYLE = "\ufe0e"
JOINER = "\u200d"
TONES = range(0x1F3FB, 0x1F400)
EMOJI_SIZE = 1.0  # an emoji's height, in ems of the text it sits in
GAP = 1  # pixels after an emoji

Ink = float | tuple[int, ...] | str


@cache
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path("fonts", FILE)), STRIKE, layout_engine=ImageFont.Layout.BASIC)


@cache
def _sequences() -> tuple[dict[str, str], int]:
    """Each sequence the font draws as one glyph (without variation selectors) → its private-use character, and
    the longest sequence's length."""
    table: dict[str, str] = load_json("fonts", SEQUENCES)
    found = {"".join(chr(int(p, 16)) for p in key.split()): chr(int(glyph, 16)) for key, glyph in table.items()}
    return found, max(map(len, found))


def sequence_texts() -> Collection[str]:
    """Every multi-character emoji sequence the font draws as one glyph (variation selectors left out)."""
    return _sequences()[0].keys()


def _emoji_points() -> frozenset[int]:
    return covered(FILE)


@cache
def _emoji_only_points() -> frozenset[int]:
    return _emoji_points() - _letter_points()


def _letter_points() -> frozenset[int]:
    return covered()


def normalize(text: str) -> str:
    """``text`` with every emoji sequence the font knows turned into its one character, skin tones and stray
    joiners and text-style selectors dropped; an emoji-style selector stays after a character both fonts have."""
    sequences, longest = _sequences()
    plain = text.replace(TEXT_STYLE, "")
    out: list[str] = []
    i = 0
    while i < len(plain):
        found = _longest_sequence(plain, i, sequences, longest)
        if found:
            out.append(sequences[found[0]])
            i = found[1]
            continue
        ch = plain[i]
        i += 1
        if ch == EMOJI_STYLE:
            if out and ord(out[-1][-1]) in _letter_points() and ord(out[-1][-1]) in _emoji_points():
                out.append(ch)
        elif ch != JOINER and ord(ch) not in TONES:
            out.append(ch)
    return "".join(out)


def _longest_sequence(text: str, start: int, sequences: dict[str, str], longest: int) -> tuple[str, int] | None:
    """The longest known sequence at ``start`` (emoji-style selectors skipped) and where it ends in ``text``."""
    if ord(text[start]) not in _emoji_points():
        return None
    key, end, best = "", start, None
    while end < len(text) and len(key) < longest:
        ch = text[end]
        end += 1
        if ch == EMOJI_STYLE:
            continue
        key += ch
        if len(key) > 1 and key in sequences:
            best = (key, end)
    return best


@lru_cache(maxsize=8192)
def has_emoji(text: str) -> bool:
    """Whether ``text`` (normalized) holds anything drawn from the emoji font."""
    if EMOJI_STYLE not in text and _emoji_only_points().isdisjoint(map(ord, text)):
        return False  # most texts: a character both fonts have (a digit, ❤) is a letter unless a selector follows
    return any(emoji for _, emoji in runs(text))


def is_drawable(ch: str) -> bool:
    """Whether the emoji font has a glyph for ``ch``."""
    return ord(ch) in _emoji_points()


def runs(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` (normalized) as runs of letters and single emoji: ``(run, is_emoji)``."""
    letters, emoji = _letter_points(), _emoji_points()
    run = ""
    for i, ch in enumerate(text):
        if ch == EMOJI_STYLE:
            continue
        styled = i + 1 < len(text) and text[i + 1] == EMOJI_STYLE
        if ord(ch) in emoji and (ord(ch) not in letters or styled):
            if run:
                yield run, False
                run = ""
            yield ch, True
        else:
            run += ch
    if run:
        yield run, False


@lru_cache(maxsize=2048)
def glyph(ch: str, height: int) -> Image.Image:
    """The emoji ``ch`` in colour (RGBA), ``height`` pixels tall."""
    face = _font()
    core, _ = face.getmask2(ch, "RGBA")
    image = Image.Image()._new(core)
    box = image.getbbox() or (0, 0, 1, 1)
    drawn = image.crop((box[0], 0, box[2], image.height))  # keeps the glyph's own vertical placement
    width = max(1, round(drawn.width * height / drawn.height))
    return drawn.resize((width, height), Image.Resampling.LANCZOS)


def emoji_height(face: ImageFont.FreeTypeFont) -> int:
    return max(1, round(float(face.size) * EMOJI_SIZE))


def width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """How wide ``text`` (normalized) is in ``face`` with its emoji."""
    total = 0.0
    for run, emoji in runs(text):
        total += glyph(run, emoji_height(face)).width + GAP if emoji else face.getlength(run)
    return int(total)


def draw(  # noqa: PLR0917
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: Ink,
    anchor: str = "la",
) -> tuple[int, int, int, int]:
    """Draw ``text`` (normalized) anchored at ``xy`` as ``d.text`` would, its emoji in colour; returns its box."""
    layer, top = _layer(text, face, fill if isinstance(fill, tuple | str) else "white", anchor[1])
    across = {"r": layer.width, "m": layer.width / 2}.get(anchor[0], 0)
    left, top = round(xy[0] - across), round(xy[1]) + top
    image: Image.Image = d._image
    if image.mode in {"RGB", "RGBA"}:
        image.paste(layer, (left, top), layer)
    else:  # a one-channel layer (a mask) gets the shapes only
        d.bitmap((left, top), layer.getchannel("A"), fill=fill)
    return left, top, left + layer.width, top + layer.height


@lru_cache(maxsize=1024)
def _layer(text: str, face: ImageFont.FreeTypeFont, fill: tuple[int, ...] | str, down: str) -> tuple[Image.Image, int]:
    """``text`` drawn once (names come back in every picture): letters in ``fill`` and emoji in colour on a
    transparent layer, and its top relative to the anchor's line (``down``: Pillow's vertical anchor)."""
    cap = face.getbbox("H", anchor=f"l{down}")  # the emoji sit centred on the letters' capitals
    height = emoji_height(face)
    emoji_top = round((cap[1] + cap[3]) / 2 - height / 2)
    pieces: list[tuple[str, bool, float]] = []
    x, top, bottom, right = 0.0, emoji_top, emoji_top + height, 0
    for run, emoji in runs(text):
        pieces.append((run, emoji, x))
        if emoji:
            x += glyph(run, height).width + GAP
        else:
            box = face.getbbox(run, anchor=f"l{down}")
            top, bottom, right = min(top, int(box[1])), max(bottom, int(box[3])), max(right, int(x + box[2]))
            x += face.getlength(run)
    size = (max(1, int(x), right), bottom - top)
    colour, alpha = Image.new("RGB", size, fill), Image.new("L", size, 0)
    for run, emoji, at in pieces:  # the emoji first: the letters' edges then blend over their box
        if emoji:
            picture = glyph(run, height)
            colour.paste(picture.convert("RGB"), (round(at), emoji_top - top))  # its own colours, edges too
            alpha.paste(picture.getchannel("A"), (round(at), emoji_top - top))
    letters = ImageDraw.Draw(alpha)
    for run, emoji, at in pieces:
        if not emoji:
            letters.text((at, -top), run, font=face, fill=255, anchor=f"l{down}")
    return Image.merge("RGBA", (*colour.split(), alpha)), top
