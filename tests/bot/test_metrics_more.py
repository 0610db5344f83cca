"""The operator's metrics through the real bot: open games, work waiting for a worker process, the gateway's latency,
Discord's 429s and unhandled errors, as Prometheus scrapes them from ``/metrics``."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from bot.infra import metrics
from bot.infra.metrics import Endpoint
from bot.infra.pools import WorkerPool
from tests.bot.table import Table
from tests.bot.test_operations import scrape


@pytest.fixture
async def endpoint() -> object:
    served = Endpoint(0, "127.0.0.1")
    yield served
    served.close()


async def test_open_games_and_unhandled_errors(
    simcord_env, endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open()
    await table.bot.timer_loop.run_once()  # the loop's pass, as it runs every minute
    assert (await asyncio.to_thread(scrape, endpoint.port))["azul_open_games"] == 1
    before = await asyncio.to_thread(scrape, endpoint.port)

    async def broken(channel_id: int) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(table.bot.service.tables, "shown_in", broken)
    said = await table.players[0].slash(table.channel, "azul status")
    assert said.ephemeral and "a bug" not in said.response.content
    after = await asyncio.to_thread(scrape, endpoint.port)
    key = 'azul_unhandled_errors_total{where="interaction"}'
    assert after[key] - before.get(key, 0.0) == 1
    assert any("a bug" in str(error) for error in simcord_env.errors), "the error reached the one handler"


def held(gate: str, value: str) -> str:
    """Runs in a worker: ``value``, once the test opens ``gate`` (a file)."""
    while not os.path.exists(gate):
        time.sleep(0.01)
    return value


@pytest.mark.slow  # starts a worker process
async def test_work_waiting_for_a_worker_process_shows(endpoint: Endpoint, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    pool = WorkerPool("search", 1)
    pool.start()
    try:
        running = [asyncio.create_task(pool.run(held, str(gate), str(n))) for n in range(3)]
        await asyncio.sleep(0)  # one turn of the loop: each run is counted before its first wait
        seen = await asyncio.to_thread(scrape, endpoint.port)
        gate.touch()
        assert seen['azul_pool_jobs{pool="search"}'] == 3 and seen['azul_pool_waiting{pool="search"}'] == 2
        assert await asyncio.gather(*running) == ["0", "1", "2"]
    finally:
        gate.touch()
        await pool.close()
    seen = await asyncio.to_thread(scrape, endpoint.port)
    assert seen['azul_pool_jobs{pool="search"}'] == 0 and seen['azul_pool_waiting{pool="search"}'] == 0


async def test_gateway_latency(endpoint: Endpoint) -> None:
    """The gateway's latency is read when the metrics are scraped (429s are counted in test_rate_limits.py)."""
    metrics.watch_gateway(lambda: 0.125)
    seen = await asyncio.to_thread(scrape, endpoint.port)
    assert seen["azul_gateway_latency_seconds"] == 0.125
