"""The schema as numbered .sql files: numbered without gaps, shipped with the package, and the same schema the
migrations kept as strings in the store built (a database made by the older bot opens unchanged)."""

from __future__ import annotations

import json
import re
import sqlite3
import tomllib
from pathlib import Path

import bot.infra.store
from bot.infra.store import MIGRATIONS, Store

ROOT = Path(__file__).resolve().parents[2]
FOLDER = Path(bot.infra.store.__file__).parent / "migrations"
SCHEMA_21 = Path(__file__).with_name("schema_21.json")
"""Every table, index and trigger after migration 21, as the migrations kept as strings in the store made them (each
``CREATE`` with its whitespace folded)."""


def schema(path: str) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
    return {f"{kind} {name}": " ".join((sql or "").split()) for kind, name, sql in rows}


def user_version(path: str) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate_by_hand(path: str, upto: int) -> None:
    """Apply the first ``upto`` migrations the way an older bot did, without the store."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for number, script in enumerate(MIGRATIONS[:upto], start=1):
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
    finally:
        db.close()


def test_the_migrations_are_numbered_sql_files_declared_as_package_data() -> None:
    names = sorted(path.name for path in FOLDER.iterdir())
    assert all(re.fullmatch(r"\d{4}_[a-z0-9_]+\.sql", name) for name in names), names
    assert [int(name[:4]) for name in names] == list(range(1, len(names) + 1))
    assert len(MIGRATIONS) == len(names) >= 21
    assert all(script and not script.startswith("--") for script in MIGRATIONS), "comments are for readers only"
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "migrations/*.sql" in pyproject["tool"]["setuptools"]["package-data"]["bot.infra.store"]


def test_the_first_21_files_build_the_schema_the_strings_built(tmp_path: Path) -> None:
    path = str(tmp_path / "21.sqlite3")
    migrate_by_hand(path, 21)
    assert schema(path) == json.loads(SCHEMA_21.read_text())


async def test_a_database_at_version_21_opens_and_keeps_its_rows(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    migrate_by_hand(path, 21)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, channel_id, creator_id, variant, seed, max_seats, status, created_at, turn_since)"
            " VALUES (1, 9, 100, 'azul', 5, 2, 'lobby', 'x', 'x')"
        )
        db.execute("INSERT INTO seats (game_id, user_id, name, joined) VALUES (1, 100, 'alice', 0)")
    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        game = await store.games.open_game_in(9)
        assert game is not None and [seat.name for seat in game.seats] == ["alice"]
    finally:
        await store.close()
    assert user_version(path) == len(MIGRATIONS)
    if len(MIGRATIONS) == 21:
        assert schema(path) == json.loads(SCHEMA_21.read_text()), "opening changed nothing"


async def test_an_older_database_is_upgraded_file_by_file(tmp_path: Path) -> None:
    """A database left at migration 11 by an older bot takes the later files in order, and ends with the schema
    a new database has."""
    old, new = str(tmp_path / "old.sqlite3"), str(tmp_path / "new.sqlite3")
    migrate_by_hand(old, 11)
    assert user_version(old) == 11
    for path in (old, new):
        await (await Store.open(path)).close()
    assert user_version(old) == user_version(new) == len(MIGRATIONS)
    assert schema(old) == schema(new)
