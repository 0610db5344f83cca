"""How long the event loop is blocked, measured from another thread; the bot process the load benchmark starts
(``tests/bot/bot_process.py``) and ``python -m bench bot`` use it."""

from __future__ import annotations

import asyncio
import threading
import time


class LoopWatchdog:
    """From another thread, schedule a no-op on the loop every ``interval`` and keep the longest delay seen.

    The no-op only notes when it ran; the watchdog's thread looks for that note at its own pace. Waking that thread
    from the loop (a ``threading.Event``) would cost the loop a futex wake-up 200 times a second, CPU that the load
    benchmark would count as the bot's."""

    def __init__(self, loop: asyncio.AbstractEventLoop, interval: float = 0.005) -> None:
        self.loop = loop
        self.interval = interval
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="loop-watchdog", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            ran: list[float] = []
            sent = time.perf_counter()
            self.loop.call_soon_threadsafe(_note_time, ran)
            while not ran and time.perf_counter() - sent < 5.0 and not self._stop.wait(self.interval):
                pass
            if ran:
                self.longest = max(self.longest, ran[0] - sent)

    def __enter__(self) -> LoopWatchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _note_time(ran: list[float]) -> None:
    ran.append(time.perf_counter())
