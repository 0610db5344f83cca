"""A database the bot cannot use ends ``python -m bot`` within seconds: exit code 5 and one line naming the file,
what is wrong and what to do; never a hang, never a traceback. Each case runs the real command in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import EXIT_STORE
from bot.infra.config import redacted_url
from bot.infra.db import is_postgres
from bot.infra.store import MIGRATIONS, Store, StoreOpenError
from tests.bot.fake_discord import GOOD_TOKEN

HANG_GUARD = 60  # seconds; a hang fails the test instead of the run. The busy wait for a lock is 5 s.


def start_bot(db: Path | str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith(("AZUL_", "DISCORD_"))}
    env.update(DISCORD_TOKEN=GOOD_TOKEN, AZUL_DB=str(db))
    return subprocess.run(
        [sys.executable, "-m", "bot"], check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )


def the_line(result: subprocess.CompletedProcess[str]) -> str:
    """Exit code 5 and exactly one line on stderr."""
    assert result.returncode == EXIT_STORE == 5, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("azul-bot: ")
    return line


def a_bot_database(path: Path | str, users: int = 0) -> None:
    async def make() -> None:
        await (await Store.open(str(path))).close()

    asyncio.run(make())
    if users:
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.executemany("INSERT INTO users (user_id, locale) VALUES (?, ?)", ((n, "pl" * 40) for n in range(users)))


def test_a_garbage_file(tmp_path: Path) -> None:
    db = tmp_path / "azul.sqlite3"
    db.write_bytes(bytes(range(256)) * 40)
    line = the_line(start_bot(db, tmp_path))
    assert str(db) in line and "is not an SQLite database" in line and "AZUL_DB" in line


def test_a_truncated_file(tmp_path: Path) -> None:
    db = tmp_path / "azul.sqlite3"
    a_bot_database(db, users=3000)
    size = db.stat().st_size
    assert size > 40_000
    with db.open("r+b") as file:
        file.truncate(size // 2)
    line = the_line(start_bot(db, tmp_path))
    assert str(db) in line and "damaged, perhaps truncated" in line and "restore a backup" in line


def newer_schema(db: str, version: int) -> None:
    """Mark the database as written by a bot that knows ``version`` migrations, where each backend keeps it."""
    if not is_postgres(db):
        with contextlib.closing(sqlite3.connect(db)) as connection:
            connection.execute(f"PRAGMA user_version = {version}")
        return
    import asyncpg

    async def mark() -> None:
        connection = await asyncpg.connect(db)
        try:
            await connection.execute("UPDATE schema_version SET version = $1", version)
        finally:
            await connection.close()

    asyncio.run(mark())


def test_a_newer_schema(db_path: str, tmp_path: Path) -> None:
    db = db_path
    a_bot_database(db)
    newer_schema(db, len(MIGRATIONS) + 3)
    line = the_line(start_bot(db, tmp_path))
    assert redacted_url(str(db)) in line, line  # a PostgreSQL URL shows with its query values hidden
    assert f"schema {len(MIGRATIONS) + 3}, newer than this bot knows ({len(MIGRATIONS)})" in line
    assert "newer version of the bot" in line


@pytest.mark.slow  # a bot process started and stopped
def test_a_database_locked_by_another_process(tmp_path: Path) -> None:
    db = tmp_path / "azul.sqlite3"
    a_bot_database(db)
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another writer holds the file, as a second bot mid-move would
        result = start_bot(db, tmp_path)
        other.execute("ROLLBACK")
    line = the_line(result)
    assert str(db) in line and "locked by another process" in line and "another copy of the bot" in line


def test_an_unreachable_postgresql_server(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = the_line(start_bot(f"postgresql://azul:secret@127.0.0.1:{port}/azul", tmp_path))
    assert f"postgresql://azul:***@127.0.0.1:{port}/azul" in line and "secret" not in line
    assert "cannot reach the PostgreSQL server" in line and "is it running" in line


def test_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "azul.sqlite3"
    line = the_line(start_bot(db, tmp_path))
    assert str(db) in line and "does not exist" in line and f"create {db.parent}" in line
    assert not db.parent.exists()


@pytest.fixture
def small_filesystem(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs of our own (root only), so the test can fill it or make it read-only (a new database with
    every migration, and its write-ahead log, must fit first)."""
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root and mount(8) to make a small or read-only filesystem")
    mount = tmp_path / "mnt"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], check=False, capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


@pytest.mark.slow  # a bot process started and stopped
def test_a_read_only_filesystem(small_filesystem: Path, tmp_path: Path) -> None:
    db = small_filesystem / "azul.sqlite3"
    a_bot_database(db)
    subprocess.run(["mount", "-o", "remount,ro", str(small_filesystem)], check=True)
    for path in (db, small_filesystem / "new.sqlite3"):  # the bot's database, and a first start
        line = the_line(start_bot(path, tmp_path))
        assert str(path) in line and "read-only filesystem" in line and "read-write" in line


def test_a_full_disk(small_filesystem: Path, tmp_path: Path) -> None:
    db = small_filesystem / "azul.sqlite3"
    a_bot_database(db)
    with contextlib.suppress(OSError), (small_filesystem / "filler").open("wb", buffering=0) as filler:
        while True:  # until ENOSPC
            filler.write(bytes(4096))
    line = the_line(start_bot(db, tmp_path))
    assert str(db) in line and "is full" in line and "free some space" in line


async def test_a_failed_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's worker thread is not a daemon: left running, it keeps the process alive (the old hang)."""
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database" * 500)
    a_folder = tmp_path / "folder.sqlite3"
    a_folder.mkdir()  # SQLite cannot even connect to it
    # Only threads this test starts count: a store an earlier test in this worker left open is not this one's fault.
    before = set(threading.enumerate())
    for path in (garbage, a_folder):
        with pytest.raises(StoreOpenError):
            await Store.open(str(path))
    started = [t for t in set(threading.enumerate()) - before if "_connection_worker_thread" in t.name]
    for thread in started:  # a closed connection's thread ends a moment after the close returns, later on a busy host
        thread.join(timeout=10)
    assert not [thread for thread in started if thread.is_alive()]
