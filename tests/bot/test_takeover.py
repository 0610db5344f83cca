"""Two bot processes on one database, the shards split between them, as an operator scales out: the process playing
a game's computer turns is killed with SIGKILL (with its search workers) and not restarted; the other one takes the
turns over once the dead one's lease has run out (``AZUL_LEASE_SECONDS``), never before, and posts the boards. Each
move is saved once and the game's snapshot equals the replay of its log."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest

import engine
from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.bot_process import spawn
from tests.bot.conftest import PG_URL
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PG_URL, reason="several bot processes share a PostgreSQL store, never one SQLite file"),
]

LEASE_SECONDS = 4
"""Long enough for a hard computer move (about a second) on a busy machine, short enough for a quick test."""
HUMAN = wire.FIRST_USER
SETTLE = 120  # seconds: a guard against a hang, never a measure
T = TypeVar("T")


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()


async def a_game_against_two_hard_computers(db: str) -> int:
    """A started game: a person (who moves first) and two hard computer players, its first board not posted."""
    store = await Store.open(db)
    service = GameService(store, lambda: 5)
    try:
        channel = wire.FIRST_CHANNEL
        game = await service.seating.create(
            guild_id=wire.GUILD, channel_id=channel, user_id=HUMAN, name="p", variant="azul", seats=3, order="joined"
        )
        for _ in range(2):
            await service.seating.add_computer(channel, HUMAN, "hard", is_admin=False)
        await service.seating.start(channel, HUMAN, is_admin=False)
        return game.id
    finally:
        await store.close()


def bot_processes(server: FakeDiscord, db: str, folder: Path) -> list[subprocess.Popen[bytes]]:
    """Two processes of one sharded bot, one shard each."""
    return [
        spawn(
            server.api,
            server.gateway_url,
            {
                "DISCORD_TOKEN": GOOD_TOKEN,
                "AZUL_DB": db,
                "AZUL_SHARD_COUNT": "2",
                "AZUL_SHARD_IDS": str(shard),
                "AZUL_LEASE_SECONDS": str(LEASE_SECONDS),
                "AZUL_REMIND_HOURS": "0",
                "AZUL_LOG_LEVEL": "INFO",
                "AZUL_HEARTBEAT_FILE": str(folder / f"heartbeat-{shard}"),
            },
            log=folder / f"bot-{shard}.log",
            own_group=True,
        )
        for shard in range(2)
    ]


def claim_of(db: str, work: str) -> tuple[str, datetime] | None:
    """Who holds ``work`` and until when."""
    (rows,) = wire._query(db, [("SELECT owner, until FROM claims WHERE work = ?", (work,))])
    return (rows[0][0], datetime.fromisoformat(rows[0][1])) if rows else None


def computer_to_act(game: wire.Seen) -> bool:
    return game.status == "active" and game.state is not None and HUMAN not in [u for u, _ in wire.moves_now(game)]


async def until_true(
    check: Callable[[], T | None], what: str, processes: list[subprocess.Popen[bytes]], folder: Path
) -> T:
    """What ``check`` finds, once it finds something; a bot among ``processes`` that exits (but for a SIGKILL) fails
    the test with the end of the logs."""
    for _ in range(SETTLE * 20):
        found = await asyncio.to_thread(check)
        if found:
            return found
        for process in processes:
            if process.poll() is not None and process.returncode != -signal.SIGKILL:
                logs = "\n".join(path.read_text()[-1500:] for path in sorted(folder.glob("bot-*.log")))
                raise AssertionError(f"a bot exited with {process.returncode}:\n{logs}")
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")


async def test_a_killed_process_s_computer_turns_are_taken_over(
    server: FakeDiscord, db_path: str, tmp_path: Path
) -> None:
    db = db_path
    game_id = await a_game_against_two_hard_computers(db)
    work = f"computer:{game_id}"
    processes = bot_processes(server, db, tmp_path)
    try:
        await until_true(lambda: server.identifies >= 2 or None, "both processes to connect", processes, tmp_path)
        opening = await until_true(
            lambda: next((g for g in wire.read_games(db) if g.board_version == g.version == 0), None),
            "the opening board",
            processes,
            tmp_path,
        )
        ((user, move),) = wire.moves_now(opening)
        assert user == HUMAN, "the person moves first, so no computer turn is under way before both processes run"
        said = await wire.answer(server, await wire.send_move(server, opening, user, move), timeout=SETTLE)
        assert wire.played(said), said

        # The computer's turns start at once in the process that took the move (or in the other, at its sweep).
        owner, _ = await until_true(lambda: claim_of(db, work), "a process to claim the computer's turns", [], tmp_path)
        shard = int(owner.removeprefix("shards ").split(" ")[0])  # "shards 1 of 2#<generation>": the process of shard 1
        doomed = processes[shard]
        os.killpg(doomed.pid, signal.SIGKILL)
        await asyncio.to_thread(doomed.wait)
        (survivor,) = [process for process in processes if process is not doomed]

        at_kill = wire.game_in(db, wire.FIRST_CHANNEL)
        assert computer_to_act(at_kill), "the computer's turns were cut off by the kill, not over before it"
        dead_claim = claim_of(db, work)
        assert dead_claim is not None and dead_claim[0] == owner, "the dead process keeps its claim until it runs out"
        lease_end = dead_claim[1]

        def taken_over() -> wire.Seen | None:
            game = wire.game_in(db, wire.FIRST_CHANNEL)
            if game.version != at_kill.version:
                assert datetime.now(UTC) >= lease_end, "another process played before the dead one's lease ran out"
            done = not computer_to_act(game) and game.board_version == game.version
            return game if done else None

        after = await until_true(taken_over, "the survivor to play the computer's turns", [survivor], tmp_path)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.to_thread(process.wait, 30)

    assert after.version == 3 > at_kill.version, "the survivor played the turns the dead process left"
    moves = wire.moves_of(db, game_id)
    assert [seat for seat, _, _ in moves] == [0, 1, 2], "the person's move and each computer's, once"
    replayed = engine.replay(after.variant, len(after.users), after.seed, [(s, n) for s, n, _ in moves], after.options)
    assert replayed == after.state, "each move is saved once: the snapshot equals the replay of the log"
    board = server.messages[str(after.board_message_id)]
    buttons = [c["custom_id"] for row in board["components"] for c in row["components"]]
    assert buttons == [f"azul:play:{game_id}:{after.version}", f"azul:table:{game_id}"], "the survivor's board"
