"""The rows the store hands out (frozen dataclasses), its errors, and ``now_iso``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict

OPEN_STATUSES = ("lobby", "active")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a person's (``user_id``) or a computer's (no user). ``level`` is set when the computer
    plays the seat: always for a computer seat, and for a person's seat handed to the computer."""

    user_id: int | None
    name: str
    joined: int
    seat: int | None
    level: str | None = None
    timeouts: int = 0  # the player's time ran out this many times in a row
    dropped: bool = False  # dropped (time ran out, or resigned): ranked last, the computer plays the rest
    resigned: bool = False  # the player resigned (a dropped seat): ranked after everyone

    @property
    def is_computer(self) -> bool:
        """A computer's own seat (no person behind it)."""
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        """The computer moves for this seat now (its own seat, or a person's handed to it)."""
        return self.level is not None


class GameResult(TypedDict, total=False):
    """A finished game's result as stored with it (``games.result``, :func:`bot.app.results.result_of`)."""

    scores: list[int]
    standings: list[list[int]]
    """Seats by place, ties sharing a group; everyone who left the game in the last group."""
    resigned: int | None
    """The seat whose resignation ended the game."""
    outcomes: list[str]
    """Per seat, when anyone left: ``played``, ``timed_out``, ``dropped`` or ``resigned``."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    creator_id: int
    variant: str
    options: dict[str, Any]
    seed: int
    max_seats: int
    seat_order: str
    status: str
    version: int
    state: dict[str, Any] | None
    result: GameResult | None
    lobby_message_id: int | None
    board_message_id: int | None
    created_at: str
    turn_since: str
    seats: tuple[Seat, ...]
    hints: bool = False
    board_version: int = -1
    rated: bool | None = None  # None: rated when every seat is a person's
    time_limit_hours: int = 0  # per move; 0: no limit
    on_timeout: str = "computer"  # when the limit runs out: the computer plays the move, or "drop" the player
    undo: bool = True  # players may take back their last move (the creator's choice)
    thread: bool = False  # played in a thread of its own, opened when it starts
    lobby_channel_id: int | None = None  # the channel of the lobby message, once the game moved to its thread
    thinking: int = 1  # CPU seconds a computer seat (or a stand-in) may search per move
    broken: str | None = None  # why its stored state cannot be read (quarantined), None for a sound game
    epoch: int = 0  # the store epoch that wrote this version (bot.infra.store.Store.epoch; 0: before epochs)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """The engine seat of ``user_id`` (None when not seated or the game has not started)."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def has_player(self, user_id: int) -> bool:
        return any(s.user_id == user_id for s in self.seats)

    def people(self) -> list[Seat]:
        """The seats of people (in joining order), whoever plays them now."""
        return [s for s in self.seats if not s.is_computer]

    def computer_seats(self) -> list[int]:
        """Engine seats the computer plays now (its own and stand-ins), in seat order."""
        return sorted(s.seat for s in self.seats if s.computer_plays and s.seat is not None)

    def dropped_seats(self) -> list[int]:
        """Engine seats whose players were dropped: for running out of time, or because they resigned."""
        return sorted(s.seat for s in self.seats if s.dropped and s.seat is not None)

    def stand_in_seats(self) -> list[int]:
        """Engine seats of people the computer plays for now without their being dropped: handed over after their
        time ran out too often (they may still take them back)."""
        return sorted(
            s.seat
            for s in self.seats
            if s.computer_plays and not s.is_computer and not s.dropped and s.seat is not None
        )

    def resigned_seats(self) -> list[int]:
        """Engine seats whose players resigned while the others played on."""
        return sorted(s.seat for s in self.seats if s.resigned and s.seat is not None)

    def by_seat(self) -> list[Seat]:
        """Seated players in engine seat order (started games only)."""
        return sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat or 0)


@dataclass(frozen=True, slots=True)
class PickerRow:
    """One step of a Play picker: what ``user_id`` chose so far, and which ``option`` the step asks for."""

    id: int
    game_id: int
    version: int
    user_id: int
    command: str | None
    chosen: dict[str, str]
    option: str


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One move of the log: made at version ``ply`` by ``seat``; ``cause`` says why the computer made it (empty for
    a person's move)."""

    ply: int
    seat: int
    notation: str
    cause: str = ""


@dataclass(frozen=True, slots=True)
class UndoneRow:
    """A move taken back at version ``version`` (the board posted then shows version ``version + 1``)."""

    version: int
    ply: int
    seat: int
    notation: str


OUTCOMES = ("played", "resigned", "timed_out", "dropped")
Skill = tuple[float, float]  # a rating: (mu, sigma)


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """One seat of a finished game. ``place`` 1 is first (ties share a place); ``outcome`` says whether the player
    played to the end or left (resigned, timed out, dropped): a player who left is placed after all who stayed."""

    seat: int
    user_id: int | None  # None: a computer's own seat
    name: str
    score: int
    place: int
    outcome: str = "played"
    computer: bool = False
    moves: int = 0
    think_seconds: float = 0.0

    @property
    def left(self) -> bool:
        return self.outcome != "played"

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.left


@dataclass(frozen=True, slots=True)
class ResultRow:
    id: int  # 0 until stored; ratings follow the order of ids
    game_id: int
    family: str
    variant: str
    guild_id: int | None
    channel_id: int
    rated: bool
    finished_at: str
    seats: tuple[ResultSeat, ...]


RateFn = Callable[[ResultRow, Mapping[int, Skill]], dict[int, Skill]]
"""Ratings after a result, from the ratings before it (of the users that have one): see :mod:`bot.app.ratings`."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    family: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """Everything a profile shows that is not a rating, from the result rows (rated and casual games)."""

    games: int
    wins: int
    average_score: float | None
    favourite_variant: str | None
    moves: int
    think_seconds: float
    recent: tuple[bool, ...]  # won?, newest first (for the current streak)


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A reminder or deadline of one seat (``seat`` -1: the whole table), due at ``due_at`` (ISO time, UTC)."""

    id: int
    game_id: int
    kind: str
    seat: int
    version: int
    due_at: str
    payload: dict[str, Any]
    state: str


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timer to add: ``seat`` waits from ``version`` on, until ``due_at``."""

    kind: str
    seat: int
    version: int
    due_at: str


@dataclass(frozen=True, slots=True)
class TimerChanges:
    """What syncing a game's timers writes: the pending timers it cancels (by id) and the ones it adds."""

    cancel: tuple[int, ...] = ()
    add: tuple[NewTimer, ...] = ()
    at: str = ""  # when (ISO time, UTC): the cancelled ones' done_at


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    notify_dm: bool
    dm_closed_told: bool
    locale: str | None = None
    reminders: bool = True
    remind_every_hours: int = 0  # 0: once per turn
    quiet_start: int | None = None  # an hour of the day in ``timezone``; quiet until ``quiet_end``
    quiet_end: int | None = None
    timezone: str | None = None  # an IANA zone; None: UTC
    away_until: str | None = None  # ISO time (UTC); away while it is in the future

    REMINDER_FIELDS = ("reminders", "remind_every_hours", "quiet_start", "quiet_end", "timezone")


class Conflict(Exception):
    """A write lost a race (the game moved on) or repeated an interaction that was already applied."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "version", "duplicate", or "seated" (the person already has a seat in that lobby)


@dataclass(frozen=True, slots=True)
class SeatCaps:
    """The caps one more seat must fit under, checked in the transaction that takes it: ``user_id`` may fill at most
    ``member`` seats in the server's open games (``seats`` are being added: their own, or the computer seats of a game
    they create), and a new game needs the server to have fewer than ``server`` open games (None: not a new game).
    League games are counted apart: they neither take these caps nor count towards them."""

    user_id: int
    member: int
    server: int | None = None
    seats: int = 1


class CapReached(Exception):
    """A cap on open games is full (``cap``: "member" or "server"); nothing was written."""

    def __init__(self, cap: str, limit: int) -> None:
        super().__init__(f"{cap} cap {limit}")
        self.cap = cap
        self.limit = limit


class StoreOpenError(Exception):
    """The database cannot be used at start-up; the message is one line: which file, what is wrong, what to do."""
