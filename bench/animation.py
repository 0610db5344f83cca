"""``python -m bench animation [--game azul] [--clicks 6]``: the bot's memory when several people ask for one game's
animation at the same moment.

Each way runs in a fresh interpreter (so one does not inherit the other's peak) with the bot's picture code and no
picture workers (``AZUL_PICTURE_WORKERS=0``, the default), for a recorded 4-player game (``tests/render/games``):
- ``each``: how the bot drew before: every click draws its own GIF in a thread of the bot's process;
- ``shared``: :meth:`bot.app.pictures.Pictures.animation`: one drawing shared by every click, in a process of its own.
Printed per way: the bot process's resident memory after start-up, its peak, the peak of the largest worker process,
the GIFs drawn and the wall time. Run it with ``nice -n 19``: it draws whole games.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import engine
from bench.replay import NAMES, recorded_game
from bot.app.pictures import Pictures
from bot.infra.picture_worker import animation_in_worker
from bot.infra.store import GameRow, Seat
from render.animation import MAX_BYTES

WAYS = ("each", "shared")


def memory_mb(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (peak) of this process, in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def game_row(game: str) -> tuple[GameRow, list[tuple[int, str]]]:
    g = recorded_game(game)
    players = g["players"]
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        creator_id=1000,
        variant=g["variant"],
        options={},
        seed=g["seed"],
        max_seats=players,
        seat_order="joined",
        status="over",
        version=len(g["moves"]),
        state=None,
        result=None,
        lobby_message_id=None,
        board_message_id=None,
        created_at="",
        turn_since="",
        seats=tuple(Seat(1000 + n, NAMES[n], n, n) for n in range(players)),
    )
    return row, g["moves"]


async def shared(game: str, clicks: int) -> int:
    row, moves = game_row(game)
    names = list(NAMES[: len(row.seats)])
    pictures = Pictures(0)
    pictures.start()
    try:
        gifs = await asyncio.gather(*(pictures.animation(row, moves, names, "en", MAX_BYTES) for _ in range(clicks)))
    finally:
        await pictures.close()
    return len(set(gifs))


def each(game: str, clicks: int) -> int:
    row, moves = game_row(game)
    names = list(NAMES[: len(row.seats)])
    work = (row.variant, len(row.seats), row.seed, moves, None, names, "en", MAX_BYTES)
    with ThreadPoolExecutor(clicks) as threads:
        gifs = list(threads.map(lambda _: animation_in_worker(*work), range(clicks)))
    return len(gifs)


def child(way: str, game: str, clicks: int) -> None:
    engine.variant_names()  # the registry, as a running bot has it (it is built on first use, not thread-safe)
    before = memory_mb("VmRSS")
    start = time.perf_counter()
    drawn = asyncio.run(shared(game, clicks)) if way == "shared" else each(game, clicks)
    took = time.perf_counter() - start
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{way:<8} {game:<16} {clicks:>6} {before:>8.0f}MB {memory_mb('VmHWM'):>8.0f}MB {worker:>8.0f}MB "
        f"{drawn:>5} {took:>7.1f}s"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench animation")
    parser.add_argument("--game", default="azul", help="a recorded game: azul, summer-pavilion, queens-garden")
    parser.add_argument("--clicks", type=int, default=6)
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated, from: " + ", ".join(WAYS))
    parser.add_argument("--child", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.game, args.clicks)
        return 0
    print(
        f"{'way':<8} {'game':<16} {'clicks':>6} {'bot rss':>10} {'bot peak':>10} {'worker':>10} {'gifs':>5} {'time':>8}"
    )
    for way in args.ways.split(","):
        command = [sys.executable, "-m", "bench", "animation", "--child", way, "--game", args.game]
        subprocess.run([*command, "--clicks", str(args.clicks)], check=True)
    return 0
