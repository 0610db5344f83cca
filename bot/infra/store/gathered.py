"""Writes that wait for others on their way, to share one commit with them.

Every commit costs a sync of the log to disk and at least one whole block of it written anew, however little it
changed: recording where a board was posted is one small row's update, yet a commit of its own cost a quarter of the
bytes its move wrote. So a board's record waits for the other boards being posted at that moment (drawn, sent), and
they are recorded together: alone, a record is written at once; with sixteen moves in flight, several share a
commit. Nothing but progress is waited for (no timer): each board being posted either reaches its record or gives
up, and the last one to do either writes what waits. A board is out before its record is written, and one lost in a
crash before its record is posted again with the same nonce, which Discord answers with the message already posted.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from bot.infra.db import PostgresPool, Row, SqliteFile

Waiting = tuple[str, Sequence[Any], "asyncio.Future[list[Row]]"]


class Gathered:
    """Statements written together: each waits until every write announced as on its way (:meth:`coming`) has
    arrived or given up, or ``most`` wait, then all of them are one write transaction; each caller gets its own
    statement's rows, or the error that ended the transaction. A caller cancelled meanwhile leaves its statement to
    be written with the others."""

    def __init__(self, engine: SqliteFile | PostgresPool, *, most: int) -> None:
        self._engine = engine
        self.most = most
        self._coming = 0
        self._waiting: list[Waiting] = []
        self._writing: set[asyncio.Task[None]] = set()

    @contextlib.contextmanager
    def coming(self) -> Iterator[None]:
        """While the block runs, a write is on its way: the others wait for it (or for it to give up)."""
        self._coming += 1
        try:
            yield
        finally:
            self._coming -= 1
            if self._waiting and len(self._waiting) >= self._coming:  # it gave up: the rest need not wait
                self._write_soon()

    async def write(self, sql: str, params: Sequence[Any]) -> list[Row]:
        done: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        self._waiting.append((sql, params, done))
        if len(self._waiting) >= min(self._coming, self.most):  # every write on its way is here
            self._write_soon()
        return await done

    def _write_soon(self) -> None:
        """Write what waits in a task of its own: a caller cancelled meanwhile cancels no one else's write."""
        task = asyncio.create_task(self._write_waiting())
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def settle(self) -> None:
        """Write what waits, and wait for what is being written (before the store closes)."""
        await self._write_waiting()
        await asyncio.gather(*self._writing, return_exceptions=True)

    async def _write_waiting(self) -> None:
        batch, self._waiting = self._waiting, []
        if not batch:
            return
        try:
            found = await self._engine.write_each([(sql, params) for sql, params, _ in batch])
        except BaseException as error:
            for _, _, done in batch:
                if not done.done():
                    done.set_exception(error) if isinstance(error, Exception) else done.cancel()
            if not isinstance(error, Exception):
                raise
            return
        for (_, _, done), rows in zip(batch, found, strict=True):
            if not done.done():
                done.set_result(rows)
