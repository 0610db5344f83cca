"""The real bot process stops cleanly and takes its workers with it: after kill -9 no search or picture worker is
left running, and SIGTERM ends it within Docker's grace in any state, during a 30 s search or while Discord's
gateway is down and discord.py is backing off. Times are printed, never asserted (a loaded machine is slow)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import engine
from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.bot_process import spawn
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

pytestmark = pytest.mark.slow  # each test starts and stops a real bot process with its workers

SETTLE = 60.0  # seconds: a guard against a hang, never a measure


async def until(check, what: str, within: float = SETTLE):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")


def children_of(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (read from /proc: its workers, and theirs)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z":  # a zombie has ended; it only waits to be reaped
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if state[state.rindex(")") + 2] != "Z":
            left.add(pid)
    return left


async def a_computer_thinking(db: str) -> None:
    """One game whose computer seat (hard, 30 s a move) must move as soon as the bot starts."""
    store = await Store.open(db)
    service = GameService(store, lambda: 11)
    channel, user = wire.FIRST_CHANNEL, wire.FIRST_USER
    await service.seating.create(
        guild_id=wire.GUILD, channel_id=channel, user_id=user, name="p", variant="azul", seats=2, order="joined",
        thinking=30,
    )  # fmt: skip
    await service.seating.add_computer(channel, user, "hard", is_admin=False)
    try:
        await service.seating.start(channel, user, is_admin=False)
        game = await store.games.latest_game_in(channel)
        assert game is not None and game.state is not None
        first = engine.legal_moves(engine.from_json(game.state), 0)[0]
        await service.turns.move(channel, user, first.command, dict(first.choices()))
    finally:
        await store.close()


def bot_env(tmp_path: Path, db: str) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "AZUL_DB": db,
        "AZUL_HEARTBEAT_FILE": str(tmp_path / "beat"),
        "AZUL_AI_WORKERS": "1",
        "AZUL_PICTURE_WORKERS": "1",
    }


async def searching(process: subprocess.Popen[bytes], server: FakeDiscord) -> set[int]:
    """The bot's workers, once its computer is searching (its search worker is busy: the CPU it uses grows)."""
    await until(lambda: server.identifies >= 1, "the bot logged in")
    workers = await until(lambda: len(children_of(process.pid)) >= 3 and children_of(process.pid), "its workers")

    def busy() -> bool:
        return any(cpu_seconds(pid) > 1.0 for pid in children_of(process.pid))

    await until(busy, "a worker at work")
    return workers | children_of(process.pid)


def cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def test_kill_9_during_a_search_leaves_no_worker_running(discord_server: FakeDiscord, tmp_path: Path) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await a_computer_thinking(db)
    process = spawn(discord_server.api, discord_server.gateway_url, bot_env(tmp_path, db), log=tmp_path / "bot.log")
    try:
        workers = await searching(process, discord_server)
        process.kill()
        process.wait()
        killed = time.monotonic()
        left = await until(lambda: not alive(workers), "the workers to end", within=SETTLE) and alive(workers)
        print(f"{len(workers)} worker processes ended {time.monotonic() - killed:.2f} s after kill -9 of the bot")
    finally:
        for pid in alive(children_of(process.pid)):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
    assert not left


@pytest.mark.parametrize("state", ["searching", "gateway down"])
async def test_sigterm_ends_the_bot_and_its_workers(discord_server: FakeDiscord, tmp_path: Path, state: str) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await a_computer_thinking(db)
    log = tmp_path / "bot.log"
    process = spawn(discord_server.api, discord_server.gateway_url, bot_env(tmp_path, db), log=log)
    try:
        workers = await searching(process, discord_server)
        if state == "gateway down":
            await discord_server.drop_gateway()
            # Four refused reconnects, the signal right after the fourth: discord.py now sleeps its back-off (a random
            # time up to 16 s, 8 s on average) before the next; before the fix the stop waited it out.
            tried = discord_server.gateway_attempts
            await until(lambda: discord_server.gateway_attempts >= tried + 4, "the bot backing off")
        asked = time.monotonic()
        process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(process.wait, SETTLE)
        took = time.monotonic() - asked
        print(f"SIGTERM ({state}): the bot exited with {code} after {took:.2f} s")
        await until(lambda: not alive(workers), "the workers to end")
    finally:
        for pid in alive(children_of(process.pid)):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
    written = log.read_text()
    assert code == 0, written[-3000:]
    if state == "searching":  # (with the gateway down, discord.py logs each refused reconnect with its traceback)
        assert "Traceback" not in written, written[-3000:]
