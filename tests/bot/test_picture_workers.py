"""Board pictures drawn in a pool of worker processes (``AZUL_PICTURE_WORKERS``), through the real bot."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.app.narration import names_by_seat
from bot.app.pictures import Pictures, move_caption, replay_captions
from bot.client import AzulBot
from bot.infra.pools import WorkerPool
from bot.ui.replays import UPLOAD_MARGIN
from render.animation import MAX_BYTES, animate_frames, frame_png, replay_states
from tests.bot.table import Table
from tests.bot.test_replays import play_out

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.simcord(settle_timeout=120)  # worker processes start slowly on a busy machine


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AzulBot]) -> AzulBot:
    return make_bot(pictures=Pictures(2))


async def board_png(table: Table) -> bytes:
    post = table.channel.last_message
    assert post.attachments and post.attachments[0].filename.endswith(".png"), post.content
    png: bytes = await post.attachments[0].read()
    assert png.startswith(PNG_SIGNATURE)
    assert Image.open(io.BytesIO(png)).width >= 400
    return png


async def play_one(table: Table) -> bytes:
    before = table.channel.last_message.id
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    assert table.channel.last_message.id != before, "the move posts a new board"
    return await board_png(table)


async def until(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Wait until ``condition`` holds (a worker's death is noticed on the executor's own thread, no event says it)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


async def test_a_move_posts_a_board_drawn_in_a_worker_process(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.infra.picture_worker

    def not_here(*args: object) -> bytes:
        raise AssertionError("a board was drawn in the bot's process")

    monkeypatch.setattr(
        bot.infra.picture_worker, "render_png", not_here
    )  # the workers import their own, unpatched copy
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    opening = await board_png(table)
    after_move = await play_one(table)
    assert after_move != opening


async def test_a_killed_picture_worker_is_replaced_and_the_next_board_posts(
    simcord_env, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    await board_png(table)
    pool = table.bot.pictures.pool
    generation, victim = pool.generation, min(pool.worker_pids())
    os.kill(victim, signal.SIGKILL)
    await until(lambda: pool.broken)  # the executor notices the death on its own thread
    with caplog.at_level(logging.WARNING, logger="bot.infra.pools"):
        await play_one(table)
    assert "a picture process died" in caplog.text
    assert pool.generation == generation + 1 and victim not in pool.worker_pids()
    await play_one(table)  # and the new pool keeps drawing


def appears(path: Path, seconds: float = 60) -> bool:
    """In a worker: wait until ``path`` exists (another worker's sign)."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def die_the_first_time(folder: Path) -> str:
    """Runs in a worker: the first call kills its process once the other work is under way."""
    if not (folder / "died").exists():
        appears(folder / "echoing")
        (folder / "died").touch()
        os._exit(9)
    return "survived"


def echo_after_a_death(folder: Path, value: str) -> str:
    """Runs in a worker: the first call is still running when the other worker dies (and is cut off with it)."""
    if not (folder / "echoing").exists():
        (folder / "echoing").touch()
        appears(folder / "never")  # until the pool's death ends this process
    return value


@pytest.mark.slow  # starts worker processes twice
async def test_work_cut_off_by_one_death_is_retried_on_one_new_pool(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pool = WorkerPool("test", 2)
    pool.start()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.infra.pools"):
            results = await asyncio.gather(
                pool.run(die_the_first_time, tmp_path), pool.run(echo_after_a_death, tmp_path, "echo")
            )
        assert results == ["survived", "echo"]
        assert caplog.text.count("a test process died") == 1, "both cut-off runs retried on the same new pool"
        assert pool.generation == 2
    finally:
        await pool.close()
    with pytest.raises(RuntimeError, match="not running"):
        await pool.run(echo_after_a_death, tmp_path, "late")


@pytest.mark.slow  # a whole game, and its animation
async def test_replays_and_ratings_are_drawn_in_the_workers_as_in_the_bots_process(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    await table.open("azul")
    await play_out(table)
    game = await table.game()
    moves = await table.bot.service.store.moves.moves(game.id)
    frames = replay_states(game.variant, 2, game.seed, moves, game.options or None)
    names = names_by_seat(game, "en")

    shown = await alice.slash(table.channel, "azul-stats replay", game=game.id)
    step = await alice.click(shown.response, label="▶")
    caption = move_caption(game.variant, frames[1].events, names, "en")
    assert caption, "a replay page says its move under the table"
    assert await step.response.attachments[0].read() == frame_png(frames[1], names=names, locale="en", caption=caption)
    animation = await alice.click(step.response, label="Animation")
    gif = await animation.response.attachments[0].read()
    captions = replay_captions(game.variant, 2, game.seed, list(moves), game.options or None, names, "en")
    assert captions[0] == "Azul" and captions[1] == caption, "every table of the animation says its move"
    limit = upload_limit_of(table)
    assert gif == animate_frames(frames, names=names, locale="en", max_bytes=limit, captions=captions)

    board = await alice.slash(table.channel, "azul-stats leaderboard", game="azul")
    assert Image.open(io.BytesIO(await board.response.attachments[0].read())).width == 800
    profile = await alice.slash(table.channel, "azul-me profile")
    assert (await profile.response.attachments[0].read()).startswith(PNG_SIGNATURE)
    workers = table.bot.pictures.pool.worker_pids()
    assert workers and os.getpid() not in workers


def upload_limit_of(table: Table) -> int:
    guild = table.bot.get_guild(table.guild.id)
    assert guild is not None
    return min(MAX_BYTES, guild.filesize_limit - UPLOAD_MARGIN)
