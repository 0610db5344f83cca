"""What keeps the bytes a move writes down: a game's state compressed in its row (SQLite), and the boards' records
sharing a commit with those of the boards sent meanwhile (:mod:`bot.infra.store.gathered`)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from typing import Any

import pytest

import engine
from bot.app.service import GameService
from bot.infra.store import Store
from bot.infra.store.gathered import Gathered
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


class Engine:
    """An engine that writes each batch after a moment, as a commit takes one."""

    def __init__(self, fail: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.fail = fail

    async def write_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        self.batches.append([sql for sql, _ in statements])
        await asyncio.sleep(0.001)
        if self.fail:
            raise sqlite3.OperationalError("disk I/O error")
        return [[(sql,)] for sql, _ in statements]


async def test_a_record_alone_is_written_at_once() -> None:
    engine_ = Engine()
    gathered = Gathered(engine_, most=16)  # type: ignore[arg-type]
    with gathered.coming():
        assert await gathered.write("a", ()) == [("a",)]
    assert await gathered.write("b", ()) == [("b",)]  # nothing on its way at all
    assert engine_.batches == [["a"], ["b"]]


async def test_records_wait_for_the_boards_being_sent_and_share_their_commit() -> None:
    engine_ = Engine()
    gathered = Gathered(engine_, most=16)  # type: ignore[arg-type]
    sent = [asyncio.Event() for _ in range(3)]

    async def board(number: int) -> list[Any]:
        with gathered.coming():
            await sent[number].wait()  # the board is being sent
            return await gathered.write(f"record {number}", ())

    boards = [asyncio.create_task(board(number)) for number in range(3)]
    await asyncio.sleep(0)
    sent[0].set()
    sent[2].set()
    await asyncio.sleep(0.01)
    assert engine_.batches == [] and not any(task.done() for task in boards), "they wait for the board still sent"
    sent[1].set()
    assert await asyncio.gather(*boards) == [[("record 0",)], [("record 1",)], [("record 2",)]]
    assert engine_.batches == [["record 0", "record 2", "record 1"]]


async def test_a_board_that_gives_up_lets_the_waiting_records_be_written() -> None:
    engine_ = Engine()
    gathered = Gathered(engine_, most=16)  # type: ignore[arg-type]
    failed = asyncio.Event()

    async def failing() -> None:
        with gathered.coming():
            await failed.wait()
            raise RuntimeError("the post failed")

    async def recorded() -> list[Any]:
        with gathered.coming():
            return await gathered.write("record", ())

    gives_up, waits = asyncio.create_task(failing()), asyncio.create_task(recorded())
    await asyncio.sleep(0.01)
    assert not waits.done()
    failed.set()
    assert await waits == [("record",)]
    with pytest.raises(RuntimeError):
        await gives_up
    assert engine_.batches == [["record"]]


async def test_at_most_so_many_records_wait_and_a_failed_commit_fails_each() -> None:
    engine_ = Engine(fail=True)
    gathered = Gathered(engine_, most=2)  # type: ignore[arg-type]
    with gathered.coming(), gathered.coming(), gathered.coming():
        tasks = [asyncio.create_task(gathered.write(f"record {n}", ())) for n in range(2)]
        results = await asyncio.gather(*tasks, return_exceptions=True)
    assert engine_.batches == [["record 0", "record 1"]], "two of three on their way: written"
    assert all(isinstance(result, sqlite3.OperationalError) for result in results)


async def test_a_record_whose_caller_is_cancelled_is_written_with_the_others() -> None:
    engine_ = Engine()
    gathered = Gathered(engine_, most=16)  # type: ignore[arg-type]
    with gathered.coming(), gathered.coming():
        first = asyncio.create_task(gathered.write("record 0", ()))
        second = asyncio.create_task(gathered.write("record 1", ()))
        await asyncio.sleep(0)  # both wait; the second's arrival started the write
        second.cancel()
        assert await first == [("record 0",)]
    assert engine_.batches == [["record 0", "record 1"]] and second.cancelled()
