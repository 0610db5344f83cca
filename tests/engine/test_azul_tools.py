"""The engine's tools: agents, the text board, the command line, and the error texts in every language."""

from __future__ import annotations

import io
import json
import re
import string
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import engine
from data.i18n import SUPPORTED, catalogue, t
from engine.__main__ import main, play
from engine.agents import GreedyAgent, RandomAgent, make_agent
from engine.text_azul import render
from tests.engine.azul_tables import board, table

ROOT = Path(__file__).resolve().parents[2]
MY_SOURCES = ["engine/core.py", "engine/__init__.py", "engine/strict.py", "engine/azul.py"]
ERROR_CALL = re.compile(r"(?:BadNotation|IllegalMove|NotYourTurn|GameOver|BadState|BadOptions)\(\s*\"([a-z_]+)\"")


# --- agents -----------------------------------------------------------------------------------------------------
def test_greedy_takes_the_move_that_scores_most_now() -> None:
    # Blue in line 1 lands next to yellow, red and black on the wall (4 across), the last tiles of the round.
    me = board(wall=[".yrk.", ".....", ".....", ".....", "....."])
    state = table("azul", [me, board()], factories=["b"])
    variant = engine.get_variant("azul")
    assert str(GreedyAgent(1).choose(variant, state, 0)) == "1b1"


def test_greedy_avoids_the_floor_when_it_can() -> None:
    state = table("azul", [board(lines={1: "r"}), board()], factories=["bbbb", "yyyy"])
    move = GreedyAgent(3).choose(engine.get_variant("azul"), state, 0)
    assert str(move)[-1] in "45"  # only lines 4 and 5 take all four tiles without breaking any


def test_greedy_beats_random_over_a_few_games() -> None:
    variant = engine.get_variant("azul")
    wins = 0
    for seed in range(6):
        state = variant.new_game(2, seed)
        agents = [GreedyAgent(seed), RandomAgent(seed)]
        while not variant.is_over(state):
            seat = min(variant.to_act(state))
            state, _ = variant.apply(state, seat, agents[seat].choose(variant, state, seat))
        wins += variant.standings(state)[0] == [0]
    assert wins >= 5


def test_agents_are_repeatable_and_named() -> None:
    state = engine.new_game("azul-grey", 3, seed=2)
    variant = engine.get_variant("azul-grey")
    assert make_agent("random", 4).choose(variant, state, 0) == make_agent("random", 4).choose(variant, state, 0)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("clever")


# --- text board -------------------------------------------------------------------------------------------------
def test_text_board_shows_the_table() -> None:
    me = board(lines={3: "rr"}, floor="1k", score=12)
    state = table("azul", [me, board()], factories=["bbyw"], marker_in_centre=False)
    text = render(state, ["Ann", "Ben"])
    assert "Ann: 12 points  (to move)" in text and "Ben: 0 points" in text
    assert "1: b b y w" not in text and "1: bb y w" in text
    assert "  3     . r r |" in text
    assert "floor 1 k  (-2 of -14)" in text


def test_text_board_of_the_grey_wall_shows_free_spaces_as_dots() -> None:
    state = engine.new_game("azul-grey", 2, seed=1)
    assert "|  . . . . ." in render(state).replace("| .", "|  .")


# --- command line -----------------------------------------------------------------------------------------------
def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


def test_selfplay_prints_one_json_transcript() -> None:
    code, out = run_cli("selfplay", "azul", "--players", "3", "--seed", "4", "--agent", "greedy")
    game = json.loads(out)
    assert code == 0 and game["variant"] == "azul" and game["players"] == 3 and game["agent"] == "greedy"
    assert game["winners"] == game["standings"][0]


def test_selfplay_refuses_an_unknown_variant_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "azul-pink"]) == 2
    assert 'There is no game called "azul-pink"' in capsys.readouterr().err


def test_variants_are_listed() -> None:
    code, out = run_cli("variants")
    assert code == 0 and {"azul", "azul-grey"} <= set(out.split())


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines


def test_play_prints_the_reason_for_a_refused_move_and_goes_on() -> None:
    answers = scripted(["?", "9b1", "zz", "L1C1", "b", "q"])
    out = io.StringIO()
    code = play(engine.get_variant("azul"), 2, 7, lambda prompt: next(answers), out)
    text = out.getvalue()
    assert code == 0
    assert "Legal moves: 1b1" in text
    assert "Refused: There is no factory 9: this game has 5." in text
    assert 'Refused: I can\'t read the move "zz".' in text
    assert "Refused: On the coloured wall every tile has its fixed place" in text


def test_play_runs_a_whole_game_from_typed_moves() -> None:
    variant = engine.get_variant("azul-grey")
    state = variant.new_game(2, 5)
    agent = RandomAgent(5)
    typed: list[str] = []
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        move = agent.choose(variant, state, seat)
        typed.append(str(move).lower())
        state, _ = variant.apply(state, seat, move)
    answers = scripted(typed)
    out = io.StringIO()
    assert play(variant, 2, 5, lambda prompt: next(answers), out) == 0
    assert "game over: scores" in out.getvalue() and "Final standings" in out.getvalue()


def test_play_stops_at_end_of_input() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    assert play(engine.get_variant("azul"), 2, 1, closed, io.StringIO()) == 0


# --- error texts ------------------------------------------------------------------------------------------------
def raised_keys() -> set[str]:
    return {key for source in MY_SOURCES for key in ERROR_CALL.findall((ROOT / source).read_text(encoding="utf-8"))}


def test_the_key_scan_finds_the_errors() -> None:
    assert {"not_your_turn", "line_full", "column_not_legal", "invalid_state", "players_out_of_range"} <= raised_keys()


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_error_has_a_text_in_every_language(lang: str) -> None:
    texts = catalogue(lang)
    missing = sorted(key for key in raised_keys() if f"error.{key}" not in texts)
    assert not missing, f"{lang} lacks texts for {missing}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_error_texts_use_only_known_parameters(lang: str) -> None:
    english = catalogue("en")
    for key in raised_keys():
        text = catalogue(lang)[f"error.{key}"]
        used = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        available = {name for _, name, _, _ in string.Formatter().parse(english[f"error.{key}"]) if name}
        assert used <= available | {"factory", "factories", "line", "column", "expected", "source"}, (lang, key)


def test_a_refusal_reads_naturally_in_polish_and_ukrainian() -> None:
    state = table("azul", [board(lines={3: "r"}), board()], factories=["bbbb"])
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(state, 0, "1b3")
    error = refused.value
    assert t(f"error.{error.key}", "pl", **error.params) == "W linii wzorów 3 leżą już płytki innego koloru."
    assert t(f"error.{error.key}", "uk", **error.params) == "На рівні складу 3 вже лежать плитки іншого кольору."
    assert "already holds red tiles, so blue cannot go there" in t(f"error.{error.key}", "en", **error.params)


def test_text_board_during_grey_wall_tiling_names_the_waiting_line() -> None:
    state = table("azul-grey", [board(lines={2: "bb"}), board()], factories=["k"])
    state, _ = engine.apply(state, 0, "1k5")
    text = render(state, ["Ann", "Ben"])
    assert "wall tiling, choosing columns: Ann" in text
    assert "Ann: 0 points  (choosing a column for line 2)" in text
    assert "Factories" not in text
