"""One conformance suite for every registered variant (in the style of OpenSpiel's generic game tests).

Every test is parametrised over ``engine.variant_names()``, so a new game is checked the moment it is registered:
new games for each player count, random and greedy play to the end with replay equality, the JSON round trip and
strict validation (wrongly typed, missing and impossible fields refused with ``BadState``), the notation round trip
of every listed move, every listed move accepted and every other seen move refused, moves of other seats and
garbage refused without changing the state, ``apply_unchecked`` equal to ``apply``.

The quick part plays 2-player games and samples the listed moves; ``-m slow`` adds every player count, the greedy
agent, every listed move of every position and the mutation of several positions per player count.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

import engine
from engine import BadNotation, BadOptions, BadState, EngineError, IllegalMove, Move, NotYourTurn, Variant
from engine.agents import make_agent

NAMES = engine.variant_names()
CASES = [
    (name, players)
    for name in NAMES
    for players in range(engine.get_variant(name).min_players, engine.get_variant(name).max_players + 1)
]
MAX_PLIES = 5000
GARBAGE = ["", " ", "zzz", "pass pass pass pass pass", "1" * 300, "\x00", "ł", "-", "+", "c", "take", "@@@", "9z9"]


@dataclass
class Played:
    """A finished game: the positions it went through (state before each move), the moves and the last state."""

    variant: Variant[Any]
    players: int
    seed: int
    states: list[Any] = field(default_factory=list)
    log: list[tuple[int, Move]] = field(default_factory=list)
    final: Any = None

    def sample(self, count: int) -> list[Any]:
        """``count`` positions spread over the game, never the first one (mid-game states are the interesting ones)."""
        step = max(1, len(self.states) // (count + 1))
        return self.states[step::step][:count]


def dumped(variant: Variant[Any], state: Any) -> str:
    return json.dumps(variant.to_json(state), sort_keys=True)


def evenly(moves: list[Move], most: int | None) -> list[Move]:
    if most is None or len(moves) <= most:
        return moves
    return moves[:: len(moves) // most][:most]


def check_position(variant: Variant[Any], state: Any, moves_checked: int | None) -> None:
    """What must hold in every position of every game."""
    players = len(variant.scores(state))
    to_act = variant.to_act(state)
    assert to_act, "somebody acts until the game is over"
    assert to_act <= set(range(players)) and not variant.is_over(state)
    raw = variant.to_json(state)
    assert json.loads(json.dumps(raw)) == raw, "to_json gives plain JSON"
    assert variant.to_json(variant.from_json(raw)) == raw, "the JSON round trip keeps the state"
    assert variant.to_json(engine.from_json(json.loads(json.dumps(raw)))) == raw
    for seat in range(players):
        moves = variant.legal_moves(state, seat)
        if seat not in to_act:
            assert moves == [], "only seats that act have moves"
            continue
        assert moves, "a seat that acts always has a move"
        assert len({str(m) for m in moves}) == len(moves), "every listed move has its own notation"
        for move in evenly(moves, moves_checked):
            assert variant.parse_move(str(move)) == move
            assert variant.move_from_choices(move.command, dict(move.choices())) == move
            after, events = variant.apply(state, seat, move)
            assert isinstance(events, list) and all(isinstance(e, engine.Event) for e in events)
            assert dumped(variant, variant.apply_unchecked(state, seat, move)) == dumped(variant, after)
    assert variant.to_json(state) == raw, "apply never changes its input"


def play(name: str, players: int, seed: int, agent: str, *, moves_checked: int | None = 0, every: int = 1) -> Played:
    """Play to the end with ``agent``, checking every ``every``-th position (``moves_checked`` listed moves each)."""
    variant = engine.get_variant(name)
    chooser = make_agent(agent, seed)
    state = variant.new_game(players, seed)
    game = Played(variant, players, seed)
    while not variant.is_over(state):
        assert len(game.log) < MAX_PLIES, "the game ends"
        if moves_checked != 0 and len(game.log) % every == 0:
            check_position(variant, state, moves_checked)
        seat = min(variant.to_act(state))
        move = chooser.choose(variant, state, seat)
        game.states.append(state)
        game.log.append((seat, move))
        state, _ = variant.apply(state, seat, move)
    assert variant.to_act(state) == frozenset()
    assert all(variant.legal_moves(state, seat) == [] for seat in range(players))
    game.final = state
    return game


@cache
def random_game(name: str, players: int) -> Played:
    return play(name, players, seed=players * 101 + 7, agent="random")


def check_end(game: Played) -> None:
    variant, state = game.variant, game.final
    standings = variant.standings(state)
    assert sorted(seat for group in standings for seat in group) == list(range(game.players))
    scores = variant.scores(state)
    assert all(scores[a] >= scores[b] for ga, gb in itertools.pairwise(standings) for a in ga for b in gb)
    replayed = engine.replay(variant.name, game.players, game.seed, [(seat, str(move)) for seat, move in game.log])
    assert dumped(variant, replayed) == dumped(variant, state), "the seed and the move log replay the game"
    raw = variant.to_json(state)
    assert variant.to_json(variant.from_json(raw)) == raw


# --- new games ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "players"), CASES)
def test_new_game_for_each_player_count(name: str, players: int) -> None:
    variant = engine.get_variant(name)
    state = variant.new_game(players, seed=11)
    assert engine.variant_of(state) is variant and variant.to_json(state)["variant"] == name
    assert len(variant.scores(state)) == players and variant.round_number(state) == 1
    assert all(isinstance(e, engine.Event) for e in variant.opening_events(state))
    check_position(variant, state, moves_checked=None)
    assert dumped(variant, variant.new_game(players, seed=11)) == dumped(variant, state), "a seed makes one game"


@pytest.mark.parametrize("name", NAMES)
def test_wrong_player_counts_and_options_are_refused(name: str) -> None:
    variant = engine.get_variant(name)
    for players in (variant.min_players - 1, variant.max_players + 1, 0, -1):
        with pytest.raises(BadOptions):
            variant.new_game(players, seed=1)
    with pytest.raises(BadOptions):
        variant.new_game(variant.min_players, seed=1, options={"no-such-option": True})
    with pytest.raises(BadOptions):
        engine.new_game(name + "-no-such-variant", variant.min_players, seed=1)


# --- play to the end ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_random_two_player_game_checked_at_every_position(name: str) -> None:
    game = play(name, 2, seed=5, agent="random", moves_checked=12)
    check_end(game)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_game_checked_at_every_position(name: str, players: int) -> None:
    game = play(name, players, seed=players, agent="random", moves_checked=60)
    check_end(game)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_greedy_game_to_the_end(name: str, players: int) -> None:
    game = play(name, players, seed=3, agent="greedy", moves_checked=8, every=5)
    check_end(game)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_listed_move_of_sampled_positions(name: str) -> None:
    for state in random_game(name, 2).sample(6):
        check_position(engine.get_variant(name), state, moves_checked=None)


# --- refusals -----------------------------------------------------------------------------------------------------
def refused(variant: Variant[Any], state: Any, seat: int, move: Any, expected: type[EngineError]) -> None:
    before = dumped(variant, state)
    with pytest.raises(expected):
        variant.apply(state, seat, move)
    assert dumped(variant, state) == before, "a refused move changes nothing"


@pytest.mark.parametrize("name", NAMES)
def test_moves_of_other_seats_are_refused(name: str) -> None:
    variant = engine.get_variant(name)
    game = random_game(name, variant.max_players)
    for state in game.sample(8):
        to_act = variant.to_act(state)
        seat = min(to_act)
        move = variant.legal_moves(state, seat)[0]
        for other in sorted(set(range(game.players)) - to_act):
            refused(variant, state, other, move, NotYourTurn)


@pytest.mark.parametrize("name", NAMES)
def test_garbage_is_refused(name: str) -> None:
    variant = engine.get_variant(name)
    state = random_game(name, 2).sample(1)[0]
    seat = min(variant.to_act(state))
    for text in GARBAGE:
        with pytest.raises(BadNotation):
            variant.parse_move(text)
        before = dumped(variant, state)
        with pytest.raises(BadNotation):
            engine.apply(state, seat, text)
        assert dumped(variant, state) == before
    with pytest.raises(BadNotation):
        variant.move_from_choices("no-such-command", {})
    for move in variant.legal_moves(state, seat)[:20]:
        for option, _ in move.choices():
            with pytest.raises(BadNotation):
                variant.move_from_choices(move.command, {**dict(move.choices()), option: "%%%"})


@pytest.mark.parametrize("name", NAMES)
def test_moves_of_other_games_are_refused(name: str) -> None:
    variant = engine.get_variant(name)
    state = random_game(name, 2).sample(1)[0]
    seat = min(variant.to_act(state))
    for other in NAMES:
        if engine.get_variant(other).game == variant.game:
            continue
        for move in random_game(other, 2).sample(3):
            foreign = engine.legal_moves(move, min(engine.to_act(move)))[0]
            refused(variant, state, seat, foreign, EngineError)


@pytest.mark.parametrize("name", NAMES)
def test_moves_seen_elsewhere_are_accepted_exactly_when_listed(name: str) -> None:
    """A move listed in some position of the game is accepted in another exactly when that one lists it too."""
    variant = engine.get_variant(name)
    game = random_game(name, 2)
    seen: dict[str, Move] = {}
    for state in game.sample(10):
        for move in variant.legal_moves(state, min(variant.to_act(state)))[:300]:
            seen.setdefault(str(move), move)
    for state in game.sample(10):
        seat = min(variant.to_act(state))
        listed = {str(m) for m in variant.legal_moves(state, seat)}
        for text, move in seen.items():
            if text in listed:
                variant.apply(state, seat, move)
            else:
                refused(variant, state, seat, move, IllegalMove)


# --- strict JSON --------------------------------------------------------------------------------------------------
Path = tuple[str | int, ...]


def nodes(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value inside a JSON document with its path (the document itself excluded)."""
    children: list[tuple[str | int, Any]] = []
    if isinstance(value, dict):
        children = list(value.items())
    elif isinstance(value, list):
        children = list(enumerate(value))
    for key, child in children:
        yield (*path, key), child
        yield from nodes(child, (*path, key))


def wrong_values(path: Path, value: Any) -> list[Any]:
    """Values of the wrong type, or impossible ones, for the field at ``path``."""
    if isinstance(value, bool):
        return [str(value).lower(), int(value), None, [value]]
    if isinstance(value, int):
        wrong: list[Any] = [str(value), float(value), value == 0, None, [value]]
        if path != ("seed",):  # any integer seeds a game
            wrong.append(-2)  # the lowest count, seat, colour or score anywhere is -1
        return wrong
    if isinstance(value, str):
        return [7, None, [value], "no-such-" + value]
    if isinstance(value, list):
        return [{}, "x", None, 0]
    return [[], "x", None, 0]


def parent_of(raw: Any, path: Path) -> Any:
    for key in path[:-1]:
        raw = raw[key]
    return raw


def malformed(raw: dict[str, Any]) -> Iterator[str]:
    """Mutate ``raw`` in place, one fault at a time: yields a description while the fault is in, then undoes it."""
    raw["no_such_field"] = 1
    yield "an unknown field"
    del raw["no_such_field"]
    for path, value in list(nodes(raw)):
        parent, key = parent_of(raw, path), path[-1]
        if isinstance(parent, dict):
            del parent[key]
            yield f"{path} missing"
            parent[key] = value
        for wrong in wrong_values(path, value):
            parent[key] = wrong
            yield f"{path} = {wrong!r}"
            parent[key] = value


def check_strict(variant: Variant[Any], state: Any) -> int:
    raw = variant.to_json(state)
    original = copy.deepcopy(raw)
    count = 0
    for fault in malformed(raw):
        count += 1
        try:
            variant.from_json(raw)
        except BadState as error:
            assert error.key == "invalid_state" and isinstance(error.params.get("field"), str), (fault, error)
        else:
            pytest.fail(f"{variant.name} accepted a saved state with {fault}")
        with pytest.raises(BadState):
            engine.from_json(raw)
    assert raw == original
    return count


@pytest.mark.parametrize("name", NAMES)
def test_malformed_saved_states_are_refused(name: str) -> None:
    variant = engine.get_variant(name)
    for state in random_game(name, 2).sample(2):
        assert check_strict(variant, state) > 100


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_malformed_saved_states_are_refused_everywhere(name: str, players: int) -> None:
    variant = engine.get_variant(name)
    for state in random_game(name, players).sample(3):
        check_strict(variant, state)


@pytest.mark.parametrize("name", NAMES)
def test_not_a_state_is_refused(name: str) -> None:
    variant = engine.get_variant(name)
    for raw in ({}, {"variant": name}, {"variant": 1}, [], "state", None):
        with pytest.raises(BadState):
            engine.from_json(raw)  # type: ignore[arg-type]
    other = next(n for n in NAMES if n != name)
    raw = engine.to_json(engine.new_game(other, 2, seed=1))
    with pytest.raises(BadState):
        variant.from_json(raw)
