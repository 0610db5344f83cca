"""``/azul-me settings``: reminders on or off, once or every N hours, quiet hours in the player's own time zone, and
turn notices by DM or mention, through the real bot; reminders follow them, on the bot's clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import engine
from bot.infra.clock import ManualClock
from tests.bot.conftest import USER_LOCALES
from tests.bot.table import Table, mentions

DAY = timedelta(hours=24)


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(remind_after=DAY)


async def first_waiting(table: Table) -> Any:
    game, state = await table.state()
    return table.member(game, min(engine.to_act(state)))


async def reminders_posted(table: Table, since_id: int) -> list[Any]:
    await table.env.settle()
    last = table.channel.last_message
    return [last] if last.id != since_id and "waiting for" in last.content else []


async def test_settings_show_change_and_refuse_in_every_language(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    shown = await alice.slash(table.channel, "azul-me settings")
    assert shown.ephemeral
    assert shown.response.content.splitlines() == [
        "**Your settings**",
        "• Reminders: once per turn",
        "• Quiet hours: none (time zone UTC)",
        "• Your turn: a mention in the game's channel",
    ]
    changed = await alice.slash(
        table.channel,
        "azul-me settings",
        every="6",
        quiet_from=22,
        quiet_to=7,
        timezone="Europe/Warsaw",
        notice="dm",
    )
    assert changed.response.content.splitlines() == [
        "**Saved.** Your settings now:",
        "• Reminders: every 6 hours while it is your turn",
        "• Quiet hours: 22:00–07:00 (Europe/Warsaw); reminders wait until they end, time limits do not",
        "• Your turn: by direct message",
    ]
    prefs = await table.bot.service.store.users.user(alice.id)
    assert (prefs.remind_every_hours, prefs.quiet_start, prefs.quiet_end, prefs.timezone, prefs.notify_dm) == (
        6,
        22,
        7,
        "Europe/Warsaw",
        True,
    )

    bad = await alice.slash(table.channel, "azul-me settings", timezone="Mars/Olympus", reminders=False)
    assert bad.ephemeral and "I do not know the time zone “Mars/Olympus”" in bad.response.content
    half = await alice.slash(table.channel, "azul-me settings", quiet_from=1)
    assert half.ephemeral and "need both a start and an end" in half.response.content
    assert await table.bot.service.store.users.user(alice.id) == prefs, "a refused change saves nothing"

    USER_LOCALES[alice.id] = "pl"
    polish = await alice.slash(table.channel, "azul-me settings", reminders=False, quiet_from=3, quiet_to=3)
    assert polish.response.content.splitlines() == [
        "**Zapisano.** Twoje obecne ustawienia:",
        "• Przypomnienia: wyłączone",
        "• Godziny ciszy: brak (strefa czasowa Europe/Warsaw)",
        "• Twoja tura: wiadomość prywatna",
    ]
    refused = await alice.slash(table.channel, "azul-me settings", timezone="Europa/Warszawa")
    assert "Nie znam strefy czasowej „Europa/Warszawa”" in refused.response.content
    USER_LOCALES[alice.id] = "uk"
    ukrainian = await alice.slash(table.channel, "azul-me settings")
    assert ukrainian.response.content.splitlines()[:2] == ["**Твої налаштування**", "• Нагадування: вимкнено"]


async def test_time_zones_autocomplete(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    offered = await table.players[0].autocomplete(table.channel, "azul-me settings", "timezone", "warsaw")
    assert [choice["value"] for choice in offered] == ["Europe/Warsaw"]
    offered = await table.players[0].autocomplete(table.channel, "azul-me settings", "timezone", "Europe/K")
    assert "Europe/Kyiv" in [choice["value"] for choice in offered] and len(offered) <= 25


async def test_reminders_off_means_none(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    for player in table.players:
        await player.slash(table.channel, "azul-me settings", reminders=False)
    await table.open("azul")
    board = table.channel.last_message
    clock.advance(hours=30)
    assert await table.bot.run_due() == 0
    assert await reminders_posted(table, board.id) == []


async def test_every_six_hours_while_it_is_your_turn(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    for player in table.players:
        await player.slash(table.channel, "azul-me settings", every="6")
    await table.open("azul")
    waiting = await first_waiting(table)
    clock.advance(hours=5)
    assert await table.bot.run_due() == 0
    for _ in range(3):
        clock.advance(hours=1)
        assert await table.bot.run_due() == 1
        await simcord_env.settle()
        assert mentions(table.channel.last_message.content) == [waiting.id]
        clock.advance(hours=5)
        assert await table.bot.run_due() == 0, "not before the next six hours"
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    clock.advance(hours=1)
    assert await table.bot.run_due() == 0, "the mover's repeats stop with their move"


async def test_no_reminder_in_quiet_hours_it_waits_for_their_end(simcord_env, clock: ManualClock) -> None:
    warsaw = ZoneInfo("Europe/Warsaw")
    local = clock.now().astimezone(warsaw)
    start = local.replace(hour=23, minute=0, second=0, microsecond=0)
    if start <= local:
        start += timedelta(days=1)
    clock.advance(start - local)  # the game starts at 23:00 in Warsaw: its reminder is due at 23:00 the next day
    table = Table.create(simcord_env, 2)
    for player in table.players:
        await player.slash(table.channel, "azul-me settings", quiet_from=22, quiet_to=7, timezone="Europe/Warsaw")
    await table.open("azul")
    waiting = await first_waiting(table)
    board = table.channel.last_message

    clock.advance(hours=24)
    assert await table.bot.run_due() == 0, "23:00 is quiet"
    clock.advance(hours=7, minutes=59)
    assert clock.now().astimezone(warsaw).hour == 6
    assert await table.bot.run_due() == 0, "06:59 is still quiet"
    assert await reminders_posted(table, board.id) == []
    clock.advance(minutes=1)
    assert clock.now().astimezone(warsaw).hour == 7 and isinstance(clock.now(), datetime)
    assert await table.bot.run_due() == 1, "07:00: the quiet hours are over"
    (reminder,) = await reminders_posted(table, board.id)
    assert mentions(reminder.content) == [waiting.id]
