"""The real bot as a separate process against the fake Discord, killed with SIGKILL at random moments while moves
(and undos of every third move just made) keep arriving: every acknowledged move is applied exactly once (in
the log, or among the moves taken back), every acknowledged undo once, each snapshot equals its replay, and every
open game ends up with a board of its newest version (posted by the restarted bot when the crash came in between)."""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from tests.bot import wire_games as wire
from tests.bot.bot_process import spawn
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

pytestmark = pytest.mark.slow

GAMES = 3
KILLS = 10
LEASE_SECONDS = 2
SEED = 20261126
UNDO_EVERY = 3
"""Every third acknowledged move of a game (the second, the fifth...) is taken back at once by its player."""


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()


async def started(server: FakeDiscord, db: str, log: Path, *, lease_seconds: int = LEASE_SECONDS):  # type: ignore[no-untyped-def]
    beat = log.with_suffix(".heartbeat")
    beat.unlink(missing_ok=True)  # a killed bot leaves its last one
    process = spawn(
        server.api,
        server.gateway_url,
        {
            "DISCORD_TOKEN": GOOD_TOKEN,
            "AZUL_DB": db,
            "AZUL_REMIND_HOURS": "0",
            "AZUL_LEASE_SECONDS": str(lease_seconds),  # short leases: the sweep runs every LEASE_SECONDS, racing moves
            "AZUL_LOG_LEVEL": "WARNING",
            "AZUL_HEARTBEAT_FILE": str(beat),  # with PostgreSQL, not in the checkout
        },
        log=log,
    )
    for _ in range(1800):  # a loaded machine may take long to start a process
        if beat.exists():  # its first heartbeat: READY handled, the bot takes interactions
            return process
        if process.poll() is not None:
            raise AssertionError(f"the bot exited with {process.returncode}: {log.read_text()[-2000:]}")
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not connect")


async def reply(server: FakeDiscord, interaction: str, killed: asyncio.Event) -> str | None:
    """The bot's answer, or None once the process it went to was killed and another started (the dead one never
    answers), or after 10 s."""
    found = server.answers[interaction]
    waits = [asyncio.create_task(found.done.wait()), asyncio.create_task(killed.wait())]
    await asyncio.wait(waits, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    for wait in waits:
        wait.cancel()
    return found.texts[-1] if found.done.is_set() else None


async def drive(
    server: FakeDiscord,
    db: str,
    channel: int,
    *,
    acknowledged: set[str],
    undos: set[str],
    stop: asyncio.Event,
    kills: list[asyncio.Event],
) -> None:
    """Play the game in ``channel`` one move at a time, noting each move the bot answered with "Played", and take
    every third one back at once, noting each undo it answered with "↩ Taken back"."""
    played = 0
    while not stop.is_set():
        game = wire.game_in(db, channel)
        moves = wire.moves_now(game)
        if not moves:
            return
        user, move = moves[0]
        killed = kills[-1]  # set when the process this move goes to is killed
        interaction = await wire.send_move(server, game, user, move)
        said = await reply(server, interaction, killed)
        if wire.played(said):
            acknowledged.add(interaction)
            played += 1
            if played % UNDO_EVERY == 2:
                undo = await wire.send_undo(server, game, user)
                if wire.took_back(await reply(server, undo, killed)):
                    undos.add(undo)


async def test_every_acknowledged_move_survives_kill_9(server: FakeDiscord, db_path: str, tmp_path: Path) -> None:
    db = db_path
    log = tmp_path / "bot.log"
    await wire.prepare_games(db, GAMES)
    rng = random.Random(SEED)
    acknowledged: set[str] = set()
    undos: set[str] = set()
    stop = asyncio.Event()
    kills = [asyncio.Event()]
    process = await started(server, db, log)
    drivers = [
        asyncio.create_task(
            drive(
                server,
                db,
                wire.FIRST_CHANNEL + index,
                acknowledged=acknowledged,
                undos=undos,
                stop=stop,
                kills=kills,
            )
        )
        for index in range(GAMES)
    ]
    try:
        for _ in range(KILLS):
            # Each process answers something first (a busy machine starts it slowly), then dies at a random moment.
            answered = len(acknowledged | undos)
            for _ in range(600):
                if len(acknowledged | undos) > answered:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(rng.uniform(0.2, 1.5))
            process.send_signal(signal.SIGKILL)
            await asyncio.to_thread(process.wait)
            process = await started(server, db, log)
            kills.append(asyncio.Event())
            kills[-2].set()  # what went to the dead process is sent again, to the new one
        await asyncio.sleep(1.0)
        stop.set()
        await asyncio.gather(*drivers)
        # The last start-up (or the moves since) leaves every game with its newest board.
        for _ in range(600):
            games = wire.read_games(db)
            if all(game.board_version == game.version for game in games if game.status == "active"):
                break
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 20)

    assert len(acknowledged | undos) >= KILLS // 2, "moves and undos kept arriving between the kills"
    logged: dict[int, int] = {}
    for game in wire.read_games(db):
        moves = wire.moves_of(db, game.id)
        undone = wire.undone_of(db, game.id)
        applied = [interaction for _, _, interaction in moves] + [i for pair in undone for i in pair]
        for interaction in applied:
            if interaction is not None:
                logged[interaction] = logged.get(interaction, 0) + 1
        replayed = engine.replay(game.variant, len(game.users), game.seed, [(s, n) for s, n, _ in moves], game.options)
        assert replayed == game.state, f"game {game.id}: the snapshot equals the replay of its log"
        if game.status == "active":
            assert game.board_version == game.version, f"game {game.id} has a board of its newest version"
            board = server.messages[str(game.board_message_id)]
            buttons = [c["custom_id"] for row in board["components"] for c in row["components"]]
            assert buttons == [f"azul:play:{game.id}:{game.version}", f"azul:table:{game.id}"], buttons
    assert undos, "some moves were taken back"
    for channel, posts in server.posted.items():  # the boards Discord created (a repeated nonce creates none)
        boards = [post.json.get("nonce") for post in posts if post.files]
        assert all(boards) and len(boards) == len(set(boards)), f"channel {channel}: one board per version"
    for interaction in acknowledged | undos:
        assert logged.get(int(interaction)) == 1, f"acknowledged interaction {interaction} is logged once"
    assert all(count == 1 for count in logged.values())
