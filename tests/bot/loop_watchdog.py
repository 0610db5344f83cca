"""How long the event loop is blocked, measured from another thread; the bot process the load benchmark starts
(``tests/bot/bot_process.py``) and ``python -m bench bot`` use it."""

from __future__ import annotations

import asyncio
import threading
import time


class LoopWatchdog:
    """From another thread, schedule a no-op on the loop every ``interval`` and keep the longest delay seen."""

    def __init__(self, loop: asyncio.AbstractEventLoop, interval: float = 0.005) -> None:
        self.loop = loop
        self.interval = interval
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="loop-watchdog", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            ran = threading.Event()
            sent = time.perf_counter()
            self.loop.call_soon_threadsafe(ran.set)
            if ran.wait(timeout=5.0):
                self.longest = max(self.longest, time.perf_counter() - sent)
            time.sleep(self.interval)

    def __enter__(self) -> LoopWatchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
