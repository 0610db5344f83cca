"""The bot over real HTTP and a real websocket against a fake Discord on localhost: login, command sync, a reply
that uploads the board picture, a rejected token, an unreachable Discord and the exit codes."""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from discord.http import Route

from bot.__main__ import EXIT_CONFIG, EXIT_LOGIN, EXIT_NETWORK, Config, main, run
from bot.app.service import GameService
from bot.client import create_bot
from bot.infra.store import Store
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

GUILD, CHANNEL, ALICE, BOB = 500, 600, 700, 701


async def a_started_game(db: str) -> None:
    store = await Store.open(db)
    service = GameService(store, lambda: 11)
    await service.seating.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="alice", variant="azul", seats=2
    )
    await service.seating.join(CHANNEL, BOB, "bob")
    await service.seating.start(CHANNEL, ALICE, is_admin=False)
    await store.close()


async def test_login_sync_and_a_reply_with_the_picture(discord_server: FakeDiscord, db_path: str) -> None:
    db = db_path
    await a_started_game(db)
    bot = create_bot(db, remind_after=timedelta(hours=24))  # the timer loop runs alongside
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await asyncio.wait_for(discord_server.identified.wait(), 15)
        synced = await discord_server.wait_for("PUT", "/applications/4242/commands")
        commands = {command["name"]: command for command in synced.json}
        assert set(commands) == {
            "azul",
            "azul-move",
            "azul-me",
            "azul-rules",
            "azul-help",
            "azul-server",
            "azul-stats",
            "azul-league",
        }
        group = commands["azul"]
        assert group["description_localizations"]["pl"].startswith("Gra na tym kanale")
        subcommands = {option["name"]: option for option in group["options"]}
        moves = {option["name"]: option for option in commands["azul-move"]["options"]}
        assert commands["azul-move"]["name_localizations"] == {"pl": "azul-ruch", "uk": "azul-хід"}
        assert moves["take"]["name_localizations"] == {"pl": "weź", "uk": "взяти"}
        assert subcommands["abort"]["name_localizations"] == {"pl": "przerwij", "uk": "припинити"}
        assert {"take", "wall", "place", "bonus", "pass", "acquire", "tile", "expansion"} == set(moves)
        variants = {c["value"]: c for c in subcommands["new"]["options"][0]["choices"]}
        assert variants["azul-grey"]["name_localizations"]["pl"] == "Azul — szara ściana"
        take_options = {option["name"]: option for option in moves["take"]["options"]}
        assert all(take_options[name]["autocomplete"] for name in ("source", "color", "line"))
        assert take_options["line"]["description_localizations"]["uk"].startswith("Який рівень складу")

        await bot.wait_until_ready()
        interaction = await discord_server.slash(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, command="azul", sub="board"
        )
        deferred = await discord_server.wait_for("POST", f"/interactions/{interaction}/")
        assert deferred.json["type"] == 5 and deferred.json["data"]["flags"] & 64  # thinking, ephemeral
        edited = await discord_server.wait_for("PATCH", "/messages/@original")
        (picture,) = edited.files.values()
        assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) < 1_000_000
        assert "Runda 1" in edited.json["content"] or "runda 1" in edited.json["content"]  # Polish user
        assert bot.timer_loop.is_running()
    finally:
        await bot.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def test_a_rejected_token_exits_with_code_3(discord_server: FakeDiscord, tmp_path: Path) -> None:
    config = Config("wrong-token", str(tmp_path / "x.sqlite3"), None, "INFO")
    assert await run(config) == EXIT_LOGIN


def a_closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_discord_is_one_line_and_exit_code_4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # away from any developer's .env
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{a_closed_port()}/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", GOOD_TOKEN)
    monkeypatch.setenv("AZUL_DB", str(tmp_path / "x.sqlite3"))
    assert main() == EXIT_NETWORK == 4
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("azul-bot:")]  # besides any log lines
    assert line.startswith("azul-bot: cannot reach Discord (") and "127.0.0.1" in line and "network problem" in line
    assert "Traceback" not in err


def test_a_missing_token_exits_with_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # away from any developer's .env
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main() == EXIT_CONFIG == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_no_voice_warnings_at_start_up(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # As on a fresh interpreter without PyNaCl or davey installed.
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING, logger="discord"):
        create_bot(":memory:")
    assert not [record for record in caplog.records if "voice" in record.getMessage()]
