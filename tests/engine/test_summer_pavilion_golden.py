"""Golden playthroughs: whole self-play games of both Summer Pavilion sides and every player count, compared with
stored files (the same transcript shape as Azul's).

A difference means the rules, the deal or the agents changed. If the change is intended, regenerate and review the
diff of tests/engine/golden/ before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_summer_pavilion_golden.py
    (or: .venv/bin/python -m tests.engine.test_summer_pavilion_golden)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.transcript import transcript
from tests.engine.golden_files import GOLDEN, Case, case_id, cases, check_golden, check_replays, load, regenerate

CASES = cases(("summer-pavilion", "summer-pavilion-mono"))


def golden_path(variant: str, players: int, seed: int, agent: str) -> Path:
    return GOLDEN / f"{variant.replace('-', '_')}-{players}p-seed{seed}-{agent}.json"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_playthrough_matches_golden(case: Case) -> None:
    check_golden(golden_path(*case), transcript(*case))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_transcript_replays_to_the_same_result(case: Case) -> None:
    check_replays(load(golden_path(*case)))


def test_transcripts_have_six_rounds_and_every_kind_of_move() -> None:
    game = load(golden_path("summer-pavilion", 3, 1, "greedy"))
    assert [entry["round"] for entry in game["rounds"]] == [1, 2, 3, 4, 5, 6]
    first = game["rounds"][0]
    assert first["wild"] == 0 and len(first["factories"]) == 7 and len(first["supply"]) == 10
    other = load(golden_path("summer-pavilion", 3, 2, "random"))
    commands = {move["command"] for g in (game, other) for entry in g["rounds"] for move in entry["moves"]}
    assert commands == {"take", "place", "bonus", "pass"}
    assert all(len(entry["scores"]) == 3 for entry in game["rounds"])


if __name__ == "__main__":
    regenerate(CASES, golden_path)
