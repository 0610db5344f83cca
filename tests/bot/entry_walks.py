"""How a player reaches a move: through the Play picker's steps (as its selects show them) or by typing each option
in the slash command's autocomplete. The reach test and ``python -m bench entry`` walk games with these."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engine
from bot.app.move_entry import Entry, Run, Step, plan, run_ways
from engine import Move, Variant
from engine.agents import GreedyAgent
from tests.bot.discord_limits import ROWS, SELECT_OPTIONS


def positions(variant: Variant[Any], players: int, seed: int, greedy: bool) -> Iterator[tuple[Any, int]]:
    """Every position of a random (or greedy) game of ``variant``, once per seat to act."""
    rng, agent = random.Random(seed), GreedyAgent(seed)
    state = variant.new_game(players, seed)
    while not variant.is_over(state):
        for seat in sorted(variant.to_act(state)):
            yield state, seat
        seat = min(variant.to_act(state))
        moves = variant.legal_moves(state, seat)
        move = agent.choose(variant, state, seat) if greedy else rng.choice(moves)
        state = variant.apply_unchecked(state, seat, move)


# --- the picker ------------------------------------------------------------------------------------------------
def picker_steps(state: Any, seat: int, move: Move, shapes: list[dict[str, str]], commands: int) -> int | None:
    """The picker steps ``move`` takes (None when a step does not offer it); a run (the grey wall) is one step,
    its selects picked one line at a time until the whole run, holding ``move``, is chosen."""
    variant = engine.variant_of(state)
    wanted = dict(move.choices())
    steps = 1 if commands > 1 else 0
    if engine.variant_of(state).is_run(move.command):
        run = Run(move.command, run_ways(state, seat, move.command))
        return None if run_picks(run, move) is None else steps + 1
    chosen: dict[str, str] = {}
    for _ in range(len(wanted) + 1):
        step = plan(state, seat, move.command, chosen, shapes)
        if step is None:
            return None
        if step.done:
            return steps if all(step.chosen.get(name) == token for name, token in wanted.items()) else None
        steps += 1
        chosen = dict(step.chosen)
        option = step.options[0]
        if step.is_set:
            if not ticks(variant, move.command, option, wanted[option], step):
                return None
            chosen[option] = wanted[option]
            continue
        value = "|".join(wanted.get(name, "") for name in step.options)
        if value not in step.tokens[: ROWS * SELECT_OPTIONS]:
            return None
        chosen.update(zip(step.options, value.split("|"), strict=True))
    return None


def run_picks(run: Run, move: Move) -> int | None:
    """Picks in a run's step until one way, holding ``move``, is left: ``move`` first (when a select offers it;
    else it follows from the others), then the first column offered for each line still open."""
    picks = 0
    if any(move in moves for moves in run.offered().values()):
        run, picks = run.pick(move), 1
    while run.chosen() is None:
        offered = run.offered()
        open_key = next((key for key, moves in offered.items() if not set(moves) & set(run.picked)), None)
        if open_key is None:
            return None
        run, picks = run.pick(offered[open_key][0]), picks + 1
    return picks if move in (run.chosen() or ()) else None


def ticks(variant: Variant[Any], command: str, option: str, token: str, step: Step) -> bool:
    """Whether the set ``token`` can be ticked in the step's one multi-select (one option per item held)."""
    units = sum(step.pool.values())
    counts = variant.split_set(command, option, token)
    return units <= SELECT_OPTIONS and all(step.pool.get(item, 0) >= count for item, count in counts.items())


# --- the autocomplete --------------------------------------------------------------------------------------------
def by_autocomplete(state: Any, seat: int, move: Move, cache: dict[Any, list[str]], shapes: list[Any]) -> bool:
    """Whether typing each option of ``move`` in full offers it among the autocomplete's choices."""
    given: dict[str, str | None] = {}
    for option, token in move.choices():
        key = (move.command, option, tuple(sorted(given.items())), token)
        if key not in cache:
            shown = Entry(state, seat, move.command, option, "en", shapes).shown(given, token)
            cache[key] = [value for value, _ in shown]
        if token not in cache[key]:
            return False
        given[option] = token
    return True
