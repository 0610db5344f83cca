"""Azul states round-trip through JSON, and loading refuses impossible ones with a clear reason."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.azul import MARKER
from tests.engine.azul_tables import board, play, table


def saved(variant: str = "azul", players: int = 2, seed: int = 5) -> dict[str, Any]:
    return engine.to_json(engine.new_game(variant, players, seed))


@pytest.mark.parametrize("variant", ["azul", "azul-grey"])
def test_json_round_trip_is_identical_and_plain(variant: str) -> None:
    state = engine.new_game(variant, 3, seed=8)
    raw = engine.to_json(state)
    assert json.loads(json.dumps(raw)) == raw
    assert engine.from_json(raw) == state
    assert engine.to_json(engine.from_json(raw)) == raw


def test_to_json_does_not_share_lists_with_the_state() -> None:
    state = engine.new_game("azul", 2, seed=8)
    raw = engine.to_json(state)
    raw["boards"][0]["wall"][0][0] = 0
    raw["factories"][0][0] = 4
    assert state.boards[0].wall[0][0] == -1 and engine.to_json(state) != raw


def test_a_grey_wall_state_waiting_for_columns_round_trips() -> None:
    state = table("azul-grey", [board(lines={1: "b"}), board(lines={1: "r"})], factories=["k"])
    state, _ = play(state, (0, "1k5"))
    assert state.phase == "wall"
    assert engine.from_json(engine.to_json(state)) == state


def breaks(change: Callable[[dict[str, Any]], None], raw: dict[str, Any] | None = None) -> dict[str, Any]:
    broken = copy.deepcopy(raw or saved())
    change(broken)
    return broken


def set_path(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = raw
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return change


IMPOSSIBLE = {
    "missing field": lambda raw: raw.pop("lid"),
    "unknown field": set_path("extra", 1),
    "unknown variant": set_path("variant", "azul-pink"),
    "a tile too many": set_path("bag.0", 21),
    "a tile missing": lambda raw: raw["bag"].__setitem__(0, raw["bag"][0] - 1),
    "negative count": set_path("centre.0", -1),
    "boolean as a number": set_path("round", True),
    "round zero": set_path("round", 0),
    "seat out of range": set_path("current", 2),
    "unknown phase": set_path("phase", "dancing"),
    "coloured wall in the wall phase": set_path("phase", "wall"),
    "three boards for five factories": lambda raw: raw["boards"].append(copy.deepcopy(raw["boards"][0])),
    "one board": lambda raw: raw["boards"].pop(),
    "factory with 5 tiles": set_path("factories.0", [5, 0, 0, 0, 0]),
    "wrong colour on the coloured wall": set_path("boards.0.wall.0.0", 1),
    "line over capacity": set_path("boards.0.line_count.0", 2),
    "line count without a colour": set_path("boards.0.line_count.1", 1),
    "floor of 8": set_path("boards.0.floor", [0] * 8),
    "floor with a bad tile": set_path("boards.0.floor", [6]),
    "marker in two places": set_path("boards.0.floor", [MARKER]),
    "marker nowhere in the offer": set_path("marker_in_centre", False),
    "choosing in the offer": set_path("choosing", [0]),
    "not an object": lambda raw: raw.__setitem__("boards", "x"),
    "negative score": set_path("boards.0.score", -1),
    "rng not an integer": set_path("rng", "12"),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_impossible_states_are_refused(name: str) -> None:
    raw = breaks(IMPOSSIBLE[name])
    with pytest.raises(engine.BadState) as refused:
        engine.from_json(raw)
    assert refused.value.key in ("invalid_state", "unknown_variant")


def test_state_that_is_not_an_object_is_refused() -> None:
    for raw in (None, [], {"variant": 3}):
        with pytest.raises(engine.BadState) as refused:
            engine.from_json(raw)  # type: ignore[arg-type]
        assert refused.value.key == "not_a_state"


def test_a_variant_refuses_the_other_wall() -> None:
    with pytest.raises(engine.BadState) as refused:
        engine.get_variant("azul").from_json(saved("azul-grey"))
    assert refused.value.params["field"] == "variant"


def test_the_refusal_names_the_broken_part() -> None:
    with pytest.raises(engine.BadState) as refused:
        engine.from_json(breaks(set_path("boards.1.line_count.4", 9)))
    assert refused.value.params["field"] == "boards[1].line_count[4]"


def test_grey_wall_repeated_colour_in_a_column_is_refused() -> None:
    raw = saved("azul-grey")
    raw["boards"][0]["wall"][0][0] = 0
    raw["boards"][0]["wall"][1][0] = 0
    raw["bag"][0] -= 2
    with pytest.raises(engine.BadState, match="repeats"):
        engine.from_json(raw)
    raw["boards"][0]["wall"][1][0] = -1
    raw["boards"][0]["wall"][1][1] = 0
    assert engine.from_json(raw).boards[0].wall[1][1] == 0


def test_a_line_holding_a_colour_already_on_its_wall_row_is_refused() -> None:
    raw = saved()
    raw["boards"][0]["wall"][1][1] = 0  # blue at row 2
    raw["boards"][0]["line_color"][1] = 0
    raw["boards"][0]["line_count"][1] = 1
    raw["bag"][0] -= 2
    with pytest.raises(engine.BadState, match="line"):
        engine.from_json(raw)


def test_a_grey_wall_phase_must_wait_for_someone_with_a_choice() -> None:
    state = table("azul-grey", [board(lines={1: "b"}), board()], factories=["k"])
    state, _ = play(state, (0, "1k5"))
    raw = engine.to_json(state)
    with pytest.raises(engine.BadState, match="choosing"):
        engine.from_json(breaks(set_path("choosing", []), raw))
    with pytest.raises(engine.BadState, match="choosing"):
        engine.from_json(breaks(set_path("choosing", [0, 1]), raw))
