"""One layout language: the standings, the winner and the centre sit the same way in every game and at every
player count. The renderer records its texts and layout regions; these tests compare their places across games."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import engine
import render
from data.i18n import t
from render import common as c
from tests.render.test_table_features import history

GAMES = ("azul", "summer-pavilion", "queens-garden")
NAMES = ("Zoë", "Bob", "Ann", "Kuba")


@cache
def _final(variant: str, players: int) -> tuple[Any, list[c.DrawnText], dict[str, list[c.Box]], int]:
    """The last picture of a seeded game: its texts, regions and width."""
    state, events = history(variant, players, 9)[-1]
    with c.recording() as drawn, c.regions() as regions:
        image = render.render_table(state, names=NAMES[:players], events=events, locale="en")
    return state, drawn, regions, image.width


def _inside(box: c.Box, region: c.Box) -> bool:
    return region[0] <= box[0] and box[2] <= region[2] and region[1] <= box[1] and box[3] <= region[3]


def _standings_layout(variant: str, players: int) -> dict[str, tuple[int, ...]]:
    """Where the standings' parts sit, relative to the standings panel: the first place, the score's head, the
    first score, the winner's label; and the panel's distance from the picture's right edge."""
    state, drawn, regions, width = _final(variant, players)
    (panel,) = regions["standings"]
    inside = [text for text in drawn if _inside(text.box, panel)]
    score_head = next(x for x in inside if x.text == t("picture.head.score", "en"))
    place = next(x for x in inside if x.text == "1.")
    first_row = [x for x in inside if abs((x.box[1] + x.box[3]) / 2 - (place.box[1] + place.box[3]) / 2) < 4]
    score = max(first_row, key=lambda x: x.box[2])
    winner = engine.standings(state)[0][0]
    name = next(x for x in first_row if x.text == NAMES[winner])
    badge = [x for x in first_row if x.text == t("picture.winner", "en")]
    return {
        "panel right margin": (width - panel[2],),
        "place": (place.box[0] - panel[0], place.box[1] - panel[1], place.size),
        "score head": (panel[2] - score_head.box[2], score_head.box[3] - panel[1]),  # long heads may be smaller
        "first score": (panel[2] - score.box[2], score.box[1] - panel[1], score.size),
        "winner": (badge[0].box[0] - panel[0], name.size) if badge else (name.box[0] - panel[0], name.size),
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standings_sit_the_same_way_in_every_game(players: int) -> None:
    layouts = {variant: _standings_layout(variant, players) for variant in GAMES}
    for part in layouts["azul"]:
        places = {variant: layout[part] for variant, layout in layouts.items()}
        assert len(set(places.values())) == 1, (players, part, places)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", GAMES)
def test_the_winner_is_labelled_in_the_standings_and_on_the_board(variant: str, players: int) -> None:
    """The winner's header carries the same "winner" pill in every game, besides the standings' badge or gold."""
    state, drawn, _, _ = _final(variant, players)
    winner = t("picture.winner", "en")
    headers = [x for x in drawn if x.inside is not None]
    labelled = {x.inside for x in headers if x.text == winner}
    winners = engine.standings(state)[0]
    named = {x.inside for x in headers if x.text in {NAMES[seat] for seat in winners}}
    assert labelled and labelled == named


def _centre_layout(variant: str, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The centre's label relative to the centre's panel, and the panel's margins from the picture's sides (or, when
    it sits beside the last board, from the right side only)."""
    state, _events = history(variant, players, 9)[3]
    with c.recording() as drawn, c.regions() as regions:
        image = render.render_table(state, names=NAMES[:players], events=_events, locale="en")
    (panel,) = regions["centre"]
    label = next(x for x in drawn if x.text.strip() == t("picture.centre", "en") and _inside(x.box, panel))
    margins = (image.width - panel[2],) if players == 3 else (panel[0], image.width - panel[2])
    return (label.box[0] - panel[0], label.box[1] - panel[1], label.size), margins


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_centre_sits_the_same_way_in_every_game_that_has_one(players: int) -> None:
    """Azul and Summer Pavilion draw their centre alike (Queen's Garden has none: its display is the shared area)."""
    assert _centre_layout("azul", players) == _centre_layout("summer-pavilion", players)
