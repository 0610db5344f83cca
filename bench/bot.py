"""``python -m bench bot``: the bot's move round trip through the emulated Discord, and how long the loop blocks.

Opens N live games (each in its own channel) and plays moves round-robin across them by slash command. A move's
round trip is the time from the interaction arriving to the new board (picture included) being posted, i.e. the
whole SimCord actor call, which returns once the bot has finished reacting. SimCord runs one user action at a time,
so the games are live concurrently (all open in the database, each move loading and saving its own game) while
their moves are interleaved. A watchdog thread measures the longest stretch the event loop could not run a
callback: pictures are drawn in worker threads, so it should stay small.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from engine.agents import GreedyAgent
from tests.bot.loop_watchdog import LoopWatchdog


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def open_game(channel: Any, users: list[Any]) -> None:
    await users[0].slash(channel, "azul new", variant="azul", seats=2, order="joined")
    await users[1].slash(channel, "azul join")
    await users[0].slash(channel, "azul start")


async def open_games(env: Any, count: int) -> list[tuple[Any, list[Any]]]:
    guild = env.create_guild()
    users = [guild.add_member(env.create_user(f"player{i}")) for i in range(2)]
    tables = []
    for index in range(count):
        channel = guild.create_text_channel(f"game-{index}")
        await open_game(channel, users)
        tables.append((channel, users))
    return tables


async def play_round_robin(env: Any, tables: list[tuple[Any, list[Any]]], moves_per_game: int) -> list[float]:
    service = env.bot.service
    agent = GreedyAgent(1)
    timings: list[float] = []
    for _ in range(moves_per_game):
        for channel, users in tables:
            game = await service.store.games.open_game_in(channel.id)
            if game is None:  # finished: the table starts a new game (untimed) and the next move is timed
                await open_game(channel, users)
                game = await service.store.games.open_game_in(channel.id)
                if game is None:
                    raise RuntimeError("a new game could not be opened")
            state = service.tables.state_of(game)
            seat = min(engine.to_act(state))
            move = agent.choose(engine.variant_of(state), state, seat)
            user = next(u for u in users if u.id == game.by_seat()[seat].user_id)
            started = time.perf_counter()
            result = await user.slash(channel, f"azul {move.command}", **dict(move.choices()))
            timings.append(time.perf_counter() - started)
            if not result.response.content.startswith("Played"):
                raise RuntimeError(f"move refused: {result.response.content}")
    return timings


async def measure(games: int, moves_per_game: int) -> tuple[list[float], float]:
    import simcord

    from bot.client import create_bot

    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.sqlite3"))
        async with simcord.run(bot) as env:
            tables = await open_games(env, games)
            with LoopWatchdog(asyncio.get_running_loop()) as watchdog:
                timings = await play_round_robin(env, tables, moves_per_game)
        await bot.close_store()
    return timings, watchdog.longest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench bot", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100], help="live games (default: 1 100)")
    parser.add_argument("--moves", type=int, default=400, help="moves to time per run (default: 400)")
    args = parser.parse_args(argv)
    print(f"{'live games':>10} {'moves':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'loop blocked ms':>16}")
    for games in args.games:
        per_game = max(1, args.moves // games)
        timings, blocked = asyncio.run(measure(games, per_game))
        if not timings:
            print(f"{games:>10} no moves were played")
            continue
        ms = [t * 1000 for t in timings]
        print(
            f"{games:>10} {len(ms):>6} {statistics.median(ms):>8.1f} {percentile(ms, 0.95):>8.1f}"
            f" {max(ms):>8.1f} {blocked * 1000:>16.1f}"
        )
    return 0
