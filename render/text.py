"""Fonts and text for every picture: the bundled DejaVu Sans, loaded lazily, and texts made safe to draw.

Discord display names may hold accents, Cyrillic, emoji and control characters. The font covers Latin-extended,
Greek and Cyrillic, and the bundled colour emoji font (:mod:`render.emoji`) the emoji; any character neither has a
glyph for is dropped (never drawn as a tofu box), and a name left empty falls back to a caller-given label. Layout
is Pillow's basic engine so the pixels do not depend on whether libraqm happens to be installed.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import ImageFont

from data import path
from render.cmap import REGULAR, covered
from render.emoji import EMOJI_STYLE, has_emoji, is_drawable, normalize, sequence_texts
from render.emoji import width as emoji_width

__all__ = ["BOLD", "ELLIPSIS", "Font", "advance", "fit", "font", "line_length", "printable", "width"]

BOLD = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """The bundled font at ``size`` pixels, loaded once per (size, weight)."""
    file = path("fonts", BOLD if bold else REGULAR)
    return ImageFont.truetype(str(file), size, layout_engine=ImageFont.Layout.BASIC)


def printable(text: str, fallback: str = "") -> str:
    """``text`` as it can be drawn: emoji sequences made single characters (:func:`render.emoji.normalize`), and
    what neither font can draw removed (missing glyphs, controls, stray joiners and variation selectors)."""
    if unicodedata.is_normalized("NFC", text) and _plain_letters().issuperset(text):
        return " ".join(text.split()) or fallback  # the common case, a caption in any of the three languages
    return _cleaned(text) or fallback


def _cleaned(text: str) -> str:
    """:func:`printable` the long way, character by character."""
    letters = covered()
    kept = "".join(ch for ch in normalize(unicodedata.normalize("NFC", text)) if _drawable(ch, letters))
    return " ".join(kept.split())


@cache
def _plain_letters() -> frozenset[str]:
    """The characters :func:`printable` keeps as they are: the letter font draws them (digits and ❤ too, which
    the emoji font also has: they stay letters unless a selector follows), they continue no emoji sequence (so a
    text of them holds none) and they are no control, format character or selector (the emoji-style selector
    stays only after a character both fonts have)."""
    letters = covered()
    continuing = {ch for sequence in sequence_texts() for ch in sequence[1:]}
    kept = frozenset(chr(point) for point in letters if _drawable(chr(point), letters))
    return kept - continuing - {EMOJI_STYLE}  # kept or dropped by what comes before it


def _drawable(ch: str, letters: frozenset[int]) -> bool:
    """Controls and format characters draw nothing useful; an emoji-style selector left by ``emoji.normalize``
    says how the character before it is drawn; the emoji font's private-use characters are its sequences."""
    if ch == EMOJI_STYLE:
        return True
    kind = unicodedata.category(ch)
    if kind == "Co":
        return is_drawable(ch)
    if kind[0] == "C" or 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:
        return False
    return ord(ch) in letters or is_drawable(ch)


@lru_cache(maxsize=8192)
def width(text: str, face: Font) -> int:
    """How wide ``text`` (printable) is in ``face``, emoji included (cached: a picture measures the same labels
    again and again)."""
    return emoji_width(text, face) if has_emoji(text) else int(line_length(text, face))


def line_length(text: str, face: Font) -> float:
    """``face.getlength(text)`` for a line without emoji, summed from its words' cached lengths: the bundled fonts
    kern no pair with a space, so a line is exactly as long as its words and spaces (``tests/render/test_text.py``),
    and a new sentence of known words (the caption under every board) costs no layout of its own."""
    words = text.split(" ")
    return sum(advance(word, face) for word in words if word) + (len(words) - 1) * advance(" ", face)


@lru_cache(maxsize=8192)
def advance(word: str, face: Font) -> float:
    """How far ``word`` moves the pen in ``face``, kerning inside it included."""
    return face.getlength(word)


def fit(text: str, face: Font, max_width: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_width`` pixels wide in ``face``."""
    if width(text, face) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that still fits with the ellipsis
        mid = (low + high + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, face) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS
