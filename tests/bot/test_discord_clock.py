"""The fakes keep Discord's clock for interactions: the first answer within 3 s (else ``10062 Unknown interaction``),
one first answer only (``40060``), and the token's follow-ups and edits within 15 minutes (``50027 Invalid Webhook
Token``). Every bot test on them answers in time, or fails."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from bot.infra.clock import ManualClock
from tests.bot.fake_discord import APP_ID, FIRST_ANSWER_SECONDS, TOKEN_SECONDS, FakeDiscord
from tests.bot.table import Table


async def call(session: aiohttp.ClientSession, method: str, url: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with session.request(method, url, json=body) as response:
        return response.status, await response.json()


async def test_the_fake_discord_refuses_late_and_second_answers(discord_server: FakeDiscord) -> None:
    started = time.perf_counter()
    offset = [0.0]
    discord_server.now = lambda: time.perf_counter() + offset[0]
    late, timely = [
        await discord_server.interaction(2, {"name": "azul"}, guild_id=1, channel_id=2, user_id=3, locale="en-US")
        for _ in range(2)
    ]
    api = discord_server.api
    async with aiohttp.ClientSession() as session:
        answered = await call(session, "POST", f"{api}/interactions/{timely}/tok{timely}/callback", {"type": 5})
        assert answered[0] == 200
        offset[0] = FIRST_ANSWER_SECONDS + 0.1 - (time.perf_counter() - started)
        assert await call(session, "POST", f"{api}/interactions/{late}/tok{late}/callback", {"type": 5}) == (
            404,
            {"message": "Unknown interaction", "code": 10062},
        )
        again = await call(session, "POST", f"{api}/interactions/{timely}/tok{timely}/callback", {"type": 5})
        assert again == (400, {"message": "Interaction has already been acknowledged.", "code": 40060})
        edit = f"{api}/webhooks/{APP_ID}/tok{timely}/messages/@original"
        assert (await call(session, "PATCH", edit, {"content": "in time"}))[0] == 200
        offset[0] += TOKEN_SECONDS
        assert await call(session, "PATCH", edit, {"content": "too late"}) == (
            401,
            {"message": "Invalid Webhook Token", "code": 50027},
        )
    assert discord_server.late == [late]


async def test_simcord_refuses_a_first_answer_after_3_s(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    service = table.bot.service
    shown: Callable[..., Any] = service.tables.shown_in

    async def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(FIRST_ANSWER_SECONDS + 0.2)  # the handler holds the loop past Discord's window before deferring
        return await shown(*args, **kwargs)

    monkeypatch.setattr(service.tables, "shown_in", slow)
    await table.players[0].slash(table.channel, "azul board")
    refused = [error for error in simcord_env.errors if "10062" in str(error)]
    assert refused, "the late deferral was refused with Unknown interaction"


async def test_simcord_refuses_an_edit_15_minutes_on(
    simcord_env, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    pictures = table.bot.pictures
    draw: Callable[..., Any] = pictures.draw_table  # what `/azul board` shows: the whole table

    async def later(*args: Any, **kwargs: Any) -> Any:
        clock.advance(seconds=TOKEN_SECONDS + 1)  # the picture takes longer than the token lives
        return await draw(*args, **kwargs)

    monkeypatch.setattr(pictures, "draw_table", later)
    await table.players[0].slash(table.channel, "azul board")
    refused = [error for error in simcord_env.errors if "50027" in str(error)]
    assert refused, "the reply's edit was refused with Invalid Webhook Token"
