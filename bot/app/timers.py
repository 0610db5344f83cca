"""Timers: every reminder and deadline of a game is a row in the store with a due time; nothing lives in memory.

The rule is one function of the game, :meth:`Timers.sync`: after anything changes a game (it starts, a move is
played, it ends) the pending timers are made to match who is waiting. A seat that began to wait gets its timers,
keyed by the game's version at that moment, so a repeated sync never doubles one (the store's unique key); a seat
that is no longer waiting, or that has moved since its timer was set, loses its pending ones. At start-up every
active game is synced again, so a crash between a move and its sync heals, and the bot's timer loop then runs what
fell due while it was down, once.

:meth:`Timers.run_due` leases the due timers to this process (other bot processes skip them until the lease runs
out), claims each (pending → done, in one guarded write, so two runners never both run
it), checks it still applies, and returns what fired, grouped by game, for the bot to post. The time comes from an
injectable :class:`bot.infra.clock.Clock`.

A game with a time limit per move gives each waiting seat its own clock instead of the plain reminder: a warning at
half time and one an hour before (once each), and the deadline, all from when the seat began to wait (or from the
end of its player's vacation: an away player's clocks stand still, and going away or coming back moves their pending
deadlines by the time away). The warnings follow the player's reminder settings (none when reminders are off, later
in quiet hours, never after the deadline); the deadline follows none. The deadline is claimed by a lease rather than
marked done: the runner moves it a few minutes ahead, and the move the computer then makes for the seat cancels it;
a runner that dies before that move is saved leaves the deadline to fire again when the lease ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import engine
from bot.app import quarantine
from bot.app.outcomes import Known
from bot.infra.clock import Clock, iso, quiet_until
from bot.infra.store import GameRow, NewTimer, Store, TimerChanges, TimerRow, UserPrefs
from engine import GameState

HOUR = timedelta(hours=1)
REMIND = "remind"
DEADLINE = "deadline"
LIMIT_HALF = "limit_half"
LIMIT_HOUR = "limit_hour"
LIMIT_KINDS = (DEADLINE, LIMIT_HALF, LIMIT_HOUR)
LIMIT_HOURS = (0, 12, 24, 48, 72)
"""The time limits per move a game may have (0: none)."""
ON_TIMEOUT = ("computer", "drop")
"""What happens when a limit runs out: the computer plays that move, or the player is dropped."""
TIMEOUTS_IN_A_ROW = 3
"""After this many timeouts in a row the computer plays the seat for good (until its player takes it back)."""
DEADLINE_LEASE = timedelta(minutes=10)
"""How long a claimed deadline waits for its move before another runner may claim it again."""
TIMER_LEASE = timedelta(minutes=5)
"""How long a due timer stays with the process that claimed it; if that process dies, another runs it after this."""


@dataclass(frozen=True, slots=True)
class Fired:
    """Timers of one kind that ran together for one game: the seats they were for, and the game as it is now."""

    game: GameRow
    state: GameState
    kind: str
    seats: tuple[int, ...]
    versions: Mapping[int, int] = field(default_factory=dict)
    """Each seat's timer's version: when the seat began to wait."""
    to_finish: tuple[int, ...] = ()
    """Timers to mark done once their post is out (:meth:`Timers.finish`): a crash before it leaves them to run
    again when their lease ends."""


@dataclass(frozen=True, slots=True)
class Acts:
    """What syncing a game's timers goes by: each seat's last act (a move, or one taken back) and its latest move
    in the log, by ply, and the game's timers."""

    last: Mapping[int, int]
    moved: Mapping[int, int]
    timers: list[TimerRow]

    def with_moves(self, seat: int, ply: int) -> Acts:
        """As they are once ``seat`` has played moves up to ``ply``."""
        return Acts({**self.last, seat: ply}, {**self.moved, seat: ply}, self.timers)


class Timers:
    def __init__(
        self, store: Store, clock: Clock, remind_after: timedelta | None = None, lease: timedelta | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        self.remind_after = remind_after
        self.timer_lease = lease or TIMER_LEASE
        self.deadline_lease = lease or DEADLINE_LEASE
        """The operator's lease (``AZUL_LEASE_SECONDS``) replaces both when set."""
        self.owner = ""
        """Who holds this runner's leases (the service's ``worker``): a restart takes its own back at once."""

    async def sync(self, game: GameRow, state: GameState | None = None) -> None:
        """Make the game's pending timers match who is waiting now (see the module's docstring), in one write.
        ``state``: the game's position when the caller has it, so its snapshot is not read again."""
        last, moved, timers = await self.store.moves.acts_and_timers(game.id)
        waiting = self._waiting(game, state)
        fresh = self._fresh(waiting, last, timers)
        users = {user for seat, user in enumerate(self._users(game)) if seat in fresh and user is not None}
        prefs = await self.store.users.users(users) if users else {}
        await self.store.timers.apply_changes(game.id, self.changes(game, waiting, Acts(last, moved, timers), prefs))

    async def before_move(self, game: GameRow) -> tuple[Acts, Known]:
        """What a move of ``game`` reads to write its timers with it (:meth:`after_move`), and what its board's post
        goes by too (:class:`bot.app.outcomes.Known`), in one trip."""
        seated = [seat.user_id for seat in game.seats if seat.user_id is not None]
        last, moved, timers, prefs, own = await self.store.moves.before_move(game.id, seated)
        return Acts(last, moved, timers), Known(prefs, own, game.version)

    def after_move(self, game: GameRow, state: GameState, acts: Acts, prefs: Mapping[int, UserPrefs]) -> TimerChanges:
        """What a move's own transaction writes to the timers: ``game`` and ``state`` as the move leaves them,
        ``acts`` with its plies (:meth:`Acts.with_moves`), ``prefs``: of the people seated."""
        return self.changes(game, self._waiting(game, state), acts, prefs)

    def changes(self, game: GameRow, waiting: Set[int], acts: Acts, prefs: Mapping[int, UserPrefs]) -> TimerChanges:
        """The sync's rule, written out: the pending timers that no longer apply are cancelled; a seat that began to
        wait gets its timers, or those it had before its own move was taken back (so an undo never buys time)."""
        now = self.clock.now()
        cancel = tuple(
            timer.id
            for timer in acts.timers
            if timer.state == "pending" and not self._applies(timer, waiting, acts.last)
        )
        add: list[NewTimer] = []
        users = self._users(game)
        for seat in sorted(self._fresh(waiting, acts.last, acts.timers)):
            resumed = self._resumed(game, seat, acts)
            user_id = users[seat]
            if resumed is not None:
                add += resumed
            elif user_id is not None:
                add += self._waiting_timers(game, seat, prefs.get(user_id) or UserPrefs(user_id, False, False), now)
        return TimerChanges(cancel, tuple(add), iso(now))

    @staticmethod
    def _users(game: GameRow) -> list[int | None]:
        return [seat.user_id for seat in game.by_seat()]

    @staticmethod
    def _fresh(waiting: Set[int], last: Mapping[int, int], timers: list[TimerRow]) -> set[int]:
        """The waiting seats without a timer since their last act: they have just begun to wait."""
        return {
            seat
            for seat in waiting
            # A wait cancelled meanwhile (a move before it was taken back) is over: it does not count as started.
            if not any(t.seat == seat and t.version > last.get(seat, -1) and t.state != "cancelled" for t in timers)
        }

    @staticmethod
    def _resumed(game: GameRow, seat: int, acts: Acts) -> list[NewTimer] | None:
        """A seat whose own move was taken back waits on the clock it had before that move: the timers that move
        cancelled come back with their due times, and a warning already given is not given again. None when the
        seat's last act was not an undo (its clocks start afresh)."""
        moved = acts.moved.get(seat, -1)
        if acts.last.get(seat, -1) <= moved:
            return None
        before = [t for t in acts.timers if t.seat == seat and moved < t.version <= acts.last[seat]]
        if not before:
            return None
        wait = max(t.version for t in before)  # the wait the undone move ended (a later undo copies it forward)
        return [
            NewTimer(timer.kind, seat, game.version, timer.due_at)
            for timer in before
            if timer.version == wait and timer.state != "done"  # cancelled by the move, or by this sync
        ]

    def _waiting_timers(self, game: GameRow, seat: int, prefs: UserPrefs, now: datetime) -> list[NewTimer]:
        """The timers of a seat that has just begun to wait: with a time limit, its warnings and deadline (its clock
        starts now, or when its player's vacation ends); else a reminder after the player's own interval (every N
        hours), else the bot's; none when the bot's reminders are off."""
        if game.time_limit_hours:
            start = max(now, datetime.fromisoformat(prefs.away_until)) if prefs.away_until else now
            limit = timedelta(hours=game.time_limit_hours)
            return [
                NewTimer(kind, seat, game.version, iso(start + due))
                for kind, due in ((LIMIT_HALF, limit / 2), (LIMIT_HOUR, limit - HOUR), (DEADLINE, limit))
            ]
        if self.remind_after is None:
            return []
        every = timedelta(hours=prefs.remind_every_hours) if prefs.remind_every_hours else self.remind_after
        return [NewTimer(REMIND, seat, game.version, iso(now + every))]

    async def away_changed(self, user_id: int, was: str | None, until: str | None) -> None:
        """A player's vacation was set, changed or ended: their clocks stood still while away, so every pending
        deadline (and warning) of theirs moves by the change in how long they are away from now."""
        now = self.clock.now()

        def end(moment: str | None) -> datetime:
            return max(now, datetime.fromisoformat(moment)) if moment else now

        shift = end(until) - end(was)
        if not shift:
            return
        for timer in await self.store.timers.pending_timers_of_user(user_id, LIMIT_KINDS):
            due = datetime.fromisoformat(timer.due_at) + shift
            await self.store.timers.reschedule_timer(timer.id, timer.due_at, iso(max(due, now)))

    async def _claim_deadline(self, game: GameRow, timer: TimerRow) -> bool:
        """Lease a deadline for running now (see the module's docstring); an away player never times out (a
        vacation set before its clock was moved): their deadline waits an hour past their return."""
        now = self.clock.now()
        user_id = game.by_seat()[timer.seat].user_id
        prefs = await self.store.users.user(user_id) if user_id is not None else None
        if prefs is not None and prefs.away_until and prefs.away_until > iso(now):
            later = datetime.fromisoformat(prefs.away_until) + HOUR
            await self.store.timers.reschedule_timer(timer.id, timer.due_at, iso(later))
            return False
        return await self.store.timers.lease_deadline(
            timer.id, timer.due_at, iso(now + self.deadline_lease), self.owner
        )

    async def _claim(self, game: GameRow, timer: TimerRow, finish: list[int]) -> bool:
        """Take a due timer for running now; a reminder follows its player's settings: none when they are off,
        later when it falls in their quiet hours, and again after their interval when they asked for repeats. One
        that runs once is added to ``finish``: it is marked done after its post."""
        now = self.clock.now()
        if timer.kind == DEADLINE:
            return await self._claim_deadline(game, timer)
        if timer.kind not in {REMIND, LIMIT_HALF, LIMIT_HOUR}:
            return await self.store.timers.end_timer(timer.id, "done", iso(now))
        user_id = game.by_seat()[timer.seat].user_id
        prefs = await self.store.users.user(user_id) if user_id is not None else None
        if prefs is None or not prefs.reminders:  # off, or a computer seat (no one to remind)
            await self.store.timers.end_timer(timer.id, "cancelled", iso(now))
            return False
        if prefs.away_until and prefs.away_until > iso(now):  # on vacation: the reminder waits for their return
            await self.store.timers.reschedule_timer(timer.id, timer.due_at, prefs.away_until)
            return False
        quiet_end = quiet_until(now, prefs.timezone, prefs.quiet_start, prefs.quiet_end)
        if quiet_end is not None:
            await self.store.timers.reschedule_timer(timer.id, timer.due_at, iso(quiet_end))
            return False
        if prefs.remind_every_hours and timer.kind == REMIND:  # a limit's warnings come once each
            again = now + timedelta(hours=prefs.remind_every_hours)
            return await self.store.timers.reschedule_timer(timer.id, timer.due_at, iso(again))
        finish.append(timer.id)  # leased to this runner by run_due; marked done after its post (finish)
        return True

    async def finish(self, fired: Fired) -> None:
        """The post of ``fired`` is out (or Discord refused it for good): its once-only timers are done."""
        for timer_id in fired.to_finish:
            await self.store.timers.end_timer(timer_id, "done", iso(self.clock.now()))

    @staticmethod
    def _waiting(game: GameRow, state: GameState | None = None) -> Set[int]:
        """The seats whose people keep the table waiting: never one the computer plays (no one to remind)."""
        if game.status != "active" or not game.state:
            return set()
        position = state if state is not None else engine.from_json(game.state)
        return engine.to_act(position) - set(game.computer_seats())

    @staticmethod
    def _applies(timer: TimerRow, waiting: Set[int], last: Mapping[int, int]) -> bool:
        """A seat's timer holds while that seat is waiting and has not moved since the timer was set."""
        return timer.seat in waiting and last.get(timer.seat, -1) < timer.version

    async def returned(self, user_id: int, away_until: str) -> None:
        """A player is back early: reminders that were waiting for the end of their vacation are due now."""
        await self.store.timers.bring_forward_timers(user_id, away_until, iso(self.clock.now()))

    async def sync_all(self) -> tuple[int, int]:
        """At start-up: quarantine every open game whose stored row cannot be read, and sync the timers of the
        active others (heal those a crash left unset). One read of each game serves both, and its sync follows that
        read at once (another process may move it meanwhile). Returns (active games synced, games quarantined)."""
        synced = broken = 0
        for game_id in await self.store.games.open_game_ids():
            try:
                game = await self.store.games.game(game_id)
                if game is None:
                    continue
                why, state = quarantine.examine(game)
                if why is not None:
                    await quarantine.quarantine(self.store, game, why)
                    broken += 1
                elif game.status == "active":
                    await self.sync(game, state)
                    synced += 1
            except Exception as error:
                await quarantine.after_fault(self.store, game_id, error)
        return synced, broken

    async def run_due(self) -> list[Fired]:
        """Claim and return every timer due now that still applies; cancel those that no longer do."""
        now = iso(self.clock.now())
        fired: dict[tuple[int, str], dict[int, int]] = {}
        finish: dict[tuple[int, str], list[int]] = {}
        games: dict[int, GameRow] = {}
        due = await self.store.timers.claim_due_timers(now, iso(self.clock.now() + self.timer_lease), owner=self.owner)
        # A limit's warning that comes due with its deadline (the bot was down) would only be noise: the deadline runs.
        expiring = {(t.game_id, t.seat, t.version) for t in due if t.kind == DEADLINE}
        for timer in due:
            try:
                game = games.get(timer.game_id) or await self.store.games.game(timer.game_id)
                if game is None:
                    continue
                late = timer.kind in {LIMIT_HALF, LIMIT_HOUR} and (game.id, timer.seat, timer.version) in expiring
                if late or not self._applies(timer, self._waiting(game), await self.store.moves.last_plies(game.id)):
                    await self.store.timers.end_timer(timer.id, "cancelled", now)
                elif await self._claim(game, timer, finish.setdefault((game.id, timer.kind), [])):
                    games[game.id] = game
                    fired.setdefault((game.id, timer.kind), {})[timer.seat] = timer.version
            except Exception as error:  # one game's bad row must not hold back the others' timers
                await quarantine.after_fault(self.store, timer.game_id, error)
        return [
            Fired(
                games[game_id],
                engine.from_json(games[game_id].state or {}),
                kind,
                tuple(sorted(seats)),
                seats,
                tuple(finish.get((game_id, kind), ())),
            )
            for (game_id, kind), seats in fired.items()
        ]

    async def deadlines(self, game: GameRow) -> dict[int, datetime]:
        """When each waiting seat's time runs out (none in a game without a limit)."""
        if not game.time_limit_hours:
            return {}
        waiting = self._waiting(game)
        return {
            timer.seat: datetime.fromisoformat(timer.due_at)
            for timer in await self.store.timers.timers_of(game.id)
            if timer.kind == DEADLINE and timer.state == "pending" and timer.seat in waiting
        }


__all__ = [
    "DEADLINE",
    "LIMIT_HALF",
    "LIMIT_HOUR",
    "LIMIT_HOURS",
    "LIMIT_KINDS",
    "ON_TIMEOUT",
    "REMIND",
    "TIMEOUTS_IN_A_ROW",
    "Fired",
    "Timers",
]
