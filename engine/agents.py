"""Computer players for every game of the family, built only on the generic Variant API.

- :class:`RandomAgent` picks uniformly among ``legal_moves``.
- :class:`GreedyAgent` picks the move whose result the variant's ``heuristic`` rates best for the mover (best
  immediate points, fewest points lost), breaking ties at random.

Both draw from their own seeded :class:`~engine.core.Rng`, never from the game's, so an agent does not change the
game's deals and the same agent seed plays the same game again.
"""

from __future__ import annotations

from typing import Any

from engine.core import Move, Rng, Variant

AGENT_NAMES = ("random", "greedy")


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, variant: Variant[Any], state: Any, seat: int) -> Move:
        moves = variant.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        return moves[self.rng.below(len(moves))]


class GreedyAgent(RandomAgent):
    name = "greedy"

    def choose(self, variant: Variant[Any], state: Any, seat: int) -> Move:
        moves = variant.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            value = variant.heuristic(variant.apply_unchecked(state, seat, move), seat)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.below(len(best))]


def make_agent(name: str, seed: int = 0) -> RandomAgent:
    """An agent by name (``random`` or ``greedy``)."""
    agents = {"random": RandomAgent, "greedy": GreedyAgent}
    if name not in agents:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(AGENT_NAMES)}")
    return agents[name](seed)
