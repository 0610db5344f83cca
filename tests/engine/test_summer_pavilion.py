"""Azul: Summer Pavilion rules: the rulebook's worked examples, the structure reference cases and one test per rule."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

import engine
import engine.summer_pavilion
from engine.core import BadNotation, BadOptions, BadState, GameOver, IllegalMove, NotYourTurn
from engine.summer_pavilion import (
    CENTRE,
    CENTRE_SOURCE,
    COLORS,
    FRONT_STAR_COLORS,
    STRUCTURES,
    TOTAL_TILES,
    VARIANTS,
    Bonus,
    Pass,
    Place,
    SPState,
    SummerPavilion,
    Take,
    arc_points,
    end_bonuses,
    multiset_token,
    parse_multiset,
    space_cost,
    star_colors,
    wild_of,
)

FRONT, MONO = VARIANTS
P, G, OR, Y, B, R = range(6)  # purple, green, orange, yellow, blue, red
STAR = {FRONT_STAR_COLORS[s]: s for s in range(6)}  # front side: colour -> its outer star


def counts(**tiles: int) -> list[int]:
    """``counts(b=3, p=2)`` -> a 6-count multiset."""
    return [tiles.get(letter, 0) for letter in "pgoybr"]


def tile_total(variant: SummerPavilion, state: SPState) -> list[int]:
    total = [0] * 6
    pools = [*state.factories, state.centre, state.supply, state.bag, state.tower]
    for board in state.boards:
        pools += [board.hand, board.kept, board.placed_counts()]
    for pool in pools:
        for c in range(6):
            total[c] += pool[c]
    return total


def take_from_bag(state: SPState, into: list[int], tiles: list[int]) -> None:
    for c in range(6):
        state.bag[c] -= tiles[c]
        into[c] += tiles[c]


def play_state(
    variant: SummerPavilion = FRONT,
    *,
    players: int = 2,
    hands: Mapping[int, list[int]] | None = None,
    covered: Mapping[int, list[tuple[int, int, int]]] | None = None,
    round_number: int = 1,
    seat: int = 0,
    supply: list[int] | None = None,
) -> SPState:
    """A consistent phase-2 position: factories emptied back into the bag, the given hands and covered spaces
    ``(star, space 1..6, colour)`` taken from the bag, ``seat`` to act."""
    state = variant.new_game(players, seed=1)
    for factory in state.factories:
        for c in range(6):
            state.bag[c] += factory[c]
            factory[c] = 0
    if supply is not None:
        for c in range(6):
            state.bag[c] += state.supply[c]
        state.supply = [0] * 6
        take_from_bag(state, state.supply, supply)
    for s, tiles in (hands or {}).items():
        take_from_bag(state, state.boards[s].hand, tiles)
    for s, spaces in (covered or {}).items():
        for star, space, color in spaces:
            state.boards[s].stars[star][space - 1] = color
            state.bag[color] -= 1
    state.round = round_number
    state.phase = "play"
    state.current = seat
    assert min(state.bag) >= 0
    return variant.from_json(variant.to_json(state))  # the position is a valid state


def draft_state(factories: list[list[int]], centre: list[int] | None = None, players: int = 3) -> SPState:
    state = FRONT.new_game(players, seed=1)
    for factory in state.factories:
        for c in range(6):
            state.bag[c] += factory[c]
            factory[c] = 0
    for index, tiles in enumerate(factories):
        take_from_bag(state, state.factories[index], tiles)
    take_from_bag(state, state.centre, centre or [0] * 6)
    return state


def kinds(events: list[engine.Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: list[engine.Event], kind: str) -> engine.Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


# --- components and set-up ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("players,factories", [(2, 5), (3, 7), (4, 9)])
def test_new_game_lays_out_the_table(variant: SummerPavilion, players: int, factories: int) -> None:
    state = variant.new_game(players, seed=5)
    assert len(state.factories) == factories
    assert all(sum(f) == 4 for f in state.factories)
    assert sum(state.supply) == 10
    assert sum(tile_total(variant, state)) == TOTAL_TILES and tile_total(variant, state) == [22] * 6
    assert [b.score for b in state.boards] == [5] * players
    assert state.round == 1 and state.phase == "draft" and variant.to_act(state) == {0}
    assert state.start_tile == -1


def test_registry_knows_both_sides() -> None:
    assert {"summer-pavilion", "summer-pavilion-mono"} <= set(engine.variant_names())
    state = engine.new_game("summer-pavilion-mono", 3, seed=2)
    assert engine.to_act(state) == {0}
    opening = engine.opening_events(state)
    assert kinds(opening) == ["round_started"] and opening[0].data["wild"] == P
    assert len(opening[0].data["factories"]) == 7


def test_bad_options_are_refused() -> None:
    with pytest.raises(BadOptions):
        FRONT.new_game(1, seed=1)
    with pytest.raises(BadOptions):
        FRONT.new_game(5, seed=1)
    with pytest.raises(BadOptions):
        FRONT.new_game(2, seed=1, options={"speed": "fast"})


def test_wild_colour_of_each_round() -> None:
    assert [COLORS[wild_of(r)] for r in range(1, 7)] == ["purple", "green", "orange", "yellow", "blue", "red"]


# --- the board ------------------------------------------------------------------------------------------------
def test_structure_geometry() -> None:
    kinds_count = {kind: sum(1 for s in STRUCTURES if s.kind == kind) for kind in ("pillar", "statue", "window")}
    assert kinds_count == {"pillar": 6, "statue": 6, "window": 6}
    # every adjacent pair of centre spaces belongs to exactly one pillar
    for i in range(6):
        pair = {(CENTRE, i), (CENTRE, (i + 1) % 6)}
        assert sum(1 for s in STRUCTURES if pair <= set(s.spaces)) == 1
    # an outer space 2 belongs to both a statue and a pillar
    for star in range(6):
        assert sorted(s.kind for s in STRUCTURES if (star, 1) in s.spaces) == ["pillar", "statue"]


def completes_pillar(spaces: list[tuple[int, int]]) -> bool:
    covered = set(spaces)
    return any(s.kind == "pillar" and set(s.spaces) <= covered for s in STRUCTURES)


def test_structure_reference_cases() -> None:
    blue, orange = STAR[B], STAR[OR]
    assert completes_pillar([(CENTRE, 1), (CENTRE, 2), (blue, 1), (blue, 2)])  # centre 2+3, blue 2+3
    assert not completes_pillar([(CENTRE, 0), (CENTRE, 1), (blue, 1), (blue, 2)])  # centre 1+2, blue 2+3
    assert completes_pillar([(CENTRE, 5), (CENTRE, 0), (orange, 1), (orange, 2)])  # centre 6+1, orange 2+3


def test_costs_of_both_sides() -> None:
    assert [space_cost(False, 0, i) for i in range(6)] == [1, 2, 3, 4, 5, 6]
    assert [space_cost(False, CENTRE, i) for i in range(6)] == [1, 2, 3, 4, 5, 6]
    assert [space_cost(True, 3, i) for i in range(6)] == [3, 2, 1, 4, 5, 6]
    assert [space_cost(True, CENTRE, i) for i in range(6)] == [3] * 6


def test_placement_scores_the_connected_arc() -> None:
    assert arc_points([-1] * 5 + [B], 5) == 1
    assert arc_points([B, -1, -1, -1, B, B], 5) == 3  # wraps around 6-1
    assert arc_points([B, B, -1, B, B, B], 4) == 5
    assert arc_points([B] * 6, 2) == 6


# --- phase 1: the rulebook's drafting example -----------------------------------------------------------------
def test_rulebook_draft_example() -> None:
    state = draft_state([counts(r=2, y=2), counts(g=1, p=2, y=1), counts(b=4)])
    state, events = FRONT.apply(state, 0, Take(0, R))  # Gosia
    assert state.boards[0].hand == counts(r=2)
    assert only(events, "take").data["to_centre"] == counts(y=2)
    state, events = FRONT.apply(state, 1, FRONT.parse_move("2g"))  # Maciek: green + one purple
    assert state.boards[1].hand == counts(g=1, p=1)
    assert only(events, "take").data["wild"] == 1
    assert state.centre == counts(y=3, p=1)
    state, events = FRONT.apply(state, 2, FRONT.parse_move("cy"))  # Martyna: 3 yellow + 1 purple, start tile
    assert state.boards[2].hand == counts(y=3, p=1)
    assert only(events, "start_tile").data == {"penalty": 4, "score": 1}
    assert state.start_tile == 2 and state.boards[2].score == 1 and sum(state.centre) == 0


def test_start_tile_penalty_never_below_one() -> None:
    state = draft_state([counts(b=4)], centre=counts(r=6, p=1))
    state, events = FRONT.apply(state, 0, Take(CENTRE_SOURCE, R))
    assert only(events, "start_tile").data == {"penalty": 4, "score": 1}
    assert state.boards[0].hand == counts(r=6, p=1)


def test_start_tile_goes_only_to_the_first_centre_taker() -> None:
    state = draft_state([counts(b=4)], centre=counts(r=2, g=2))
    state, _ = FRONT.apply(state, 0, Take(CENTRE_SOURCE, R))
    state, events = FRONT.apply(state, 1, Take(CENTRE_SOURCE, G))
    assert "start_tile" not in kinds(events) and state.boards[1].score == 5


def test_only_wild_tiles_left_take_exactly_one() -> None:
    state = draft_state([counts(p=3), counts(b=4)])
    state, events = FRONT.apply(state, 0, FRONT.parse_move("1p"))
    assert state.boards[0].hand == counts(p=1)
    assert state.centre == counts(p=2)
    assert only(events, "take").data["count"] == 1


def test_wild_colour_cannot_be_chosen_while_another_colour_is_there() -> None:
    state = draft_state([counts(p=2, r=2)])
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, Take(0, P))
    assert refused.value.key == "sp_wild_not_alone"
    assert [str(m) for m in FRONT.legal_moves(state, 0)] == ["1r"]


def test_factory_without_wild_gives_no_extra_tile() -> None:
    state = draft_state([counts(g=1, r=3), counts(b=4)])
    state, _ = FRONT.apply(state, 0, Take(0, R))
    assert state.boards[0].hand == counts(r=3)


@pytest.mark.parametrize(
    "move,key",
    [
        (Take(8, R), "sp_no_such_factory"),
        (Take(2, R), "sp_source_empty"),
        (Take(0, B), "sp_color_absent"),
        (Take(CENTRE_SOURCE, R), "sp_source_empty"),
    ],
)
def test_bad_takes_are_refused_and_change_nothing(move: Take, key: str) -> None:
    state = draft_state([counts(r=4), counts(g=4)])
    before = FRONT.to_json(state)
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, move)
    assert refused.value.key == key
    assert FRONT.to_json(state) == before


def test_turn_order_and_phase_checks() -> None:
    state = draft_state([counts(r=4), counts(g=4)])
    with pytest.raises(NotYourTurn):
        FRONT.apply(state, 1, Take(0, R))
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("r:1"))
    assert refused.value.key == "sp_now_draft"
    assert FRONT.legal_moves(state, 1) == []


def test_phase_two_starts_with_the_start_tile_holder() -> None:
    state = draft_state([counts(r=1, g=3)], players=3)
    state, _ = FRONT.apply(state, 0, Take(0, R))  # greens to the centre
    state, _ = FRONT.apply(state, 1, Take(CENTRE_SOURCE, G))
    assert state.phase == "play" and FRONT.to_act(state) == {1}
    assert state.start_tile == 1


# --- phase 2: the rulebook's scoring examples -----------------------------------------------------------------
def test_example_a_six_blue_tiles_for_space_six() -> None:
    state = play_state(hands={0: counts(b=7)})
    state, events = FRONT.apply(state, 0, FRONT.parse_move("b:6"))
    place = only(events, "place").data
    assert place["points"] == 1 and place["spent"] == counts(b=5)
    assert state.boards[0].hand == counts(b=1)
    assert state.boards[0].score == 6
    assert state.tower == counts(b=5)


def test_example_b_three_red_for_space_three() -> None:
    state = play_state(hands={0: counts(r=3)})
    state, events = FRONT.apply(state, 0, Place(STAR[R], 2, R, 0, False))
    assert only(events, "place").data["points"] == 1
    assert state.boards[0].hand == counts()


def test_example_c_wild_tiles_pay_and_neighbours_score() -> None:
    blue = STAR[B]
    state = play_state(hands={0: counts(b=3, p=3)}, covered={0: [(blue, 5, B), (blue, 4, B)]})
    state, events = FRONT.apply(state, 0, FRONT.parse_move("b:6+3"))
    place = only(events, "place").data
    assert place["points"] == 3
    assert place["spent"] == counts(b=2, p=3) and place["wilds"] == 3
    assert state.boards[0].hand == counts()


def test_example_d_orange_with_three_wilds_then_keep_the_green() -> None:
    orange = STAR[OR]
    state = play_state(hands={0: counts(o=1, g=1, p=3)}, covered={0: [(orange, 3, OR), (orange, 5, OR)]})
    legal = {str(m) for m in FRONT.legal_moves(state, 0)}
    assert "o:4+3" in legal and "o:4+2" not in legal  # only one orange tile: all three others are wild
    state, events = FRONT.apply(state, 0, FRONT.parse_move("o:4+3"))
    assert only(events, "place").data["points"] == 3
    assert state.boards[0].hand == counts(g=1)
    # the second player has nothing and is passed; Przemek may pass keeping the green (or, at most 4, discard it)
    assert FRONT.to_act(state) == {0}
    assert [str(m) for m in FRONT.legal_moves(state, 0) if isinstance(m, Pass)] == ["pass:1g", "pass"]
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass:1g"))
    assert state.round == 2
    assert state.boards[0].hand[G] == 1  # green is the wild colour of round 2


def test_example_e_wild_colour_placed_as_itself() -> None:
    purple = STAR[P]
    state = play_state(hands={0: counts(p=2, r=2, g=4)}, covered={0: [(purple, 1, P), (purple, 3, P)]})
    state, events = FRONT.apply(state, 0, FRONT.parse_move("p:2"))
    place = only(events, "place").data
    assert place["points"] == 3 and place["spent"] == counts(p=1)
    assert state.boards[0].hand == counts(r=2, g=4)


def test_example_f_pass_keeps_four_and_discards_the_rest() -> None:
    state = play_state(hands={0: counts(g=4, r=2)})
    state.boards[1].passed = True
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass:4g"))
    passed = events[0].data
    assert passed["kept"] == counts(g=4) and passed["discarded"] == counts(r=2) and passed["penalty"] == 2
    assert state.round == 2 and state.boards[0].hand == counts(g=4) and state.boards[0].score == 3


# --- placing rules --------------------------------------------------------------------------------------------
def test_outer_star_takes_only_its_colour() -> None:
    state = play_state(hands={0: counts(r=3)})
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, Place(STAR[B], 0, R, 0, False))
    assert refused.value.key == "sp_color_not_allowed"


def test_centre_star_takes_six_different_colours() -> None:
    state = play_state(hands={0: counts(r=3, b=3)}, covered={0: [(CENTRE, 1, R)]})
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("c:2r"))
    assert refused.value.key == "sp_color_not_allowed"
    state, events = FRONT.apply(state, 0, FRONT.parse_move("c:2b"))
    assert only(events, "place").data["points"] == 2


def test_only_empty_spaces_can_be_covered() -> None:
    state = play_state(hands={0: counts(r=3)}, covered={0: [(STAR[R], 1, R)]})
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("r:1"))
    assert refused.value.key == "sp_space_covered"


def test_placed_tile_must_be_a_real_tile_of_its_colour() -> None:
    state = play_state(hands={0: counts(p=5)})
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("r:3+2"))
    assert refused.value.key == "sp_no_tile_of_color"


def test_wild_colour_never_stands_in_on_the_board() -> None:
    state = play_state(hands={0: counts(p=3, r=1)})
    legal = {str(m) for m in FRONT.legal_moves(state, 0)}
    assert "p:3" in legal and "c:3p" in legal and "r:4+3" in legal  # its own star, the centre, or paying
    places = [m for m in FRONT.legal_moves(state, 0) if isinstance(m, Place)]
    assert all(m.star in (STAR[P], CENTRE) and m.wilds == 0 for m in places if m.color == P)
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("p:3+1"))
    assert refused.value.key == "sp_wild_as_itself"


def test_player_chooses_how_many_wilds_to_spend() -> None:
    state = play_state(hands={0: counts(r=4, p=3)})
    wilds = sorted(m.wilds for m in FRONT.legal_moves(state, 0) if isinstance(m, Place) and str(m).startswith("r:4"))
    assert wilds == [0, 1, 2, 3]
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:4+2"))
    assert only(events, "place").data["spent"] == counts(r=1, p=2)
    assert state.boards[0].hand == counts(r=2, p=1)


@pytest.mark.parametrize(
    "notation,key",
    [
        ("r:4+4", "sp_too_many_wilds"),
        ("r:6+1", "sp_cannot_afford"),
        ("r:2+1", "sp_not_enough_wilds"),
    ],
)
def test_unaffordable_placements_are_refused(notation: str, key: str) -> None:
    state = play_state(hands={0: counts(r=4)})
    before = FRONT.to_json(state)
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move(notation))
    assert refused.value.key == key
    assert FRONT.to_json(state) == before


# --- bonuses --------------------------------------------------------------------------------------------------
def test_window_bonus_is_a_choice_from_the_supply() -> None:
    red = STAR[R]
    state = play_state(hands={0: counts(r=6), 1: counts(g=1)}, covered={0: [(red, 5, R)]})
    state.supply = counts(p=2, g=2, o=2, y=2, b=1, r=1)
    state = _rebalance(state)
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:6"))
    assert only(events, "bonus_earned").data == {
        "structures": [{"kind": "window", "star": red, "bonus": 3}],
        "count": 3,
    }
    assert state.phase == "bonus" and FRONT.to_act(state) == {0}
    assert all(isinstance(m, Bonus) and sum(m.tiles) == 3 for m in FRONT.legal_moves(state, 0))
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("bonus:2b1p"))
    assert refused.value.key == "sp_not_in_supply"
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("bonus:1p"))
    assert refused.value.key == "sp_bonus_count"
    state, events = FRONT.apply(state, 0, FRONT.parse_move("bonus:2p1r"))
    assert kinds(events)[:2] == ["bonus_taken", "supply_refilled"]
    assert state.boards[0].hand[P] == 2 and state.boards[0].hand[R] == 1
    assert sum(state.supply) == 10 and FRONT.to_act(state) == {1}


def _rebalance(state: SPState) -> SPState:
    """Recompute the bag so that the position holds 22 tiles of each colour again."""
    state.bag = [0] * 6
    total = tile_total(FRONT, state)
    state.bag = [22 - total[c] for c in range(6)]
    assert min(state.bag) >= 0
    return FRONT.from_json(FRONT.to_json(state))


def test_several_structures_add_up() -> None:
    red, blue = STAR[R], STAR[B]
    # red 2 completes the statue (red 1, 2 + blue 3, 4) and the pillar (red 2, 3 + centre 1, 2)
    covered = [(red, 1, R), (red, 3, R), (blue, 3, B), (blue, 4, B), (CENTRE, 1, G), (CENTRE, 2, Y)]
    state = play_state(hands={0: counts(r=2)}, covered={0: covered})
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:2"))
    earned = only(events, "bonus_earned").data
    assert sorted(s["kind"] for s in earned["structures"]) == ["pillar", "statue"]
    assert earned["count"] == 3 and state.bonus_pending == 3


def test_pillar_reference_case_in_play() -> None:
    blue = STAR[B]
    covered = [(CENTRE, 2, R), (CENTRE, 3, G), (blue, 2, B)]
    state = play_state(hands={0: counts(b=3)}, covered={0: covered})
    state, events = FRONT.apply(state, 0, FRONT.parse_move("b:3"))
    assert only(events, "bonus_earned").data["structures"] == [{"kind": "pillar", "star": blue, "bonus": 1}]
    assert only(events, "place").data["points"] == 2


def test_short_supply_gives_what_is_there() -> None:
    red = STAR[R]
    state = play_state(hands={0: counts(r=6)}, covered={0: [(red, 5, R)]})
    # empty the bag, the tower and most of the supply into player 1's corner and hand
    for c in range(6):
        state.boards[1].hand[c] += state.bag[c]
        state.bag[c] = 0
    state.boards[1].hand = [state.boards[1].hand[c] + state.supply[c] for c in range(6)]
    state.supply = [0] * 6
    state.boards[1].hand[B] -= 2
    state.supply[B] = 2
    state = FRONT.from_json(FRONT.to_json(state))
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:6"))
    assert only(events, "bonus_earned").data["count"] == 2
    taken = only(events, "bonus_taken").data  # only one way to take both: no question asked
    assert taken == {"tiles": counts(b=2), "auto": True}
    assert state.supply == counts(r=5)  # the tower (the 5 red paid) poured into the empty bag


def test_supply_refills_from_the_tower_when_the_bag_is_empty() -> None:
    red = STAR[R]
    state = play_state(hands={0: counts(r=6)}, covered={0: [(red, 5, R)]})
    state.supply = counts(p=5, g=5)
    state = _rebalance(state)
    for c in range(6):  # everything else goes to the tower
        state.tower[c] += state.bag[c]
        state.bag[c] = 0
    assert sum(state.bag) == 0
    state, _ = FRONT.apply(state, 0, FRONT.parse_move("r:6"))
    state, events = FRONT.apply(state, 0, FRONT.parse_move("bonus:3g"))
    assert only(events, "supply_refilled").data["from_tower"] is True
    assert sum(state.supply) == 10 and sum(state.tower) == 0


# --- passing --------------------------------------------------------------------------------------------------
def test_keeping_is_limited_to_four_tiles_held() -> None:
    state = play_state(hands={0: counts(g=4, r=2)})
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("pass:4g1r"))
    assert refused.value.key == "sp_keep_too_many"
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("pass:3r"))
    assert refused.value.key == "sp_keep_not_held"
    keeps = [m for m in FRONT.legal_moves(state, 0) if isinstance(m, Pass)]
    assert str(keeps[0]) == "pass:4g" and str(keeps[-1]) == "pass"
    assert all(sum(m.keep) <= 4 for m in keeps)


def test_a_voluntary_pass_with_four_tiles_or_fewer_may_discard_some() -> None:
    """Rulebook (seed 002, line 170): "Aby zachować niektóre płytki do kolejnej rundy, wybierz maksymalnie 4 płytki
    spośród tych, które leżą obok twojej planszy [...] Pozostałe płytki odrzuć do wieży. Tracisz 1 punkt za każdą
    płytkę, którą odrzuciłeś" — keep *at most* 4, so holding 3 a player may keep 2 and lose 1 point."""
    state = play_state(hands={0: counts(r=1, b=2), 1: counts(r=5)})
    passes = [str(m) for m in FRONT.legal_moves(state, 0) if isinstance(m, Pass)]
    assert passes == ["pass:2b1r", "pass:2b", "pass:1b1r", "pass:1b", "pass:1r", "pass"]
    before = state.boards[0].score
    after, events = FRONT.apply(state, 0, FRONT.parse_move("pass:2b"))
    passed = only(events, "pass").data
    assert passed["kept"] == counts(b=2) and passed["discarded"] == counts(r=1) and passed["penalty"] == 1
    assert after.boards[0].kept == counts(b=2) and after.boards[0].score == before - 1
    assert after.tower == [t + (1 if c == R else 0) for c, t in enumerate(state.tower)]
    after, events = FRONT.apply(state, 0, FRONT.parse_move("pass"))
    assert only(events, "pass").data["discarded"] == counts(r=1, b=2)


def test_a_player_who_cannot_place_with_four_tiles_or_fewer_is_passed_keeping_them_all() -> None:
    # Seat 1 holds a yellow and a blue tile and no wild (purple in round 1); every space costing 1 where they could go
    # is covered, so it can place nothing: it passes without being asked and keeps both (no point lost).
    covered = {1: [(3, 1, Y), (2, 1, B), (CENTRE, 1, OR)]}
    state = play_state(hands={0: counts(r=3), 1: counts(y=1, b=1)}, covered=covered)
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:1"))
    passed = [e for e in events if e.kind == "pass"]
    assert [(e.seat, e.data["auto"], e.data["kept"], e.data["penalty"]) for e in passed] == [
        (1, True, counts(y=1, b=1), 0)
    ]
    assert FRONT.to_act(state) == {0}
    assert state.boards[1].kept == counts(y=1, b=1)


def test_nothing_is_kept_in_round_six() -> None:
    state = play_state(hands={0: counts(r=2)}, round_number=6)
    assert [str(m) for m in FRONT.legal_moves(state, 0) if isinstance(m, Pass)] == ["pass"]
    with pytest.raises(IllegalMove) as refused:
        FRONT.apply(state, 0, FRONT.parse_move("pass:2r"))
    assert refused.value.key == "sp_keep_last_round"


def test_passed_player_takes_no_more_turns_and_others_play_on() -> None:
    state = play_state(hands={0: counts(g=1), 1: counts(r=6)})
    state, _ = FRONT.apply(state, 0, FRONT.parse_move("pass:1g"))
    assert FRONT.to_act(state) == {1}
    state, _ = FRONT.apply(state, 1, FRONT.parse_move("r:1"))
    assert FRONT.to_act(state) == {1}  # seat 0 has passed
    assert state.boards[0].passed


def test_player_with_nothing_to_decide_is_passed_automatically() -> None:
    state = play_state(hands={0: counts(r=1), 1: counts(b=1, g=1)})  # seat 1 can place nothing worth... a blue 1
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:1"))
    assert FRONT.to_act(state) == {1}
    state, events = FRONT.apply(state, 1, FRONT.parse_move("b:1"))
    # seat 0 has no tile left: passed for them; seat 1 still has a green tile to place
    assert [e.data["auto"] for e in events if e.kind == "pass"] == [True]
    assert FRONT.to_act(state) == {1}


def test_score_never_drops_below_one() -> None:
    state = play_state(hands={0: counts(r=9)})
    state.boards[0].score = 2
    state.boards[1].passed = True
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass:4r"))
    assert events[0].data["penalty"] == 1 and events[0].data["discarded"] == counts(r=5)


# --- round change and the end ---------------------------------------------------------------------------------
def test_round_change_refills_factories_and_returns_kept_tiles() -> None:
    state = play_state(hands={0: counts(g=3), 1: counts(r=2)}, players=2)
    state.start_tile = 1
    state, _ = FRONT.apply(state, 0, FRONT.parse_move("pass:3g"))
    state, events = FRONT.apply(state, 1, FRONT.parse_move("pass:2r"))
    started = only(events, "round_started").data
    assert started["round"] == 2 and started["wild"] == G and started["start_seat"] == 1
    assert state.phase == "draft" and FRONT.to_act(state) == {1}
    assert all(sum(f) == 4 for f in state.factories)
    assert state.boards[0].hand == counts(g=3) and state.boards[0].kept == counts()
    assert state.start_tile == -1


def test_short_factories_when_bag_and_tower_run_dry() -> None:
    full = [(s, i, FRONT_STAR_COLORS[s]) for s in range(6) for i in range(1, 7)] + [
        (CENTRE, i, i - 1) for i in range(1, 7)
    ]
    five_stars = [(s, i, FRONT_STAR_COLORS[s]) for s in range(5) for i in range(1, 7)]
    state = play_state(players=4, covered={0: full, 1: full, 2: five_stars}, supply=counts(p=8, g=2))
    assert sum(state.bag) == 8 and sum(state.tower) == 0
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass"))
    assert [e.data["auto"] for e in events if e.kind == "pass"] == [False, True, True, True]
    assert [sum(f) for f in state.factories] == [4, 4, 0, 0, 0, 0, 0, 0, 0]
    assert state.phase == "draft" and state.round == 2


def test_game_ends_after_round_six_with_end_bonuses() -> None:
    red = STAR[R]
    covered = [(red, i, R) for i in (1, 2, 3, 4, 5)] + [(s, 1, FRONT_STAR_COLORS[s]) for s in range(6) if s != red]
    covered += [(CENTRE, 1, G)]
    state = play_state(hands={0: counts(r=6, b=2)}, covered={0: covered}, round_number=6)
    state.boards[1].passed = True
    state, events = FRONT.apply(state, 0, FRONT.parse_move("r:6"))
    # the window bonus is taken, then seat 0 plays on
    if state.phase == "bonus":
        state, events = FRONT.apply(state, 0, FRONT.legal_moves(state, 0)[0])
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass"))
    assert FRONT.is_over(state) and FRONT.to_act(state) == frozenset()
    bonus = next(e for e in events if e.kind == "end_bonus" and e.seat == 0).data
    assert {"star": red, "points": 14} in bonus["stars"]
    assert {"cost": 1, "points": 4} in bonus["costs"]
    assert kinds(events)[-1] == "game_over"
    with pytest.raises(GameOver):
        FRONT.apply(state, 0, FRONT.parse_move("pass"))


def test_end_bonus_table() -> None:
    state = play_state()
    board = state.boards[0]
    for s in range(6):
        board.stars[s] = [FRONT_STAR_COLORS[s]] * 6
    board.stars[CENTRE] = list(range(6))
    stars, costs = end_bonuses(board, mono=False)
    assert sorted(p for _, p in stars) == [12, 14, 15, 16, 17, 18, 20]
    assert costs == [(1, 4), (2, 8), (3, 12), (4, 16)]


def test_ties_are_shared() -> None:
    state = play_state(players=3)
    state.boards[0].score, state.boards[1].score, state.boards[2].score = 30, 41, 30
    assert FRONT.standings(state) == [[1], [0, 2]]


# --- monochrome side ------------------------------------------------------------------------------------------
def test_mono_star_colour_is_decided_by_its_first_tiles() -> None:
    assert star_colors(True, 0, [-1] * 6) == list(range(6))
    assert star_colors(True, 0, [R, -1, -1, -1, -1, -1]) == list(range(6))  # may become single or multicolour
    assert star_colors(True, 0, [R, R, -1, -1, -1, -1]) == [R]
    assert star_colors(True, 0, [R, B, -1, -1, -1, -1]) == [P, G, OR, Y]
    assert star_colors(True, CENTRE, [R, R, -1, -1, -1, -1]) == [R]


def test_mono_costs_and_notation() -> None:
    state = play_state(MONO, hands={0: counts(y=3, p=1)})
    legal = {str(m) for m in MONO.legal_moves(state, 0)}
    assert "3:3y" in legal  # outer space 3 costs 1
    assert "3:1y+1" in legal and "c:4y" in legal  # cost 3
    assert "3:4y" not in legal  # space 4 costs 4: three yellow and one wild would do it...
    assert "3:4y+1" in legal
    state, events = MONO.apply(state, 0, MONO.parse_move("3:1y+1"))
    assert only(events, "place").data["cost"] == 3
    with pytest.raises(BadNotation):
        MONO.parse_move("r:1")
    with pytest.raises(BadNotation):
        MONO.parse_move("3:1")  # the colour must be written on this side


def test_mono_single_colour_star_refuses_another_colour() -> None:
    covered = [(0, 1, B), (0, 2, B)]
    state = play_state(MONO, hands={0: counts(r=5)}, covered={0: covered})
    with pytest.raises(IllegalMove) as refused:
        MONO.apply(state, 0, MONO.parse_move("1:5r"))
    assert refused.value.key == "sp_color_not_allowed"


def test_mono_end_bonuses() -> None:
    state = play_state(MONO)
    board = state.boards[0]
    board.stars[0] = [P] * 6  # single colour purple: 20
    board.stars[1] = list(range(6))  # multicolour: 12
    board.stars[CENTRE] = [B] * 6  # the centre as a blue star: 15
    stars, costs = end_bonuses(board, mono=True)
    assert stars == [(0, 20), (1, 12), (CENTRE, 15)]
    assert costs == []
    for s in range(6):
        board.stars[s][2] = Y  # every outer space 3 costs 1 on this side
    assert end_bonuses(board, mono=True)[1] == [(1, 4)]


# --- notation, choices, JSON ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["3r", "cp", "b:6", "c:4r+2", "r:1+0", "bonus:1p2r", "pass", "pass:4g", "pass:-", " 3R ", "bonus:rrg"]
)
def test_notation_reads_back(text: str) -> None:
    move = FRONT.parse_move(text)
    assert FRONT.parse_move(str(move)) == move
    assert FRONT.move_from_choices(move.command, dict(move.choices())) == move


@pytest.mark.parametrize("text", ["", "x", "0r", "10r", "3x", "q:1", "b:7", "c:4", "b:6+6", "bonus:", "pass:5", "b:4y"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(BadNotation):
        FRONT.parse_move(text)


def test_multiset_tokens() -> None:
    assert multiset_token(counts(p=1, r=2)) == "1p2r"
    assert multiset_token(counts()) == "-"
    assert parse_multiset("2r1p") == tuple(counts(p=1, r=2))
    with pytest.raises(BadNotation):
        parse_multiset("2x")


def test_choices_name_the_options_the_bot_uses() -> None:
    assert Take(2, R).choices() == (("source", "3"), ("color", "red"))
    assert Take(CENTRE_SOURCE, P).choices() == (("source", "centre"), ("color", "purple"))
    assert Place(STAR[B], 5, B, 2, False).choices() == (("star", "blue"), ("space", "6"), ("wilds", "2"))
    assert Place(CENTRE, 3, R, 0, False).choices() == (("star", "centre"), ("space", "4r"), ("wilds", "0"))
    assert Place(2, 0, Y, 1, True).choices() == (("star", "3"), ("space", "1y"), ("wilds", "1"))
    assert Bonus(tuple(counts(b=2))).choices() == (("tiles", "2b"),)
    assert Pass(tuple(counts())).choices() == (("keep", "-"),)


def test_missing_or_unreadable_choices_are_refused() -> None:
    with pytest.raises(BadNotation):
        FRONT.move_from_choices("place", {"star": "blue", "space": "6"})
    with pytest.raises(BadNotation):
        FRONT.move_from_choices("take", {"source": "12", "color": "red"})
    with pytest.raises(BadNotation):
        FRONT.move_from_choices("take", {"source": "1", "color": "black"})
    with pytest.raises(BadNotation):
        FRONT.move_from_choices("wall", {"line": "1"})
    with pytest.raises(BadNotation):
        MONO.move_from_choices("place", {"star": "blue", "space": "1b", "wilds": "0"})


def test_json_round_trip_and_rejections() -> None:
    state = play_state(hands={0: counts(r=3)})
    raw = FRONT.to_json(state)
    assert FRONT.from_json(raw) == state
    for broken in (
        {**raw, "round": 7},
        {**raw, "phase": "dancing"},
        {**raw, "bag": [99, 0, 0, 0, 0, 0]},
        {**raw, "supply": "lots"},
        {**raw, "variant": "summer-pavilion-mono"},
        {k: v for k, v in raw.items() if k != "tower"},
        {**raw, "boards": [{**raw["boards"][0], "score": 0}, raw["boards"][1]]},
        {**raw, "boards": [{**raw["boards"][0], "stars": [[R] * 6, *raw["boards"][0]["stars"][1:]]}, raw["boards"][1]]},
    ):
        with pytest.raises(BadState):
            FRONT.from_json(broken)
    with pytest.raises(BadState):
        engine.from_json({"variant": "summer-pavilion"})


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_every_refusal_is_explained_in_every_language(lang: str) -> None:
    import re
    from pathlib import Path

    from data.i18n import catalogue

    source = Path(engine.summer_pavilion.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'(?:Move|Notation|State|Turn|Over)\(f?"([a-z_]+)"', source))
    keys = {key for key in keys if key != "sp_now_"} | {f"sp_now_{phase}" for phase in ("draft", "play", "bonus")}
    assert {"sp_cannot_afford", "not_your_turn", "bad_notation"} <= keys
    missing = sorted(key for key in keys if f"error.{key}" not in catalogue(lang))
    assert not missing


def test_when_nobody_takes_from_the_centre_the_round_starter_starts_again() -> None:
    state = draft_state([counts(r=4), counts(b=4)], players=2)
    state.start_seat = 1
    state.current = 1
    state, _ = FRONT.apply(state, 1, Take(0, R))
    state, _ = FRONT.apply(state, 0, Take(1, B))
    assert state.phase == "play" and state.start_tile == -1 and FRONT.to_act(state) == {1}
    state, _ = FRONT.apply(state, 1, FRONT.parse_move("pass:4r"))
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass:4b"))
    assert only(events, "round_started").data["start_seat"] == 1 and FRONT.to_act(state) == {1}


def test_hand_built_moves_with_impossible_values_are_refused() -> None:
    state = play_state(hands={0: counts(r=6)})
    for move in (Place(STAR[R], 1, R, -1, False), Pass((5, -1, 0, 0, 0, 0)), Pass((0, 0, 0))):
        with pytest.raises(BadNotation):
            FRONT.apply(state, 0, move)


def test_with_bag_and_tower_empty_the_draft_is_skipped_and_the_game_still_ends() -> None:
    full = [(s, i, FRONT_STAR_COLORS[s]) for s in range(6) for i in range(1, 7)] + [
        (CENTRE, i, i - 1) for i in range(1, 7)
    ]
    five_stars = [(s, i, FRONT_STAR_COLORS[s]) for s in range(5) for i in range(1, 7)]
    rest = [(STAR[color], i, color) for color in (OR, Y, B, R) for i in (1, 2)]
    covered = {0: full, 1: full, 2: five_stars, 3: rest}
    state = play_state(players=4, covered=covered, supply=counts(p=8, g=2), hands={3: counts()})
    assert sum(state.bag) == 0 and sum(state.tower) == 0
    state, events = FRONT.apply(state, 0, FRONT.parse_move("pass"))
    assert [e.data["round"] for e in events if e.kind == "round_started"] == [2, 3, 4, 5, 6]
    assert FRONT.is_over(state) and kinds(events)[-1] == "game_over"


def test_the_kept_tiles_candidates_are_every_split_of_each_size_in_order() -> None:
    for size, candidates in enumerate(engine.summer_pavilion._SMALL_MULTISETS):
        every = [split for split in itertools.product(range(size, -1, -1), repeat=len(COLORS)) if sum(split) == size]
        assert candidates == every
