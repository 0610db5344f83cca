"""``python -m bench load --targets`` prints every figure of the speed targets' table, beside its target and the
figure when the issue was filed."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest

import tools.move_cost
from bench import startup, targets


def test_the_table_has_every_target_with_what_was_measured(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = tools.move_cost.MoveCost([1, 1], [15, 14], [2, 2], [30_000], [1], [])

    async def measure_cost() -> Any:
        return counted

    async def measure_starts(runs: int, compiled: bool) -> list[tuple[float, float, float]]:
        return [(0.61, 0.4, 0.55)] * runs

    monkeypatch.setattr(tools.move_cost, "measure", measure_cost)
    monkeypatch.setattr(startup, "measure", measure_starts)
    targets.print_table(targets.load_figures([100.0] * 9 + [400.0], 20, 0.5, (19.5, 8.25, 29.9)))
    lines = capsys.readouterr().out.splitlines()
    for figure, filed in targets.FILED.items():
        assert any(line.strip().startswith(figure) and filed in line for line in lines), (figure, lines)
    shown = "\n".join(lines)
    for measured in ("14.5 (2)", "8.2 ms", "19.5 ms", "40.0", "400 ms", "29.9 KB", "0.61 s"):
        assert measured in shown, measured


@pytest.mark.slow  # a start under valgrind, about half a minute
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="bench startup --instructions runs valgrind")
def test_a_counted_start_counts_the_bots_instructions_by_its_first_answer() -> None:
    counted = asyncio.run(startup.counted_start(0))
    assert 2e8 < counted < 1e10  # the bot's whole start, not valgrind's or nothing
