"""The golden-transcript harness shared by every game's golden playthroughs (tests/engine/test_*_golden.py).

A golden file is a whole self-play game (``engine.transcript.transcript``) stored as JSON. ``check_golden`` compares
a fresh transcript with it and, with ``UPDATE_GOLDEN=1`` in the environment, rewrites it first; review the diff of
tests/engine/golden/ before committing a rewrite.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.transcript import transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
Case = tuple[str, int, int, str]  # (variant, players, seed, agent)


def cases(variants: tuple[str, ...]) -> list[Case]:
    """Every player count of ``variants``, each with a greedy (seed 1) and a random (seed 2) game."""
    return [
        (variant, players, seed, agent)
        for variant in variants
        for players in (2, 3, 4)
        for seed, agent in ((1, "greedy"), (2, "random"))
    ]


def case_id(case: Case) -> str:
    return "-".join(map(str, case))


def by_move(game: dict[str, Any]) -> str:
    """Valid JSON laid out for reading and diffing: one line per move."""
    rounds = []
    for entry in game["rounds"]:
        info = json.dumps({key: value for key, value in entry.items() if key != "moves"})[:-1]
        moves = ",\n".join("    " + json.dumps(move) for move in entry["moves"])
        rounds.append(f'  {info}, "moves": [\n{moves}\n  ]}}')
    head = json.dumps({key: value for key, value in game.items() if key != "rounds"})[:-1]
    return f'{head}, "rounds": [\n' + ",\n".join(rounds) + "\n]}\n"


def check_golden(path: Path, game: dict[str, Any], layout: Callable[[dict[str, Any]], str] = by_move) -> None:
    """Fail, naming the first differing line, unless ``layout(game)`` is the text stored at ``path``."""
    text = layout(game)
    assert json.loads(text) == json.loads(json.dumps(game))
    if os.environ.get("UPDATE_GOLDEN") == "1":
        write(path, text)
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        lines, stored = text.splitlines(), expected.splitlines()
        pairs = zip(lines, stored, strict=False)
        first = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(lines), len(stored)))
        pytest.fail(f"{path.name} differs from line {first + 1}: rerun with UPDATE_GOLDEN=1 if intended")


def regenerate(all_cases: list[Case], path_of: Callable[..., Path]) -> None:
    """Rewrite the golden file ``path_of(*case)`` of every case (``python -m tests.engine.test_<game>_golden``)."""
    for case in all_cases:
        write(path_of(*case), by_move(transcript(*case)))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def notation_log(game: dict[str, Any]) -> list[tuple[int, str]]:
    """The (seat, notation) pairs of a transcript's moves, in order, as ``engine.replay`` takes them."""
    return [(move["seat"], move["notation"]) for entry in game["rounds"] for move in entry["moves"]]


def check_replays(game: dict[str, Any]) -> None:
    """Replaying a transcript's notation ends the game with the transcript's scores and winners."""
    state = engine.replay(game["variant"], game["players"], game["seed"], notation_log(game))
    assert engine.is_over(state)
    assert engine.scores(state) == game["final_scores"]
    assert engine.standings(state)[0] == game["winners"]
