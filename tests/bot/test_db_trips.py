"""A statement is one trip from the event loop to the SQLite thread: each trip is a queue put, a thread wake-up and
a future resolved from that thread, the loop's largest cost per move after Discord's HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import aiosqlite
import pytest

from bot.infra.db import Refused, SqliteFile, StoreLost


@pytest.fixture
async def engine(tmp_path: Any) -> AsyncIterator[tuple[SqliteFile, list[str]]]:
    path = str(tmp_path / "trips.sqlite3")
    db = await aiosqlite.connect(path, isolation_level=None)
    trips: list[str] = []
    run = db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(fn, "__name__", repr(fn)))
        return await run(fn, *args, **kwargs)

    db._execute = counted  # type: ignore[method-assign]
    file = SqliteFile(db, path)
    async with file.transaction() as conn:
        await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        await conn.executemany("INSERT INTO t (v) VALUES (?)", [(n,) for n in range(5)])
    trips.clear()
    yield file, trips
    await file.close()


async def test_a_read_is_one_trip_to_the_database_thread(engine: tuple[SqliteFile, list[str]]) -> None:
    file, trips = engine
    async with file.reading() as db, db.execute("SELECT v FROM t WHERE v >= ? ORDER BY v", (2,)) as cursor:
        rows = [row[0] for row in await cursor.fetchall()]
    assert rows == [2, 3, 4]
    assert len(trips) == 1, trips


async def test_a_guarded_update_is_one_trip_and_says_how_many_rows_it_changed(
    engine: tuple[SqliteFile, list[str]],
) -> None:
    file, trips = engine
    async with file.transaction() as db:
        changed = (await db.execute("UPDATE t SET v = v + 10 WHERE v < ?", (3,))).rowcount
        async with db.execute("SELECT COUNT(*) FROM t WHERE v >= 10 FOR UPDATE") as cursor:
            row = await cursor.fetchone()
    assert changed == 3 and row is not None and row[0] == 3
    assert len(trips) == 3, trips  # BEGIN with the update, the read (its row-lock clause dropped), COMMIT


async def test_an_empty_transaction_sends_nothing(engine: tuple[SqliteFile, list[str]]) -> None:
    file, trips = engine
    async with file.transaction():
        pass
    assert trips == []


async def test_a_failed_statement_rolls_its_transaction_back_and_the_next_one_begins(
    engine: tuple[SqliteFile, list[str]],
) -> None:
    file, _ = engine
    with pytest.raises(sqlite3.IntegrityError):
        async with file.transaction() as db:
            await db.execute("UPDATE t SET v = 100 WHERE v = 0")
            await db.execute("INSERT INTO t (id, v) VALUES (1, 1)")  # id 1 is taken
    async with file.transaction() as db:
        await db.execute("UPDATE t SET v = 200 WHERE v = 1")
    async with file.reading() as db, db.execute("SELECT v FROM t ORDER BY id") as cursor:
        assert [row[0] for row in await cursor.fetchall()] == [0, 200, 2, 3, 4]


async def test_a_transaction_cancelled_while_its_first_statement_is_under_way_is_rolled_back(
    engine: tuple[SqliteFile, list[str]],
) -> None:
    file, _ = engine

    async def write() -> None:
        async with file.transaction() as db:
            await db.execute("UPDATE t SET v = 100 WHERE v = 0")
            await asyncio.sleep(10)

    for delay in (0, 0.001):  # cancelled before its trip ran, and after
        task = asyncio.create_task(write())
        await asyncio.sleep(delay)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert not file.raw.in_transaction
        async with file.reading() as db, db.execute("SELECT COUNT(*) FROM t WHERE v = 100") as cursor:
            assert tuple(await cursor.fetchone() or ()) == (0,)


async def test_reads_fetched_together_are_one_trip(engine: tuple[SqliteFile, list[str]]) -> None:
    file, trips = engine
    async with file.reading() as db:
        small, large = await db.fetch_each(
            [("SELECT v FROM t WHERE v < ?", (2,)), ("SELECT v FROM t WHERE v > ?", (2,))]
        )
    assert [row[0] for row in small] == [0, 1] and [row[0] for row in large] == [3, 4]
    assert len(trips) == 1, trips


async def test_a_statement_written_alone_is_one_trip_and_commits(engine: tuple[SqliteFile, list[str]]) -> None:
    file, trips = engine
    rows = await file.write_alone("UPDATE t SET v = v + 10 WHERE v < ? RETURNING v", (2,))
    assert sorted(row[0] for row in rows) == [10, 11]
    assert len(trips) == 1, trips  # BEGIN IMMEDIATE, the statement and COMMIT together
    assert not file.raw.in_transaction
    with pytest.raises(sqlite3.IntegrityError):
        await file.write_alone("INSERT INTO t (id, v) VALUES (1, 1)")  # id 1 is taken: rolled back
    assert not file.raw.in_transaction
    async with file.reading() as db, db.execute("SELECT v FROM t ORDER BY id") as cursor:
        assert [row[0] for row in await cursor.fetchall()] == [10, 11, 2, 3, 4]


async def test_a_statement_written_alone_is_rolled_back_when_the_file_is_lost_before_its_commit(
    engine: tuple[SqliteFile, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    file, _ = engine
    monkeypatch.setattr(file, "check_file", lambda: "the database file was replaced by another file")
    with pytest.raises(StoreLost):
        await file.write_alone("UPDATE t SET v = 100 WHERE v = 0")
    assert not file.raw.in_transaction
    async with file.reading() as db, db.execute("SELECT COUNT(*) FROM t WHERE v = 100") as cursor:
        assert tuple(await cursor.fetchone() or ()) == (0,)


async def test_steps_written_together_are_one_trip_and_a_refused_step_rolls_them_all_back(
    engine: tuple[SqliteFile, list[str]],
) -> None:
    file, trips = engine
    await file.write_steps(
        [("UPDATE t SET v = 10 WHERE v = ?", (0,), "gone"), ("SELECT v FROM t WHERE v = 10", (), "not seen")]
    )
    assert len(trips) == 1, trips
    with pytest.raises(Refused) as refused:
        await file.write_steps(
            [("UPDATE t SET v = 20 WHERE v = ?", (1,), "gone"), ("UPDATE t SET v = 30 WHERE v = ?", (99,), "none")]
        )
    assert refused.value.reason == "none" and not file.raw.in_transaction
    async with file.reading() as db, db.execute("SELECT v FROM t ORDER BY id") as cursor:
        assert [row[0] for row in await cursor.fetchall()] == [10, 1, 2, 3, 4]  # the first step rolled back too
