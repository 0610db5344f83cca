"""The settings that involve no game's rules: a server's caps, time limits and computer thinking time; a player's
turn messages and time away."""

from __future__ import annotations

from datetime import timedelta

from bot.app.computer import DEFAULT_THINKING, THINKING_SECONDS
from bot.app.errors import Refusal
from bot.app.quotas import MEMBER_GAMES, MEMBER_GAMES_MAX, SERVER_GAMES, SERVER_GAMES_MAX, GameCaps
from bot.app.timers import LIMIT_HOURS, ON_TIMEOUT, Timers
from bot.infra.clock import Clock, iso
from bot.infra.store import Store

MAX_AWAY_DAYS = 30
"""The longest time away a player may announce at once."""


def check_thinking(seconds: int) -> None:
    if seconds not in THINKING_SECONDS:
        raise Refusal("bad_thinking")


def check_limit(time_limit_hours: int, on_timeout: str) -> None:
    if time_limit_hours not in LIMIT_HOURS:
        raise Refusal("bad_time_limit", choices=", ".join(f"{hours} h" for hours in LIMIT_HOURS if hours))
    if on_timeout not in ON_TIMEOUT:
        raise Refusal("bad_on_timeout")


class Settings:
    """A server's and a player's settings, checked before they are saved."""

    def __init__(self, store: Store, clock: Clock, timers: Timers) -> None:
        self.store = store
        self.clock = clock
        self.timers = timers

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

    async def away(self, user_id: int, days: int) -> str:
        """The player is away for ``days`` from now: no reminders, and their time limits' clocks stand still until
        then. Returns when they are back."""
        if not 1 <= days <= MAX_AWAY_DAYS:  # Discord enforces the command's range; a direct call must too
            raise Refusal("bad_away_days", max=MAX_AWAY_DAYS)
        until = iso(self.clock.now() + timedelta(days=days))
        was = (await self.store.users.user(user_id)).away_until
        await self.store.users.set_away(user_id, until)
        await self.timers.away_changed(user_id, was, until)
        return until

    async def back(self, user_id: int) -> None:
        """The player is back before the time they announced: their clocks run again from now."""
        prefs = await self.store.users.user(user_id)
        if not prefs.away_until or prefs.away_until <= iso(self.clock.now()):
            raise Refusal("not_away")
        await self.timers.returned(user_id, prefs.away_until)
        await self.store.users.set_away(user_id, None)
        await self.timers.away_changed(user_id, prefs.away_until, None)
