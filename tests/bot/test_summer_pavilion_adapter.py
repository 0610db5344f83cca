"""The Summer Pavilion adapter: every token of every legal move labelled in words in every language, events told in
one line, rules and names present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.games.summer_pavilion as module
import engine
from bot.games import adapter_of
from data.i18n import catalogue
from engine.agents import GreedyAgent
from engine.core import Rng

ADAPTER = module.ADAPTER
LANGS = ("en", "pl", "uk")


def test_registered_for_both_sides() -> None:
    assert adapter_of("summer-pavilion") is ADAPTER
    assert adapter_of("summer-pavilion-mono") is ADAPTER
    assert set(ADAPTER.commands) == {"take", "place", "bonus", "pass"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_the_adapter_uses_exists(lang: str) -> None:
    source = Path(module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(bot\.(?:sp|event\.sp)\.[a-z_.]+)"', source))
    keys |= {f"bot.sp.color.{color}" for color in engine.summer_pavilion.COLORS}
    keys |= {
        f"bot.{kind}.{variant}"
        for kind in ("variant", "rules")
        for variant in ("summer-pavilion", "summer-pavilion-mono")
    }
    missing = sorted(key for key in keys if key not in catalogue(lang))
    assert not missing
    for variant in ("summer-pavilion", "summer-pavilion-mono"):
        assert len(catalogue(lang)[f"bot.rules.{variant}"]) < 2000


@pytest.mark.parametrize("variant", ["summer-pavilion", "summer-pavilion-mono"])
def test_every_legal_token_has_a_label_in_every_language(variant: str) -> None:
    state = engine.new_game(variant, 3, 8)
    agent, rng = GreedyAgent(8), Rng(8)
    checked = 0
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        legal = engine.legal_moves(state, seat)
        if rng.below(3) == 0:
            for move in legal[:40]:
                chosen: dict[str, str] = {}
                for option, token in move.choices():
                    for lang in LANGS:
                        label = ADAPTER.label(state, seat, option, token, chosen=chosen, locale=lang)
                        assert label and len(label) <= 100, (option, token, label)
                    chosen[option] = token
                checked += 1
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        for lang in LANGS:
            said = ADAPTER.describe(events, ["Ala", "Bob", "Cyd"], lang)
            assert "{" not in said
    assert checked > 100


def test_labels_say_cost_points_and_bonus() -> None:
    variant = engine.get_variant("summer-pavilion")
    state = variant.new_game(2, 1)
    for factory in state.factories:
        for c in range(6):
            state.bag[c] += factory[c]
            factory[c] = 0
    board = state.boards[0]
    red = engine.summer_pavilion.FRONT_STAR_COLORS.index(5)
    board.stars[red][4] = 5  # red 5 covered: red 6 completes the window
    board.hand = [2, 0, 0, 0, 0, 6]  # 2 purple (wild in round 1), 6 red
    state.phase = "play"
    assert ADAPTER.label(state, 0, "star", "red", chosen={}, locale="en") == "red star (1/6 covered)"
    space = ADAPTER.label(state, 0, "space", "6", chosen={"star": "red"}, locale="en")
    assert space == "Space 6 · cost 6 · +2 pts · bonus: pick 3 tiles"
    wilds = ADAPTER.label(state, 0, "wilds", "2", chosen={"star": "red", "space": "6"}, locale="en")
    assert wilds == "2 wild tiles — pay 2× purple, 4× red"
    keep = ADAPTER.label(state, 0, "keep", "2p2r", chosen={}, locale="en")
    assert keep == "Discard 4 tiles (−4), keep 2× purple, 2× red"
    assert ADAPTER.label(state, 0, "source", "centre", chosen={}, locale="en").startswith("Centre — nothing")


def test_a_placement_is_told_in_words() -> None:
    event = engine.Event("place", 1, {"star": 2, "star_token": "blue", "space": 5, "color": 4, "points": 3, "wilds": 2})
    assert ADAPTER.describe([event], ["Ala", "Bob"], "en") == (
        "Bob placed blue on space 6 of the blue star (+3) using 2 wild tiles"
    )
    passed = engine.Event("pass", 0, {"kept": [0, 4, 0, 0, 0, 0], "discarded": [0, 0, 0, 0, 0, 2], "penalty": 2})
    assert ADAPTER.describe([passed], ["Ala"], "en") == "Ala passed, keeping 4× green, discarding 2 tiles (−2)"
