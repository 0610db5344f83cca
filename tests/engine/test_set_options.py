"""The set-valued options of every variant's declaration: shapes, pools and legality agree with ``legal_moves``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import Variant
from engine.agents import GreedyAgent
from engine.core import ANY_SET, set_options


def positions(variant: Variant[Any], seed: int, limit: int = 400) -> list[tuple[Any, int]]:
    """States along a game mixing greedy and random moves (greedy play fills storages and hands)."""
    rng, agent = random.Random(seed), GreedyAgent(seed)
    state = variant.new_game(2 + seed % 3 if variant.max_players > 2 else 2, seed)
    seen = []
    while not variant.is_over(state) and len(seen) < limit:
        seat = min(variant.to_act(state))
        seen.append((state, seat))
        moves = variant.legal_moves(state, seat)
        move = agent.choose(variant, state, seat) if rng.random() < 0.6 else rng.choice(moves)
        state = variant.apply_unchecked(state, seat, move)
    return seen


@pytest.mark.parametrize("name", engine.variant_names())
def test_shapes_pools_and_legality_match_the_legal_moves(name: str) -> None:
    variant = engine.get_variant(name)
    for state, seat in positions(variant, 3)[::7]:
        legal = variant.legal_moves(state, seat)
        expected: dict[tuple[tuple[str, str], ...], set[str]] = {}
        for move in legal:
            sets = set_options(variant, move.command)
            open_choices = [(option, ANY_SET if option in sets else token) for option, token in move.choices()]
            shape = (("command", move.command), *open_choices)
            expected.setdefault(shape, set()).update(token for option, token in move.choices() if option in sets)
        assert set(variant.move_shapes(state, seat)) == set(expected), name
        for shape, tokens in expected.items():
            choices = dict(shape[1:])
            command = shape[0][1]
            for option in (o for o, token in shape[1:] if token == ANY_SET):
                pool = variant.set_pool(state, seat, command, option, choices)
                for token in tokens:
                    counts = variant.split_set(command, option, token)
                    assert variant.join_set(command, option, counts) == token
                    assert all(pool.get(item, 0) >= count for item, count in counts.items()), (token, pool)
                    assert variant.is_legal_set(state, seat, command, option, {**choices, option: token})
                too_many = variant.join_set(command, option, {item: most + 1 for item, most in pool.items()})
                if pool:
                    assert not variant.is_legal_set(state, seat, command, option, {**choices, option: too_many})


def test_sets_are_declared_for_the_options_that_hold_several_items() -> None:
    declared = {
        (engine.get_variant(name).game, command.name): command.sets
        for name in engine.variant_names()
        for command in engine.get_variant(name).commands
    }
    assert declared[("queens-garden", "pass")] == ("discard",)
    assert declared[("queens-garden", "tile")] == ("payment",)
    assert declared[("summer-pavilion", "pass")] == ("keep",)
    assert declared[("summer-pavilion", "bonus")] == ("tiles",)
    assert declared[("azul", "take")] == ()
