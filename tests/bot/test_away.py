"""``/azul-me away`` and ``back``: a vacation pauses the player's reminders in all their games, others see it in
``status`` and under the board, and coming back early brings the waiting reminders forward."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

import engine
from bot.infra.clock import ManualClock
from tests.bot.conftest import USER_LOCALES
from tests.bot.table import Table, mentions


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(remind_after=timedelta(hours=24))


async def waiting_member(table: Table) -> Any:
    game, state = await table.state()
    return table.member(game, min(engine.to_act(state)))


async def test_away_pauses_reminders_and_shows_in_status_and_under_the_board(
    simcord_env, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.infra.picture_worker

    drawn: list[Any] = []
    original = bot.infra.picture_worker.render_png

    def spy(state: Any, names: Any, events: Any, locale: str, info: Any = (), caption: str = "") -> bytes:  # noqa: PLR0917
        drawn.append(list(info))
        return original(state, names, events, locale, info, caption)

    monkeypatch.setattr(bot.infra.picture_worker, "render_png", spy)
    whole = bot.infra.picture_worker.render_whole

    def whole_spy(state: Any, names: Any, locale: str, info: Any = ()) -> bytes:
        drawn.append(list(info))  # `/azul board` shows the whole table
        return whole(state, names, locale, info)

    monkeypatch.setattr(bot.infra.picture_worker, "render_whole", whole_spy)
    table = Table.create(simcord_env, 3)
    await table.open("azul")
    away = await waiting_member(table)
    board = table.channel.last_message

    answer = await away.slash(table.channel, "azul-me away", days=3)
    assert answer.ephemeral and answer.response.content.startswith("You are away until <t:")
    assert "(3 d)" in answer.response.content
    status = await table.players[2].slash(table.channel, "azul status")
    assert f"🏖️ **{away.user.name}** is away until <t:" in status.response.content
    await table.players[2].slash(table.channel, "azul board")
    seat = (await table.game()).seat_of(away.id)
    until = (clock.now() + timedelta(days=3)).date().isoformat()
    assert [note.away if note else None for note in drawn[-1]] == [
        f"away until {until}" if number == seat else None for number in range(3)
    ], "the picture shows the away note beside their name"
    day = clock.now() + timedelta(days=3)
    assert drawn[-1][seat].away_short == f"{day.month}/{day.day}", "and its short form for a crowded header"

    clock.advance(hours=25)
    assert await table.bot.run_due() == 0, "the reminder waits for the vacation's end"
    await simcord_env.settle()
    assert table.channel.last_message.id == board.id
    clock.advance(days=2)
    assert await table.bot.run_due() == 1, "the vacation is over: the reminder comes"
    await simcord_env.settle()
    assert mentions(table.channel.last_message.content) == [away.id]
    status = await table.players[2].slash(table.channel, "azul status")
    assert "is away until" not in status.response.content


async def test_back_early_brings_the_reminder_forward_and_refuses_when_not_away(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    away = await waiting_member(table)
    other = next(p for p in table.players if p.id != away.id)
    await away.slash(table.channel, "azul-me away", days=10)
    member, _, move = await table.choose()
    assert member.id == away.id
    await table.play_by_slash(member, move)  # away players may still move: the board says they are away
    await simcord_env.settle()
    assert "is away until <t:" in table.channel.last_message.content
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    clock.advance(hours=30)
    assert await table.bot.run_due() == 0
    before = table.channel.last_message

    back = await away.slash(table.channel, "azul-me back")
    assert back.ephemeral and back.response.content.startswith("Welcome back")
    assert await table.bot.run_due() == 1, "the reminder postponed to the vacation's end is due now"
    await simcord_env.settle()
    assert table.channel.last_message.id != before.id and mentions(table.channel.last_message.content) == [away.id]

    again = await away.slash(table.channel, "azul-me back")
    assert again.ephemeral and "You are not away" in again.response.content
    USER_LOCALES[other.id] = "pl"
    refused = await other.slash(table.channel, "azul-me back")
    assert "Nie masz ustawionej nieobecności" in refused.response.content
    polish = await other.slash(table.channel, "azul-me away", days=2)
    assert (
        polish.response.content.startswith("Twoja nieobecność potrwa do <t:") and "(dni: 2)" in polish.response.content
    )
