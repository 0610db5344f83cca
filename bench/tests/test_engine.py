"""``python -m bench engine``: its figures for both paths, and its comparison with a revision."""

from __future__ import annotations

import pytest

from bench.engine import main as bench_main


def test_the_engine_benchmark_prints_figures_for_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--variant", "azul-grey", "--players", "2", "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["variant", "players", "path", "games/s", "moves/s", "moves/game"]
    assert [line.split()[:3] for line in lines[1:]] == [["azul-grey", "2", "fast"], ["azul-grey", "2", "checked"]]


def test_the_engine_benchmark_compares_with_a_revision(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--against", "HEAD", "--variant", "azul", "--players", "2", "--seconds", "0.05", "--samples", "1"]
    assert bench_main(args) == 0
    name, players, before, after, ratio = capsys.readouterr().out.splitlines()[-1].split()
    assert (name, players) == ("azul", "2")
    assert float(before) > 0 and float(after) > 0
    assert ratio.endswith("×")
    assert abs(float(ratio.removesuffix("×")) - float(after) / float(before)) < 0.02  # printed values are rounded
