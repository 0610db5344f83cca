"""The store's files under the running bot (issue 36), through the real bot process over the wire: a deleted
write-ahead log loses no acknowledged move, a second process on the same SQLite file refuses to start, and after a
restore the boards of versions made again are posted (never dropped as repeats)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.app.errors import StoreLost
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.bot_process import spawn
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord
from tests.bot.test_reliability import running

SETTLE = 30.0  # seconds: a guard against a hang, never a measure


async def until(check: Callable[[], Any], what: str, within: float = SETTLE) -> Any:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"waited in vain for {what}")


def board_of(db: Path) -> int:
    with sqlite3.connect(db) as read:
        return int(read.execute("SELECT board_version FROM games").fetchone()[0])


def bot_process(server: FakeDiscord, db: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "AZUL_DB": str(db), "AZUL_HEARTBEAT_FILE": str(db.parent / "beat")}
    return spawn(server.api, server.gateway_url, env, log=log)


async def stopped(process: subprocess.Popen[bytes], within: float) -> int | None:
    """The process's exit code, or None after killing it (as a machine dies) when it did not stop ``within``."""
    try:
        return await asyncio.to_thread(process.wait, within)
    except subprocess.TimeoutExpired:
        process.kill()
        await asyncio.to_thread(process.wait)
        return None


async def play(server: FakeDiscord, game: wire.Seen, state: engine.GameState) -> tuple[bool, engine.GameState]:
    """One move by whoever acts in ``state`` (known to the test, not read from the files): acknowledged or not."""
    seat = min(engine.to_act(state))
    move = wire.AGENT.choose(engine.variant_of(state), state, seat)
    said = await wire.answer(server, await wire.send_move(server, game, game.users[seat], move), SETTLE)
    if not wire.played(said):
        return False, state
    return True, engine.apply(state, seat, move)[0]


@pytest.mark.slow  # a bot process started and stopped
async def test_a_deleted_write_ahead_log_loses_no_acknowledged_move(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    """Every commit since the last checkpoint lives in ``-wal``: deleted under the running bot, the bot acknowledges
    no move more, copies what it committed into the database file, says so in one line and stops with code 5."""
    db = tmp_path / "azul.sqlite3"
    await wire.prepare_games(str(db), 1)
    log = tmp_path / "bot.log"
    process = bot_process(discord_server, db, log)
    try:
        await until(lambda: discord_server.identifies >= 1 and board_of(db) == 0, "the bot at work")
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        assert game.state is not None
        state, acked = game.state, 0
        for _ in range(4):
            done, state = await play(discord_server, game, state)
            assert done
            acked += 1
        Path(f"{db}-wal").unlink()
        for _ in range(3):  # moves after the loss: none is acknowledged
            done, state = await play(discord_server, game, state)
            acked += done
            if process.poll() is not None:
                break
        code = await stopped(process, 10.0)
    finally:
        if process.poll() is None:
            process.kill()
    written = log.read_text()
    assert len(wire.moves_of(str(db), game.id)) == acked == 4, written[-2000:]
    assert code == 5, written[-2000:]
    assert written.count("azul.sqlite3-wal was deleted") == 1, written[-2000:]
    assert "every commit in the lost log was copied" in written
    assert "Traceback" not in written, written[-2000:]


async def test_a_replaced_write_ahead_log_refuses_every_write(tmp_path: Path) -> None:
    """Another file where the log was (a copy put back, another database's log): no write is acknowledged."""
    db = tmp_path / "azul.sqlite3"
    store = await Store.open(str(db))
    try:
        assert store.lost() is None
        wal = Path(f"{db}-wal")
        copy = tmp_path / "copy"
        copy.write_bytes(wal.read_bytes())
        copy.replace(wal)
        with pytest.raises(StoreLost, match=r"azul\.sqlite3-wal was replaced"):
            async with store.transaction() as conn:
                await conn.execute("INSERT INTO users (user_id) VALUES (1)")
        assert await store.keep_committed() == f"every commit in the lost log was copied into {db}"
    finally:
        await store.close()
    with sqlite3.connect(db) as read:
        assert read.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 0


@pytest.mark.slow  # two bot processes started
async def test_a_second_bot_process_on_one_sqlite_file_refuses_to_start_naming_the_first(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "azul.sqlite3"
    await wire.prepare_games(str(db), 1)
    first = bot_process(discord_server, db, tmp_path / "first.log")
    try:
        await until(lambda: discord_server.identifies >= 1 and board_of(db) == 0, "the first bot at work")
        second = bot_process(discord_server, db, tmp_path / "second.log")
        code = await stopped(second, SETTLE)
        said = (tmp_path / "second.log").read_text()
        assert code == 5, said
        assert f"in use by another bot process (process {first.pid} on " in said, said
        assert "PostgreSQL" in said and "Traceback" not in said, said
        assert discord_server.identifies == 1, "the second never logged in"
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        assert game.state is not None
        done, _ = await play(discord_server, game, game.state)
        assert done, "the first plays on"
    finally:
        first.terminate()
        await stopped(first, SETTLE)
    third = bot_process(discord_server, db, tmp_path / "third.log")  # the first is gone: its lock with it
    try:
        await until(lambda: discord_server.identifies >= 2, "the next bot at work")
    finally:
        third.terminate()
        await stopped(third, SETTLE)


def boards_posted(server: FakeDiscord) -> dict[int, int]:
    """How many board messages Discord created for each version (a post dropped as a repeat nonce created none)."""
    found: dict[int, int] = {}
    for posts in server.posted.values():
        for post in posts:
            nonce = re.fullmatch(r"b\d+v(\d+)e?(g[0-9a-z]+)?", str((post.json or {}).get("nonce", "")))
            if nonce is not None:
                found[int(nonce[1])] = found.get(int(nonce[1]), 0) + 1
    return found


async def test_after_a_restore_the_boards_of_versions_made_again_are_posted(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    """A backup at version 2, the game played on to version 5, the backup restored: versions 3 to 5 are made again
    (here the very same moves) and each gets a board of its own, not the lost one Discord would hand back for a
    repeated nonce."""
    db, backup = tmp_path / "azul.sqlite3", tmp_path / "backup.sqlite3"
    await wire.prepare_games(str(db), 1)
    async with running(discord_server, str(db)):
        await until(lambda: board_of(db) == 0, "the opening board")
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        assert game.state is not None
        state = game.state
        for version in range(1, 6):
            done, state = await play(discord_server, game, state)
            assert done
            await until(lambda v=version: board_of(db) == v, f"the board of version {version}")
            if version == 2:
                with sqlite3.connect(db) as source, sqlite3.connect(backup) as copy:
                    source.backup(copy)
    for path in tmp_path.glob("azul.sqlite3*"):
        path.unlink()
    backup.replace(db)
    async with running(discord_server, str(db)):
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        assert game.state is not None and game.version == 2
        state = game.state
        for version in range(3, 6):
            done, state = await play(discord_server, game, state)
            assert done
            await until(lambda v=version: board_of(db) == v, f"the board of version {version} again")
    assert boards_posted(discord_server) == {0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 2}


async def test_a_game_damaged_while_running_is_quarantined_at_once(
    discord_server: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A row damaged under the running bot: the first request that reads it quarantines the game (one log line, the
    store marks it), and ``/azul-me games`` no longer lists it but names it to its player as damaged."""
    db = tmp_path / "azul.sqlite3"
    await wire.prepare_games(str(db), 1)
    async with running(discord_server, str(db)) as bot:
        await until(lambda: board_of(db) == 0, "the opening board")
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        (user, move), *_ = wire.moves_now(game)
        with sqlite3.connect(db, timeout=60) as damage:  # the bot may be writing: wait for its lock
            damage.execute("UPDATE games SET state = substr(state, 1, length(state) - 8) WHERE id = ?", (game.id,))
        caplog.clear()

        async def ask(command: str, sub: str) -> str | None:
            sent = await discord_server.slash(
                guild_id=wire.GUILD, channel_id=game.channel, user_id=user, command=command, sub=sub, locale="en-US"
            )
            return await wire.answer(discord_server, sent, SETTLE)

        listed = await ask("azul-me", "games")
        assert listed is not None and f"Game #{game.id} in <#{game.channel}> is damaged" in listed, listed
        assert listed.startswith("You have no open games"), "not listed among the games that play"
        for _ in range(2):
            said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), SETTLE)
            assert said is not None and f"Game #{game.id} in this channel is damaged" in said, said
        broken = await bot.service.store.games.broken_games()
    assert [found.id for found in broken] == [game.id] and "JSON" in (broken[0].broken or "")
    told = [r for r in caplog.records if "is quarantined" in r.getMessage()]
    assert len(told) == 1 and told[0].levelname == "ERROR", [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.exc_info], "no traceback"


async def test_each_start_takes_an_epoch_beyond_every_earlier_one(db_path: str) -> None:
    """On both engines: every start of the bot takes a greater epoch, also after a restore rolled the stored one
    back (the wall clock carries it); an operator's command takes none."""
    epochs = []
    for rolled_back in (False, False, True):
        store = await Store.open(db_path, the_bot=True)
        try:
            epochs.append(store.epoch)
            if rolled_back:  # as a backup from before these starts would have it
                async with store.transaction() as db:
                    await db.execute("UPDATE store_epoch SET epoch = 1")
        finally:
            await store.close()
    after = await Store.open(db_path, the_bot=True)
    reader = await Store.open(db_path)
    try:
        assert epochs[0] < epochs[1] < epochs[2] < after.epoch, (epochs, after.epoch)
        assert epochs[0] > 1_700_000_000_000, "milliseconds of the wall clock"
        assert reader.epoch == 0
    finally:
        await after.close()
        await reader.close()
