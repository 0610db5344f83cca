"""The Discord client: wires the store, the service, the poster, the commands, the persistent controls and
translations, checks that every registered game can be played and drawn, and runs the reminder loop.

It provides :class:`bot.context.BotContext` (``service`` and ``poster``) to the handlers, which never import it.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands, tasks

import render
from bot.cog import AzulCog
from bot.games import check_adapters
from bot.lobby import LobbyButton
from bot.picker import PickerSelect, PlayButton
from bot.posting import Poster
from bot.replays import ReplayButton
from bot.replies import answer_error
from bot.service import GameService
from bot.stats import PageButton, StatsCog
from bot.store import Store
from bot.texts import Translator

log = logging.getLogger(__name__)

REMINDER_CHECK_MINUTES = 15


class Tree(app_commands.CommandTree["AzulBot"]):
    """The one error path of slash commands: whatever a command raises is answered by ``answer_error``."""

    async def on_error(self, interaction: discord.Interaction[AzulBot], error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)


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
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=Tree)
        self.db_path = db_path
        self.dev_guild = dev_guild
        self._seed_source = seed_source
        self.remind_after = remind_after
        self._store: Store | None = None
        self._service: GameService | None = None
        self._poster: Poster | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    @property
    def poster(self) -> Poster:
        if self._poster is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._poster

    async def setup_hook(self) -> None:
        check_adapters()  # a registered game without words or a picture fails here, not in the middle of a game
        render.check_renderers()
        self._store = await Store.open(self.db_path)
        self._service = GameService(self._store, self._seed_source)  # type: ignore[arg-type]
        self._poster = Poster(self, self._store)
        await self.tree.set_translator(Translator())
        await self.add_cog(AzulCog(self))
        await self.add_cog(StatsCog(self))
        self.add_dynamic_items(PlayButton, LobbyButton, PickerSelect, PageButton, ReplayButton)
        settled = await self._service.settle_pending()  # games that ended while a result could not be written
        if settled:
            log.info("recorded the results of %d finished games", settled)
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
