"""Leagues in Discord: ``/azul-league`` for everyone (standings, withdraw, list), ``/azul-server league`` for server
managers (create, drop, pause, end), the sign-up message with its Join / Leave buttons, and the league's own work
in the timer loop (:class:`LeagueRuns`): closing sign-ups, opening rounds, recording results, posting standings.

The service and its design are in :mod:`bot.app.leagues`; pairing and standings in :mod:`bot.app.league_rules`.
``/azul-server`` needs *Manage Server* by default (``default_member_permissions``); a server gives it to other roles
in its own Integrations settings, and Discord enforces that, so the commands do not check again.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app.errors import Refusal
from bot.app.language import described, guild_locale, named, text, user_locale
from bot.app.league_rules import BYE, COMPUTER, Line, imbalance, planned_schedule, points_of
from bot.app.leagues import ROUND_LEASE, LeagueService, Recorded
from bot.app.narration import shown
from bot.app.pictures import Pictures
from bot.app.service import GameService
from bot.app.timers import LIMIT_HOURS
from bot.games.base import variant_label
from bot.infra.clock import iso
from bot.infra.league_store import LeaguePlayer, LeagueRow, TableRow
from bot.ui.commands.table import variant_choices
from bot.ui.context import BoardPoster, bot_of
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.limits import action_choices
from bot.ui.replies import display_name, public_locale, reply
from render.league import LeagueStanding, standings_png

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
        else text("bot.league.rounds_all", locale)
    )
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
    played = LeagueService.played(league, table)
    won = {} if played is None else points_of(played)
    order = sorted(range(len(table.players)), key=lambda index: result["places"][index])
    parts = []
    for index in order:
        user = table.players[index]
        name = names.get(user, "?") if user is not None else text("bot.league.computer", locale)
        extra = f" (+{points_words(won[user], locale)})" if user is not None else ""
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
    """For a round robin at tables of 3–4: how evenly pairs meet over the planned schedule."""
    if league.swiss or league.table_size == 2:
        return ""
    users = [player.user_id for player in players]
    fewest, most = imbalance(users, planned_schedule(users, league.table_size, league.leftover))
    return text("bot.league.imbalance", locale, fewest=fewest, most=most)


# --- the league's own work in the timer loop -------------------------------------------------------------------------
class Host(Protocol):
    """What the league's work needs from the client."""

    @property
    def service(self) -> GameService: ...

    @property
    def poster(self) -> BoardPoster: ...

    @property
    def pictures(self) -> Pictures: ...

    def wake_computer(self, game_id: int) -> None: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...


class LeagueRuns:
    """Closes sign-ups, opens rounds, records results and keeps the standings current: :meth:`tick`, run by the
    timer loop and whenever a game was settled. Every step is claimed in the store and guarded by the rows' states,
    so any number of processes may run it, and one that dies leaves its step to the next."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._lock = asyncio.Lock()
        self._woken: set[asyncio.Task[None]] = set()

    @property
    def leagues(self) -> LeagueService:
        return LeagueService(self.host.service)

    def wake(self) -> None:
        """Run a tick soon (a game was just settled: it may finish a round)."""
        task = asyncio.create_task(self.tick(), name="league tick")
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def settled(self) -> None:
        """Wait for the ticks woken so far (tests, and a clean shutdown)."""
        while self._woken:
            await asyncio.gather(*self._woken, return_exceptions=True)

    async def tick(self) -> None:
        async with self._lock:
            for step in (self._close_signups, self._record, self._finish_rounds, self._open_rounds):
                try:
                    await step()
                except Exception:
                    log.exception("a league step failed (%s); the next tick tries again", step.__name__)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.host.get_channel(channel_id) or await self.host.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise Refusal("no_channel")
        return channel

    async def post(self, league: LeagueRow, key_or_text: str) -> None:
        channel = await self._channel(league.channel_id)
        await channel.send(key_or_text[:LIST_LIMIT], allowed_mentions=NO_MENTIONS)

    async def _claimed(self, work: str) -> bool:
        return await self.host.service.claim(work, ROUND_LEASE)

    # sign-up
    async def _safely(self, what: str, work: Awaitable[None]) -> None:
        """Run one league's piece of work; a failure (Discord refusing a post, a channel gone) is logged and the
        other leagues' work goes on. A round or a sign-up not yet opened or closed stays due in the store and is tried
        again at the next tick; a result line that Discord refused is not posted again (the standings, edited after
        every result, still show it)."""
        try:
            await work
        except Exception:
            log.exception("league work failed: %s", what)

    async def _close_signups(self) -> None:
        now = self.host.service.clock.now()
        for due in await self.leagues.store.leagues_with("signup"):
            if datetime.fromisoformat(due.signup_closes) <= now:
                await self._safely(f"closing the sign-up of league {due.id}", self._close_signup(due))

    async def _close_signup(self, due: LeagueRow) -> None:
        work = f"league-signup:{due.id}"
        if not await self._claimed(work):
            return
        try:
            league, started = await self.leagues.close_signup(due)
        except Refusal:
            return  # another process closed it first
        finally:
            await self.host.service.release(work)
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        players = await self.leagues.players(league)
        await self.refresh_signup(league, players)
        if not started:
            await self.post(league, text("bot.league.cancelled", locale, name=shown(league.name), count=len(players)))
            return
        said = [text("bot.league.started", locale, name=shown(league.name), count=len(players))]
        said.append(imbalance_line(league, players, locale))
        await self.post(league, "\n".join(line for line in said if line))
        await self.refresh_standings(league)

    async def refresh_signup(self, league: LeagueRow, players: Sequence[LeaguePlayer]) -> None:
        if league.signup_message_id is None:
            return
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        try:
            await channel.get_partial_message(league.signup_message_id).edit(
                content=signup_text(league, players, locale),
                view=signup_view(league, locale),
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException:
            log.info("league %s: the sign-up message could not be updated", league.id)

    # results and standings
    async def _record(self) -> None:
        touched: dict[int, LeagueRow] = {}
        for recorded in await self.leagues.record_results():
            await self._safely(f"announcing table {recorded.table.id}", self._announce_result(recorded))
            touched[recorded.league.id] = recorded.league
        for league in touched.values():
            await self._safely(f"the standings of league {league.id}", self._refresh_standings_of(league.id))

    async def _refresh_standings_of(self, league_id: int) -> None:
        await self.refresh_standings(await self.leagues.league(league_id))

    async def _announce_result(self, recorded: Recorded) -> None:
        league = recorded.league
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        players = await self.leagues.players(league)
        await self.post(league, result_line(league, recorded.table, players, locale))

    async def refresh_standings(self, league: LeagueRow) -> None:
        """Edit the league's pinned standings (post and pin them the first time)."""
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        lines, players = await self.leagues.standings(league)
        content = standings_text(league, lines, players, locale)
        subtitle = settings_lines(league, locale)[0]  # game · format · table size · rounds
        rows = standings_rows(lines, players)
        png: bytes = await self.host.pictures.pool.run(
            standings_png, standings_title(league, locale, league.name), subtitle, rows, league.swiss, locale
        )
        file = discord.File(io.BytesIO(png), filename=f"league-{league.id}-standings.png")
        if league.standings_message_id is not None:
            try:
                await channel.get_partial_message(league.standings_message_id).edit(
                    content=content, attachments=[file], allowed_mentions=NO_MENTIONS
                )
                return
            except discord.NotFound:
                log.info("league %s: the standings message is gone; posting it again", league.id)
        message = await channel.send(content, file=file, allowed_mentions=NO_MENTIONS)
        await self.leagues.store.set_league_message(league.id, "standings", message.id)
        try:
            await message.pin()
        except discord.HTTPException:
            log.info("league %s: the standings could not be pinned", league.id)

    async def _finish_rounds(self) -> None:
        for league_id, number in await self.leagues.store.open_rounds():
            await self._safely(f"closing round {number} of league {league_id}", self._finish_round(league_id, number))

    async def _finish_round(self, league_id: int, number: int) -> None:
        if await self.leagues.finish_round(await self.leagues.league(league_id), number) == "final":
            await self.announce_final(await self.leagues.league(league_id))

    async def announce_final(self, league: LeagueRow, *, early: bool = False) -> None:
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        lines, players = await self.leagues.standings(league)
        winners = [shown(p.name) for line in lines if line.rank == 1 for p in players if p.user_id == line.user_id]
        key = "bot.league.ended_early" if early else "bot.league.over"
        said = [text(key, locale, name=shown(league.name), winner=", ".join(f"**{w}**" for w in winners) or "—")]
        said += standings_lines(league, lines, players, locale)
        await self.post(league, "\n".join(said))
        await self.refresh_standings(league)

    # rounds
    async def _open_rounds(self) -> None:
        for league_id, number in await self.leagues.store.due_rounds(iso(self.host.service.clock.now())):
            work = f"league-round:{league_id}:{number}"
            if not await self._claimed(work):
                continue
            try:
                league = await self.leagues.league(league_id)
                await self._safely(f"opening round {number} of league {league_id}", self._open_round(league, number))
            finally:
                await self.host.service.release(work)

    async def _open_round(self, league: LeagueRow, number: int) -> None:
        if not await self.leagues.store.tables(league.id, number) and not await self.leagues.enough_players(league):
            await self.announce_final(await self.leagues.end(league))  # one player left (or none): nobody to play
            return
        tables = await self.leagues.pair(league, number)
        channel = await self._channel(league.channel_id)
        guild = getattr(channel, "guild", None)
        locale = guild_locale(guild)
        players = await self.leagues.players(league)
        names = {player.user_id: player.name for player in players}
        for table in tables:
            if table.bye:
                continue
            thread = await self._thread(league, table, channel, names, locale)
            opened = await self.leagues.open_game(league, table, thread.id)
            if opened.game.board_message_id is None:
                people = [user for user in table.players if user is not None]
                welcome = text("bot.league.game_begins", locale, name=shown(league.name), round=number)
                await thread.send(
                    " ".join(f"<@{user}>" for user in people) + " " + welcome,
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user) for user in people]),
                )
                await self.host.poster.post_board(
                    thread, opened.game, opened.state, guild=guild, events=engine.opening_events(opened.state)
                )
            self.host.wake_computer(opened.game.id)
        if await self.leagues.store.set_round_state(league.id, number, "pending", "open"):
            tables = await self.leagues.store.tables(league.id, number)
            await self.post(league, round_text(league, number, tables, players, locale))

    async def _thread(
        self, league: LeagueRow, table: TableRow, channel: Any, names: dict[int, str], locale: str
    ) -> Any:
        """The table's thread: the one made before (a restart mid-round), else a new public thread."""
        if table.channel_id is not None:
            try:
                return await self._channel(table.channel_id)
            except (discord.HTTPException, Refusal):
                log.info("league %s: the thread of table %s is gone; opening another", league.id, table.id)
        people = [
            names.get(user, "?") if user is not None else text("bot.league.computer", locale) for user in table.players
        ]
        title = text("bot.league.thread", locale, name=league.name, round=table.round, players=" – ".join(people))
        thread = await channel.create_thread(
            name=title[:THREAD_NAME], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
        await self.leagues.store.set_table(table.id, "channel_id", thread.id)
        return thread


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

    async def act(self, interaction: discord.Interaction) -> None:
        leagues = LeagueService(bot_of(interaction).service)
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


# --- commands --------------------------------------------------------------------------------------------------------
async def league_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's leagues whose name contains what was typed (running ones first)."""
    if interaction.guild_id is None:
        return []
    leagues = LeagueService(bot_of(interaction).service)
    found = await leagues.store.leagues_in(interaction.guild_id, finished=True)
    wanted = current.casefold().strip()
    found.sort(key=lambda league: league.status == "over")
    return [
        app_commands.Choice(name=league.name, value=str(league.id))
        for league in found
        if wanted in league.name.casefold()
    ][:CHOICE_LIMIT]


async def chosen_league(interaction: discord.Interaction, value: str | None) -> LeagueRow:
    """The league an option names (its id from the autocomplete, or its name typed out); without one, the
    server's only league that is not over, or its newest when none is running."""
    leagues = LeagueService(bot_of(interaction).service)
    guild_id = interaction.guild_id or 0
    if value and value.strip().isdigit() and len(value.strip()) <= 18:
        league = await leagues.store.league(int(value.strip()))
        if league is not None and league.guild_id == guild_id:
            return league
    if value and value.strip():
        return await leagues.named(guild_id, value)
    running = await leagues.store.leagues_in(guild_id)
    if len(running) == 1:
        return running[0]
    if running:
        raise Refusal("league_which")
    finished = await leagues.store.leagues_in(guild_id, finished=True)
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


def runs_of(interaction: discord.Interaction) -> LeagueRuns:
    runs = getattr(interaction.client, "league_runs", None)
    if not isinstance(runs, LeagueRuns):
        raise TypeError("the client runs no leagues")
    return runs


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
        chosen = await chosen_league(interaction, league)
        lines, players = await LeagueService(bot_of(interaction).service).standings(chosen)
        locale = user_locale(interaction)
        await reply(interaction, standings_text(chosen, lines, players, locale))

    @app_commands.command(name=named("withdraw"), description=described("bot.cmd.league_withdraw"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def withdraw(self, interaction: discord.Interaction, league: str | None = None) -> None:
        chosen = await chosen_league(interaction, league)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the standings picture takes a moment
        await leave_league(interaction, chosen, interaction.user.id, display_name(interaction.user), "withdrew")
        await reply(interaction, text("bot.league.withdrawn", user_locale(interaction), name=shown(chosen.name)))

    @app_commands.command(name=named("list"), description=described("bot.cmd.league_list"))
    async def list(self, interaction: discord.Interaction) -> None:
        leagues = LeagueService(bot_of(interaction).service)
        locale = user_locale(interaction)
        found = await leagues.store.leagues_in(interaction.guild_id or 0, finished=True)
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


async def leave_league(interaction: discord.Interaction, league: LeagueRow, user_id: int, name: str, how: str) -> None:
    """A player withdraws (or is dropped): the computer plays on for them; announced once in the league's channel."""
    runs = runs_of(interaction)
    if league.status == "signup":
        _, players = await runs.leagues.leave(league.id, user_id)
        await runs.refresh_signup(league, players)
        return
    handed = await runs.leagues.withdraw(league, user_id, status=how)
    for game in handed:
        bot_of(interaction).wake_computer(game.id)  # it may be their turn there now
    locale = public_locale(interaction)
    await runs.post(
        league, text(f"bot.league.{how}", locale, player=shown(name), name=shown(league.name), count=len(handed))
    )
    await runs.refresh_standings(league)


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
        leagues = LeagueService(bot_of(interaction).service)
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
        locale = public_locale(interaction)
        await interaction.response.send_message(
            signup_text(league, [], locale),
            view=signup_view(league, locale) or discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
        )
        message = await interaction.original_response()
        await leagues.store.set_league_message(league.id, "signup", message.id)

    @app_commands.command(name=named("drop"), description=described("bot.cmd.league_drop"))
    @app_commands.describe(league=described("bot.opt.league"), player=described("bot.opt.player"))
    @app_commands.autocomplete(league=league_choices)
    async def drop(self, interaction: discord.Interaction, player: discord.User, league: str | None = None) -> None:
        chosen = await chosen_league(interaction, league)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the standings picture takes a moment
        await leave_league(interaction, chosen, player.id, display_name(player), "dropped")
        await reply(
            interaction, text("bot.league.reply.dropped", user_locale(interaction), player=shown(display_name(player)))
        )

    @app_commands.command(name=named("pause"), description=described("bot.cmd.league_pause"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def pause(self, interaction: discord.Interaction, league: str | None = None) -> None:
        """Pause a running league, or let a paused one go on."""
        chosen = await chosen_league(interaction, league)
        leagues = LeagueService(bot_of(interaction).service)
        changed = await leagues.set_paused(chosen, chosen.status != "paused")
        locale = public_locale(interaction)
        key = "bot.league.paused" if changed.status == "paused" else "bot.league.resumed"
        await runs_of(interaction).post(changed, text(key, locale, name=shown(changed.name)))
        await reply(interaction, text(key, user_locale(interaction), name=shown(changed.name)))
        if changed.status == "running":
            await runs_of(interaction).tick()  # a round that fell due while paused starts now

    @app_commands.command(name=named("end"), description=described("bot.cmd.league_end"))
    @app_commands.describe(league=described("bot.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def end(self, interaction: discord.Interaction, league: str | None = None) -> None:
        chosen = await chosen_league(interaction, league)
        ended = await LeagueService(bot_of(interaction).service).end(chosen)
        await interaction.response.defer(ephemeral=True, thinking=True)
        runs = runs_of(interaction)
        await runs.refresh_signup(ended, await runs.leagues.players(ended))
        await runs.announce_final(ended, early=True)
        await reply(interaction, text("bot.league.reply.ended", user_locale(interaction), name=shown(ended.name)))


__all__ = ["LeagueAdmin", "LeagueButton", "LeagueCog", "LeagueRuns"]
