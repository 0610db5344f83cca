"""Computer seats through the real bot: their turns are played promptly, logged like a person's, never pinged, and
resumed after a restart."""

from __future__ import annotations

import asyncio
from typing import Any

import engine
from bot.computer import Computer, move_seed
from bot.store import GameRow
from tests.bot.conftest import COMPUTER_BUDGET
from tests.bot.table import Table, mentions


async def open_with_computers(table: Table, levels: list[str], variant: str = "azul") -> GameRow:
    """Alice opens a game for herself and computers of ``levels`` (through the service) and starts it."""
    alice = table.players[0]
    await alice.slash(table.channel, "azul new", variant=variant, seats=1 + len(levels), order="random")
    lobby = table.channel.last_message
    for level in levels:
        await table.bot.service.add_computer(table.channel.id, alice.id, level, is_admin=False)
    started = await alice.click(lobby, label="Start")
    assert started.ephemeral, started
    return await table.game()


async def play(table: Table, member: Any, move: engine.Move) -> None:
    """A person's move by slash command; the computer seats' answers follow before the command settles."""
    version = (await table.game()).version
    result = await member.slash(table.channel, f"azul {move.command}", **dict(move.choices()))
    assert result.ephemeral and result.response.content.startswith("Played"), result.response.content
    assert (await table.game()).version > version


async def play_human_moves_to_the_end(table: Table) -> int:
    """Alice plays (greedily) whenever she must; the computer seats play on their own. Her move count."""
    alice = table.players[0]
    for sent in range(400):
        game, state = await table.state()
        if game.status != "active":
            return sent
        seat = game.seat_of(alice.id)
        assert seat in engine.to_act(state), "a computer seat was left waiting"
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
    raise AssertionError("the game did not end")


async def test_computer_seats_play_their_turns_and_are_logged_like_moves(simcord_env) -> None:
    table = Table.create(simcord_env, 1)
    game = await open_with_computers(table, ["hard"])
    alice = table.players[0]
    sent = await play_human_moves_to_the_end(table)
    game = await table.game()
    assert game.status == "over"
    moves = await table.bot.service.store.moves(game.id)
    mine = game.seat_of(alice.id)
    assert sent == sum(1 for seat, _ in moves if seat == mine), "only Alice's moves were sent"
    assert any(seat != mine for seat, _ in moves)
    assert await table.bot.service.replayed(game) == engine.from_json(game.state or {})
    posts = [message for message in table.channel.history() if "Computer 1 (hard)" in message.content]
    assert posts, "the computer's moves are posted with its name and level"
    for message in table.channel.history():
        assert set(mentions(message.content)) <= {alice.id}, "only people are ever pinged"


async def test_restart_while_the_computer_thinks_resumes_its_turn(simcord_env, make_bot) -> None:
    """The first bot is stopped in the middle of the computer's search; the next one plays the same move, once."""
    thinking = asyncio.Event()

    class Stuck(Computer):
        async def choose(self, *args: Any, **kwargs: Any) -> engine.Move:
            thinking.set()
            # A search that has not finished when the bot stops.
            await simcord_env.external_wait(asyncio.Event().wait(), reason="the computer is thinking")
            raise AssertionError("unreachable")

    table = Table.create(simcord_env, 1)
    table.bot.service.computer = Stuck(1, COMPUTER_BUDGET)
    game = await open_with_computers(table, ["medium"])
    alice = table.players[0]
    game, state = await table.state()
    if game.seat_of(alice.id) in engine.to_act(state):
        seat = game.seat_of(alice.id) or 0
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
    await asyncio.wait_for(thinking.wait(), 10)
    before = await table.game()
    assert before.seat_of(alice.id) not in engine.to_act(engine.from_json(before.state or {}))

    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()

    after = await table.game()
    assert after.version == before.version + 1, "the interrupted turn was played once after the restart"
    moves = await table.bot.service.store.moves(after.id)
    assert len(moves) == after.version
    # The same move the computer would have played without the restart.
    plain = Computer(1, COMPUTER_BUDGET)
    plain.start()
    try:
        state = engine.from_json(before.state or {})
        seat = min(engine.to_act(state))
        expected = await plain.choose(state, seat, "medium", move_seed(before.seed, before.version, seat))
    finally:
        await plain.close()
    assert moves[before.version] == (seat, str(expected))


async def test_seats_of_an_older_database_keep_their_people(tmp_path) -> None:
    """Migration 5 rebuilds the seats table: the people of games started before it keep their seats."""
    import aiosqlite

    from bot.store import MIGRATIONS, Store

    path = str(tmp_path / "old.sqlite3")
    async with aiosqlite.connect(path) as db:
        for number, script in enumerate(MIGRATIONS[:4], start=1):
            await db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
        await db.execute(
            "INSERT INTO games (id, channel_id, creator_id, variant, seed, max_seats, status, created_at, turn_since)"
            " VALUES (1, 9, 100, 'azul', 5, 2, 'active', 'x', 'x')"
        )
        await db.execute("INSERT INTO seats VALUES (1, 100, 'alice', 0, 1), (1, 200, 'bob', 1, 0)")
        await db.commit()
    store = await Store.open(path)
    try:
        game = await store.game(1)
        assert game is not None
        assert [(s.user_id, s.name, s.seat, s.level) for s in game.by_seat()] == [
            (200, "bob", 0, None),
            (100, "alice", 1, None),
        ]
        assert await store.set_controller(1, 0, "hard")
        assert (await store.game(1)).computer_seats() == [0]  # type: ignore[union-attr]
        assert await store.set_controller(1, 0, None)
        assert not await store.set_controller(1, 0, None), "nothing to give back"
    finally:
        await store.close()
