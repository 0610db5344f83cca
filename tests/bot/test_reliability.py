"""Issue 27 through the real bot over the wire (real HTTP and websocket against the fake Discord on localhost): the
background loops survive a store that fails under them, and the heartbeat tells when they fall behind."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot import health
from bot.client import AzulBot, create_bot
from bot.db import SqliteFile
from tests.bot import wire_games as wire
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

SETTLE = 30.0  # seconds: a guard against a hang, never a measure


@pytest.fixture
async def discord_server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(Route, "BASE", server.api)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.stop()


@asynccontextmanager
async def running(server: FakeDiscord, db: str, **options: Any) -> AsyncIterator[AzulBot]:
    """The bot, in this process, logged in to the fake Discord and ready."""
    bot = create_bot(db, **options)
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), SETTLE)
        yield bot
    finally:
        await bot.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def until(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + SETTLE
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"waited in vain for {what}")


class StoreOutage:
    """Every read and write of the bot's SQLite file fails while ``down`` (a full disk, a failing one)."""

    def __init__(self, engine: SqliteFile, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = False
        self.failed = 0
        for name in ("reading", "transaction"):
            monkeypatch.setattr(engine, name, self._guard(getattr(engine, name)))

    def _guard(self, original: Callable[[], Any]) -> Callable[[], Any]:
        @asynccontextmanager
        async def guarded() -> AsyncIterator[Any]:
            if self.down:
                self.failed += 1
                raise sqlite3.OperationalError("database or disk is full")
            async with original() as db:
                yield db

        return guarded


async def test_every_loop_survives_a_store_outage_and_health_says_so(
    discord_server: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    beat = tmp_path / "heartbeat"
    monkeypatch.setattr(health, "LOOP_MARGIN_SECONDS", 1.5)
    async with running(discord_server, db, lease=timedelta(seconds=1), remind_after=timedelta(hours=1)) as bot:
        loops = {loop.name: loop for loop in bot.loops}
        assert set(loops) == {"timers", "boards"}
        await until(lambda: all(loop.passes >= 1 for loop in loops.values()), "a first pass of every loop")
        assert wire.read_games(db)[0].board_version == 0, "the first pass posted the missing board"
        outage = StoreOutage(bot.service.store._engine, monkeypatch)  # type: ignore[arg-type]
        caplog.clear()
        outage.down = True
        passes = {name: loop.passes for name, loop in loops.items()}
        await until(lambda: all(loop.failures >= 3 for loop in loops.values()), "every loop to fail three times")
        assert all(loop.is_running() for loop in loops.values()), "no loop is gone"
        assert {name: loop.passes for name, loop in loops.items()} == passes
        await asyncio.sleep(2.0)  # beyond each loop's period plus the margin
        health.write_heartbeat(beat, bot, time.time())
        healthy, said = health.check(beat, time.time())
        assert not healthy and "boards" in said and "timers" in said, said
        failed = [r for r in caplog.records if r.name == "bot.loops" and r.levelname == "ERROR"]
        assert len(failed) == 2, "one error per loop for the whole outage, not one per pass"

        outage.down = False
        await until(lambda: all(loop.passes > passes[name] for name, loop in loops.items()), "every loop to recover")
        assert all(loop.failures == 0 for loop in loops.values())
        health.write_heartbeat(beat, bot, time.time())
        healthy, said = health.check(beat, time.time())
        assert healthy, said
        recorded = json.loads(beat.read_text())["loops"]
        assert set(recorded) == {"timers", "boards"} and all(loop["last_pass"] for loop in recorded.values())
