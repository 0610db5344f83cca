"""Sample tables for people to look at (``python -m tools.pictures demo``) and for the benchmark: seeded games played
by the engine's greedy agent through the engine's public API, stopped at moments worth seeing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import engine
from engine.agents import GreedyAgent

NAMES = (
    "Zoë Żółtowska-Brzęczyszczykiewicz 🎲",
    "Олександра",
    "Bob",
    "ʕ•ᴥ•ʔ Kuba 💙",
)


@dataclass(frozen=True)
class Sample:
    name: str
    state: engine.GameState
    events: tuple[engine.Event, ...]
    names: tuple[str, ...]


def play(variant: str, players: int, seed: int) -> Iterator[tuple[engine.GameState, list[engine.Event]]]:
    """Every state of a seeded game in order, with the events of the move that led to it."""
    state = engine.new_game(variant, players, seed)
    agent = GreedyAgent(seed)
    yield state, []
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        yield state, events


def _first(variant: str, players: int, seed: int, wanted: Callable[[Any, list[engine.Event]], bool]) -> Sample:
    for state, events in play(variant, players, seed):
        if wanted(state, events):
            return Sample("", state, tuple(events), NAMES[:players])
    raise LookupError(f"no such moment in {variant} with {players} players, seed {seed}")


def _kinds(events: list[engine.Event]) -> set[str]:
    return {event.kind for event in events}


def samples() -> list[Sample]:
    """The demo set: start, mid-round, after scoring, grey wall choosing, 2/3/4 players, game over."""
    wanted: list[tuple[str, str, int, int, Callable[[Any, list[engine.Event]], bool]]] = [
        ("start-2p", "azul", 2, 1, lambda s, e: True),
        ("mid-round-3p", "azul", 3, 2, lambda s, e: s.round == 2 and "take" in _kinds(e) and sum(s.centre) >= 5),
        ("mid-round-4p", "azul", 4, 3, lambda s, e: s.round == 3 and "take" in _kinds(e) and sum(s.centre) >= 6),
        ("after-scoring-4p", "azul", 4, 4, lambda s, e: "round_scored" in _kinds(e) and s.round == 3),
        ("grey-wall-choosing-2p", "azul-grey", 2, 5, lambda s, e: s.phase == "wall" and s.round >= 2),
        ("grey-wall-mid-round-3p", "azul-grey", 3, 6, lambda s, e: s.round == 3 and "take" in _kinds(e)),
        ("game-over-2p", "azul", 2, 7, lambda s, e: s.phase == "over"),
        ("game-over-4p", "azul", 4, 8, lambda s, e: s.phase == "over"),
    ]
    result = []
    for name, variant, players, seed, moment in wanted:
        sample = _first(variant, players, seed, moment)
        result.append(Sample(name, sample.state, sample.events, sample.names))
    return result
