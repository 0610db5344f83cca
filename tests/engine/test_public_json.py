"""What everyone at the table may know of a state (``engine.public_json``): the same in every possible world of what
is hidden, so nothing in it tells the bag's draw order or a face-down expansion."""

from __future__ import annotations

import pytest

import engine
from engine.agents import RandomAgent
from engine.core import Rng


@pytest.mark.parametrize("variant", engine.variant_names())
def test_the_public_view_is_the_same_in_every_world_of_the_hidden(variant: str) -> None:
    state = engine.new_game(variant, 3, 11)
    agent, rng = RandomAgent(5), Rng(99)
    told_apart = 0
    for _ in range(60):
        if engine.is_over(state):
            break
        world = engine.variant_of(state).redeterminize(state, rng)
        assert engine.public_json(world) == engine.public_json(state)
        told_apart += engine.to_json(world) != engine.to_json(state)
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
    assert told_apart, "the worlds differ in what is hidden"
    assert not {"seed", "rng"} & engine.public_json(state).keys()
