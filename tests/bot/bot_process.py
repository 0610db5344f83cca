"""The real bot (``python -m bot``) as a separate process, pointed at a fake Discord on localhost.

``python -m tests.bot.bot_process API_URL GATEWAY_URL`` runs :func:`bot.__main__.main` unchanged, configured by the
environment as in production (``DISCORD_TOKEN``, ``AZUL_DB``, ...), after pointing discord.py's REST base and gateway
at the fake. ``AZUL_LOOP_WATCH=FILE`` also appends, twice a second, the time and the longest event-loop block
(seconds) of the last half second to FILE, for ``python -m bench load``. :func:`spawn` starts one; the crash test and
the load benchmark use it, and a benchmark against another store can start several with another ``AZUL_DB``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
IMAGE_ENV = {"SSL_CERT_FILE": "/dev/null", "SSL_CERT_DIR": "/etc/ssl/certs"}
"""The runtime image's TLS setting (the Dockerfile's ``ENV``; ``tests/test_docker.py`` checks they agree), for a
start timed as the image starts (``python -m bench startup``)."""


def spawn(
    api: str,
    gateway: str,
    env: dict[str, str],
    *,
    log: Path | None = None,
    own_group: bool = False,
    wrapper: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    """Start the bot process; its output goes to ``log`` (or nowhere). With ``own_group`` it leads a process group
    of its own, so ``os.killpg`` ends it with its worker processes, as when its machine dies. ``wrapper`` runs it
    under another program (``valgrind …``), which must keep its process id."""
    out: Any = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
    return subprocess.Popen(
        [*wrapper, sys.executable, "-m", "tests.bot.bot_process", api, gateway],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=out,
        stderr=out,
        start_new_session=own_group,
    )


def watch_loop(path: str) -> None:
    """Wrap the bot's ``run`` so a watchdog measures how long its event loop is blocked."""
    import bot.__main__ as entry
    from tests.bot.loop_watchdog import LoopWatchdog

    original = entry.run

    async def run(config: Any, **options: Any) -> int:
        with LoopWatchdog(asyncio.get_running_loop()) as watchdog:

            async def report() -> None:
                with open(path, "a", buffering=1) as out:
                    while True:
                        await asyncio.sleep(0.5)
                        out.write(f"{time.time()} {watchdog.longest}\n")
                        watchdog.longest = 0.0

            reporter = asyncio.create_task(report())
            try:
                return await original(config, **options)
            finally:
                reporter.cancel()

    entry.run = run


def main(argv: list[str]) -> int:
    # As in the image, where ``azul-bot`` pauses the collector before discord.py is imported (bot.__main__.start):
    # imported here first, discord.py would pay the collections the real start-up does not.
    gc.disable()
    from bot.infra import dataclass_cache

    dataclass_cache.install()  # as azul-bot does before it imports discord.py, whose dataclasses it then takes too
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    api, gateway = argv
    Route.BASE = api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    if os.environ.get("AZUL_LOOP_WATCH"):
        watch_loop(os.environ["AZUL_LOOP_WATCH"])
    from bot.__main__ import main as bot_main

    return bot_main([])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
