"""Golden playthroughs: whole self-play games of every Azul variant and player count, compared with stored files.

A difference means the rules, the deal or the agents changed. If the change is intended, regenerate and review the
diff of tests/engine/golden/ before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_azul_golden.py
    (or: .venv/bin/python -m tests.engine.test_azul_golden)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.transcript import export, transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [
    (variant, players, seed, agent)
    for variant in ("azul", "azul-grey")
    for players in (2, 3, 4)
    for seed, agent in ((1, "greedy"), (2, "random"))
]


def golden_path(variant: str, players: int, seed: int, agent: str) -> Path:
    return GOLDEN / f"{variant}-{players}p-seed{seed}-{agent}.json"


def render(game: dict[str, Any]) -> str:
    """Valid JSON laid out for reading and diffing: one line per move."""
    rounds = []
    for entry in game["rounds"]:
        info = json.dumps({key: value for key, value in entry.items() if key != "moves"})[:-1]
        moves = ",\n".join("    " + json.dumps(move) for move in entry["moves"])
        rounds.append(f'  {info}, "moves": [\n{moves}\n  ]}}')
    head = json.dumps({key: value for key, value in game.items() if key != "rounds"})[:-1]
    return f'{head}, "rounds": [\n' + ",\n".join(rounds) + "\n]}\n"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        golden_path(*case).write_text(render(transcript(*case)), encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=lambda case: "-".join(map(str, case)))
def test_playthrough_matches_golden(case: tuple[str, int, int, str]) -> None:
    path = golden_path(*case)
    game = transcript(*case)
    text = render(game)
    assert json.loads(text) == game
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        first = next(
            i for i, (a, b) in enumerate(zip(text.splitlines(), expected.splitlines(), strict=False)) if a != b
        )
        pytest.fail(f"{path.name} differs from line {first + 1}: rerun with UPDATE_GOLDEN=1 if intended")


@pytest.mark.parametrize("case", CASES[:4], ids=lambda case: "-".join(map(str, case)))
def test_the_transcript_replays_to_the_same_result(case: tuple[str, int, int, str]) -> None:
    game = json.loads(golden_path(*case).read_text(encoding="utf-8"))
    log = [(move["seat"], move["notation"]) for entry in game["rounds"] for move in entry["moves"]]
    state = engine.replay(game["variant"], game["players"], game["seed"], log)
    assert engine.is_over(state)
    assert engine.scores(state) == game["final_scores"]
    assert engine.standings(state)[0] == game["winners"]


def test_export_of_a_logged_game_equals_its_transcript() -> None:
    game = transcript("azul-grey", 3, 2, "random")
    log = [(move["seat"], move["notation"]) for entry in game["rounds"] for move in entry["moves"]]
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
    regenerate()
