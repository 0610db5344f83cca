"""``python -m bot backup PATH``: an online, consistent copy of the bot's database, checked before it is called done.

SQLite: SQLite's own backup API copies the file page by page while the bot keeps running (its WAL keeps readers and
the writer apart), into ``PATH`` readable by its owner only; then the copy is opened as the bot would open it, its
integrity checked, and every game replayed from its log to its stored table. PostgreSQL has its own tool for this:
the command prints the ``pg_dump`` (and ``pg_restore``) command to use, and makes no copy itself.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import engine
from bot.app.service import GameService
from bot.infra.db import is_postgres
from bot.infra.store import Store, StoreOpenError, private_file

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_STORE = 5
PAGES_PER_STEP = 256
"""Pages copied between two yields of the source's lock: the bot's writes go on during a long backup."""


def copy_sqlite(source: str, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` (a new file) with the backup API; a copy that fails half
    way is removed, never left looking like a backup."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(str(partial))
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as origin, sqlite3.connect(partial) as copy:
            origin.backup(copy, pages=PAGES_PER_STEP)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


async def check_copy(target: Path) -> tuple[int, list[int]]:
    """Open the copy as the bot would, check its integrity, and replay every started game from its log: how many
    games it holds, and those whose log does not lead to their stored table."""
    store = await Store.open(str(target))
    try:
        if (await store.pragma("integrity_check")) != "ok":
            raise StoreOpenError(f"the copy {target} fails SQLite's integrity check")
        service = GameService(store)
        ids = await store.games.all_game_ids()
        wrong = []
        for game_id in ids:
            game = await store.games.game(game_id)
            if game is None or game.state is None:  # a lobby: nothing to replay
                continue
            if await service.tables.replayed(game) != engine.from_json(game.state):
                wrong.append(game_id)
        return len(ids), wrong
    finally:
        await store.close()


def pg_dump_advice(path: str) -> str:
    return (
        "azul-bot: this bot's database is PostgreSQL, whose own tool makes a consistent copy while the bot runs:\n"
        f'  pg_dump --format=custom --file={path} --dbname="$AZUL_DB"\n'
        "and restores it (into an empty database, the bot stopped):\n"
        f'  pg_restore --no-owner --dbname="$AZUL_DB" {path}'
    )


async def backup(source: str, path: str) -> int:
    """Back up the database ``source`` (``AZUL_DB``) to ``path``; the exit code."""
    if is_postgres(source):
        print(pg_dump_advice(path), file=sys.stderr)
        return EXIT_USAGE
    target = Path(path)
    if target.exists():
        print(f"azul-bot: {path} exists already: choose a new file for the backup", file=sys.stderr)
        return EXIT_USAGE
    if not Path(source).is_file():
        print(f"azul-bot: there is no database at {source} to back up (AZUL_DB)", file=sys.stderr)
        return EXIT_STORE
    try:
        await asyncio.to_thread(copy_sqlite, source, target)
        games, wrong = await check_copy(target)
    except (sqlite3.Error, OSError, StoreOpenError) as error:
        print(f"azul-bot: the backup to {path} failed ({error})", file=sys.stderr)
        return EXIT_STORE
    if wrong:
        listed = ", ".join(map(str, wrong))
        print(f"azul-bot: backed up to {path}, but games {listed} do not replay to their stored table", file=sys.stderr)
        return EXIT_STORE
    print(f"backed up {source} to {path}: {games} games, every one replays from its log to its stored table")
    return EXIT_OK


__all__ = ["backup", "check_copy", "copy_sqlite"]
