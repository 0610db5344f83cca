"""Background loops that never die: each runs its pass every ``every`` seconds, and whatever a pass raises is logged
and retried, sooner at first (1 s, 2 s, 4 s … up to the loop's own period), so a full disk or a database outage
costs passes, never the loop.

Each loop knows when it last completed a pass; the heartbeat (:mod:`bot.health`) writes that down, and
``python -m bot health`` turns unhealthy when a loop is overdue. A failing loop logs one error when it begins to fail
and one line when it recovers, not one per pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 1.0
"""The first retry after a failed pass; each further failure doubles it, up to the loop's period."""


class Loop:
    """One supervised background loop: ``start`` runs ``body`` now and then every ``every`` seconds (after
    ``before``, e.g. waiting for the gateway), until ``stop``."""

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
        self.before = before
        self.passes = 0
        """Completed passes since the start (a pass that raised does not count)."""
        self.failures = 0
        """Failed passes in a row; 0 while the loop is well."""
        self.last_pass: float | None = None
        """When the last pass completed (wall time), None before the first."""
        self.started: float | None = None
        self._task: asyncio.Task[None] | None = None

    def change_interval(self, *, seconds: float) -> None:
        self.every = seconds

    def is_running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self.is_running():
            return
        self.started = time.time()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"{self.name} loop")

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        self.cancel()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def report(self) -> dict[str, Any]:
        """What the heartbeat records of this loop."""
        return {"every": self.every, "last_pass": self.last_pass, "started": self.started, "failures": self.failures}

    async def _run(self) -> None:
        if self.before is not None:
            await self.before()
        while True:
            pause: float = await self.run_once()
            await asyncio.sleep(pause)

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
