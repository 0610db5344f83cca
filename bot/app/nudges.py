"""Nudges: a seated player pings the people the game waits for, within limits, never someone away or resting."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

import engine
from bot.app.errors import Refusal
from bot.app.outcomes import Nudged
from bot.app.quotas import give_back_nudges, take_nudges
from bot.app.tables import Tables
from bot.infra.clock import Clock, iso, quiet_until
from bot.infra.store import Store

NUDGE_EVERY = timedelta(hours=12)
"""How often one seated player may nudge the awaited players of one game."""


class Nudges:
    """Nudges, limited per game, player and target."""

    def __init__(self, store: Store, tables: Tables, clock: Clock) -> None:
        self.store = store
        self.tables = tables
        self.clock = clock

    async def nudge(self, channel_id: int, user_id: int) -> Nudged:
        """A seated player nudges the people the game waits for: once per :data:`NUDGE_EVERY` per game and player,
        never someone away or in their quiet hours (refused, with when they can be nudged, when nobody is left)."""
        game = await self.tables.active(channel_id)
        seat = game.seat_of(user_id)
        if seat is None or game.by_seat()[seat].dropped:
            raise Refusal("nudge_not_seated")
        state = self.tables.state_of(game)
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
