"""Recorded 4-player games, one per game (greedy self-play, the longest games we have): the animation test and
``python -m bench replay``/``animation`` replay them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDED = Path(__file__).resolve().parent / "games"


def recorded_game(game: str) -> dict[str, Any]:
    """A stored 4-player game: ``variant``, ``players``, ``seed`` and ``moves`` as ``[seat, notation]`` pairs."""
    raw: dict[str, Any] = json.loads((RECORDED / f"{game}-4p.json").read_text(encoding="utf-8"))
    raw["moves"] = [(int(seat), str(notation)) for seat, notation in raw["moves"]]
    return raw
