"""The game service's base: its parts (store, clock, timers, computer), claims on background work shared by several
bot processes, loading a game, recording a result, and the settings that involve no game rules.

The service is one class per concern, each built on this base alone (:class:`bot.app.seating.Seating`: lobbies;
:class:`bot.app.turns.Turns`: moves, time limits, undo, nudges; :class:`bot.app.boards.Boards`: which board to post;
:class:`bot.app.endings.Endings`: resigning, aborting, forgetting), and :class:`bot.app.service.GameService` is all
of them; this base builds on :class:`Lookups` (what handlers read).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

import engine
from bot.app import quarantine, ratings
from bot.app.computer import DEFAULT_THINKING, THINKING_SECONDS, Computer
from bot.app.errors import Refusal
from bot.app.lookups import Lookups
from bot.app.outcomes import BOARD_LEASE, Turn, board_work
from bot.app.quotas import MEMBER_GAMES, MEMBER_GAMES_MAX, SERVER_GAMES, SERVER_GAMES_MAX, GameCaps, Hints
from bot.app.timers import LIMIT_HOURS, ON_TIMEOUT, Timers
from bot.infra.clock import Clock, SystemClock, iso
from bot.infra.store import Conflict, GameRow, Store
from engine import GameState, Move
from engine.transcript import export

log = logging.getLogger(__name__)


def check_thinking(seconds: int) -> None:
    if seconds not in THINKING_SECONDS:
        raise Refusal("bad_thinking")


def check_limit(time_limit_hours: int, on_timeout: str) -> None:
    if time_limit_hours not in LIMIT_HOURS:
        raise Refusal("bad_time_limit", choices=", ".join(f"{hours} h" for hours in LIMIT_HOURS if hours))
    if on_timeout not in ON_TIMEOUT:
        raise Refusal("bad_on_timeout")


class ServiceBase(Lookups):
    """Parts, claims, loading and recording results (see the module's docstring for the classes built on it)."""

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
        self.lease = lease
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self.computer = computer
        self.clock = clock or SystemClock()
        self.timers = Timers(store, self.clock, remind_after, lease)
        self.hints = Hints()
        # Who holds a claim: this process's durable identity (its shards) and this life of it (a generation), so a
        # restarted process takes its own claims back at once (:meth:`take_over_own`) and waits only for others'.
        self.identity = identity or f"{socket.gethostname()}:{os.getpid()}"
        self.worker = f"{self.identity}#{time.time_ns():x}{secrets.token_hex(2)}"
        self.timers.owner = self.worker
        self.on_settled: list[Callable[[GameRow], None]] = []
        """Called with every game whose result was just recorded (leagues record theirs from it)."""

    async def claim(self, work: str, lease: timedelta) -> bool:
        """Take ``work`` for this process for ``lease`` (or extend it); False when another process holds it. A
        process that dies keeps it until the lease runs out; then another one takes it. The operator's lease
        (``AZUL_LEASE_SECONDS``), when set, replaces every kind's own."""
        now = self.clock.now()
        return await self.store.timers.claim(work, self.worker, iso(now), iso(now + (self.lease or lease)))

    async def release(self, work: str) -> None:
        await self.store.timers.release(work, self.worker)

    async def take_over_own(self) -> int:
        """At start-up: take back the claims this process's previous life held (it died holding them)."""
        return await self.store.timers.take_over(self.identity, self.worker, iso(self.clock.now()))

    async def open_game(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The channel's open game; a quarantined one only for ``broken_too`` (abort and export), else refused."""
        game = await self.store.games.open_game_in(channel_id)
        if game is None:
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def shown_game(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The game ``/azul board`` and ``status`` describe: the open one (here, or in the thread it moved to from
        here), else the last one that was played out."""
        game = (
            await self.store.games.open_game_in(channel_id)
            or await self.store.games.open_game_from(channel_id)
            or await self.store.games.latest_game_in(channel_id)
        )
        if game is None or game.status == "aborted":
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def refuse_broken(self, game: GameRow) -> None:
        """Refuse to act on a quarantined game (:mod:`bot.app.quarantine`), quarantining it if it has just turned out to
        be broken."""
        why = quarantine.diagnose(game)
        if why is None:
            return
        # Marked in the store (and logged) once, whether the row was found damaged now or before: a row read just now
        # carries why it cannot be read, but is not marked yet.
        await quarantine.quarantine(self.store, game, why)
        raise Refusal("game_broken", game=game.id)

    async def active_game(self, channel_id: int, game_id: int | None = None, version: int | None = None) -> GameRow:
        """The running game of the channel (``game_id``: the one a button names, read by its id alone: a channel
        holds one open game, so the named one, open and there, is it), or why not."""
        named = await self.store.games.game(game_id) if game_id is not None else None
        if named is not None and named.channel_id == channel_id:
            if not named.is_open:  # a button's game is over: say so
                raise Refusal("finished" if named.status == "over" else "aborted")
            await self.refuse_broken(named)
            game = named
        else:
            game = await self.open_game(channel_id)
            if game_id is not None and game.id != game_id:
                raise Refusal("stale")
        if game.status == "lobby":  # how full it is, and who starts it
            raise Refusal(
                "not_started_lobby", seats=len(game.seats), max=game.max_seats, creator=f"<@{game.creator_id}>"
            )
        if game.status != "active":
            raise Refusal("not_started")
        if version is not None and game.version != version:
            raise Refusal("stale")
        return game

    @staticmethod
    def state_of(game: GameRow) -> GameState:
        if game.state is None:
            raise Refusal("not_started")
        return engine.from_json(game.state)

    async def replayed(self, game: GameRow) -> GameState:
        """The state reached by replaying the whole move log: must equal the snapshot."""
        moves = await self.store.moves.moves(game.id)
        return engine.replay(game.variant, len(game.by_seat()), game.seed, moves, game.options or None)

    async def raw_record(self, game: GameRow, user_id: int, *, is_admin: bool) -> dict[str, Any]:
        """A quarantined game's row exactly as stored, with its seats and move log: for its creator or an admin."""
        if user_id != game.creator_id and not is_admin:
            raise Refusal("broken_export_creator")
        return {
            "game": game.id,
            "broken": game.broken,
            "row": await self.store.games.raw_game(game.id),
            "seats": [{"user_id": s.user_id, "name": s.name, "seat": s.seat, "level": s.level} for s in game.seats],
            "log": [{"seat": seat, "notation": notation} for seat, notation in await self.store.moves.moves(game.id)],
        }

    async def transcript(self, channel_id: int) -> tuple[GameRow, dict[str, Any]]:
        """The JSON transcript of the game ``/azul board`` shows (running or the last finished one), from its log.

        A finished game's replays from its seed. A running game's holds only what the table has seen (the log, the
        deals as they came, the table now): its seed and generator state would let anyone replay the log a move
        further and read the next deal, and its face-down expansions are face down."""
        game = await self.shown_game(channel_id)
        if game.state is None:
            raise Refusal("not_started")
        moves = await self.store.moves.moves(game.id)
        players = game.by_seat()
        document = await asyncio.to_thread(
            export, game.variant, len(players), game.seed, moves, game.options or None
        )  # replaying a long game takes a moment: keep the event loop free
        if game.status != "over":
            del document["seed"]
            document["state"] = engine.public_json(self.state_of(game))
        resigned = (game.result or {}).get("resigned")
        return game, {
            "game": game.id,
            "names": [seat.name for seat in players],
            "status": game.status,
            "resigned": resigned,
            **document,
            "options": game.options,
            "log": [{"seat": seat, "notation": notation} for seat, notation in moves],
        }

    async def _reload(self, game_id: int) -> GameRow:
        game = await self.store.games.game(game_id)
        if game is None:
            raise Refusal("no_game")
        return game

    async def _changed(self, game_id: int) -> GameRow:
        """The game as saved after a change, with its timers made to match who is waiting now."""
        game = await self._reload(game_id)
        await self.timers.sync(game)
        return game

    async def game_caps(self, guild_id: int | None) -> GameCaps:
        """A server's caps on open games (see :mod:`bot.app.quotas`)."""
        member, server = await self.store.servers.game_caps(guild_id)
        return GameCaps(member or MEMBER_GAMES, server or SERVER_GAMES)

    async def set_game_caps(self, guild_id: int, member: int | None, server: int | None) -> GameCaps:
        if member is not None and not 1 <= member <= MEMBER_GAMES_MAX:
            raise Refusal("bad_member_games", max=MEMBER_GAMES_MAX)
        if server is not None and not 1 <= server <= SERVER_GAMES_MAX:
            raise Refusal("bad_server_games", max=SERVER_GAMES_MAX)
        await self.store.servers.set_game_caps(guild_id, member, server)
        return await self.game_caps(guild_id)

    def holds_board(self, turn: Turn) -> bool:
        """Whether the board after ``turn`` waits: its mover is in the middle of a run (the grey wall's lines typed
        one command at a time: they may play the same command again) and nobody else newly must act. The channel
        then gets one post when the run is over, telling all of it (:meth:`told`), and pings go out then."""
        if turn.over or turn.seat not in turn.to_act or turn.to_ping():
            return False
        if not engine.get_variant(turn.game.variant).is_run(turn.move.command):
            return False
        return any(move.command == turn.move.command for move in engine.legal_moves(turn.state, turn.seat))

    async def _record(
        self,
        game: GameRow,
        state: GameState,
        seat: int,
        moves: Sequence[Move],
        *,
        interaction_id: int | None,
        cause: str = "",
        name: str | None = None,
    ) -> Turn:
        """Apply ``moves`` in order (each validated by the engine) and save them with the new state in one
        transaction, guarded by the game's version; ``name``: what the mover goes by now (their seat is renamed in
        the same write when it changed). The same write claims the new version's board for this process, so the
        turn's poster needs no claim of its own; the turn carries the row as saved."""
        before = engine.to_act(state)
        new_state, events = state, []
        for move in moves:
            new_state, more = engine.apply(new_state, seat, move)
            events.extend(more)
        finished = self._result_of(game, new_state) if engine.is_over(new_state) else None
        notations = [str(move) for move in moves]
        to_act = frozenset() if finished else engine.to_act(new_state)
        status = "over" if finished else "active"
        told = Turn(replace(game, status=status), new_state, before, to_act, seat, moves[-1], events, cause)
        # The board is claimed with the move, unless it waits for the rest of a run (then the run's end claims it).
        board = "" if self.holds_board(told) else board_work(game.id, game.version + len(moves))
        mover = game.by_seat()[seat]
        renamed = name if name and mover.user_id is not None and mover.name != name else None
        reset = not cause and mover.timeouts > 0  # the player's own move: their timeouts start over
        now = self.clock.now()
        snapshot = engine.to_json(new_state)
        try:
            stamp = await self.store.moves.record_moves(
                game.id,
                version=game.version,
                seat=seat,
                notations=notations,
                state=snapshot,
                interaction_id=interaction_id,
                finished=finished,
                cause=cause,
                rename=(mover.user_id, renamed) if renamed and mover.user_id is not None else None,
                reset_timeouts=reset,
                claim=(board, self.worker, iso(now + (self.lease or BOARD_LEASE))) if board else None,
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "raced") from None
        played = " ".join(notations)
        log.info(
            "game %s: ply %s seat %s played %s%s", game.id, game.version, seat, played, f" ({cause})" * bool(cause)
        )
        seats = tuple(
            replace(each, name=renamed or each.name, timeouts=0 if reset else each.timeouts)
            if each.seat == seat
            else each
            for each in game.seats
        )
        saved = replace(
            game,
            version=game.version + len(moves),
            epoch=self.store.epoch,
            state=snapshot,
            turn_since=stamp,
            status=status,
            result=finished,
            seats=seats,
        )
        await self.timers.sync(saved)
        if finished:
            await self.settle(saved)
        undoable = game.undo and not finished and not cause and not engine.reveals(state, new_state)
        return Turn(
            saved, new_state, before, to_act, seat, moves[-1], events, cause, undoable, plies=len(moves), board=board
        )

    @classmethod
    def _result_of(cls, game: GameRow, state: GameState, resigned: Sequence[int] = ()) -> dict[str, Any]:
        """The result of ``game`` ending at ``state``: every seat whose person left it (resigned, dropped, withdrew
        from its league, or still handed to the computer after running out of time) ranks after those who stayed.
        ``resigned``: the seat whose resignation ends the game, if one does."""
        return cls._result(
            state,
            resigned=[*game.resigned_seats(), *resigned],
            dropped=game.dropped_seats(),
            stood_in=game.stand_in_seats(),
        )

    @staticmethod
    def _result(
        state: GameState, resigned: Sequence[int] = (), dropped: Sequence[int] = (), stood_in: Sequence[int] = ()
    ) -> dict[str, Any]:
        """Scores and standings: those who played to the end by the rules' standings, then everyone who left,
        sharing the last place whatever the computer scored for them (how long someone stayed before leaving is
        no result, and ranking leavers by it would only start a race to leave second). ``resigned`` may also be
        among ``dropped`` (a player who resigned while the others played on was dropped too); ``stood_in``: seats
        the computer still plays for people whose time ran out too often."""
        quit_ = list(dict.fromkeys(resigned))  # in the order they resigned: the last one ended the game
        dropped_ = sorted(set(dropped) - set(quit_))
        timed_out = sorted(set(stood_in) - set(dropped_) - set(quit_))
        gone = {*timed_out, *dropped_, *quit_}
        standings = [[s for s in group if s not in gone] for group in engine.standings(state)]
        standings = [group for group in standings if group]
        standings += [sorted(gone)] if gone else []
        result: dict[str, Any] = {
            "scores": engine.scores(state),
            "standings": standings,
            "resigned": quit_[-1] if quit_ else None,
        }
        if timed_out or dropped_ or len(quit_) > 1:
            outcomes = ["played"] * len(result["scores"])
            for seats, outcome in ((timed_out, "timed_out"), (dropped_, "dropped"), (quit_, "resigned")):
                for seat in seats:
                    outcomes[seat] = outcome
            result["outcomes"] = outcomes
        return result

    async def settle(self, game: GameRow) -> None:
        """Record a finished game's result and ratings. A failure here must not undo the finished game: it is
        logged, and :meth:`settle_pending` (run at start-up) records the result later."""
        try:
            await ratings.settle(self.store, game)
        except Exception:
            log.exception("game %s: its result could not be recorded", game.id)
            return
        for listener in self.on_settled:
            listener(game)

    async def settle_pending(self) -> int:
        return await ratings.settle_pending(self.store)

    @staticmethod
    def _replay(game: GameRow, moves: list[tuple[int, str]]) -> GameState:
        return engine.replay(game.variant, len(game.by_seat()), game.seed, moves, game.options or None)

    async def set_server_defaults(self, guild_id: int, time_limit_hours: int, on_timeout: str) -> None:
        check_limit(time_limit_hours, on_timeout)
        await self.store.servers.set_server_defaults(guild_id, time_limit_hours, on_timeout)

    async def server_thinking(self, guild_id: int | None) -> int:
        """How long computer players think per move in a server's new games."""
        return await self.store.servers.server_thinking(guild_id) or DEFAULT_THINKING

    async def set_server_thinking(self, guild_id: int, seconds: int) -> None:
        check_thinking(seconds)
        await self.store.servers.set_server_thinking(guild_id, seconds)

    async def set_notify(self, user_id: int, enabled: bool, locale: str | None = None) -> None:
        """Opt in or out of turn DMs (written in ``locale``); opting in again retries closed DMs."""
        await self.store.users.set_user(user_id, notify_dm=enabled, dm_closed_told=False, locale=locale)

    async def move_to_thread(self, game: GameRow, thread_id: int) -> GameRow:
        """The started ``game`` is played in ``thread_id`` from now on (its lobby stays in the channel)."""
        if not await self.store.games.move_to_thread(game.id, thread_id):
            raise Refusal("raced")
        log.info("game %s: moved to thread %s", game.id, thread_id)
        return await self._changed(game.id)
