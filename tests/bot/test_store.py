"""The store and service without Discord: schema, one open game per channel, atomic moves, replay, configuration."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.__main__ import EXIT_CONFIG, ConfigError, read_config
from bot.app.errors import Refusal
from bot.app.move_entry import run_ways
from bot.app.service import GameService
from bot.infra.store import MIGRATIONS, PAGE_SIZE, Conflict, Store
from engine.agents import GreedyAgent
from tests.bot.conftest import PG_URL

CHANNEL = 10


@pytest.fixture
async def service(db_path: str):
    store = await Store.open(db_path)
    yield GameService(store, seed_source=lambda: 99)
    await store.close()


async def started(service: GameService, players: int = 2, variant: str = "azul") -> int:
    game = await service.seating.create(
        guild_id=1, channel_id=CHANNEL, user_id=100, name="p0", variant=variant, seats=players
    )
    for user in range(1, players):
        await service.seating.join(CHANNEL, 100 + user, f"p{user}")
    await service.seating.start(CHANNEL, 100, is_admin=False)
    return game.id


async def test_schema_is_migrated_with_wal_and_foreign_keys(service: GameService) -> None:
    store = service.store
    assert await store.schema_version() == len(MIGRATIONS)
    if store.is_postgres:
        return  # PostgreSQL always checks foreign keys and has no journal mode to choose
    assert await store.pragma("journal_mode") == "wal"
    assert await store.pragma("foreign_keys") == 1
    assert await store.pragma("synchronous") == 2  # FULL: an acknowledged move survives a power cut
    assert await store.pragma("page_size") == PAGE_SIZE


async def test_an_existing_file_keeps_its_page_size(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA page_size = 4096")
        db.execute("CREATE TABLE kept (one INTEGER)")
    store = await Store.open(path)
    try:
        assert await store.pragma("page_size") == 4096 != PAGE_SIZE
        assert await store.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()


async def test_reopening_keeps_data_and_version(db_path: str) -> None:
    path = db_path
    store = await Store.open(path)
    await GameService(store, lambda: 5).seating.create(
        guild_id=None, channel_id=1, user_id=2, name="x", variant="azul", seats=2
    )
    await store.close()
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    assert (await store.games.open_game_in(1)) is not None
    await store.close()


async def test_one_open_game_per_channel(service: GameService) -> None:
    await service.seating.create(guild_id=1, channel_id=CHANNEL, user_id=1, name="a", variant="azul", seats=2)
    with pytest.raises(Refusal) as refused:
        await service.seating.create(guild_id=1, channel_id=CHANNEL, user_id=2, name="b", variant="azul-grey", seats=3)
    assert refused.value.key == "channel_busy"
    # The unique index holds even if the check above is bypassed.
    assert (
        await service.store.games.create_game(
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
    await service.endings.abort(CHANNEL, 1, is_admin=False)
    await service.seating.create(guild_id=1, channel_id=CHANNEL, user_id=2, name="b", variant="azul", seats=2)


async def test_seat_order_is_drawn_from_the_seed(service: GameService) -> None:
    await service.seating.create(guild_id=1, channel_id=CHANNEL, user_id=100, name="p0", variant="azul", seats=4)
    for user in range(1, 4):
        await service.seating.join(CHANNEL, 100 + user, f"p{user}")
    game, _ = await service.seating.start(CHANNEL, 100, is_admin=False)
    order = [seat.user_id for seat in game.by_seat()]
    assert sorted(order) == [100, 101, 102, 103]
    from bot.app.seating import seat_order

    assert [100 + joined for joined in sorted(range(4), key=lambda j: seat_order(99, 4)[j])] == order


async def play_to_the_end(service: GameService, game_id: int) -> None:
    agent = GreedyAgent(3)
    for ply in range(500):
        game = await service.tables.game(game_id)
        assert game is not None
        if game.status != "active":
            return
        state = service.tables.state_of(game)
        seat = min(engine.to_act(state))
        move = agent.choose(engine.variant_of(state), state, seat)
        user = game.by_seat()[seat].user_id
        await service.turns.move(CHANNEL, user, move.command, dict(move.choices()), interaction_id=ply)


async def test_a_whole_game_replays_to_its_snapshot(service: GameService) -> None:
    game_id = await started(service, 3, "azul-grey")
    agent = GreedyAgent(3)
    for ply in range(500):
        game = await service.tables.game(game_id)
        assert game is not None
        if game.status != "active":
            break
        state = service.tables.state_of(game)
        seat = min(engine.to_act(state))
        move = agent.choose(engine.variant_of(state), state, seat)
        user = game.by_seat()[seat].user_id
        await service.turns.move(CHANNEL, user, move.command, dict(move.choices()), interaction_id=ply)
    game = await service.tables.game(game_id)
    assert game is not None and game.status == "over" and game.result is not None
    assert engine.to_json(await service.tables.replayed(game)) == game.state
    assert len(await service.store.moves.moves(game_id)) == game.version


async def test_a_lost_race_saves_nothing(service: GameService) -> None:
    game_id = await started(service)
    game = await service.tables.game(game_id)
    assert game is not None
    state = service.tables.state_of(game)
    seat = min(engine.to_act(state))
    move = engine.legal_moves(state, seat)[0]
    new_state, _ = engine.apply(state, seat, move)
    store = service.store
    await store.moves.record_move(
        game_id,
        version=0,
        seat=seat,
        notation=str(move),
        state=engine.to_json(new_state),
        interaction_id=1,
        finished=None,
    )
    with pytest.raises(Conflict):  # same version again: the game has moved on
        await store.moves.record_move(
            game_id, version=0, seat=seat, notation=str(move), state={}, interaction_id=2, finished=None
        )
    with pytest.raises(Conflict):  # the same interaction again
        await store.moves.record_move(
            game_id, version=1, seat=seat, notation=str(move), state={}, interaction_id=1, finished=None
        )
    game = await service.tables.game(game_id)
    assert game is not None and game.version == 1 and game.state == engine.to_json(new_state)
    assert await store.moves.moves(game_id) == [(seat, str(move))]


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
        game = await service.tables.game(game_id)
        assert game is not None and game.status == "active", "no wall tiling with two columns to choose"
        state = service.tables.state_of(game)
        seat = min(engine.to_act(state))
        user = game.by_seat()[seat].user_id
        ways = run_ways(state, seat, "wall") if state.phase == "wall" else []
        if any(len(way) > 1 for way in ways):
            break
        move = agent.choose(engine.variant_of(state), state, seat)
        await service.turns.move(CHANNEL, user, move.command, dict(move.choices()), interaction_id=ply)
    way = next(way for way in ways if len(way) > 1)
    wrong = [dict(way[0].choices()), dict(way[0].choices())]  # the first line twice: the second is illegal
    with pytest.raises(engine.EngineError):
        await service.turns.move(CHANNEL, user, "wall", wrong[0], then=wrong[1:], interaction_id=1000)
    assert (await service.tables.game(game_id)) == game, "a run that fails part-way saves nothing"
    run = [dict(move.choices()) for move in way]
    turn = await service.turns.move(CHANNEL, user, "wall", run[0], then=run[1:], interaction_id=1001)
    assert turn.game.version == game.version + len(way)
    assert sum(event.kind == "wall" and event.seat == seat for event in turn.events) >= len(way)
    with pytest.raises(Refusal, match="duplicate"):
        await service.turns.move(CHANNEL, user, "wall", run[0], then=run[1:], interaction_id=1001)
    saved = await service.tables.game(game_id)
    assert saved is not None and saved.version == turn.game.version
    assert (await service.store.moves.moves(game_id))[game.version :] == [(seat, str(move)) for move in way]
    assert engine.to_json(await service.tables.replayed(saved)) == saved.state


async def test_two_processes_racing_for_one_move_land_it_once(db_path: str) -> None:
    """Two stores on one database stand for two bot processes: the same version raced from both, and the same
    timer claimed from both; each lands exactly once."""
    stores = [await Store.open(db_path), await Store.open(db_path)]
    try:
        service = GameService(stores[0], seed_source=lambda: 99)
        game_id = await started(service)
        game = await service.tables.game(game_id)
        assert game is not None
        state = service.tables.state_of(game)
        seat = min(engine.to_act(state))
        move = engine.legal_moves(state, seat)[0]
        after = engine.to_json(engine.apply(state, seat, move)[0])

        async def record(store: Store, interaction: int) -> str:
            try:
                await store.moves.record_move(
                    game_id,
                    version=0,
                    seat=seat,
                    notation=str(move),
                    state=after,
                    interaction_id=interaction,
                    finished=None,
                )
            except Conflict as conflict:
                return conflict.reason
            return "saved"

        outcomes = await asyncio.gather(*(record(store, 1000 + n) for n, store in enumerate(stores * 4)))
        assert sorted(outcomes) == ["saved"] + ["version"] * 7
        assert await stores[1].moves.moves(game_id) == [(seat, str(move))]
        await stores[0].timers.schedule_timer(game_id, "remind", seat, 1, due_at="2020-01-01T00:00:00+00:00")
        (timer,) = [t for t in await stores[1].timers.due_timers("2020-01-02T00:00:00+00:00") if t.version == 1]
        at = "2020-01-02T00:00:00+00:00"
        claims = await asyncio.gather(*(store.timers.end_timer(timer.id, "done", at) for store in stores * 4))
        assert sorted(claims) == [False] * 7 + [True]
    finally:
        for store in stores:
            await store.close()


@pytest.mark.skipif(not PG_URL, reason="needs a PostgreSQL cluster (AZUL_TEST_PG)")
async def test_copy_db_moves_everything_into_postgresql(tmp_path: Path, db_path: str) -> None:
    source = str(tmp_path / "old.sqlite3")
    store = await Store.open(source)
    service = GameService(store, seed_source=lambda: 99)
    finished = await started(service)
    await play_to_the_end(service, finished)
    await service.seating.create(guild_id=1, channel_id=CHANNEL, user_id=100, name="p0", variant="azul", seats=2)
    await store.close()
    command = [sys.executable, "-m", "bot", "copy-db", source, db_path]
    copied = subprocess.run(command, capture_output=True, text=True, check=False)
    assert copied.returncode == 0, copied.stderr
    assert "2 games" in copied.stdout and "1 results" in copied.stdout, copied.stdout
    old, new = await Store.open(source), await Store.open(db_path)
    try:
        for game_id in (finished, finished + 1):
            assert await new.games.game(game_id) == await old.games.game(game_id)
            assert await new.moves.moves(game_id) == await old.moves.moves(game_id)
            assert await new.timers.timers_of(game_id) == await old.timers.timers_of(game_id)
        assert await new.results.results(channel_id=CHANNEL) == await old.results.results(channel_id=CHANNEL)
        assert await new.results.all_ratings() == await old.results.all_ratings()
        assert await new.results.all_rating_history() == await old.results.all_rating_history()
        fresh = await GameService(new, seed_source=lambda: 7).seating.create(
            guild_id=1, channel_id=CHANNEL + 1, user_id=5, name="x", variant="azul", seats=2
        )
        assert fresh.id == finished + 2  # ids go on after the copied ones
        again = subprocess.run(command, capture_output=True, text=True, check=False)
        assert again.returncode == 5 and "not empty" in again.stderr, again.stderr
    finally:
        await old.close()
        await new.close()


def test_shards_from_the_environment() -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert read_config(base).shard_count is None
    config = read_config({**base, "AZUL_SHARD_COUNT": "4", "AZUL_SHARD_IDS": "3, 1"})
    assert (config.shard_count, config.shard_ids) == (4, (1, 3))
    assert read_config({**base, "AZUL_SHARD_COUNT": "2"}).shard_ids is None
    for wrong, named in (
        ({"AZUL_SHARD_IDS": "0"}, "AZUL_SHARD_COUNT"),
        ({"AZUL_SHARD_COUNT": "0"}, "AZUL_SHARD_COUNT"),
        ({"AZUL_SHARD_COUNT": "2", "AZUL_SHARD_IDS": "2"}, "AZUL_SHARD_IDS"),
    ):
        with pytest.raises(ConfigError, match=named):
            read_config({**base, **wrong})
    pg = read_config({**base, "AZUL_DB": "postgresql://u@h/db"})
    assert (pg.db_path, pg.heartbeat_path) == ("postgresql://u@h/db", "azul.heartbeat")


async def test_work_is_claimed_by_one_process_until_its_lease_runs_out(db_path: str) -> None:
    first, second = await Store.open(db_path), await Store.open(db_path)
    try:
        at, later, after = "2030-01-01T00:00:00+00:00", "2030-01-01T00:02:00+00:00", "2030-01-01T00:03:00+00:00"
        wins = await asyncio.gather(
            *(store.timers.claim("computer:1", f"p{n % 2}", at, later) for n, store in enumerate([first, second] * 3))
        )
        assert wins.count(True) in (1, 3) and len({n % 2 for n, won in enumerate(wins) if won}) == 1
        holder, other = (first, second) if wins[0] else (second, first)
        owner, stranger = ("p0", "p1") if wins[0] else ("p1", "p0")
        assert await holder.timers.claim("computer:1", owner, at, later)  # the holder extends its lease
        assert not await other.timers.claim("computer:1", stranger, at, later)
        assert await other.timers.claim("computer:1", stranger, after, after)  # the holder died: its lease ran out
        await other.timers.release("computer:1", stranger)
        assert await holder.timers.claim("computer:1", owner, after, after)  # released: free again
    finally:
        await first.close()
        await second.close()


async def test_a_boards_claim_rides_on_its_games_row_and_a_newer_boards_takes_its_place(
    service: GameService,
) -> None:
    store, game_id = service.store, await started(service)
    game = await store.games.game(game_id)
    assert game is not None and game.state is not None
    at, later, after = "2030-01-01T00:00:00+00:00", "2030-01-01T00:02:00+00:00", "2030-01-01T00:03:00+00:00"
    first, second = f"board:{game_id}:1", f"board:{game_id}:2"
    record = {"seat": 0, "state": game.state, "interaction_id": None, "finished": None}
    await store.moves.record_moves(game_id, version=0, notations=["2w1"], claim=(first, "p0", later), **record)
    assert await store.timers.held_until(first, at) == later  # the move's own write took it
    assert not await store.timers.claim(first, "p1", at, later)
    assert await store.timers.claim(first, "p0", at, after)  # its holder renews it
    await store.moves.record_moves(game_id, version=1, notations=["2w1"], claim=(second, "p1", later), **record)
    assert await store.timers.held_until(first, at) is None  # the newer board's claim took its place
    assert not await store.timers.claim(first, "p0", at, later) and not await store.timers.claim(second, "p0", at, at)
    await store.timers.release(first, "p0")  # the superseded holder's release leaves the newer claim
    assert await store.timers.held_until(second, at) == later
    assert await store.games.set_board(game_id, 555, 2) == (True, None)
    assert await store.timers.held_until(second, at) is None  # recording the board ended it
    assert await store.timers.claim(second, "p0", at, later)
    await store.timers.release(second, "p0")
    assert await store.timers.held_until(second, at) is None


async def test_recording_a_board_gives_the_previous_one_whose_controls_go(service: GameService) -> None:
    games, game_id = service.store.games, await started(service)
    assert await games.set_board(game_id, 500, 1) == (True, None)  # the start's board was never recorded
    assert await games.set_board(game_id, 600, 2) == (True, 500)
    assert await games.set_board(game_id, 550, 1) == (False, 550)  # a newer board got there first: this one's go
    assert await games.set_board(game_id, 650, 2, again=True) == (True, 600)  # shown again, the newest message
    assert await games.set_board(game_id, 650, 2, again=True) == (True, None)  # itself: nothing to strip
    game = await games.game(game_id)
    assert game is not None and game.board_message_id == 650
    assert await games.set_board(game_id + 99, 700, 1) == (False, None)  # no such game
