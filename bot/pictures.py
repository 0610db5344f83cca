"""The board picture of a stored game, drawn in a worker thread (never on the event loop).

A picture that fails to draw is logged with the game id and ``None`` is returned, so a renderer bug never blocks
a game: the post goes out without it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

import render
from bot import metrics
from bot.store import GameRow
from bot.texts import text
from bot.words import level_label
from engine import Event, GameState
from render.common import SeatInfo

log = logging.getLogger(__name__)


def render_png(
    state: GameState, names: list[str], events: list[Event], locale: str, info: list[SeatInfo | None]
) -> bytes:
    return render.render_png(state, names=names, events=events, locale=locale, info=info)


def render_closeup(  # noqa: PLR0917
    state: GameState, seat: int, names: list[str], events: list[Event], locale: str, info: list[SeatInfo | None]
) -> bytes:
    return render.render_closeup(state, seat, names=names, events=events, locale=locale, info=info)


def picture_seats(game: GameRow, locale: str) -> tuple[list[str], list[SeatInfo | None]]:
    """Names and notes of the seats as the picture shows them: a seat the computer plays gets the drawn robot and
    its level (no font we ship has the emoji), and a computer seat is named by its number."""
    names, info = [], []
    for seat in game.by_seat():
        if seat.is_computer:
            number = 1 + sum(1 for other in game.seats if other.is_computer and other.joined < seat.joined)
            names.append(text("bot.computer.short", locale, number=number))
        else:
            names.append(seat.name)
        info.append(SeatInfo(robot=level_label(seat.level, locale)) if seat.level else None)
    return names, info


async def draw(
    game: GameRow, state: GameState, events: Sequence[Event], locale: str, notes: Sequence[SeatInfo | None] = ()
) -> bytes | None:
    """The board picture; ``notes[seat]`` adds notes beside a player's name (away until…) to the computer's."""
    names, info = picture_seats(game, locale)
    for seat, note in enumerate(notes):
        robot = info[seat] if seat < len(info) else None
        if note is not None and seat < len(info):
            info[seat] = note if robot is None else replace(robot, away=note.away, clock=note.clock, urgent=note.urgent)
    try:
        with metrics.picture_timer(game.variant):
            return await asyncio.to_thread(render_png, state, names, list(events), locale, info)
    except Exception:
        log.exception("game %s: the board picture could not be drawn", game.id)
        return None


async def draw_closeup(game: GameRow, state: GameState, seat: int, locale: str) -> bytes | None:
    """``seat``'s own board at full size under the shared area (see :func:`render.render_closeup`)."""
    names, info = picture_seats(game, locale)
    try:
        with metrics.picture_timer(game.variant):
            return await asyncio.to_thread(render_closeup, state, seat, names, [], locale, info)
    except Exception:
        log.exception("game %s: the close-up of seat %s could not be drawn", game.id, seat)
        return None


__all__ = ["draw", "draw_closeup"]
