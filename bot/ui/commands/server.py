"""``/azul-server …``: a server's settings for its games. Discord shows it only to members with Manage Server (a
server may grant it to others in its Integrations settings); changing a setting re-checks the permission."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.language import described, named
from bot.app.quotas import MEMBER_GAMES_MAX, SERVER_GAMES_MAX
from bot.ui.commands.league import LeagueAdmin
from bot.ui.limits import action_choices, limit_choices, server_settings, thinking_choices


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.default_permissions(manage_guild=True)
class ServerCog(commands.GroupCog, group_name=named("azul-server"), group_description=described("bot.cmd.server")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        if self.app_command is None:
            raise RuntimeError("a GroupCog always has its group")
        self.app_command.add_command(LeagueAdmin())  # /azul-server league …: creating and managing leagues

    @app_commands.command(name=named("settings"), description=described("bot.cmd.server_settings"))
    @app_commands.describe(
        time_limit=described("bot.opt.time_limit"),
        on_timeout=described("bot.opt.on_timeout"),
        member_games=described("bot.opt.member_games"),
        server_games=described("bot.opt.server_games"),
        threads=described("bot.opt.threads"),
        thinking=described("bot.opt.thinking"),
    )
    @app_commands.choices(time_limit=limit_choices(), on_timeout=action_choices(), thinking=thinking_choices())
    async def settings(  # noqa: PLR0917 (discord.py passes a command's options as its parameters)
        self,
        interaction: discord.Interaction,
        time_limit: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        member_games: app_commands.Range[int, 1, MEMBER_GAMES_MAX] | None = None,
        server_games: app_commands.Range[int, 1, SERVER_GAMES_MAX] | None = None,
        threads: bool | None = None,
        thinking: app_commands.Choice[str] | None = None,
    ) -> None:
        await server_settings(
            interaction,
            time_limit=time_limit,
            on_timeout=on_timeout,
            member_games=member_games,
            server_games=server_games,
            threads=threads,
            thinking=thinking,
        )


__all__ = ["ServerCog"]
