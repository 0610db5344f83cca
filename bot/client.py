"""The Discord client: wires the store, the service, the poster, the cog, the persistent buttons and translations."""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime, timedelta

import discord
from discord.ext import commands, tasks

from bot import logs
from bot.posting import Poster
from bot.service import GameService
from bot.store import Store
from bot.texts import Translator

log = logging.getLogger(__name__)

REMINDER_CHECK_MINUTES = 15


class AzulBot(commands.Bot):
    """Opens the database in ``setup_hook`` (as discord.py's advanced start-up example does) and syncs commands."""

    def __init__(
        self,
        db_path: str,
        *,
        dev_guild: int | None = None,
        seed_source: object = None,
        remind_after: timedelta | None = None,
    ) -> None:
        # The bot has no voice: discord.py's own warn-once flags, cleared before the client would log them.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads and the server's locale; nothing privileged
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.db_path = db_path
        self.dev_guild = dev_guild
        self._seed_source = seed_source
        self.remind_after = remind_after
        self._store: Store | None = None
        self._service: GameService | None = None
        self.poster = Poster(self)

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    async def setup_hook(self) -> None:
        from bot.cog import AzulCog
        from bot.views import LobbyButton, PickerSelect, PlayButton

        self._store = await Store.open(self.db_path)
        self._service = GameService(self._store, self._seed_source)  # type: ignore[arg-type]
        await self.tree.set_translator(Translator())
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        await self.add_cog(AzulCog(self))
        self.add_dynamic_items(PlayButton, LobbyButton, PickerSelect)
        if self.dev_guild:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands (%s)", len(synced), self.dev_guild or "global")
        if self.remind_after is not None:
            self.remind_loop.start()

    @tasks.loop(minutes=REMINDER_CHECK_MINUTES)
    async def remind_loop(self) -> None:
        await self.remind_due(datetime.now(UTC))

    @remind_loop.before_loop
    async def _before_reminders(self) -> None:
        await self.wait_until_ready()

    async def remind_due(self, now: datetime) -> int:
        """Nudge the players of every game that has waited longer than ``remind_after`` (once per turn)."""
        if self.remind_after is None:
            return 0
        due = await self.service.due_reminders(now, self.remind_after)
        for game, state in due:
            try:
                channel = self.get_channel(game.channel_id) or await self.fetch_channel(game.channel_id)
                if isinstance(channel, discord.abc.Messageable):
                    await self.poster.post_reminder(channel, game, state, getattr(channel, "guild", None))
            except discord.HTTPException:
                log.warning("game %s: the reminder could not be posted", game.id)
        return len(due)

    async def on_tree_error(self, interaction: discord.Interaction, error: Exception) -> None:
        """The last resort for errors outside the commands' own error path: log them, never show a traceback."""
        from bot.actions import reply
        from bot.texts import explain, user_locale

        logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
        log.error("unhandled error in channel %s", interaction.channel_id, exc_info=error)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, explain(error, user_locale(interaction)))

    async def close(self) -> None:
        await super().close()
        await self.close_store()

    async def close_store(self) -> None:
        if self._store is not None:
            await self._store.close()
            self._store = None


def create_bot(
    db_path: str,
    *,
    dev_guild: int | None = None,
    seed_source: object = None,
    remind_after: timedelta | None = None,
) -> AzulBot:
    return AzulBot(db_path, dev_guild=dev_guild, seed_source=seed_source, remind_after=remind_after)
