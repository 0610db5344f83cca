"""Leaving a league and ending one, each behind one confirming click (as ``/azul resign`` is): the command only
asks, with a button whose custom id holds the action, the league and the user who asked
(``azul:leagueconfirm:<withdraw|end>:<league>:<user>``); the click does it, for that user only.

Ending a league early also ends its running games, unrated, each told so in its thread."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.narration import shown
from bot.app.ports import Leagues
from bot.app.records import LeagueRow
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.league_runs import LeagueRuns
from bot.ui.replies import after_commit, display_name, public_locale, reply


class LeagueConfirmButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:leagueconfirm:(?P<action>withdraw|end):(?P<league>{NUMBER}):(?P<user>{NUMBER})",
):
    replaces_message = True

    def __init__(self, action: str, league_id: int, user_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle.danger,
                custom_id=f"azul:leagueconfirm:{action}:{league_id}:{user_id}",
            )
        )
        self.action = action
        self.league_id = league_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeagueConfirmButton:
        league, user = bounded(match["league"]), bounded(match["user"])
        if league is None or user is None:
            return forged(cls(match["action"], 0, 0))
        return cls(match["action"], league, user)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("confirm_not_yours")
        league = await bot.leagues.league(self.league_id)
        if league.guild_id != interaction.guild_id:
            raise Refusal("bad_control")
        await interaction.response.defer(ephemeral=True, thinking=True)  # the standings picture takes a moment
        if self.action == "withdraw":
            await withdraw_now(bot, interaction, league)
        else:
            await end_now(interaction, league)


def runs_of(interaction: discord.Interaction) -> LeagueRuns:
    runs = getattr(interaction.client, "league_runs", None)
    if not isinstance(runs, LeagueRuns):
        raise TypeError("the client runs no leagues")
    return runs


async def leave_league(  # noqa: PLR0917 - who leaves which league, and how
    bot: BotContext, interaction: discord.Interaction, league: LeagueRow, user_id: int, name: str, how: str
) -> None:
    """A player withdraws (or is dropped): the computer plays on for them; announced once in the league's channel."""
    runs = runs_of(interaction)
    if league.status == "signup":
        _, players = await runs.leagues.leave(league.id, user_id)
        async with after_commit(f"league_{how}"):  # they are out of the league: that stands whatever fails now
            await runs.refresh_signup(league, players)
        return
    handed = await runs.leagues.withdraw(league, user_id, status=how)
    async with after_commit(f"league_{how}"):
        for game in handed:
            bot.wake_computer(game.id)  # it may be their turn there now
        locale = public_locale(interaction)
        await runs.post(
            league, text(f"bot.league.{how}", locale, player=shown(name), name=shown(league.name), count=len(handed))
        )
        await runs.refresh_standings(league)


async def withdraw_now(bot: BotContext, interaction: discord.Interaction, league: LeagueRow) -> None:
    """The confirmed withdrawal: out of the league (announced once in its channel), and told so."""
    await leave_league(bot, interaction, league, interaction.user.id, display_name(interaction.user), "withdrew")
    async with after_commit("league_withdrew"):
        await reply(interaction, text("bot.league.withdrawn", user_locale(interaction), name=shown(league.name)))


async def end_now(interaction: discord.Interaction, league: LeagueRow) -> None:
    """The confirmed end: the league is over with its standings as they are, and its running games end unrated,
    each told so in its thread."""
    runs = runs_of(interaction)
    ended = await runs.leagues.end(league)
    games = await runs.leagues.end_games(ended)
    async with after_commit("league_ended"):  # the league is over: that stands whatever fails now
        for game in games:
            await runs.tell_game_ended(ended, game)
        await runs.refresh_signup(ended, await runs.leagues.players(ended))
        await runs.announce_final(ended, early=True)
        await reply(interaction, text("bot.league.reply.ended", user_locale(interaction), name=shown(ended.name)))


async def ask(leagues: Leagues, interaction: discord.Interaction, action: str, league: LeagueRow) -> None:
    """Say what ``action`` would do to ``league``, with the one button that does it."""
    if league.status == "over":
        raise Refusal("league_over")
    if action == "withdraw":
        players = await leagues.players(league)
        if not any(p.user_id == interaction.user.id and p.status == "in" for p in players):
            raise Refusal("league_not_in")
    locale = user_locale(interaction)
    view = discord.ui.View(timeout=None)
    label = text(f"bot.button.league_{action}", locale)
    view.add_item(LeagueConfirmButton(action, league.id, interaction.user.id, label))
    key = f"bot.confirm.league_{action}" + ("_signup" if action == "withdraw" and league.status == "signup" else "")
    await reply(interaction, text(key, locale, name=shown(league.name)), view=view)


__all__ = ["LeagueConfirmButton", "ask", "end_now", "leave_league", "runs_of", "withdraw_now"]
