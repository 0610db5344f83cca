"""What the bot hands the renderer beside a game state: plain values, importable without Pillow.

The bot builds these at start-up and on every turn, while Pillow and the drawing modules load only where a picture
is drawn (a worker, or the first picture in the bot's process); so they live here, not beside the code drawing them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LeagueStanding", "SeatInfo", "Standing"]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the table knows about a seat beyond the game, drawn as small pills beside the player's name
    (:func:`render.common.seat_pills`).

    The caller (the bot) passes short texts already in the picture's language; renderers never look inside them, so
    a new kind of note needs no change in any game's module. Every field is optional. Each note has a short form
    (``robot_short`` "3", ``away_short`` "3.12", ``clock_short`` "23 h") that the header uses after its icon when
    the full text would squeeze the name; without one, the icon alone stands for the note.
    """

    robot: str | None = None  # a computer seat's level, e.g. "hard": drawn after a robot icon
    away: str | None = None  # e.g. "away until 3 Dec": drawn after a moon
    clock: str | None = None  # the time left to move for whoever must act, e.g. "5 h left": drawn after a clock
    urgent: bool = False  # the clock is nearly out: the clock pill turns red
    robot_short: str | None = None
    away_short: str | None = None
    clock_short: str | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of :mod:`render.stats`: a leaderboard row, or one game's rating on a profile."""

    rank: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class LeagueStanding:
    """One player's line of a league's standings (:mod:`render.league`)."""

    rank: int
    name: str
    points: str
    buchholz: str
    score: int
    games: int
    out: bool = False  # withdrew or dropped: drawn greyed
