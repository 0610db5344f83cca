"""Summer Pavilion over many seeded random games of both sides and every player count: the invariants that must hold
after every move, whatever is played."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import engine
from engine.core import EngineError, NotYourTurn, Rng
from engine.summer_pavilion import ROUNDS, TILES_PER_COLOR, VARIANTS, SPState, SummerPavilion

pytestmark = pytest.mark.slow  # a property suite: many seeded and generated games

GAMES_PER_CASE = 170  # 2 sides x 3 player counts x 170 = 1020 games
DEEP_CHECK_EVERY = 25  # JSON round-trip and refusal checks on every 25th game (every move of it)


def tiles_by_color(state: SPState) -> list[int]:
    total = [0] * 6
    pools = [*state.factories, state.centre, state.supply, state.bag, state.tower]
    for board in state.boards:
        pools += [board.hand, board.kept, board.placed_counts()]
    for pool in pools:
        for c in range(6):
            total[c] += pool[c]
    return total


def check_position(variant: SummerPavilion, state: SPState) -> None:
    assert tiles_by_color(state) == [TILES_PER_COLOR] * 6
    assert all(board.score >= 1 for board in state.boards)
    assert all(sum(board.kept) <= 4 for board in state.boards)
    assert 1 <= state.round <= ROUNDS
    assert len(variant.to_act(state)) == (0 if variant.is_over(state) else 1)


def deep_check(variant: SummerPavilion, state: SPState, seat: int, rng: Rng) -> None:
    assert variant.from_json(variant.to_json(state)) == state
    for other in range(state.players):
        if other != seat:
            assert variant.legal_moves(state, other) == []
            with pytest.raises(NotYourTurn):
                variant.apply(state, other, variant.legal_moves(state, seat)[0])
    # a move that is listed for nobody is refused and changes nothing
    before = variant.to_json(state)
    stranger = variant.parse_move(rng_pick(rng, ["9r", "c:1r+5", "bonus:9p", "pass:5g", "p:6+1", "1:6p"], variant))
    if stranger not in variant.legal_moves(state, seat):
        with pytest.raises(EngineError):
            variant.apply(state, seat, stranger)
    assert variant.to_json(state) == before


def rng_pick(rng: Rng, texts: list[str], variant: SummerPavilion) -> str:
    usable = [t for t in texts if not (variant.mono and t.startswith("p:")) and not (not variant.mono and t[0] == "1")]
    return usable[rng.below(len(usable))]


def play_random_game(variant: SummerPavilion, players: int, seed: int) -> None:
    rng = Rng(seed * 31 + players)
    deep = seed % DEEP_CHECK_EVERY == 0
    state = variant.new_game(players, seed)
    rounds_started = [e.data["round"] for e in variant.opening_events(state)]
    log: list[tuple[int, str]] = []
    while not variant.is_over(state):
        (seat,) = variant.to_act(state)
        moves = variant.legal_moves(state, seat)
        assert moves, "a seat to act always has a move"
        assert len({str(m) for m in moves}) == len(moves)
        if deep:
            deep_check(variant, state, seat, rng)
            for move in moves:  # listed moves read back from their text and their choices
                assert variant.parse_move(str(move)) == move
                assert variant.move_from_choices(move.command, dict(move.choices())) == move
        move = moves[rng.below(len(moves))]
        state, events = variant.apply(state, seat, move)
        log.append((seat, str(move)))
        rounds_started += [e.data["round"] for e in events if e.kind == "round_started"]
        check_position(variant, state)
    assert rounds_started == list(range(1, ROUNDS + 1))
    assert state.round == ROUNDS
    assert engine.to_json(engine.replay(variant.name, players, seed, log)) == variant.to_json(state)
    assert sorted(seat for group in variant.standings(state) for seat in group) == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_random_games_keep_every_invariant(variant: SummerPavilion, players: int) -> None:
    for seed in range(GAMES_PER_CASE):
        play_random_game(variant, players, seed)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_any_text_is_read_or_refused_cleanly(text: str) -> None:
    for variant in VARIANTS:
        try:
            move = variant.parse_move(text)
        except EngineError:
            continue
        assert variant.parse_move(str(move)) == move


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["take", "place", "bonus", "pass", "wall"]),
    st.dictionaries(
        st.sampled_from(["source", "color", "star", "space", "wilds", "tiles", "keep"]), st.text(max_size=6)
    ),
)
@example("take", {"source": "²"})  # a digit to str.isdigit, not to int(): found by this test
def test_any_choices_are_read_or_refused_cleanly(command: str, choices: dict[str, str]) -> None:
    for variant in VARIANTS:
        try:
            move = variant.move_from_choices(command, choices)
        except EngineError:
            continue
        assert variant.move_from_choices(move.command, dict(move.choices())) == move
