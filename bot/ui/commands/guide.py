"""``/azul-rules`` and ``/azul-help``: top-level commands without subcommands, usable anywhere (a DM included)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app.language import described, named, text, user_locale
from bot.games import adapter_of
from bot.ui.commands.table import variant_choices
from bot.ui.context import bot_of
from bot.ui.replies import reply


class GuideCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=named("azul-rules"), description=described("bot.cmd.rules"))
    @app_commands.describe(variant=described("bot.opt.rules_variant"))
    @app_commands.choices(variant=variant_choices())
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def rules(self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None) -> None:
        """A variant's rules; without one, those of the game last played here (else the first game's)."""
        name = variant.value if variant else None
        if name is None:
            game = await bot_of(interaction).service.tables.latest_in(interaction.channel_id or 0)
            name = game.variant if game else engine.variant_names()[0]
        await reply(interaction, adapter_of(name).rules(name, user_locale(interaction))[:2000])

    @app_commands.command(name=named("azul-help"), description=described("bot.cmd.help"))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def help(self, interaction: discord.Interaction) -> None:
        """How to play, and under it what every short mark on a picture or in a message means: two embeds, whose
        4,096 characters each leave the texts room to grow (a message's content stops at 2,000)."""
        locale = user_locale(interaction)
        how = discord.Embed(description=text("bot.help", locale))
        marks = discord.Embed(title=text("bot.help.marks_title", locale), description=text("bot.help.marks", locale))
        await reply(interaction, "", embeds=[how, marks])


__all__ = ["GuideCog"]
