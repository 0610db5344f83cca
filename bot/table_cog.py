"""``/azul-table``: the table's log and nudge, until the command tree's split gives them a place under ``/azul``.

``/azul`` already holds the 25 subcommands Discord allows, so ``log`` and ``nudge`` wait here; they are thin like
every command (:mod:`bot.cog`): the service decides, :mod:`bot.movelog` and the poster put it into words.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.context import bot_of
from bot.errors import Refusal
from bot.movelog import log_text
from bot.replies import channel_of, display_name, reply
from bot.texts import described, named, text, user_locale
from bot.words import shown, shown_names


@app_commands.guild_only()
class TableCog(commands.GroupCog, group_name="azul-table", group_description=described("bot.cmd.table")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=named("log"), description=described("bot.cmd.log"))
    async def log(self, interaction: discord.Interaction) -> None:
        """The last moves in words, for anyone in the channel (players and spectators)."""
        service = bot_of(interaction).service
        game = await service.shown_game(interaction.channel_id or 0)
        if game.status == "lobby":
            raise Refusal("not_started")
        await interaction.response.defer(ephemeral=True, thinking=True)  # replaying a long game takes a moment
        await reply(interaction, await log_text(service.store, game, user_locale(interaction)))

    @app_commands.command(name=named("nudge"), description=described("bot.cmd.nudge"))
    async def nudge(self, interaction: discord.Interaction) -> None:
        """Remind the players the game waits for, once per 12 hours per game and player."""
        bot = bot_of(interaction)
        nudged = await bot.service.nudge(interaction.channel_id or 0, interaction.user.id)
        player = f"**{shown(display_name(interaction.user))}**"
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.poster.post_nudge(channel_of(interaction), nudged.game, nudged.seats, player, interaction.guild)
        locale = user_locale(interaction)
        names = shown_names(nudged.game, locale)
        said = text("bot.nudge.reply", locale, players=", ".join(f"**{names[seat]}**" for seat in nudged.seats))
        if nudged.resting:
            said += "\n" + text("bot.nudge.resting", locale, count=nudged.resting)
        await reply(interaction, said)


__all__ = ["TableCog"]
