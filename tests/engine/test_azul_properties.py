"""Thousands of seeded random Azul games of every variant and player count, checked after every move.

Invariants: the 100 tiles are conserved, scores are never negative, every game ends, the JSON round-trip is
identical, the move log replays to the same state, the fast path agrees with ``apply``, every listed move is
accepted and a sample of unlisted ones is refused without changing anything.
The number of games per variant and player count can be raised locally with AZUL_PROPERTY_GAMES (default 200).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.agents import GreedyAgent
from engine.azul import _TAKES, _WALL_MOVES, MARKER, TILES_PER_COLOR, AzulState
from engine.core import Rng

pytestmark = pytest.mark.slow  # a property suite: many seeded and generated games

CONFIGS = [(variant, players) for variant in ("azul", "azul-grey") for players in (2, 3, 4)]
GAMES = int(os.environ.get("AZUL_PROPERTY_GAMES", "200"))
DEEP_GAMES = max(4, GAMES // 25)
MAX_PLIES = 5000  # far above any real game: reaching it means the game does not end
EVERY_MOVE = [move for by_color in _TAKES for by_line in by_color for move in by_line] + [
    move for row in _WALL_MOVES for move in row
]
seeds = st.integers(min_value=-(2**70), max_value=2**70)


def tiles_by_color(state: AzulState) -> list[int]:
    totals = [state.bag[c] + state.lid[c] + state.centre[c] + sum(f[c] for f in state.factories) for c in range(5)]
    for board in state.boards:
        for tile in board.floor:
            if tile != MARKER:
                totals[tile] += 1
        for color, count in zip(board.line_color, board.line_count, strict=True):
            if count:
                totals[color] += count
        for row in board.wall:
            for tile in row:
                if tile >= 0:
                    totals[tile] += 1
    return totals


def check_listed_and_unlisted(state: AzulState, seat: int, moves: list[engine.Move], rng: Rng) -> None:
    before = engine.to_json(state)
    for move in moves:
        engine.apply(state, seat, move)
    listed = set(moves)
    unlisted = [move for move in EVERY_MOVE if move not in listed]
    for _ in range(8):
        move = unlisted[rng.below(len(unlisted))]
        with pytest.raises(engine.IllegalMove):
            engine.apply(state, seat, move)
    others = [other for other in range(state.players) if other not in engine.to_act(state)]
    if others:
        with pytest.raises(engine.IllegalMove):
            engine.apply(state, others[0], moves[0])
    assert engine.to_json(state) == before


def play_checked(variant: str, players: int, seed: int, deep: bool, greedy: bool = False) -> None:
    state = engine.new_game(variant, players, seed)
    fast = engine.get_variant(variant)
    rng = Rng(seed)
    agent = GreedyAgent(seed)
    log: list[tuple[int, str]] = []
    for _ in range(MAX_PLIES):
        assert tiles_by_color(state) == [TILES_PER_COLOR] * 5
        assert min(engine.scores(state)) >= 0
        if engine.is_over(state):
            break
        acting = sorted(engine.to_act(state))
        assert acting
        seat = acting[rng.below(len(acting))]  # any order among players choosing at once
        moves = engine.legal_moves(state, seat)
        assert moves
        if deep:
            check_listed_and_unlisted(state, seat, moves, rng)
        move = agent.choose(fast, state, seat) if greedy else moves[rng.below(len(moves))]
        new, events = engine.apply(state, seat, move)
        assert fast.apply_unchecked(state, seat, move) == new
        assert all(event.kind for event in events)
        assert engine.from_json(engine.to_json(new)) == new
        log.append((seat, str(move)))
        state = new
    else:
        pytest.fail(f"{variant} with {players} players, seed {seed}: no end after {MAX_PLIES} moves")
    assert engine.to_act(state) == frozenset()
    assert engine.replay(variant, players, seed, log) == state


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_random_games_keep_every_invariant(variant: str, players: int) -> None:
    @settings(max_examples=GAMES, deadline=None, derandomize=True, database=None)
    @given(seed=seeds)
    def run(seed: int) -> None:
        play_checked(variant, players, seed, deep=False)

    run()


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_listed_moves_are_accepted_and_others_refused(variant: str, players: int) -> None:
    @settings(max_examples=DEEP_GAMES, deadline=None, derandomize=True, database=None)
    @given(seed=seeds)
    def run(seed: int) -> None:
        play_checked(variant, players, seed, deep=True)

    run()


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_greedy_games_keep_every_invariant(variant: str, players: int) -> None:
    """Greedy players complete rows and earn bonuses, which random ones rarely do."""
    for seed in range(10):
        play_checked(variant, players, seed, deep=False, greedy=True)
