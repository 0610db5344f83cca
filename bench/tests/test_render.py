"""``python -m bench render`` prints its figures for every picture the bot sends (figures are printed, never
asserted)."""

from __future__ import annotations

import pytest

import engine
from bench import render as bench_render


@pytest.mark.slow  # draws every picture the bot sends, in every variant (about a minute)
def test_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_render.main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "median" in out and "blank" in out and "old KB" in out and "worst ratio" in out
    for variant in engine.variant_names():  # every picture the bot sends: tables, final tables, close-ups
        assert all(f"{variant}-{players}p-{moment}" in out for players in (2, 3, 4) for moment in ("late", "final"))
        assert f"{variant}-4p-mine" in out
    assert all(kind in out for kind in ("queens-garden-expansions", "leaderboard", "profile"))


@pytest.mark.slow  # every variant's posted picture, 2 to 4 players, midway and at the end, in three languages
def test_every_posted_picture_reads_on_a_phone(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_render.main(["--phone"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    for variant in engine.variant_names():
        assert all(f"{variant}-{players}p-{moment} " in out for players in (2, 3, 4) for moment in ("mid", "final"))
    assert "MISSES" not in out and "0 picture(s) miss them" in out
