"""The fakes refuse what Discord refuses: a command tree over any documented limit (SimCord and the wire-level fake,
through the real bot's sync), and messages and autocomplete answers over theirs. The bot syncs only a changed tree,
and a refused sync stops it with Discord's error instead of leaving it without commands."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.__main__ import EXIT_SYNC, Config, run
from bot.client import AzulBot
from bot.ui.commands import CommandSyncRefused
from tests.bot.discord_limits import (
    COMMAND_SIZE_LIMIT,
    autocomplete_errors,
    bot_payload,
    command_errors,
    command_size,
    flat,
    message_errors,
)
from tests.bot.fake_discord import APP_ID, GOOD_TOKEN, FakeDiscord


def options_of(command: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return next(option for option in command["options"] if option["name"] == name)["options"]  # type: ignore[no-any-return]


def over_limit(tree: list[dict[str, Any]], limit: str) -> list[dict[str, Any]]:
    """The bot's real payload, broken in one way that Discord refuses."""
    tree = copy.deepcopy(tree)
    azul = next(command for command in tree if command["name"] == "azul")
    new = options_of(azul, "new")
    if limit == "uppercase name":
        azul["options"][0]["name"] = "New"
    elif limit == "name pattern":
        azul["options"][0]["name"] = "new game"
    elif limit == "localized name":
        azul["options"][0]["name_localizations"]["pl"] = "Nowa"
    elif limit == "long description":
        azul["options"][0]["description"] = "x" * 101
    elif limit == "empty description":
        azul["options"][0]["description_localizations"]["uk"] = ""
    elif limit == "26 subcommands":
        azul["options"] += [dict(azul["options"][0], name=f"extra{n}") for n in range(26 - len(azul["options"]))]
    elif limit == "26 options":
        new += [{"type": 3, "name": f"opt{n}", "description": "d"} for n in range(26 - len(new))]
    elif limit == "26 choices":
        new[0]["choices"] += [{"name": f"c{n}", "value": f"c{n}"} for n in range(26 - len(new[0]["choices"]))]
    elif limit == "required after optional":
        new.append({"type": 3, "name": "late", "description": "d", "required": True})
    elif limit == "repeated name":
        azul["options"].append(dict(azul["options"][0]))
    elif limit == "combined size":
        long = "x" * 100
        while command_size(azul) <= COMMAND_SIZE_LIMIT:
            new.append({"type": 3, "name": f"o{len(new)}", "description": long, "required": False})
            new[:] = new[:25]
            new[-1]["choices"] = [{"name": long, "value": long[: 100 - n]} for n in range(25)]
    return tree


LIMITS = [
    "uppercase name",
    "name pattern",
    "localized name",
    "long description",
    "empty description",
    "26 subcommands",
    "26 options",
    "26 choices",
    "required after optional",
    "repeated name",
    "combined size",
]


@pytest.fixture(scope="module")
def tree() -> list[dict[str, Any]]:
    return asyncio.run(bot_payload())


@pytest.mark.parametrize("limit", LIMITS)
def test_each_broken_limit_is_found(tree: list[dict[str, Any]], limit: str) -> None:
    assert command_errors(tree) == {}
    errors = command_errors(over_limit(tree, limit))
    assert errors, limit
    lines = list(flat(errors))
    assert lines and all(line.startswith(("0.", "0:")) for line in lines), lines  # the /azul command (index 0)


def test_combined_size_counts_the_longest_localization_of_each_field() -> None:
    command = {
        "name": "abc",
        "name_localizations": {"pl": "abcdef"},
        "description": "1234",
        "description_localizations": {"uk": "12"},
        "options": [
            {
                "type": 3,
                "name": "o",
                "description": "dd",
                "choices": [
                    {"name": "n", "name_localizations": {"pl": "nnn"}, "value": "vv"},
                    {"name": "i", "value": 3},
                ],
            }
        ],
    }
    assert command_size(command) == 6 + 4 + 1 + 2 + 3 + 2 + 1  # an integer value does not count


def test_message_and_autocomplete_limits() -> None:
    button = {"type": 2, "style": 2, "label": "Play", "custom_id": "azul:play:1:2"}
    assert message_errors({"content": "x" * 2000, "components": [{"type": 1, "components": [button]}]}) == {}
    assert message_errors({"content": "x" * 2001})
    assert message_errors({"components": [{"type": 1, "components": [button]}] * 6})
    assert message_errors({"components": [{"type": 1, "components": [dict(button, custom_id="x" * 101)]}]})
    assert message_errors({"components": [{"type": 1, "components": [dict(button, label="x" * 81)]}]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(n), "value": str(n)} for n in range(26)]}
    assert message_errors({"components": [{"type": 1, "components": [select]}]})
    assert autocomplete_errors([{"name": str(n), "value": str(n)} for n in range(25)]) == {}
    assert autocomplete_errors([{"name": str(n), "value": str(n)} for n in range(26)])
    assert autocomplete_errors([{"name": "x" * 101, "value": "x"}])


# --- SimCord ------------------------------------------------------------------------------------------------------
async def test_simcord_refuses_an_over_limit_tree_as_discord_does(simcord_env) -> None:
    bot: AzulBot = simcord_env.bot
    group = bot.tree.get_command("azul")
    assert isinstance(group, app_commands.Group)
    group.add_command(too_big())  # discord.py checks names and counts itself, but not the combined size
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "Command exceeds maximum size (4000)" in str(refused.value)


async def extra(interaction: discord.Interaction) -> None:
    """A command callback for trees made bigger."""


def too_big() -> app_commands.Command[Any, ..., None]:
    """A command over 4,000 combined characters on its own: 25 choices of 100 characters with values of 100."""

    async def pick_one(interaction: discord.Interaction, pick: app_commands.Choice[str]) -> None:
        """Never called."""

    long = [app_commands.Choice(name=f"{n:02}" + "x" * 98, value=f"{n:02}" + "y" * 98) for n in range(25)]
    app_commands.choices(pick=long)(pick_one)
    return app_commands.Command(name="too-big", description="long choices", callback=pick_one)


# --- the wire-level fake ------------------------------------------------------------------------------------------
async def put_commands(server: FakeDiscord, commands: list[dict[str, Any]]) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {GOOD_TOKEN}"}
    async with (
        aiohttp.ClientSession() as session,
        session.put(f"{server.api}/applications/{APP_ID}/commands", json=commands, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


@pytest.mark.parametrize("limit", ["localized name", "26 choices", "combined size"])
async def test_the_wire_fake_refuses_an_over_limit_tree(
    discord_server: FakeDiscord, tree: list[dict[str, Any]], limit: str
) -> None:
    assert (await put_commands(discord_server, tree))[0] == 200
    status, body = await put_commands(discord_server, over_limit(tree, limit))
    assert status == 400 and body["code"] == 50035 and body["errors"]["0"], body


async def start_and_stop(bot: AzulBot, server: FakeDiscord) -> None:
    """Log in (which runs the start-up, syncing what changed), connect, and close."""
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
    finally:
        await bot.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


def syncs(server: FakeDiscord) -> int:
    return sum(1 for r in server.requests if r.method == "PUT" and r.path.endswith(f"/{APP_ID}/commands"))


@pytest.mark.slow  # two bots started over the wire
async def test_an_unchanged_tree_is_synced_once(
    discord_server: FakeDiscord, make_bot: Callable[..., AzulBot], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.client")
    await start_and_stop(make_bot(), discord_server)
    assert syncs(discord_server) == 1
    await start_and_stop(make_bot(), discord_server)
    assert syncs(discord_server) == 1, "a restart with the same tree makes no sync request"
    assert "unchanged since their last sync" in caplog.text
    changed = make_bot()
    changed.tree.add_command(app_commands.Command(name="azul-extra", description="d", callback=extra))
    await start_and_stop(changed, discord_server)
    assert syncs(discord_server) == 2, "a changed tree is synced"
    last = [r for r in discord_server.requests if r.method == "PUT" and r.path.endswith("/commands")][-1]
    assert "azul-extra" in {command["name"] for command in last.json}


async def test_a_refused_tree_stops_the_bot_with_discords_error(
    discord_server: FakeDiscord, make_bot: Callable[..., AzulBot], caplog: pytest.LogCaptureFixture
) -> None:
    bot = make_bot()
    bot.tree.add_command(too_big())
    with pytest.raises(CommandSyncRefused, match="50035"):
        async with bot:
            await asyncio.wait_for(bot.start(GOOD_TOKEN), 15)
    assert "Command exceeds maximum size (4000)" in caplog.text, "the log holds Discord's exact error"


async def test_python_m_bot_sync_syncs_and_stops(
    discord_server: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Config(GOOD_TOKEN, str(tmp_path / "azul.sqlite3"), None, "INFO")
    assert await asyncio.wait_for(run(config, sync_only=True), 30) == 0
    assert await asyncio.wait_for(run(config, sync_only=True), 30) == 0
    assert syncs(discord_server) == 2, "`sync` syncs even an unchanged tree"
    assert "synced the application commands" in capsys.readouterr().out
    assert not discord_server.identifies, "no gateway connection for a sync"


async def test_a_refused_sync_exits_with_a_clear_line(
    discord_server: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    too_big = {"0": {"_errors": [{"code": "APPLICATION_COMMAND_TOO_LARGE", "message": "too big"}]}}
    monkeypatch.setattr("tests.bot.fake_discord.limit_errors", lambda record: too_big if record.method == "PUT" else {})
    config = Config(GOOD_TOKEN, str(tmp_path / "azul.sqlite3"), None, "INFO")
    assert await asyncio.wait_for(run(config), 30) == EXIT_SYNC
    line = capsys.readouterr().err.strip()
    assert "Discord refused the command tree" in line and "50035" in line and "too big" in line, line
