"""All SQL of the bot, in SQLite or PostgreSQL, split by aggregate: each a class over one shared engine.

``Store`` opens, migrates and closes the database and composes the aggregates as attributes:

- ``store.games`` (:mod:`.games`): games and their seats;
- ``store.moves`` (:mod:`.moves`): the append-only move log and the moves taken back;
- ``store.timers`` (:mod:`.timers`): timers, claims on background work, nudges;
- ``store.users`` (:mod:`.users`): preferences, time away, forgetting a user;
- ``store.servers`` (:mod:`.servers`): a server's settings and the counts its caps check, the synced command tree;
- ``store.results`` (:mod:`.results`): results, ratings and their history, the figures of ``/azul stats``;
- ``store.pickers`` (:mod:`.pickers`): the steps of Play pickers;
- ``store.leagues`` (:mod:`.leagues`): leagues, their players, rounds and tables.

By default the database is one SQLite file, in WAL mode with foreign keys on; ``AZUL_DB=postgresql://…`` puts it in
PostgreSQL instead, shared by several bot processes. Each query is written once, in SQL both engines run, with
``?`` placeholders; :mod:`bot.infra.db` holds the few differences (placeholders, row locks, column types, identity
columns). That dialect layer stays rather than SQLAlchemy Core: the queries are plain SQL that both engines run as
written, the differences are four small rewrites, and the parts Core would not hide (SQLite's single connection and
its lock, WAL and pragmas, PostgreSQL's advisory lock while migrating, ``RETURNING``, partial unique indexes) would
still be ours; Core would add a dependency and a second way to write every query for no query we cannot write now.

The schema is the numbered files in ``migrations/`` (``0001_first_schema.sql`` …), applied in order, each in its
own transaction with the schema version (SQLite's ``user_version``, PostgreSQL's ``schema_version`` row); they are
written for SQLite, and :func:`bot.infra.db.postgres_ddl` gives them PostgreSQL's types. A change to the schema is a new
file with the next number (a comment first says why; comment lines are for readers and are not run); a file that
has shipped never changes, since databases out there are at its version. Writes go through
:meth:`Store.transaction` (or an aggregate's, the same): on SQLite one at a time on the one connection (reads wait
for them), on PostgreSQL one pooled connection each, with the rows they read before writing locked (``FOR UPDATE``).
A write that spans aggregates (forgetting a user, settling a result) is one method in one transaction; no
unit-of-work object is needed, since every aggregate shares the engine and its transaction already is one (see
:mod:`.base`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.infra.config import redacted_url
from bot.infra.db import AlreadyRunning, Connection, OneProcess, PostgresPool, Row, SqliteFile, is_postgres
from bot.infra.store.games import GameRecords
from bot.infra.store.leagues import LeagueRecords
from bot.infra.store.moves import Moves
from bot.infra.store.pickers import Pickers
from bot.infra.store.results import Results
from bot.infra.store.rows import (
    OPEN_STATUSES,
    OUTCOMES,
    CapReached,
    Conflict,
    GameResult,
    GameRow,
    MoveRow,
    NewTimer,
    PickerRow,
    PlayerTotals,
    RateFn,
    RatingRow,
    ResultRow,
    ResultSeat,
    Seat,
    SeatCaps,
    Skill,
    StoreOpenError,
    TimerChanges,
    TimerRow,
    UndoneRow,
    UserPrefs,
    now_iso,
)
from bot.infra.store.servers import Servers
from bot.infra.store.states import as_text
from bot.infra.store.timers import TimerRecords
from bot.infra.store.users import Users

SEEDED_TABLES = frozenset({"store_epoch"})
"""Tables whose rows the migrations put in: a copy replaces them rather than finding the target not empty."""

# Less free space than this next to the database, and an I/O error at start-up is called a full disk.
FULL_DISK_BYTES = 1 << 20


def _migrations() -> tuple[str, ...]:
    """The numbered migrations, ``migrations/NNNN_name.sql`` in order, without their comment lines (numbered from 1
    with no gaps: the number of the last one applied is the schema version)."""
    # Read beside this file (they are package data, installed with it), not through importlib.resources, which would
    # import zipfile and its readers at every start (about 5 ms) for a package that is never zipped.
    files = sorted(
        (f for f in Path(__file__).with_name("migrations").iterdir() if f.name.endswith(".sql")), key=lambda f: f.name
    )
    numbers = [int(f.name.split("_", 1)[0]) for f in files]
    if numbers != list(range(1, len(files) + 1)):
        raise RuntimeError(f"the migrations are not numbered 1 to {len(files)} without gaps: {numbers}")
    return tuple(
        "\n".join(line for line in f.read_text(encoding="utf-8").splitlines() if not line.startswith("--")).strip()
        for f in files
    )


MIGRATIONS = _migrations()
"""The schema's migrations in order (the version is how many were applied)."""

PAGE_SIZE = 1024
"""Bytes per page of a new SQLite file. Each commit writes every page it changed to the write-ahead log, whole: a
slash move changes a page of the game's row, one of the move log and one of its interaction index, those of the
timers it cancels and sets, and recording its board the game's row again. Small pages make each of those writes
small, and a game's row still fits one: its state is kept compressed (:mod:`bot.infra.store.states`). Bytes the bot
wrote per move (``bench load``, 16 in flight, with the default reminders, the state still JSON text): two-player Azul
41 KB with 4 KB pages, 27 with 2 KB, 21 with 1 KB; four-player Queen's Garden 41 with 2 KB, 33 with 1 KB. An existing
file keeps its page size (changing it means ``VACUUM`` outside WAL mode, a copy of the whole file)."""

CHECKPOINT_PAGES = 4000
"""Pages the write-ahead log grows to before they are copied into the database file (SQLite's default is 1000). A
checkpoint writes each page changed since the last one once, and between two moves of a game its row, the move
log's and the timers' pages change again and again: a log four times as long writes them a quarter as often (bytes
per move under ``bench load``: 23.5 KB with 1000, 21.5 with 4000, 21.1 with 16000). The log then holds up to 4 MB,
which a start after a crash reads back in a few milliseconds."""


def _newer_schema(where: str, current: int) -> None:
    raise StoreOpenError(
        f"the database {where} has schema {current}, newer than this bot knows ({len(MIGRATIONS)}): it was"
        " written by a newer version of the bot; run that version, or restore a backup made for this one"
    )


def private_file(path: str) -> None:
    """Create the SQLite file readable by its owner only (it holds people's ids, names, time zones and vacations),
    or make an existing one so. SQLite gives its ``-wal`` and ``-shm`` files the database's mode. A file that cannot
    be created or changed here is left to SQLite, whose error says why."""
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(OSError):
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)


def explain_open_error(path: str, error: sqlite3.Error) -> str:
    """One line for an SQLite error met while opening ``path``, by SQLite's error code."""
    code = getattr(error, "sqlite_errorname", "") or ""
    said = f"({code or type(error).__name__}: {error})"
    folder = Path(path).parent
    disk = None
    if code == "SQLITE_FULL" or code.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_READONLY")):
        with contextlib.suppress(OSError):
            disk = os.statvfs(folder)  # SQLite often names the symptom (no shared memory), not the cause
    if disk is not None and disk.f_flag & os.ST_RDONLY:
        return (
            f"the database {path} is on a read-only filesystem {said}: mount {folder} read-write (in Docker: a"
            " writable volume on /data) or set AZUL_DB to a writable place"
        )
    if disk is not None and disk.f_bavail * disk.f_frsize < FULL_DISK_BYTES:
        return f"the disk holding the database {path} is full {said}: free some space in {folder} and start again"
    if code == "SQLITE_NOTADB":
        return (
            f"{path} is not an SQLite database {said}: point AZUL_DB at the bot's database, or move this file away"
            " (or restore a backup) to start afresh"
        )
    if code.startswith("SQLITE_CORRUPT"):
        return (
            f'the database {path} is damaged, perhaps truncated {said}: restore a backup (README, "Backups"), or'
            f" salvage it with `sqlite3 {path} .recover | sqlite3 recovered.sqlite3` (the image has sqlite3), point"
            " AZUL_DB there and check it with `python -m bot backup PATH`"
        )
    if code.startswith("SQLITE_BUSY") or code.startswith("SQLITE_LOCKED"):
        return (
            f"the database {path} is locked by another process {said}: is another copy of the bot running on the"
            " same file? Stop it (or the program holding the file) and start again"
        )
    if code.startswith("SQLITE_READONLY"):
        return (
            f"the database {path} cannot be written {said}: its filesystem or file is read-only; mount it"
            " read-write, give the bot's user write access to the file and its folder, or set AZUL_DB elsewhere"
        )
    if code == "SQLITE_FULL":
        return f"the disk holding the database {path} is full {said}: free some space and start again"
    if code.startswith("SQLITE_CANTOPEN"):
        return (
            f"the database {path} cannot be opened {said}: check that its folder exists, is writable by the bot's"
            " user and is not on a read-only filesystem, or set AZUL_DB elsewhere"
        )
    if code.startswith("SQLITE_IOERR"):
        return f"reading or writing the database {path} failed {said}: check the disk (full? failing? read-only?)"
    return f"the database {path} cannot be used {said}: check the file, or set AZUL_DB to another one"


def only_process(path: str) -> OneProcess | None:
    """The bot process's lock on its SQLite file, held until it ends (none for PostgreSQL or an in-memory database):
    a second bot process on the same file would answer every interaction a second time. Raises
    :class:`StoreOpenError` naming the process that holds it."""
    if is_postgres(path) or path == ":memory:" or path.startswith("file:") or not Path(path).parent.is_dir():
        return None
    try:
        return OneProcess.take(path)
    except AlreadyRunning as running:
        raise StoreOpenError(
            f"the database {path} is in use by another bot process ({running.holder}, as {path}.lock says): stop"
            " it first. One SQLite file serves one bot process; several processes share a PostgreSQL database"
            ' (README, "Scaling out")'
        ) from None
    except OSError:  # a folder the bot cannot write in: SQLite, which must write its log there too, says why
        return None


class Store:
    """The bot's database, SQLite or PostgreSQL; open with :meth:`open` and close with :meth:`close`."""

    def __init__(self, engine: SqliteFile | PostgresPool) -> None:
        self._engine = engine
        self.games = GameRecords(engine)
        self.moves = Moves(engine)
        self.timers = TimerRecords(engine)
        self.users = Users(engine)
        self.servers = Servers(engine)
        self.results = Results(engine)
        self.pickers = Pickers(engine)
        self.leagues = LeagueRecords(engine)

    @property
    def is_postgres(self) -> bool:
        return isinstance(self._engine, PostgresPool)

    @classmethod
    async def open(cls, path: str, *, the_bot: bool = False, existing: bool = False) -> Store:
        """Open (and migrate) the database, an SQLite file or a ``postgresql://`` URL; any fault is a
        :class:`StoreOpenError` and leaves no thread or connection behind. ``the_bot``: the bot itself, which writes
        versions, so it takes a new epoch (an operator's command, such as a backup or ``check``, takes none).
        ``existing``: an SQLite file that is not there is refused, not created (a command that reads the bot's
        database, with ``AZUL_DB`` mistyped, must not report on a new empty one)."""
        if existing and not is_postgres(path) and path != ":memory:" and not Path(path).is_file():
            raise StoreOpenError(
                f"there is no database at {path}: is AZUL_DB right? (the bot creates its database when it first"
                " starts; this command works on an existing one)"
            )
        if is_postgres(path):
            store = await cls._open_postgres(path)
            return await store._begin_epoch() if the_bot else store
        if path != ":memory:" and not Path(path).parent.is_dir():
            raise StoreOpenError(
                f"the folder of the database {path} does not exist: create {Path(path).parent} or set AZUL_DB"
                " to a file in an existing folder"
            )
        store = await cls._open_sqlite(path)
        return await store._begin_epoch() if the_bot else store

    async def _begin_epoch(self) -> Store:
        """Take this start's epoch: greater than every epoch before it, as far as the database still knows (one more
        than the last) and beyond (the wall clock in milliseconds), so a version written again after a rollback or a
        restore — which rolled the stored epoch back too — still gets one no board was posted under."""
        try:
            async with self.transaction() as db:
                now = time.time_ns() // 1_000_000
                sql = "UPDATE store_epoch SET epoch = CASE WHEN epoch + 1 > ? THEN epoch + 1 ELSE ? END RETURNING epoch"
                async with db.execute(sql, (now, now)) as cursor:
                    row = await cursor.fetchone()
        except BaseException:
            with contextlib.suppress(Exception):
                await self.close()
            raise
        self._engine.epoch = int(row[0]) if row is not None else 0
        return self

    @property
    def epoch(self) -> int:
        """The epoch this process writes versions in (0 for a process that writes none, such as ``check``)."""
        return self._engine.epoch

    @classmethod
    async def _open_sqlite(cls, path: str) -> Store:
        private_file(path)
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as error:
            # aiosqlite stops its thread but does not wait for it: wait here, or it reports to a closed loop.
            await asyncio.to_thread(connecting._thread.join, 5)
            raise StoreOpenError(explain_open_error(path, error)) from error
        try:
            db.row_factory = aiosqlite.Row
            # busy_timeout first: switching to WAL already waits for another process's lock. synchronous = FULL: in
            # WAL mode NORMAL may lose the last commits on a power cut, and a move the player was told is saved
            # must survive one; the cost is one fsync per commit, far below a Discord round trip. page_size: a new
            # file's (an existing one keeps its own), before WAL fixes it: see PAGE_SIZE, and CHECKPOINT_PAGES.
            for pragma in (
                "busy_timeout = 5000",
                f"page_size = {PAGE_SIZE}",
                "journal_mode = WAL",
                "foreign_keys = ON",
                "synchronous = FULL",
                f"wal_autocheckpoint = {CHECKPOINT_PAGES}",
            ):
                async with db.execute(f"PRAGMA {pragma}"):
                    pass
            engine = SqliteFile(db, path)
            await engine.migrate(MIGRATIONS, newer=lambda current: _newer_schema(path, current))
            await engine.probe_write()
            engine.check_file()  # takes the write-ahead log as it is now (the probe made sure it exists)
        except BaseException as error:
            # aiosqlite's worker thread keeps the process alive until the connection is closed.
            with contextlib.suppress(Exception):
                await db.close()
            if isinstance(error, sqlite3.Error):
                raise StoreOpenError(explain_open_error(path, error)) from error
            raise
        return cls(engine)

    @classmethod
    async def _open_postgres(cls, url: str) -> Store:
        shown = redacted_url(url)
        try:
            engine = await PostgresPool.open(url)
        except (OSError, TimeoutError) as error:
            raise StoreOpenError(
                f"cannot reach the PostgreSQL server of {shown} ({type(error).__name__}: {error}): is it running,"
                " and are host and port right?"
            ) from error
        except Exception as error:  # asyncpg's errors: wrong password, no such database, …
            raise StoreOpenError(
                f"cannot use the PostgreSQL database {shown} ({type(error).__name__}: {error})"
            ) from error
        try:
            await engine.migrate(MIGRATIONS, newer=lambda current: _newer_schema(shown, current))
        except BaseException:
            with contextlib.suppress(Exception):
                await engine.close()
            raise
        return cls(engine)

    async def close(self) -> None:
        await self.games.settle()
        await self._engine.close()

    def lost(self) -> str | None:
        """For SQLite: why the files opened are no longer the database (deleted, replaced), else None."""
        return self._engine.check_file() if isinstance(self._engine, SqliteFile) else None

    async def keep_committed(self) -> str:
        """For SQLite, once :meth:`lost`: keep what the bot committed, where it still can (see
        :meth:`bot.infra.db.SqliteFile.keep_committed`)."""
        return await self._engine.keep_committed() if isinstance(self._engine, SqliteFile) else "nothing to keep"

    async def schema_version(self) -> int:
        return await self._engine.schema_version()

    async def pragma(self, name: str) -> Any:
        """An SQLite setting (tests check WAL and foreign keys); PostgreSQL has none."""
        if not isinstance(self._engine, SqliteFile):
            raise TypeError("PRAGMA is SQLite's")
        return await self._engine.pragma(name)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A write transaction, rolled back on any error (see the module's docstring)."""
        return self._engine.transaction()

    async def copy_into(self, target: Store) -> dict[str, int]:
        """Copy every row of this SQLite database into ``target``, an empty PostgreSQL database with the same schema
        (both opened, so both migrated), in one transaction; returns the rows copied per table."""
        if not isinstance(self._engine, SqliteFile) or not isinstance(target._engine, PostgresPool):
            raise TypeError("copies an SQLite database into PostgreSQL")
        tables = await self._engine.tables()
        copied: dict[str, int] = {}
        async with target.transaction() as into:
            for table in tables:
                async with into.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                    if table not in SEEDED_TABLES and (await cursor.fetchone() or (0,))[0]:
                        raise StoreOpenError(f"the table {table} of the PostgreSQL database is not empty")
            for table in tables:
                if table in SEEDED_TABLES:
                    await into.execute(f"DELETE FROM {table}")
                (kept,) = await self._fetchall("SELECT sql FROM sqlite_master WHERE name = ?", (table,))
                order = "" if "WITHOUT ROWID" in kept[0].upper() else " ORDER BY rowid"  # else in its key's order
                rows = await self._fetchall(f"SELECT * FROM {table}{order}")
                if rows:
                    columns = list(rows[0].keys())
                    await into.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                        [tuple(as_text(v) if isinstance(v, bytes) else v for v in row) for row in rows],
                    )  # a state kept compressed goes in as the text PostgreSQL keeps
                copied[table] = len(rows)
        await target._engine.restart_identities(tables)
        return copied

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read query (for a report that reads across aggregates,
        such as a league's standings)."""
        return await self._fetchall(sql, params)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._engine.reading() as db, db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


__all__ = [
    "FULL_DISK_BYTES",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "OUTCOMES",
    "PAGE_SIZE",
    "CapReached",
    "Conflict",
    "GameRecords",
    "GameResult",
    "GameRow",
    "LeagueRecords",
    "MoveRow",
    "Moves",
    "NewTimer",
    "PickerRow",
    "Pickers",
    "PlayerTotals",
    "RateFn",
    "RatingRow",
    "ResultRow",
    "ResultSeat",
    "Results",
    "Seat",
    "SeatCaps",
    "Servers",
    "Skill",
    "Store",
    "StoreOpenError",
    "TimerChanges",
    "TimerRecords",
    "TimerRow",
    "UndoneRow",
    "UserPrefs",
    "Users",
    "explain_open_error",
    "now_iso",
    "only_process",
    "private_file",
]
