"""Every legal move is reachable in at most four picker steps and by typing it in the autocomplete (a sample of
greedy-game positions per variant; ``python -m bench entry`` prints the full report)."""

from __future__ import annotations

import pytest

import engine
from bot.app.move_entry import shapes_of
from tests.bot.entry_walks import by_autocomplete, picker_steps, positions

MAX_STEPS = 4


@pytest.mark.slow  # enters thousands of moves
@pytest.mark.parametrize("name", engine.variant_names())
def test_every_legal_move_is_reachable_by_picker_and_by_typing(name: str) -> None:
    variant = engine.get_variant(name)
    checked = 0
    for index, (state, seat) in enumerate(positions(variant, 2, 11, greedy=True)):
        if index % 15:
            continue
        shapes = shapes_of(state, seat)
        commands = len({shape["command"] for shape in shapes})
        cache: dict[object, list[str]] = {}
        for move in variant.legal_moves(state, seat):
            steps = picker_steps(state, seat, move, shapes, commands)
            assert steps is not None and steps <= MAX_STEPS, (name, str(move), steps)
            assert by_autocomplete(state, seat, move, cache, shapes), (name, str(move))
            checked += 1
    assert checked > 50
