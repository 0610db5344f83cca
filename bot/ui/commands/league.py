"""Leagues in Discord: ``/azul-league`` for everyone (standings, withdraw, list) and ``/azul-server league`` for server
managers (create, drop, pause, end). The league's messages and sign-up buttons are :mod:`bot.ui.league_posts`; its
own work in the timer loop (closing sign-ups, opening rounds, recording results, posting standings) is
:mod:`bot.ui.league_runs`.

The service and its design are in :mod:`bot.app.leagues`; pairing and standings in :mod:`bot.app.league_rules`.
``/azul-server`` needs *Manage Server* by default (``default_member_permissions``); a server gives it to other roles
in its own Integrations settings, and Discord enforces that, so the commands do not check again.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.errors import Refusal
from bot.app.language import described, named, text, user_locale
from bot.app.league_rules import BYE, COMPUTER
from bot.app.narration import shown
from bot.app.ports import Leagues
from bot.app.records import LeagueRow
from bot.app.timers import LIMIT_HOURS
from bot.games.base import variant_label
from bot.ui.commands.table import variant_choices
from bot.ui.context import bot_of
from bot.ui.league_confirm import ask, leave_league, runs_of
from bot.ui.league_posts import (
    CHOICE_LIMIT,
    LIST_LIMIT,
    NO_MENTIONS,
    signup_text,
    signup_view,
    standings_text,
)
from bot.ui.limits import action_choices
from bot.ui.replies import after_commit, display_name, public_locale, reply

log = logging.getLogger(__name__)


# --- commands --------------------------------------------------------------------------------------------------------
async def league_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's leagues whose name contains what was typed (running ones first)."""
    if interaction.guild_id is None:
        return []
    leagues = bot_of(interaction).leagues
    found = await leagues.leagues_in(interaction.guild_id, finished=True)
    wanted = current.casefold().strip()
    found.sort(key=lambda league: league.status == "over")
    return [
        app_commands.Choice(name=league.name, value=str(league.id))
        for league in found
        if wanted in league.name.casefold()
    ][:CHOICE_LIMIT]


async def chosen_league(leagues: Leagues, interaction: discord.Interaction, value: str | None) -> LeagueRow:
    """The league an option names (its id from the autocomplete, or its name typed out); without one, the
    server's only league that is not over, or its newest when none is running."""
    guild_id = interaction.guild_id or 0
    if value and value.strip().isdecimal() and len(value.strip()) <= 18:
        league = await leagues.find(int(value.strip()))
        if league is not None and league.guild_id == guild_id:
            return league
    if value and value.strip():
        return await leagues.named(guild_id, value)
    running = await leagues.leagues_in(guild_id)
    if len(running) == 1:
        return running[0]
    if running:
        raise Refusal("league_which")
    finished = await leagues.leagues_in(guild_id, finished=True)
    if not finished:
        raise Refusal("league_none")
    return finished[0]  # the newest, when none is running


def league_limit_choices() -> list[app_commands.Choice[str]]:
    """Time limits a league may have: every one but none (the limits are what make every round end)."""
    return [
        app_commands.Choice(name=described(f"bot.limit.hours.{hours}"), value=str(hours))
        for hours in LIMIT_HOURS
        if hours
    ]


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class LeagueCog(
    commands.GroupCog,
    group_name=app_commands.locale_str("azul-league", key="bot.name.azul-league"),
    group_description=described("bot.cmd.league"),
):
    """``/azul-league``: what every player of a league may do."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=named("standings"), description=described("bot.cmd.league_standings"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def standings(self, interaction: discord.Interaction, league: str | None = None) -> None:
        leagues = bot_of(interaction).leagues
        chosen = await chosen_league(leagues, interaction, league)
        lines, players = await leagues.standings(chosen)
        locale = user_locale(interaction)
        await reply(interaction, standings_text(chosen, lines, players, locale))

    @app_commands.command(name=named("withdraw"), description=described("bot.cmd.league_withdraw"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def withdraw(self, interaction: discord.Interaction, league: str | None = None) -> None:
        leagues = bot_of(interaction).leagues
        await ask(leagues, interaction, "withdraw", await chosen_league(leagues, interaction, league))

    @app_commands.command(name=named("list"), description=described("bot.cmd.league_list"))
    async def list(self, interaction: discord.Interaction) -> None:
        leagues = bot_of(interaction).leagues
        locale = user_locale(interaction)
        found = await leagues.leagues_in(interaction.guild_id or 0, finished=True)
        if not found:
            await reply(interaction, text("bot.league.list_none", locale))
            return
        lines = [text("bot.league.list_title", locale)]
        for league in found[:20]:
            players = await leagues.players(league)
            lines.append(
                text(
                    "bot.league.list_line",
                    locale,
                    name=shown(league.name),
                    game=variant_label(league.variant, locale),
                    format=text(f"bot.league.format.{league.format}", locale),
                    status=text(f"bot.league.state.{league.status}", locale, round=league.round, rounds=league.rounds),
                    count=len(players),
                )
            )
        await reply(interaction, "\n".join(lines)[:LIST_LIMIT])


class LeagueAdmin(app_commands.Group):
    """``/azul-server league …``: creating and managing leagues (Manage Server, or a role the server names in its
    Integrations settings: ``/azul-server`` carries the permission). A group of its own, so that whichever cog
    holds ``/azul-server`` adds it with ``add_command(LeagueAdmin())``."""

    def __init__(self) -> None:
        super().__init__(name=named("league"), description=described("bot.cmd.server_league"))

    @app_commands.command(name=named("create"), description=described("bot.cmd.league_create"))
    @app_commands.describe(
        name=described("bot.opt.league_name"),
        variant=described("bot.opt.variant"),
        format=described("bot.opt.league_format"),
        table_size=described("bot.opt.table_size"),
        rounds=described("bot.opt.league_rounds"),
        time_limit=described("bot.opt.league_time_limit"),
        on_timeout=described("bot.opt.on_timeout"),
        rated=described("bot.opt.league_rated"),
        leftover=described("bot.opt.leftover"),
        signup_hours=described("bot.opt.signup_hours"),
        round_days=described("bot.opt.round_days"),
    )
    @app_commands.choices(
        variant=variant_choices(),
        format=[
            app_commands.Choice(name=described(f"bot.league.format.{name}"), value=name)
            for name in ("swiss", "round_robin")
        ],
        time_limit=league_limit_choices(),
        on_timeout=action_choices(),
        leftover=[
            app_commands.Choice(name=described(f"bot.league.choice.{name}"), value=name) for name in (BYE, COMPUTER)
        ],
    )
    async def create(  # noqa: PLR0917 (discord.py passes a command's options as its parameters)
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        variant: app_commands.Choice[str],
        format: app_commands.Choice[str],
        table_size: app_commands.Range[int, 2, 4] = 2,
        rounds: app_commands.Range[int, 1, 15] = 3,
        time_limit: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        rated: bool = True,
        leftover: app_commands.Choice[str] | None = None,
        signup_hours: app_commands.Range[int, 1, 336] = 48,
        round_days: app_commands.Range[int, 0, 14] = 0,
    ) -> None:
        leagues = bot_of(interaction).leagues
        league = await leagues.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=name,
            variant=variant.value,
            format=format.value,
            table_size=table_size,
            rounds=rounds,
            time_limit_hours=int(time_limit.value) if time_limit else 24,
            on_timeout=on_timeout.value if on_timeout else "computer",
            rated=rated,
            leftover=leftover.value if leftover else BYE,
            signup_hours=signup_hours,
            round_days=round_days,
        )
        async with after_commit("league_create"):  # the league exists: it stands whatever fails now
            locale = public_locale(interaction)
            await interaction.response.send_message(
                signup_text(league, [], locale),
                view=signup_view(league, locale) or discord.utils.MISSING,
                allowed_mentions=NO_MENTIONS,
            )
            message = await interaction.original_response()
            await leagues.set_message(league.id, "signup", message.id)

    @app_commands.command(name=named("drop"), description=described("bot.cmd.league_drop"))
    @app_commands.describe(league=described("bot.opt.league"), player=described("bot.opt.player"))
    @app_commands.autocomplete(league=league_choices)
    async def drop(self, interaction: discord.Interaction, player: discord.User, league: str | None = None) -> None:
        bot = bot_of(interaction)
        chosen = await chosen_league(bot.leagues, interaction, league)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the standings picture takes a moment
        await leave_league(bot, interaction, chosen, player.id, display_name(player), "dropped")
        async with after_commit("league_dropped"):
            said = text("bot.league.reply.dropped", user_locale(interaction), player=shown(display_name(player)))
            await reply(interaction, said)

    @app_commands.command(name=named("pause"), description=described("bot.cmd.league_pause"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def pause(self, interaction: discord.Interaction, league: str | None = None) -> None:
        """Pause a running league, or let a paused one go on."""
        leagues = bot_of(interaction).leagues
        chosen = await chosen_league(leagues, interaction, league)
        changed = await leagues.set_paused(chosen, chosen.status != "paused")
        paused = changed.status == "paused"
        async with after_commit("league_paused" if paused else "league_resumed"):
            key = "bot.league.paused" if paused else "bot.league.resumed"
            await runs_of(interaction).post(changed, text(key, public_locale(interaction), name=shown(changed.name)))
            await reply(interaction, text(key, user_locale(interaction), name=shown(changed.name)))
            if not paused:
                await runs_of(interaction).tick()  # a round that fell due while paused starts now

    @app_commands.command(name=named("end"), description=described("bot.cmd.league_end"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def end(self, interaction: discord.Interaction, league: str | None = None) -> None:
        leagues = bot_of(interaction).leagues
        await ask(leagues, interaction, "end", await chosen_league(leagues, interaction, league))


__all__ = ["LeagueAdmin", "LeagueCog", "chosen_league", "league_choices"]
