"""Seeded random games played to their end: shared by the rules tests and ``python -m bench endings``."""

from __future__ import annotations

import random

import engine

PLY_CAP = 20_000
"""Far beyond any real game (a few hundred plies): a game past it is taken as one that never ends."""


def random_ending(variant: str, players: int, seed: int) -> str:
    """Play one seeded random game; the reason it ended, or ``"never"`` past :data:`PLY_CAP` plies."""
    state = engine.new_game(variant, players, seed=seed)
    moves = random.Random(seed)
    events: list[engine.Event] = []
    for _ in range(PLY_CAP):
        if engine.is_over(state):
            return next(str(e.data["reason"]) for e in events if e.kind == "game_over")
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, moves.choice(engine.legal_moves(state, seat)))
    return "never"
