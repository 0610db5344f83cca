"""The command-line demo and the benchmark keep working (figures are printed, never asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tools.pictures import main


def test_demo_writes_every_sample_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", str(tmp_path), "--locale", "uk"]) == 0
    written = sorted(path.name for path in tmp_path.glob("*.png"))
    assert {"start-2p.png", "mid-round-4p.png", "after-scoring-4p.png", "game-over-4p.png"} <= set(written)
    assert any(name.startswith("grey-wall-choosing") for name in written)
    for path in tmp_path.glob("*.png"):
        assert path.stat().st_size < 400 * 1024
        assert Image.open(path).width >= 480  # one board wide for two players, two boards for more
    assert "KB" in capsys.readouterr().out
