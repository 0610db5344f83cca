"""Every confirm states the exact cost the move then charges: the engine's own scoring (the move applied to a copy),
never a rule re-derived in words: Summer Pavilion's score never under 1, Queen's Garden's first pass, Azul's floor."""

from __future__ import annotations

import re
from typing import Any

import engine
from bot.games.azul import ADAPTER as AZUL
from bot.games.queens_garden import ADAPTER as QG
from bot.games.summer_pavilion import ADAPTER as SP
from engine.summer_pavilion import multiset_token
from tests.bot.table import Table
from tests.bot.test_confirm_words import confirm_step
from tests.engine.queens_garden_helpers import check, fresh, give


def sp_passing(score: int, hand: list[int]) -> Any:
    """A Summer Pavilion game where seat 0 must pass holding ``hand`` with ``score`` points."""
    state = engine.new_game("summer-pavilion", 2, seed=1)
    for factory in state.factories:
        for color in range(6):
            state.bag[color] += factory[color]
            factory[color] = 0
    state.phase = "play"
    board = state.boards[0]
    board.hand, board.score = hand, score
    return state


def test_summer_pavilion_pass_says_what_the_floor_of_1_leaves() -> None:
    state = sp_passing(4, [0, 0, 0, 0, 0, 10])  # 10 red, nothing placeable: 10 discarded, but 4 → 1 costs 3
    keep = multiset_token([0] * 6)
    said = SP.confirm(state, 0, "pass", {"keep": keep}, "en")
    assert said == "Pass, discarding 10 tiles (−3)?", said
    _, events = engine.variant_of(state).apply(
        state, 0, engine.variant_of(state).move_from_choices("pass", {"keep": keep})
    )
    assert next(e for e in events if e.kind == "pass").data["penalty"] == 3, "the engine charges what the confirm said"
    label = SP.label(state, 0, "keep", multiset_token([0, 0, 0, 0, 0, 2]), chosen={}, locale="en")
    assert label.startswith("Discard 8 tiles (−3)"), label
    assert "(−3)" in SP.label(state, 0, "keep", keep, chosen={}, locale="pl")


def test_summer_pavilion_take_from_the_centre_names_the_marker_and_its_cost() -> None:
    state = engine.new_game("summer-pavilion", 2, seed=1)
    variant = engine.variant_of(state)
    first = next(m for m in variant.legal_moves(state, 0) if dict(m.choices())["source"] != "centre")
    state, _ = variant.apply(state, 0, first)
    take = next(m for m in variant.legal_moves(state, 1) if dict(m.choices())["source"] == "centre")
    _, events = variant.apply(state, 1, take)
    charged = next(e for e in events if e.kind == "start_tile").data["penalty"]
    said = SP.confirm(state, 1, "take", dict(take.choices()), "en")
    assert "with the first-player marker" in said, said
    assert said.endswith(f", losing {charged} point{'s' if charged != 1 else ''}?"), said


def test_queens_garden_pass_counts_the_first_pass_penalty() -> None:
    state = engine.new_game("queens-garden", 2, seed=1)
    said = QG.confirm(state, 0, "pass", {"discard": "-"}, "en")
    assert said == "Pass without discarding, taking the first-player marker, losing 1 point?", said
    assert QG.label(state, 0, "discard", "-", chosen={}, locale="en") == "−1 · discard nothing"


def test_azul_floor_cost_is_the_printed_penalty_of_the_spaces_filled() -> None:
    state = engine.new_game("azul", 2, seed=3)
    tiles = state.factories[0]
    color = next(i for i, n in enumerate(tiles) if n)
    chosen = {"source": "1", "color": engine.azul.COLORS[color], "line": "floor"}
    expected = -engine.azul.floor_penalty(tiles[color])
    said = AZUL.confirm(state, 0, "take", chosen, "en")
    assert said.endswith(f"costs {expected} point{'s' if expected != 1 else ''} at the round's end?"), said


async def test_through_the_bot_the_confirmed_cost_is_what_the_move_charges(simcord_env: Any) -> None:
    """Queen's Garden's first pass through the Play button: the question's cost is the score the move then takes."""
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    move = next(m for m in engine.legal_moves(state, seat) if m.command == "pass")
    before = engine.variant_of(state).scores(state)[seat]
    step = await confirm_step(table, table.member(game, seat), move)
    assert step is not None
    said = step.response.content
    cost = re.search(r"losing (\d+) point", said)
    assert cost and "first-player marker" in said, said
    await table.member(game, seat).click(
        step.response, custom_id=step.response.components[0]["components"][0]["custom_id"]
    )
    _, after = await table.state()
    assert before - engine.variant_of(after).scores(after)[seat] == int(cost[1])


def test_long_labels_keep_their_penalty_within_discords_100_characters() -> None:
    """A discard of many hexagons named in words runs past 100 characters: the cut keeps the token people type
    and the penalty, which come first."""
    state = fresh()
    give(state, 0, "bl2", "lg2", "lg4", "lg5", "dg5", "dp6", "ye6", "lp3", "dg1")
    state = check(state)
    token = "bl2+dg1+dg5+dp6+lg2+lg4+lg5+lp3+ye6"
    words = {lang: QG.label(state, 0, "discard", token, chosen={}, locale=lang) for lang in ("en", "pl", "uk")}
    cost = QG.cost(state, 0, "pass", {"discard": token})
    assert cost == 15  # 35 points of hexagons and the first pass's 1, but the score (15) never goes under 0
    for lang, label in words.items():
        assert len(label) <= 100 and label.startswith(f"{token} — −{cost} · "), (lang, label)
    big = sp_passing(30, [4, 4, 4, 4, 4, 4])
    keep = multiset_token([1, 1, 1, 1, 0, 0])
    for lang in ("en", "pl", "uk"):
        label = SP.label(big, 0, "keep", keep, chosen={}, locale=lang)
        assert len(label) <= 100 and "(−20)" in label[:40], (lang, label)
