"""What every aggregate of the store shares: the engine (one SQLite connection or a PostgreSQL pool), reads, and
write transactions.

An aggregate is a class over the same engine, so a transaction opened by one is the transaction of all: a write
that spans aggregates (forgetting a user touches users, seats, results and leagues; settling a result touches
results and games) is one method that opens one transaction and passes its :class:`Connection` to module functions
of the other aggregates (e.g. :func:`bot.infra.store.leagues.forget_in_leagues`). No separate unit-of-work object
is needed: the engine's transaction already is one (SQLite: the one connection, under its lock; PostgreSQL: one
pooled connection, its rows locked ``FOR UPDATE``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.infra.db import Connection, PostgresPool, Row, SqliteFile, Step
from bot.infra.store.states import packed


class Aggregate:
    """One of the store's aggregates (games, moves, timers...): its tables, over the store's shared engine."""

    def __init__(self, engine: SqliteFile | PostgresPool) -> None:
        self._engine = engine

    @property
    def is_postgres(self) -> bool:
        return isinstance(self._engine, PostgresPool)

    def _packed_state(self, state: Mapping[str, Any]) -> str | bytes:
        """A game's state as its row keeps it (:mod:`bot.infra.store.states`)."""
        return packed(state, compress=not self.is_postgres)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A write transaction, rolled back on any error (see :mod:`bot.infra.store`)."""
        return self._engine.transaction()

    async def _write_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement as a whole write transaction (on SQLite, one trip to its thread): its rows."""
        return await self._engine.write_alone(sql, params)

    async def _write_steps(self, steps: Sequence[Step]) -> None:
        """Statements that need no rows of each other's as one write transaction (on SQLite, one trip to its
        thread); :class:`bot.infra.db.Refused` names the step that found or changed other than one row."""
        await self._engine.write_steps(steps)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._engine.reading() as db, db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


async def inserted_id(db: Connection, sql: str, params: Sequence[Any]) -> int | None:
    """The id an ``INSERT … RETURNING id`` gave its row (None when ``ON CONFLICT DO NOTHING`` added none)."""
    async with db.execute(sql, params) as cursor:
        row = await cursor.fetchone()
    return None if row is None else int(row[0])
