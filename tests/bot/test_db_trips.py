"""A statement is one trip from the event loop to the SQLite thread: each trip is a queue put, a thread wake-up and
a future resolved from that thread, the loop's largest cost per move after Discord's HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiosqlite
import pytest

from bot.infra.db import SqliteFile


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
    assert len(trips) == 4, trips  # BEGIN, the update, the read (its row-lock clause dropped), COMMIT
