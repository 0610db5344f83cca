"""Background loops that never die: each runs its pass every ``every`` seconds, and whatever a pass raises is logged
and retried, sooner at first (1 s, 2 s, 4 s … up to the loop's own period), so a full disk or a database outage
costs passes, never the loop.

Each loop knows when it last completed a pass; the heartbeat (:mod:`bot.infra.health`) writes that down, and
``python -m bot health`` turns unhealthy when a loop is overdue. A failing loop logs one error when it begins to fail
and one line when it recovers, not one per pass.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from discord.ext import tasks

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 1.0
"""The first retry after a failed pass; each further failure doubles it, up to the loop's period."""


class Loop:
    """One supervised background loop: ``start`` runs ``body`` now and then every ``every`` seconds (after
    ``before``, e.g. waiting for the gateway), until ``cancel``. It runs on discord.py's ``tasks.Loop`` (its
    scheduling, and the emulated Discord of the tests knows its sleeps); the supervision is :meth:`run_once`."""

    def __init__(
        self,
        name: str,
        body: Callable[[], Awaitable[Any]],
        every: float,
        *,
        before: Callable[[], Awaitable[Any]] | None = None,
    ) -> None:
        self.name = name
        self.body = body
        self.every = every
        self.passes = 0
        """Completed passes since the start (a pass that raised does not count)."""
        self.failures = 0
        """Failed passes in a row; 0 while the loop is well."""
        self.last_pass: float | None = None
        """When the last pass completed (wall time), None before the first."""
        self.started: float | None = None
        self._loop: tasks.Loop[Any] = tasks.loop(seconds=every)(self._pass)
        if before is not None:
            self._loop.before_loop(before)  # type: ignore[type-var]

    async def _pass(self) -> None:
        pause = await self.run_once()
        if pause != self._loop.seconds:
            self._loop.change_interval(seconds=pause)

    def change_interval(self, *, seconds: float) -> None:
        self.every = seconds
        self._loop.change_interval(seconds=seconds)

    def is_running(self) -> bool:
        return self._loop.is_running()

    def start(self) -> None:
        if not self.is_running():
            self.started = time.time()
            self._loop.start()

    def cancel(self) -> None:
        self._loop.cancel()

    def report(self) -> dict[str, Any]:
        """What the heartbeat records of this loop."""
        return {"every": self.every, "last_pass": self.last_pass, "started": self.started, "failures": self.failures}

    async def run_once(self) -> float:
        """One pass; returns how long to wait before the next."""
        try:
            await self.body()
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failures += 1
            retry = min(self.every, FIRST_RETRY_SECONDS * 2.0 ** (self.failures - 1))
            if self.failures == 1:
                log.exception("the %s loop failed; it keeps running and retries in %.0f s", self.name, retry)
            else:
                log.debug("the %s loop failed again (%d in a row)", self.name, self.failures, exc_info=True)
            return retry
        if self.failures:
            log.warning("the %s loop works again after %d failed passes", self.name, self.failures)
        self.failures = 0
        self.passes += 1
        self.last_pass = time.time()
        return self.every


__all__ = ["FIRST_RETRY_SECONDS", "Loop"]
