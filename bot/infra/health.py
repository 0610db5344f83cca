"""The heartbeat the connected bot keeps, and ``python -m bot health``, which a container health check runs.

While the bot is connected to Discord it rewrites a small JSON file every ``HEARTBEAT_SECONDS``, with when each
background loop (:mod:`bot.infra.loops`) last completed a pass; ``health`` exits 0 when the file is younger than three
beats and no loop is overdue (no pass within its period plus ``LOOP_MARGIN_SECONDS``), and 1 otherwise, with one line
saying why. A hung event loop, a lost gateway that does not come back, a stopped bot, or a loop that keeps failing
(the database is unreachable, the disk is full) all make it unhealthy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.infra.config import HEARTBEAT_SECONDS, heartbeat_path_of

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

EXIT_HEALTHY = 0
EXIT_UNHEALTHY = 1
MISSED_BEATS = 3
LOOP_MARGIN_SECONDS = 120.0
"""How late a loop's pass may be, beyond its period, before the bot is unhealthy: a slow pass (many boards to post
after an outage) is not a dead loop."""


def is_connected(client: discord.Client) -> bool:
    ws = client.ws
    return client.is_ready() and not client.is_closed() and ws is not None and ws.open


def write_heartbeat(path: Path, client: discord.Client, now: float) -> None:
    """Replace the file in one step, so ``health`` never reads half a beat."""
    latency = client.latency
    beat = {
        "at": now,
        "user": client.user.id if client.user else None,
        "latency_ms": round(latency * 1000) if math.isfinite(latency) else None,
        "loops": {loop.name: loop.report() for loop in getattr(client, "loops", ())},
    }
    partial = path.with_name(path.name + ".new")
    partial.write_text(json.dumps(beat))
    os.replace(partial, path)


async def keep_heartbeat(client: discord.Client, path: str, every: float = HEARTBEAT_SECONDS) -> None:
    """Run until cancelled: a beat within a second of connecting, then every ``every`` seconds while connected.

    On the way out the file is removed, so a stopped bot is unhealthy at once.
    """
    target = Path(path)
    last = -math.inf
    try:
        while True:
            now = time.monotonic()
            if now - last >= every and is_connected(client):
                last = now
                try:
                    write_heartbeat(target, client, time.time())
                except Exception as error:  # a full disk must not end the heartbeat: it is tried again next beat
                    log.warning("cannot write the heartbeat file %s: %s", target, error)
            await asyncio.sleep(min(every, 1.0))
    finally:
        with contextlib.suppress(OSError):
            target.unlink()


def check(path: Path, now: float, max_age: float = MISSED_BEATS * HEARTBEAT_SECONDS) -> tuple[bool, str]:
    """Whether the heartbeat at ``path`` is fresh, and one line that says so or why not."""
    try:
        beat = json.loads(path.read_text())
        at = float(beat["at"])
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running, still starting, or not connected to Discord"
    except (OSError, ValueError, KeyError, TypeError) as error:
        return False, f"the heartbeat file {path} cannot be read ({error})"
    age = now - at
    if age > max_age:
        return False, f"the last heartbeat is {age:.0f} s old (limit {max_age:.0f} s): the bot is not connected or hung"
    overdue = overdue_loops(beat.get("loops") or {}, now)
    if overdue:
        return False, "overdue background loops: " + "; ".join(overdue)
    latency = beat.get("latency_ms")
    said = f", gateway latency {latency} ms" if latency is not None else ""
    loops = beat.get("loops") or {}
    return True, f"healthy: heartbeat {max(age, 0):.0f} s ago{said}, {len(loops)} background loops on time"


def overdue_loops(loops: dict[str, Any], now: float) -> list[str]:
    """Each loop that has not completed a pass within its period plus the margin, in words."""
    overdue = []
    for name, loop in sorted(loops.items()):
        try:
            every = float(loop["every"])
            since = loop.get("last_pass") or loop.get("started")
            if since is None:
                continue
            late = now - float(since)
        except (KeyError, TypeError, ValueError):
            overdue.append(f"{name} (unreadable)")
            continue
        if late > every + LOOP_MARGIN_SECONDS:
            failures = int(loop.get("failures") or 0)
            what = "never completed a pass" if loop.get("last_pass") is None else f"no pass for {late:.0f} s"
            overdue.append(f"{name}: {what} (every {every:.0f} s; {failures} failed passes in a row)")
    return overdue


def main(environ: Mapping[str, str]) -> int:
    healthy, line = check(Path(heartbeat_path_of(environ)), time.time())
    print(f"azul-bot health: {line}", file=sys.stdout if healthy else sys.stderr)
    return EXIT_HEALTHY if healthy else EXIT_UNHEALTHY
