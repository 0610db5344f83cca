"""What the application's calls return: a move applied (:class:`Turn`), a move taken back, a seat timed out, a
resignation, a nudge, the choice still needed to pin a move down, a league table's game opened or its result
recorded. Plain values, so handlers and the poster read them without depending on the services."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import engine
from bot.infra.store import GameRow, UserPrefs
from bot.infra.store.leagues import LeagueRow, TableRow
from bot.infra.store.timers import board_work
from engine import Event, GameState, Move

BOARD_LEASE = timedelta(minutes=2)
"""How long posting a version's board stays with one poster, renewed while the post is under way."""


@dataclass(frozen=True, slots=True)
class Known:
    """What a move read before its write (for its timers) that its board's post would read again."""

    prefs: Mapping[int, UserPrefs]
    """The seated people's preferences."""
    own_moves: Mapping[int, int]
    """Each seat's latest own move (its ply; not the computer's for it) before the turn."""
    version: int
    """The game's version before the turn."""

    def nothing_since(self, seat: int, version: int) -> bool:
        """Whether the moves since ``seat``'s own latest are only the turn's, and it was one move (which its post
        tells): the game's ``version`` after the turn is one on, and the move before it was the seat's own (or there
        was none)."""
        return version == self.version + 1 and self.own_moves.get(seat, -1) == self.version - 1


@dataclass(frozen=True, slots=True)
class Turn:
    """What one applied move did: everything the bot needs to post the board and ping the next players."""

    game: GameRow
    state: GameState
    before_to_act: frozenset[int]
    to_act: frozenset[int]
    seat: int
    move: Move
    events: list[Event] = field(default_factory=list)
    cause: str = ""
    """Why the computer made this move (``computer_seat``, ``stand_in``, ``time_limit``); empty for a person's."""
    undoable: bool = False
    """The mover may take this move back now (the game allows it, the move revealed nothing, the game goes on)."""
    plies: int = 1
    """How many moves the turn tells (a run played at once, or a run's moves whose board was held back: all of
    them); ``move`` is the last, ``events`` are all of theirs and ``before_to_act`` is who waited before the first."""
    board: str = ""
    """The claim on posting this version's board that the move's own write took for this process (empty when the
    turn was pieced together afterwards): its poster holds it already."""
    held: bool = False
    """The board after this turn waits for the rest of its mover's run (:meth:`holds_board`, decided as it was saved):
    nothing is posted now."""
    known: Known | None = None
    """What the move read before its write that its board's post goes by (None: the post reads it)."""

    @property
    def over(self) -> bool:
        return self.game.status == "over"

    def mover_acts_again(self) -> bool:
        """Whether the mover must act again at once (a bonus to pick, a grey wall to tile, a second placement)."""
        return not self.over and self.seat in self.to_act

    def computer_acts(self) -> bool:
        """Whether a seat the computer plays must act now (its move is due: the computer's turns wake)."""
        return bool(self.to_act.intersection(self.game.computer_seats()))

    def to_ping(self) -> list[int]:
        """Seats to mention now: those who must act and were not already waiting; never a seat the computer plays,
        and never the mover, unless the computer moved for them because their time ran out: a turn that comes
        straight back to them (a round ends and they start it, the grey wall leaves them a column) is a new turn
        they have not heard of."""
        waiting_before = self.before_to_act - {self.seat}
        mover = set() if self.cause == "time_limit" else {self.seat}
        return sorted(self.to_act - waiting_before - mover - set(self.game.computer_seats()))

    def holds_board(self) -> bool:
        """Whether the board after this turn waits: its mover is in the middle of a run (the grey wall's lines typed
        one command at a time: they may play the same command again) and nobody else newly must act. The channel
        then gets one post when the run is over, telling all of it (:meth:`bot.app.boards.Boards.told`), and pings
        go out then."""
        if self.over or self.seat not in self.to_act or self.to_ping():
            return False
        if not engine.get_variant(self.game.variant).is_run(self.move.command):
            return False
        return any(move.command == self.move.command for move in engine.legal_moves(self.state, self.seat))


def waiting(state: GameState) -> list[int]:
    """The seats that must act now, in seat order: whom a board, a reminder or a list of games names."""
    return sorted(engine.to_act(state))


def waiting_in(game: GameRow) -> list[int]:
    """:func:`waiting` in a game as saved; nobody before it starts."""
    return waiting(engine.from_json(game.state)) if game.state else []


@dataclass(frozen=True, slots=True)
class Opening:
    """A game's first board: what the deal did (``events``) and the seats that must act first (``ping``)."""

    events: list[Event]
    ping: list[int]

    @classmethod
    def of(cls, state: GameState) -> Opening:
        return cls(engine.opening_events(state), waiting(state))


@dataclass(frozen=True, slots=True)
class Undone:
    """A move taken back: the game as saved after it, the restored state, and who waited before and after."""

    game: GameRow
    state: GameState
    before_to_act: frozenset[int]
    to_act: frozenset[int]
    seat: int
    move: Move
    events: list[Event] = field(default_factory=list)
    """What the move taken back had done (to say which move it was in the same words as its own post)."""
    shown: bool = True
    """A board showed the move taken back; else its board was held back (a run's move): the board on show is
    already without it, so taking it back posts nothing."""

    def to_ping(self) -> list[int]:
        """Seats that must act now and were not waiting already: never the one who took the move back (they are
        here), so usually nobody; nobody is pinged for the turn that no longer exists."""
        return sorted(self.to_act - self.before_to_act - {self.seat} - set(self.game.computer_seats()))


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A seat's time ran out: the computer's move for it (``turn``), and what became of the seat."""

    turn: Turn
    timeouts: int  # in a row, counting this one
    handed_over: bool  # the computer plays the seat from now on (until its player takes it back)
    dropped: bool  # the player is out: ranked last, the computer plays the rest


@dataclass(frozen=True, slots=True)
class Resigned:
    """A player resigned: the game as saved after it, the state it was in, and whether that ended the game (else
    the computer plays the seat to the end)."""

    game: GameRow
    state: GameState
    seat: int
    ended: bool


@dataclass(frozen=True, slots=True)
class AbortVote:
    """A vote to cancel a running game, after one more agreement: the game (cancelled when everyone agreed), when
    the vote began, and who has agreed so far (user ids, in seat order)."""

    game: GameRow
    began: datetime
    agreed: list[int]
    cancelled: bool = False


@dataclass(frozen=True, slots=True)
class Nudged:
    """A nudge that goes out: to the ``seats`` it reaches now (``resting``: how many awaited players it skipped,
    being away or in their quiet hours)."""

    game: GameRow
    state: GameState
    seat: int
    seats: list[int]
    resting: int


@dataclass(frozen=True, slots=True)
class Needed:
    """Several legal moves match what was given: ``option`` is the first choice still needed."""

    option: str
    tokens: list[str]


@dataclass(frozen=True, slots=True)
class Opened:
    """A game opened for a table: the game, its first state, and the table."""

    table: TableRow
    game: GameRow
    state: GameState


@dataclass(frozen=True, slots=True)
class Recorded:
    """A table's result just recorded, with the league it belongs to."""

    league: LeagueRow
    table: TableRow


__all__ = [
    "BOARD_LEASE",
    "AbortVote",
    "Needed",
    "Nudged",
    "Opening",
    "Resigned",
    "TimedOut",
    "Turn",
    "Undone",
    "board_work",
    "waiting",
    "waiting_in",
]
