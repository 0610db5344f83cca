"""What keeps the bytes a move writes down: a game's state compressed in its row (SQLite)."""

from __future__ import annotations

import sqlite3

import pytest

import engine
from bot.app.service import GameService
from bot.infra.store import Store
from bot.infra.store.states import as_text, packed, unpacked
from tests.bot.conftest import PG_URL

STATE = engine.to_json(engine.new_game("queens-garden", 4, 7))


def test_a_state_is_kept_compressed_on_sqlite_and_as_text_on_postgresql() -> None:
    kept = packed(STATE, compress=True)
    assert isinstance(kept, bytes) and len(kept) < 600 < len(packed(STATE, compress=False)), "one 1 KB page"
    assert unpacked(kept) == STATE == unpacked(packed(STATE, compress=False))
    with pytest.raises(ValueError, match="compressed, and damaged"):
        unpacked(kept[:-8])
    assert as_text(kept) == packed(STATE, compress=False)
    assert as_text(kept[:-8]).endswith("… (cut short)") and as_text(kept[:-8]).startswith("{")
    assert as_text(b"\x00not zlib").startswith("base64:")


@pytest.mark.skipif(bool(PG_URL), reason="SQLite's row")
async def test_a_game_row_fits_one_page_and_rows_kept_as_text_still_read(db_path: str) -> None:
    store = await Store.open(db_path)
    service = GameService(store, seed_source=lambda: 5)
    try:
        game = await service.seating.create(
            guild_id=1, channel_id=10, user_id=100, name="p0", variant="queens-garden", seats=4
        )
        for user in (101, 102, 103):
            await service.seating.join(10, user, f"p{user}")
        await service.seating.start(10, 100, is_admin=False)
        started = await store.games.game(game.id)
        assert started is not None and started.state is not None
        with sqlite3.connect(db_path) as db:
            (row_bytes,) = db.execute("SELECT length(state) FROM games WHERE id = ?", (game.id,)).fetchone()
            assert row_bytes < 600, "a four-player Queen's Garden row fits a page, no overflow"
            db.execute("UPDATE games SET state = ? WHERE id = ?", (packed(started.state, compress=False), game.id))
        again = await store.games.game(game.id)
        assert again is not None and again.state == started.state and again.broken is None
    finally:
        await store.close()
