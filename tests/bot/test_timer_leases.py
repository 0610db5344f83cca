"""A restarted process takes back its own timers' leases at once, as it does its claims: a deadline its previous life
had taken (and moved on by its ten-minute lease) runs as soon as the bot is ready; another process's lease waits."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.computer import Computer
from bot.app.service import GameService
from bot.infra.clock import ManualClock, iso
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_reliability import running, until

START = datetime.now(UTC)


async def a_deadline_leased_by(db: str, owner: str) -> int:
    """A game with a 12-hour limit whose deadline passed an hour ago, taken by ``owner`` (its lease runs ten
    minutes more); returns the game's id."""
    store = await Store.open(db)
    try:
        service = GameService(store, lambda: 5, clock=ManualClock(START - timedelta(hours=13)))
        channel, human = wire.FIRST_CHANNEL, wire.FIRST_USER
        game = await service.seating.create(
            guild_id=wire.GUILD, channel_id=channel, user_id=human, name="p", variant="azul", seats=2,
            order="joined", time_limit_hours=12,
        )  # fmt: skip
        await service.seating.join(channel, human + 1, "q")
        await service.seating.start(channel, human, is_admin=False)
    finally:
        await store.close()
    with sqlite3.connect(db) as write:
        changed = write.execute(
            "UPDATE timers SET due_at = ?, leased_by = ? WHERE game_id = ? AND kind = 'deadline' AND state = 'pending'",
            (iso(START + timedelta(minutes=10)), owner, game.id),
        ).rowcount
    assert changed == 1
    return game.id


@pytest.mark.parametrize(("owner", "taken"), [("unsharded#1f00", True), ("shards 1 of 2#2f00", False)])
async def test_a_restarted_bot_runs_its_own_leased_deadline_at_once(
    discord_server: FakeDiscord,
    tmp_path: Path,
    owner: str,
    taken: bool,
) -> None:
    db = str(tmp_path / "azul.sqlite3")
    game = await a_deadline_leased_by(db, owner)
    clock = ManualClock(START)
    async with running(discord_server, db, clock=clock, computer=Computer(1, {"iterations": 8})) as bot:
        if taken:  # well inside the dead life's ten-minute lease: the clock stands still
            await until(lambda: len(wire.moves_of(db, game)) >= 1, "the deadline's move before its lease ends", 60)
        else:
            await bot.run_due()
            assert wire.moves_of(db, game) == [], "another process's lease still holds"
