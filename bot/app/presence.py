"""Who is away and whose clock runs: the notes beside the players' names on the board picture and the "away" lines
under a board, read from the players' settings and the game's deadlines."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime, timedelta

from bot.app.language import text
from bot.app.narration import seat_label
from bot.app.reads import PlayerPrefs
from bot.app.records import GameRow, UserPrefs
from bot.app.timers import Timers
from bot.infra.clock import iso
from render.inputs import SeatInfo

URGENT = timedelta(hours=1)
"""Less time left than this turns a player's clock on the board red (the last warning comes then)."""


def stamp(moment: str, style: str = "f") -> str:
    """A Discord timestamp: every reader sees the moment in their own time zone and language."""
    return f"<t:{int(datetime.fromisoformat(moment).timestamp())}:{style}>"


async def seated_prefs(users: PlayerPrefs, game: GameRow) -> dict[int, UserPrefs]:
    """The preferences of every person seated in ``game``, in one read."""
    return await users.users([seat.user_id for seat in game.seats if seat.user_id is not None])


async def seat_notes(
    users: PlayerPrefs,
    timers: Timers,
    game: GameRow,
    now: datetime,
    locale: str,
    *,
    prefs: Mapping[int, UserPrefs] | None = None,
) -> list[SeatInfo | None]:
    """What the board picture shows beside each seated player's name: "away until <date>" (UTC date), or the time
    left to move for a player whose clock runs (red in its last hour); ``prefs``: the players' preferences, when
    read already (:func:`seated_prefs`)."""
    due = await timers.deadlines(game)
    prefs = prefs if prefs is not None else await seated_prefs(users, game)
    notes: list[SeatInfo | None] = []
    for number, seat in enumerate(game.by_seat()):
        if seat.user_id is None:  # a computer seat is never away and has no clock
            notes.append(None)
            continue
        until = prefs[seat.user_id].away_until
        away = until if until and until > iso(now) else None
        note = _away_note(datetime.fromisoformat(away).date(), locale) if away else None
        if number in due and not away:  # an away player's clock stands still: the away note says so
            left = time_left(due[number], now, locale)
            clock = text("bot.limit.left", locale, left=left)
            note = replace(note or SeatInfo(), clock=clock, clock_short=left, urgent=due[number] - now <= URGENT)
        notes.append(note)
    return notes


def _away_note(until: date, locale: str) -> SeatInfo:
    """ "away until 2026-12-03", and "3.12" for a crowded header."""
    short = text("bot.picture.away_short", locale, day=until.day, month=until.month)
    return SeatInfo(away=text("bot.picture.away", locale, date=until.isoformat()), away_short=short)


def time_left(due: datetime, now: datetime, locale: str) -> str:
    """Short, for the picture: "23 h", "40 min" (whole minutes rounded up, then whole hours down)."""
    minutes = max(1, math.ceil((due - now).total_seconds() / 60))
    if minutes >= 60:
        return text("bot.limit.hours_short", locale, hours=minutes // 60)
    return text("bot.limit.minutes_short", locale, minutes=minutes)


async def away_lines(
    users: PlayerPrefs, game: GameRow, now: datetime, locale: str, prefs: Mapping[int, UserPrefs] | None = None
) -> list[str]:
    """One line for each seated player who is away now (``prefs``: as for :func:`seat_notes`)."""
    prefs = prefs if prefs is not None else await seated_prefs(users, game)
    lines = []
    for seat in game.seats:
        until = prefs[seat.user_id].away_until if seat.user_id is not None else None
        if until and until > iso(now):
            player = f"**{seat_label(game, seat, locale)}**"
            lines.append(text("bot.away.line", locale, player=player, until=stamp(until)))
    return lines


__all__ = ["URGENT", "away_lines", "seat_notes", "seated_prefs", "stamp", "time_left"]
