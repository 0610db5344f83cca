"""Prometheus metrics, served only when AZUL_METRICS_PORT is set: moves, refusals by reason, picture time, failed
posts, open games, work waiting for a worker process (computer searches, pictures), the gateway's latency,
Discord's rate limits (429) and unhandled errors. The rest of the bot calls the small functions below and never
imports prometheus_client itself (README, "Metrics", lists them for a dashboard)."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator
from threading import Thread
from wsgiref.simple_server import WSGIServer

from prometheus_client import Counter, Gauge, Histogram, start_http_server

MOVES = Counter("azul_moves", "Moves saved, by game variant.", ["variant"])
REFUSALS = Counter("azul_refusals", "Requests the bot turned down, by reason.", ["reason"])
PICTURE_SECONDS = Histogram(
    "azul_picture_seconds",
    "Time to draw one board picture (off the event loop; waiting for a free worker included).",
    ["variant"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
FAILED_POSTS = Counter("azul_failed_posts", "Board posts that did not reach the channel, by reason.", ["reason"])
RATE_LIMITED = Counter(
    "azul_rate_limited", "HTTP 429 answers of Discord's API, by sender: discord, or cloudflare (no Via)", ["source"]
)
MOVE_SECONDS = Histogram(
    "azul_move_seconds",
    "From the interaction's creation to the board posted and the player answered.",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
)
OPEN_GAMES = Gauge("azul_open_games", "Lobbies and running games in the database (every bot process sees all).")
POOL_JOBS = Gauge("azul_pool_jobs", "Work sent to a pool of worker processes and not finished yet, by pool.", ["pool"])
POOL_WAITING = Gauge(
    "azul_pool_waiting", "Work waiting for a free worker process (beyond those running), by pool.", ["pool"]
)
GATEWAY_LATENCY = Gauge("azul_gateway_latency_seconds", "Discord gateway heartbeat latency (NaN until connected).")
UNHANDLED = Counter(
    "azul_unhandled_errors", "Errors no handler expected (logged with a traceback), by where.", ["where"]
)


def moved(variant: str) -> None:
    MOVES.labels(variant=variant).inc()


def answered(seconds: float) -> None:
    """A move's interaction was answered ``seconds`` after Discord created it (clock skew can make it negative)."""
    MOVE_SECONDS.observe(max(seconds, 0.0))


def refused(reason: str) -> None:
    REFUSALS.labels(reason=reason).inc()


def post_failed(reason: str) -> None:
    FAILED_POSTS.labels(reason=reason).inc()


def rate_limited(source: str) -> None:
    RATE_LIMITED.labels(source=source).inc()


def open_games(count: int) -> None:
    OPEN_GAMES.set(count)


def unhandled(where: str) -> None:
    UNHANDLED.labels(where=where).inc()


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
    POOL_JOBS.labels(pool=pool).set(jobs)
    POOL_WAITING.labels(pool=pool).set(max(0, jobs - max(processes, 1)))


def watch_gateway(latency: Callable[[], float]) -> None:
    """Read the gateway latency from ``latency`` (the client's) whenever the metrics are scraped."""
    GATEWAY_LATENCY.set_function(lambda: latency() if math.isfinite(latency()) else math.nan)


@contextlib.contextmanager
def picture_timer(variant: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        PICTURE_SECONDS.labels(variant=variant).observe(time.perf_counter() - started)


class Endpoint:
    """The HTTP server of ``/metrics`` on its own thread; ``port`` is the bound one (useful with port 0)."""

    def __init__(self, port: int, address: str = "0.0.0.0") -> None:
        self._server: WSGIServer
        self._thread: Thread
        self._server, self._thread = start_http_server(port, addr=address)
        self.port = int(self._server.server_port)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
