"""Golden pictures of the Queen's Garden table (compared and updated as ``tests/render/goldens.py`` says)."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from PIL import Image

import engine
import render
from engine.core import Rng
from render.queens_garden import HEX, read_events
from tests.render.goldens import check_golden, differs

NAMES = ["Ala", "Bartłomiej z Gdańska 🌷", "Ciocia", "Dmytro"]


def played(name: str, players: int, seed: int, moves: int) -> tuple[Any, list[engine.Event]]:
    """A game after ``moves`` moves picked by a seeded chooser that prefers acting to passing."""
    variant = engine.get_variant(name)
    state = variant.new_game(players, seed)
    rng = Rng(seed)
    events: list[engine.Event] = []
    for _ in range(moves):
        if variant.is_over(state):
            break
        seat = min(variant.to_act(state))
        legal = variant.legal_moves(state, seat)
        placing = [m for m in legal if m.command in ("tile", "expansion") and "supply" not in str(m)]
        acting = [m for m in legal if m.command != "pass"]
        pool = placing or (acting if rng.below(8) else legal) or legal
        state, events = variant.apply(state, seat, pool[rng.below(len(pool))])
    return state, events


TABLES = {
    "start-2p": lambda: played("queens-garden", 2, 1, 0),
    "mid-round-3p": lambda: played("queens-garden-variant", 3, 4, 9),
    "late-4p": lambda: played("queens-garden", 4, 2, 120),
    "game-over-2p": lambda: played("queens-garden", 2, 5, 10_000),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_golden_picture(name: str) -> None:
    state, events = TABLES[name]()
    check_golden(f"queens_garden-{name}", render.render_png(state, names=NAMES, events=events, locale="en"))


def test_game_over_picture_shows_the_final_breakdown() -> None:
    state, _ = TABLES["game-over-2p"]()
    assert engine.is_over(state) and state.final
    with_final = render.render_table(state, names=NAMES)
    state.final = [{"storage": 0, "groups": [], "total": p.score} for p in state.players]
    assert differs(render.render_table(state, names=NAMES), with_final)


def test_four_players_stay_small_for_phones() -> None:
    state, events = TABLES["late-4p"]()
    png = render.render_png(state, names=NAMES, events=events)
    image = Image.open(io.BytesIO(png))
    assert len(png) < 400 * 1024
    # A phone shows the picture about 400 px wide: a garden hexagon must stay at least 18 px across.
    assert math.sqrt(3) * HEX * 400 / image.width >= 18


def test_last_move_is_read_from_the_events() -> None:
    state = engine.new_game("queens-garden", 2, 1)
    variant = engine.get_variant("queens-garden")
    move = next(m for m in variant.legal_moves(state, 0) if m.command == "acquire")
    _, events = variant.apply(state, 0, move)
    last = read_events(events)
    assert last.seat == 0 and last.storage and last.locations == {"s"}
    move = variant.parse_move("expansion supply - A2 -")
    _, events = variant.apply(state, 0, move)
    last = read_events(events)
    assert "A2-0" in last.cells and last.delta == -6


def test_other_locales_change_the_words_only() -> None:
    state, events = TABLES["mid-round-3p"]()
    english = render.render_table(state, names=NAMES, events=events, locale="en")
    ukrainian = render.render_table(state, names=NAMES, events=events, locale="uk")
    assert english.size == ukrainian.size and differs(english, ukrainian)
