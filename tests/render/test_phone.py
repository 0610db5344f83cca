"""Pictures read on a phone: every name stays readable however many notes its seat carries, and no text leaves the
box it belongs to. The renderer records each text it draws (its box and size) so these tests read them back."""

from __future__ import annotations

from typing import Any

import pytest

import engine
import render
from engine.queens_garden import CELLS
from render import azul, phone, queens_garden, summer_pavilion
from render import common as c
from render.names import shortened
from render.text import printable
from tests.render.test_names import shows
from tests.render.test_table_features import history

LONG_NAMES = {
    "pl": (
        "Bartłomiej Grzegorzewski-Wąsowicz",
        "Małgorzata Szczepańska-Żółkiewska",
        "Przemysław Chrząszczewski",
        "Katarzyna Brzęczyszczykiewicz 🎲",
    ),
    "uk": (
        "Олександра Коваленко-Шевченко",
        "Святослав Володимирович Ярошенко",
        "Ярослава Григоренко-Підгайна",
        "Костянтин Вишневецький 💙",
    ),
}
EVERY_NOTE = {
    "pl": c.SeatInfo(
        robot="trudny",
        robot_short="3",
        away="nieobecność do 2026-12-03",
        away_short="3.12",
        clock="zostało 23 h",
        clock_short="23 h",
        urgent=True,
    ),
    "uk": c.SeatInfo(
        robot="складний",
        robot_short="3",
        away="відсутність до 2026-12-03",
        away_short="3.12",
        clock="лишилося 23 год",
        clock_short="23 год",
    ),
}
GAMES = ("azul", "summer-pavilion", "queens-garden")


def _moments(variant: str) -> list[tuple[Any, list[engine.Event]]]:
    """A 4-player table early, midway and at the end (winner and standings notes, passed players...)."""
    states = history(variant, 4, 5)
    return [states[1], states[len(states) // 2], states[-1]]


def _drawn(state: Any, events: list[engine.Event], locale: str) -> tuple[list[c.DrawnText], tuple[int, int]]:
    names = LONG_NAMES[locale]
    with c.recording() as drawn:
        image = render.render_table(state, names=names, events=events, locale=locale, info=[EVERY_NOTE[locale]] * 4)
    return drawn, image.size


@pytest.mark.parametrize("locale", sorted(LONG_NAMES))
@pytest.mark.parametrize("variant", GAMES)
def test_every_name_stays_readable_with_every_note_at_once(variant: str, locale: str) -> None:
    for state, events in _moments(variant):
        drawn, _size = _drawn(state, events, locale)
        headers: dict[c.Box, list[c.DrawnText]] = {}
        for text in drawn:
            if text.inside is not None:
                headers.setdefault(text.inside, []).append(text)
        assert len(headers) == 4, f"{variant}: {len(headers)} headers drawn"
        for name in LONG_NAMES[locale]:
            whole = printable(name)
            shown = [t.text for texts in headers.values() for t in texts if shows(t.text, name)]
            assert shown, f"{variant} {locale}: {whole!r} is not drawn"
            kept = max(shown, key=len)  # whole, or first word and initial: never cut mid-word
            assert kept in {whole, *shortened(whole)[:2]}, f"{variant} {locale}: {whole!r} drawn as {kept!r}"
        for box, texts in headers.items():  # the name keeps its share of the header
            drawn_name = next(t for t in texts if any(shows(t.text, n) for n in LONG_NAMES[locale]))
            others = [t for t in texts if t is not drawn_name]
            room = min((t.box[0] for t in others), default=box[2]) - box[0]
            assert room >= c.NAME_SHARE * (box[2] - box[0]) - 1, f"{variant}: the notes leave the name {room} px"


@pytest.mark.parametrize("locale", sorted(LONG_NAMES))
@pytest.mark.parametrize("variant", GAMES)
def test_no_text_leaves_its_box(variant: str, locale: str) -> None:
    for state, events in _moments(variant):
        drawn, (w, h) = _drawn(state, events, locale)
        assert drawn
        for text in drawn:
            x0, y0, x1, y1 = text.box
            assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, f"{variant}: {text.text!r} at {text.box} is cut off"
            if text.inside is not None:
                left, _top, right, _bottom = text.inside
                assert left <= x0 and x1 <= right, (
                    f"{variant}: {text.text!r} {text.box} leaves its header {text.inside}"
                )


def test_notes_shrink_to_short_forms_then_icons_before_the_name_gives_way() -> None:
    """One step at a time, the last note first: the first notes (the points just won) keep their words longest."""
    face = c.font(16, bold=True)
    notes = c.seat_pills(EVERY_NOTE["pl"])
    full = sum(c.pill_width(n, face) + c.PILL_GAP for n in notes)
    assert c.fitting_notes(notes, full, face) == notes
    last_first = c.fitting_notes(notes, full - 1, face)  # the last note gives up its words first
    assert [n.text for n in last_first] == ["trudny", "nieobecność do 2026-12-03", "23 h"]
    short = [n.forms()[1] for n in notes]
    assert c.fitting_notes(notes, sum(c.pill_width(n, face) + c.PILL_GAP for n in short), face) == short
    icons = c.fitting_notes(notes, sum(c.pill_width(n, face) + c.PILL_GAP for n in short) - 1, face)
    assert [n.text for n in icons] == ["3", "3.12", ""]
    bare = [n.forms()[-1] for n in notes]
    icons = c.fitting_notes(notes, sum(c.pill_width(n, face) + c.PILL_GAP for n in bare), face)
    assert [n.text for n in icons] == ["", "", ""] and [n.icon for n in icons] == ["robot", "moon", "clock"]
    assert c.fitting_notes(notes, 10, face) == []


# Queen's Garden's free cells show their codes while their player may place a tile, to be typed: a known exception
# (at 16 px they are 9.8 px on a phone; larger ones would not fit a cell).
CELL_CODES = frozenset(CELLS)
PHONE = 400  # pixels: how wide a phone shows a picture
MIN_DIGITS = 11  # pixels: the smallest number a player reads there without zooming


def _forget_cached_layers() -> None:
    """Drop every cached layer, so texts drawn into them (wall numbers, costs, penalties) are drawn and recorded."""
    for module in (azul, summer_pavilion, queens_garden, c):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and value is not c.digit_height:
                value.cache_clear()


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variant", [*GAMES, "azul-grey", "summer-pavilion-mono", "queens-garden-variant"])
def test_the_personal_view_is_readable_on_a_phone(variant: str, players: int) -> None:
    states = history(variant, players, 5)
    for state, events in (states[1], states[len(states) // 2], states[-1]):
        for seat in (0, players - 1):
            _forget_cached_layers()
            with c.recording() as drawn:
                image = render.render_closeup_image(
                    state, seat, names=LONG_NAMES["uk"], events=events, locale="uk", info=[EVERY_NOTE["uk"]] * players
                )
            whole = render.render_table(state, names=LONG_NAMES["uk"], events=events, locale="uk")
            assert image.width * 1.8 < whole.width, "a phone shows the personal view about twice as large"
            scale = PHONE / image.width
            small = {
                t.text: round(c.digit_height(t.size, bold=True) * scale, 1)
                for t in drawn
                if any(ch.isdigit() for ch in t.text)
                and c.digit_height(t.size, bold=True) * scale < MIN_DIGITS
                and t.text not in CELL_CODES
            }
            for text in drawn:
                x0, y0, x1, y1 = text.box
                assert x0 >= 0 and y0 >= 0 and x1 <= image.width and y1 <= image.height, f"{text.text!r} is cut off"
            assert not small, f"{variant}: numbers under {MIN_DIGITS} px at {PHONE} px wide: {small}"
            names = [t.text for t in drawn]
            for other in range(players):  # every opponent has a row with name and score
                assert any(shows(n, LONG_NAMES["uk"][other]) for n in names)


@pytest.mark.parametrize("variant", GAMES)
def test_the_final_standings_keep_a_ukrainian_name_legible_in_a_narrow_table(variant: str) -> None:
    # One board wide (two players), Ukrainian heads are long: they shrink and take their short forms before a
    # ten-letter name gives way, and a name is never drawn smaller than a phone can read.
    state, events = history(variant, 2, 5)[-1]
    names = ["Олександра", "Ярослава"]
    image, reading = phone.read(lambda: render.render_post(state, names=names, events=events, locale="uk"))
    assert image.width < 700, "one board wide"
    assert reading.name[0] >= phone.MIN_NAME, reading
    with c.recording() as drawn:
        render.render_table(state, names=names, events=events, locale="uk")
    for name in names:
        shown = [text.text.rstrip("…") for text in drawn if text.name and name.startswith(text.text[:3])]
        assert len(shown) == 2 and max(map(len, shown)) == len(name), f"{name} on its board and in the standings"
        assert min(map(len, shown)) >= 6, f"{name} keeps its first letters in the standings: {shown}"
