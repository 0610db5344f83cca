"""Time limits per move, in words and posts: the lobby's and status's lines, the clock beside a name on the board,
the warnings, what a timeout did, and ``/azul-server settings`` (a server's defaults for new games).

The rules live elsewhere: each waiting seat's clock is a set of timer rows (:mod:`bot.app.timers`), and a timeout is
:meth:`bot.app.stand_ins.StandIns.time_out` (the strongest computer plays the move; the player may be dropped; after
three in a row the computer keeps the seat until ``/azul seat`` without a level gives it back).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import discord
from discord import app_commands

from bot.app.computer import STRONGEST, THINKING_SECONDS
from bot.app.errors import BoardNotPosted, Refusal
from bot.app.language import described, guild_locale, text, user_locale
from bot.app.narration import headline, level_label, limit_line, seat_label, shown, thinking_line
from bot.app.outcomes import TimedOut
from bot.app.ports import Games
from bot.app.quotas import GameCaps
from bot.app.records import GameRow
from bot.app.timers import LIMIT_HOURS, ON_TIMEOUT, TIMEOUTS_IN_A_ROW, Fired
from bot.infra import metrics
from bot.ui.context import BoardPoster, bot_of
from bot.ui.replies import is_admin, reply

log = logging.getLogger(__name__)


def limit_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=described(f"bot.limit.hours.{hours}"), value=str(hours)) for hours in LIMIT_HOURS]


def action_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=described(f"bot.limit.action.{action}"), value=action) for action in ON_TIMEOUT]


def thinking_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=described(f"bot.thinking.{seconds}"), value=str(seconds))
        for seconds in THINKING_SECONDS
    ]


def stamp(moment: datetime, style: str = "R") -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


async def deadline_lines(service: Games, game: GameRow, locale: str) -> list[str]:
    """For ``status``: the game's limit, and when each waiting player's time runs out."""
    if game.status != "active" or not game.time_limit_hours:
        return []
    lines = [limit_line(game.time_limit_hours, game.on_timeout, locale)]
    by_seat = game.by_seat()
    for seat, due in sorted((await service.timers.deadlines(game)).items()):
        player = f"**{seat_label(game, by_seat[seat], locale)}**"
        lines.append(text("bot.limit.deadline", locale, player=player, when=stamp(due, "f"), relative=stamp(due)))
    return lines


def timeout_lines(game: GameRow, timed_out: TimedOut, locale: str) -> list[str]:
    """What a timeout did, plainly: whose time ran out, who made the move, and what becomes of the seat."""
    turn = timed_out.turn
    player = f"**{shown(game.by_seat()[turn.seat].name)}**"
    level = level_label(STRONGEST, locale)
    lines = [headline(turn, locale)]
    if timed_out.dropped:
        lines.append(text("bot.limit.post.dropped", locale, player=player, level=level, hours=game.time_limit_hours))
    else:
        lines.append(text("bot.limit.post.played", locale, player=player, level=level, hours=game.time_limit_hours))
        if timed_out.handed_over:
            lines.append(text("bot.limit.post.handed_over", locale, player=player, count=timed_out.timeouts))
        elif not turn.over and timed_out.timeouts == TIMEOUTS_IN_A_ROW - 1:
            lines.append(text("bot.limit.post.last_chance", locale, player=player, count=TIMEOUTS_IN_A_ROW))
    return lines


async def run_deadlines(service: Games, poster: BoardPoster, channel: discord.abc.Messageable, due: Fired) -> int:
    """Every seat of ``due`` whose time ran out: the timeout, then its board in the channel. How many timed out."""
    guild = getattr(channel, "guild", None)
    locale = guild_locale(guild)
    done = 0
    for seat in due.seats:
        try:
            timed_out = await service.stand_ins.time_out(due.game.id, seat, since=due.versions.get(seat, -1))
        except Refusal as refusal:  # a move landed meanwhile: the seat's next clock (if any) takes over
            log.info("game %s: seat %s's timeout did not play (%s)", due.game.id, seat, refusal.key)
            continue
        if timed_out is None:
            continue
        done += 1
        # Never held back (the table should see a timeout), but it tells the moves of a run held back before it.
        timed_out = replace(timed_out, turn=await service.boards.told(timed_out.turn))
        turn = timed_out.turn
        try:
            await poster.post_board(
                channel,
                turn.game,
                turn.state,
                guild=guild,
                headline="\n".join(timeout_lines(turn.game, timed_out, locale)),
                events=turn.events,
                ping=turn.to_ping(),
            )
        except (BoardNotPosted, discord.HTTPException):  # the sweep posts it later
            log.warning("game %s: the timeout is saved but its board could not be posted", due.game.id)
            metrics.post_failed("timeout")
    return done


def warning_key(game: GameRow) -> str:
    return f"bot.limit.warn.{game.on_timeout}"


async def warning_params(service: Games, game: GameRow, seats: Sequence[int]) -> dict[str, str]:
    """When the earliest of these seats' time runs out, for the warning."""
    found = await service.timers.deadlines(game)
    due = min((found[seat] for seat in seats if seat in found), default=None)
    return {"when": stamp(due) if due else "?"}


async def server_settings(
    interaction: discord.Interaction,
    *,
    time_limit: app_commands.Choice[str] | None,
    on_timeout: app_commands.Choice[str] | None,
    member_games: int | None = None,
    server_games: int | None = None,
    threads: bool | None = None,
    thinking: app_commands.Choice[str] | None = None,
) -> None:
    """``/azul-server settings``: show this server's defaults for new games and its caps on open games; a server
    manager changes those given."""
    service = bot_of(interaction).service
    guild_id = interaction.guild_id or 0
    locale = user_locale(interaction)
    hours, action = await service.servers.server_defaults(guild_id)
    caps = await service.settings.game_caps(guild_id)
    seconds = await service.settings.server_thinking(guild_id)
    if all(given is None for given in (time_limit, on_timeout, member_games, server_games, threads, thinking)):
        lines = settings_lines(hours, action, caps, seconds, locale)
        shown = text("bot.limit.server.shown", locale, limit=lines)
        await reply(interaction, f"{shown}\n{await threads_line(service, guild_id, locale)}")
        return
    if not is_admin(interaction):
        raise Refusal("only_manager_sets_server")
    if member_games is not None or server_games is not None:
        caps = await service.settings.set_game_caps(guild_id, member_games, server_games)
    if time_limit is not None or on_timeout is not None:
        hours = int(time_limit.value) if time_limit else hours
        action = on_timeout.value if on_timeout else action
        await service.settings.set_server_defaults(guild_id, hours, action)
    if threads is not None:
        await service.servers.set_server_threads(guild_id, threads)
    if thinking is not None:
        seconds = int(thinking.value)
        await service.settings.set_server_thinking(guild_id, seconds)
    saved = text("bot.limit.server.saved", locale, limit=settings_lines(hours, action, caps, seconds, locale))
    await reply(interaction, f"{saved}\n{await threads_line(service, guild_id, locale)}")


def settings_lines(hours: int, action: str, caps: GameCaps, thinking: int, locale: str) -> str:
    caps_line = text("bot.quota.caps", locale, member=caps.member, server=caps.server)
    return f"{limit_line(hours, action, locale)}\n{thinking_line(thinking, locale)}\n{caps_line}"


async def threads_line(service: Games, guild_id: int, locale: str) -> str:
    return text(
        "bot.thread.server_on" if await service.servers.server_threads(guild_id) else "bot.thread.server_off", locale
    )


__all__ = [
    "action_choices",
    "deadline_lines",
    "limit_choices",
    "limit_line",
    "run_deadlines",
    "server_settings",
    "timeout_lines",
    "warning_key",
    "warning_params",
]
