"""A move's answer over the wire: told in one response when the board is out quickly, deferred in time when not
(:mod:`bot.ui.answering`). The fake Discord refuses a first answer after 3 s and a second first answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from types import SimpleNamespace

import discord
import pytest

from bot.app.errors import Refusal
from bot.client import AzulBot, create_bot
from bot.ui.answering import DEFER_AFTER, answering
from tests.bot import wire_games as wire
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord, Request


@pytest.fixture
async def bot(discord_server: FakeDiscord, db_path: str) -> AsyncIterator[AzulBot]:
    await wire.prepare_games(db_path, 1)
    azul = create_bot(db_path, remind_after=timedelta(hours=24))
    runner = asyncio.create_task(azul.start(GOOD_TOKEN))
    try:
        await asyncio.wait_for(discord_server.identified.wait(), 15)
        await azul.wait_until_ready()
        await discord_server.wait_for("POST", f"/channels/{wire.FIRST_CHANNEL}/messages")  # the opening board
        yield azul
    finally:
        await azul.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def a_move(server: FakeDiscord, db: str) -> tuple[str, list[Request]]:
    """A legal slash move sent and answered: its id, and the requests the bot made for it."""
    before = len(server.requests)
    game = wire.game_in(db, wire.FIRST_CHANNEL)
    ((user, move),) = wire.moves_now(game)
    interaction = await wire.send_move(server, game, user, move)
    assert wire.played(await wire.answer(server, interaction, 10)), server.answers[interaction].texts
    await asyncio.sleep(0.05)  # the reply is the move's last request
    return interaction, server.requests[before:]


def answers_of(interaction: str, requests: list[Request]) -> list[Request]:
    return [r for r in requests if f"/interactions/{interaction}/" in r.path or f"/tok{interaction}/" in r.path]


def board_posts(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "POST" and r.path == f"/channels/{wire.FIRST_CHANNEL}/messages"]


@pytest.mark.usefixtures("bot")
async def test_a_quick_move_is_answered_once_after_its_board(discord_server: FakeDiscord, db_path: str) -> None:
    interaction, requests = await a_move(discord_server, db_path)
    (answer,) = answers_of(interaction, requests)  # no deferral, no edit: one request
    assert answer.json["type"] == 4 and answer.json["data"]["flags"] & 64, answer.json  # the reply, ephemeral
    assert answer.json["data"]["content"].startswith("Played")
    (board,) = board_posts(requests)
    assert board.at < answer.at, "the reply follows the board it is about"


@pytest.mark.usefixtures("bot")
async def test_a_slow_board_gets_the_move_deferred_in_time(discord_server: FakeDiscord, db_path: str) -> None:
    discord_server.fail_posts = 2  # the board goes out on the third attempt, 1.5 s on
    interaction, requests = await a_move(discord_server, db_path)
    deferral, edit = answers_of(interaction, requests)
    assert deferral.json["type"] == 5 and deferral.json["data"]["flags"] & 64  # thinking, ephemeral
    sent = discord_server.answers[interaction].sent
    assert DEFER_AFTER - 0.1 < deferral.at - sent < 3, "deferred once the move ran long, within Discord's 3 s"
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    assert edit.json["content"].startswith("Played")
    assert len(board_posts(requests)) == 3 and not discord_server.late


async def test_an_error_after_a_failed_deferral_is_the_one_answered() -> None:
    """A move refused after its deferral failed (Discord gone, say): the refusal is what the error path answers."""

    class Response:
        def is_done(self) -> bool:
            return False

        async def defer(self, **_: object) -> None:
            raise RuntimeError("the deferral failed")

    interaction = SimpleNamespace(id=1, created_at=discord.utils.utcnow() - timedelta(seconds=5), response=Response())
    with pytest.raises(Refusal):
        async with answering(interaction, update=False):  # type: ignore[arg-type]
            await asyncio.sleep(0.01)  # the deferral is due at once: it runs, and fails
            raise Refusal("not_your_turn")
