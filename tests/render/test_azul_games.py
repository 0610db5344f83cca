"""Whole seeded games through the engine, drawn after every move: every real event and state must draw."""

from __future__ import annotations

import pytest

import render
from render.azul import NARROW, WIDTH, read_events
from tools.samples import NAMES, play


@pytest.mark.slow  # every state of whole games drawn
@pytest.mark.parametrize(("variant", "players", "seed"), [("azul", 2, 11), ("azul", 4, 12), ("azul-grey", 3, 13)])
def test_every_state_of_a_game_draws(variant: str, players: int, seed: int) -> None:
    sizes = set()
    kinds: set[str] = set()
    for state, events in play(variant, players, seed):
        kinds.update(event.kind for event in events)
        last = read_events(events)
        if last.seat is not None and last.line is not None:
            assert last.line_added <= state.boards[last.seat].line_count[last.line]
        render.render_table(state, names=NAMES[:players], events=events)  # with its legend, when it has one
        table = render.renderer_of("azul").draw_table(state, names=NAMES[:players], events=events, locale="en")
        sizes.add(table.size)
    assert {"take", "wall", "round_scored", "game_over"} <= kinds
    offer_and_over = {size[1] for size in sizes}
    assert {size[0] for size in sizes} == {NARROW if players == 2 else WIDTH} and len(offer_and_over) == 2
