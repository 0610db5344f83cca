"""The computer standing in for a person: a seat handed to it or taken back, a person dropped for good (they left
its league), and a time limit running out (the strongest computer plays the move; the player may be dropped; after
:data:`bot.app.timers.TIMEOUTS_IN_A_ROW` in a row the seat is the computer's until its player takes it back)."""

from __future__ import annotations

import logging
from dataclasses import replace

import engine
from bot.app.computer import LEVELS, STRONGEST
from bot.app.errors import Refusal
from bot.app.outcomes import TimedOut
from bot.app.tables import Tables
from bot.app.timers import TIMEOUTS_IN_A_ROW
from bot.app.turns import RACE_RETRIES, Turns
from bot.infra.store import GameRow, Store

log = logging.getLogger(__name__)


class StandIns:
    """Seats the computer plays for people."""

    def __init__(self, store: Store, tables: Tables, turns: Turns) -> None:
        self.store = store
        self.tables = tables
        self.turns = turns

    async def set_controller(self, game_id: int, seat: int, level: str | None) -> GameRow:
        """Hand a person's seat to the computer at ``level`` (a stand-in), or back to them with ``None``."""
        if level is not None and level not in LEVELS:
            raise Refusal("bad_level")
        if not await self.store.games.set_controller(game_id, seat, level):
            raise Refusal("raced")
        return await self.tables.changed(game_id)  # a seat the computer plays has no reminders

    async def drop(self, game_id: int, seat: int) -> GameRow:
        """The person leaves the game for good (they left its league): the strongest computer plays the seat to the
        end, and they rank after everyone who stayed whatever it scores."""
        if not await self.store.games.drop_seat(game_id, seat, STRONGEST):
            raise Refusal("raced")
        return await self.tables.changed(game_id)

    async def time_out(self, game_id: int, seat: int, since: int) -> TimedOut | None:
        """The seat's time, running since version ``since``, ran out: the strongest computer plays that move for
        it, or (the game's choice) the player is dropped first and the computer plays the seat from now on. After
        :data:`TIMEOUTS_IN_A_ROW` timeouts in a row the seat is the computer's until its player takes it back.
        None when the seat no longer waits (it moved, or the computer plays it already)."""
        if not await self._still_late(game_id, seat, since, dropped=False):
            return None
        game = await self.tables.load(game_id)
        dropped = game.on_timeout == "drop" and await self.store.games.drop_seat(game.id, seat, STRONGEST)
        for _ in range(RACE_RETRIES):
            try:
                turn = await self.turns.play_for(game.id, seat, level=STRONGEST, cause="time_limit")
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
        game = await self.tables.load(game_id)
        if game.status != "active" or game.state is None or (seat in game.computer_seats() and not dropped):
            return False
        moved = (await self.store.moves.last_plies(game.id)).get(seat, -1) >= since
        return seat in engine.to_act(self.tables.state_of(game)) and not moved

    async def take_back(self, channel_id: int, user_id: int) -> GameRow:
        """A player takes back the seat the computer plays for them (never one dropped for their time)."""
        game = await self.tables.active(channel_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:
            raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
        if seat not in game.computer_seats():
            raise Refusal("seat_is_yours")
        if not await self.store.games.take_back(game.id, seat):
            raise Refusal("raced")
        return await self.tables.changed(game.id)
