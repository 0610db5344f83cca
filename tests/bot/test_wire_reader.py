"""The wire players' reader (:class:`tests.bot.wire_games.Reader`): one connection kept open, yet every read sees the
store as it is now (a kept connection must never hold a read snapshot), and the same game as a fresh read."""

from __future__ import annotations

import asyncio

from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot import wire_games as wire


async def test_a_kept_reader_sees_each_move_as_a_fresh_read_does(db_path: str) -> None:
    await wire.prepare_games(db_path, 3)
    reader = wire.Reader(db_path)
    store = await Store.open(db_path)
    try:
        channel = wire.FIRST_CHANNEL + 1
        for version in range(3):
            kept = await asyncio.to_thread(reader.game_in, channel)
            assert kept == wire.game_in(db_path, channel)
            assert (kept.channel, kept.version) == (channel, version)
            ((user, move),) = wire.moves_now(kept)
            await GameService(store, lambda: 11).turns.move(channel, user, move.command, dict(move.choices()))
    finally:
        reader.close()
        await store.close()
