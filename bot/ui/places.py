"""Games in places that are gone: a deleted channel or thread, a server that removed the bot, or a channel the bot
can no longer see. Nobody can play there any more, so such games end as aborted (no rating changes), their timers
go, and they leave everyone's ``/azul-me games``. The gateway's events say so at once; every READY (start-up and
reconnects) looks again for what changed while the bot was away.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.app.ports import Games

log = logging.getLogger(__name__)


class GonePlaces(commands.Cog):
    def __init__(self, bot: commands.Bot, service: Games) -> None:
        self.bot = bot
        self.service = service

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        threads = [thread.id for thread in getattr(channel, "threads", [])]  # a channel's threads go with it
        await self.close([channel.id, *threads], reason=f"channel {channel.id} deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.close([payload.thread_id], reason=f"thread {payload.thread_id} deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.close([], guild_id=guild.id, reason=f"removed from server {guild.id}")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.recheck()

    async def recheck(self) -> int:
        """Abort the games whose channel is gone or hidden from the bot; returns how many. A channel of another
        shard's server is not in this process's cache: it is fetched, and kept when Discord shows it."""
        gone = []
        for channel_id in await self.service.games.open_game_channels():
            if self.bot.get_channel(channel_id) is not None:
                continue
            try:
                await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                gone.append(channel_id)
            except discord.HTTPException as error:  # Discord failing: keep the game, look again at the next READY
                log.warning("channel %s could not be checked (%s)", channel_id, error)
        return await self.close(gone, reason="channel gone while the bot was away") if gone else 0

    async def close(self, channel_ids: list[int], *, guild_id: int | None = None, reason: str) -> int:
        closed = await self.service.endings.close_gone(channel_ids, guild_id)
        for game in closed:
            log.info("game %s aborted: %s", game.id, reason)
        return len(closed)


__all__ = ["GonePlaces"]
