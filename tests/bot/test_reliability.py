"""Issue 27 through the real bot over the wire (real HTTP and websocket against the fake Discord on localhost): the
background loops survive a store that fails under them, and the heartbeat tells when they fall behind."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.app.computer import Computer
from bot.app.service import GameService
from bot.client import AzulBot, create_bot
from bot.infra import health
from bot.infra.clock import iso
from bot.infra.db import SqliteFile
from bot.infra.store import Store
from engine.agents import GreedyAgent
from tests.bot import wire_games as wire
from tests.bot.bot_process import ROOT, spawn
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

SETTLE = 30.0  # seconds: a guard against a hang, never a measure


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


async def until(check: Callable[[], Any], what: str, within: float = SETTLE) -> Any:
    deadline = time.monotonic() + within
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


@pytest.mark.slow  # waits out the loops' periods and failures
async def test_every_loop_survives_a_store_outage_and_health_says_so(
    discord_server: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    beat = tmp_path / "heartbeat"
    monkeypatch.setattr(health, "LOOP_MARGIN_SECONDS", 1.5)
    async with running(discord_server, db, lease=timedelta(seconds=1), remind_after=timedelta(hours=1)) as bot:
        assert {loop.name for loop in bot.loops} == {"timers", "boards", "store file"}
        loops = {loop.name: loop for loop in bot.loops if loop.name != "store file"}  # it reads no rows
        await until(lambda: all(loop.passes >= 1 for loop in loops.values()), "a first pass of every loop")
        assert wire.read_games(db)[0].board_version == 0, "the first pass posted the missing board"
        outage = StoreOutage(bot.service.store._engine, monkeypatch)  # type: ignore[arg-type]
        caplog.clear()
        outage.down = True
        passes = {name: loop.passes for name, loop in loops.items()}
        await until(lambda: all(loop.failures >= 3 for loop in loops.values()), "every loop to fail three times")
        assert all(loop.is_running() for loop in loops.values()), "no loop is gone"
        assert {name: loop.passes for name, loop in loops.items()} == passes
        await asyncio.sleep(2.0)  # beyond each loop's period plus the margin (health judges by the wall clock)
        health.write_heartbeat(beat, bot, time.time())
        healthy, said = health.check(beat, time.time())
        assert not healthy and "boards" in said and "timers" in said and "store file" not in said, said
        failed = [r for r in caplog.records if r.name == "bot.infra.loops" and r.levelname == "ERROR"]
        assert len(failed) == 2, "one error per loop for the whole outage, not one per pass"

        outage.down = False
        await until(lambda: all(loop.passes > passes[name] for name, loop in loops.items()), "every loop to recover")
        assert all(loop.failures == 0 for loop in loops.values())
        health.write_heartbeat(beat, bot, time.time())
        healthy, said = health.check(beat, time.time())
        assert healthy, said
        recorded = json.loads(beat.read_text())["loops"]
        assert set(recorded) == {"timers", "boards", "store file"}
        assert all(loop["last_pass"] for loop in recorded.values())


def boards_of(db: str) -> dict[int, int]:
    """Each game's newest version with a board posted (read without parsing the games' state)."""
    with sqlite3.connect(db) as read:
        return dict(read.execute("SELECT id, board_version FROM games ORDER BY id").fetchall())


async def answer(server: FakeDiscord, interaction: str) -> str:
    found = server.answers[interaction]
    await asyncio.wait_for(found.done.wait(), SETTLE)
    return found.texts[-1]


async def test_a_damaged_game_is_quarantined_and_harms_only_itself(discord_server: FakeDiscord, tmp_path: Path) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 3)
    with sqlite3.connect(db) as damage:  # game 1: its JSON is cut off; game 2: a variant no longer known
        damage.execute("UPDATE games SET state = substr(state, 1, length(state) - 8) WHERE id = 1")
        damage.execute("UPDATE games SET variant = 'azul-retired' WHERE id = 2")
    broken_channel, creator, stranger = wire.FIRST_CHANNEL, wire.FIRST_USER, wire.FIRST_USER + 1

    def slash(sub: str, user: int, channel: int = broken_channel) -> Any:
        return discord_server.slash(
            guild_id=wire.GUILD, channel_id=channel, user_id=user, command="azul", sub=sub, locale="en-US"
        )

    async with running(discord_server, db, lease=timedelta(seconds=1)) as bot:  # it starts, whatever the rows
        await until(lambda: bot.boards_loop.passes >= 1, "the first sweep")
        assert boards_of(db) == {1: -1, 2: -1, 3: 0}, "a board for the sound game only"
        broken = {game.id: game.broken for game in await bot.service.store.games.broken_games()}
        assert set(broken) == {1, 2} and "JSON" in (broken[1] or "") and "azul-retired" in (broken[2] or "")

        said = await answer(discord_server, await slash("board", creator))
        assert "is damaged" in said and "#1" in said, said
        said = await answer(discord_server, await slash("export", stranger))
        assert said.startswith("Only the player who opened the game"), said
        exported = await slash("export", creator)
        assert "raw record of damaged game #1" in await answer(discord_server, exported)
        upload = await discord_server.wait_for("PATCH", f"/webhooks/{4242}/tok{exported}/messages/@original")
        (raw,) = upload.files.values()
        record = json.loads(raw)
        assert record["game"] == 1 and record["row"]["state"].startswith("{") and record["broken"]
        said = await answer(discord_server, await slash("status", creator, wire.FIRST_CHANNEL + 2))
        assert "damaged" not in said, "the other games play on"

        asked = await slash("abort", creator)
        said = await answer(discord_server, asked)
        assert "#1" in said and "damaged" not in said, said
        question = discord_server.answers[asked].message_id or ""
        button = discord_server.messages[question]["components"][0]["components"][0]
        confirmed = await discord_server.click(
            guild_id=wire.GUILD, user_id=creator, message_id=question, custom_id=button["custom_id"]
        )
        await answer(discord_server, confirmed)
        with sqlite3.connect(db) as read:
            assert read.execute("SELECT status FROM games WHERE id = 1").fetchone() == ("aborted",)

    checked = subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        check=False,
        cwd=ROOT,
        env={**os.environ, "AZUL_DB": db},
        capture_output=True,
        text=True,
        timeout=SETTLE,
    )
    assert checked.returncode == 1, checked.stderr
    out = checked.stdout
    assert "game 2 (channel 6001, azul-retired, active)" in out and "game 1 " not in out, "game 1 was aborted"


def board_posts(server: FakeDiscord, channel: int) -> list[Any]:
    """Every request that asked Discord to create a board in ``channel`` (a picture attached)."""
    path = f"/channels/{channel}/messages"
    return [r for r in server.requests if r.method == "POST" and r.path == path and r.files]


async def play_moves(server: FakeDiscord, db: str, count: int) -> None:
    """``count`` moves in the first game, each answered "Played" before the next."""
    for _ in range(count):
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        user, move = wire.moves_now(game)[0]
        said = await wire.answer(server, await wire.send_move(server, game, user, move), SETTLE)
        assert wire.played(said), said


@pytest.mark.slow  # waits out several sweeps of pictures that take seconds
async def test_a_board_in_flight_is_never_posted_again_by_the_sweep(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    """A sweep every second, and pictures that take longer than that to draw: the sweep sees each version without a
    board while the move's own post is under way, and must leave it."""
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    async with running(discord_server, db, lease=timedelta(seconds=1)) as bot:
        await until(lambda: boards_of(db)[1] == 0, "the opening board")
        drawn = bot.pictures.draw

        async def slowly(*args: Any, **kwargs: Any) -> bytes | None:
            await asyncio.sleep(2.5)
            return await drawn(*args, **kwargs)

        bot.pictures.draw = slowly  # type: ignore[method-assign]
        await play_moves(discord_server, db, 3)
        passes = bot.boards_loop.passes
        await until(lambda: bot.boards_loop.passes >= passes + 2, "two more sweeps")
    assert boards_of(db)[1] == 3
    assert len(board_posts(discord_server, wire.FIRST_CHANNEL)) == 4, "one board per version, asked for once"


@pytest.mark.slow  # waits out Discord's retries
async def test_a_board_whose_create_failed_after_it_was_made_goes_out_once(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    """Discord made the message, then answered 500: the retry carries the same nonce, and Discord drops it."""
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    async with running(discord_server, db, lease=timedelta(seconds=1)) as bot:
        await until(lambda: boards_of(db)[1] == 0, "the opening board")
        discord_server.fail_after_create = 2
        await play_moves(discord_server, db, 2)
        passes = bot.boards_loop.passes
        await until(lambda: bot.boards_loop.passes >= passes + 2, "two more sweeps")
    asked = board_posts(discord_server, wire.FIRST_CHANNEL)
    assert len(asked) >= 5, "each failed create was sent again"
    assert len(discord_server.posted[str(wire.FIRST_CHANNEL)]) == 3, "one board per version"
    assert boards_of(db)[1] == 2
    nonces = [r.json["nonce"] for r in asked]
    assert all(r.json["enforce_nonce"] for r in asked) and len(set(nonces)) == 3, nonces


async def test_an_interaction_delivered_twice_is_answered_once(discord_server: FakeDiscord, tmp_path: Path) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    async with running(discord_server, db) as bot:
        await until(lambda: boards_of(db)[1] == 0, "the opening board")
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        user, move = wire.moves_now(game)[0]
        first = await wire.send_move(discord_server, game, user, move)
        assert wire.played(await wire.answer(discord_server, first, SETTLE))
        with wire.Logged("bot.ui.replies", "was delivered again") as taken_up_already:
            await wire.send_move(discord_server, game, user, move, interaction_id=first)  # Discord delivers it again
            await asyncio.wait_for(taken_up_already.wait(), SETTLE)  # the second delivery was seen, and left
        callbacks = [r for r in discord_server.requests if r.path == f"/interactions/{first}/tok{first}/callback"]
        assert len(callbacks) == 1, "answered once"
        assert len(wire.moves_of(db, game.id)) == 1 and bot.deliveries.first(int(first)) is False


async def test_a_restarted_bot_takes_back_its_own_claims_at_once(discord_server: FakeDiscord, tmp_path: Path) -> None:
    """The previous life of this process died holding a game's computer turn (a two-minute lease); another process's
    claim must still wait for its lease."""
    db = str(tmp_path / "azul.sqlite3")
    store = await Store.open(db)
    service = GameService(store, lambda: 5)
    channel, human = wire.FIRST_CHANNEL, wire.FIRST_USER
    game = await service.seating.create(
        guild_id=wire.GUILD, channel_id=channel, user_id=human, name="p", variant="azul", seats=2, order="joined"
    )
    await service.seating.add_computer(channel, human, "easy", is_admin=False)
    state = (await service.seating.start(channel, human, is_admin=False))[1]
    first = GreedyAgent(1).choose(engine.variant_of(state), state, 0)
    await service.turns.move(channel, human, first.command, dict(first.choices()))
    later = iso(datetime.now(UTC) + timedelta(minutes=2))
    await store.timers.claim(f"computer:{game.id}", "unsharded#1f00", iso(datetime.now(UTC)), later)
    await store.timers.claim("computer:99", "shards 1 of 2#2f00", iso(datetime.now(UTC)), later)
    await store.close()

    async with running(discord_server, db, computer=Computer(1, {"iterations": 8})):
        # Well inside the dead life's two-minute lease, with room for a busy machine starting the search process.
        await until(lambda: len(wire.moves_of(db, game.id)) >= 2, "the computer's move before the lease ends", 100)
        # Its board's post holds a claim of this life until it is out.
        await until(lambda: claims_of(db) == [("computer:99", "shards 1 of 2#2f00")], "only its own claims taken")


def claims_of(db: str) -> list[tuple[str, str]]:
    (owners,) = wire._query(db, [("SELECT work, owner FROM claims ORDER BY work", ())])
    return [tuple(row) for row in owners]


async def test_a_failure_at_any_step_after_the_commit_says_the_move_stands(
    discord_server: FakeDiscord, tmp_path: Path
) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    async with running(discord_server, db) as bot:
        await until(lambda: boards_of(db)[1] == 0, "the opening board")

        async def store_fails(*args: Any, **kwargs: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

        async def bug(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug after the commit")

        def reply_refused(_: pytest.MonkeyPatch) -> None:
            discord_server.fail_replies = 1

        steps: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
            "reading the move back": lambda patch: patch.setattr(bot.service.boards, "told", store_fails),
            "posting the board": lambda patch: patch.setattr(bot.poster, "post_board", bug),
            "answering the player": reply_refused,
            "the picker's next step": lambda patch: patch.setattr("bot.ui.commands.move.offer_next", bug),
        }
        for number, (step, fail) in enumerate(steps.items(), start=1):
            with pytest.MonkeyPatch.context() as patch:
                fail(patch)
                game = wire.game_in(db, wire.FIRST_CHANNEL)
                user, move = wire.moves_now(game)[0]
                sent = await wire.send_move(discord_server, game, user, move)
                texts = discord_server.answers[sent].texts
                said = await until(lambda t=texts: next((x for x in t if "stands" in x), None), f"an answer ({step})")
                await wire.handled(SETTLE)
                assert texts[-1] == said, (step, texts)  # the last word the player sees
            assert said is not None and "Your move is saved and stands" in said, (step, said)
            assert "Nothing" not in said, (step, said)
            assert len(wire.moves_of(db, game.id)) == number, step


@pytest.mark.slow  # a bot process started and stopped
@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_file_lost_while_running_stops_the_bot_with_code_5(
    discord_server: FakeDiscord, tmp_path: Path, how: str
) -> None:
    """The real bot process: its SQLite file is deleted, or replaced by another; it refuses to write into a file
    nobody will open again, says so once, and exits with the store's code."""
    db = tmp_path / "azul.sqlite3"
    await wire.prepare_games(str(db), 1)
    log = tmp_path / "bot.log"
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "AZUL_DB": str(db), "AZUL_HEARTBEAT_FILE": str(tmp_path / "beat")}
    process = spawn(discord_server.api, discord_server.gateway_url, env, log=log)
    try:
        await until(lambda: discord_server.identifies >= 1 and boards_of(str(db))[1] == 0, "the bot at work")
        if how == "deleted":
            for path in tmp_path.glob("azul.sqlite3*"):
                path.unlink()
        else:
            other = tmp_path / "other.sqlite3"
            await wire.prepare_games(str(other), 1)
            other.replace(db)
        code = await asyncio.to_thread(process.wait, SETTLE)
    finally:
        if process.poll() is None:
            process.kill()
    written = log.read_text()
    assert code == 5, written[-2000:]
    assert written.count(f"was {how}") == 1, "one log line"
    assert written.count(" ERROR ") == 1, written[-2000:]
    assert written.rstrip().endswith("was lost while running"), "and the one line of the exit"
    assert "Traceback" not in written, written[-2000:]


async def test_a_huge_option_gets_a_short_answer_quoting_a_prefix(discord_server: FakeDiscord, tmp_path: Path) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 1)
    async with running(discord_server, db):
        await until(lambda: boards_of(db)[1] == 0, "the opening board")
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        user, move = wire.moves_now(game)[0]
        options = {**dict(move.choices()), "color": "x" * 6000}
        sent = await discord_server.slash(
            guild_id=wire.GUILD,
            channel_id=wire.FIRST_CHANNEL,
            user_id=user,
            command="azul",
            sub=move.command,
            options=options,
            locale="en-US",
        )
        said = await wire.answer(discord_server, sent, SETTLE)
    assert said is not None and len(said) < 2000 and "x" * 61 not in said, said
    assert len(wire.moves_of(db, game.id)) == 0
