"""The autocomplete keeps what it works out per game version: the same answers as working it out afresh."""

from __future__ import annotations

import engine
from bot.app.move_entry import Entry, autocomplete, position, read_given
from engine.agents import GreedyAgent


def busy_position(variant: str, plies: int) -> tuple[engine.GameState, int]:
    state = engine.get_variant(variant).new_game(2, 11)
    agent = GreedyAgent(11)
    for _ in range(plies):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
    return state, min(engine.to_act(state))


def test_a_position_is_kept_per_game_version_and_seat() -> None:
    state, seat = busy_position("summer-pavilion", 6)
    kept = position((1, 6), state, seat)
    assert position((1, 6), state, seat) is kept
    assert position((1, 7), state, seat) is not kept
    assert position((2, 6), state, seat) is not kept


def test_kept_answers_equal_fresh_ones(monkeypatch) -> None:
    monkeypatch.setattr("bot.app.move_entry.LABEL_BUDGET", 60.0)  # both label every match, however busy the machine
    for variant, plies in (("summer-pavilion-mono", 8), ("queens-garden", 10), ("azul", 3)):
        state, seat = busy_position(variant, plies)
        shapes = engine.variant_of(state).move_shapes(state, seat)
        for shape in shapes[:6]:
            command, given = shape[0][1], {}
            for option, token in shape[1:]:
                for typed in ("", token[:1], "2x", "blue", "red, 2"):
                    fresh_given = read_given(state, seat, command, given, "en")
                    fresh = Entry(state, seat, command, option, "en").shown(fresh_given, typed)
                    for _ in range(2):  # the second time from what was kept
                        kept = autocomplete(
                            (variant, plies),
                            state,
                            seat,
                            command=command,
                            option=option,
                            given=given,
                            typed=typed,
                            locale="en",
                        )
                        assert kept == fresh, (variant, command, option, typed)
                if token != "*":
                    given[option] = token
