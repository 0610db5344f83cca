"""Ratings and history in Discord: ``/azul-stats leaderboard`` and ``history`` (paged by persistent buttons) and
``/azul-me profile``. ``/azul-stats`` works in a DM too: the leaderboard everywhere, a replay by its number.

Every answer is ephemeral and read from stored rows (results, ratings, their history): nothing is recomputed per
command. Pictures (the leaderboard page, the profile card with its chart) are drawn by the bot's picture workers.
"""

from __future__ import annotations

import io
import math
import re
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app import ratings
from bot.app.errors import Refusal
from bot.app.language import described, named, text, user_locale
from bot.app.narration import ROBOT, shown
from bot.app.ports import Games, PictureMaker
from bot.app.records import PlayerTotals, RatingRow, ResultRow, ResultSeat
from bot.games.base import variant_label
from bot.ui.context import BotContext, bot_of
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.replays import open_viewer
from bot.ui.replies import display_name, reply
from render.inputs import Standing

PAGE = 10
LAST_PAGE = 10**9
"""No listing has more pages; a larger page in a button was forged (and its offset would overflow SQL's integers)."""
SCOPES = ("server", "everywhere")
HISTORY_SCOPES = ("channel", "server")


def game_label(family: str, locale: str) -> str:
    """A game of the family in words: its first variant carries the game's name."""
    return variant_label(family, locale)


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=described(f"bot.variant.{game}", variant_label(game, "en")), value=game)
        for game in engine.game_names()
    ]


def pages_of(total: int) -> int:
    return max(1, math.ceil(total / PAGE))


def pager(kind: str, scope: str, page: int, pages: int, *, family: str = "") -> discord.ui.View | None:
    """◀ ▶ buttons that turn the page; none when everything fits on one."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for step, label in (("back", "◀"), ("next", "▶")):
        button = PageButton(kind, family or "-", scope, page, step=step, label=label)
        button.item.disabled = page == 0 if step == "back" else page >= pages - 1
        view.add_item(button)
    return view


class PageButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"azul:page:(?P<kind>lb|hist):(?P<family>[a-z-]{{1,32}}):(?P<scope>[a-z]{{1,16}}):(?P<page>{NUMBER})"
        r":(?P<step>back|next)"
    ),
):
    """Turns a leaderboard or history page (the one shown is ``page``); the custom id holds everything, so it works
    after a restart."""

    def __init__(self, kind: str, family: str, scope: str, page: int, *, step: str, label: str = "") -> None:
        custom_id = f"azul:page:{kind}:{family}:{scope}:{page}:{step}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or step, style=discord.ButtonStyle.secondary, custom_id=custom_id
        )
        super().__init__(button)
        self.kind, self.family, self.scope, self.page, self.step = kind, family, scope, page, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        page = bounded(match["page"], LAST_PAGE)
        if page is None:
            return forged(cls(match["kind"], match["family"], match["scope"], 0, step=match["step"]))
        return cls(match["kind"], match["family"], match["scope"], page, step=match["step"])

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        page = self.page + (1 if self.step == "next" else -1)
        if self.kind == "lb":
            content, file, view = await leaderboard_answer(bot, interaction, self.family, self.scope, page)
            await interaction.response.edit_message(content=content, attachments=[file], view=view)
        else:
            content, view = await history_answer(bot.service, interaction, self.scope, page)
            await interaction.response.edit_message(content=content, view=view)


# --- leaderboard ----------------------------------------------------------------------------------------------------
def standing(rank: int, row: RatingRow) -> Standing:
    skill = (row.mu, row.sigma)
    return Standing(rank, row.name, row.mu, row.sigma, ratings.ordinal(skill), row.games, row.wins)


async def leaderboard_answer(
    bot: BotContext, interaction: discord.Interaction, family: str, scope: str, page: int
) -> tuple[str, discord.File, discord.ui.View | None]:
    if family not in engine.game_names():
        raise Refusal("unknown_game")
    if scope not in SCOPES:
        raise Refusal("bad_scope")
    locale = user_locale(interaction)
    guild_id = interaction.guild_id if scope == "server" else None
    if scope == "server" and guild_id is None:
        raise Refusal("server_scope_in_dm")
    rows, total = await bot.service.results.leaderboard(
        family, guild_id=guild_id, z=ratings.Z, limit=PAGE, offset=page * PAGE
    )
    pages = pages_of(total)
    if not 0 <= page < pages:
        raise Refusal("no_such_page", page=page + 1, pages=pages)
    standings = [standing(page * PAGE + n, row) for n, row in enumerate(rows, start=1)]
    game = game_label(family, locale)
    title = text("bot.stats.leaderboard_title", locale, game=game)
    where = text(f"bot.stats.scope_{scope}", locale)
    subtitle = where + " · " + text("bot.stats.page", locale, page=page + 1, pages=pages)
    png = await bot.pictures.leaderboard(title, subtitle, standings, locale)
    lines = [f"**{title}** — {subtitle}"]
    lines += [
        text(
            "bot.stats.leaderboard_line",
            locale,
            rank=s.rank,
            name=shown(s.name),
            rating=f"{s.ordinal:.1f}",
            mu=f"{s.mu:.1f}",
            sigma=f"{s.sigma:.1f}",
            count=s.games,
            wins=s.wins,
        )
        for s in standings
    ] or [text("bot.stats.leaderboard_empty", locale)]
    file = discord.File(io.BytesIO(png), filename=f"leaderboard-{family}-{page + 1}.png")
    return "\n".join(lines)[:2000], file, pager("lb", scope, page, pages, family=family)


# --- history --------------------------------------------------------------------------------------------------------
def result_name(seat: ResultSeat) -> str:
    """A finished game's player as message text shows them: escaped, a computer seat with the robot mark."""
    return f"{ROBOT} {shown(seat.name)}" if seat.computer else shown(seat.name)


def history_line(result: ResultRow, locale: str) -> str:
    players = ", ".join(
        text("bot.history.seat", locale, name=result_name(seat), score=seat.score)
        + (" 🏆" if seat.won else "")
        + (" " + text(f"bot.history.{seat.outcome}", locale) if seat.left else "")
        for seat in sorted(result.seats, key=lambda s: (s.place, s.seat))
    )
    stamp = _unix(result.finished_at)
    kind = text("bot.history.rated" if result.rated else "bot.history.casual", locale)
    return text(
        "bot.history.line",
        locale,
        game=result.game_id,
        date=f"<t:{stamp}:d>",
        variant=variant_label(result.variant, locale),
        kind=kind,
        players=players,
    )


def _unix(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp())


async def history_answer(
    service: Games, interaction: discord.Interaction, scope: str, page: int
) -> tuple[str, discord.ui.View | None]:
    if scope not in HISTORY_SCOPES:
        raise Refusal("bad_scope")
    locale = user_locale(interaction)
    if scope == "server":
        if interaction.guild_id is None:  # no choice works here: say where a server's history is
            raise Refusal("history_server_in_dm")
        results, total = await service.results.results(guild_id=interaction.guild_id, limit=PAGE, offset=page * PAGE)
    else:
        results, total = await service.results.results(
            channel_id=interaction.channel_id or 0, limit=PAGE, offset=page * PAGE
        )
    if total == 0:
        raise Refusal("no_history_dm" if interaction.guild_id is None else f"no_history_{scope}")
    pages = pages_of(total)
    if not 0 <= page < pages:
        raise Refusal("no_such_page", page=page + 1, pages=pages)
    head = text(f"bot.history.title_{scope}", locale, page=page + 1, pages=pages, count=total)
    lines = [head, *(history_line(result, locale) for result in results), text("bot.history.hint", locale)]
    return "\n".join(lines)[:2000], pager("hist", scope, page, pages)


# --- profile --------------------------------------------------------------------------------------------------------
def duration(seconds: float, locale: str) -> str:
    """A short duration in the reader's words: 45 s, 12 min, 3 h 20 min, 2 d 4 h."""
    whole = round(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return text("bot.time.days_hours", locale, days=days, hours=hours)
    if hours:
        return text("bot.time.hours_minutes", locale, hours=hours, minutes=minutes)
    if minutes:
        return text("bot.time.minutes", locale, minutes=minutes)
    return text("bot.time.seconds", locale, seconds=secs)


def streak(recent: tuple[bool, ...], locale: str) -> str:
    if not recent:
        return "—"
    run = next((n for n, won in enumerate(recent) if won != recent[0]), len(recent))
    return text("bot.stats.streak_wins" if recent[0] else "bot.stats.streak_losses", locale, count=run)


def facts_of(totals: PlayerTotals, locale: str) -> list[tuple[str, str]]:
    average = "—" if totals.average_score is None else f"{totals.average_score:.1f}"
    favourite = variant_label(totals.favourite_variant, locale) if totals.favourite_variant else "—"
    think = duration(totals.think_seconds / totals.moves, locale) if totals.moves else "—"
    return [
        (text("bot.stats.games", locale), str(totals.games)),
        (text("bot.stats.wins", locale), str(totals.wins)),
        (text("bot.stats.average_score", locale), average),
        (text("bot.stats.favourite", locale), favourite),
        (text("bot.stats.time_to_move", locale), think),
        (text("bot.stats.streak", locale), streak(totals.recent, locale)),
    ]


async def profile_answer(
    service: Games, pictures: PictureMaker, user_id: int, name: str, locale: str
) -> tuple[str, discord.File]:
    totals = await service.results.totals_of(user_id)
    if totals.games == 0:
        raise Refusal("no_games_yet", user=shown(name))
    rows = await service.results.ratings_of(user_id)
    history = await service.results.rating_history_of(user_id)
    rated = [(game_label(row.family, locale), standing(0, row)) for row in rows]
    facts = facts_of(totals, locale)
    chart = {game_label(row.family, locale): [ratings.initial(), *history.get(row.family, [])] for row in rows}
    png = await pictures.profile(name, rated, facts, chart, locale)
    lines = [text("bot.stats.profile_title", locale, name=shown(name))]
    lines += [
        text(
            "bot.stats.rating_line",
            locale,
            game=label,
            mu=f"{s.mu:.1f}",
            sigma=f"{s.sigma:.1f}",
            rating=f"{s.ordinal:.1f}",
            count=s.games,
            wins=s.wins,
        )
        for label, s in rated
    ] or [text("bot.stats.unrated", locale)]
    lines += [f"{label}: {value}" for label, value in facts]
    return "\n".join(lines)[:2000], discord.File(io.BytesIO(png), filename=f"profile-{user_id}.png")


@app_commands.command(name=named("profile"), description=described("bot.cmd.profile"))
@app_commands.describe(user=described("bot.opt.user"))
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    who = user or interaction.user
    locale = user_locale(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = bot_of(interaction)
    content, file = await profile_answer(bot.service, bot.pictures, who.id, display_name(who), locale)
    await interaction.edit_original_response(content=content, attachments=[file])


# --- the /azul-stats command ----------------------------------------------------------------------------------------
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
class StatsCog(commands.GroupCog, group_name=named("azul-stats"), group_description=described("bot.cmd.stats")):
    """What is not about one table: the leaderboard, the history of finished games and their replays."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=named("leaderboard"), description=described("bot.cmd.leaderboard"))
    @app_commands.describe(game=described("bot.opt.game"), scope=described("bot.opt.scope"))
    @app_commands.choices(
        game=game_choices(),
        scope=[app_commands.Choice(name=described(f"bot.scope.{scope}"), value=scope) for scope in SCOPES],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        bot = bot_of(interaction)
        family = game.value if game else await self._game_here(bot.service, interaction)
        where = scope.value if scope else ("server" if interaction.guild_id else "everywhere")
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, file, view = await leaderboard_answer(bot, interaction, family, where, 0)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)

    @staticmethod
    async def _game_here(service: Games, interaction: discord.Interaction) -> str:
        """The game last played in this channel, else the first of the family."""
        latest = await service.tables.latest_in(interaction.channel_id or 0)
        return ratings.family_of(latest.variant) if latest else engine.game_names()[0]

    @app_commands.command(name=named("history"), description=described("bot.cmd.history"))
    @app_commands.describe(scope=described("bot.opt.history_scope"))
    @app_commands.choices(
        scope=[app_commands.Choice(name=described(f"bot.scope.{scope}"), value=scope) for scope in HISTORY_SCOPES]
    )
    async def history(self, interaction: discord.Interaction, scope: app_commands.Choice[str] | None = None) -> None:
        service = bot_of(interaction).service
        content, view = await history_answer(service, interaction, scope.value if scope else "channel", 0)
        if view is None:
            await reply(interaction, content)
        else:
            await reply(interaction, content, view=view)

    @app_commands.command(name=named("replay"), description=described("bot.cmd.replay"))
    @app_commands.describe(game=described("bot.opt.game_id"))
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1]) -> None:
        await open_viewer(bot_of(interaction), interaction, game)


__all__ = ["PageButton", "StatsCog", "profile"]
