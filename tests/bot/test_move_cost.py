"""What a move costs the database, counted through the real bot: every statement the store runs is traced
(:mod:`tools.move_cost`, which ``python -m tools.layout`` prints the figures with). The trace is SQLite's own
callback, so the count runs on SQLite; the store sends the same statements to PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.conftest import PG_URL
from tests.bot.table import BUTTON, Table
from tools.move_cost import REMINDERS, traced

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="counted with SQLite's trace callback")

SLASH_MOVE_LOADS = 2
PICKER_STEP_LOADS = 1
SLASH_MOVE_STATEMENTS = 14
"""SQL statements per slash move, command to board post, ``BEGIN`` and ``COMMIT`` among them (the issue's ceiling
is 16), with the bot's default reminders: the game and its seats read; the seats' acts, the game's timers and the
players' settings read; the move appended and the game's row saved with its board's claim, the waiting player's
reminder cancelled and the next one's set; and the board recorded in one statement. (The moves since the pinged
player's last are read only when there are others than this one to tell: not in a two-player game.)"""
SLASH_MOVE_COMMITS = 2
SLASH_MOVE_TRIPS = 4
"""Trips to the SQLite thread per slash move, each a wake-up of the event loop: the game and its seats, what the
move's timers and its board's post go by (the seats' acts, the timers, the players' settings), the move written whole
with its timers, and the board recorded."""


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(remind_after=REMINDERS)  # as the bot runs by default: every move changes its reminders


async def test_a_slash_move_loads_its_game_at_most_twice_from_command_to_board_in_14_statements_and_4_trips(
    simcord_env,
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    for _ in range(3):
        member, _, move = await table.choose()
        posts = len(table.channel.history())
        async with traced(table.bot) as trace:
            result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
        assert result.response.content.startswith("Played"), result.response.content
        assert len(table.channel.history()) == posts + 1, "the board is posted within the count"
        assert trace.game_reads <= SLASH_MOVE_LOADS, trace.statements
        assert len(trace.statements) <= SLASH_MOVE_STATEMENTS, trace.statements
        assert trace.commits <= SLASH_MOVE_COMMITS, trace.statements
        assert trace.trips <= SLASH_MOVE_TRIPS, trace.statements


async def test_a_picker_step_loads_its_game_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    async with traced(table.bot) as trace:
        step = await member.click(table.channel.last_message, label="Play")
    loads = [trace.game_reads]
    while step.response.components[0]["components"][0]["type"] != BUTTON:  # up to the move to confirm
        async with traced(table.bot) as trace:
            step = await table.picker_step(member, step.response, move)
        loads.append(trace.game_reads)
    assert len(loads) >= 2 and max(loads) <= PICKER_STEP_LOADS, loads
    async with traced(table.bot) as trace:
        played = await table.picker_step(member, step.response, move)
    assert played.response.content.startswith("Played"), played.response.content
    assert trace.game_reads <= SLASH_MOVE_LOADS, trace.statements
