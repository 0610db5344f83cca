"""Golden playthroughs: whole self-play games of both Summer Pavilion sides and every player count, compared with
stored files (the same transcript shape as Azul's).

A difference means the rules, the deal or the agents changed. If the change is intended, regenerate and review the
diff of tests/engine/golden/ before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_summer_pavilion_golden.py
    (or: .venv/bin/python -m tests.engine.test_summer_pavilion_golden)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.transcript import transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [
    (variant, players, seed, agent)
    for variant in ("summer-pavilion", "summer-pavilion-mono")
    for players in (2, 3, 4)
    for seed, agent in ((1, "greedy"), (2, "random"))
]


def golden_path(variant: str, players: int, seed: int, agent: str) -> Path:
    return GOLDEN / f"{variant.replace('-', '_')}-{players}p-seed{seed}-{agent}.json"


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


@pytest.mark.parametrize("case", CASES, ids=lambda case: "-".join(map(str, case)))
def test_the_transcript_replays_to_the_same_result(case: tuple[str, int, int, str]) -> None:
    game = json.loads(golden_path(*case).read_text(encoding="utf-8"))
    log = [(move["seat"], move["notation"]) for entry in game["rounds"] for move in entry["moves"]]
    state = engine.replay(game["variant"], game["players"], game["seed"], log)
    assert engine.is_over(state)
    assert engine.scores(state) == game["final_scores"]
    assert engine.standings(state)[0] == game["winners"]


def test_transcripts_have_six_rounds_and_every_kind_of_move() -> None:
    game = json.loads(golden_path("summer-pavilion", 3, 1, "greedy").read_text(encoding="utf-8"))
    assert [entry["round"] for entry in game["rounds"]] == [1, 2, 3, 4, 5, 6]
    first = game["rounds"][0]
    assert first["wild"] == 0 and len(first["factories"]) == 7 and len(first["supply"]) == 10
    other = json.loads(golden_path("summer-pavilion", 3, 2, "random").read_text(encoding="utf-8"))
    commands = {move["command"] for g in (game, other) for entry in g["rounds"] for move in entry["moves"]}
    assert commands == {"take", "place", "bonus", "pass"}
    assert all(len(entry["scores"]) == 3 for entry in game["rounds"])


if __name__ == "__main__":
    regenerate()
