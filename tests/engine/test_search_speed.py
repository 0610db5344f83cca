"""The search's fast paths give the same answers as the plain rules: Queen's Garden's remembered heuristic and
placements, Azul's valuation of end-of-game bonuses, the valuation every variant offers the search, and hard's
moves in every variant (legal and repeatable)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.agents import HardAgent, make_agent
from engine.azul import COLOR_BONUS, COLUMN_BONUS, ROW_BONUS
from engine.queens_garden import CELLS, KINDS, PATTERN_OF, QueensGarden, garden_groups, placement_error
from tests.engine.queens_garden_helpers import variant as qg_variant

QG = ("queens-garden", "queens-garden-variant")


def greedy_game(name: str, players: int, seed: int, plies: int) -> list[Any]:
    """The states of a greedy game, from the start to ``plies`` moves in (or its end)."""
    variant = engine.get_variant(name)
    state = variant.new_game(players, seed)
    states = [state]
    agent = make_agent("greedy", seed)
    for _ in range(plies):
        if variant.is_over(state):
            break
        seat = min(variant.to_act(state))
        state = variant.apply_unchecked(state, seat, agent.choose(variant, state, seat))
        states.append(state)
    return states


def plain_qg_heuristic(variant: QueensGarden, state: Any, seat: int) -> float:
    """The heuristic as its docstring states it, group by group, with nothing remembered."""
    player = state.players[seat]
    side = variant.components.sides[variant.side_name]
    groups = 0.0
    for category, value in variant.components.evaluation_order:
        for group in garden_groups(player, category, value):
            weight = 1.0 if len(group) >= side.group_min_size else 0.4
            groups += weight * sum(PATTERN_OF[player.hexes[c]] for c in group)
    placed = sum(PATTERN_OF[k] for k in player.hexes if k >= 0)
    waiting = sum(PATTERN_OF[kind] * n for kind, n in enumerate(player.tiles)) + sum(
        PATTERN_OF[kind] for kind in player.expansions
    )
    areas = sum(1 for area in player.areas if area >= 0)
    last = state.round == variant.components.rounds
    return (
        player.score
        + groups
        + placed
        + (1.0 if last else 3.0) * areas
        + player.jokers
        + (-0.9 if last else 0.35) * waiting
    )


@pytest.mark.slow  # greedy games compared position by position
@pytest.mark.parametrize("name", QG)
def test_queens_garden_heuristic_matches_the_group_by_group_count(name: str) -> None:
    variant = qg_variant(name)
    for seed in range(3):
        for state in greedy_game(name, 3, seed, 60)[::5]:
            if variant.is_over(state):
                continue
            for seat in range(3):
                assert variant.heuristic(state, seat) == pytest.approx(plain_qg_heuristic(variant, state, seat))


@pytest.mark.parametrize("name", QG)
def test_queens_garden_remembered_moves_equal_fresh_ones(name: str) -> None:
    # A variant object with empty memos lists exactly the moves, in the same order, that the searched one does.
    searched = qg_variant(name)
    for seed in range(2):
        states = greedy_game(name, 2, seed, 50)
        HardAgent(seed, iterations=30, rollout_plies=4).choose(searched, states[10], min(searched.to_act(states[10])))
        for state in states[::3]:
            fresh = QueensGarden(name, searched.side_name, searched.components)
            for seat in searched.to_act(state):
                assert searched.legal_moves(state, seat) == fresh.legal_moves(state, seat)
                assert searched.legal_moves(state, seat) == fresh.legal_moves(state, seat)  # and again, remembered


@pytest.mark.parametrize("plies", [32, pytest.param(80, marks=pytest.mark.slow)])  # the greedy games cost the time
@pytest.mark.parametrize("name", QG)
def test_queens_garden_legal_cells_are_the_placement_rule_cell_by_cell(name: str, plies: int) -> None:
    # The garden decides most cells from masks of their neighbours; the rule asks every cell in full.
    variant = qg_variant(name)
    checked = 0
    for seed in range(3):
        for state in greedy_game(name, 2, seed, plies)[:: plies // 16]:
            for player in state.players:
                cells_for = variant._cells_for(player)
                for kind in range(KINDS):
                    rule = tuple(name for cell, name in enumerate(CELLS) if placement_error(player, kind, cell) is None)
                    assert cells_for(kind) == rule, (seed, kind)
                    checked += len(rule)
    assert checked > 1000  # gardens with room to place, not only empty boards


def test_azul_evaluation_counts_bonuses_in_reach() -> None:
    variant = engine.get_variant("azul")
    state = variant.new_game(2, 1)
    assert variant.evaluation(state, 0) == variant.heuristic(state, 0) == 0
    board = state.boards[0]
    for row in range(4):  # column 1 lacks one tile, row 1 lacks one
        board.wall[row][0] = (0 - row) % 5
    for col in range(1, 4):
        board.wall[0][col] = col % 5
    gained = variant.evaluation(state, 0) - variant.heuristic(state, 0)
    column = COLUMN_BONUS * (4 / 5) ** 2
    assert gained > column
    # Only one round can remain once someone's row lacks a single tile: a colour with one tile is out of reach.
    assert gained < column + ROW_BONUS + 5 * COLOR_BONUS * (2 / 5) ** 2


@pytest.mark.parametrize("name", engine.variant_names())
def test_every_variant_values_positions_for_the_search(name: str) -> None:
    variant = engine.get_variant(name)
    states = greedy_game(name, 2, 4, 400)
    assert variant.is_over(states[-1])
    for state in states[::7]:
        for seat in range(2):
            assert variant.evaluation(state, seat) >= variant.heuristic(state, seat) - 1e-9
    assert [variant.evaluation(states[-1], seat) for seat in range(2)] == variant.scores(states[-1])


@pytest.mark.parametrize("name", engine.variant_names())
def test_hard_moves_are_legal_and_repeatable_in_every_variant(name: str) -> None:
    variant = engine.get_variant(name)
    options = {"iterations": 12, "consider": 40, "consider_inner": 10, "rollout_plies": 4}
    for state in greedy_game(name, 3, 7, 9)[3::3]:
        seat = min(variant.to_act(state))
        chosen = HardAgent(5, **options).choose(variant, state, seat)
        assert chosen in variant.legal_moves(state, seat)
        assert HardAgent(5, **options).choose(variant, state, seat) == chosen
