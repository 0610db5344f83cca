"""Taking a move back (undo): only the mover's own last move, only while nobody has acted since, only when it showed
nothing hidden, and only in a game whose creator left undo on."""

from __future__ import annotations

import asyncio
import logging

import engine
from bot.app.errors import Refusal
from bot.app.outcomes import Undone
from bot.app.tables import Tables
from bot.infra.store import Conflict, Store

log = logging.getLogger(__name__)


class TakeBacks:
    """Moves taken back."""

    def __init__(self, store: Store, tables: Tables) -> None:
        self.store = store
        self.tables = tables

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
        game = await self.tables.undoable_in(channel_id, game_id)
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
        after = self.tables.state_of(game)
        before = await asyncio.to_thread(self.tables.replay, game, moves[:-1])  # a replay takes a moment
        if engine.reveals(before, after):
            raise Refusal("undo_revealed")
        try:
            await self.store.moves.undo_move(
                game.id, version=game.version, ply=last.ply, state=engine.to_json(before), interaction_id=interaction_id
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "undo_moved_on") from None
        log.info("game %s: seat %s took back ply %s (%s)", game.id, seat, last.ply, last.notation)
        saved = await self.tables.changed(game.id)  # timers follow who waits now
        move = engine.parse_move(game.variant, last.notation)
        _, events = engine.apply(before, seat, move)
        shown = last.ply < game.board_version
        return Undone(saved, before, engine.to_act(after), engine.to_act(before), seat, move, events, shown)
