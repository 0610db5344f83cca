"""Undo does not buy time, through the real bot: a move taken back gives the player back the clock of the turn as it
was before the move (its deadline and the warnings still to come), and the turn's "since" as it was."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import engine
from bot.infra.clock import ManualClock
from tests.bot.table import Table, mentions
from tests.bot.test_time_limits import LIMIT, open_limited, run, waiting

pytestmark = pytest.mark.simcord(settle_timeout=120)


async def test_a_move_taken_back_keeps_the_turns_clock_and_its_warnings(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    store = table.bot.service.store
    late, seat = await waiting(table)
    game = await table.game()
    began = clock.now().replace(microsecond=0)  # timers keep whole seconds
    async with store.transaction() as db:  # the turn began long ago, so a fresh "since" would show
        await db.execute("UPDATE games SET turn_since = ? WHERE id = ?", ("2020-01-01T00:00:00+00:00", game.id))
    assert await run(table, clock, hours=6, minutes=1) == 1, "the half-time warning"

    _, state = await table.state()
    move = table.agent.choose(engine.variant_of(state), state, seat)
    assert not engine.reveals(state, engine.apply(state, seat, move)[0])
    await table.play_by_slash(late, move)
    undone = await late.slash(table.channel, "azul undo")
    assert "Taken back" in undone.response.content, undone.response.content

    game = await table.game()
    assert game.turn_since == "2020-01-01T00:00:00+00:00", "the turn began when it began"
    pending = {
        t.kind: t.due_at for t in await store.timers.timers_of(game.id) if t.state == "pending" and t.seat == seat
    }
    deadline = began + timedelta(hours=LIMIT)
    assert {kind: datetime.fromisoformat(due) for kind, due in pending.items()} == {
        "deadline": deadline,
        "limit_hour": deadline - timedelta(hours=1),
    }, "the same deadline, and only the warning still to come"

    assert await run(table, clock, hours=5) == 1, "an hour before: the original clock, not a fresh one"
    assert mentions(table.channel.last_message.content) == [late.id]
    assert await run(table, clock, hours=1) == 1, "the deadline"
    moves = await store.moves.moves(game.id)
    assert len(moves) == 1 and moves[0][0] == seat, "the computer made the move at the original deadline"


async def test_a_move_played_again_after_an_undo_does_not_give_the_next_player_a_shorter_clock(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    store = table.bot.service.store
    mover, seat = await waiting(table)
    _, state = await table.state()
    move = table.agent.choose(engine.variant_of(state), state, seat)
    await table.play_by_slash(mover, move)
    clock.advance(hours=3)
    await mover.slash(table.channel, "azul undo")
    await table.play_by_slash(mover, move)  # the next player's turn begins now, not at the first try
    game = await table.game()
    due = [t.due_at for t in await store.timers.timers_of(game.id) if t.state == "pending" and t.kind == "deadline"]
    assert [datetime.fromisoformat(d) for d in due] == [clock.now().replace(microsecond=0) + timedelta(hours=LIMIT)]
