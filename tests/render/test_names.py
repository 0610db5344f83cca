"""Names in pictures: emoji drawn in colour from the bundled font, and one rule for shortening a long name."""

from __future__ import annotations

import pytest
from PIL import Image

from render import common as c
from render import emoji
from render.names import fit_name, shortened, shown
from render.text import ELLIPSIS, font, printable, width

FACE = font(22, bold=True)


def _colourful(image: Image.Image, box: c.Box) -> int:
    """How many pixels in ``box`` are clearly coloured (not the theme's greys and whites)."""
    pixels = image.convert("RGB").crop(box).get_flattened_data()
    return sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 60)


def test_the_emoji_font_is_bundled_with_its_licence() -> None:
    from data import path

    assert path("fonts", emoji.FILE).stat().st_size < 2_500_000
    licence = path("fonts", "LICENSE-NotoColorEmoji.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Zoë 💙 Żak", "Zoë 💙 Żak"),
        ("💙", "💙"),
        ("👍🏽 Ola", "👍 Ola"),  # a skin tone is left out: the default yellow
        ("Kuba\u200d", "Kuba"),  # a joiner joining nothing
    ],
)
def test_printable_keeps_emoji(name: str, kept: str) -> None:
    assert printable(name) == kept


def test_sequences_become_one_drawn_glyph() -> None:
    for sequence in ("🇵🇱", "🇺🇦", "🏳️‍🌈", "1️⃣", "👨‍👩‍👧"):
        drawn = printable(sequence)
        assert len(drawn) == 1 and emoji.is_drawable(drawn), sequence
    assert printable("🇵🇱") != printable("🇺🇦")


def test_a_letter_stays_a_letter_unless_an_emoji_selector_follows() -> None:
    assert list(emoji.runs(printable("Ala ❤ 7"))) == [("Ala ❤ 7", False)]
    assert list(emoji.runs(printable("Ala ❤️"))) == [("Ala ", False), ("❤", True)]


def test_an_emoji_name_is_drawn_in_colour_where_its_text_is_recorded() -> None:
    image, d = c.canvas(300, 60)
    with c.recording() as drawn:
        c.text_at(d, (10, 30), printable("Zoë 💙 Żak"), FACE, anchor="lm")
    (text,) = drawn
    assert text.text == "Zoë 💙 Żak"
    assert abs(text.box[2] - text.box[0] - width(text.text, FACE)) <= 2  # a letter's ink may pass its advance
    assert _colourful(image, text.box) > 60  # the blue heart; the letters are white on grey


def test_without_emoji_a_text_draws_as_before() -> None:
    image, d = c.canvas(300, 60)
    c.text_at(d, (10, 30), "Zoë Żak", FACE, anchor="lm")
    plain, d2 = c.canvas(300, 60)
    d2.text((10, 30), "Zoë Żak", font=FACE, fill=c.TEXT, anchor="lm")
    assert image.tobytes() == plain.tobytes()


@pytest.mark.parametrize("anchor", ["lm", "rm", "mm", "la", "ls"])
def test_an_emoji_text_honours_its_anchor(anchor: str) -> None:
    _, d = c.canvas(400, 80)
    box = emoji.draw(d, (200, 40), printable("💙 Ala"), FACE, c.TEXT, anchor)
    letters = FACE.getbbox("Ala", anchor=f"l{anchor[1]}")
    assert abs(box[3] - (40 + letters[3])) <= 8  # the emoji sit on the letters' line
    x = {"l": box[0], "m": (box[0] + box[2]) / 2, "r": box[2]}[anchor[0]]
    assert abs(x - 200) <= 1


@pytest.mark.parametrize(
    ("name", "room", "expected"),
    [
        ("Bartłomiej Szczepański", 1000, "Bartłomiej Szczepański"),
        ("Bartłomiej Szczepański", 170, "Bartłomiej S."),
        ("Bartłomiej Jan Szczepański-Wróblewski", 170, "Bartłomiej S."),
        ("Bartłomiej Szczepański", 140, "Bartłomiej"),
        ("Олександра Коваленко", 200, "Олександра К."),
        ("💙 Zoë Żak", 120, "💙 Zoë Ż."),
        ("Zoë Żak 💙", 80, "Zoë Ż."),
    ],
)
def test_a_long_name_keeps_its_first_word_and_an_initial(name: str, room: int, expected: str) -> None:
    assert fit_name(name, FACE, room, "Player 1") == expected
    assert width(expected, FACE) <= room


def test_only_a_first_word_too_long_alone_is_cut() -> None:
    cut = fit_name("Brzęczyszczykiewicz Kowalski", FACE, 100, "Player 1")
    assert cut.endswith("…") and "Brzęczyszczykiewicz".startswith(cut[:-1]) and width(cut, FACE) <= 100


def test_a_name_nothing_can_draw_is_the_fallback_everywhere() -> None:
    assert shown("王", "Player 3") == "Player 3"
    assert fit_name("王", FACE, 200, "Player 3") == "Player 3"
    assert shown("💙", "Player 3") == "💙"


def test_shortened_forms_longest_first() -> None:
    assert shortened("Anna Maria Nowak") == ["Anna N.", "Anna"]
    assert shortened("Anna") == []
    assert shortened("Anna 💙") == ["Anna"]


def shows(text: str, name: str) -> bool:
    """Whether ``text`` is a way the pictures may show ``name``: whole, a short form, or its first word cut."""
    whole = printable(name)
    first = (shortened(whole) or [whole])[-1]
    cut = text.endswith(ELLIPSIS) and len(text) > 1 and first.startswith(text[:-1])
    return text == whole or text in shortened(whole) or cut


def test_shows_knows_every_form_and_nothing_else() -> None:
    assert all(shows(t, "Anna Maria Nowak") for t in ("Anna Maria Nowak", "Anna N.", "Anna", "An…"))
    assert not any(shows(t, "Anna Maria Nowak") for t in ("Anna Maria…", "Anna M.", "Nowak", ""))


def test_the_profile_card_and_leaderboard_draw_names_with_their_emoji() -> None:
    import io

    from render.stats import MARGIN, Standing, leaderboard_png, profile_png

    profile = Image.open(io.BytesIO(profile_png("Zoë 💙", [], [], {}, "en")))
    assert _colourful(profile, (MARGIN, MARGIN, 400, MARGIN + 40)) > 60
    row = Standing(1, "💙 Ala", 25, 2, 19, 10, 6)
    board = Image.open(io.BytesIO(leaderboard_png("Leaderboard", "here", [row], "en")))
    assert _colourful(board, (MARGIN + 60, 140, 400, 200)) > 60
