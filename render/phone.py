"""How a picture reads on a phone: the smallest digit, letter and name as a phone shows them, measured from how the
picture was drawn (every text's face, recorded by :func:`render.common.recording`), not estimated from pixels.

A tap on a Discord picture shows it fitted into the screen: a 390 x 844 portrait phone shows a picture at
``min(390 / width, 844 / height)`` of its size. There every digit must be at least ``MIN_DIGIT`` pixels tall,
every letter's capitals ``MIN_LETTER`` and every player's name ``MIN_NAME`` (``python -m bench render --phone``
prints them for every game; the tests assert them on what the bot posts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PIL import Image

from render import azul, common, queens_garden, summer_pavilion

SCREEN = (390, 844)
MIN_DIGIT = 10.0
MIN_LETTER = 8.0
MIN_NAME = 12.0

__all__ = ["MIN_DIGIT", "MIN_LETTER", "MIN_NAME", "SCREEN", "Reading", "forget_cached_layers", "read", "reading"]


@dataclass(frozen=True, slots=True)
class Reading:
    """A picture on the phone: its size, the scale the phone shows it at, and its smallest digit, letter (capital
    height) and name in the phone's pixels, each with the text it belongs to."""

    size: tuple[int, int]
    scale: float
    digit: tuple[float, str]
    letter: tuple[float, str]
    name: tuple[float, str]

    def meets(self) -> bool:
        return self.digit[0] >= MIN_DIGIT and self.letter[0] >= MIN_LETTER and self.name[0] >= MIN_NAME

    def misses(self) -> list[str]:
        """What falls short, in words (empty when it all reads)."""
        checks = (("digit", self.digit, MIN_DIGIT), ("letter", self.letter, MIN_LETTER), ("name", self.name, MIN_NAME))
        return [f"{what} {text!r} {px:.1f} px < {least:g}" for what, (px, text), least in checks if px < least]


def scale_of(size: tuple[int, int]) -> float:
    """How large a phone shows a picture of ``size`` fitted into its screen."""
    return min(SCREEN[0] / size[0], SCREEN[1] / size[1])


def reading(drawn: Iterable[common.DrawnText], size: tuple[int, int]) -> Reading:
    """The smallest digit, letter and name among the texts ``drawn`` on a picture of ``size``, on a phone."""
    scale = scale_of(size)
    digits: list[tuple[float, str]] = []
    letters: list[tuple[float, str]] = []
    names: list[tuple[float, str]] = []
    for text in drawn:
        shown = (round(text.height * scale, 1), text.text)
        if any(ch.isdigit() for ch in text.text):
            digits.append(shown)
        if any(ch.isalpha() for ch in text.text):
            letters.append(shown)
        if text.name:
            names.append(shown)
    none = (float("inf"), "")
    smallest = [min(found, default=none) for found in (digits, letters, names)]
    return Reading(size, round(scale, 3), *smallest)


def forget_cached_layers() -> None:
    """Drop every cached layer (empty boards, tiles with marks, printed costs), so the texts drawn into them are
    drawn, and recorded, again."""
    for module in (azul, summer_pavilion, queens_garden, common):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and value not in {common.digit_height, common.cap_height}:
                value.cache_clear()


def read(draw: Callable[[], Image.Image]) -> tuple[Image.Image, Reading]:
    """Draw a picture with every layer drawn afresh and measure how it reads on a phone."""
    forget_cached_layers()
    with common.recording() as drawn:
        image = draw()
    return image, reading(drawn, image.size)
