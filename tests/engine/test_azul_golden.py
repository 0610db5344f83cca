"""Golden playthroughs: whole self-play games of every Azul variant and player count, compared with stored files.

A difference means the rules, the deal or the agents changed. If the change is intended, regenerate and review the
diff of tests/engine/golden/ before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_azul_golden.py
    (or: .venv/bin/python -m tests.engine.test_azul_golden)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.transcript import export, transcript
from tests.engine.golden_files import (
    GOLDEN,
    Case,
    case_id,
    cases,
    check_golden,
    check_replays,
    load,
    notation_log,
    regenerate,
)

CASES = cases(("azul", "azul-grey"))


def golden_path(variant: str, players: int, seed: int, agent: str) -> Path:
    return GOLDEN / f"{variant}-{players}p-seed{seed}-{agent}.json"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_playthrough_matches_golden(case: Case) -> None:
    check_golden(golden_path(*case), transcript(*case))


@pytest.mark.parametrize("case", CASES[:4], ids=case_id)
def test_the_transcript_replays_to_the_same_result(case: Case) -> None:
    check_replays(load(golden_path(*case)))


def test_export_of_a_logged_game_equals_its_transcript() -> None:
    game = transcript("azul-grey", 3, 2, "random")
    log = notation_log(game)
    exported = export("azul-grey", 3, 2, log)
    assert exported == {key: value for key, value in game.items() if key != "agent"}
    unfinished = export("azul-grey", 3, 2, log[:10])
    assert unfinished["finished"] is False and unfinished["winners"] == [] and unfinished["moves"] == 10
    assert unfinished["rounds"][0]["moves"] == game["rounds"][0]["moves"][:10]


def test_transcripts_have_the_documented_shape() -> None:
    game = transcript("azul-grey", 2, 1, "greedy")
    assert {"variant", "players", "seed", "rounds", "final_scores", "winners"} <= game.keys()
    first = game["rounds"][0]
    assert first["round"] == 1 and first["start_seat"] == 0
    assert [len(tiles) for tiles in first["factories"]] == [4] * 5
    take = first["moves"][0]
    assert {"seat", "notation", "source", "color", "line"} <= take.keys()
    assert take["source"] == "centre" or 0 <= take["source"] < 5
    assert take["line"] == "floor" or 1 <= take["line"] <= 5
    assert all(len(entry["scores"]) == 2 for entry in game["rounds"])
    walls = [move for entry in game["rounds"] for move in entry["moves"] if move["command"] == "wall"]
    assert walls and {"row", "col", "points"} <= walls[0].keys()


if __name__ == "__main__":
    regenerate(CASES, golden_path)
