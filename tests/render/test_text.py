"""Texts drawn the fast way are the texts drawn before (Pillow's own, or the emoji font's): lines from cached word
masks and lengths, and names and captions cleaned without a walk over their characters."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops, ImageDraw

from data import path
from render import common as c
from render import text
from render.cmap import covered
from render.text import font, printable

FACES = [font(20), font(20, bold=True), font(24, bold=True)]


def _locale_texts() -> list[str]:
    """Every player-facing text of the three catalogues, placeholders dropped: the words captions are made of."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, str):
            found.append(value.replace("{", "").replace("}", ""))

    for catalogue in sorted(path("locale").glob("*/*.json")):
        walk(json.loads(catalogue.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("face", FACES, ids=lambda face: f"{face.size}{'b' if 'Bold' in str(face.path) else ''}")
def test_no_letter_kerns_with_a_space(face: c.Font) -> None:
    """What a line's length summed from its words relies on."""
    space = face.getlength(" ")
    letters = [chr(point) for point in covered() if chr(point).isprintable()]
    assert all(face.getlength(f" {ch}") == space + face.getlength(ch) == face.getlength(f"{ch} ") for ch in letters)


def test_a_line_is_as_long_as_pillow_measures_it() -> None:
    lines = [printable(line) for line in _locale_texts()[::7]]
    for face in FACES:
        assert [text.line_length(line, face) for line in lines] == [face.getlength(line) for line in lines]


@pytest.mark.parametrize("start", [(16.0, 18.0), (16.25, 18.5), (3.5, 20.0)])
def test_a_line_drawn_word_by_word_has_the_pixels_of_the_whole_line(start: tuple[float, float]) -> None:
    face = font(24, bold=True)
    lines = [printable(line) for line in _locale_texts()[::6]]
    for line in [*lines, "Zoë  took 3 tiles", " Kuba +2 ", "AV Te", "Олександра взяла 3 плитки (−2)"]:
        whole, words = (Image.new("RGB", (2400, 44), c.BG) for _ in range(2))
        c.text_at(ImageDraw.Draw(whole), start, line, face, fill=c.TEXT, anchor="lm")
        c.line_at(ImageDraw.Draw(words), start, line, face, fill=c.TEXT)
        assert ImageChops.difference(whole, words).getbbox() is None, line


def test_printable_takes_the_short_way_only_where_it_changes_nothing() -> None:
    samples = [
        *_locale_texts(),
        "Zoë 💙 Żak",
        "1\ufe0f\u20e3 keycap",
        "❤ and ❤\ufe0f",
        "a\ufe0f b",
        "\ufe0fx Zoë\ufe0f",
        "e\u0301 combined",
        "tab\there\u200b",
        "👍🏽 toned",
        "王 Bob",
        "   ",
    ]
    for sample in samples:
        assert printable(sample, "x") == (text._cleaned(sample) or "x"), sample


def test_every_character_taken_the_short_way_is_kept_as_the_long_way_keeps_it() -> None:
    contexts = ("a{}b", "❤{}", "1{}", "{}")
    wrong = [
        (hex(ord(ch)), context)
        for ch in sorted(text._plain_letters())
        for context in contexts
        if printable(context.format(ch)) != text._cleaned(context.format(ch))
    ]
    assert not wrong
