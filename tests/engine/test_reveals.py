"""``engine.reveals``: which moves show the players something hidden (what decides whether a move may be taken back).

Every variant plays seeded games; for every move the answer must agree with the events the move produced (a deal, a
refill from the bag, a face-down expansion turned up), and a move judged to reveal nothing must be the same move in
every world the players cannot tell apart (the bag's order drawn afresh), so taking it back teaches nobody anything.
Each kind of move named in the issue (an ordinary take, the take that ends a round, a grey-wall column, a bonus that
refills the supply, an expansion turned face up without a draw, ...) is checked to occur and to be judged right.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache
from typing import Any

import pytest

import engine
from engine.agents import GreedyAgent, RandomAgent
from engine.core import Rng

REVEALING_EVENTS = {
    "azul": {"round_started"},
    "summer-pavilion": {"round_started", "supply_refilled"},
    "queens-garden": {"round_started", "display_refilled", "expansion_turned"},
}
"""The events that show what was hidden, per game: a new deal, tiles drawn into view, an expansion turned up."""

GAMES_PER_VARIANT = 3


@cache
def played(name: str, seed: int) -> list[tuple[Any, int, engine.Move, Any, list[engine.Event]]]:
    """Every step of one seeded game: (before, seat, move, after, events). Summer Pavilion's odd seeds are played
    greedily: random players almost never complete a structure, so no bonus would refill the supply."""
    variant = engine.get_variant(name)
    state = variant.new_game(variant.min_players + seed % 2, seed)
    agent = GreedyAgent(seed) if seed % 2 and variant.game == "summer-pavilion" else RandomAgent(seed)
    steps = []
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        move = agent.choose(variant, state, seat)
        after, events = variant.apply(state, seat, move)
        steps.append((state, seat, move, after, events))
        state = after
    return steps


def kinds(events: list[engine.Event]) -> set[str]:
    return {event.kind for event in events}


@pytest.mark.parametrize("name", engine.variant_names())
def test_reveals_agrees_with_the_events(name: str) -> None:
    revealing = REVEALING_EVENTS[engine.get_variant(name).game]
    seen = Counter[bool]()
    for seed in range(GAMES_PER_VARIANT):
        for before, seat, move, after, events in played(name, seed):
            expected = bool(kinds(events) & revealing)
            assert engine.reveals(before, after) == expected, (name, seed, seat, str(move), sorted(kinds(events)))
            seen[expected] += 1
    assert seen[True] and seen[False], f"{name}: both kinds of move occur ({dict(seen)})"


@pytest.mark.parametrize("name", [n for n in engine.variant_names() if engine.get_variant(n).game != "queens-garden"])
def test_a_move_that_reveals_nothing_is_the_same_in_every_possible_world(name: str) -> None:
    """Played in a world where the bag's order is different, such a move gives the same table (the generator aside)."""
    variant = engine.get_variant(name)
    rng = Rng(99)
    checked = 0
    for before, seat, move, after, _ in played(name, 1):
        if variant.reveals(before, after):
            continue
        world = variant.redeterminize(before, rng)
        in_world, _ = variant.apply(world, seat, move)
        assert dataclasses.replace(in_world, rng=after.rng) == after, (name, str(move))
        checked += 1
    assert checked > 20


def first(steps: list[Any], wanted: Any) -> tuple[Any, Any]:
    """The (before, after) of the first step that ``wanted(move, events, before, after)`` accepts."""
    for before, _, move, after, events in steps:
        if wanted(move, kinds(events), before, after):
            return before, after
    raise AssertionError("no such move in these games")


def steps_of(name: str) -> list[Any]:
    return [step for seed in range(GAMES_PER_VARIANT) for step in played(name, seed)]


def test_azul_a_take_reveals_nothing_but_the_take_that_ends_a_round_deals() -> None:
    steps = steps_of("azul")
    assert not engine.reveals(*first(steps, lambda m, k, b, a: m.command == "take" and "round_scored" not in k))
    assert engine.reveals(*first(steps, lambda m, k, b, a: "round_started" in k))
    # The game's last take scores the last round and draws nothing: it reveals nothing, and the game is over.
    before, after = first(steps, lambda m, k, b, a: "game_over" in k)
    assert not engine.reveals(before, after) and engine.is_over(after)


def test_azul_grey_wall_a_column_reveals_nothing_until_the_last_one_deals() -> None:
    steps = steps_of("azul-grey")
    assert not engine.reveals(*first(steps, lambda m, k, b, a: m.command == "wall" and "round_scored" not in k))
    assert engine.reveals(*first(steps, lambda m, k, b, a: m.command == "wall" and "round_started" in k))


@pytest.mark.parametrize("name", ["summer-pavilion", "summer-pavilion-mono"])
def test_summer_pavilion_a_placement_reveals_nothing_but_a_refilled_supply_does(name: str) -> None:
    steps = steps_of(name)
    assert not engine.reveals(*first(steps, lambda m, k, b, a: m.command == "place" and "supply_refilled" not in k))
    assert not engine.reveals(*first(steps, lambda m, k, b, a: m.command == "take" and "round_started" not in k))
    assert engine.reveals(*first(steps, lambda m, k, b, a: "supply_refilled" in k))
    assert engine.reveals(*first(steps, lambda m, k, b, a: m.command == "pass" and "round_started" in k))


@pytest.mark.parametrize("name", ["queens-garden", "queens-garden-variant"])
def test_queens_garden_a_turned_expansion_reveals_even_without_a_draw(name: str) -> None:
    steps = steps_of(name)
    assert not engine.reveals(*first(steps, lambda m, k, b, a: m.command == "tile"))
    assert engine.reveals(*first(steps, lambda m, k, b, a: "display_refilled" in k))
    before, after = first(steps, lambda m, k, b, a: "expansion_turned" in k and b.rng == a.rng and b.round == a.round)
    assert engine.reveals(before, after), "only the expansion turned face up shows anything here"


def test_queens_garden_an_expansion_from_the_supply_stays_hidden() -> None:
    """Laying the supply's top expansion face down shows nobody which one it is."""
    variant = engine.get_variant("queens-garden")
    for before, _, move, after, _ in steps_of("queens-garden"):
        if move.command == "expansion" and dict(move.choices())["expansion"] == "supply":
            assert not variant.reveals(before, after)
            return
    # Random play rarely buys from the supply: build the position by hand from a mid-game state.
    mid_game = next(b for b, s, m, a, e in steps_of("queens-garden") if b.round == 2 and b.supply)
    before = variant.from_json(variant.to_json(mid_game))  # a copy: the played games are shared by the tests
    seat = min(variant.to_act(before))
    before.players[seat].score = 50
    move = next(m for m in variant.legal_moves(before, seat) if dict(m.choices()).get("expansion") == "supply")
    after, _ = variant.apply(before, seat, move)
    assert not variant.reveals(before, after)
