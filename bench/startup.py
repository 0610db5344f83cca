"""``python -m bench startup``: how long the bot takes from its process starting to its first answered interaction.

Each run starts the real bot (``python -m bot`` through :mod:`tests.bot.bot_process`) on a new database against the
fake Discord on localhost, sends ``/azul-help`` as soon as the bot has identified on the gateway, and times the
process's start to Discord receiving the answer (the interaction callback). Two ways of starting are measured:

- ``with .pyc``: the bytecode is already compiled (what the image ships since it precompiles at build time);
- ``no .pyc``: every source file is compiled again and nothing is written, as in an image whose runtime user cannot
  write ``__pycache__`` and that was built without precompiling.

Both run with the image's TLS setting (:data:`IMAGE_ENV`, as the Dockerfile sets it: certificates looked up in the
system's folder rather than the whole bundle parsed for each of aiohttp's TLS contexts); ``--host-tls`` leaves the
host's own.

``--games N`` starts it instead as a restart would: on a database that already holds N started two-player games
(their boards posted), which the start-up sweep reads before the bot connects (a game's row checked, its timers
synced); without it, each start is a new bot's first, on a new database.

Printed: each way's median and best over ``--runs`` starts, and when the first answer came relative to the gateway's
identify (what the bot still does after connecting). Timings are wall clock, which a busy host inflates;
the bot process's CPU time by its first answer (user + system, from /proc) is printed beside them.

``--instructions`` counts instead, for one start with .pyc: the instructions the bot process ran by its first answer,
under valgrind's callgrind (about a minute; ``apt-get install valgrind``). The count moves by a few hundredths of a
percent from start to start whatever else the host runs, so it compares two versions where timings cannot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bot.bot_process import IMAGE_ENV, spawn
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

GUILD, CHANNEL, USER = 7001, 7002, 7003


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far, from Linux's /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one_start(folder: Path, extra_env: dict[str, str], *, counted: bool = False) -> tuple[float, float, float]:
    """Start a bot, ask it for help, and return (start → first answer, start → identify, the bot's CPU seconds by
    its answer); ``counted``: under callgrind, and the instructions it ran by its answer instead of the CPU."""
    discord = FakeDiscord()
    await discord.start()
    env = {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "AZUL_DB": str(folder / "azul.sqlite3"),
        "AZUL_REMIND_HOURS": "0",
        "AZUL_LOG_LEVEL": "WARNING",
        "AZUL_HEARTBEAT_FILE": str(folder / "heartbeat"),
        **extra_env,
    }
    counts = folder / "callgrind.out"
    wrapper = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}") if counted else ()
    started = time.perf_counter()
    process = spawn(discord.api, discord.gateway_url, env, log=folder / "bot.log", wrapper=wrapper)
    patience = COUNTED_PATIENCE if counted else 60
    try:
        await asyncio.wait_for(discord.identified.wait(), timeout=patience)
        identified = time.perf_counter() - started
        interaction = await discord.interaction(
            2,
            {"id": "1", "name": "azul-help", "type": 1},
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=USER,
            locale="pl",
        )
        await discord.wait_for("POST", f"/interactions/{interaction}/", timeout=patience)
        answered = time.perf_counter() - started
        if counted:  # callgrind writes what it counted so far to a file of its own (callgrind.out.1)
            dump = ["callgrind_control", "--dump", str(process.pid)]
            await asyncio.to_thread(subprocess.run, dump, check=True, capture_output=True)
            return answered, identified, instructions(counts.with_name(f"{counts.name}.1"))
        return answered, identified, cpu_seconds(process.pid)
    finally:
        process.terminate()
        await asyncio.to_thread(process.wait, patience)
        await discord.stop()


COUNTED_PATIENCE = 600
"""Seconds a start under callgrind may take to connect and to answer (it runs about fifty times slower)."""


def instructions(dump: Path) -> float:
    """The instructions a callgrind dump counted (its ``summary:`` line)."""
    for line in dump.read_text().splitlines():
        if line.startswith("summary:"):
            return float(line.split()[1])
    raise ValueError(f"{dump} holds no summary")


async def counted_start(games: int) -> float:
    """One start with .pyc under callgrind, on a new database (or one with ``games`` open games): the instructions
    the bot ran by its first answer."""
    with tempfile.TemporaryDirectory() as folder:
        if games:
            await restart_database(Path(folder) / "azul.sqlite3", games)
        return (await one_start(Path(folder), IMAGE_ENV, counted=True))[2]


async def restart_database(path: Path, games: int) -> None:
    """A database as a restart finds it: ``games`` started games, each with its board posted."""
    from tests.bot.wire_games import prepare_games

    await prepare_games(str(path), games)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET board_version = version")


async def measure(
    runs: int, compiled: bool, image_tls: bool = True, *, games: int = 0
) -> list[tuple[float, float, float]]:
    if compiled:  # bytecode may be written (as where it is already), so a first start writes what is missing
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    results = []
    with tempfile.TemporaryDirectory() as prepared:
        template = Path(prepared) / "azul.sqlite3"
        if games:  # made once: every start gets a copy as it was
            await restart_database(template, games)
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as folder:
                if games:
                    shutil.copyfile(template, Path(folder) / "azul.sqlite3")
                # An empty cache prefix that nothing may write to: every import compiles its source again.
                extra = {} if compiled else {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": folder + "/no-pyc"}
                results.append(await one_start(Path(folder), (IMAGE_ENV if image_tls else {}) | extra))
    return results


def report(name: str, results: list[tuple[float, float, float]]) -> None:
    answers = [answer for answer, _, _ in results]
    after_identify = [answer - identified for answer, identified, _ in results]
    cpu = [used for _, _, used in results]
    print(
        f"{name:<10} first answer median {statistics.median(answers):.3f} s, best {min(answers):.3f} s "
        f"(after the gateway's identify: {statistics.median(after_identify):.3f} s); "
        f"the bot's CPU by then: median {statistics.median(cpu):.2f} s, best {min(cpu):.2f} s"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="starts per way (default 5)")
    parser.add_argument("--host-tls", action="store_true", help="the host's TLS setting, not the image's")
    parser.add_argument("--games", type=int, default=0, help="restart on a database with this many open games")
    parser.add_argument(
        "--instructions", action="store_true", help="count the instructions of one start under callgrind instead"
    )
    args = parser.parse_args(argv)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("--instructions runs the bot under valgrind: install it (apt-get install valgrind)", file=sys.stderr)
            return 2
        counted = asyncio.run(counted_start(args.games))
        where = f"a database with {args.games} open games" if args.games else "a new database"
        print(f"instructions the bot ran by its first answer (with .pyc, {where}): {counted / 1e6:.1f} million")
        return 0
    tls = "the host's TLS setting" if args.host_tls else "the image's TLS setting"
    database = f"a database with {args.games} open games" if args.games else "a new database"
    print(f"start-up to the first answered interaction, {args.runs} starts each (wall clock), {tls}, {database}:")
    for name, compiled in (("with .pyc", True), ("no .pyc", False)):
        report(name, asyncio.run(measure(args.runs, compiled, image_tls=not args.host_tls, games=args.games)))
    return 0
