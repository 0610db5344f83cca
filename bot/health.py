"""The heartbeat the connected bot keeps, and ``python -m bot health``, which a container health check runs.

While the bot is connected to Discord it rewrites a small JSON file every ``HEARTBEAT_SECONDS``; ``health`` exits 0
when the file is younger than three beats and 1 otherwise, with one line saying why. A hung event loop, a lost
gateway that does not come back, or a stopped bot all let the heartbeat age.
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
from typing import TYPE_CHECKING

from bot.config import HEARTBEAT_SECONDS, heartbeat_path_of

if TYPE_CHECKING:
    import discord

log = logging.getLogger(__name__)

EXIT_HEALTHY = 0
EXIT_UNHEALTHY = 1
MISSED_BEATS = 3


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
                except OSError as error:
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
    latency = beat.get("latency_ms")
    said = f", gateway latency {latency} ms" if latency is not None else ""
    return True, f"healthy: heartbeat {max(age, 0):.0f} s ago{said}"


def main(environ: Mapping[str, str]) -> int:
    healthy, line = check(Path(heartbeat_path_of(environ)), time.time())
    print(f"azul-bot health: {line}", file=sys.stdout if healthy else sys.stderr)
    return EXIT_HEALTHY if healthy else EXIT_UNHEALTHY
