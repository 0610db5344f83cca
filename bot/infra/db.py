"""The two database engines under :class:`bot.infra.store.Store`: SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg).

The store writes each query once, in the SQL both engines understand, with ``?`` placeholders; this module is the
only place that knows how the engines differ:

- placeholders: ``?`` becomes ``$1, $2, …`` for PostgreSQL;
- row locks: ``… FOR UPDATE [SKIP LOCKED]`` locks rows on PostgreSQL; SQLite drops the clause, because its
  ``BEGIN IMMEDIATE`` already holds the one write lock of the file;
- named locks (:meth:`Connection.serialize`): a transaction-scoped advisory lock on PostgreSQL, nothing on SQLite;
- schema text: the migrations are written for SQLite; :func:`postgres_ddl` turns their types into PostgreSQL's
  (``INTEGER`` → ``BIGINT``, an ``id INTEGER PRIMARY KEY`` → an identity column, ``REAL`` → ``DOUBLE PRECISION``);
- the applied migration number: ``PRAGMA user_version`` on SQLite, the one-row table ``schema_version`` on
  PostgreSQL;
- a broken unique or foreign key raises :class:`sqlite3.IntegrityError` on both (:class:`IntegrityError` on
  PostgreSQL), so the store catches one type.

Both connections offer the part of aiosqlite's API the store uses: ``execute`` (awaitable, or an async context
manager giving a cursor with ``fetchone``, ``fetchall`` and ``rowcount``) and ``executemany``. Rows are read by
column name or position on both (``sqlite3.Row``, ``asyncpg.Record``).
"""

from __future__ import annotations

import asyncio
import fcntl
import functools
import os
import re
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Protocol

import aiosqlite

Row = Any  # sqlite3.Row or asyncpg.Record: both index by name and by position


def is_postgres(target: str) -> bool:
    """Whether ``AZUL_DB`` names a PostgreSQL database (a URL) rather than an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


class StoreLost(sqlite3.OperationalError):
    """The SQLite files opened are no longer the database (deleted, replaced): nothing is read or written any more,
    and the bot stops (:meth:`bot.client.AzulBot._watch_store` says so, once)."""


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a write for a unique, foreign key or check constraint (the store catches the SQLite type)."""


Step = tuple[str, Sequence[Any], str | None]
"""One statement of a write sent whole (:meth:`SqliteFile.write_steps`): its SQL, its parameters, and a refusal:
when set, the statement must find or change exactly one row, or the write is rolled back and :class:`Refused` raised
with it."""


class Refused(Exception):
    """A step of a write sent whole found or changed other than one row: the write was rolled back."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Execution(Protocol):
    """A statement sent: awaited, or entered with ``async with``, it gives its cursor."""

    def __await__(self) -> Generator[Any, None, Cursor]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, *exc: Any) -> Any: ...


class Connection(Protocol):
    """What the store's queries need of a connection inside a transaction or a read."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Execution: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """Each statement's rows, run in order: reads that do not depend on each other's answers (on SQLite, one
        trip to its thread for all)."""

    async def serialize(self, name: str) -> None:
        """Hold the lock ``name`` until the transaction ends (writers that read before they write)."""


class Rows:
    """A statement's outcome, read whole: its rows and the number of rows it changed (a :class:`Cursor`)."""

    def __init__(self, rows: Sequence[Row], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> Row | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> Sequence[Row]:
        return list(self._rows)


class _Buffered:
    """``await conn.execute(…)`` or ``async with conn.execute(…) as cursor``, the statement run whole by then."""

    def __init__(self, run: Awaitable[Rows]) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, Rows]:
        return self._run.__await__()

    async def __aenter__(self) -> Rows:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


_ROW_LOCK = re.compile(r"\s+FOR\s+UPDATE(\s+SKIP\s+LOCKED)?\b", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
def sqlite_sql(sql: str) -> str:
    """A store query in SQLite's dialect: the row-lock clauses dropped (``BEGIN IMMEDIATE`` already excludes
    writers). The store's queries are a few hundred constant strings, so each is rewritten once."""
    return _ROW_LOCK.sub("", sql)


def _run_whole(db: sqlite3.Connection, begin: str | None, sql: str, params: tuple[Any, ...]) -> Rows:
    """In aiosqlite's thread: ``begin`` first when the statement opens its transaction, then the statement run to its
    end, its rows read and its cursor closed."""
    if begin is not None:
        db.execute(begin)
    cursor = db.execute(sql, params)
    try:
        return Rows(cursor.fetchall(), cursor.rowcount)
    finally:
        cursor.close()


def _run_each(
    db: sqlite3.Connection, begin: str | None, statements: list[tuple[str, tuple[Any, ...]]]
) -> list[list[Row]]:
    if begin is not None:
        db.execute(begin)
    return [db.execute(sql, params).fetchall() for sql, params in statements]


def _run_many(db: sqlite3.Connection, begin: str | None, sql: str, rows: list[tuple[Any, ...]]) -> None:
    if begin is not None:
        db.execute(begin)
    db.executemany(sql, rows).close()


def _run_alone(db: sqlite3.Connection, steps: list[Step], lost: Callable[[], str | None]) -> list[list[Row]]:
    """In aiosqlite's thread: statements as a whole write transaction (``BEGIN IMMEDIATE``, each statement run and
    read, ``COMMIT``), rolled back when one fails or is refused (:data:`Step`), or the files opened are no longer the
    database (``lost``, checked before the commit as :meth:`SqliteFile.transaction` does). Each one's rows."""
    db.execute("BEGIN IMMEDIATE")
    try:
        found: list[list[Row]] = []
        for sql, params, refusal in steps:
            cursor = db.execute(sql, params)
            found.append(rows := cursor.fetchall())
            if refusal is not None and (len(rows) if cursor.description else cursor.rowcount) != 1:
                raise Refused(refusal)
        if (why := lost()) is not None:
            raise StoreLost(why)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return found


def _roll_back(db: sqlite3.Connection) -> None:
    """In aiosqlite's thread, after whatever was queued before: end the transaction if one is open (a BEGIN that
    failed opened none; one queued by a cancelled task has run by now)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


class SqliteConnection:
    """aiosqlite's connection speaking the store's dialect, each statement one trip to its thread.

    aiosqlite's own cursor costs the event loop a trip per call (execute, fetch, close), each a queue put, a thread
    wake-up and a future resolved from that thread; the store reads every row it asks for, so a statement is run,
    read and closed in one trip (aiosqlite's ``_execute``: its public calls give rows or a cursor, never both the
    rows and the count a guarded UPDATE needs). In a write transaction, its ``BEGIN`` rides with the first statement.
    """

    def __init__(self, db: aiosqlite.Connection, *, begin: str | None = None) -> None:
        self.raw = db
        self._begin = begin

    @property
    def begun(self) -> bool:
        """Whether the transaction's ``BEGIN`` was sent (with a statement): an empty transaction never sends it."""
        return self._begin is None

    def _run(self, fn: Any, *args: Any) -> Any:
        begin, self._begin = self._begin, None
        return self.raw._execute(fn, self.raw._conn, begin, *args)  # type: ignore[no-untyped-call]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Execution:
        return _Buffered(self._run(_run_whole, sqlite_sql(sql), tuple(params)))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._run(_run_many, sqlite_sql(sql), [tuple(row) for row in rows])

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        rows: list[list[Row]] = await self._run(_run_each, [(sqlite_sql(sql), tuple(p)) for sql, p in statements])
        return rows

    async def serialize(self, name: str) -> None:
        return None


# --- PostgreSQL ----------------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)


def postgres_sql(sql: str) -> str:
    """A store query in PostgreSQL's dialect: numbered placeholders (``?`` inside string literals stays)."""
    if _OR_IGNORE.match(sql):
        returning = re.search(r"\sRETURNING\s", sql, re.IGNORECASE)
        cut = returning.start() if returning else len(sql)
        sql = _OR_IGNORE.sub("INSERT INTO", sql[:cut]) + " ON CONFLICT DO NOTHING" + sql[cut:]
    numbers = iter(range(1, sql.count("?") + 1))
    return _PLACEHOLDER.sub(lambda m: m.group(0) if m.group(0) != "?" else f"${next(numbers)}", sql)


def postgres_ddl(script: str) -> str:
    """A migration written for SQLite, with PostgreSQL's types: 64-bit integers (Discord ids do not fit in 32 bits),
    identity columns for ``id INTEGER PRIMARY KEY``, double precision for ``REAL``, and no ``WITHOUT ROWID`` (a table
    of PostgreSQL's is never kept in its key's order)."""
    script = re.sub(r"\)\s*WITHOUT ROWID\b", ")", script)
    script = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", script)
    script = re.sub(r"\bINTEGER\b", "BIGINT", script)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", script)


def _rowcount(status: str) -> int:
    """asyncpg's command status (``UPDATE 3``, ``INSERT 0 1``) → the number of rows it touched."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdecimal() else -1


def _asyncpg() -> Any:
    """asyncpg, imported the first time PostgreSQL is used: a SQLite bot never pays its ~80 ms import at start-up."""
    import asyncpg  # noqa: PLC0415

    return asyncpg


class PostgresConnection:
    """An asyncpg connection speaking the store's dialect."""

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Execution:
        return _Buffered(self._execute(postgres_sql(sql), tuple(params)))

    async def _execute(self, sql: str, params: tuple[Any, ...]) -> Rows:
        try:
            if _RETURNS_ROWS.search(sql):
                rows = await self.raw.fetch(sql, *params)
                return Rows(rows, len(rows))
            return Rows([], _rowcount(await self.raw.execute(sql, *params)))
        except _asyncpg().IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(postgres_sql(sql), [tuple(row) for row in rows])
        except _asyncpg().IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        return [list(await (await self.execute(sql, params)).fetchall()) for sql, params in statements]

    async def serialize(self, name: str) -> None:
        await self.raw.execute("SELECT pg_advisory_xact_lock(hashtext($1))", name)


class PostgresPool:
    """An asyncpg pool: every read takes a connection, every write a connection and a transaction."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.epoch = 0
        """The store epoch this process writes versions in (:meth:`bot.infra.store.Store.open`)."""

    @classmethod
    async def open(cls, dsn: str, *, max_size: int = 10) -> PostgresPool:
        # Prepared statements are cached per connection; the schema changes only before the first query (migrations).
        pool = await asyncio.wait_for(_asyncpg().create_pool(dsn, min_size=1, max_size=max_size), timeout=30)
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PostgresConnection]:
        async with self.pool.acquire() as conn:
            yield PostgresConnection(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresConnection(conn)

    async def write_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement as its own transaction (PostgreSQL commits a lone statement by itself): its rows."""
        async with self.pool.acquire() as conn:
            return list(await (await PostgresConnection(conn).execute(sql, params)).fetchall())

    async def write_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """Statements as one transaction: each one's rows."""
        async with self.transaction() as db:
            return [list(await (await db.execute(sql, params)).fetchall()) for sql, params in statements]

    async def write_steps(self, steps: Sequence[Step]) -> None:
        """Statements as one transaction, each step's refusal checked (:data:`Step`)."""
        async with self.transaction() as db:
            for sql, params, refusal in steps:
                if (await db.execute(sql, params)).rowcount != 1 and refusal is not None:
                    raise Refused(refusal)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            return int(await conn.fetchval("SELECT version FROM schema_version")) if exists else 0

    async def restart_identities(self, tables: Iterable[str]) -> None:
        """After rows were copied in with their ids: each identity continues after the largest id."""
        async with self.pool.acquire() as conn:
            for table in tables:
                sequence = await conn.fetchval(
                    "SELECT pg_get_serial_sequence(table_name, column_name) FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'id'",
                    table,
                )
                if sequence is not None:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                        f" FROM {table}"
                    )

    async def migrate(self, migrations: Sequence[str], *, newer: Any) -> None:
        """Apply the migrations after the stored number, each in its own transaction with the number; one process
        at a time (an advisory lock), so bots starting together migrate once. ``newer`` raises for a newer schema."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('azul migrations'))")
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),"
                " version BIGINT NOT NULL)"
            )
            await conn.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")
            current = int(await conn.fetchval("SELECT version FROM schema_version"))
            if current > len(migrations):
                newer(current)
            for number in range(current + 1, len(migrations) + 1):
                async with conn.transaction():  # a savepoint: the lock is held until every migration is in
                    await conn.execute(postgres_ddl(migrations[number - 1]))
                    await conn.execute("UPDATE schema_version SET version = $1", number)


# --- SQLite --------------------------------------------------------------------------------------------------------


class SqliteFile:
    """One aiosqlite connection shared by every coroutine. Reads wait for a running transaction to end: otherwise a
    read between two statements of a move could see a half-saved move that is then rolled back."""

    def __init__(self, db: aiosqlite.Connection, path: str = ":memory:") -> None:
        self.raw = db
        self.epoch = 0
        """The store epoch this process writes versions in (:meth:`bot.infra.store.Store.open`)."""
        self._lock = asyncio.Lock()
        self.path = path
        self.files: dict[str, tuple[int, int] | None] = {path: file_identity(path), f"{path}-wal": None}
        """The files opened (device and inode): the database and its write-ahead log, where every commit since the
        last checkpoint lives. Either deleted or replaced since, and what the bot writes is no longer the database;
        the log is taken when it first shows (SQLite creates it on the first read)."""
        self.lost: str | None = None
        """Why the files opened are no longer the database at ``path`` (every read and write then fails)."""

    async def close(self) -> None:
        await self.raw.close()

    def check_file(self) -> str | None:
        """Whether the files at ``path`` and ``path-wal`` are still the ones opened: None, or what happened to them
        (remembered)."""
        if self.lost is not None or self.files[self.path] is None:
            return self.lost
        for name, opened in self.files.items():
            now = file_identity(name)
            if opened is None:  # the log, not yet seen
                self.files[name] = now
            elif now is None:
                self.lost = f"the database file {name} was deleted"
            elif now != opened:
                self.lost = f"the database file {name} was replaced by another file"
            if self.lost is not None:
                return self.lost
        return None

    async def keep_committed(self) -> str:
        """After the write-ahead log was deleted or replaced: copy every commit the bot still holds in its open log
        into the database file (a checkpoint), so no move it acknowledged is lost at the next start. Says what
        happened, for the log line."""
        if self.lost is None or not self.lost.startswith(f"the database file {self.path}-wal "):
            return "nothing to keep: the database file itself is gone"
        async with self._lock, self.raw.execute("PRAGMA wal_checkpoint(FULL)") as cursor:
            busy, frames, copied = tuple(await cursor.fetchone() or (1, -1, -1))
        if busy or copied != frames:
            return f"the commits in the lost log could not all be copied into {self.path} ({copied} of {frames} pages)"
        return f"every commit in the lost log was copied into {self.path}"

    def _refuse_if_lost(self, *, checked: bool = False) -> None:
        """Never acknowledge a write into a file nobody will open again (``checked``: look at the file now)."""
        lost = self.check_file() if checked else self.lost
        if lost is not None:
            raise StoreLost(lost)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteConnection]:
        self._refuse_if_lost()
        async with self._lock:
            yield SqliteConnection(self.raw)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """One write transaction at a time; rolled back on any error, and when the file was deleted or replaced
        meanwhile (checked before every commit: a write nobody will read again must never be acknowledged). Its
        ``BEGIN IMMEDIATE`` goes with its first statement; a task cancelled while that trip is queued or running
        still rolls it back, as the rollback is queued after it."""
        self._refuse_if_lost()
        async with self._lock:
            conn = SqliteConnection(self.raw, begin="BEGIN IMMEDIATE")
            try:
                yield conn
                self._refuse_if_lost(checked=True)
                if conn.begun:
                    await self.raw.execute("COMMIT")
            except BaseException:  # a failed COMMIT too: the next BEGIN must find no transaction open
                if conn.begun:
                    await self.raw._execute(_roll_back, self.raw._conn)  # type: ignore[no-untyped-call]
                raise

    async def write_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement as its own write transaction, in one trip to aiosqlite's thread (a transaction of one
        statement costs three: ``BEGIN`` with it, the statement, ``COMMIT``): its rows. Refused, as a transaction's
        commit is, when the file was deleted or replaced; a task cancelled meanwhile leaves it to end whole."""
        return (await self.write_each([(sql, params)]))[0]

    async def write_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """Statements as one write transaction, in one trip, as :meth:`write_alone`: each one's rows."""
        self._refuse_if_lost()
        sent = [(sqlite_sql(sql), tuple(params), None) for sql, params in statements]
        async with self._lock:
            found: list[list[Row]] = await self.raw._execute(  # type: ignore[no-untyped-call]
                _run_alone, self.raw._conn, sent, self.check_file
            )
            return found

    async def write_steps(self, steps: Sequence[Step]) -> None:
        """Statements as one write transaction, in one trip to aiosqlite's thread, each step's refusal checked there
        (:data:`Step`): a write whose statements do not need each other's rows, as :meth:`write_alone`."""
        self._refuse_if_lost()
        sent = [(sqlite_sql(sql), tuple(params), refusal) for sql, params, refusal in steps]
        async with self._lock:
            await self.raw._execute(_run_alone, self.raw._conn, sent, self.check_file)  # type: ignore[no-untyped-call]

    async def pragma(self, name: str) -> Any:
        async with self.raw.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def schema_version(self) -> int:
        return int(await self.pragma("user_version") or 0)

    async def migrate(self, migrations: Sequence[str], *, newer: Any) -> None:
        current = await self.schema_version()
        if current > len(migrations):
            newer(current)
        steps = "".join(
            f"{migrations[number - 1]}; PRAGMA user_version = {number}; "
            for number in range(current + 1, len(migrations) + 1)
        )
        if steps:  # in one transaction: a new file's first start commits (and syncs) once, not once per migration
            # executescript commits by itself, so the version bumps ride in the same script.
            await self.raw.executescript(f"BEGIN; {steps}COMMIT;")

    async def probe_write(self) -> None:
        """Write one page now, so a locked file, a read-only filesystem or a full disk shows at start-up."""
        version = await self.schema_version()
        await self.raw.executescript(f"BEGIN IMMEDIATE; PRAGMA user_version = {version}; COMMIT;")

    async def tables(self) -> list[str]:
        """The bot's tables, each after the tables its foreign keys point to (the order to copy them in)."""
        async with self.raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ) as cursor:
            names = [row[0] for row in await cursor.fetchall()]
        parents: dict[str, set[str]] = {}
        for name in names:
            async with self.raw.execute(f"PRAGMA foreign_key_list({name})") as cursor:
                parents[name] = {row["table"] for row in await cursor.fetchall()} - {name}
        ordered: list[str] = []
        while len(ordered) < len(names):
            ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
            if not ready:
                raise ValueError(f"foreign keys in a cycle among {sorted(set(names) - set(ordered))}")
            ordered.extend(ready)
        return ordered


class OneProcess:
    """One bot process per SQLite file: an OS lock (``flock``) on ``PATH.lock`` beside the database, held while the
    bot runs and dropped by the OS when the process ends, however it ends (no stale lock after a kill). The file
    names its holder, so a second process can say who holds it. Several processes share a PostgreSQL database."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def take(cls, path: str) -> OneProcess:
        """The lock of the database at ``path``; raises :class:`AlreadyRunning` naming the holder."""
        fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise AlreadyRunning(holder) from None
        os.ftruncate(fd, 0)
        started = datetime.now(UTC).isoformat(timespec="seconds")
        os.pwrite(fd, f"process {os.getpid()} on {socket.gethostname()}, since {started}\n".encode(), 0)
        return cls(fd)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the one descriptor drops the lock
            self._fd = -1


class AlreadyRunning(Exception):
    """Another process holds the SQLite file (its ``holder`` says which)."""

    def __init__(self, holder: str) -> None:
        super().__init__(holder)
        self.holder = holder


def file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (None when there is none, or for an in-memory database)."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def is_store_fault(error: BaseException) -> bool:
    """Whether ``error`` is the database failing (unreachable, full, locked, gone) rather than a row or a bug: such a
    fault is not one game's, so a sweep stops and its loop reports it once."""
    if isinstance(error, sqlite3.IntegrityError):
        return False  # a refused write: the store's own logic, not an outage
    pg = sys.modules.get("asyncpg")  # an asyncpg error can only come from an imported asyncpg
    if pg is not None:
        if isinstance(error, pg.IntegrityConstraintViolationError):
            return False
        if isinstance(error, pg.PostgresError | pg.InterfaceError):
            return True
    return isinstance(error, sqlite3.DatabaseError | OSError)
