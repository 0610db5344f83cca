"""``python -m bench replay`` prints its figures and saves the animations it made."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import replay as bench_replay


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert bench_replay.main(["--games", "azul", "--save", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "azul" in out and "MB" in out
    assert (tmp_path / "azul-4p.gif").read_bytes().startswith(b"GIF89a")
