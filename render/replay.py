"""The tables along a game's move log, for a replay viewer and the animation of a whole game
(:mod:`render.animation` draws them): engine work only, importable without Pillow.

    frames = replay_states("azul", 4, seed, moves)          # frames[k] = the table after k moves
    k = next_round(frames, k)                                 # ▶▶: the first table of the next round
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import engine

__all__ = ["MAX_BYTES", "Frame", "next_round", "previous_round", "replay_states", "round_starts"]

MAX_BYTES = 8_000_000
"""The animation's upload budget (why 8 MB: :mod:`render.animation`)."""


@dataclass(frozen=True)
class Frame:
    """The table after ``move`` moves of the log, with the events of the move that led to it."""

    state: engine.GameState
    events: tuple[engine.Event, ...]
    move: int  # 0 = the opening deal
    round: int  # the round in play on this table (the last one once the game is over)
    seat: int | None  # who made the move (None for the opening)
    notation: str | None

    @property
    def ends_round(self) -> bool:
        return any(event.kind == "round_scored" for event in self.events)

    @property
    def ends_game(self) -> bool:
        return any(event.kind == "game_over" for event in self.events)


def replay_states(
    variant: str,
    players: int,
    seed: int,
    moves: Sequence[tuple[int, str]],
    options: Mapping[str, engine.JSON] | None = None,
) -> list[Frame]:
    """Every table of the game: ``[0]`` the opening deal, ``[k]`` the table after the first ``k`` moves."""
    state = engine.new_game(variant, players, seed, options)
    round_number = _started_round(engine.opening_events(state), 1)
    frames = [Frame(state, (), 0, round_number, None, None)]
    for number, (seat, notation) in enumerate(moves, start=1):
        state, events = engine.apply(state, seat, notation)
        round_number = _started_round(events, round_number)
        frames.append(Frame(state, tuple(events), number, round_number, seat, notation))
    return frames


def _started_round(events: Sequence[engine.Event], current: int) -> int:
    started = [int(event.data["round"]) for event in events if event.kind == "round_started"]
    return started[-1] if started else current


def round_starts(frames: Sequence[Frame]) -> list[int]:
    """Indices of the first table of every round (``0`` for the first): where ◀◀ and ▶▶ stop."""
    return [k for k, frame in enumerate(frames) if k == 0 or frame.round != frames[k - 1].round]


def next_round(frames: Sequence[Frame], index: int) -> int:
    """The first table of the round after the one shown at ``index``; the final table from the last round."""
    return next((k for k in round_starts(frames) if k > index), len(frames) - 1)


def previous_round(frames: Sequence[Frame], index: int) -> int:
    """The first table of the round shown at ``index``, or of the round before when already there."""
    return max((k for k in round_starts(frames) if k < index), default=0)
