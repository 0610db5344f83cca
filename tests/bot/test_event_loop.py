"""The bot runs on uvloop's event loop: its scheduling and its wake-ups from the SQLite and picture threads cost the
loop less CPU per move than asyncio's own (``python -m bench load``)."""

from __future__ import annotations

import argparse
import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
import uvloop

import bot.__main__ as entry


def test_the_bot_runs_on_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    async def run(config: Any, *, sync_only: bool) -> int:
        loops.append(asyncio.get_running_loop())
        return 0

    monkeypatch.setattr(entry, "run", run)
    monkeypatch.setattr(entry, "read_config", lambda environ: SimpleNamespace(log_level="WARNING", log_format="text"))
    monkeypatch.setattr(entry.logs, "setup", lambda level, form: None)
    assert entry.start(argparse.Namespace(read_dotenv=False), {}, sync_only=False) == 0
    assert len(loops) == 1 and isinstance(loops[0], uvloop.Loop)
