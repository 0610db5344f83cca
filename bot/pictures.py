"""The board picture of a stored game, drawn in a worker thread (never on the event loop).

A picture that fails to draw is logged with the game id and ``None`` is returned, so a renderer bug never blocks
a game: the post goes out without it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import render
from bot import metrics
from bot.store import GameRow
from bot.words import names_by_seat
from engine import Event, GameState
from render.common import SeatInfo

log = logging.getLogger(__name__)


def render_png(
    state: GameState, names: list[str], events: list[Event], locale: str, info: Sequence[SeatInfo | None] = ()
) -> bytes:
    return render.render_png(state, names=names, events=events, locale=locale, info=info)


async def draw(
    game: GameRow, state: GameState, events: Sequence[Event], locale: str, info: Sequence[SeatInfo | None] = ()
) -> bytes | None:
    """The board picture; ``info[seat]`` adds notes beside a player's name (away until…)."""
    try:
        with metrics.picture_timer(game.variant):
            return await asyncio.to_thread(render_png, state, names_by_seat(game), list(events), locale, list(info))
    except Exception:
        log.exception("game %s: the board picture could not be drawn", game.id)
        return None


__all__ = ["draw"]
