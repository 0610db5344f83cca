"""Computer players of every level on every variant: legal to the end, repeatable, stronger than the yardsticks,
never peeking at hidden draws, and able to say why a move is good."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

import engine
from engine.__main__ import play as play_in_terminal
from engine.agents import (
    AGENT_NAMES,
    WALL_CAP,
    Budget,
    HardAgent,
    Reason,
    _Node,
    explain,
    hint,
    make_agent,
)
from engine.core import Rng
from tests.engine import queens_garden_helpers as qg

# Small fixed amounts of work: every move is repeatable and the whole file stays quick.
FAST: dict[str, dict[str, Any]] = {
    "easy": {"consider": 60},
    "medium": {"candidates": 3, "consider": 60, "replies": 20},
    "hard": {"iterations": 5, "consider": 60, "consider_inner": 12, "rollout_plies": 2},
}


def finish(variant_name: str, levels: list[str], seed: int) -> Any:
    """Play a whole game through the checked ``apply`` (an illegal move raises) with one level per seat."""
    variant = engine.get_variant(variant_name)
    state = variant.new_game(len(levels), seed)
    agents = [make_agent(level, seed + seat, **FAST[level]) for seat, level in enumerate(levels)]
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        state, _ = variant.apply(state, seat, agents[seat].choose(variant, state, seat))
    return state


def mid_game(variant_name: str, players: int, seed: int, plies: int) -> Any:
    variant = engine.get_variant(variant_name)
    state = variant.new_game(players, seed)
    agent = make_agent("greedy", seed)
    for _ in range(plies):
        seat = min(variant.to_act(state))
        state = variant.apply_unchecked(state, seat, agent.choose(variant, state, seat))
    return state


@pytest.mark.parametrize("variant_name", engine.variant_names())
def test_every_level_plays_every_variant_to_the_end(variant_name: str) -> None:
    state = finish(variant_name, ["easy", "medium", "hard"], seed=5)
    assert engine.is_over(state)
    assert len(engine.scores(state)) == 3


def test_levels_play_two_player_games_too() -> None:
    state = finish("azul-grey", ["hard", "easy"], seed=2)
    assert engine.is_over(state)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("variant_name", ["azul", "summer-pavilion", "queens-garden"])
def test_the_same_seed_and_iterations_choose_the_same_move(level: str, variant_name: str) -> None:
    state = mid_game(variant_name, 2, seed=3, plies=3)
    variant = engine.get_variant(variant_name)
    seat = min(variant.to_act(state))
    first = make_agent(level, 11, **FAST[level]).choose(variant, state, seat)
    # An agent that has already played elsewhere still picks the same move here: its choice depends on the position.
    used = make_agent(level, 11, **FAST[level])
    used.choose(variant, variant.new_game(2, 9), 0)
    assert used.choose(variant, state, seat) == first
    assert make_agent(level, 11, **FAST[level]).choose(variant, state, seat) == first


def test_different_seeds_may_choose_differently_but_always_legally() -> None:
    state = mid_game("azul", 2, seed=4, plies=2)
    variant = engine.get_variant("azul")
    seat = min(variant.to_act(state))
    legal = set(variant.legal_moves(state, seat))
    assert {make_agent("easy", seed).choose(variant, state, seat) for seed in range(20)} <= legal


def test_easy_never_blunders_against_the_greedy_move() -> None:
    # Easy's slips stay within a few points of the best move now.
    variant = engine.get_variant("azul")
    for seed in range(6):
        state = mid_game("azul", 2, seed=seed, plies=4)
        seat = min(variant.to_act(state))
        best = max(
            variant.heuristic(variant.apply_unchecked(state, seat, m), seat) for m in variant.legal_moves(state, seat)
        )
        chosen = make_agent("easy", seed).choose(variant, state, seat)
        assert variant.heuristic(variant.apply_unchecked(state, seat, chosen), seat) >= best - 4


def hard_share(variant_name: str, opponent: str, index: int) -> float:
    """Hard's share of the win in a 2-player game against ``opponent`` (game ``index`` seats hard at ``index % 2``)."""
    variant = engine.get_variant(variant_name)
    hard_seat = index % 2
    names = ["hard" if seat == hard_seat else opponent for seat in range(2)]
    agents = [make_agent(name, index * 8 + seat, iterations=40) for seat, name in enumerate(names)]
    state = variant.new_game(2, index)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        state = variant.apply_unchecked(state, seat, agents[seat].choose(variant, state, seat))
    winners = variant.standings(state)[0]
    return 1.0 / len(winners) if hard_seat in winners else 0.0


@pytest.mark.slow  # whole games of hard's search
def test_hard_beats_greedy_and_random_in_a_seeded_sample() -> None:
    greedy = [hard_share("azul", "greedy", index) for index in range(3)]
    randoms = [hard_share("summer-pavilion", "random", index) for index in range(1)]
    assert sum(greedy) >= 2
    assert randoms == [1.0]


def test_a_budget_in_iterations_is_exact() -> None:
    agent = HardAgent(1, iterations=17)
    state = engine.new_game("azul", 2, seed=1)
    agent.choose(engine.get_variant("azul"), state, 0)
    assert agent.last_iterations == 17


class Ticks:
    """A clock that moves on by ``step`` every time it is read: a search's time without waiting for it."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_budget_in_seconds_counts_cpu_time_not_wall_time() -> None:
    # The host is busy: for every 0.01 s of CPU the search gets, 0.05 s pass on the wall (under the 10x cap).
    cpu, wall = Ticks(0.01), Ticks(0.05)
    agent = HardAgent(1, seconds=1.0, cpu_clock=cpu, wall_clock=wall, **FAST["hard"] | {"iterations": None})
    agent.choose(engine.get_variant("azul"), engine.new_game("azul", 2, seed=1), 0)
    # One CPU reading before the search and one after each iteration: the search stops at one CPU second.
    assert agent.last_iterations == 100
    assert not agent.last_capped


def test_a_search_starved_of_cpu_plays_its_best_move_at_the_wall_clock_cap() -> None:
    # The host gives the search almost nothing: 0.001 s of CPU per 0.5 s of wall clock.
    cpu, wall = Ticks(0.001), Ticks(0.5)
    variant, state = engine.get_variant("azul"), engine.new_game("azul", 2, seed=1)
    agent = HardAgent(1, seconds=1.0, cpu_clock=cpu, wall_clock=wall, **FAST["hard"] | {"iterations": None})
    move = agent.choose(variant, state, 0)
    assert agent.last_capped
    assert agent.last_iterations == WALL_CAP / 0.5  # ten seconds of wall clock at half a second per iteration
    assert move in variant.legal_moves(state, 0)


def test_a_budget_ends_at_the_cpu_budget_or_the_wall_cap_whichever_comes_first() -> None:
    budget = Budget(2.0, cpu_clock=Ticks(1.0), wall_clock=Ticks(1.0))
    assert not budget.spent()  # 1 s of CPU, 1 s of wall
    assert budget.spent()  # 2 s of CPU
    assert not budget.capped
    starved = Budget(2.0, cpu_clock=Ticks(0.0), wall_clock=Ticks(19.0))
    assert not starved.spent()  # 19 s of wall, under 10 x 2 s
    assert starved.spent()
    assert starved.capped


def test_greedys_move_is_always_among_the_roots_candidates() -> None:
    variant = engine.get_variant("queens-garden")
    state = mid_game("queens-garden", 2, 3, 6)
    seat = min(variant.to_act(state))
    moves = variant.legal_moves(state, seat)
    assert len(moves) > 100
    gains = [variant.heuristic(variant.apply_unchecked(state, seat, move), seat) for move in moves]
    greedy = moves[gains.index(max(gains))]
    agent = HardAgent(seed=0, iterations=1, consider=20)
    root = _Node()
    agent._rank_root(variant, state, seat, root, moves)
    assert len(root.ranked) == 20 and len(set(root.ranked)) == 20
    assert root.ranked[0] == greedy, "the heuristic's best first: greedy's move is always a candidate"


@pytest.mark.parametrize("variant_name", engine.variant_names())
def test_playouts_weigh_every_legal_move_but_queens_gardens_discards(variant_name: str) -> None:
    variant = engine.get_variant(variant_name)
    for plies in (0, 9, 30):
        state = mid_game(variant_name, 2, 5, plies)
        seat = min(variant.to_act(state))
        legal = variant.legal_moves(state, seat)
        playout = variant.playout_moves(state, seat)
        if variant.game != "queens-garden":
            assert playout == legal
            continue
        assert playout == [m for m in legal if m.command != "pass" or m.choices() == (("discard", "-"),)]
        assert [m.command for m in playout].count("pass") == 1


def test_a_full_queens_garden_storage_leaves_the_playouts_one_pass() -> None:
    state = qg.fresh()
    qg.give(state, 0, "bl1", "bl2", "ye1", "ye3", "lg4", "dg5", "lp6", "dp2")
    variant = qg.variant()
    legal, playout = variant.legal_moves(state, 0), variant.playout_moves(state, 0)
    passes = [m for m in legal if m.command == "pass"]
    assert len(passes) == 2**8, "every set of the eight hexagons may be discarded"
    assert playout == [m for m in legal if m.command != "pass"] + [passes[0]]
    assert passes[0].choices() == (("discard", "-"),)


def test_the_search_below_the_root_weighs_the_playout_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = qg.variant()
    state = mid_game("queens-garden", 2, 3, 6)
    asked: list[int] = []

    def playout_moves(state: Any, seat: int) -> list[Any]:
        asked.append(seat)
        return type(variant).playout_moves(variant, state, seat)

    monkeypatch.setattr(variant, "playout_moves", playout_moves)
    HardAgent(seed=0, iterations=30).choose(variant, state, min(variant.to_act(state)))
    assert set(asked) == {0, 1}, "replies below the root and both seats' rollouts"


def test_make_agent_knows_every_level_and_refuses_bad_options() -> None:
    assert AGENT_NAMES == ("random", "greedy", "easy", "medium", "hard")
    for name in AGENT_NAMES:
        assert make_agent(name, 1, iterations=5).name == name
    with pytest.raises(ValueError, match="bad options"):
        make_agent("hard", 1, depth=3)
    with pytest.raises(ValueError, match="at least 1"):
        make_agent("hard", 1, iterations=0)


# --- hidden information -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant_name", engine.variant_names())
def test_redeterminize_keeps_what_players_see(variant_name: str) -> None:
    variant = engine.get_variant(variant_name)
    state = mid_game(variant_name, 3, seed=6, plies=4)
    before = json.dumps(variant.to_json(state), sort_keys=True)
    world = variant.redeterminize(state, Rng(1))
    assert json.dumps(variant.to_json(state), sort_keys=True) == before  # the input is untouched
    seat = min(variant.to_act(state))
    assert variant.legal_moves(world, seat) == variant.legal_moves(state, seat)
    assert variant.to_act(world) == variant.to_act(state)
    assert variant.scores(world) == variant.scores(state)
    assert variant.to_json(world)["rng"] != variant.to_json(state)["rng"]
    variant.from_json(variant.to_json(world))  # still a valid state


def test_queens_garden_worlds_shuffle_the_face_down_expansions_only() -> None:
    variant = engine.get_variant("queens-garden")
    state = mid_game("queens-garden", 2, seed=1, plies=6)
    raw = variant.to_json(state)
    worlds = [variant.to_json(variant.redeterminize(state, Rng(seed))) for seed in range(5)]

    def hidden(data: dict[str, Any]) -> list[int]:
        down = [item["expansion"] for item in data["display"] if not item["face_up"]]
        return sorted(down + data["stack"] + data["supply"] + [e for s in data["future_stacks"] for e in s])

    assert all(hidden(world) == hidden(raw) for world in worlds)
    assert any(world["future_stacks"] != raw["future_stacks"] for world in worlds)
    for world in worlds:
        assert [len(s) for s in world["future_stacks"]] == [len(s) for s in raw["future_stacks"]]
        assert [i for i in world["display"] if i["face_up"]] == [i for i in raw["display"] if i["face_up"]]


# --- hints ------------------------------------------------------------------------------------------------------
def test_explain_names_points_now_and_losses_avoided() -> None:
    variant = engine.get_variant("azul")
    state = variant.new_game(2, 3)
    moves = variant.legal_moves(state, 0)
    gains = [variant.heuristic(variant.apply_unchecked(state, 0, m), 0) for m in moves]
    best, worst = moves[gains.index(max(gains))], moves[gains.index(min(gains))]
    reasons = {reason.key: reason.params for reason in explain(variant, state, 0, best)}
    assert reasons["points_now"] == {"points": max(gains)}
    assert reasons["avoids_loss"]["worst"] == -min(gains)
    assert "gives_up" not in reasons
    bad = {reason.key: reason.params for reason in explain(variant, state, 0, worst)}
    assert bad["points_now"]["points"] == min(gains) < 0
    assert bad["gives_up"]["points"] == max(gains) - min(gains)


@pytest.mark.parametrize("variant_name", engine.variant_names())
def test_hint_gives_the_hard_move_with_json_reasons(variant_name: str) -> None:
    variant = engine.get_variant(variant_name)
    state = mid_game(variant_name, 2, seed=2, plies=2)
    seat = min(variant.to_act(state))
    move, reasons = hint(variant, state, seat, seed=1, iterations=4, rollout_plies=2)
    assert move in variant.legal_moves(state, seat)
    assert reasons[0].key == "points_now" and reasons[-1].key == "win_chance"
    assert all(isinstance(reason, Reason) for reason in reasons)
    json.dumps([{"key": reason.key, "params": dict(reason.params)} for reason in reasons])


# --- tools ------------------------------------------------------------------------------------------------------
def test_the_terminal_game_lets_the_computer_play_seats() -> None:
    out = io.StringIO()
    computers = {0: make_agent("easy", 1), 1: make_agent("hard", 2, iterations=3)}
    assert play_in_terminal(engine.get_variant("azul"), 2, 4, input, out, computers=computers) == 0
    text = out.getvalue()
    assert "Seat 1 (hard) plays" in text and "Final standings" in text
