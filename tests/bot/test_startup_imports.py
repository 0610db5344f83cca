"""Start-up imports only what the first answer needs: the drivers, libraries and drawing of other paths load when
used, and the check that every game can be drawn runs beside the start-up, stopping the bot when one cannot."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from discord.http import Route

import render
from bot import __main__ as entry
from bot.__main__ import EXIT_UNDRAWABLE, run
from bot.client import AzulBot
from bot.infra.config import Config
from tests.bot import fourth_game
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord
from tests.bot.test_wire import a_closed_port

# Imported on first use: asyncpg only for a PostgreSQL URL, openskill only when a game's result is rated, Pillow and
# the drawing modules with the first picture (in a worker, or in the bot's process), dotenv only with a .env file,
# the computer players (the search) in the worker processes that play or hint, multiprocessing with a pool's first
# process, prometheus_client (and the HTTP server behind its endpoint) with the first figure counted or served,
# zoneinfo with the first quiet hours or time zone typed, argparse with a command line, zipfile (importlib.resources)
# never: the store reads its migrations beside its module.
LAZY = (
    "asyncpg",
    "openskill",
    "PIL",
    "dotenv",
    "engine.agents",
    "multiprocessing",
    "prometheus_client",
    "wsgiref",
    "zoneinfo",
    "argparse",
    "zipfile",
)
PIL_FREE = {"render", "render.inputs", "render.replay"}
"""The renderer's modules the bot imports at start-up: the values it hands the renderer, and a replay's tables."""
HANG_GUARD = 60
CHECK_SECONDS = 10


def test_the_bot_starts_without_the_postgresql_driver_the_rating_model_or_the_drawing() -> None:
    probe = (
        f"import sys, bot.__main__, bot.client; print(*[name for name in {LAZY!r} if name in sys.modules], "
        f"*sorted(name for name in sys.modules if name.split('.')[0] == 'render' and name not in {PIL_FREE!r}))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout.split()
    assert loaded == []


def test_the_rating_model_still_loads_when_a_result_is_rated() -> None:
    from bot.app import ratings

    assert ratings.initial() == (25.0, 25.0 / 3)
    assert ratings.model() is ratings.model()  # built once


def test_the_bots_copy_of_the_computer_players_figures_is_the_engines() -> None:
    from bot.app import computer
    from engine import agents

    assert (computer.LEVELS, computer.WALL_CAP) == (agents.LEVELS, agents.WALL_CAP)


def config(folder: Path) -> Config:
    return Config(GOOD_TOKEN, str(folder / "azul.sqlite3"), None, "INFO", heartbeat_path=str(folder / "beat"))


async def test_the_first_answer_does_not_wait_for_the_drawing_check(
    discord_server: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, checked = threading.Event(), threading.Event()

    def slow_check() -> None:  # the check loads Pillow and every renderer: here it lasts until the answer came
        release.wait(CHECK_SECONDS)
        checked.set()

    monkeypatch.setattr(render, "check_renderers", slow_check)
    running = asyncio.create_task(run(config(tmp_path)))
    try:
        await asyncio.wait_for(discord_server.identified.wait(), HANG_GUARD)
        help_ = {"id": "1", "name": "azul-help", "type": 1}
        interaction = await discord_server.interaction(2, help_, guild_id=1, channel_id=2, user_id=3, locale="en")
        await discord_server.wait_for("POST", f"/interactions/{interaction}/", timeout=HANG_GUARD)
        assert not checked.is_set(), "the answer waited for the check"
        release.set()
        assert await asyncio.to_thread(checked.wait, HANG_GUARD), "the check ran once the bot was connected"
    finally:
        release.set()
        os.kill(os.getpid(), signal.SIGTERM)  # as `docker stop` does; run() closes the bot on it
        assert await asyncio.wait_for(running, HANG_GUARD) == 0


async def test_a_game_that_cannot_be_drawn_stops_the_bot_once_connected(
    discord_server: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fourth_game.register()
    render.register(dataclasses.replace(fourth_game.RENDERER, draw_preview=None))  # its moves declare a preview
    try:
        assert await asyncio.wait_for(run(config(tmp_path)), HANG_GUARD) == EXIT_UNDRAWABLE
    finally:
        fourth_game.unregister()
    assert discord_server.identified.is_set()  # it stopped after connecting, as the check ran beside the start-up
    said = capsys.readouterr().err.strip().splitlines()[-1]  # the last line (a test before may have left a logger)
    assert said.startswith("azul-bot: a registered game cannot be drawn, so the bot stops: 'pebbles' declares")


def test_the_collector_rests_while_the_bot_is_built_and_the_start_ups_objects_stay_out_of_its_way(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # away from any developer's .env
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{a_closed_port()}/api/v10")  # the start fails: code 4
    monkeypatch.setenv("DISCORD_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("AZUL_DB", str(tmp_path / "azul.sqlite3"))
    collecting: list[bool] = []
    build = entry.configured_bot

    def configured_bot(config: Config, *, sync_only: bool) -> AzulBot:
        collecting.append(gc.isenabled())
        return build(config, sync_only=sync_only)

    monkeypatch.setattr(entry, "configured_bot", configured_bot)
    thresholds = gc.get_threshold()
    try:
        assert entry.main() == entry.EXIT_NETWORK
        frozen, youngest = gc.get_freeze_count(), gc.get_threshold()[0]
    finally:
        gc.unfreeze()  # this test process's objects are not a bot's
        gc.set_threshold(*thresholds)
    assert collecting == [False] and gc.isenabled() and frozen > 0
    assert youngest == entry.YOUNGEST_COLLECTED_AFTER
