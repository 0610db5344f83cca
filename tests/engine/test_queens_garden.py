"""Queen's Garden rules: the rulebook's worked examples and one focused test per rule."""

from __future__ import annotations

import pytest

from engine import BadNotation, BadState, GameOver, IllegalMove, NotYourTurn
from engine.queens_garden import (
    CELL_INDEX,
    CELLS,
    ORNAMENTS,
    Acquire,
    PlaceExpansion,
    PlaceTile,
    area_cell,
    pattern_of,
    placement_error,
)
from tests.engine.queens_garden_helpers import (
    check,
    display,
    fresh,
    give,
    k,
    lay,
    put,
    store_expansion,
    top,
    variant,
)

V = variant()


def notations(state, seat=0):
    return {str(m) for m in V.legal_moves(state, seat)}


def play(state, text, seat=None):
    seat = state.current if seat is None else seat
    return V.apply(state, seat, V.parse_move(text))


# --- geometry -------------------------------------------------------------------------------------------------------
def test_garden_has_48_named_cells_and_13_ornaments() -> None:
    assert len(CELLS) == len(set(CELLS)) == 48
    assert CELLS[:6] == ("F1", "F2", "F3", "F4", "F5", "F6")
    assert [o.name for o in ORNAMENTS] == ["F", "S1", "B1", "S2", "B2", "S3", "B3", *(f"P{a}" for a in range(1, 7))]
    assert all(len(o.ring) == 6 for o in ORNAMENTS)


def test_statue_is_surrounded_by_two_fountain_cells_and_two_cells_of_each_neighbouring_area() -> None:
    statue = next(o for o in ORNAMENTS if o.name == "S1")
    assert sorted(CELLS[c] for c in statue.ring) == ["A1-3", "A1-4", "A2-5", "A2-6", "F1", "F2"]


# --- new game -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 7), (4, 8)])
def test_setup_deals_round_stacks_by_player_count(players: int, size: int) -> None:
    state = V.new_game(players, seed=3)
    assert len(state.stack) == size and all(len(s) == size for s in state.future_stacks)
    assert len(state.future_stacks) == 3 and len(state.supply) == 36 - 4 * size
    assert len(state.top_tiles) == 4 and sum(state.bag) == 104
    assert all(p.score == 15 and p.jokers == 3 for p in state.players)
    assert V.to_act(state) == {0}


# --- acquire: the rulebook's examples -------------------------------------------------------------------------------
def test_monika_takes_all_blue_and_the_stack_top_moves_beside_the_stack_with_its_bird() -> None:
    state = fresh()
    top(state, "bl1", "bl3", "bl5", "ye2")
    stack_before = list(state.stack)
    state, events = play(check(state), "acquire bl")
    me = state.players[0]
    assert [me.tiles[k(t)] for t in ("bl1", "bl3", "bl5")] == [1, 1, 1]
    assert state.display[-1].expansion == stack_before[0] and state.display[-1].tiles == [k("ye2")]
    assert not state.display[-1].face_up
    assert state.stack == stack_before[1:] and len(state.top_tiles) == 4
    assert [e.kind for e in events] == ["acquire", "stack_moved", "display_refilled"]
    check(state)


def kamil_position():
    state = fresh()
    display(state, ("ye2",), expansion="lg1")  # d1: the yellow bird alone on an expansion
    display(state, ("ye2", "lp3"))  # d2
    top(state, "lg2", "bl1", "dp5", "lp6")
    return check(state)


def test_kamil_takes_only_one_of_identical_birds_and_chooses_which() -> None:
    state = kamil_position()
    birds = {m for m in notations(state) if m.startswith("acquire 2")}
    assert birds == {"acquire 2 ye2@d1", "acquire 2 ye2@d2"}
    with pytest.raises(IllegalMove) as refused:
        play(state, "acquire 2")
    assert refused.value.key == "qg_which_needed"
    state, events = play(state, "acquire 2 ye2@d1")
    me = state.players[0]
    assert me.tiles[k("ye2")] == 1 and me.tiles[k("lg2")] == 1
    # d1 emptied and turned face up; d2 keeps its second bird; the stack top moved beside with 3 tiles.
    assert state.display[0].face_up and state.display[0].expansion == k("lg1")
    assert state.display[1].tiles == sorted([k("ye2"), k("lp3")])
    assert state.display[2].tiles == sorted([k("bl1"), k("dp5"), k("lp6")])
    assert "expansion_turned" in [e.kind for e in events]


def test_agata_may_acquire_the_turned_expansion_by_its_pattern_or_its_colour() -> None:
    state, _ = play(kamil_position(), "acquire 2 ye2@d1")
    assert state.current == 1
    # The new stack top was drawn at random: pick whichever copies the legal moves offer.
    for by in ("1", "lg"):
        chosen = next(m for m in V.legal_moves(state, 1) if isinstance(m, Acquire) and m.by == by)
        after, _ = V.apply(state, 1, chosen)
        assert k("lg1") in after.players[1].expansions
        assert all(item.expansion != k("lg1") for item in after.display)


def test_acquire_refused_when_storage_cannot_hold_everything() -> None:
    state = fresh()
    give(state, 0, "dg1", "dg2", "dg3", "dg4", "dg5", "dg6", "lp1", "lp2", "lp4")  # 9 tiles + 3 jokers = 12
    top(state, "bl1", "bl3", "ye5", "ye6")
    state = check(state)
    assert not any(m.startswith("acquire bl") for m in notations(state))
    with pytest.raises(IllegalMove) as refused:
        play(state, "acquire bl")
    assert refused.value.key == "qg_storage_full"


def test_acquire_refused_when_a_third_expansion_would_not_fit() -> None:
    state = fresh()
    store_expansion(state, 0, "dg1")
    store_expansion(state, 0, "dg2")
    display(state, (), expansion="bl4", face_up=True)
    top(state, "ye5", "ye6", "lg5", "lg6")
    state = check(state)
    with pytest.raises(IllegalMove):
        play(state, "acquire bl")
    assert "acquire 4" not in notations(state)


def test_nothing_to_acquire_is_refused_and_changes_nothing() -> None:
    state = fresh()
    top(state, "ye5", "ye6", "lg5", "lg6")
    state = check(state)
    before = V.to_json(state)
    with pytest.raises(IllegalMove) as refused:
        play(state, "acquire bl")
    assert refused.value.key == "qg_nothing_to_acquire" and V.to_json(state) == before


# --- payments -----------------------------------------------------------------------------------------------------
def test_monika_pays_a_blue_butterfly_with_two_butterflies_or_two_blues_or_jokers() -> None:
    state = fresh()
    give(state, 0, "bl3", "ye3", "lg3", "bl1", "bl5")
    state = check(state)
    payments = {m.payment for m in V.legal_moves(state, 0) if isinstance(m, PlaceTile) and m.tile == "bl3"}
    assert {"ye3+lg3", "bl1+bl5", "ye3+1j", "bl5+1j", "2j"} <= payments
    assert "bl1+ye3" not in payments
    after, events = play(state, "tile bl3 ye3+lg3 F1")
    me = after.players[0]
    assert after.players[0].hexes[CELL_INDEX["F1"]] == k("bl3")
    assert me.tiles[k("ye3")] == me.tiles[k("lg3")] == me.tiles[k("bl3")] == 0
    assert after.tower[k("ye3")] == after.tower[k("lg3")] == 1 and after.tower[k("bl3")] == 0
    assert events[0].kind == "tile_placed" and events[0].data["cost"] == 3
    jokers, _ = play(state, "tile bl3 2j F1")
    assert jokers.players[0].jokers == 1


@pytest.mark.parametrize(
    ("payment", "key"),
    [("ye3+bl1", "qg_payment_mismatch"), ("ye3", "qg_payment_size"), ("2ye3", "qg_payment_mismatch")],
)
def test_invalid_payments_are_refused_with_the_reason(payment: str, key: str) -> None:
    state = fresh()
    give(state, 0, "bl3", "ye3", "ye3", "bl1")
    state = check(state)
    with pytest.raises(IllegalMove) as refused:
        play(state, f"tile bl3 {payment} F1")
    assert refused.value.key == key


def test_paying_with_what_is_not_in_storage_is_refused() -> None:
    state = fresh()
    give(state, 0, "bl3")
    state = check(state)
    with pytest.raises(IllegalMove) as refused:
        play(state, "tile bl3 ye3+lg3 F1")
    assert refused.value.key == "qg_not_in_storage"
    with pytest.raises(IllegalMove) as refused:
        play(state, "tile bl3 4j F1")
    assert refused.value.key == "qg_payment_size"


def test_a_tree_costs_nothing_more() -> None:
    state = fresh()
    give(state, 0, "dp1")
    state, _ = play(check(state), "tile dp1 - F3")
    assert state.players[0].hexes[CELL_INDEX["F3"]] == k("dp1")


# --- placement and the group rule ----------------------------------------------------------------------------------
def garden_with(*cells: tuple[str, str]):
    state = fresh()
    lay(state, 0, 0)  # area A1 face down: 7 free cells
    for cell, token in cells:
        put(state, 0, cell, token)
    return check(state)


def why(state, token: str, cell: str):
    return placement_error(state.players[0], k(token), CELL_INDEX[cell])


def test_placement_needs_no_neighbour_or_a_neighbour_sharing_colour_or_pattern() -> None:
    state = garden_with(("F1", "bl3"))
    assert why(state, "dg5", "F4") is None  # no neighbour
    assert why(state, "dg5", "F2") == "qg_no_match"
    assert why(state, "bl5", "F2") is None  # same colour
    assert why(state, "ye3", "F2") is None  # same pattern


def test_identical_neighbour_is_refused() -> None:
    state = garden_with(("F1", "bl3"))
    assert why(state, "bl3", "F2") == "qg_identical_neighbour"


def test_group_rule_refuses_extending_a_group_with_an_identical_hexagon() -> None:
    # F1 bl3 - F2 bl4: a colour group; bl3 next to bl4 (not to F1) would put two bl3 in it.
    state = garden_with(("F1", "bl3"), ("F2", "bl4"))
    assert why(state, "bl3", "F3") == "qg_group_duplicate"
    assert why(state, "bl5", "F3") is None


def test_group_rule_refuses_joining_two_groups_that_hold_the_same_hexagon() -> None:
    # Two separate pattern groups of butterflies each hold a ye3; lg3 between them would join them.
    state = garden_with(("F1", "ye3"), ("F2", "bl3"), ("F4", "ye3"), ("F5", "dg3"))
    assert why(state, "lg3", "F3") == "qg_group_duplicate"
    assert why(state, "lg3", "F6") == "qg_group_duplicate"
    state = garden_with(("F1", "ye3"), ("F2", "bl3"), ("F4", "dp3"), ("F5", "dg3"))
    assert why(state, "lg3", "F3") is None


def test_a_hexagon_joins_a_colour_group_and_a_pattern_group_at_once() -> None:
    state = garden_with(("F1", "bl3"), ("F3", "ye4"))
    assert why(state, "bl4", "F2") is None


def test_tiles_go_only_on_free_cells() -> None:
    state = garden_with(("F1", "bl3"))
    assert why(state, "bl1", "F1") == "qg_cell_not_free"
    assert why(state, "bl1", "A2-1") == "qg_cell_not_free"  # area 2 not laid
    assert why(state, "bl1", "A1-0") is None  # the centre of a face-down expansion is free


# --- expansions ---------------------------------------------------------------------------------------------------
def test_face_down_expansion_from_the_supply_costs_6_points() -> None:
    state = fresh()
    supply_top = state.supply[0]
    state, events = play(check(state), "expansion supply - A3 -")
    me = state.players[0]
    assert me.score == 9 and me.areas[2] == supply_top and me.rotations[2] == -1
    assert all(me.is_free(area_cell(2, p)) for p in range(7))
    assert events[0].kind == "expansion_placed" and events[0].data["points"] == 6


def test_face_down_expansion_refused_below_6_points() -> None:
    state = fresh()
    state.players[0].score = 5
    state = check(state)
    assert not any("supply" in m for m in notations(state))
    with pytest.raises(IllegalMove) as refused:
        play(state, "expansion supply - A3 -")
    assert refused.value.key == "qg_supply_points"


def test_face_up_expansion_is_paid_rotated_and_shows_a_pavilion() -> None:
    state = fresh()
    store_expansion(state, 0, "lg2")
    store_expansion(state, 0, "ye2")  # pays for it as a bird of another colour
    state = check(state)
    moves = [m for m in V.legal_moves(state, 0) if isinstance(m, PlaceExpansion) and m.expansion == "lg2"]
    assert {(m.area, m.rotation) for m in moves} == {(f"A{a}", str(r)) for a in range(1, 7) for r in range(1, 7)}
    assert {m.payment for m in moves} == {"xye2", "1j"}
    supply_size = len(state.supply)
    after, _ = play(state, "expansion lg2 xye2 A2 4")
    me = after.players[0]
    assert me.areas[1] == k("lg2") and me.hexes[area_cell(1, 4)] == k("lg2") and me.expansions == []
    assert not me.is_free(area_cell(1, 0))  # the pavilion
    assert after.supply[-1] == k("ye2") and len(after.supply) == supply_size + 1  # paid expansion goes under it
    # Round scoring gives 1 point per pavilion.
    assert V.legal_moves(after, 1)


def test_face_up_expansion_printed_hexagon_obeys_placement_rules() -> None:
    state = fresh()
    put(state, 0, "F1", "bl3")
    store_expansion(state, 0, "dg1")
    state = check(state)
    spots = {(m.area, m.rotation) for m in V.legal_moves(state, 0) if isinstance(m, PlaceExpansion)}
    # A1-4 touches F1 (bl3): a dark green tree may not go there, but elsewhere in A1 it may.
    assert ("A1", "4") not in spots and ("A1", "1") in spots
    with pytest.raises(IllegalMove) as refused:
        play(state, "expansion dg1 - A1 4")
    assert refused.value.key == "qg_no_match"


def test_laying_on_a_used_area_is_refused() -> None:
    state = fresh()
    lay(state, 0, 2)
    with pytest.raises(IllegalMove) as refused:
        play(check(state), "expansion supply - A3 -")
    assert refused.value.key == "qg_area_taken"


# --- jokers for surrounded ornaments -------------------------------------------------------------------------------
def test_surrounding_the_fountain_gives_one_joker() -> None:
    state = fresh()
    for cell, token in zip(("F1", "F2", "F3", "F4", "F5"), ("bl1", "bl2", "bl3", "bl4", "bl5"), strict=True):
        put(state, 0, cell, token)
    give(state, 0, "bl6")
    state.players[0].jokers = 5
    state, events = play(check(state), "tile bl6 5j F6")
    assert [e.data for e in events if e.kind == "joker_earned"] == [{"ornament": "F", "count": 1, "lost": 0}]
    assert state.players[0].jokers == 1


def surrounding_state(ornament: str):
    """Everything around ``ornament`` but one cell filled; returns the state and the missing cell's name."""
    state = fresh()
    target = next(o for o in ORNAMENTS if o.name == ornament)
    for area in range(6):
        if any(c >= 6 and (c - 6) // 7 == area for c in target.ring) and target.area != area:
            lay(state, 0, area)
    if target.kind == "pavilion":
        lay(state, 0, target.area, "ye1", rotation=0)
    ring = [c for c in target.ring if state.players[0].hexes[c] < 0]
    # A chain of blue (one per pattern) along the ring keeps every placement legal.
    tokens = (
        ["bl2", "bl3", "bl4", "bl5", "bl6", "bl1"] if target.kind != "pavilion" else ["ye2", "ye3", "ye4", "ye5", "ye6"]
    )
    for cell, token in zip(ring[:-1], tokens, strict=False):
        put(state, 0, CELLS[cell], token)
    return state, CELLS[ring[-1]], tokens[len(ring) - 1]


@pytest.mark.parametrize(("ornament", "jokers"), [("F", 1), ("S1", 2), ("B1", 2), ("P3", 3)])
def test_surrounding_each_kind_of_ornament_gives_its_jokers(ornament: str, jokers: int) -> None:
    state, cell, token = surrounding_state(ornament)
    state.players[0].jokers = 5  # enough to pay a 6 with jokers alone
    give(state, 0, token)
    state = check(state)
    error = placement_error(state.players[0], k(token), CELL_INDEX[cell])
    assert error is None, error
    cost = pattern_of(k(token)) - 1
    after, events = play(state, f"tile {token} {cost}j {cell}" if cost else f"tile {token} - {cell}")
    earned = [e.data for e in events if e.kind == "joker_earned"]
    assert {"ornament": ornament, "count": jokers, "lost": 0} in earned
    assert after.players[0].jokers == 5 - cost + sum(d["count"] for d in earned)


def test_jokers_that_do_not_fit_in_storage_are_lost() -> None:
    state, cell, token = surrounding_state("S1")
    assert token == "bl1"  # a tree: nothing else leaves storage, so only one space frees up
    state.players[0].jokers = 0
    give(state, 0, token, "dg1", "dg2", "dg3", "dg4", "dg5", "dg6", "lp1", "lp2", "lp3", "lp4", "lp5")
    state = check(state)
    after, events = play(state, f"tile bl1 - {cell}")
    earned = next(e.data for e in events if e.kind == "joker_earned")
    assert earned == {"ornament": "S1", "count": 1, "lost": 1}
    assert after.players[0].storage_used() == 12


def test_statue_needs_both_neighbouring_areas() -> None:
    state = fresh()
    lay(state, 0, 0)  # A1 only: A2-5 and A2-6 do not exist yet
    for cell, token in (("F1", "bl2"), ("F2", "bl3"), ("A1-3", "bl4")):
        put(state, 0, cell, token)
    give(state, 0, "bl1")
    state, events = play(check(state), "tile bl1 - A1-4")
    assert not [e for e in events if e.kind == "joker_earned"]


# --- pass, rounds, final scoring -------------------------------------------------------------------------------------
def test_first_to_pass_takes_the_marker_and_loses_one_and_discards_cost_their_value() -> None:
    state = fresh()
    give(state, 0, "bl3", "ye2", "ye2")
    give(state, 1, "dg1")
    top(state, "lp1", "lp2", "lp3", "lp4")
    state = check(state)
    assert "pass 2ye2" in notations(state) and "pass bl3+ye2" in notations(state)
    state, events = play(state, "pass bl3+ye2")
    assert events[0].data == {"discarded": "bl3+ye2", "penalty": 6, "marker": True, "score": 9}
    assert state.players[0].score == 15 - 5 - 1 and state.marker == 0
    assert state.players[0].tiles[k("ye2")] == 1 and state.tower[k("bl3")] == 1
    state, events = play(state, "acquire lp")
    assert state.current == 1  # seat 0 passed: seat 1 plays on alone
    state, events = play(state, "pass dg1")
    assert events[0].data == {"discarded": "dg1", "penalty": 1, "marker": False, "score": 14}


def test_round_ends_when_all_passed_scores_the_wheel_and_the_marker_holder_starts() -> None:
    state = fresh()
    put(state, 0, "F1", "bl3")  # round 1 criteria: blue, dark green, trees (default wheel)
    put(state, 1, "F1", "dg1")
    lay(state, 1, 3, "dg2", rotation=2)
    top(state, "lp1", "lp2", "lp3", "lp4")
    state = check(state)
    state, _ = play(state, "pass", seat=0)
    state, _ = play(state, "acquire 4", seat=1)
    state, events = play(state, "pass", seat=1)
    scored = next(e for e in events if e.kind == "round_scored").data
    assert scored["breakdown"][0] == {"criteria": [3, 0, 0], "pavilions": 0, "total": 3}
    assert scored["breakdown"][1] == {"criteria": [0, 3, 1], "pavilions": 1, "total": 5}
    assert state.round == 2 and state.current == 0 and state.marker == -1
    assert [p.score for p in state.players] == [17, 20]
    started = next(e for e in events if e.kind == "round_started").data
    assert started["round"] == 2 and started["start_seat"] == 0 and len(state.top_tiles) == 4
    assert state.display == [] and state.tower[k("lp4")] == 0 and not any(p.passed for p in state.players)
    check(state)


def final_position():
    """Round 4, seat 1 already passed; seat 0 has the rulebook's final-scoring garden."""
    state = fresh()
    for _ in range(3):
        state.supply = [*state.stack, *state.supply]
        state.stack = state.future_stacks.pop(0)
        state.round += 1
    for area in (0, 1, 5):
        lay(state, 0, area)
    # Blue group of six patterns in a ring round the fountain: 21 + 6 bonus.
    for cell, token in zip(
        ("F1", "F2", "F3", "F4", "F5", "F6"), ("bl1", "bl2", "bl3", "bl4", "bl5", "bl6"), strict=True
    ):
        put(state, 0, cell, token)
    # Three butterflies of different colours: A1-1 touches A1-2 touches A1-3; all away from the blue ring's pattern 3.
    for cell, token in (("A1-1", "ye3"), ("A1-2", "lg3"), ("A1-3", "dg3")):
        put(state, 0, cell, token)
    # A pair (scores nothing): two purple in A6.
    put(state, 0, "A6-1", "lp5")
    put(state, 0, "A6-2", "lp6")
    give(state, 0, "dp2")
    state.players[0].jokers = 2
    state.players[0].score = 20
    state.players[1].passed = True
    state.marker = 1
    return check(state)


def test_final_scoring_of_storage_and_groups_follows_the_rulebook_example() -> None:
    state = final_position()
    state, events = play(state, "pass", seat=0)
    final = next(e.data for e in events if e.kind == "final_scored" and e.seat == 0)
    assert final["storage"] == 2 - 2
    points = sorted(g["points"] for g in final["groups"])
    assert 27 in points and 9 in points
    assert all(len(g["cells"]) >= 3 for g in final["groups"])
    assert V.is_over(state) and events[-1].kind == "game_over"
    with pytest.raises(GameOver):
        play(state, "pass", seat=0)


# --- turns, notation, refusals ------------------------------------------------------------------------------------
def test_moving_out_of_turn_is_refused() -> None:
    state = V.new_game(2, seed=1)
    with pytest.raises(NotYourTurn):
        play(state, "pass", seat=1)


@pytest.mark.parametrize(
    "text",
    ["", "grab bl", "acquire", "acquire zz", "acquire 7", "tile bl3", "tile bl9 - F1", "tile bl3 - Z9",
     "expansion supply - A9 -", "expansion bl3 - A1 8", "pass q", "acquire 2 ye2", "acquire 2 ye2@x"],
)  # fmt: skip
def test_unreadable_moves_are_refused_as_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation):
        V.parse_move(text)


def test_every_listed_move_round_trips_through_text_and_choices() -> None:
    state = kamil_position()
    give(state, 0, "bl3", "ye3", "lg3", "bl1")
    store_expansion(state, 0, "dp4")
    state = check(state)
    moves = V.legal_moves(state, 0)
    assert {m.command for m in moves} == {"acquire", "tile", "expansion", "pass"}
    for move in moves:
        assert V.parse_move(str(move)) == move
        assert V.move_from_choices(move.command, dict(move.choices())) == move


def test_choices_left_out_when_optional() -> None:
    assert V.move_from_choices("pass", {}) == V.parse_move("pass")
    assert V.move_from_choices("acquire", {"by": "bl"}) == Acquire("bl")
    with pytest.raises(BadNotation):
        V.move_from_choices("tile", {"tile": "bl3"})


def test_from_json_rejects_a_state_that_lost_a_tile() -> None:
    state = V.new_game(2, seed=1)
    raw = V.to_json(state)
    raw["bag"][0] -= 1
    with pytest.raises(BadState):
        V.from_json(raw)
    raw = V.to_json(state)
    raw["players"][0]["score"] = -1
    with pytest.raises(BadState):
        V.from_json(raw)
    with pytest.raises(BadState):
        V.from_json({"variant": "queens-garden"})
    raw = V.to_json(state)
    kind = raw["bag"].index(3)
    raw["bag"][kind] -= 1
    raw["players"][0]["hexes"][CELL_INDEX["A2-3"]] = kind  # area A2 has no expansion
    with pytest.raises(BadState) as refused:
        V.from_json(raw)
    assert "outside" in refused.value.params["detail"]


# --- running out of tiles -------------------------------------------------------------------------------------------
def test_an_empty_bag_is_refilled_from_the_tower() -> None:
    state = fresh()
    top(state, "bl1", "bl2", "bl3", "bl4")
    state.tower, state.bag = state.bag, [0] * 36
    state, events = play(check(state), "acquire bl")
    assert "bag_refilled" in [e.kind for e in events] and len(state.top_tiles) == 4
    check(state)


def test_with_no_tile_left_anywhere_the_round_stack_is_laid_face_up() -> None:
    state = fresh()
    top(state, "bl1", "bl2", "bl3", "bl4")
    from engine.queens_garden import DisplayItem

    hoard = [kind for kind in range(36) for _ in range(state.bag[kind])]
    state.bag = [0] * 36
    state.display.append(DisplayItem(state.supply.pop(0), sorted(hoard)))  # every other tile sits in the display
    left = state.stack[1:]
    state, events = play(check(state), "acquire bl bl1@s+bl2@s+bl3@s+bl4@s")
    assert state.stack == [] and state.top_tiles == []
    assert [item.expansion for item in state.display if item.face_up][-len(left) :] == left
    assert sum(1 for e in events if e.kind == "expansion_turned") >= len(left)
    check(state)


def test_keeping_everything_is_the_first_pass_listed() -> None:
    state = fresh()
    give(state, 0, "bl3", "ye2", "ye2")
    passes = [str(m) for m in V.legal_moves(check(state), 0) if m.command == "pass"]
    assert passes[0] == "pass" and len(passes) == 2 * 3
    assert passes[-1] == "pass bl3+2ye2"
