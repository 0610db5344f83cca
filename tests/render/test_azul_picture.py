"""Golden pictures of the Azul table (see ``tests/render/goldens.py`` for how they are compared and updated)."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

import render
from render.azul import read_events
from tests.render.azul_tables import NAMES, TABLES
from tests.render.goldens import check_golden, differs


@pytest.mark.parametrize("name", sorted(TABLES))
def test_golden_picture(name: str) -> None:
    state, events = TABLES[name]()
    players = state.players
    check_golden(f"azul-{name}", render.render_png(state, names=NAMES[:players], events=events, locale="en"))


def test_same_input_gives_the_same_bytes() -> None:
    state, events = TABLES["mid-round-4p"]()
    first = render.render_png(state, names=NAMES, events=events)
    assert render.render_png(state, names=NAMES, events=events) == first


def test_four_players_stay_small_and_wide_enough_for_phones() -> None:
    state, events = TABLES["mid-round-4p"]()
    png = render.render_png(state, names=NAMES, events=events)
    image = Image.open(io.BytesIO(png))
    assert len(png) < 400 * 1024
    # Shown 400 px wide on a phone, a tile (38 px here) must stay at least 15 px.
    assert 38 * 400 / image.width >= 15
    assert image.height < 1.2 * image.width  # roughly square: Discord shrinks tall pictures


def test_comparison_catches_a_changed_picture() -> None:
    state, _ = TABLES["start-2p"]()
    clean = render.render_table(state, names=NAMES[:2])
    state.boards[0].score = 88
    assert differs(render.render_table(state, names=NAMES[:2]), clean)


def test_missing_names_fall_back_to_seat_labels() -> None:
    state, _ = TABLES["start-2p"]()
    with_labels = render.render_table(state, names=["Player 1", "Player 2"])
    assert not differs(render.render_table(state, names=[]), with_labels)
    assert not differs(render.render_table(state, names=["王王", "\u200d"]), with_labels)


def test_other_locales_change_the_words_only() -> None:
    state, events = TABLES["mid-round-4p"]()
    english = render.render_table(state, names=NAMES, events=events, locale="en")
    polish = render.render_table(state, names=NAMES, events=events, locale="pl")
    assert english.size == polish.size
    assert differs(english, polish)


def test_events_after_a_round_keep_only_wall_points_and_penalties() -> None:
    _, events = TABLES["after-scoring-3p"]()
    last = read_events(events)
    assert last.seat is None and not last.from_centre and last.source is None
    assert last.wall_points[(0, 1, 2)] == 4 and last.wall_points[(2, 3, 2)] == 4
    assert last.floor_points == {0: -2, 1: -3}


def test_a_take_is_read_with_lines_from_one_and_factories_from_zero() -> None:
    _, events = TABLES["mid-round-4p"]()
    last = read_events(events)
    assert (last.seat, last.source, last.line, last.line_added) == (1, 3, 4, 2)
    assert not last.from_centre and last.floor_added == {1: 0}


def test_a_shared_first_place_names_both_winners() -> None:
    state, _ = TABLES["game-over-4p"]()
    assert render.engine.standings(state)[0] == [1, 2]  # same score and same number of complete rows


def test_pictures_drawn_in_parallel_threads_are_identical() -> None:
    state, events = TABLES["mid-round-4p"]()
    expected = render.render_png(state, names=NAMES, events=events)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render.render_png(state, names=NAMES, events=events), range(8)))
    assert all(png == expected for png in results)
