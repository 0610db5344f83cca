"""Game transcripts: one JSON document per game, round by round, built from the generic API only.

:func:`transcript` plays a whole game with agents (``python -m engine selfplay``); :func:`export` describes a stored
move log, finished or not (the bot's game export). Any game of the family plugs in if it emits these events:
- ``round_started`` at the start of every round, the first one included (from ``Variant.opening_events``); its data
  is copied into the round's entry and should say at least ``round``, ``start_seat`` and what was dealt;
- for each move, an event whose ``kind`` is the move's ``command`` and whose ``seat`` is the mover: its data is
  copied into the move's entry next to ``seat`` and ``notation`` (without such an event the move's choices are);
- ``round_scored`` with ``scores`` after the round; ``game_over`` with ``standings`` at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from engine import Event, Variant, get_variant


def _move_entry(seat: int, move: Any, events: list[Event]) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "notation": str(move), "command": move.command}
    described = next((e for e in events if e.kind == move.command and e.seat == seat), None)
    if described is not None:
        entry.update(described.data)
    else:
        entry["choices"] = dict(move.choices())
    return entry


S = TypeVar("S")


class Recorder(Generic[S]):
    """Builds a transcript while a game is played: feed it every move with the events ``apply`` returned."""

    def __init__(self, variant: Variant[S], state: S) -> None:
        self.variant = variant
        self.rounds: list[dict[str, Any]] = []
        self.moves = 0
        self._absorb(variant.opening_events(state))

    def _absorb(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "round_started":
                self.rounds.append({**event.data, "moves": []})
            elif event.kind == "round_scored" and self.rounds:
                self.rounds[-1]["scores"] = list(event.data["scores"])

    def record(self, seat: int, move: Any, events: list[Event]) -> None:
        if not self.rounds:
            self.rounds.append({"moves": []})
        self.rounds[-1]["moves"].append(_move_entry(seat, move, events))
        self._absorb(events)
        self.moves += 1

    def result(self, state: S, **head: Any) -> dict[str, Any]:
        """The transcript; ``winners`` is empty while the game is not over."""
        over = self.variant.is_over(state)
        standings = self.variant.standings(state)
        return {
            "variant": self.variant.name,
            "players": len(self.variant.scores(state)),
            **head,
            "rounds": self.rounds,
            "moves": self.moves,
            "finished": over,
            "final_scores": self.variant.scores(state),
            "standings": standings,
            "winners": standings[0] if over else [],
        }


def transcript(
    variant_name: str, players: int, seed: int, agent: str = "random", **agent_options: Any
) -> dict[str, Any]:
    """Play a whole game with ``agent`` in every seat (``agent_options``: its budget) and describe it by round."""
    from engine.agents import make_agent  # noqa: PLC0415 - the search loads when games are played, not with an export

    variant = get_variant(variant_name)
    state = variant.new_game(players, seed)
    agents = [make_agent(agent, seed * 8 + seat, **agent_options) for seat in range(players)]
    recorder = Recorder(variant, state)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        move = agents[seat].choose(variant, state, seat)
        state, events = variant.apply(state, seat, move)
        recorder.record(seat, move, events)
    return recorder.result(state, seed=seed, agent=agent)


def export(
    variant_name: str,
    players: int,
    seed: int,
    log: list[tuple[int, str]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The transcript of a logged game, finished or not (``(seat, notation)`` pairs): the bot's game export."""
    variant = get_variant(variant_name)
    state = variant.new_game(players, seed, options)
    recorder = Recorder(variant, state)
    for seat, notation in log:
        move = variant.parse_move(notation)
        state, events = variant.apply(state, seat, move)
        recorder.record(seat, move, events)
    return recorder.result(state, seed=seed)
