"""Text boards of every game for the terminal game (``python -m engine play``): what a move changes shows up."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

import engine
from engine.__main__ import _text_board, describe, play, text_module
from engine.agents import make_agent
from engine.summer_pavilion import CENTRE, LETTERS, Place
from engine.text_queens_garden import render as garden_text
from engine.text_summer_pavilion import render as pavilion_text
from engine.text_summer_pavilion import star_token
from tests.engine.golden_files import GOLDEN


def section(text: str, name: str) -> list[str]:
    """The lines of one player's part of a text board: from ``name:`` to the next blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{name}: "))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def first_move(state: Any, seat: int, command: str, wanted: Any = lambda move: True) -> Any:
    return next(m for m in engine.legal_moves(state, seat) if m.command == command and wanted(m))


def play_until(state: Any, command: str) -> tuple[Any, int, Any]:
    """Play first legal moves (never ``command``... unless nothing else is legal) until ``command`` is legal."""
    while True:
        seat = min(engine.to_act(state))
        moves = engine.legal_moves(state, seat)
        chosen = [m for m in moves if m.command == command]
        if chosen:
            return state, seat, chosen
        state, _ = engine.apply(state, seat, moves[0])


@pytest.mark.parametrize("variant", engine.variant_names())
def test_every_game_has_a_text_board(variant: str) -> None:
    assert text_module(engine.get_variant(variant).game).render
    text = _text_board(engine.new_game(variant, 3, seed=4))
    assert text.startswith(f"{variant} - round 1") and "to move" in text
    assert not text.lstrip().startswith("{")  # not the JSON state
    assert text.count("Seat 2:") == 1


# --- Summer Pavilion --------------------------------------------------------------------------------------------
def test_summer_pavilion_shows_the_table_and_what_a_take_moves() -> None:
    state = engine.new_game("summer-pavilion", 2, seed=3)
    text = pavilion_text(state, ["Ala", "Bob"])
    assert "round 1 of 6" in text and "wild purple (p)" in text and "taking tiles, Ala to move" in text
    assert "Ala: 5 points  (to move)" in text and "Bob: 5 points" in text
    assert "Centre     1" in text  # the start tile waits in the centre
    move = first_move(state, 0, "take")
    after, _ = engine.apply(state, 0, move)
    hand = section(pavilion_text(after, ["Ala", "Bob"]), "Ala")[1]
    taken = after.boards[0].hand
    assert sum(taken) > 0 and all(LETTERS[c] * n in hand for c, n in enumerate(taken) if n)


@pytest.mark.parametrize("variant", ["summer-pavilion", "summer-pavilion-mono"])
def test_summer_pavilion_shows_a_placed_tile_on_its_star_row(variant: str) -> None:
    state, seat, places = play_until(engine.new_game(variant, 2, seed=6), "place")
    move: Place = places[-1]
    before = section(pavilion_text(state), f"Seat {seat}")
    after_state, _ = engine.apply(state, seat, move)
    after = section(pavilion_text(after_state), f"Seat {seat}")
    mono = variant.endswith("mono")
    row = next(line for line in after if line.startswith(f"  {star_token(mono, move.star)} "))
    cells = row.split()[-6:]
    assert cells[move.space] == LETTERS[move.color].upper()
    old_row = next(line for line in before if line.startswith(f"  {star_token(mono, move.star)} "))
    assert old_row.split()[-6:][move.space].isdigit()  # a free space shows its cost
    assert f"{after_state.boards[seat].score} points" in after[0]
    assert ("c centre" in row) == (move.star == CENTRE)


def finished(variant: str) -> Any:
    state = engine.new_game(variant, 2, seed=1)
    agent = make_agent("random", 1)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
    return state


def test_summer_pavilion_game_over_board() -> None:
    state = finished("summer-pavilion")
    text = pavilion_text(state)
    assert "game over" in text and "to move" not in text
    for seat, score in enumerate(engine.scores(state)):
        assert f"Seat {seat}: {score} point" in text


# --- Queen's Garden ---------------------------------------------------------------------------------------------
def test_queens_garden_shows_the_round_display_and_storage() -> None:
    state = engine.new_game("queens-garden", 2, seed=4)
    text = garden_text(state, ["Ala", "Bob"])
    variant = engine.get_variant("queens-garden")
    top = variant.notation.kind(state.stack[0])  # type: ignore[attr-defined]
    assert "round 1 of 4 - Ala to move" in text and "This round scores:" in text
    assert f"s    expansion {top} with" in text
    assert f"Ala: {state.players[0].score} points  (to move)" in text
    assert f"storage    {state.players[0].jokers}j" in text and "expansions -  (0 of 2)" in text
    garden = "\n".join(section(text, "Ala"))
    for name in ("F1", "F6", "(F)", "(S1)", "(B3)", "A1", "A6"):
        assert name in garden
    assert "A1-1" not in garden  # no expansion there yet: its cells cannot take a tile


def test_queens_garden_shows_a_placed_tile_where_its_cell_name_was() -> None:
    state, seat, tiles = play_until(engine.new_game("queens-garden", 2, seed=4), "tile")
    move = tiles[0]
    before = "\n".join(section(garden_text(state), f"Seat {seat}"))
    assert f" {move.cell}" in before
    after_state, _ = engine.apply(state, seat, move)
    after = section(garden_text(after_state), f"Seat {seat}")
    garden = "\n".join(after[3:])
    assert move.cell not in garden.split() and move.tile in garden.split()
    assert f"{after_state.players[seat].score} point" in after[0]


def test_queens_garden_shows_a_laid_expansion_and_its_pavilion() -> None:
    state, seat, expansions = play_until(engine.new_game("queens-garden", 2, seed=4), "expansion")
    face_up = [m for m in expansions if m.expansion != "supply"]
    move = (face_up or expansions)[0]
    after_state, _ = engine.apply(state, seat, move)
    garden = "\n".join(section(garden_text(after_state), f"Seat {seat}")[3:]).split()
    area = move.area  # e.g. "A3"
    assert f"{area}-1" in garden or any(token.startswith(f"{area}-") for token in garden)
    assert area not in garden  # the bare area name is gone: the area is laid
    if move.expansion != "supply":
        assert f"(P{area[1]})" in garden and move.expansion in garden


def test_queens_garden_game_over_board_shows_the_final_scoring() -> None:
    state = finished("queens-garden")
    text = garden_text(state)
    assert "game over" in text and "to move" not in text and "first to pass" not in text
    for seat, score in enumerate(engine.scores(state)):
        lines = section(text, f"Seat {seat}")
        assert lines[0] == f"Seat {seat}: {score} point" + "s" * (score != 1)
        assert lines[1].startswith(f"  final scoring: storage {state.final[seat]['storage']}, ")


# --- the hot-seat game ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["summer-pavilion-mono", "queens-garden-variant"])
def test_play_prints_text_boards_and_move_hints(variant: str) -> None:
    state = engine.new_game(variant, 2, seed=9)
    move = str(engine.legal_moves(state, 0)[0])
    answers = iter([move, "b", "q"])
    out = io.StringIO()
    assert play(engine.get_variant(variant), 2, 9, lambda prompt: next(answers), out) == 0
    printed = out.getvalue()
    assert "Type a move, e.g." in printed and '{"variant"' not in printed
    assert printed.count(f"{variant} - round 1") == 3  # the start, after the move, and on 'b'


@pytest.mark.parametrize(
    "transcript",
    ["azul-grey-3p-seed2-random.json", "summer_pavilion-4p-seed1-greedy.json", "queens_garden_standard_4p.json"],
)
def test_every_event_of_a_whole_game_is_told_in_words(transcript: str) -> None:
    game = json.loads((GOLDEN / transcript).read_text(encoding="utf-8"))
    variant = engine.get_variant(game["variant"])
    state = variant.new_game(game["players"], game["seed"])
    told: dict[str, str] = {}
    for entry in game["rounds"]:
        for move in entry["moves"]:
            state, events = engine.apply(state, move["seat"], move["notation"])
            for event in events:
                told[event.kind] = describe(event, variant.game)
    assert {"round_scored", "game_over"} <= set(told)
    for kind, line in told.items():
        assert "{" not in line and not line.startswith(kind), f"{kind} is not described: {line}"
