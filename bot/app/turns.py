"""Moves and turns: a move resolved from what was given, checked by the engine and saved in one transaction guarded
by the game's version; the computer's moves, hints, time limits, taking a move back, and nudges.

When the game moved on between loading and saving (or since the board a button belongs to), the move is checked
again on the newest version: in a simultaneous phase (several players placing at once) moves by different players
all land while they stay legal, and a player whose own move landed meanwhile is told ``already_played``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import engine
from bot.app import ratings
from bot.app.computer import LEVELS, STRONGEST, move_seed
from bot.app.errors import Refusal
from bot.app.move_entry import read_given
from bot.app.outcomes import Needed, Nudged, TimedOut, Turn, Undone
from bot.app.quotas import give_back_nudges, take_nudges
from bot.app.service_base import ServiceBase
from bot.app.timers import TIMEOUTS_IN_A_ROW
from bot.games import adapter_of
from bot.infra.clock import iso, quiet_until
from bot.infra.store import Conflict, GameRow
from data.i18n import SUPPORTED
from engine import GameState, Move
from engine.core import Rng

COMPUTER_MARK = "🤖"
"""A computer seat in a refusal's words (posts name it by number and level: :func:`bot.app.narration.seat_label`)."""

log = logging.getLogger(__name__)

NUDGE_EVERY = timedelta(hours=12)
"""How often one seated player may nudge the awaited players of one game."""

RACE_RETRIES = 8
"""Times a move is checked again on a newer version before it is refused as ``raced`` (each retry means another
player's move landed meanwhile, so this bounds the work per move, not the number of players)."""

COMPUTER_CAUSES = ("computer_seat", "stand_in", "time_limit")


def _norm(token: str | None) -> str:
    return (token or "").strip().casefold()


def matching(moves: list[Move], command: str, given: Mapping[str, str | None]) -> list[Move]:
    """The moves of ``command`` that agree with every non-empty option in ``given``."""
    wanted = {option: _norm(value) for option, value in given.items() if _norm(value)}
    found = []
    for move in moves:
        if move.command != command:
            continue
        choices = {option: _norm(token) for option, token in move.choices()}
        if all(choices.get(option) == value for option, value in wanted.items()):
            found.append(move)
    return found


def first_open_option(candidates: list[Move]) -> Needed:
    """The first option (in choice order) on which several candidate moves still differ."""
    order = [option for option, _ in candidates[0].choices()]
    for option in order:
        tokens = list(dict.fromkeys(dict(move.choices()).get(option, "") for move in candidates))
        if len(tokens) > 1:
            return Needed(option, tokens)
    return Needed(order[-1] if order else "", [])


class Turns(ServiceBase):
    """Moves, the computer's turns, hints, time limits, undo and nudges."""

    @staticmethod
    def check_command(game: GameRow, command: str) -> None:
        """Refuse a move command that the game's variant does not declare (``/azul-move place`` in a game of Azul)."""
        variant = engine.get_variant(game.variant)
        if variant.command(command) is None:  # name the game's own commands: take and acquire are easy to confuse
            moves = [declared.name for declared in variant.commands]
            raise Refusal("command_not_in_game", command=command, variant=game.variant, moves=moves)

    def seat_to_act(self, game: GameRow, state: GameState, user_id: int) -> int:
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if seat not in engine.to_act(state):
            seats = game.by_seat()
            waiting = [seats[other] for other in sorted(engine.to_act(state)) if other < len(seats)]
            since = int(datetime.fromisoformat(game.turn_since).timestamp())
            names = [COMPUTER_MARK if other.is_computer else other.name for other in waiting]
            raise Refusal("not_your_turn", players=names, since=f"<t:{since}:R>")
        return seat

    def resolve(
        self, game: GameRow, state: GameState, seat: int, command: str, given: Mapping[str, str | None]
    ) -> Move:
        """The one legal move ``given`` describes, or why not (:class:`Refusal` or the engine's error)."""
        legal = engine.legal_moves(state, seat)
        candidates = matching(legal, command, given)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            needed = first_open_option(candidates)
            raise Refusal("need_option", option=needed.option)
        filled = {option: value.strip() for option, value in given.items() if value and value.strip()}
        variant = engine.get_variant(game.variant)
        move = variant.move_from_choices(command, filled)
        engine.apply(state, seat, move)  # raises the rules' reason; a legal move would have matched above
        return move

    def resolve_run(
        self, game: GameRow, state: GameState, seat: int, command: str, run: Sequence[Mapping[str, str | None]]
    ) -> list[Move]:
        """The legal moves a run of options describes, each read in the position the ones before it leave."""
        moves: list[Move] = []
        for given in run:
            if moves:
                state, _ = engine.apply(state, seat, moves[-1])
                if seat not in engine.to_act(state):
                    raise Refusal("stale")  # the run ended sooner than the player was shown
            moves.append(self.resolve(game, state, seat, command, given))
        return moves

    async def check_moved_on(self, game: GameRow, user_id: int, seen: int) -> None:
        """The game is at a newer version than the one the player saw: refuse only when that matters.

        Their own move landed meanwhile (a double click, two devices) → ``already_played``; a board they are behind on
        while it is their turn again → ``stale``. Other players' moves in a simultaneous phase are no reason to refuse:
        the move is then checked against the newest state like any other.
        """
        if game.version == seen:
            return
        seat = game.seat_of(user_id)
        if seat is None or seat not in await self.store.moves.seats_moved_since(game.id, seen):
            return
        if game.state is not None and seat in engine.to_act(self.state_of(game)):
            if seen >= game.board_version:
                return  # they saw the newest board there is: their own moves since are held back (a run)
            raise Refusal("stale")
        raise await self.lost_to_the_deadline(game, user_id) or Refusal("already_played")

    async def move(
        self,
        channel_id: int,
        user_id: int,
        command: str,
        given: Mapping[str, str | None],
        *,
        interaction_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
        name: str | None = None,
        then: Sequence[Mapping[str, str | None]] = (),
        typed_in: str | None = None,
    ) -> Turn:
        """Play ``command`` with the options ``given`` for ``user_id``; ``version``: the one the player saw;
        ``typed_in``: the options are words typed in this locale (a slash command's), read here as tokens
        (:func:`bot.app.move_entry.read_given`); ``name``: what the player goes by now (their seat follows it).

        ``then``: the options of more moves of the same command the same seat plays right after it (a run: the
        grey wall's columns, line by line), saved with it in one transaction or not at all; the turn tells of all.
        The turn carries the game as saved: nothing reads it again to post the board.
        """
        try:
            return await self._move(
                channel_id, user_id, command, given, interaction_id, game_id, version, name, then, typed_in
            )
        except Refusal as refusal:
            # A retried interaction whose move landed finds the game moved on: say it was done, not why it cannot be.
            if (
                refusal.key != "duplicate"
                and interaction_id is not None
                and await self.store.moves.move_count_by_interaction(interaction_id)
            ):
                raise Refusal("duplicate") from None
            raise

    async def _move(  # noqa: PLR0917 - move()'s arguments, passed on
        self,
        channel_id: int,
        user_id: int,
        command: str,
        given: Mapping[str, str | None],
        interaction_id: int | None,
        game_id: int | None,
        version: int | None,
        name: str | None,
        then: Sequence[Mapping[str, str | None]],
        typed_in: str | None,
    ) -> Turn:
        seen = version
        for _ in range(RACE_RETRIES):
            game = await self.active_game(channel_id, game_id)
            seen = game.version if seen is None else seen
            await self.check_moved_on(game, user_id, seen)
            self.check_command(game, command)
            state = self.state_of(game)
            try:
                seat = self.seat_to_act(game, state, user_id)
            except Refusal as refusal:
                if refusal.key != "not_your_turn":
                    raise
                raise await self.lost_to_the_deadline(game, user_id) or refusal from None
            if seat in game.computer_seats():
                raise Refusal("computer_plays_your_seat")
            first = read_given(state, seat, command, given, typed_in) if typed_in is not None else given
            moves = self.resolve_run(game, state, seat, command, [first, *then])
            try:
                return await self._record(game, state, seat, moves, interaction_id=interaction_id, name=name)
            except Refusal as refusal:
                if refusal.key != "raced":
                    raise
                # Another move landed first (a simultaneous phase): check this one again against the newest state.
                log.info("game %s: version %s moved on before seat %s's move was saved", game.id, game.version, seat)
        raise Refusal("raced")

    async def lost_to_the_deadline(self, game: GameRow, user_id: int) -> Refusal | None:
        """Why a move arrived too late, when the time limit's stand-in made the seat's newest move: the player is
        told their time ran out and what the computer played for them, not merely that it is not their turn."""
        seat = game.seat_of(user_id)
        rows = await self.store.moves.move_rows(game.id)
        own = [row for row in rows if row.seat == seat]
        if seat is None or not own or own[-1].cause != "time_limit":
            return None
        before = [(row.seat, row.notation) for row in rows if row.ply < own[-1].ply]
        state = await asyncio.to_thread(  # replaying a long game takes a moment: keep the event loop free
            engine.replay, game.variant, len(game.by_seat()), game.seed, before, game.options or None
        )
        _, events = engine.apply(state, seat, own[-1].notation)
        describe, names = adapter_of(game.variant).describe, [seat.name for seat in game.by_seat()]
        played = {locale: describe(events, names, locale).split("\n")[0] for locale in SUPPORTED}
        return Refusal("time_ran_out", played=played)

    async def play_for(self, game_id: int, seat: int, *, level: str, cause: str) -> Turn:
        """The computer at ``level`` moves for ``seat``: searched in the pool, then saved exactly like a person's
        move (the same log, no interaction id) and guarded by the version, so a move made meanwhile wins the race
        (:class:`Refusal` ``raced``) and nothing is saved twice. ``cause`` says why, for the post."""
        if self.computer is None:
            raise RuntimeError("this service has no computer players")
        if cause not in COMPUTER_CAUSES:
            raise ValueError(f"unknown cause {cause!r}")
        game = await self._reload(game_id)
        if game.status != "active":
            raise Refusal("finished" if game.status == "over" else "not_started")
        state = self.state_of(game)
        if seat not in engine.to_act(state):
            raise Refusal("not_your_turn")
        seed = move_seed(game.seed, game.version, seat)
        # Its own seats and stand-ins for absent players alike think for the game's time.
        move = await self.computer.choose(
            state, seat, level, seed, game=game.id, creator=game.creator_id, seconds=game.thinking
        )
        return await self._record(game, state, seat, [move], interaction_id=None, cause=cause)

    async def hint(self, channel_id: int, user_id: int) -> tuple[GameRow, Move, list[tuple[str, dict[str, Any]]]]:
        """The move the strongest level would make for the asking player now, and why: only where the game's
        creator allowed hints, and only on the player's own turn."""
        if self.computer is None:
            raise RuntimeError("this service has no computer players")
        game = await self.active_game(channel_id)
        # Rated games never allow hints (``create`` refuses both, and hints make a game casual by default).
        if not game.hints or ratings.is_rated(game):
            raise Refusal("hints_off")
        state = self.state_of(game)
        seat = self.seat_to_act(game, state, user_id)
        if seat in game.computer_seats():
            raise Refusal("computer_plays_your_seat")
        computer, seed = self.computer, move_seed(game.seed, game.version, seat)

        async def search() -> Any:
            # The search sees one possible world of what is hidden, never the real bag or stacks: a hint's reasons
            # (what the next deal gives, say) must not tell the player what the rules hide.
            world = engine.variant_of(state).redeterminize(state, Rng(seed))
            return await computer.hint(world, seat, seed, game=game.id, creator=game.creator_id)

        move, reasons = await self.hints.hint((game.id, game.version, seat), user_id, self.clock.now(), search)
        return game, move, reasons

    async def computer_to_act(self, game_id: int) -> list[tuple[int, str]]:
        """The seats the computer plays that must act now in ``game_id``, with their levels (seat order)."""
        game = await self.store.games.game(game_id)
        if game is None or game.status != "active" or game.state is None:
            return []
        to_act = engine.to_act(self.state_of(game))
        by_seat = game.by_seat()
        return [(seat, by_seat[seat].level or "") for seat in game.computer_seats() if seat in to_act]

    async def set_controller(self, game_id: int, seat: int, level: str | None) -> GameRow:
        """Hand a person's seat to the computer at ``level`` (a stand-in), or back to them with ``None``."""
        if level is not None and level not in LEVELS:
            raise Refusal("bad_level")
        if not await self.store.games.set_controller(game_id, seat, level):
            raise Refusal("raced")
        return await self._changed(game_id)  # a seat the computer plays has no reminders

    async def drop(self, game_id: int, seat: int) -> GameRow:
        """The person leaves the game for good (they left its league): the strongest computer plays the seat to the
        end, and they rank after everyone who stayed whatever it scores."""
        if not await self.store.games.drop_seat(game_id, seat, STRONGEST):
            raise Refusal("raced")
        return await self._changed(game_id)

    async def time_out(self, game_id: int, seat: int, since: int) -> TimedOut | None:
        """The seat's time, running since version ``since``, ran out: the strongest computer plays that move for
        it, or (the game's choice) the player is dropped first and the computer plays the seat from now on. After
        :data:`TIMEOUTS_IN_A_ROW` timeouts in a row the seat is the computer's until its player takes it back.
        None when the seat no longer waits (it moved, or the computer plays it already)."""
        if not await self._still_late(game_id, seat, since, dropped=False):
            return None
        game = await self._reload(game_id)
        dropped = game.on_timeout == "drop" and await self.store.games.drop_seat(game.id, seat, STRONGEST)
        for _ in range(RACE_RETRIES):
            try:
                turn = await self.play_for(game.id, seat, level=STRONGEST, cause="time_limit")
                break
            except Refusal as refusal:  # another player's move landed first (a simultaneous phase): look again
                if refusal.key != "raced" or not await self._still_late(game_id, seat, since, dropped=dropped):
                    raise
        else:
            raise Refusal("raced")
        timeouts = await self.store.games.count_timeout(game.id, seat)
        handed = not dropped and not turn.over and timeouts >= TIMEOUTS_IN_A_ROW
        if handed:
            game = await self.set_controller(game.id, seat, STRONGEST)
            turn = replace(turn, game=game)
        log.info(
            "game %s: seat %s ran out of time (%s in a row)%s", game.id, seat, timeouts, " and was dropped" * dropped
        )
        return TimedOut(turn, timeouts, handed, dropped)

    async def _still_late(self, game_id: int, seat: int, since: int, *, dropped: bool) -> bool:
        """The seat still owes the move it has waited for since version ``since`` (a dropped seat is the computer's
        but still owes it)."""
        game = await self._reload(game_id)
        if game.status != "active" or game.state is None or (seat in game.computer_seats() and not dropped):
            return False
        moved = (await self.store.moves.last_plies(game.id)).get(seat, -1) >= since
        return seat in engine.to_act(self.state_of(game)) and not moved

    async def take_back(self, channel_id: int, user_id: int) -> GameRow:
        """A player takes back the seat the computer plays for them (never one dropped for their time)."""
        game = await self.active_game(channel_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:
            raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
        if seat not in game.computer_seats():
            raise Refusal("seat_is_yours")
        if not await self.store.games.take_back(game.id, seat):
            raise Refusal("raced")
        return await self._changed(game.id)

    async def undo_move(
        self,
        channel_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Undone:
        """Take back ``user_id``'s last move: only their own, only while nobody has acted since, only when it showed
        nothing hidden, and only in a game whose creator left undo on. ``version``: the version the move made (an
        Undo button's), refused as moved on when the game is past it.

        The move leaves the log and the snapshot becomes the replay of the rest, in one write guarded by the version
        (which still moves forward), so the log replays to the snapshot and a retried undo applies once."""
        if interaction_id is not None and await self.store.moves.move_count_by_interaction(interaction_id):
            raise Refusal("duplicate")
        game = await self._undo_game(channel_id, game_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if not game.undo:
            raise Refusal("undo_off")
        if version is not None and game.version != version:
            raise Refusal("undo_moved_on")
        if seat in game.computer_seats():
            raise Refusal("computer_plays_your_seat")
        last = await self.store.moves.last_move(game.id)
        moves = await self.store.moves.moves(game.id)
        if last is None or last.seat != seat:
            # Nothing of theirs to take back, or someone (a person or the computer) has moved since.
            raise Refusal("undo_others_moved" if any(mover == seat for mover, _ in moves) else "undo_no_move")
        if last.cause:
            raise Refusal("undo_computer_move")
        after = self.state_of(game)
        before = await asyncio.to_thread(self._replay, game, moves[:-1])  # a replay takes a moment
        if engine.reveals(before, after):
            raise Refusal("undo_revealed")
        try:
            await self.store.moves.undo_move(
                game.id, version=game.version, ply=last.ply, state=engine.to_json(before), interaction_id=interaction_id
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "undo_moved_on") from None
        log.info("game %s: seat %s took back ply %s (%s)", game.id, seat, last.ply, last.notation)
        saved = await self._changed(game.id)  # timers follow who waits now
        move = engine.parse_move(game.variant, last.notation)
        _, events = engine.apply(before, seat, move)
        shown = last.ply < game.board_version
        return Undone(saved, before, engine.to_act(after), engine.to_act(before), seat, move, events, shown)

    async def _undo_game(self, channel_id: int, game_id: int | None) -> GameRow:
        """The running game a move would be taken back in; a finished one is refused as such."""
        game = await self.store.games.open_game_in(channel_id)
        if game is None or (game_id is not None and game.id != game_id):
            latest = (
                await self.store.games.game(game_id)
                if game_id is not None
                else await self.store.games.latest_game_in(channel_id)
            )
            if latest is not None and latest.channel_id == channel_id and latest.status == "over":
                raise Refusal("undo_game_over")
            raise Refusal("no_game" if game is None else "undo_moved_on")
        if game.status != "active":
            raise Refusal("not_started")
        return game

    async def nudge(self, channel_id: int, user_id: int) -> Nudged:
        """A seated player nudges the people the game waits for: once per :data:`NUDGE_EVERY` per game and player,
        never someone away or in their quiet hours (refused, with when they can be nudged, when nobody is left)."""
        game = await self.active_game(channel_id)
        seat = game.seat_of(user_id)
        if seat is None or game.by_seat()[seat].dropped:
            raise Refusal("nudge_not_seated")
        state = self.state_of(game)
        awaited = sorted(engine.to_act(state) - set(game.computer_seats()) - {seat})
        if not awaited:
            raise Refusal("nudge_your_turn" if seat in engine.to_act(state) else "nudge_computer")
        now = self.clock.now()
        last = await self.store.timers.last_nudge(game.id, user_id)
        if last is not None and datetime.fromisoformat(last) + NUDGE_EVERY > now:
            raise Refusal("nudge_too_soon", at=f"<t:{int((datetime.fromisoformat(last) + NUDGE_EVERY).timestamp())}:R>")
        reachable, later = [], []
        for waiting in awaited:
            prefs = await self.store.users.user(game.by_seat()[waiting].user_id or 0)
            if prefs.away_until and prefs.away_until > iso(now):
                later.append(datetime.fromisoformat(prefs.away_until))
                continue
            quiet = quiet_until(now, prefs.timezone, prefs.quiet_start, prefs.quiet_end)
            if quiet is not None:
                later.append(quiet)
                continue
            reachable.append(waiting)
        if not reachable:
            raise Refusal("nudge_resting", at=f"<t:{int(min(later).timestamp())}:R>")
        owner, awaited_users = (
            f"nudge:{user_id}:{secrets.token_hex(4)}",
            {s: game.by_seat()[s].user_id or 0 for s in reachable},
        )
        reachable, again = await take_nudges(self.store, game.id, awaited_users, owner, now)
        if again is not None:  # another player nudged them moments ago: one ping per person, whoever asks
            raise Refusal("nudge_target_too_soon", at=f"<t:{int(again.timestamp())}:R>")
        if not await self.store.timers.record_nudge(game.id, user_id, iso(now), iso(now - NUDGE_EVERY)):
            await give_back_nudges(self.store, game.id, awaited_users, owner)
            raise Refusal("raced")
        return Nudged(game, state, seat, reachable, len(later))
