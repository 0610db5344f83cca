"""Prometheus metrics, served only when AZUL_METRICS_PORT is set: moves, refusals by reason, picture time, failed
posts, open games, work waiting for a worker process (computer searches, pictures), the gateway's latency,
Discord's rate limits (429) and unhandled errors. The rest of the bot calls the small functions below and never
imports prometheus_client itself (README, "Metrics", lists them for a dashboard)."""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from threading import Thread
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

    from prometheus_client import Counter, Gauge, Histogram


@dataclass(frozen=True)
class _Figures:
    MOVES: Counter
    REFUSALS: Counter
    PICTURE_SECONDS: Histogram
    FAILED_POSTS: Counter
    RATE_LIMITED: Counter
    MOVE_SECONDS: Histogram
    OPEN_GAMES: Gauge
    POOL_JOBS: Gauge
    POOL_WAITING: Gauge
    GATEWAY_LATENCY: Gauge
    UNHANDLED: Counter


@functools.cache
def _figures() -> _Figures:
    """The metrics, made with the first figure to count or the endpoint's start: prometheus_client is not imported
    at start-up, where the first answer does not need it (about 15 ms). The same objects every call after."""
    from prometheus_client import Counter, Gauge, Histogram  # noqa: PLC0415 - see above

    return _Figures(
        MOVES=Counter("azul_moves", "Moves saved, by game variant.", ["variant"]),
        REFUSALS=Counter("azul_refusals", "Requests the bot turned down, by reason.", ["reason"]),
        PICTURE_SECONDS=Histogram(
            "azul_picture_seconds",
            "Time to draw one board picture (off the event loop; waiting for a free worker included).",
            ["variant"],
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
        ),
        FAILED_POSTS=Counter("azul_failed_posts", "Board posts that did not reach the channel, by reason.", ["reason"]),
        RATE_LIMITED=Counter(
            "azul_rate_limited",
            "HTTP 429 answers of Discord's API, by sender: discord, or cloudflare (no Via)",
            ["source"],
        ),
        MOVE_SECONDS=Histogram(
            "azul_move_seconds",
            "From the interaction's creation to the board posted and the player answered.",
            buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
        ),
        OPEN_GAMES=Gauge("azul_open_games", "Lobbies and running games in the database (every bot process sees all)."),
        POOL_JOBS=Gauge(
            "azul_pool_jobs", "Work sent to a pool of worker processes and not finished yet, by pool.", ["pool"]
        ),
        POOL_WAITING=Gauge(
            "azul_pool_waiting", "Work waiting for a free worker process (beyond those running), by pool.", ["pool"]
        ),
        GATEWAY_LATENCY=Gauge(
            "azul_gateway_latency_seconds", "Discord gateway heartbeat latency (NaN until connected)."
        ),
        UNHANDLED=Counter(
            "azul_unhandled_errors", "Errors no handler expected (logged with a traceback), by where.", ["where"]
        ),
    )


def moved(variant: str) -> None:
    _moves(variant).inc()


@functools.cache
def _moves(variant: str) -> Counter:
    """A variant's count of moves: prometheus_client finds a label's child under a lock, every time."""
    return _figures().MOVES.labels(variant=variant)


def answered(seconds: float) -> None:
    """A move's interaction was answered ``seconds`` after Discord created it (clock skew can make it negative)."""
    _figures().MOVE_SECONDS.observe(max(seconds, 0.0))


def refused(reason: str) -> None:
    _figures().REFUSALS.labels(reason=reason).inc()


def post_failed(reason: str) -> None:
    _figures().FAILED_POSTS.labels(reason=reason).inc()


def rate_limited(source: str) -> None:
    _figures().RATE_LIMITED.labels(source=source).inc()


def open_games(count: int) -> None:
    _figures().OPEN_GAMES.set(count)


def unhandled(where: str) -> None:
    _figures().UNHANDLED.labels(where=where).inc()


_in_flight: dict[str, int] = {}


@contextlib.contextmanager
def pool_job(pool: str, processes: int) -> Iterator[None]:
    """One piece of work in a pool of ``processes`` workers (0: a thread), from sending it to its result."""
    _in_flight[pool] = _in_flight.get(pool, 0) + 1
    _show_pool(pool, processes)
    try:
        yield
    finally:
        _in_flight[pool] -= 1
        _show_pool(pool, processes)


def _show_pool(pool: str, processes: int) -> None:
    jobs = _in_flight[pool]
    running, waiting = _pool_gauges(pool)
    running.set(jobs)
    waiting.set(max(0, jobs - max(processes, 1)))


@functools.cache
def _pool_gauges(pool: str) -> tuple[Gauge, Gauge]:
    """A pool's gauges (work in it, work waiting for a worker), looked up once: twice a picture, four lookups."""
    return _figures().POOL_JOBS.labels(pool=pool), _figures().POOL_WAITING.labels(pool=pool)


def watch_gateway(latency: Callable[[], float]) -> None:
    """Read the gateway latency from ``latency`` (the client's) whenever the metrics are scraped."""
    _figures().GATEWAY_LATENCY.set_function(lambda: latency() if math.isfinite(latency()) else math.nan)


@contextlib.contextmanager
def picture_timer(variant: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        _picture_seconds(variant).observe(time.perf_counter() - started)


@functools.cache
def _picture_seconds(variant: str) -> Histogram:
    return _figures().PICTURE_SECONDS.labels(variant=variant)


class Endpoint:
    """The HTTP server of ``/metrics`` on its own thread; ``port`` is the bound one (useful with port 0)."""

    def __init__(self, port: int, address: str = "0.0.0.0") -> None:
        self._server: WSGIServer
        self._thread: Thread
        from prometheus_client import start_http_server  # noqa: PLC0415 - with the metrics, only when served

        _figures()  # every metric is listed from the first scrape, at zero until counted
        self._server, self._thread = start_http_server(port, addr=address)
        self.port = int(self._server.server_port)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
