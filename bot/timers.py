"""Timers: every reminder and deadline of a game is a row in the store with a due time; nothing lives in memory.

The rule is one function of the game, :meth:`Timers.sync`: after anything changes a game (it starts, a move is
played, it ends) the pending timers are made to match who is waiting. A seat that began to wait gets its timers,
keyed by the game's version at that moment, so a repeated sync never doubles one (the store's unique key); a seat
that is no longer waiting, or that has moved since its timer was set, loses its pending ones. At start-up every
active game is synced again, so a crash between a move and its sync heals, and the bot's timer loop then runs what
fell due while it was down, once.

:meth:`Timers.run_due` leases the due timers to this process (other bot processes skip them until the lease runs
out), claims each (pending → done, in one guarded write, so two runners never both run it), checks it still
applies, and returns what fired, grouped by game, for the bot to post. The time comes from an injectable
:class:`bot.clock.Clock`.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from datetime import timedelta

import engine
from bot.clock import Clock, iso, quiet_until
from bot.store import GameRow, Store, TimerRow
from engine import GameState

REMIND = "remind"
TIMER_LEASE = timedelta(minutes=5)
"""How long a due timer stays with the process that claimed it; if that process dies, another runs it after this."""


@dataclass(frozen=True, slots=True)
class Fired:
    """Timers of one kind that ran together for one game: the seats they were for, and the game as it is now."""

    game: GameRow
    state: GameState
    kind: str
    seats: tuple[int, ...]


class Timers:
    def __init__(self, store: Store, clock: Clock, remind_after: timedelta | None = None) -> None:
        self.store = store
        self.clock = clock
        self.remind_after = remind_after

    async def sync(self, game: GameRow) -> None:
        """Make the game's pending timers match who is waiting now (see the module's docstring)."""
        waiting = self._waiting(game)
        last = await self.store.last_plies(game.id)
        timers = await self.store.timers_of(game.id)
        now = iso(self.clock.now())
        for timer in timers:
            if timer.state == "pending" and not self._applies(timer, waiting, last):
                await self.store.end_timer(timer.id, "cancelled", now)
        for seat in sorted(waiting):
            started = any(t.seat == seat and t.version > last.get(seat, -1) for t in timers)
            if not started:
                await self._schedule_waiting(game, seat)

    async def _schedule_waiting(self, game: GameRow, seat: int) -> None:
        """The timers of a seat that has just begun to wait: a reminder after the player's own interval (every N
        hours), else the bot's; none when the bot's reminders are off."""
        user_id = game.by_seat()[seat].user_id
        if self.remind_after is not None and user_id is not None:
            prefs = await self.store.user(user_id)
            every = timedelta(hours=prefs.remind_every_hours) if prefs.remind_every_hours else self.remind_after
            await self.store.schedule_timer(game.id, REMIND, seat, game.version, due_at=iso(self.clock.now() + every))

    async def _claim(self, game: GameRow, timer: TimerRow) -> bool:
        """Take a due timer for running now; a reminder follows its player's settings: none when they are off,
        later when it falls in their quiet hours, and again after their interval when they asked for repeats."""
        now = self.clock.now()
        if timer.kind != REMIND:
            return await self.store.end_timer(timer.id, "done", iso(now))
        user_id = game.by_seat()[timer.seat].user_id
        prefs = await self.store.user(user_id) if user_id is not None else None
        if prefs is None or not prefs.reminders:  # off, or a computer seat (no one to remind)
            await self.store.end_timer(timer.id, "cancelled", iso(now))
            return False
        if prefs.away_until and prefs.away_until > iso(now):  # on vacation: the reminder waits for their return
            await self.store.reschedule_timer(timer.id, timer.due_at, prefs.away_until)
            return False
        quiet_end = quiet_until(now, prefs.timezone, prefs.quiet_start, prefs.quiet_end)
        if quiet_end is not None:
            await self.store.reschedule_timer(timer.id, timer.due_at, iso(quiet_end))
            return False
        if prefs.remind_every_hours:
            again = now + timedelta(hours=prefs.remind_every_hours)
            return await self.store.reschedule_timer(timer.id, timer.due_at, iso(again))
        return await self.store.end_timer(timer.id, "done", iso(now))

    @staticmethod
    def _waiting(game: GameRow) -> Set[int]:
        """The seats whose people keep the table waiting: never one the computer plays (no one to remind)."""
        if game.status != "active" or not game.state:
            return set()
        return engine.to_act(engine.from_json(game.state)) - set(game.computer_seats())

    @staticmethod
    def _applies(timer: TimerRow, waiting: Set[int], last: dict[int, int]) -> bool:
        """A seat's timer holds while that seat is waiting and has not moved since the timer was set."""
        return timer.seat in waiting and last.get(timer.seat, -1) < timer.version

    async def returned(self, user_id: int, away_until: str) -> None:
        """A player is back early: reminders that were waiting for the end of their vacation are due now."""
        await self.store.bring_forward_timers(user_id, away_until, iso(self.clock.now()))

    async def sync_all(self) -> int:
        """Sync every active game (at start-up); returns how many there are."""
        ids = await self.store.active_game_ids()
        for game_id in ids:
            game = await self.store.game(game_id)
            if game is not None:
                await self.sync(game)
        return len(ids)

    async def run_due(self) -> list[Fired]:
        """Claim and return every timer due now that still applies; cancel those that no longer do."""
        now = iso(self.clock.now())
        fired: dict[tuple[int, str], list[int]] = {}
        games: dict[int, GameRow] = {}
        lease = iso(self.clock.now() + TIMER_LEASE)
        for timer in await self.store.claim_due_timers(now, lease):
            game = games.get(timer.game_id) or await self.store.game(timer.game_id)
            if game is None:
                continue
            games[game.id] = game
            if not self._applies(timer, self._waiting(game), await self.store.last_plies(game.id)):
                await self.store.end_timer(timer.id, "cancelled", now)
            elif await self._claim(game, timer):
                fired.setdefault((game.id, timer.kind), []).append(timer.seat)
        return [
            Fired(games[game_id], engine.from_json(games[game_id].state or {}), kind, tuple(sorted(seats)))
            for (game_id, kind), seats in fired.items()
        ]


__all__ = ["REMIND", "Fired", "Timers"]
