"""Timers as rows: reminders are scheduled when a seat begins to wait, run once by the bot's timer loop on its
injectable clock, never doubled, cancelled when the seat moves, and survive a restart."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.app.timers import Timers
from bot.infra.clock import ManualClock
from bot.infra.store import GameRow, Store
from tests.bot import wire_games as wire
from tests.bot.table import Table, mentions
from tests.bot.test_computer import open_with_computers, play

DAY = timedelta(hours=24)


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(remind_after=DAY)


async def pending(table: Table, kind: str = "remind") -> list[Any]:
    game = await table.game()
    return [
        t for t in await table.bot.service.store.timers.timers_of(game.id) if t.state == "pending" and t.kind == kind
    ]


async def test_a_waiting_player_is_reminded_once_per_turn(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    bot = table.bot
    game, state = await table.state()
    waiting = table.member(game, min(engine.to_act(state)))
    (timer,) = await pending(table)
    assert timer.version == 0

    clock.advance(hours=23)
    assert await bot.run_due() == 0, "nobody has waited a day yet"
    clock.advance(hours=2)
    assert await bot.run_due() == 1
    await simcord_env.settle()
    reminder = table.channel.last_message
    assert mentions(reminder.content) == [waiting.id] and "waiting for" in reminder.content
    clock.advance(hours=50)
    assert await bot.run_due() == 0, "one reminder per turn"
    assert await pending(table) == []

    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    (timer,) = await pending(table)
    assert timer.version == 1 and timer.seat != min(engine.to_act(state))
    clock.advance(hours=25)
    assert await bot.run_due() == 1, "the next turn may be reminded again"
    await simcord_env.settle()


async def test_a_move_cancels_the_movers_reminder(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    clock.advance(hours=12)
    member, seat, move = await table.choose()
    await table.play_by_slash(member, move)
    game = await table.game()
    timers = await table.bot.service.store.timers.timers_of(game.id)
    assert [(t.seat, t.version, t.state) for t in timers] == [(seat, 0, "cancelled"), (1 - seat, 1, "pending")]
    clock.advance(hours=13)
    assert await table.bot.run_due() == 0, "the first player's day is up, but they moved"
    last = table.channel.last_message
    clock.advance(hours=12)
    assert await table.bot.run_due() == 1
    await simcord_env.settle()
    assert table.channel.last_message.id != last.id
    assert mentions(table.channel.last_message.content) == [table.member(game, 1 - seat).id]


async def test_a_timer_is_never_doubled(simcord_env, clock: ManualClock, make_bot: Any) -> None:
    """Syncing again adds nothing; two runners on one database (an old and a new process) post once."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game = await table.game()
    for _ in range(3):
        await table.bot.service.timers.sync(game)
    assert len(await table.bot.service.store.timers.timers_of(game.id)) == 1
    clock.advance(hours=25)
    before = table.channel.last_message
    results = await asyncio.gather(table.bot.run_due(), table.bot.run_due())
    assert sorted(results) == [0, 1]
    await simcord_env.settle()
    assert table.channel.last_message.id != before.id


async def test_a_reminder_due_while_the_bot_was_down_runs_once_at_start_up(
    simcord_env, clock: ManualClock, make_bot: Any
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    waiting = table.member(game, min(engine.to_act(state)))
    board = table.channel.last_message

    await simcord_env.restart_bot(make_bot(remind_after=DAY))  # restarted with the reminder still ahead
    await simcord_env.settle()
    assert table.channel.last_message.id == board.id
    assert len(await pending(table)) == 1, "the pending timer survived the restart"

    clock.advance(hours=30)  # the day passes while the bot is down
    await simcord_env.restart_bot(make_bot(remind_after=DAY))
    await simcord_env.settle()  # the timer loop's first run, at start-up
    reminder = table.channel.last_message
    assert reminder.id != board.id and mentions(reminder.content) == [waiting.id]
    assert await table.bot.run_due() == 0, "it ran once"
    assert await pending(table) == []


async def test_a_lost_timer_is_set_again_at_start_up(simcord_env, clock: ManualClock, make_bot: Any) -> None:
    """A crash between a move and its timers: the start-up sync schedules what the waiting seat is owed."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game = await table.game()
    store = table.bot.service.store
    async with store.transaction() as db:
        await db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
    await simcord_env.restart_bot(make_bot(remind_after=DAY))
    await simcord_env.settle()
    (timer,) = await pending(table)
    assert timer.version == game.version


async def test_each_waiting_player_in_a_simultaneous_phase_has_their_own_reminder(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("azul-grey")
    state = (await table.state())[1]
    while len(engine.to_act(state)) < 2:  # play the drafting until the grey-wall tiling, where all act at once
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        state = (await table.state())[1]
    waiting = sorted(engine.to_act(state))
    assert sorted(t.seat for t in await pending(table)) == waiting

    clock.advance(hours=12)
    member, seat, move = await table.choose()
    await table.play_by_slash(member, move)
    game = await table.game()
    timers = await pending(table)
    still = [t for t in timers if t.seat != seat]
    (mover,) = [t for t in timers if t.seat == seat]
    assert mover.version == game.version, "the mover waits again (the next row), from now"
    assert {t.seat for t in still} == set(waiting) - {seat}, "the others' clocks keep running from when they began"
    assert all(t.version < mover.version for t in still)

    clock.advance(hours=13)
    assert await table.bot.run_due() == 1
    await simcord_env.settle()
    reminded = set(mentions(table.channel.last_message.content))
    assert reminded == {table.member(game, t.seat).id for t in still}


async def test_seats_the_computer_plays_get_no_timers(simcord_env, clock: ManualClock) -> None:
    """A computer's own seat and a person's seat handed to the computer are never reminded: they have no timers, and
    a pending one goes when the seat is handed over."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice, bob = table.players
    game = await table.game()
    bob_seat = game.seat_of(bob.id)
    assert bob_seat is not None
    handed = game.version
    await table.bot.service.stand_ins.set_controller(game.id, bob_seat, "hard")
    table.bot.wake_computer(game.id)
    await simcord_env.settle()
    for _ in range(2):  # Alice moves; the computer answers for Bob
        game, state = await table.state()
        seat = game.seat_of(alice.id)
        assert seat is not None and seat in engine.to_act(state)
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
        await simcord_env.settle()
        assert [t.seat for t in await pending(table)] == [seat], "only Alice waits for a reminder"
    bobs = [t for t in await table.bot.service.store.timers.timers_of(game.id) if t.seat == bob_seat]
    assert all(t.version <= handed and t.state != "pending" for t in bobs), "none set after the hand-over"
    clock.advance(hours=25)
    assert await table.bot.run_due() == 1
    await simcord_env.settle()
    assert mentions(table.channel.last_message.content) == [alice.id], "Bob's seat is the computer's: not pinged"


async def test_a_computer_seat_never_has_a_timer(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 1)
    game = await open_with_computers(table, ["easy"])
    await simcord_env.settle()
    computer_seats = set(game.computer_seats())
    assert computer_seats
    game, state = await table.state()
    alice = table.players[0]
    seat = game.seat_of(alice.id)
    assert seat is not None and seat in engine.to_act(state)
    await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
    await simcord_env.settle()
    timers = await table.bot.service.store.timers.timers_of(game.id)
    assert timers and not {t.seat for t in timers} & computer_seats


async def test_the_start_up_sweep_reads_each_open_game_once_quarantining_the_damaged_and_syncing_the_others(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "azul.sqlite3")
    await wire.prepare_games(db, 3)
    with sqlite3.connect(db) as damage:
        damage.execute("UPDATE games SET state = substr(state, 1, length(state) - 8) WHERE id = 1")
        damage.execute("DELETE FROM timers")  # as a crash between a move and its timers leaves them
    store = await Store.open(db)
    try:
        reads: list[int] = []
        read = store.games.game

        async def counted(game_id: int) -> GameRow | None:
            reads.append(game_id)
            return await read(game_id)

        store.games.game = counted  # type: ignore[method-assign]
        assert await Timers(store, ManualClock(), remind_after=timedelta(hours=1)).sync_all() == (2, 1)
        assert sorted(reads) == [1, 2, 3]  # one read of each serves the check and the sync
        store.games.game = read  # type: ignore[method-assign]
        assert [game.id for game in await store.games.broken_games()] == [1]
        for game_id in (2, 3):
            _, _, timers = await store.moves.acts_and_timers(game_id)
            assert [timer.state for timer in timers] == ["pending"], "the waiting seat is reminded"
    finally:
        await store.close()


async def test_a_move_reads_only_the_timers_its_sync_goes_by(simcord_env) -> None:
    """Every move of a long game sets a reminder: the move reads the pending ones and the few since the seat that
    moved longest ago last moved, not all of them."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    for _ in range(8):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    game = await table.game()
    every = await table.bot.service.store.timers.timers_of(game.id)
    _, _, read = await table.bot.service.store.moves.acts_and_timers(game.id)
    assert len(every) >= 8 and 1 <= len(read) <= 3, (len(every), read)
    assert {t.id for t in every if t.state == "pending"} <= {t.id for t in read}
