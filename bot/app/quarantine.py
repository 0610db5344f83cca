"""A bad row harms only its game: a game whose stored state cannot be read (damaged JSON, an unknown variant, a state
the engine rejects) is quarantined. The store marks it broken with the reason; sweeps, timers, computer turns and
``/azul me games`` skip it; in its channel every command but abort and export is refused in words; the bot starts and
serves every other game. ``python -m bot check`` lists the quarantined games.

Found at start-up (:meth:`bot.app.timers.Timers.sync_all`, with the timers of the others), by ``python -m bot check``
(:func:`quarantine_all`), or when a sweep's work on one game fails (:func:`after_fault`).
"""

from __future__ import annotations

import logging
import sys

import engine
from bot.infra.config import redacted_url
from bot.infra.db import is_store_fault
from bot.infra.store import GameRow, Store, StoreOpenError
from engine import GameState

log = logging.getLogger(__name__)


def diagnose(game: GameRow) -> str | None:
    """Why the stored game cannot be played, or None when it can."""
    return examine(game)[0]


def examine(game: GameRow) -> tuple[str | None, GameState | None]:
    """Why the stored game cannot be played (None when it can), and the position read from it (None when it cannot
    be read, or before the game started)."""
    if game.broken:
        return game.broken, None
    try:
        engine.get_variant(game.variant)
        state = engine.from_json(game.state) if game.state is not None else None
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:500], None
    return None, state


async def quarantine(store: Store, game: GameRow, why: str) -> None:
    if await store.games.mark_broken(game.id, why):
        log.error("game %s (channel %s) is quarantined: %s", game.id, game.channel_id, why)


async def quarantine_all(store: Store) -> int:
    """Quarantine every open game whose stored state cannot be read; returns how many were found."""
    found = 0
    for game_id in await store.games.open_game_ids():
        game = await store.games.game(game_id)
        why = diagnose(game) if game is not None else None
        if game is not None and why is not None:
            await quarantine(store, game, why)
            found += 1
    return found


async def after_fault(store: Store, game_id: int, error: Exception) -> None:
    """Background work on one game failed with ``error``: re-raise a store fault (it is every game's: the loop
    reports it once); quarantine the game when its row is the cause; else log the bug, and the sweep goes on."""
    if is_store_fault(error):
        raise error
    game = await store.games.game(game_id)
    why = diagnose(game) if game is not None else None
    if game is not None and why is not None:
        await quarantine(store, game, why)
    else:
        log.error("game %s: background work failed", game_id, exc_info=error)


async def check(path: str) -> int:
    """``python -m bot check``: quarantine what the running bot has not found yet, list every quarantined open
    game (one line each: id, channel, variant, why) and return 0 when there are none, 1 when there are, 5 when the
    database cannot be opened. The bot may keep running meanwhile."""
    try:
        store = await Store.open(path, existing=True)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return 5
    try:
        await quarantine_all(store)
        broken = await store.games.broken_games()
    finally:
        await store.close()
    for game in broken:
        print(f"game {game.id} (channel {game.channel_id}, {game.variant}, {game.status}): {game.broken}")
    shown = redacted_url(path)
    print(f"{len(broken)} quarantined games in {shown}" if broken else f"no quarantined games in {shown}")
    return 1 if broken else 0


__all__ = ["after_fault", "check", "diagnose", "examine", "quarantine", "quarantine_all"]
