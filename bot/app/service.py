"""The game service: the application's small objects, each given what it needs, built once by the composition root
(:mod:`bot.client`) and handed to handlers as :class:`bot.app.ports.Games`.

Every call either returns what happened or raises :class:`Refusal` (the bot's own reasons, catalogue key
``bot.refuse.<key>``) or an :class:`engine.EngineError` (the rules' reasons, ``error.<key>``); on a refusal nothing
is saved. A move loads the snapshot, lets the engine validate and apply it, and saves the new snapshot together with
the move in one transaction guarded by the game's version, so racing or repeated interactions apply at most once.

==============================  ===================================================================================
:mod:`bot.app.tables`           the one place a game row is loaded and refused
:mod:`bot.app.turns`            a move parsed, applied and saved, returning the saved :class:`Turn`; the computer's
:mod:`bot.app.boards`           which board to post after a move, and those a restart still owes
:mod:`bot.app.seating`          lobbies: create, join, leave, computers, start, rematch, a thread
:mod:`bot.app.stand_ins`        the computer playing for people: time limits, seats handed over and taken back
:mod:`bot.app.takebacks`        taking a move back
:mod:`bot.app.nudges`           nudges
:mod:`bot.app.advisor`          hints
:mod:`bot.app.endings`          resigning, aborting, games whose place is gone, forgetting a player
:mod:`bot.app.exports`          transcripts and a broken game's raw record
:mod:`bot.app.settings`         a server's and a player's settings
:mod:`bot.app.results`          a finished game's result, recorded with its ratings
:mod:`bot.app.claims`           background work one process holds
==============================  ===================================================================================

What handlers only read (a player's preferences, results, the move log, a picker's half-made choice) they read from
the store's aggregates directly, through the read protocols of :mod:`bot.app.ports`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from bot.app.advisor import Advisor
from bot.app.boards import Boards
from bot.app.claims import Claims
from bot.app.computer import Computer
from bot.app.endings import Endings
from bot.app.exports import Exports
from bot.app.nudges import Nudges
from bot.app.quotas import Hints
from bot.app.results import Settlement
from bot.app.seating import Seating
from bot.app.settings import Settings
from bot.app.stand_ins import StandIns
from bot.app.tables import Tables
from bot.app.takebacks import TakeBacks
from bot.app.timers import Timers
from bot.app.turns import Turns
from bot.infra.clock import Clock, SystemClock
from bot.infra.store import Store


class GameService:
    """The application's objects over one store (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        seed_source: Callable[[], int] | None = None,
        computer: Computer | None = None,
        *,
        clock: Clock | None = None,
        remind_after: timedelta | None = None,
        lease: timedelta | None = None,
        identity: str | None = None,
    ) -> None:
        self.store = store
        self.computer = computer  # the search pool the turns and the hints share
        self.clock = clock or SystemClock()
        self.claims = Claims(store, self.clock, lease, identity)
        self.timers = Timers(store, self.clock, remind_after, lease)
        self.timers.owner = self.claims.worker
        self.settlement = Settlement(store)
        self.tables = Tables(store, self.timers)
        self.settings = Settings(store, self.clock, self.timers)
        self.seating = Seating(store, self.tables, self.settings, seed_source or (lambda: secrets.randbits(62)))
        self.boards = Boards(store, self.tables)
        self.turns = Turns(
            store, self.tables, self.claims, self.timers, self.settlement, boards=self.boards, computer=computer
        )
        self.stand_ins = StandIns(store, self.tables, self.turns)
        self.takebacks = TakeBacks(store, self.tables)
        self.nudges = Nudges(store, self.tables, self.clock)
        hints = Hints()
        self.advisor = Advisor(self.tables, computer, self.clock, hints)
        self.endings = Endings(store, self.tables, self.settlement, self.clock, hints)
        self.exports = Exports(store, self.tables)
        # What handlers read as it is stored (the read protocols of bot.app.reads).
        self.users = store.users
        self.servers = store.servers
        self.results = store.results
        self.move_log = store.moves
        self.pickers = store.pickers
        self.games = store.games
        self.league_tables = store.leagues


__all__ = ["GameService"]
