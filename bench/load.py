"""``python -m bench load``: the real bot under load, over the wire, against the fake Discord on localhost.

For each number of interactions in flight K, a fresh bot process (``python -m bot``, started by
:func:`tests.bot.bot_process.spawn`) serves N started games, each in its own channel; K clients send greedy moves as
slash commands over the gateway, one game at a time each (so the board posted in a game's channel after a move was sent
is that move's board). Printed: moves per second, interaction → board posted (p50/p95/p99), the first reply (Discord
needs one within 3 s: p99; a quick move's whole answer, a slow one's deferral), the longest the bot's event loop was
blocked, and the CPU time the bot processes themselves spent per acknowledged move (their worker processes not counted),
and of it the main thread's, where the event loop runs: unlike the times, they hardly depend on how busy the machine is,
and they say how many moves one interpreter can carry; the bytes the bot processes wrote to storage per move (the
database, its WAL and logs; counted until each process has exited, so the checkpoint it still owed its database on
closing it is counted with the moves that made it); and the CPU this process spent per move meanwhile (the fake
Discord and its players, on the same cores: what a rate measured here leaves to the bot).
``--targets`` then prints the speed targets' table (:mod:`bench.targets`): this run's figures at 16 in flight beside
the statements and loads of a move counted in SimCord and a cold start.

``--db`` names the store: ``sqlite`` (a fresh file per run, the default) or a PostgreSQL URL (a fresh schema per run,
e.g. from ``python -m tests.pgcluster start DIR``). ``--picture-workers`` sets each bot's ``AZUL_PICTURE_WORKERS`` (0,
the default: pictures drawn in a thread of the bot's process). ``--processes`` starts several bot processes sharing the
store, the shards split between them (``AZUL_SHARD_COUNT``/``AZUL_SHARD_IDS``); the fake Discord hands each interaction
to one of them in turn. ``--kill`` SIGKILLs the first process halfway through each run and starts it again: the table
then says how many acknowledged moves were lost or saved twice, and whether every game's newest board was posted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.bot import percentile
from bench.targets import LoadFigures, load_figures, print_table
from bot.__main__ import event_loop_factory


@dataclass
class Timings:
    board: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    refused: int = 0
    lost: int = 0
    acknowledged: list[str] = field(default_factory=list)
    bot_cpu: float = float("nan")  # seconds of CPU the bot processes (not their workers) spent during the run
    loop_cpu: float = float("nan")  # … of which their main threads, where the event loop runs
    written: float = float("nan")  # bytes the bot processes had written to storage (Linux's write_bytes)
    harness_cpu: float = float("nan")  # seconds of CPU this process spent meanwhile: the fake Discord and its players


def bot_env(db: str, folder: Path, number: int, processes: int, picture_workers: int = 0) -> dict[str, str]:
    from bot.infra.config import Config
    from tests.bot.fake_discord import GOOD_TOKEN

    shards = {"AZUL_SHARD_COUNT": str(processes), "AZUL_SHARD_IDS": str(number)} if processes > 1 else {}
    return {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "AZUL_DB": db,
        "AZUL_REMIND_HOURS": f"{Config.remind_hours:g}",  # the default: every move cancels a reminder and sets one
        "AZUL_LOG_LEVEL": "WARNING",
        "AZUL_LOOP_WATCH": str(folder / "loop-block"),
        "AZUL_HEARTBEAT_FILE": str(folder / f"heartbeat-{number}"),
        "AZUL_PICTURE_WORKERS": str(picture_workers),
        **shards,
    }


async def start_bot(  # type: ignore[no-untyped-def]
    server, db: str, folder: Path, number: int, processes: int, *, pictures: int
) -> subprocess.Popen[bytes]:
    from tests.bot.bot_process import spawn

    before = server.identifies
    bot = spawn(
        server.api,
        server.gateway_url,
        bot_env(db, folder, number, processes, pictures),
        log=folder / f"bot-{number}.log",
    )
    while server.identifies == before:
        if bot.poll() is not None:
            raise RuntimeError(f"the bot exited: {(folder / f'bot-{number}.log').read_text()[-2000:]}")
        await asyncio.sleep(0.05)
    return bot


async def start_bots(  # type: ignore[no-untyped-def]
    server, db: str, processes: int, folder: Path, pictures: int
) -> tuple[list[subprocess.Popen[bytes]], Path]:
    bots = [await start_bot(server, db, folder, number, processes, pictures=pictures) for number in range(processes)]
    return bots, folder / "loop-block"


async def wait_for_boards(db: str) -> None:
    from tests.bot import wire_games as wire

    for _ in range(1200):
        games = await asyncio.to_thread(wire.read_games, db)
        if all(game.board_version >= 0 for game in games):
            return
        await asyncio.sleep(0.05)
    raise RuntimeError("the opening boards were not posted")


async def client(server, games, channels: list[int], budget: list[int], timings: Timings) -> None:  # type: ignore[no-untyped-def]
    """Play ``channels`` in turn, a move at a time, reading each game (through the reader ``games``) before its move."""
    from tests.bot import wire_games as wire

    turn = 0
    while budget[0] > 0 and channels:
        budget[0] -= 1  # before any await, so the clients together send exactly the budget
        channel = channels[turn % len(channels)]
        turn += 1
        game = await asyncio.to_thread(games.game_in, channel)
        moves = wire.moves_now(game)
        if not moves:
            channels.remove(channel)
            budget[0] += 1
            continue
        user, move = moves[0]
        posts_before = len(server.posted.get(str(channel), []))
        interaction = await wire.send_move(server, game, user, move)
        said = await wire.answer(server, interaction, timeout=60)
        answered = server.answers[interaction]
        if not wire.played(said):
            timings.refused += said is not None
            timings.lost += said is None
            continue
        timings.acknowledged.append(interaction)
        posts = server.posted.get(str(channel), [])[posts_before:]
        if answered.first is not None:
            timings.first.append(answered.first - answered.sent)
        if posts:
            timings.board.append(posts[0].at - answered.sent)


def cpu_seconds(pid: int, *, loop_only: bool = False) -> float:
    """The CPU time (user and system) one process has used so far, its children's not included; with ``loop_only``,
    only its main thread's, the one that runs the event loop (pictures and SQLite work in other threads)."""
    stat = f"/proc/{pid}/task/{pid}/stat" if loop_only else f"/proc/{pid}/stat"
    try:
        fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    except OSError:  # gone, or no /proc on this system
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bytes_at_exit(process: subprocess.Popen[bytes], timeout: float = 20) -> float:
    """The bytes ``process`` caused to be written by the time it exited (exited, not yet reaped: its /proc entry
    still says), or NaN when it has not exited within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return bytes_written(process.pid)
        time.sleep(0.02)
    return float("nan")


def bytes_written(pid: int) -> float:
    """The bytes one process has caused to be written to storage so far (Linux's /proc/PID/io), or NaN."""
    try:
        lines = Path(f"/proc/{pid}/io").read_text().splitlines()
    except OSError:
        return float("nan")
    return next((float(line.split()[1]) for line in lines if line.startswith("write_bytes:")), float("nan"))


def longest_block(watch: Path, since: float) -> float:
    """The longest event-loop block (seconds) the bots reported since ``since``: start-up is not load."""
    if not watch.exists():
        return float("nan")
    reports = [line.split() for line in watch.read_text().splitlines() if line.strip()]
    return max((float(block) for at, block in reports if float(at) >= since), default=float("nan"))


@dataclass
class Survival:
    """After a process was killed and restarted: acknowledged moves missing from the log or in it twice, and games
    whose newest board was never posted."""

    lost: int
    doubled: int
    without_board: int


def fresh_database(db: str | None, folder: Path) -> str:
    if db is None or db == "sqlite":
        return str(folder / "load.sqlite3")
    from tests.pgcluster import fresh_schema

    return fresh_schema(db)


async def kill_and_restart(
    server, bots, db: str, folder: Path, *, budget: list[int], half: int, processes: int, pictures: int
) -> None:  # type: ignore[no-untyped-def]
    while budget[0] > half:
        await asyncio.sleep(0.02)
    bots[0].send_signal(signal.SIGKILL)
    await asyncio.to_thread(bots[0].wait, 20)
    await asyncio.sleep(1.0)  # the survivors carry the load alone for a moment
    bots[0] = await start_bot(server, db, folder, 0, processes, pictures=pictures)


async def survival(db: str, timings: Timings) -> Survival:
    from tests.bot import wire_games as wire

    for _ in range(600):  # the restarted process posts the boards its predecessor left unposted
        games = await asyncio.to_thread(wire.read_games, db)
        if all(game.board_version >= game.version for game in games):
            break
        await asyncio.sleep(0.1)
    logged: dict[int, int] = {}
    for game in games:
        for _, _, interaction in await asyncio.to_thread(wire.moves_of, db, game.id):
            if interaction is not None:
                logged[interaction] = logged.get(interaction, 0) + 1
    acknowledged = [int(i) for i in timings.acknowledged]
    return Survival(
        lost=sum(1 for i in acknowledged if i not in logged),
        doubled=sum(1 for count in logged.values() if count > 1),
        without_board=sum(1 for game in games if game.board_version < game.version),
    )


async def measure(
    games: int, in_flight: int, moves: int, db: str | None, processes: int, *, kill: bool = False, pictures: int = 0
) -> tuple[Timings, float, float, Survival | None]:
    from tests.bot import wire_games as wire
    from tests.bot.fake_discord import FakeDiscord

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        path = fresh_database(db, folder)
        await wire.prepare_games(path, games)
        server = FakeDiscord()
        await server.start()
        bots, watch = await start_bots(server, path, processes, folder, pictures)
        outcome = None
        written_before: list[float] = []
        reader = wire.Reader(path)
        try:
            await wait_for_boards(path)
            timings = Timings()
            budget = [moves]
            first = wire.FIRST_CHANNEL
            shares = [[first + g for g in range(games) if g % in_flight == k] for k in range(in_flight)]
            started, since = time.perf_counter(), time.time()
            cpu_before = [cpu_seconds(bot.pid) for bot in bots]
            harness_before = cpu_seconds(os.getpid())
            loop_before = [cpu_seconds(bot.pid, loop_only=True) for bot in bots]
            written_before = [bytes_written(bot.pid) for bot in bots]
            killer = (
                [
                    kill_and_restart(
                        server,
                        bots,
                        path,
                        folder,
                        budget=budget,
                        half=moves // 2,
                        processes=processes,
                        pictures=pictures,
                    )
                ]
                if kill
                else []
            )
            await asyncio.gather(*(client(server, reader, share, budget, timings) for share in shares), *killer)
            elapsed = time.perf_counter() - started
            timings.harness_cpu = cpu_seconds(os.getpid()) - harness_before
            if not kill:  # a killed process's CPU time is lost with it
                timings.bot_cpu = sum(
                    cpu_seconds(bot.pid) - before for bot, before in zip(bots, cpu_before, strict=True)
                )
                timings.loop_cpu = sum(
                    cpu_seconds(bot.pid, loop_only=True) - before for bot, before in zip(bots, loop_before, strict=True)
                )
            await asyncio.sleep(0.6)  # the watchdog's last report
            blocked = longest_block(watch, since)
            if kill:
                outcome = await survival(path, timings)
        finally:
            reader.close()
            for bot in bots:
                bot.send_signal(signal.SIGTERM)
            written_after = [await asyncio.to_thread(bytes_at_exit, bot) for bot in bots]
            if written_before and not kill:  # to each process's exit: the checkpoint it owed on closing is its moves'
                timings.written = sum(a - b for a, b in zip(written_after, written_before, strict=True))
            for bot in bots:
                await asyncio.to_thread(bot.wait, 20)
            await server.stop()
    return timings, elapsed, blocked, outcome


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench load", description=__doc__.splitlines()[0])
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 16, 64], help="K (default: 1 16 64)")
    parser.add_argument("--games", type=int, default=64, help="N started games (default 64; at least K)")
    parser.add_argument("--moves", type=int, default=400, help="moves per run (default 400)")
    parser.add_argument("--db", default=None, help="sqlite (a fresh file per run, the default) or postgresql://…")
    parser.add_argument("--processes", type=int, default=1, help="bot processes sharing the store (default 1)")
    parser.add_argument(
        "--picture-workers", type=int, default=0, help="each bot's AZUL_PICTURE_WORKERS (default 0: a thread)"
    )
    parser.add_argument("--kill", action="store_true", help="SIGKILL the first process halfway and restart it")
    parser.add_argument(
        "--targets",
        action="store_true",
        help="then print the speed targets' table: this run's figures at 16 in flight, the statements and loads of"
        " a move counted in SimCord, and a cold start",
    )
    args = parser.parse_args(argv)
    if args.targets and 16 not in args.in_flight:
        args.in_flight = [*args.in_flight, 16] if "--in-flight" in argv else [16]
    at_16: LoadFigures | None = None
    store = "sqlite" if args.db in (None, "sqlite") else "postgresql"
    if store == "sqlite" and args.processes > 1:
        parser.error("several bot processes share a PostgreSQL store (--db postgresql://…), never one SQLite file")
    drawing = f"{args.picture_workers} picture worker(s) each" if args.picture_workers else "pictures in a thread"
    print(
        f"store: {store}, {args.processes} bot process(es), {drawing}"
        + (", the first killed halfway" if args.kill else "")
    )
    print(
        f"{'in flight':>9} {'games':>5} {'moves':>5} {'moves/s':>8} {'board p50':>9} {'p95':>7} {'p99':>7}"
        f" {'1st reply p99':>13} {'loop block':>10} {'refused':>7} {'lost':>4} {'bot CPU/move':>12}"
        f" {'loop CPU/move':>13} {'KB written/move':>15} {'harness CPU/move':>16}   (times in ms)"
        + ("   acked lost, doubled, no board" if args.kill else "")
    )
    for in_flight in args.in_flight:
        games = max(args.games, in_flight)
        # The fake Discord and its players on the bot's own event loop (uvloop): on asyncio's, its sockets and
        # wake-ups cost this process CPU that the bot on the same cores would otherwise have.
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            timings, elapsed, blocked, outcome = runner.run(
                measure(
                    games, in_flight, args.moves, args.db, args.processes, kill=args.kill, pictures=args.picture_workers
                )
            )
        board = [t * 1000 for t in timings.board] or [float("nan")]
        acked = max(1, len(timings.acknowledged))
        first = [t * 1000 for t in timings.first] or [float("nan")]
        print(
            f"{in_flight:>9} {games:>5} {len(timings.board):>5} {len(timings.board) / elapsed:>8.1f}"
            f" {statistics.median(board):>9.0f} {percentile(board, 0.95):>7.0f} {percentile(board, 0.99):>7.0f}"
            f" {percentile(first, 0.99):>13.0f} {blocked * 1000:>10.0f} {timings.refused:>7} {timings.lost:>4}"
            f" {timings.bot_cpu * 1000 / acked:>12.1f} {timings.loop_cpu * 1000 / acked:>13.1f}"
            f" {timings.written / 1024 / acked:>15.1f} {timings.harness_cpu * 1000 / acked:>16.1f}"
            + (f"   {outcome.lost}, {outcome.doubled}, {outcome.without_board}" if outcome is not None else "")
        )
        if in_flight == 16:
            per_move = (timings.bot_cpu * 1000 / acked, timings.loop_cpu * 1000 / acked, timings.written / 1024 / acked)
            at_16 = load_figures(board, len(timings.board), elapsed, per_move)
    if args.targets and at_16 is not None:
        print_table(at_16)
    return 0
