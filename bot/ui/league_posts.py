"""A league's messages: the settings, sign-up, standings, round and result texts, and the sign-up message's Join /
Leave buttons (persistent: ``azul:league:<league>:<join|leave>``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.league_rules import Line, imbalance, planned_schedule, points_of
from bot.app.leagues import played_at
from bot.app.narration import shown
from bot.app.records import LeaguePlayer, LeagueRow, TableRow
from bot.games.base import variant_label
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.replies import display_name, public_locale, reply
from render.inputs import LeagueStanding

log = logging.getLogger(__name__)

CHOICE_LIMIT = 25
LIST_LIMIT = 2000
THREAD_NAME = 100
NO_MENTIONS = discord.AllowedMentions.none()


def stamp(moment: str, style: str = "R") -> str:
    return f"<t:{int(datetime.fromisoformat(moment).timestamp())}:{style}>"


# --- words -----------------------------------------------------------------------------------------------------------
def settings_lines(league: LeagueRow, locale: str) -> list[str]:
    """What kind of league it is, in a few short lines."""
    rounds = (
        text("bot.league.rounds", locale, count=league.rounds)
        if league.rounds
        else text("bot.league.rounds_all" if league.table_size == 2 else "bot.league.rounds_even", locale)
    )  # everyone meets everyone only at 2-player tables: bigger ones cannot promise it (league_rules)
    kind = " · ".join(
        (
            variant_label(league.variant, locale),
            text(f"bot.league.format.{league.format}", locale),
            text("bot.league.table_size", locale, count=league.table_size),
            rounds,
        )
    )
    then = text(f"bot.limit.then.{league.on_timeout}", locale)
    lines = [kind, text("bot.limit.line", locale, hours=league.time_limit_hours, then=then)]
    lines.append(text(f"bot.league.leftover.{league.leftover}", locale))
    lines.append(text("bot.league.rated" if league.rated else "bot.league.casual", locale))
    return lines


def signup_text(league: LeagueRow, players: Sequence[LeaguePlayer], locale: str) -> str:
    lines = [text("bot.league.signup_title", locale, name=shown(league.name)), *settings_lines(league, locale)]
    if league.status == "signup":
        lines.append(text("bot.league.closes", locale, when=stamp(league.signup_closes)))
    else:
        lines.append(text("bot.league.closed", locale))
    names = ", ".join(f"**{shown(player.name)}**" for player in players)
    lines.append(text("bot.league.players", locale, count=len(players), names=names or "—"))
    return "\n".join(lines)[:LIST_LIMIT]


def signup_view(league: LeagueRow, locale: str) -> discord.ui.View | None:
    if league.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LeagueButton(league.id, "join", text("bot.button.join", locale), discord.ButtonStyle.success))
    view.add_item(LeagueButton(league.id, "leave", text("bot.button.leave", locale)))
    return view


def points_text(points: float) -> str:
    return f"{points:g}"


def points_words(points: float, locale: str) -> str:
    """League points in words ("2 points"); they are whole numbers (see :mod:`bot.app.league_rules`)."""
    return text("bot.league.points", locale, count=int(points))


def standings_lines(
    league: LeagueRow, lines: Sequence[Line], players: Sequence[LeaguePlayer], locale: str
) -> list[str]:
    who = {player.user_id: player for player in players}
    said = []
    for line in lines:
        player = who[line.user_id]
        key = "bot.league.standing_swiss" if league.swiss else "bot.league.standing"
        entry = text(
            key,
            locale,
            rank=line.rank,
            name=shown(player.name),
            points=points_words(line.points, locale),
            buchholz=points_text(line.buchholz),
            score=line.score,
            games=line.games,
        )
        if player.status != "in":
            entry += " " + text(f"bot.league.status.{player.status}", locale)
        said.append(entry)
    return said


def standings_rows(lines: Sequence[Line], players: Sequence[LeaguePlayer]) -> list[LeagueStanding]:
    """The standings as the picture draws them."""
    who = {player.user_id: player for player in players}
    return [
        LeagueStanding(
            line.rank,
            who[line.user_id].name,
            points_text(line.points),
            points_text(line.buchholz),
            line.score,
            line.games,
            who[line.user_id].status != "in",
        )
        for line in lines
    ]


def standings_title(league: LeagueRow, locale: str, name: str) -> str:
    """The standings' title, in words only (the picture's font has no emoji); ``name``: the league's, as shown
    (escaped in a message, as typed in the picture)."""
    if league.status == "over":
        return text("bot.league.final_title", locale, name=name)
    if league.round == 0:
        return text("bot.league.standings_signup", locale, name=name)
    return text("bot.league.standings_title", locale, name=name, round=league.round, rounds=league.rounds)


def standings_text(league: LeagueRow, lines: Sequence[Line], players: Sequence[LeaguePlayer], locale: str) -> str:
    title = standings_title(league, locale, shown(league.name))
    said = [f"🏆 **{title}**", *standings_lines(league, lines, players, locale)]
    said.append(text("bot.league.tiebreaks_swiss" if league.swiss else "bot.league.tiebreaks", locale))
    return "\n".join(said)[:LIST_LIMIT]


def result_line(league: LeagueRow, table: TableRow, players: Sequence[LeaguePlayer], locale: str) -> str:
    """One short line for a table's result: the players by place with their game scores and the league points they
    won (``1. **alice** 52 (+2 points) · 2. **bob** 40 (+0 points)``)."""
    names = {player.user_id: shown(player.name) for player in players}
    result = table.result or {}
    if result.get("void"):
        return text("bot.league.result_void", locale, name=shown(league.name), round=table.round, game=table.game_id)
    played = played_at(league, table)
    won = {} if played is None else points_of(played)
    order = sorted(range(len(table.players)), key=lambda index: result["places"][index])
    parts = []
    for index in order:
        user = table.players[index]
        name = names.get(user, "?") if user is not None else text("bot.league.computer", locale)
        extra = f" (+{points_words(won[user], locale)})" if user is not None else ""
        outcome = result.get("outcomes", ["played"] * len(table.players))[index]
        extra = f" {text(f'bot.summary.{outcome}', locale)}{extra}" if outcome != "played" else extra
        parts.append(f"{result['places'][index]}. **{name}** {result['scores'][index]}{extra}")
    return text("bot.league.result", locale, name=shown(league.name), round=table.round, ranking=" · ".join(parts))


def round_text(
    league: LeagueRow, number: int, tables: Sequence[TableRow], players: Sequence[LeaguePlayer], locale: str
) -> str:
    """A round's announcement: each table with its thread, each bye with what it is worth."""
    names = {player.user_id: shown(player.name) for player in players}
    lines = [text("bot.league.round_title", locale, name=shown(league.name), round=number, rounds=league.rounds)]
    for table in tables:
        if table.bye:
            user = table.players[0]
            bye = points_words(float(league.table_size - 1), locale)
            lines.append(text("bot.league.round_bye", locale, player=names.get(user or 0, "?"), points=bye))
            continue
        people = [
            names.get(user, "?") if user is not None else text("bot.league.computer", locale) for user in table.players
        ]
        where = f"<#{table.channel_id}>" if table.channel_id else ""
        lines.append(
            text("bot.league.round_table", locale, players=" – ".join(f"**{p}**" for p in people), where=where)
        )
    return "\n".join(lines)[:LIST_LIMIT]


def imbalance_line(league: LeagueRow, players: Sequence[LeaguePlayer], locale: str) -> str:
    """For a round robin at tables of 3–4 where not every pair meets equally often: how unevenly they meet over the
    planned schedule (nothing when they do meet equally often)."""
    if league.swiss or league.table_size == 2:
        return ""
    users = [player.user_id for player in players]
    fewest, most = imbalance(users, planned_schedule(users, league.table_size, league.leftover))
    if fewest == most:  # every pair meets equally often after all: nothing to warn about
        return ""
    return text("bot.league.imbalance", locale, fewest=fewest, most=most)


# --- the sign-up buttons ---------------------------------------------------------------------------------------------
class LeagueButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:league:(?P<league>{NUMBER}):(?P<action>join|leave)",
):
    def __init__(
        self, league_id: int, action: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=f"azul:league:{league_id}:{action}")
        )
        self.league_id = league_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeagueButton:
        league = bounded(match["league"])
        return cls(league, match["action"]) if league is not None else forged(cls(0, match["action"]))

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        leagues = bot.leagues
        locale = user_locale(interaction)
        league = await leagues.league(self.league_id)
        if league.guild_id != interaction.guild_id:
            raise Refusal("bad_control")
        if self.action == "join":
            league, players = await leagues.join(league.id, interaction.user.id, display_name(interaction.user))
            await reply(interaction, text("bot.league.joined", locale, name=shown(league.name), count=len(players)))
        else:
            league, players = await leagues.leave(league.id, interaction.user.id)
            await reply(interaction, text("bot.league.left", locale, name=shown(league.name)))
        if interaction.message is not None:
            public = public_locale(interaction)
            try:
                await interaction.message.edit(
                    content=signup_text(league, players, public),
                    view=signup_view(league, public),
                    allowed_mentions=NO_MENTIONS,
                )
            except discord.HTTPException:
                log.info("league %s: the sign-up message could not be updated", league.id)


__all__ = [
    "CHOICE_LIMIT",
    "LIST_LIMIT",
    "NO_MENTIONS",
    "THREAD_NAME",
    "LeagueButton",
    "imbalance_line",
    "points_text",
    "points_words",
    "result_line",
    "round_text",
    "settings_lines",
    "signup_text",
    "signup_view",
    "stamp",
    "standings_lines",
    "standings_rows",
    "standings_text",
    "standings_title",
]
