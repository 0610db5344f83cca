"""``python -m bot backup PATH`` while the real bot runs: a consistent copy, readable by its owner only, that opens
and replays every game; refused over an existing file; for PostgreSQL, the pg_dump command instead."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.__main__
import engine
from bot.app.backup import backup
from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot.table import Table


async def test_a_backup_taken_while_the_bot_plays_opens_and_replays_every_game(
    simcord_env, db_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if "://" in db_path:
        pytest.skip("PostgreSQL is backed up with pg_dump")
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    for _ in range(3):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    await table.confirmed(table.players[0], "resign")
    second = Table.create(simcord_env, 2)
    await second.open("summer-pavilion")
    member, _, move = await second.choose()
    await second.play_by_slash(member, move)

    copy = tmp_path / "copy.sqlite3"
    assert await backup(db_path, str(copy)) == 0
    assert "2 games, every one replays" in capsys.readouterr().out
    assert copy.stat().st_mode & 0o777 == 0o600 and not list(tmp_path.glob("*.partial"))
    store = await Store.open(str(copy))
    try:
        for original in (await table.game(), await second.game()):
            kept = await store.games.game(original.id)
            assert kept is not None and (kept.status, kept.version, kept.state) == (
                original.status,
                original.version,
                original.state,
            )
            assert await GameService(store).tables.replayed(kept) == engine.from_json(kept.state or {})
    finally:
        await store.close()

    assert await backup(db_path, str(copy)) == 2, "never over an existing file"
    assert "exists already" in capsys.readouterr().err


def test_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "azul.sqlite3"

    async def made() -> None:
        await (await Store.open(str(database))).close()

    asyncio.run(made())
    monkeypatch.setenv("AZUL_DB", str(database))
    monkeypatch.chdir(tmp_path)
    assert bot.__main__.main(["backup", str(tmp_path / "b.sqlite3")]) == 0
    assert "0 games" in capsys.readouterr().out
    monkeypatch.setenv("AZUL_DB", "postgresql://azul:s3cr3t@db/azul")
    assert bot.__main__.main(["backup", "azul.dump"]) == 2
    said = capsys.readouterr().err
    assert 'pg_dump --format=custom --file=azul.dump --dbname="$AZUL_DB"' in said and "s3cr3t" not in said
