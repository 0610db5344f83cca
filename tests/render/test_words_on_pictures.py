"""Words on the pictures: every number says what it counts, and nothing a player reads is a code or jargon. The
renderer records each text it draws, so these tests read back what a player would read."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

import engine
import render
from data.i18n import t
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
    "round +12" (Azul's tiling), never a bare "+3" while there is room for the word."""
    words = {t("picture.move_points", locale, points="").strip(), t("picture.round_points", locale, points="").strip()}
    labelled, bare = 0, []
    for _, _, drawn in _drawn(variant, locale):
        for text in drawn:
            if text.inside is None:
                continue
            if SIGNED.match(text.text):
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
