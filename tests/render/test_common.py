"""The shared picture pieces: safe names, fitting text, colour-blind marks, the renderer registry, the labels."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from data import load_json
from render import common as c
from render.palette import palette_image
from render.png import to_png
from render.text import covered, fit, font, printable, width

GAME_COLORS = {
    "azul": ("blue", "yellow", "red", "black", "white"),
    "summer_pavilion": ("purple", "green", "orange", "yellow", "blue", "red"),
    "queens_garden": ("blue", "yellow", "light_green", "dark_green", "light_purple", "dark_purple"),
}


def test_the_font_covers_polish_ukrainian_and_accents() -> None:
    glyphs = covered()
    assert all(ord(ch) in glyphs for ch in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻїієґЇІЄҐщЩéüñ…−×")
    assert 0x1F3B2 not in glyphs  # 🎲 comes from the emoji font (tests/render/test_names.py)


def test_printable_drops_what_no_font_can_draw() -> None:
    assert printable("Zoë 王 Żółw") == "Zoë Żółw"
    assert printable("Їжак\u200d\ufe0e\x07 ") == "Їжак"
    assert printable("王王", "Player 1") == "Player 1"
    assert printable("   ", "Player 2") == "Player 2"


def test_fit_cuts_long_text_with_an_ellipsis() -> None:
    face = font(22, bold=True)
    long = "Олександра Петренко-Велика з дуже довгим ім'ям"
    cut = fit(long, face, 200)
    assert cut.endswith("…") and width(cut, face) <= 200 and long.startswith(cut[:-1])
    assert fit("Bob", face, 200) == "Bob"
    assert width(fit("W" * 50, face, 5), face) <= width("…", face)


@pytest.mark.parametrize("game", sorted(GAME_COLORS))
def test_each_game_colours_have_distinct_marks_and_fills(game: str) -> None:
    styles = [c.STYLES[color] for color in GAME_COLORS[game]]
    assert len({style.mark for style in styles}) == len(styles)
    assert len({style.fill for style in styles}) == len(styles)
    assert all(style.mark in c.MARK_SHAPES for style in styles)


def test_shared_colours_keep_their_mark_across_games() -> None:
    marks: dict[str, set[str]] = {}
    for colors in GAME_COLORS.values():
        for color in colors:
            marks.setdefault(color, set()).add(c.STYLES[color].mark)
    assert all(len(found) == 1 for found in marks.values())


@pytest.mark.parametrize("color", sorted(c.STYLES))
def test_every_tile_shows_its_mark(color: str) -> None:
    image = c.tile(color, 40)
    assert image.size == (40, 40) and image.mode == "RGBA"
    fill = c.STYLES[color].fill
    # Somewhere inside, the mark's ink must stand out clearly from the tile's fill.
    raw = image.crop((10, 10, 30, 30)).convert("RGB").tobytes()
    pixels = [raw[i : i + 3] for i in range(0, len(raw), 3)]
    assert any(sum(abs(a - b) for a, b in zip(pixel, fill, strict=True)) > 120 for pixel in pixels)
    assert c.ghost(color, 40).size == (40, 40)


def test_png_output_is_deterministic_and_a_palette_image() -> None:
    image = Image.new("RGB", (120, 80), c.BG)
    c.paste(image, c.tile("red", 40), (10, 10))
    assert to_png(image) == to_png(image.copy())
    assert to_png(image).startswith(b"\x89PNG")


def test_unknown_game_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.engine, "get_variant", lambda name: SimpleNamespace(game="chess"))
    with pytest.raises(LookupError, match="no renderer for game 'chess'"):
        render.render_table(SimpleNamespace(variant="chess"), names=[])


def test_picture_labels_exist_in_every_language() -> None:
    english = set(load_json("locale", "en", "picture.json"))
    assert all(key.startswith("picture.") for key in english)
    for lang in ("pl", "uk"):
        assert set(load_json("locale", lang, "picture.json")) == english, lang


def test_cmap_reading_agrees_with_what_freetype_draws() -> None:
    face = font(16)

    def drawn(ch: str) -> tuple[object, bytes]:
        mask = face.getmask(ch)
        return mask.getbbox(), bytes(mask)

    missing = drawn(chr(0x10FFFD))  # a private-use code point: the missing-glyph box
    glyphs = covered()
    sample = [*range(0x20, 0x530), *range(0x2000, 0x2700, 3), *range(0x1F300, 0x1F650, 2)]
    wrong = [hex(point) for point in sample if (drawn(chr(point)) != missing) != (point in glyphs)]
    assert not wrong


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ma", "rd", "ra", "ls"])
def test_text_at_draws_the_same_pixels_as_pillow(anchor: str) -> None:
    """Glyph masks are kept between pictures: drawing from them must equal drawing the text afresh."""
    for mode, ground in (("RGB", c.BG), ("RGBA", (0, 0, 0, 0))):
        for xy in ((50, 40), (50.5, 40.25), (33.3, 41.7)):
            for face in (c.font(22, bold=True), c.font(11)):
                fresh, cached = Image.new(mode, (200, 90), ground), Image.new(mode, (200, 90), ground)
                ImageDraw.Draw(fresh).text(xy, "Zoë −7 ×3 Олександра", font=face, fill=c.HIGHLIGHT, anchor=anchor)
                c.text_at(ImageDraw.Draw(cached), xy, "Zoë −7 ×3 Олександра", face, fill=c.HIGHLIGHT, anchor=anchor)
                assert ImageChops.difference(fresh, cached).getbbox() is None, (mode, xy, face.size)


def test_a_game_picture_carries_its_games_whole_palette_and_parts_encode_as_one_picture() -> None:
    """Finding the colours a picture uses cost more than the bytes of the ones it does not (see ``to_png``); a
    picture given as strips is the picture stacked."""
    image = Image.new("RGB", (40, 20), c.BG)
    ImageDraw.Draw(image).rectangle((0, 0, 9, 9), fill=c.HIGHLIGHT)
    png = to_png(image, palette=palette_image("azul"))
    decoded = Image.open(io.BytesIO(png))
    assert decoded.getpalette() == (palette_image("azul") or Image.new("P", (1, 1))).getpalette()
    for xy, colour in (((0, 0), c.HIGHLIGHT), ((39, 19), c.BG)):  # the palette's nearest: within a step or two
        assert max(abs(a - b) for a, b in zip(decoded.convert("RGB").getpixel(xy), colour, strict=True)) <= 2
    strips = [image.crop((0, 0, 40, 7)), image.crop((0, 7, 40, 20))]
    assert to_png(strips, palette=palette_image("azul")) == png
    assert to_png(strips) == to_png(image)
