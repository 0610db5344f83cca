"""Moves: a move resolved from what was given, checked by the engine and saved in one transaction guarded by the
game's version, with the board it claims; the computer's moves go the same way.

When the game moved on between loading and saving (or since the board a button belongs to), the move is checked
again on the newest version: in a simultaneous phase (several players placing at once) moves by different players
all land while they stay legal, and a player whose own move landed meanwhile is told ``already_played``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

import engine
from bot.app.boards import Boards
from bot.app.claims import Claims
from bot.app.computer import Computer, move_seed
from bot.app.errors import MoveSaved, Refusal
from bot.app.move_entry import first_open_option, matching, matching_whole, read_given
from bot.app.outcomes import BOARD_LEASE, Turn, board_work
from bot.app.results import Settlement, result_of
from bot.app.tables import Tables
from bot.app.timers import Timers
from bot.games import adapter_of
from bot.infra.store import Conflict, GameRow, Store
from data.i18n import SUPPORTED
from engine import GameState, Move

COMPUTER_MARK = "🤖"
"""A computer seat in a refusal's words (posts name it by number and level: :func:`bot.app.narration.seat_label`)."""

log = logging.getLogger(__name__)

RACE_RETRIES = 8
"""Times a move is checked again on a newer version before it is refused as ``raced`` (each retry means another
player's move landed meanwhile, so this bounds the work per move, not the number of players)."""

COMPUTER_CAUSES = ("computer_seat", "stand_in", "time_limit")


class Turns:
    """Moves: a person's checked and saved, and the computer's."""

    def __init__(
        self,
        store: Store,
        tables: Tables,
        claims: Claims,
        timers: Timers,
        settlement: Settlement,
        *,
        boards: Boards,
        computer: Computer | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.claims = claims
        self.timers = timers
        self.settlement = settlement
        self.boards = boards
        self.computer = computer

    @staticmethod
    def check_command(game: GameRow, command: str) -> None:
        """Refuse a move command that the game's variant does not declare (``/azul-move place`` in a game of Azul)."""
        variant = engine.get_variant(game.variant)
        if variant.command(command) is None:  # name the game's own commands: take and acquire are easy to confuse
            moves = [declared.name for declared in variant.commands]
            raise Refusal("command_not_in_game", command=command, variant=game.variant, moves=moves)

    @staticmethod
    def seat_to_act(game: GameRow, state: GameState, user_id: int) -> int:
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
        self,
        game: GameRow,
        state: GameState,
        seat: int,
        command: str,
        given: Mapping[str, str | None],
        *,
        typed_in: str | None = None,
    ) -> Move:
        """The one legal move ``given`` describes, or why not (:class:`Refusal` or the engine's error); ``typed_in``:
        the options may be words typed in this locale (:func:`bot.app.move_entry.read_given`)."""
        legal = engine.legal_moves(state, seat)
        variant = engine.get_variant(game.variant)
        candidates = matching_whole(variant, legal, command, given) or matching(legal, command, given)
        if len(candidates) != 1 and typed_in is not None:
            # Tokens (what the autocomplete sends) name their move as they are; words are read as tokens first.
            given = read_given(state, seat, command, given, typed_in)
            candidates = matching(legal, command, given)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            needed = first_open_option(candidates)
            raise Refusal("need_option", option=needed.option)
        filled = {option: value.strip() for option, value in given.items() if value and value.strip()}
        move = variant.move_from_choices(command, filled)
        engine.apply(state, seat, move)  # raises the rules' reason; a legal move would have matched above
        return move

    def resolve_run(
        self,
        game: GameRow,
        state: GameState,
        seat: int,
        command: str,
        run: Sequence[Mapping[str, str | None]],
        *,
        typed_in: str | None = None,
    ) -> list[Move]:
        """The legal moves a run of options describes, each read in the position the ones before it leave;
        ``typed_in``: the first move's options may be words typed in this locale."""
        moves: list[Move] = []
        for given in run:
            if moves:
                state, _ = engine.apply(state, seat, moves[-1])
                if seat not in engine.to_act(state):
                    raise Refusal("stale")  # the run ended sooner than the player was shown
            moves.append(self.resolve(game, state, seat, command, given, typed_in=None if moves else typed_in))
        return moves

    async def picking(self, channel_id: int, user_id: int, game_id: int, seen: int) -> tuple[GameRow, GameState, int]:
        """The game (read once), its state and ``user_id``'s seat, when the Play picker may be shown to them on the
        board of version ``seen``: refused when their own move landed since (``already_played``), when it is not
        their turn, or when the computer plays their seat."""
        game = await self.tables.active(channel_id, game_id)
        await self.check_moved_on(game, user_id, seen)
        state = self.tables.state_of(game)
        seat = self.seat_to_act(game, state, user_id)
        if seat in game.computer_seats():
            raise Refusal("computer_plays_your_seat")
        return game, state, seat

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
        if game.state is not None and seat in engine.to_act(self.tables.state_of(game)):
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
            game = await self.tables.active(channel_id, game_id)
            seen = game.version if seen is None else seen
            await self.check_moved_on(game, user_id, seen)
            self.check_command(game, command)
            state = self.tables.state_of(game)
            try:
                seat = self.seat_to_act(game, state, user_id)
            except Refusal as refusal:
                if refusal.key != "not_your_turn":
                    raise
                raise await self.lost_to_the_deadline(game, user_id) or refusal from None
            if seat in game.computer_seats():
                raise Refusal("computer_plays_your_seat")
            moves = self.resolve_run(game, state, seat, command, [given, *then], typed_in=typed_in)
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
        game = await self.tables.load(game_id)
        if game.status != "active":
            raise Refusal("finished" if game.status == "over" else "not_started")
        state = self.tables.state_of(game)
        if seat not in engine.to_act(state):
            raise Refusal("not_your_turn")
        seed = move_seed(game.seed, game.version, seat)
        # Its own seats and stand-ins for absent players alike think for the game's time.
        move = await self.computer.choose(
            state, seat, level, seed, game=game.id, creator=game.creator_id, seconds=game.thinking
        )
        return await self._record(game, state, seat, [move], interaction_id=None, cause=cause)

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
        finished = result_of(game, new_state) if engine.is_over(new_state) else None
        notations = [str(move) for move in moves]
        to_act = frozenset() if finished else engine.to_act(new_state)
        status = "over" if finished else "active"
        told = Turn(replace(game, status=status), new_state, before, to_act, seat, moves[-1], events, cause)
        # The board is claimed with the move, unless it waits for the rest of a run (then the run's end claims it).
        held = told.holds_board()
        board = "" if held else board_work(game.id, game.version + len(moves))
        mover = game.by_seat()[seat]
        renamed = name if name and mover.user_id is not None and mover.name != name else None
        reset = not cause and mover.timeouts > 0  # the player's own move: their timeouts start over
        snapshot = engine.to_json(new_state)
        seats = tuple(
            replace(each, name=renamed or each.name, timeouts=0 if reset else each.timeouts)
            if each.seat == seat
            else each
            for each in game.seats
        )
        after = replace(game, version=game.version + len(moves), status=status, state=snapshot, seats=seats)
        # The timers change with the move, in its transaction: read before it, as the move leaves them.
        acts, known = await self.timers.before_move(game)
        timers = self.timers.after_move(after, new_state, acts.with_moves(seat, after.version - 1), known.prefs)
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
                claim=(board, self.claims.worker, self.claims.until(BOARD_LEASE)) if board else None,
                timers=timers,
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "raced") from None
        played = " ".join(notations)
        log.info(
            "game %s: ply %s seat %s played %s%s", game.id, game.version, seat, played, f" ({cause})" * bool(cause)
        )
        saved = replace(after, epoch=self.store.epoch, turn_since=stamp, result=finished)
        self.tables.keep(game.id, snapshot, new_state)  # the game's next move plays on it
        if finished:
            await self.settlement.settle(saved)
        undoable = game.undo and not finished and not cause and not engine.reveals(state, new_state)
        turn = Turn(
            saved,
            new_state,
            before,
            to_act,
            seat,
            moves[-1],
            events,
            cause,
            undoable,
            plies=len(moves),
            board=board,
            held=held,
            known=known,
        )
        if held:
            return turn
        try:
            return await self.boards.told(turn)  # a run's held moves are told with its last
        except Exception as error:  # reading the run back failed: the move is saved all the same
            raise MoveSaved() from error

    async def computer_to_act(self, game_id: int) -> list[tuple[int, str]]:
        """The seats the computer plays that must act now in ``game_id``, with their levels (seat order)."""
        game = await self.store.games.game(game_id)
        if game is None or game.status != "active" or game.state is None:
            return []
        to_act = engine.to_act(self.tables.state_of(game))
        by_seat = game.by_seat()
        return [(seat, by_seat[seat].level or "") for seat in game.computer_seats() if seat in to_act]

    async def takes_over(self, game_id: int, seat: int, ply: int) -> bool:
        """Whether the computer's move at ``ply`` for a person's seat is its first since it took the seat over (its
        own move before it was not the computer's for the same reason): the one to say so once."""
        return await self.store.moves.cause_before(game_id, seat, ply) != "stand_in"
