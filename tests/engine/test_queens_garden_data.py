"""The component tables: the shipped file loads, defaults are listed, impossible values fail clearly; golden games."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import engine.queens_garden as engine_module
from engine.queens_garden import QueensGarden
from engine.queens_garden_data import DEFAULT_PATH, ComponentError, Components, load_components
from engine.transcript import transcript
from tests.engine.golden_files import GOLDEN, check_golden


def raw() -> dict:
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_shipped_tables_load_with_the_rulebook_numbers() -> None:
    comp = load_components()
    assert comp.colors[0] == "blue" and comp.color_codes == ("bl", "ye", "lg", "dg", "lp", "dp")
    assert comp.round_stack_sizes == {2: 5, 3: 7, 4: 8} and comp.rounds == 4
    assert (comp.storage_tiles, comp.storage_expansions, comp.starting_score, comp.starting_jokers) == (12, 2, 15, 3)
    assert sorted(comp.expansions) == list(range(36))
    assert comp.evaluation_order[0] == ("color", 0) and comp.evaluation_order[-1] == ("pattern", 6)


def test_unverified_values_are_listed_as_defaults() -> None:
    entries = {entry for entry, _ in load_components().defaults}
    assert {"joker_rewards.pavilion", "sides.standard.wheel", "sides.variant.group_bonuses", "patterns[6]"} <= entries
    assert "storage" not in entries and "starting_score" not in entries


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["joker_rewards"]["pavilion"].update(value=-3), "joker_rewards.pavilion: expected a whole number"),
        (lambda d: d["round_stack_sizes"]["value"].update({"4": 10}), "4 stacks of 10 need more than 36"),
        (lambda d: d["expansions"]["value"].__setitem__(1, ["blue", 1]), "exactly one expansion"),
        (lambda d: d["storage"].update(status="guess"), "status must be one of"),
        (lambda d: d["sides"]["variant"]["wheel"]["value"].pop(), "one list of criteria per round"),
        (lambda d: d["sides"]["standard"]["wheel"]["value"][0][0].update(color="red"), "unknown colour 'red'"),
        (lambda d: d["evaluation_order"]["value"].pop(), "evaluation_order"),
        (lambda d: d.pop("starting_score"), "starting_score: missing"),
    ],
)
def test_an_impossible_value_fails_with_a_clear_message(tmp_path: Path, change, message: str) -> None:
    data = copy.deepcopy(raw())
    change(data)
    bad = tmp_path / "queens_garden.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ComponentError, match=message.replace("(", r"\(")) as error:
        load_components(bad)
    assert str(bad) in str(error.value)


def test_changing_a_number_is_a_data_change_only() -> None:
    data = raw()
    data["starting_score"]["value"] = 20
    data["joker_rewards"]["fountain"]["value"] = 4
    variant = QueensGarden("queens-garden", "standard", Components.from_dict(data))
    state = variant.new_game(2, seed=1)
    assert [p.score for p in state.players] == [20, 20]


@pytest.mark.slow  # whole games played and compared with their golden transcripts
@pytest.mark.parametrize(
    ("name", "players", "seed", "agent"),
    [("queens-garden", 2, 3, "greedy"), ("queens-garden-variant", 3, 5, "random"), ("queens-garden", 4, 8, "random")],
)
def test_golden_playthrough(name: str, players: int, seed: int, agent: str) -> None:
    path = GOLDEN / f"queens_garden_{name.removeprefix('queens-garden').strip('-') or 'standard'}_{players}p.json"
    check_golden(path, transcript(name, players, seed, agent), layout=indented)


def indented(game: dict) -> str:
    return json.dumps(game, indent=1) + "\n"


def test_every_refusal_of_the_engine_has_a_text_in_every_language() -> None:
    import re

    from data.i18n import catalogue

    source = Path(engine_module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(qg_[a-z_]+)"', source))
    assert len(keys) > 20
    for lang in ("en", "pl", "uk"):
        missing = sorted(key for key in keys if f"error.{key}" not in catalogue(lang))
        assert not missing, (lang, missing)
