"""The store and service without Discord: schema, one open game per channel, atomic moves, replay, configuration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.__main__ import EXIT_CONFIG, ConfigError, read_config
from bot.entry import run_ways
from bot.service import GameService, Refusal
from bot.store import MIGRATIONS, Store
from engine.agents import GreedyAgent

CHANNEL = 10


@pytest.fixture
async def service(tmp_path: Path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    yield GameService(store, seed_source=lambda: 99)
    await store.close()


async def started(service: GameService, players: int = 2, variant: str = "azul") -> int:
    game = await service.create(guild_id=1, channel_id=CHANNEL, user_id=100, name="p0", variant=variant, seats=players)
    for user in range(1, players):
        await service.join(CHANNEL, 100 + user, f"p{user}")
    await service.start(CHANNEL, 100, is_admin=False)
    return game.id


async def test_schema_is_migrated_with_wal_and_foreign_keys(service: GameService) -> None:
    store = service.store
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.pragma("journal_mode") == "wal"
    assert await store.pragma("foreign_keys") == 1


async def test_reopening_keeps_data_and_version(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Store.open(path)
    await GameService(store, lambda: 5).create(
        guild_id=None, channel_id=1, user_id=2, name="x", variant="azul", seats=2
    )
    await store.close()
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    assert (await store.open_game_in(1)) is not None
    await store.close()


async def test_one_open_game_per_channel(service: GameService) -> None:
    await service.create(guild_id=1, channel_id=CHANNEL, user_id=1, name="a", variant="azul", seats=2)
    with pytest.raises(Refusal) as refused:
        await service.create(guild_id=1, channel_id=CHANNEL, user_id=2, name="b", variant="azul-grey", seats=3)
    assert refused.value.key == "channel_busy"
    # The unique index holds even if the check above is bypassed.
    assert (
        await service.store.create_game(
            guild_id=1,
            channel_id=CHANNEL,
            creator_id=2,
            creator_name="b",
            variant="azul",
            options={},
            seed=1,
            max_seats=2,
            seat_order="random",
        )
        is None
    )
    await service.abort(CHANNEL, 1, is_admin=False)
    await service.create(guild_id=1, channel_id=CHANNEL, user_id=2, name="b", variant="azul", seats=2)


async def test_seat_order_is_drawn_from_the_seed(service: GameService) -> None:
    await service.create(guild_id=1, channel_id=CHANNEL, user_id=100, name="p0", variant="azul", seats=4)
    for user in range(1, 4):
        await service.join(CHANNEL, 100 + user, f"p{user}")
    game, _ = await service.start(CHANNEL, 100, is_admin=False)
    order = [seat.user_id for seat in game.by_seat()]
    assert sorted(order) == [100, 101, 102, 103]
    from bot.service import seat_order

    assert [100 + joined for joined in sorted(range(4), key=lambda j: seat_order(99, 4)[j])] == order


async def test_a_whole_game_replays_to_its_snapshot(service: GameService) -> None:
    game_id = await started(service, 3, "azul-grey")
    agent = GreedyAgent(3)
    for ply in range(500):
        game = await service.game(game_id)
        assert game is not None
        if game.status != "active":
            break
        state = service.state_of(game)
        seat = min(engine.to_act(state))
        move = agent.choose(engine.variant_of(state), state, seat)
        user = game.by_seat()[seat].user_id
        await service.move(CHANNEL, user, move.command, dict(move.choices()), interaction_id=ply)
    game = await service.game(game_id)
    assert game is not None and game.status == "over" and game.result is not None
    assert engine.to_json(await service.replayed(game)) == game.state
    assert len(await service.store.moves(game_id)) == game.version


async def test_a_lost_race_saves_nothing(service: GameService) -> None:
    game_id = await started(service)
    game = await service.game(game_id)
    assert game is not None
    state = service.state_of(game)
    seat = min(engine.to_act(state))
    move = engine.legal_moves(state, seat)[0]
    new_state, _ = engine.apply(state, seat, move)
    store = service.store
    await store.record_move(
        game_id,
        version=0,
        seat=seat,
        notation=str(move),
        state=engine.to_json(new_state),
        interaction_id=1,
        finished=None,
    )
    from bot.store import Conflict

    with pytest.raises(Conflict):  # same version again: the game has moved on
        await store.record_move(
            game_id, version=0, seat=seat, notation=str(move), state={}, interaction_id=2, finished=None
        )
    with pytest.raises(Conflict):  # the same interaction again
        await store.record_move(
            game_id, version=1, seat=seat, notation=str(move), state={}, interaction_id=1, finished=None
        )
    game = await service.game(game_id)
    assert game is not None and game.version == 1 and game.state == engine.to_json(new_state)
    assert await store.moves(game_id) == [(seat, str(move))]


def test_configuration_from_the_environment() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        read_config({})
    with pytest.raises(ConfigError, match="AZUL_DEV_GUILD"):
        read_config({"DISCORD_TOKEN": "t", "AZUL_DEV_GUILD": "abc"})
    with pytest.raises(ConfigError, match="AZUL_REMIND_HOURS"):
        read_config({"DISCORD_TOKEN": "t", "AZUL_REMIND_HOURS": "soon"})
    config = read_config({"DISCORD_TOKEN": " t ", "AZUL_DEV_GUILD": "42", "AZUL_LOG_LEVEL": "debug"})
    assert (config.token, config.db_path, config.dev_guild, config.log_level) == ("t", "azul.sqlite3", 42, "DEBUG")
    assert config.remind_hours == 24.0


def test_missing_token_exits_with_a_clear_message() -> None:
    env = {"PATH": "", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-m", "bot"]
    done = subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_CONFIG
    assert "DISCORD_TOKEN is not set" in done.stderr


async def test_a_run_of_moves_is_saved_together_once(service: GameService) -> None:
    """The grey wall's columns, played as one run: every move or none, and a retried interaction saves nothing."""
    game_id = await started(service, variant="azul-grey")
    agent = GreedyAgent(3)
    for ply in range(1, 400):
        game = await service.game(game_id)
        assert game is not None and game.status == "active", "no wall tiling with two columns to choose"
        state = service.state_of(game)
        seat = min(engine.to_act(state))
        user = game.by_seat()[seat].user_id
        ways = run_ways(state, seat, "wall") if state.phase == "wall" else []
        if any(len(way) > 1 for way in ways):
            break
        move = agent.choose(engine.variant_of(state), state, seat)
        await service.move(CHANNEL, user, move.command, dict(move.choices()), interaction_id=ply)
    way = next(way for way in ways if len(way) > 1)
    wrong = [dict(way[0].choices()), dict(way[0].choices())]  # the first line twice: the second is illegal
    with pytest.raises(engine.EngineError):
        await service.move(CHANNEL, user, "wall", wrong[0], then=wrong[1:], interaction_id=1000)
    assert (await service.game(game_id)) == game, "a run that fails part-way saves nothing"
    run = [dict(move.choices()) for move in way]
    turn = await service.move(CHANNEL, user, "wall", run[0], then=run[1:], interaction_id=1001)
    assert turn.game.version == game.version + len(way)
    assert sum(event.kind == "wall" and event.seat == seat for event in turn.events) >= len(way)
    with pytest.raises(Refusal, match="duplicate"):
        await service.move(CHANNEL, user, "wall", run[0], then=run[1:], interaction_id=1001)
    saved = await service.game(game_id)
    assert saved is not None and saved.version == turn.game.version
    assert (await service.store.moves(game_id))[game.version :] == [(seat, str(move)) for move in way]
    assert engine.to_json(await service.replayed(saved)) == saved.state
