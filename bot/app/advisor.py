"""Hints: the move the strongest level would make for the asking player now, and why."""

from __future__ import annotations

from typing import Any

import engine
from bot.app import ratings
from bot.app.computer import Computer, move_seed
from bot.app.errors import Refusal
from bot.app.quotas import Hints
from bot.app.tables import Tables
from bot.app.turns import Turns
from bot.infra.clock import Clock
from bot.infra.store import GameRow
from engine import Move
from engine.core import Rng


class Advisor:
    """Hints, one search per position and player at a time (:class:`bot.app.quotas.Hints`)."""

    def __init__(self, tables: Tables, computer: Computer | None, clock: Clock, hints: Hints) -> None:
        self.tables = tables
        self.computer = computer
        self.clock = clock
        self.hints = hints

    async def hint(self, channel_id: int, user_id: int) -> tuple[GameRow, Move, list[tuple[str, dict[str, Any]]]]:
        """The move the strongest level would make for the asking player now, and why: only where the game's
        creator allowed hints, and only on the player's own turn."""
        if self.computer is None:
            raise RuntimeError("this service has no computer players")
        game = await self.tables.active(channel_id)
        # Rated games never allow hints (``create`` refuses both, and hints make a game casual by default).
        if not game.hints or ratings.is_rated(game):
            raise Refusal("hints_off")
        state = self.tables.state_of(game)
        seat = Turns.seat_to_act(game, state, user_id)
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
