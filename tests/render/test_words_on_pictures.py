"""Words on the pictures: every number says what it counts, and nothing a player reads is a code or jargon. The
renderer records each text it draws, so these tests read back what a player would read."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

import engine
import render
from data.i18n import catalogue, t
from engine.queens_garden import CELLS, ORNAMENTS
from render import common as c
from tests.render.test_table_features import history

GAMES = ("azul", "summer-pavilion", "queens-garden")
SIGNED = re.compile(r"^[+−]\d+$")  # a bare "+3" or "−2"


@cache
def _drawn(variant: str, locale: str) -> list[tuple[Any, list[engine.Event], list[c.DrawnText]]]:
    """Every state of a seeded 2-player game, drawn, with the texts each picture drew."""
    result = []
    for state, events in history(variant, 2, 7):
        with c.recording() as drawn:
            render.render_table(state, names=("Zoë", "Bob"), events=events, locale=locale)
        result.append((state, events, drawn))
    return result


@pytest.mark.parametrize("locale", ["en", "uk"])
@pytest.mark.parametrize("variant", GAMES)
def test_points_in_a_header_say_what_they_are_for(variant: str, locale: str) -> None:
    """A player's header shows the points just won or lost as "move +3" (Summer Pavilion, Queen's Garden) or
    "round +12" (Azul's tiling); a bare "+3", where the name needs the room, is said in full in the legend."""
    words = {t("picture.move_points", locale, points="").strip(), t("picture.round_points", locale, points="").strip()}
    labelled, bare = 0, []
    for _, _, drawn in _drawn(variant, locale):
        legend = {text.text for text in drawn if text.inside is None}
        for text in drawn:
            if text.inside is None:
                continue
            if SIGNED.match(text.text) and not any(f"{word} {text.text}" in legend for word in words):
                bare.append(text.text)
            elif any(text.text.startswith(word + " ") and SIGNED.match(text.text.split()[-1]) for word in words):
                labelled += 1
    assert labelled > 0
    assert not bare, bare


@pytest.mark.parametrize("locale", ["en", "pl", "uk"])
def test_azul_floor_total_says_floor(locale: str) -> None:
    """The floor's cost beside the floor, while the round is played and when it is paid, reads "floor −3" (a
    two-digit cost may lose the word where it does not fit beside the floor)."""
    floor = t("picture.floor_total", locale, points="").strip()
    seen = 0
    for _, events, drawn in _drawn("azul", locale):
        paid = [e for e in events if e.kind == "floor_penalty" and -10 < int(e.data.get("applied", 0)) < 0]
        labelled = [text.text for text in drawn if text.text.startswith(floor + " ")]
        assert len(labelled) >= len(paid)
        seen += len(labelled)
    assert seen > 0


# What a picture may draw besides phrases and names: numbers ("12", "+3", "−2", "×4", "1." for a place), and the
# names the posts and the moves use for Queen's Garden's places (cells while a tile may be placed, areas, ornaments,
# display expansions "d1" and the stack "s", a joker's "J").
NUMBER = re.compile(r"^([+−]?\d+|×\d+|\d+\.)$")
PLACE_NAMES = frozenset(CELLS) | {o.name for o in ORNAMENTS} | {f"A{n}" for n in range(1, 7)} | {"J"}
DISPLAY = re.compile(r"^d\d+$")
JARGON = re.compile(r"[=⬡@]|\b\d+s\b|\d+\s*·\s*[+−]")  # formulas, symbols, "1s–4s", "2 · +8"


@cache
def _phrases(locale: str) -> re.Pattern[str]:
    """Every ``picture.*`` phrase of ``locale`` as a pattern, its parameters matching anything."""
    templates: list[str] = []
    for key, entry in catalogue(locale).items():
        if key.startswith("picture."):
            templates += list(entry.values()) if isinstance(entry, dict) else [entry]
    patterns = [".+?".join(re.escape(part) for part in re.split(r"\{[^}]*\}", text)) for text in templates]
    return re.compile("|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True)))


def _readable(text: str, locale: str, names: tuple[str, ...]) -> bool:
    """Whether ``text`` is made of phrases, names and numbers only (parts joined by " · " or spaces)."""
    if _phrases(locale).fullmatch(text.strip()):
        return True
    parts = [part.strip() for part in re.split(r" · |   ", text) if part.strip()]
    return all(
        part in names
        or NUMBER.match(part)
        or part in PLACE_NAMES
        or DISPLAY.match(part)
        or _phrases(locale).fullmatch(part) is not None
        for part in parts
    )


@pytest.mark.parametrize("locale", ["en", "pl", "uk"])
def test_no_picture_text_is_a_code_or_jargon(locale: str) -> None:
    """Every text any picture draws (every game and variant, 2 and 4 players, start to end, tables and personal
    views) is a phrase of the picture's language, a name or a number: no formula, no symbol to decode."""
    names = ("Zoë", "Bob", "Ann", "Kuba")
    odd: set[str] = set()
    for variant in engine.variant_names():
        for players in (2, 4):
            states = history(variant, players, 7)
            for state, events in [*states[:: max(1, len(states) // 6)], states[-1]]:
                with c.recording() as drawn:
                    render.render_table(state, names=names[:players], events=events, locale=locale)
                    if players > 2:
                        render.render_closeup_image(state, 0, names=names[:players], events=events, locale=locale)
                odd |= {x.text for x in drawn if JARGON.search(x.text) or not _readable(x.text, locale, names)}
    assert not odd, sorted(odd)


def test_the_jargon_check_finds_formulas_and_codes() -> None:
    assert JARGON.search("Scores: ⬡ = value") and JARGON.search("1s–4s") and JARGON.search("2 · +8")
    assert not _readable("ye3@d1", "en", ())
    assert _readable("Bag 12   Lid 3", "en", ()) and _readable("Zoë", "en", ("Zoë",))
