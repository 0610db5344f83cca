"""The Play picker's rules without Discord: whether a command is a run and an option a set, what one select's values
choose (a set or a run's moves the step offered, else refused), the rules' reason against a set, the moves a run's
picks make, and the moves a step's picture shows. :mod:`bot.ui.picker` asks these and turns the answers into selects,
buttons and words; the plan of the steps themselves is :func:`bot.app.move_entry.plan`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import engine
from bot.app.errors import Refusal
from bot.app.move_entry import Entry, Run, Step, run_ways, shapes_of
from bot.games import adapter_of
from engine import GameState, Move
from engine.core import ANY_SET, set_options

RUN = "run"
"""The picker's key for a run's moves picked so far (their notations, space-separated), and the option of its step."""


def is_run(state: GameState, command: str) -> bool:
    """Whether ``command`` is played again and again in one go (the grey wall's columns): chosen whole in one step."""
    return engine.variant_of(state).is_run(command)


def largest_set(state: GameState, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> int:
    """The most items a legal set of ``option`` may hold now (Summer Pavilion keeps at most 4 tiles)."""
    return engine.variant_of(state).largest_set(state, seat, command, option, chosen)


def chosen_after(
    state: GameState,
    seat: int,
    command: str,
    *,
    option: str,
    chosen: Mapping[str, str],
    values: Sequence[str],
    locale: str,
) -> dict[str, str]:
    """The choices after one select of a (not run) step sent ``values``: ``option`` names the step's options joined
    by ``+``; a set's multi-select sends its ticked items, any other select one value naming every option of the
    step (joined by ``|``). Anything else was not made by a person clicking (``bad_control``)."""
    options = option.split("+")
    if options[0] in set_options(engine.variant_of(state), command):
        token = chosen_set(state, seat, command, dict(chosen), option=options[0], values=values, locale=locale)
        return {**chosen, options[0]: token}
    if len(values) != 1 or values[0].count("|") != len(options) - 1:
        raise Refusal("bad_control")
    return {**chosen, **dict(zip(options, values[0].split("|"), strict=True))}


def picked_run(state: GameState, seat: int, command: str, picked: str, values: Sequence[str]) -> dict[str, str]:
    """The run's picks after one select of its step: the move chosen there replaces that key's earlier pick (lists
    every way of the run: call it off the event loop)."""
    run = run_of(state, seat, command, picked)
    offered = {str(move): move for moves in run.offered().values() for move in moves}
    if len(values) != 1 or values[0] not in offered:
        raise Refusal("bad_control")  # Discord sends one offered value; anything else was not made by clicking
    return {RUN: " ".join(map(str, run.pick(offered[values[0]]).picked))}


def run_of(state: GameState, seat: int, command: str, picked: str) -> Run:
    """Every way to play the run of ``command`` now, with the picks saved in the picker (those still possible)."""
    ways = run_ways(state, seat, command)
    possible = {move for way in ways for move in way}
    moves = [engine.parse_move(state.variant, notation) for notation in picked.split()]
    return Run(command, ways, tuple(move for move in moves if move in possible))


def run_choices(variant: str, picked: str) -> list[dict[str, str]]:
    """The options of each move of a whole run as the picker saved it (their notations), in order."""
    return [dict(engine.parse_move(variant, notation).choices()) for notation in picked.split()]


def chosen_set(
    state: GameState,
    seat: int,
    command: str,
    chosen: dict[str, str],
    *,
    option: str,
    values: Sequence[str],
    locale: str,
) -> str:
    """The set token of a multi-select's ticked items; the engine says why when the set is not allowed."""
    entry = Entry(state, seat, command, option, locale)
    choice = entry.set_choice(chosen)
    offered = {f"{item}:{number}" for item, most in choice.pool.items() for number in range(1, most + 1)}
    if len(set(values)) != len(values) or not offered.issuperset(values):
        raise Refusal("bad_control")  # items the select never offered, or one twice: not made by a person clicking
    token = entry.join(Counter(value.partition(":")[0] for value in values))
    if not entry.is_legal(token, choice):
        explain_set(state, seat, command, {**chosen, option: token})
    return token


def explain_set(state: GameState, seat: int, command: str, chosen: dict[str, str]) -> None:
    """Raise the rules' reason against a set: the engine judges a whole move holding it (any legal rest)."""
    shapes = [shape for shape in shapes_of(state, seat) if shape["command"] == command]
    variant = engine.variant_of(state)
    for shape in shapes:
        if all(shape.get(name) in (ANY_SET, value) for name, value in chosen.items()):
            choices = {name: value for name, value in shape.items() if name != "command"}
            engine.apply(state, seat, variant.move_from_choices(command, {**choices, **chosen}))
            return
    raise Refusal("stale")


def preview_candidates(state: GameState, step: Step | None) -> list[tuple[str, Move]]:
    """The moves a step offers, each with the mark its label names, for the step's picture: for a step that chooses
    an option words cannot show (``MoveCommand.previews``); empty for any other step."""
    if step is None or step.done or step.is_set:
        return []
    variant = engine.variant_of(state)
    declared = variant.command(step.command)
    if declared is None or not set(declared.previews).intersection(step.options):
        return []
    adapter = adapter_of(state.variant)
    return [
        adapter.preview_candidate(
            variant, step.command, {**step.chosen, **dict(zip(step.options, token.split("|"), strict=True))}
        )
        for token in step.tokens
    ]


__all__ = [
    "RUN",
    "chosen_after",
    "chosen_set",
    "explain_set",
    "is_run",
    "largest_set",
    "picked_run",
    "preview_candidates",
    "run_choices",
    "run_of",
]
