"""Many interactions in flight at once on the wire-level fake Discord, against the real bot in this process: the
same player twice, several players at once in a simultaneous phase, Discord delivering one interaction twice, and
moves in many games at the same moment. Every move lands at most once and every answer tells the truth."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import engine
from bot.app.service import GameService
from bot.client import AzulBot, create_bot
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

TIMEOUT = 30


async def running(db: str, discord_server: FakeDiscord, **options: Any) -> tuple[AzulBot, asyncio.Task[None]]:
    bot = create_bot(db, **options)
    task = asyncio.create_task(bot.start(GOOD_TOKEN))
    await asyncio.wait_for(discord_server.identified.wait(), 15)
    await bot.wait_until_ready()
    for _ in range(200):  # the opening boards, posted by the start-up sweep, are out before the first move
        if all(game.board_version >= 0 for game in wire.read_games(db)):
            break
        await asyncio.sleep(0.05)
    return bot, task


async def stopped(bot: AzulBot, task: asyncio.Task[None]) -> None:
    await bot.close()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def answers(discord_server: FakeDiscord, interactions: list[str]) -> list[str | None]:
    return list(await asyncio.gather(*(wire.answer(discord_server, i, TIMEOUT) for i in interactions)))


def saves_meet(bot: AzulBot, parties: int) -> None:
    """The first ``parties`` saves of moves wait for each other: every one of them was checked against the same
    version of the game, so all but one find it moved on (as when they truly arrive at the same moment)."""
    moves = bot.service.store.moves
    record, barrier, arrived = moves.record_moves, asyncio.Barrier(parties), 0

    async def meeting(*args: Any, **kwargs: Any) -> None:
        nonlocal arrived
        arrived += 1
        if arrived <= parties:
            await asyncio.wait_for(barrier.wait(), TIMEOUT)
        await record(*args, **kwargs)

    moves.record_moves = meeting  # type: ignore[method-assign]


async def test_the_same_player_twice_and_a_retried_interaction(discord_server: FakeDiscord, db_path: str) -> None:
    db = db_path
    await wire.prepare_games(db, 1)
    bot, task = await running(db, discord_server)
    try:
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        saves_meet(bot, 2)  # both sends are checked before either is saved, however busy the machine
        twice = [await wire.send_move(discord_server, game, user, move) for _ in range(2)]
        said = await answers(discord_server, twice)
        assert sorted(wire.played(s) for s in said) == [False, True], said
        assert any(s and "already played" in s for s in said), said
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        with wire.Logged("bot.ui.replies", "was delivered again") as taken_up_already:
            first = await wire.send_move(discord_server, game, user, move)
            # Discord delivers it twice
            again = await wire.send_move(discord_server, game, user, move, interaction_id=first)
            assert again == first
            await wire.answer(discord_server, first, TIMEOUT)
            await asyncio.wait_for(taken_up_already.wait(), TIMEOUT)  # the second delivery was seen, and left
        assert wire.game_in(db, wire.FIRST_CHANNEL).version == 2
        assert [i for _, _, i in wire.moves_of(db, game.id)][-1] == int(first)
    finally:
        await stopped(bot, task)


async def grey_wall_in_a_simultaneous_phase(db: str, players: int) -> None:
    """A grey-wall game played (in the store) up to a phase where several players may act at once."""
    await wire.prepare_games(db, 1, variant="azul-grey", players=players, seed=3)
    store = await Store.open(db)
    service = GameService(store)
    try:
        for _ in range(300):
            game = wire.game_in(db, wire.FIRST_CHANNEL)
            moves = wire.moves_now(game)
            if len(moves) > 1:
                return
            user, move = moves[0]
            await service.turns.move(wire.FIRST_CHANNEL, user, move.command, dict(move.choices()))
        raise AssertionError("no simultaneous phase")
    finally:
        await store.close()


async def test_players_of_a_simultaneous_phase_all_at_once(discord_server: FakeDiscord, db_path: str) -> None:
    db = db_path
    await grey_wall_in_a_simultaneous_phase(db, 4)
    bot, task = await running(db, discord_server)
    try:
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        moves = wire.moves_now(game)
        sent = [await wire.send_move(discord_server, game, user, move) for user, move in moves]
        said = await answers(discord_server, sent)
        assert all(wire.played(s) for s in said), said
        after = wire.game_in(db, wire.FIRST_CHANNEL)
        assert after.version == game.version + len(moves)
        logged = wire.moves_of(db, game.id)
        assert sorted(int(i) for i in sent) == sorted(i for _, _, i in logged[game.version :] if i is not None)
        replayed = engine.replay(after.variant, len(after.users), after.seed, [(s, n) for s, n, _ in logged])
        assert replayed == after.state
    finally:
        await stopped(bot, task)


async def test_many_games_moving_at_once(discord_server: FakeDiscord, db_path: str) -> None:
    db = db_path
    games = 12
    await wire.prepare_games(db, games)
    bot, task = await running(db, discord_server)
    try:
        for _ in range(3):  # rounds of one move in every game, all in flight together
            now = [wire.game_in(db, wire.FIRST_CHANNEL + index) for index in range(games)]
            sent = []
            for game in now:
                ((user, move),) = wire.moves_now(game)[:1]
                sent.append(await wire.send_move(discord_server, game, user, move))
            said = await answers(discord_server, sent)
            assert all(wire.played(s) for s in said), said
        for game in wire.read_games(db):
            assert game.version == 3
            assert len(wire.moves_of(db, game.id)) == 3
        for _ in range(100):  # each game's newest board is posted with the newest Play button only
            if all(game.board_version == 3 for game in wire.read_games(db)):
                break
            await asyncio.sleep(0.05)
        for game in wire.read_games(db):
            assert game.board_version == 3
            live = [
                message["id"]
                for message in discord_server.messages.values()
                if message["channel_id"] == str(game.channel)
                and message["components"]
                and not message["flags"] & 64  # a mover's own reply (its Undo button) is not a board
            ]
            assert live == [str(game.board_message_id)], "only the newest board has a Play button"
    finally:
        await stopped(bot, task)


@pytest.mark.slow  # two shards connect over the wire
async def test_a_sharded_bot_connects_every_shard_and_plays(discord_server: FakeDiscord, db_path: str) -> None:
    """AZUL_SHARD_COUNT=2 in one process: both shards identify, and a move is answered and saved."""
    await wire.prepare_games(db_path, 1)
    bot, task = await running(db_path, discord_server, shard_count=2, shard_ids=(0, 1))
    try:
        assert discord_server.identifies == 2 and bot.shard_count == 2
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), TIMEOUT)
        assert wire.played(said), said
        assert wire.game_in(db_path, wire.FIRST_CHANNEL).version == 1
    finally:
        await stopped(bot, task)
