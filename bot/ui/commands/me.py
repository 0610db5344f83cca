"""``/azul-me …``: commands about the person asking, wherever they are (a server or a DM with the bot).

``games`` lists every open game the user sits at, in every server the bot shares with them: those waiting for the
user first, then the others, each with a link to its newest board (or lobby), whose turn it is and since when.
``away`` (1–30 days) and ``back`` set and end a vacation: the player's reminders wait until it ends, their games do
not time out, and the others see "away until …" in ``status`` and under the board. ``settings`` shows and changes
the person's reminders (on or off, once or every 6/12/24 hours while it is their turn, quiet hours in their own time
zone) and how their turn is announced (a DM or a mention in the channel).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.errors import Refusal
from bot.app.language import described, named, text, user_locale
from bot.app.narration import seat_label, shown
from bot.app.outcomes import waiting_in
from bot.app.ports import Games
from bot.app.presence import stamp
from bot.app.records import GameRow, UserPrefs
from bot.app.settings import MAX_AWAY_DAYS
from bot.games.base import variant_label
from bot.ui.commands.stats import profile
from bot.ui.context import bot_of
from bot.ui.privacy import forget
from bot.ui.replies import reply

LIST_LIMIT = 2000
REMIND_EVERY = (0, 6, 12, 24)  # hours; 0: once per turn
CHOICE_LIMIT = 25


@dataclass(frozen=True, slots=True)
class OpenGame:
    game: GameRow
    to_act: tuple[int, ...]  # engine seats that must act (empty in a lobby)
    my_turn: bool
    due: datetime | None = None  # when the user's time to move runs out (games with a time limit)
    league: tuple[str, int] | None = None  # the league and round the game was opened for


def open_games(games: list[GameRow], user_id: int) -> list[OpenGame]:
    """The user's open games, those waiting for the user first (each part longest waiting first)."""
    entries = []
    for game in games:
        to_act = tuple(waiting_in(game))
        entries.append(OpenGame(game, to_act, game.seat_of(user_id) in to_act))
    return sorted(entries, key=lambda entry: not entry.my_turn)  # stable: keeps the longest waiting first


def link(game: GameRow) -> str:
    """A link to the game's newest board (or its lobby), else to its channel."""
    message = game.board_message_id or game.lobby_message_id
    if message is None:
        return f"<#{game.channel_id}>"
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/{message}"


def game_line(entry: OpenGame, locale: str) -> str:
    game = entry.game
    since = f"<t:{int(datetime.fromisoformat(game.turn_since).timestamp())}:R>"
    if game.status == "lobby":
        state = text("bot.mygames.lobby", locale, seats=len(game.seats), max=game.max_seats)
    elif entry.my_turn:
        state = text("bot.mygames.your_turn", locale, since=since)
        if entry.due is not None:
            state += " " + text("bot.limit.mygames", locale, when=f"<t:{int(entry.due.timestamp())}:R>")
    else:
        names = game.by_seat()
        players = ", ".join(f"**{seat_label(game, names[seat], locale)}**" for seat in entry.to_act)
        state = text("bot.mygames.waiting", locale, players=players, since=since)
    variant = variant_label(game.variant, locale)
    line = text("bot.mygames.line", locale, variant=variant, game=game.id, link=link(game), state=state)
    if entry.league is not None:
        name, number = entry.league
        line += " · " + text("bot.league.mygames", locale, name=shown(name), round=number)
    return line


def my_games_text(entries: list[OpenGame], locale: str, damaged: Sequence[GameRow] = ()) -> str:
    """The list, and a word on each game of the user's that is damaged (quarantined: it cannot be played)."""
    notes = [text("bot.mygames.damaged", locale, game=game.id, channel=f"<#{game.channel_id}>") for game in damaged]
    if not entries:
        return "\n".join([text("bot.mygames.none", locale), *notes])
    mine = sum(entry.my_turn for entry in entries)
    lines = [text("bot.mygames.header", locale, count=len(entries), mine=mine), *notes]
    for entry in entries:
        line = game_line(entry, locale)
        if sum(len(kept) + 1 for kept in lines) + len(line) > LIST_LIMIT - 2:
            lines.append("…")
            break
        lines.append(line)
    return "\n".join(lines)


async def with_deadline(service: Games, entry: OpenGame, user_id: int) -> OpenGame:
    """The entry with when the user's time runs out, where a limit's clock runs for them."""
    seat = entry.game.seat_of(user_id)
    if not entry.my_turn or seat is None or not entry.game.time_limit_hours:
        return entry
    return replace(entry, due=(await service.timers.deadlines(entry.game)).get(seat))


async def with_league(service: Games, entry: OpenGame) -> OpenGame:
    """The entry with the league and round its game was opened for, if any."""
    found = await service.league_tables.table_of_game(entry.game.id)
    return replace(entry, league=(found[1].name, found[0].round)) if found else entry


@app_commands.command(name=named("games"), description=described("bot.cmd.games"))
async def games(interaction: discord.Interaction) -> None:
    service = bot_of(interaction).service
    entries = open_games(await service.tables.open_games_of(interaction.user.id), interaction.user.id)
    entries = [await with_deadline(service, entry, interaction.user.id) for entry in entries]
    entries = [await with_league(service, entry) for entry in entries]
    damaged = await service.tables.damaged_games_of(interaction.user.id)
    await reply(interaction, my_games_text(entries, user_locale(interaction), damaged))


@cache
def time_zones() -> tuple[str, ...]:
    from zoneinfo import available_timezones  # noqa: PLC0415 - with the first zone typed, not at start-up

    return tuple(sorted(available_timezones()))


async def zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA zones containing what was typed (``warsaw``, ``Europe/K``), the typed start first."""
    typed = current.strip().casefold().replace(" ", "_")
    zones = [zone for zone in time_zones() if typed in zone.casefold()]
    zones.sort(key=lambda zone: not zone.casefold().startswith(typed))
    return [app_commands.Choice(name=zone, value=zone) for zone in zones[:CHOICE_LIMIT]]


def settings_text(prefs: UserPrefs, locale: str, *, saved: bool) -> str:
    if not prefs.reminders:
        reminders = text("bot.settings.reminders_off", locale)
    elif prefs.remind_every_hours:
        reminders = text("bot.settings.reminders_every", locale, hours=prefs.remind_every_hours)
    else:
        reminders = text("bot.settings.reminders_once", locale)
    zone = prefs.timezone or "UTC"
    if prefs.quiet_start is None or prefs.quiet_end is None:
        quiet = text("bot.settings.quiet_none", locale, zone=zone)
    else:
        quiet = text(
            "bot.settings.quiet", locale, start=f"{prefs.quiet_start:02}:00", end=f"{prefs.quiet_end:02}:00", zone=zone
        )
    notice = text("bot.settings.notice_dm" if prefs.notify_dm else "bot.settings.notice_channel", locale)
    heading = text("bot.settings.saved" if saved else "bot.settings.title", locale)
    return "\n".join([heading, reminders, quiet, notice])


@app_commands.command(name=named("settings"), description=described("bot.cmd.settings"))
@app_commands.describe(
    reminders=described("bot.opt.reminders"),
    every=described("bot.opt.every"),
    quiet_from=described("bot.opt.quiet_from"),
    quiet_to=described("bot.opt.quiet_to"),
    timezone=described("bot.opt.timezone"),
    notice=described("bot.opt.notice"),
)
@app_commands.choices(
    every=[app_commands.Choice(name=described(f"bot.every.{hours}"), value=str(hours)) for hours in REMIND_EVERY],
    notice=[
        app_commands.Choice(name=described("bot.notice.dm"), value="dm"),
        app_commands.Choice(name=described("bot.notice.channel"), value="channel"),
    ],
)
@app_commands.autocomplete(timezone=zone_choices)
async def settings(  # noqa: PLR0917 (discord.py passes slash command options by name; one per setting)
    interaction: discord.Interaction,
    reminders: bool | None = None,
    every: app_commands.Choice[str] | None = None,
    quiet_from: app_commands.Range[int, 0, 23] | None = None,
    quiet_to: app_commands.Range[int, 0, 23] | None = None,
    timezone: str | None = None,
    notice: app_commands.Choice[str] | None = None,
) -> None:
    """Show the person's settings, or change those given (quiet hours from = to switches them off)."""
    service = bot_of(interaction).service
    locale = user_locale(interaction)
    values: dict[str, object] = {}
    if timezone is not None:
        zone = timezone.strip()
        if zone not in time_zones():
            raise Refusal("bad_timezone", zone=zone[:60])
        values["timezone"] = zone
    if (quiet_from is None) != (quiet_to is None):
        raise Refusal("quiet_needs_both")
    if quiet_from is not None:
        values["quiet_start"], values["quiet_end"] = (None, None) if quiet_from == quiet_to else (quiet_from, quiet_to)
    if reminders is not None:
        values["reminders"] = int(reminders)
    if every is not None:
        values["remind_every_hours"] = int(every.value)
    if values:
        await service.users.set_reminder_prefs(interaction.user.id, **values)
    if notice is not None:
        await service.settings.set_notify(interaction.user.id, notice.value == "dm", locale)
    prefs = await service.users.user(interaction.user.id)
    saved = bool(values) or notice is not None
    await reply(interaction, settings_text(prefs, locale, saved=saved))


@app_commands.command(name=named("away"), description=described("bot.cmd.away"))
@app_commands.describe(days=described("bot.opt.days"))
async def away(interaction: discord.Interaction, days: app_commands.Range[int, 1, MAX_AWAY_DAYS]) -> None:
    until = await bot_of(interaction).service.settings.away(interaction.user.id, days)
    await reply(interaction, text("bot.reply.away", user_locale(interaction), until=stamp(until), days=days))


@app_commands.command(name=named("back"), description=described("bot.cmd.back"))
async def back(interaction: discord.Interaction) -> None:
    await bot_of(interaction).service.settings.back(interaction.user.id)
    await reply(interaction, text("bot.reply.back", user_locale(interaction)))


@app_commands.command(name=named("quickplay"), description=described("bot.cmd.quickplay"))
@app_commands.describe(enabled=described("bot.opt.enabled"))
async def quickplay(interaction: discord.Interaction, enabled: bool) -> None:
    await bot_of(interaction).service.users.set_quick_play(interaction.user.id, enabled)
    await reply(interaction, text("bot.reply.quick_on" if enabled else "bot.reply.quick_off", user_locale(interaction)))


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
class PersonalCog(commands.GroupCog, group_name=named("azul-me"), group_description=described("bot.cmd.me")):
    """``/azul-me …``: the same commands in a server and in a DM with the bot."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        if group is None:
            raise RuntimeError("a GroupCog always has its group")
        members: tuple[app_commands.Command[Any, ..., None], ...] = (
            games,
            settings,
            away,
            back,
            quickplay,
            profile,
            forget,
        )
        for command in members:
            group.add_command(command)


__all__ = [
    "OpenGame",
    "PersonalCog",
    "game_line",
    "my_games_text",
    "open_games",
    "settings_text",
    "zone_choices",
]
