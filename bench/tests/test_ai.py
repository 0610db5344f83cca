"""``python -m bench ai``: its rows, its resumable runs, its speed and queue figures."""

from __future__ import annotations

from pathlib import Path

import pytest

import bench.ai
from bench.ai import Row, Tally


def test_the_speed_figures_count_the_iterations_searched() -> None:
    done, spent = bench.ai.search_speed("azul", 2, 5)
    assert done == 15 and spent > 0


def test_wilson_interval() -> None:
    low, high = bench.ai.wilson(180, 200)
    assert 0.85 < low < 0.9 < high < 0.94
    assert bench.ai.wilson(0, 10)[0] == 0.0


def test_the_bench_counts_hard_iterations_and_cpu_time_per_move() -> None:
    result = bench.ai.play_game(Row("duel", "azul", 2, "hard", "greedy"), 1, {"iterations": 5})
    assert set(result.iterations) == {5}
    assert len(result.times["hard"]) >= len(result.iterations) > 10
    assert all(seconds >= 0 for values in result.times.values() for seconds in values)


def test_each_game_keeps_the_counted_agents_lead_and_a_row_prints_its_mean() -> None:
    row = Row("table", "azul", 3, "greedy", "random")
    games = [bench.ai.play_game(row, index, {"iterations": 5}) for index in range(3)]
    assert all(game.lead is not None for game in games)
    tally = Tally()
    for game in games:
        tally.add(game)
    leads = [game.lead or 0.0 for game in games]
    assert tally.lead is not None and tally.lead[0] == pytest.approx(sum(leads) / 3) and tally.lead[1] > 0
    assert f"{sum(leads) / 3:+.1f} ± " in bench.ai.row_line(row, tally)
    assert Tally().lead is None and bench.ai.row_line(row, Tally(1, 0.0)).endswith("no   ")


def test_a_bench_run_prints_each_row_and_resumes_from_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "ai.jsonl"
    row = Row("ladder", "azul", 2, "easy", "random")
    bench.ai.run([row], 2, {"iterations": 5}, 1, out)
    printed = capsys.readouterr().out
    assert "easy vs random" in printed and "easy    azul" in printed
    assert len(out.read_text().splitlines()) == 2
    played: list[int] = []
    real = bench.ai.play_game
    monkeypatch.setattr(bench.ai, "play_game", lambda r, index, b: played.append(index) or real(r, index, b))
    with out.open("a") as file:
        file.write('{"row": {"suite": "ladder"')  # a line cut short by a stop
    bench.ai.run([row], 3, {"iterations": 5}, 1, out)
    assert played == [2]  # games 0 and 1 come from the file
    assert "2 games already in" in capsys.readouterr().out
    bench.ai.run([row], 3, {"iterations": 6}, 1, out)  # another budget is another row
    assert played == [2, 0, 1, 2]
    capsys.readouterr()
    bench.ai.run([row], 5, {"iterations": 5}, 1, out, play_more=False)  # --report: what the file holds, nothing played
    assert played == [2, 0, 1, 2]
    assert "rows with fewer than 5 games" in capsys.readouterr().out


def test_rows_say_whether_they_meet_the_issue_targets() -> None:
    azul, pavilion, garden, variant_side = (
        Row("duel", "azul", 2, "hard", "greedy"),
        Row("duel", "summer-pavilion", 2, "hard", "greedy"),
        Row("duel", "queens-garden", 2, "hard", "greedy"),
        Row("duel", "queens-garden-variant", 2, "hard", "greedy"),
    )
    ladder, table, table3 = (
        Row("ladder", "azul", 2, "hard", "medium"),
        Row("table", "azul", 4, "hard", "greedy"),
        Row("table", "azul", 3, "hard", "greedy"),
    )
    targets = (azul.target, pavilion.target, garden.target, variant_side.target, table.target, table3.target)
    assert targets == (0.95, 0.8, 0.88, 0.85, 0.6, 0.55)
    tally = Tally(200, 175.0)  # 87.5%
    assert not tally.met(azul) and tally.met(pavilion) and not tally.met(garden) and tally.met(variant_side)
    assert Tally(200, 120.0).met(table) and not Tally(200, 119.0).met(table)
    assert Tally(200, 115.0).met(ladder) and not Tally(200, 108.0).met(ladder)  # its interval must clear 50%


def test_the_bench_runs_only_the_rows_of_the_chosen_levels(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--suite", "ladder", "--variant", "azul", "--level", "easy", "--games", "1", "--jobs", "1"]
    assert bench.ai.main(argv) == 0
    printed = capsys.readouterr().out
    assert "easy vs random" in printed and "medium vs easy" not in printed and "hard vs" not in printed


async def test_the_queue_bench_measures_both_waits() -> None:
    waits = await bench.ai.queue_waits(workers=1, games=2, seats=1, seconds=0.05)
    assert set(waits) == {"another member's game", "the same member's next game"}
    assert all(wait >= 0 for wait in waits.values())


def test_the_bench_can_load_the_host_while_it_plays(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--suite", "duel", "--variant", "azul", "--games", "1", "--iterations", "3", "--jobs", "1", "--busy", "1"]
    assert bench.ai.main(argv) == 0
    printed = capsys.readouterr().out
    assert "1 other process spinning meanwhile" in printed and "hard vs greedy" in printed


def test_the_load_figures_compare_quiet_and_loaded_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.ai.main(["--load", "1", "--variant", "azul", "--seconds", "0.01"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("azul"))
    positions, *iterations, quiet_wall, loaded_wall, same_quiet, same_loaded = line.split()[1:]
    assert int(positions) >= 20 and len(iterations) == 3 and float(quiet_wall) > 0 and float(loaded_wall) > 0
    assert same_quiet.endswith("%") and same_loaded.endswith("%")
