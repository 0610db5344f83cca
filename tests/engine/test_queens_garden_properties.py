"""Queen's Garden over many seeded random games: conservation, scores, rounds, JSON, replay, listed moves.

``QG_PROPERTY_GAMES`` raises the number of games per variant and player count (the default keeps CI quick);
``python -m bench engine`` style runs of thousands of games use the same checks.
"""

from __future__ import annotations

import os

import pytest

import engine
from engine.core import Rng
from engine.queens_garden import KINDS, QGState

pytestmark = pytest.mark.slow  # a property suite: many seeded and generated games

GAMES = int(os.environ.get("QG_PROPERTY_GAMES", "6"))
CASES = [(name, players) for name in ("queens-garden", "queens-garden-variant") for players in (2, 3, 4)]


def tiles_and_expansions(state: QGState) -> tuple[int, list[int]]:
    """Every tile counted once wherever it lies, and every expansion id wherever it lies."""
    tiles = sum(state.bag) + sum(state.tower) + len(state.top_tiles) + sum(len(i.tiles) for i in state.display)
    expansions = [*state.stack, *state.supply, *(i.expansion for i in state.display)]
    for stack in state.future_stacks:
        expansions += stack
    for p in state.players:
        tiles += sum(p.tiles)
        expansions += p.expansions + [a for a in p.areas if a >= 0]
        printed = {6 + a * 7 + p.rotations[a] + 1 for a in range(6) if p.areas[a] >= 0 and p.rotations[a] >= 0}
        tiles += sum(1 for cell, kind in enumerate(p.hexes) if kind >= 0 and cell not in printed)
    return tiles, sorted(expansions)


def play_random_game(name: str, players: int, seed: int) -> None:
    variant = engine.get_variant(name)
    state = variant.new_game(players, seed)
    rng = Rng(seed * 31 + players)
    log: list[tuple[int, str]] = []
    rounds_seen = {state.round}
    scored: list[int] = []
    while not variant.is_over(state):
        (seat,) = variant.to_act(state)
        moves = variant.legal_moves(state, seat)
        assert moves, "a seat to act always has a move (pass)"
        for move in moves[:: max(1, len(moves) // 40)]:  # a sample of listed moves: all readable and accepted
            assert variant.parse_move(str(move)) == move
            assert variant.move_from_choices(move.command, dict(move.choices())) == move
        # Favour actions over passing so games fill gardens; passing stays possible.
        actions = [m for m in moves if m.command != "pass"]
        pool = actions if actions and rng.below(6) else moves
        move = pool[rng.below(len(pool))]
        state, events = variant.apply(state, seat, move)
        log.append((seat, str(move)))
        rounds_seen.add(state.round)
        assert tiles_and_expansions(state) == (KINDS * 3, list(range(KINDS)))
        assert all(score >= 0 for score in variant.scores(state))
        assert all(p.storage_used() <= 12 and len(p.expansions) <= 2 for p in state.players)
        raw = variant.to_json(state)
        assert variant.to_json(variant.from_json(raw)) == raw
        scored += [e.data["round"] for e in events if e.kind == "round_scored"]
    assert rounds_seen == {1, 2, 3, 4} and scored == [1, 2, 3, 4]
    assert variant.legal_moves(state, 0) == []
    replayed = engine.replay(name, players, seed, log)
    assert variant.to_json(replayed) == variant.to_json(state)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_keep_every_invariant(name: str, players: int) -> None:
    for seed in range(GAMES):
        play_random_game(name, players, seed)
