"""Azul moves: one compact notation, the bot's choices, and specific refusals for what cannot be read."""

from __future__ import annotations

import pytest

import engine
from engine.azul import _TAKE_SETS, _TAKES, _WALL_MOVES, CENTRE, FLOOR, PlaceOnWall, Take

ALL_MOVES = [move for by_color in _TAKES for by_line in by_color for move in by_line] + [
    move for row in _WALL_MOVES for move in row
]
VARIANT = engine.get_variant("azul-grey")


def test_notation_examples() -> None:
    assert str(Take(2, 0, 3)) == "3b4"
    assert str(Take(CENTRE, 2, 4)) == "cr5"
    assert str(Take(0, 3, FLOOR)) == "1kF"
    assert str(PlaceOnWall(2, 1)) == "L3C2"


@pytest.mark.parametrize("move", ALL_MOVES, ids=str)
def test_parse_and_str_are_inverses(move: engine.Move) -> None:
    text = str(move)
    assert VARIANT.parse_move(text) == move
    assert VARIANT.parse_move(text.lower()) == move
    assert VARIANT.parse_move(f"  {text.upper()} ") == move


@pytest.mark.parametrize("move", ALL_MOVES, ids=str)
def test_choices_and_move_from_choices_are_inverses(move: engine.Move) -> None:
    choices = dict(move.choices())
    assert VARIANT.move_from_choices(move.command, choices) == move
    assert all(isinstance(token, str) and 0 < len(token) <= 10 for token in choices.values())


def test_choice_tokens_are_the_documented_ones() -> None:
    assert Take(8, 4, FLOOR).choices() == (("source", "9"), ("color", "white"), ("line", "floor"))
    assert Take(CENTRE, 0, 0).choices() == (("source", "centre"), ("color", "blue"), ("line", "1"))
    assert PlaceOnWall(0, 4).choices() == (("line", "1"), ("column", "5"))
    assert VARIANT.move_from_choices("take", {"source": "Centre", "color": "b", "line": "F"}) == Take(CENTRE, 0, FLOOR)


@pytest.mark.parametrize("text", ["", "3", "3b", "0b1", "10b1", "3q1", "3b6", "3b0", "cb", "L6C1", "L1C0", "x", "3b4x"])
def test_unreadable_notation_is_refused(text: str) -> None:
    with pytest.raises(engine.BadNotation) as refused:
        VARIANT.parse_move(text)
    assert refused.value.key == "bad_notation"


def test_notation_of_another_type_is_refused() -> None:
    with pytest.raises(engine.BadNotation):
        VARIANT.parse_move(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "choices", "key"),
    [
        ("take", {"source": "1", "color": "blue"}, "missing_choice"),
        ("take", {"source": "1", "color": "pink", "line": "1"}, "bad_choice"),
        ("take", {"source": "10", "color": "blue", "line": "1"}, "bad_choice"),
        ("take", {"source": "1", "color": "blue", "line": "6"}, "bad_choice"),
        ("wall", {"line": "1"}, "missing_choice"),
        ("wall", {"line": "1", "column": "0"}, "bad_choice"),
        ("place", {}, "unknown_command"),
    ],
)
def test_unreadable_choices_are_refused(command: str, choices: dict[str, str], key: str) -> None:
    with pytest.raises(engine.BadNotation) as refused:
        VARIANT.move_from_choices(command, choices)
    assert refused.value.key == key


def test_apply_accepts_notation_text() -> None:
    state = engine.new_game("azul", 2, seed=3)
    move = engine.legal_moves(state, 0)[0]
    assert engine.apply(state, 0, str(move))[0] == engine.apply(state, 0, move)[0]
    with pytest.raises(engine.BadNotation):
        engine.apply(state, 0, "zz")


def test_legal_moves_are_distinct_and_canonical() -> None:
    state = engine.new_game("azul", 4, seed=9)
    notations = [str(move) for move in engine.legal_moves(state, 0)]
    assert len(notations) == len(set(notations))
    assert all(engine.parse_move("azul", text) in engine.legal_moves(state, 0) for text in notations)


def test_the_take_sets_hold_the_interned_takes_into_each_masks_lines_then_the_floor() -> None:
    lines = [*range(FLOOR), FLOOR]
    for source, by_color in enumerate(_TAKE_SETS):
        for color, by_mask in enumerate(by_color):
            assert len(by_mask) == 1 << FLOOR
            for mask, takes in enumerate(by_mask):
                wanted = [_TAKES[source][color][line] for line in lines if line == FLOOR or mask >> line & 1]
                assert len(takes) == len(wanted) and all(a is b for a, b in zip(takes, wanted, strict=True))
