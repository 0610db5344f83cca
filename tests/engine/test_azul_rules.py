"""The rules of Azul (shared/rules/azul.md), one test per rule, the rulebook's worked examples first."""

from __future__ import annotations

import pytest

import engine
from engine.azul import (
    CENTRE,
    FLOOR,
    MARKER,
    AzulState,
    Take,
    end_bonus,
    floor_penalty,
    placement_points,
    wall_color,
    wall_column,
)
from tests.engine.azul_tables import board, counts, kinds, play, table
from tests.engine.random_games import random_ending


def wall_from(rows: list[str]) -> list[list[int]]:
    return board(rows).wall


def legal(state: AzulState, seat: int | None = None) -> set[str]:
    seat = min(engine.to_act(state)) if seat is None else seat
    return {str(move) for move in engine.legal_moves(state, seat)}


def tile_total(state: AzulState) -> int:
    total = sum(state.bag) + sum(state.lid) + sum(state.centre) + sum(map(sum, state.factories))
    for b in state.boards:
        total += sum(1 for tile in b.floor if tile != MARKER) + sum(b.line_count)
        total += sum(1 for row in b.wall for tile in row if tile >= 0)
    return total


# --- worked examples from the rulebook --------------------------------------------------------------------------
def test_a_tile_with_no_neighbours_scores_1() -> None:
    wall = wall_from([".....", ".....", "..r..", ".....", "....."])
    assert placement_points(wall, 2, 2) == (1, 1, 1)


def test_a_tile_completing_a_run_of_4_across_and_3_down_scores_7() -> None:
    # The new yellow tile at row 2, column 3 joins b.y. across (4 with it) and r above/below (3 with it).
    wall = wall_from([".....", "...r.", "kwby.", "...b.", "....."])
    assert placement_points(wall, 2, 3) == (7, 4, 3)


def test_a_tile_joining_a_horizontal_run_of_three_scores_3() -> None:
    wall = wall_from([".....", ".....", ".....", ".....", "yrk.."])
    assert placement_points(wall, 4, 2) == (3, 3, 1)


def test_a_tile_completing_a_vertical_run_of_three_scores_3() -> None:
    wall = wall_from(["b....", "w....", "k....", ".....", "....."])
    assert placement_points(wall, 1, 0) == (3, 1, 3)


def test_floor_with_marker_and_four_tiles_loses_8() -> None:
    assert floor_penalty(5) == -8
    # Played out: Maciek (seat 1) has the marker and 4 broken tiles when the offer ends.
    state = table("azul", [board(score=3), board(floor="1rrbb", score=10)], factories=["k"], marker_in_centre=False)
    state, events = play(state, (0, "1k1"))
    assert kinds(events, "floor_penalty", 1) == [{"points": -8, "applied": -8, "tiles": 5}]
    assert state.boards[1].score == 2
    assert state.start_seat == 1 and state.current == 1  # the marker's owner starts the next round


def test_gosia_tiles_full_lines_top_down_and_keeps_incomplete_ones() -> None:
    gosia = board(lines={2: "rr", 3: "kk", 4: "bbbb", 5: "yy"})
    state = table("azul", [gosia, board()], factories=["w"], bag="")
    lid_before = sum(state.lid)
    state, events = play(state, (0, "1w1"))
    walls = kinds(events, "wall", 0)
    assert [(w["row"], w["col"], w["points"]) for w in walls] == [
        (0, wall_column(0, 4), 1),  # the white just taken into line 1
        (1, wall_column(1, 2), 1),  # red of line 2: no neighbours
        (3, wall_column(3, 0), 1),  # blue of line 4: no neighbours
    ]
    b = state.boards[0]
    assert b.line_count == [0, 0, 2, 0, 2] and b.line_color[2] == 3 and b.line_color[4] == 1
    # The rest of lines 2 and 4 (1 + 3 tiles) went to the lid; it refilled the bag for the next deal.
    assert lid_before + 4 == sum(state.bag) + sum(state.lid) + sum(map(sum, state.factories))


def test_przemek_may_put_two_yellow_in_line_1_line_5_or_the_floor() -> None:
    przemek = board(wall=[".....", "..y..", "...y.", ".....", "....."], lines={4: "b"})
    state = table("azul", [przemek, board()], factories=["yyrw"])
    assert {m for m in legal(state) if m.startswith("1y")} == {"1y1", "1y5", "1yF"}
    for line, on_line, on_floor in (("1", 1, 1), ("5", 2, 0), ("F", 0, 2)):
        _, events = play(state, (0, f"1y{line}"))
        taken = kinds(events, "take", 0)[0]
        assert (taken["to_line"], taken["to_floor"], taken["count"]) == (on_line, on_floor, 2)
    for line, key in (("2", "color_already_on_wall"), ("3", "color_already_on_wall"), ("4", "line_has_other_color")):
        with pytest.raises(engine.IllegalMove) as refused:
            play(state, (0, f"1y{line}"))
        assert refused.value.key == key


# --- setup ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_new_game_fills_every_factory_with_4_tiles(players: int, factories: int) -> None:
    for variant in ("azul", "azul-grey"):
        state = engine.new_game(variant, players, seed=11)
        assert len(state.factories) == factories
        assert all(sum(tiles) == 4 for tiles in state.factories)
        assert sum(state.bag) == 100 - 4 * factories and state.lid == [0] * 5
        assert state.marker_in_centre and state.round == 1 and engine.to_act(state) == {0}
        assert engine.scores(state) == [0] * players


@pytest.mark.parametrize("players", [1, 5, 0])
def test_player_count_outside_2_to_4_is_refused(players: int) -> None:
    with pytest.raises(engine.BadOptions) as refused:
        engine.new_game("azul", players, seed=1)
    assert refused.value.key == "players_out_of_range"


def test_unknown_options_and_variants_are_refused() -> None:
    with pytest.raises(engine.BadOptions, match="unknown_option"):
        engine.new_game("azul", 2, seed=1, options={"speed": 2})
    with pytest.raises(engine.BadOptions, match="unknown_variant"):
        engine.new_game("azul-pink", 2, seed=1)
    with pytest.raises(engine.BadOptions, match="bad_seed"):
        engine.new_game("azul", 2, seed="7")  # type: ignore[arg-type]


def test_the_seed_decides_the_deal() -> None:
    assert engine.new_game("azul", 2, seed=5) == engine.new_game("azul", 2, seed=5)
    assert engine.new_game("azul", 2, seed=5).factories != engine.new_game("azul", 2, seed=6).factories


# --- factory offer ----------------------------------------------------------------------------------------------
def test_taking_from_a_factory_moves_the_rest_to_the_centre() -> None:
    state = table("azul", [board(), board()], factories=["bbry", "kkkk"])
    state, events = play(state, (0, "1b2"))
    assert state.factories[0] == [0] * 5
    assert state.centre == counts("ry")
    assert state.boards[0].line_count[1] == 2 and state.boards[0].line_color[1] == 0
    assert kinds(events, "take") == [
        {
            "source": 0,
            "color": 0,
            "count": 2,
            "line": 2,
            "to_line": 2,
            "to_floor": 0,
            "to_lid": 0,
            "marker": False,
        }
    ]
    assert engine.to_act(state) == {1}


def test_first_take_from_the_centre_takes_the_marker_to_the_floor() -> None:
    state = table("azul", [board(floor="r"), board()], factories=["kkkk"], centre="bby")
    state, events = play(state, (0, "cb2"))
    assert state.boards[0].floor == [counts("r").index(1), MARKER]  # leftmost free space
    assert not state.marker_in_centre and kinds(events, "take")[0]["marker"] is True
    state, events = play(state, (1, "cy1"))
    assert MARKER not in state.boards[1].floor and kinds(events, "take")[0]["marker"] is False


def test_the_marker_alone_cannot_be_taken() -> None:
    state = table("azul", [board(), board()], factories=["kkkk"], centre="")
    assert all(not m.startswith("c") for m in legal(state))
    with pytest.raises(engine.IllegalMove) as refused:
        play(state, (0, "ck1"))
    assert refused.value.key == "centre_empty"


def test_taking_a_colour_that_is_not_there_is_refused_with_the_reason() -> None:
    state = table("azul", [board(), board()], factories=["kkkk", ""], centre="b")
    cases = {
        "1b1": ("color_not_in_source", {"source": "1", "color": "blue"}),
        "2b1": ("empty_source", {"source": "2"}),
        "6b1": ("no_such_factory", {"factory": 6, "factories": 5}),
        "cr1": ("color_not_in_centre", {"color": "red"}),
    }
    for notation, (key, params) in cases.items():
        with pytest.raises(engine.IllegalMove) as refused:
            play(state, (0, notation))
        assert (refused.value.key, refused.value.params) == (key, params)


def test_a_pattern_line_holds_one_colour_only() -> None:
    state = table("azul", [board(lines={3: "r"}), board()], factories=["bbbb"])
    with pytest.raises(engine.IllegalMove) as refused:
        play(state, (0, "1b3"))
    assert refused.value.params == {"line": 3, "color": "blue", "line_color": "red"}
    assert "1b3" not in legal(state)


def test_a_colour_already_on_the_wall_row_cannot_go_in_that_line() -> None:
    state = table("azul", [board(wall=[".....", ".b...", ".....", ".....", "....."]), board()], factories=["bbbb"])
    with pytest.raises(engine.IllegalMove) as refused:
        play(state, (0, "1b2"))
    assert (refused.value.key, refused.value.params) == ("color_already_on_wall", {"line": 2, "color": "blue"})


def test_a_full_line_takes_no_more_tiles() -> None:
    state = table("azul", [board(lines={2: "bb"}), board()], factories=["bbbb", "rrrr"])
    assert "1b2" not in legal(state)
    with pytest.raises(engine.IllegalMove, match="line_full"):
        play(state, (0, "1b2"))


def test_tiles_that_do_not_fit_go_to_the_floor_then_to_the_lid() -> None:
    state = table("azul", [board(floor="kkkk"), board()], factories=["bbbb", "rrrr"])
    state, events = play(state, (0, "1b1"))
    taken = kinds(events, "take")[0]
    assert (taken["to_line"], taken["to_floor"], taken["to_lid"]) == (1, 3, 0)
    assert state.boards[0].floor == [3, 3, 3, 3, 0, 0, 0]


def test_overflow_beyond_the_seventh_floor_space_goes_to_the_lid_without_penalty() -> None:
    state = table("azul", [board(floor="kkkkk"), board()], factories=["bbbb", "rrrr"])
    lid = sum(state.lid)
    state, events = play(state, (0, "1bF"))
    assert kinds(events, "take")[0]["to_floor"] == 2 and kinds(events, "take")[0]["to_lid"] == 2
    assert len(state.boards[0].floor) == 7 and sum(state.lid) == lid + 2


def test_the_marker_still_goes_to_a_player_whose_floor_is_full() -> None:
    state = table("azul", [board(floor="kkkkkkk"), board()], factories=["yyyy"], centre="bb")
    lid = sum(state.lid)
    state, events = play(state, (0, "cbF"))
    floor = state.boards[0].floor
    assert len(floor) == 7 and floor[-1] == MARKER  # it takes the last space; that tile goes to the lid
    assert sum(state.lid) == lid + 3 and kinds(events, "take")[0]["to_lid"] == 3
    assert floor_penalty(len(floor)) == -14  # the penalty is unchanged
    assert tile_total(state) == 100


def test_a_player_may_always_put_everything_on_the_floor() -> None:
    state = table("azul", [board(), board()], factories=["bbbb"])
    assert {"1b1", "1b2", "1b3", "1b4", "1b5", "1bF"} <= legal(state)


def test_play_goes_round_the_table_in_seat_order() -> None:
    state = table("azul", [board(), board(), board()], factories=["bbbb", "rrrr", "yyyy"])
    state, _ = play(state, (0, "1b1"), (1, "2r1"), (2, "3y1"))
    assert engine.to_act(state) == {0}


def test_only_the_player_to_act_may_move() -> None:
    state = table("azul", [board(), board()], factories=["bbbb"], current=1)
    with pytest.raises(engine.NotYourTurn) as refused:
        play(state, (0, "1b1"))
    assert refused.value.params == {"seat": 0}
    assert engine.legal_moves(state, 0) == []


# --- wall tiling ------------------------------------------------------------------------------------------------
def test_the_coloured_wall_is_tiled_automatically_after_the_last_take() -> None:
    state = table("azul", [board(lines={3: "rrr"}), board()], factories=["k"])
    state, events = play(state, (0, "1k1"))
    assert [(e.kind, e.seat) for e in events[:3]] == [("take", 0), ("wall", 0), ("wall", 0)]
    assert state.boards[0].wall[2][wall_column(2, 2)] == 2 and state.boards[0].wall[0][wall_column(0, 3)] == 3
    assert state.round == 3 and state.phase == "offer"
    assert kinds(events, "round_scored") == [{"round": 2, "scores": [2, 0]}]
    started = kinds(events, "round_started")[0]
    assert started["round"] == 3 and all(len(tiles) == 4 for tiles in started["factories"])


def test_the_score_never_goes_below_zero() -> None:
    state = table("azul", [board(score=3, floor="1rrrr"), board()], factories=["k"], marker_in_centre=False)
    state, events = play(state, (0, "1kF"))  # a sixth floor tile: -11 in all
    assert kinds(events, "floor_penalty", 0) == [{"points": -11, "applied": -3, "tiles": 6}]
    assert state.boards[0].score == 0


def test_floor_tiles_go_to_the_lid_and_the_marker_to_its_owner() -> None:
    state = table("azul", [board(), board(floor="1bb")], factories=["k"], marker_in_centre=False, bag="")
    state, _ = play(state, (0, "1k1"))
    assert all(not b.floor for b in state.boards)
    assert state.start_seat == 1 and engine.to_act(state) == {1} and state.marker_in_centre
    assert tile_total(state) == 100


def test_when_nobody_took_from_the_centre_the_same_player_starts_again() -> None:
    state = table("azul", [board(), board()], factories=["bbbb", "rrrr"], start_seat=1, current=1)
    state, events = play(state, (1, "1b4"), (0, "2r4"))
    assert state.round == 3 and state.start_seat == 1 and engine.to_act(state) == {1}
    assert kinds(events, "round_started")[0]["start_seat"] == 1


def test_the_bag_is_refilled_from_the_lid_when_it_runs_out() -> None:
    state = table("azul", [board(), board()], factories=["k"], bag="bby")
    assert sum(state.lid) > 0
    state, _ = play(state, (0, "1k1"))
    assert all(sum(tiles) == 4 for tiles in state.factories)
    assert tile_total(state) == 100
    # The three bag tiles were dealt first: the rest came from the lid, now poured into the bag.
    assert state.lid == [0] * 5


def test_with_bag_and_lid_both_empty_factories_are_filled_partly_or_not_at_all() -> None:
    walls = ["byrk.", "wbyr.", "kwby.", "rkwb.", "yrkw."]  # 20 tiles each, 4 of every colour, no row complete
    boards = [
        board(wall=walls, lines={2: "k", 5: "bbbb"}),
        board(wall=walls, lines={2: "k", 4: "yyy"}),
        board(wall=walls, lines={2: "k", 3: "rr"}, floor="y"),
        board(wall=walls, lines={2: "k", 3: "rr"}, floor="w"),
    ]
    state = table("azul", boards, factories=["www"], bag="")
    assert sum(state.bag) == sum(state.lid) == 0  # all 100 tiles are on the table
    state, events = play(state, (0, "1wF"))
    # Only the 5 floor tiles came back (through the lid): one full factory and one with a single tile.
    assert [sum(tiles) for tiles in state.factories] == [4, 1, 0, 0, 0, 0, 0, 0, 0]
    assert [len(tiles) for tiles in kinds(events, "round_started")[0]["factories"]] == [4, 1, 0, 0, 0, 0, 0, 0, 0]
    assert sum(state.bag) == sum(state.lid) == 0 and tile_total(state) == 100
    assert not engine.is_over(state)


def test_the_game_ends_after_the_round_in_which_a_row_is_completed() -> None:
    walls = ["byrk.", ".....", ".....", ".....", "....."]
    state = table("azul", [board(wall=walls, lines={1: "w"}), board(score=4)], factories=["r"])
    state, events = play(state, (0, "1r2"))
    assert engine.is_over(state) and engine.to_act(state) == frozenset()
    assert kinds(events, "wall", 0)[0]["points"] == 5
    assert kinds(events, "bonus", 0) == [{"rows": 1, "columns": 0, "colors": 0, "points": 2}]
    assert kinds(events, "game_over") == [{"standings": [[0], [1]], "scores": [7, 4], "reason": "row_complete"}]
    assert [e.kind for e in events][-1] == "game_over"
    with pytest.raises(engine.GameOver):
        play(state, (1, "1b1"))
    assert engine.legal_moves(state, 0) == []


def test_end_bonuses_rows_columns_and_colours() -> None:
    wall = [[wall_color(r, c) for c in range(5)] for r in range(5)]
    assert end_bonus(wall) == (5, 5, 5, 5 * 2 + 5 * 7 + 5 * 10)
    wall = wall_from(["byrk.", "wb...", "kw...", "rk...", "yr..."])
    assert end_bonus(wall) == (0, 2, 0, 14)
    wall = wall_from(["b....", ".b...", "..b..", "...b.", "....b"])
    assert end_bonus(wall) == (0, 0, 1, 10)


def test_a_tie_goes_to_more_complete_rows_then_is_shared() -> None:
    variant = engine.get_variant("azul")
    row = ["byrkw", ".....", ".....", ".....", "....."]
    rows = ["byrkw", "wbyrk", ".....", ".....", "....."]
    state = table("azul", [board(wall=rows, score=20), board(wall=row, score=20), board(score=20)], factories=["b"])
    assert variant.standings(state) == [[0], [1], [2]]
    state = table("azul", [board(wall=row, score=20), board(wall=row, score=20), board(score=30)], factories=["b"])
    assert variant.standings(state) == [[2], [0, 1]]


def test_rounds_are_counted() -> None:
    state = table("azul", [board(), board()], factories=["k"])
    assert engine.get_variant("azul").round_number(state) == 2
    state, _ = play(state, (0, "1k1"))
    assert engine.get_variant("azul").round_number(state) == 3


# --- grey wall --------------------------------------------------------------------------------------------------
def test_grey_wall_accepts_a_colour_in_any_free_space_of_the_row_once_per_column() -> None:
    grey = board(wall=["b....", ".....", ".....", ".....", "....."], lines={2: "bb"})
    state = table("azul-grey", [grey, board()], factories=["k"])
    state, events = play(state, (0, "1k1"))
    # Line 1 black: columns 2..5 are free and black-free; a real choice, so the seat is asked.
    assert state.phase == "wall" and engine.to_act(state) == {0}
    assert kinds(events, "choose_columns") == [{"seats": [0]}]
    assert legal(state) == {"L1C2", "L1C3", "L1C4", "L1C5"}
    state, events = play(state, (0, "L1C2"))
    # Line 2 blue: column 1 holds blue already, column 2 now black (taken in row 1 only): choices remain.
    assert engine.to_act(state) == {0}
    assert legal(state) == {"L2C2", "L2C3", "L2C4", "L2C5"}
    state, events = play(state, (0, "L2C2"))
    assert kinds(events, "wall", 0)[0] == {"row": 1, "col": 1, "color": 0, "points": 2, "h": 1, "v": 2}
    assert state.phase == "offer" and state.round == 3


def test_grey_wall_line_with_one_legal_column_is_placed_automatically() -> None:
    grey = board(wall=["kbyr.", "....w", ".....", ".....", "....."], lines={1: "w"})
    state = table("azul-grey", [grey, board()], factories=["y"])
    state, events = play(state, (0, "1y2"))  # line 1 white: only column 5, but column 5 holds white below: none
    assert kinds(events, "line_to_floor", 0) == [{"row": 0, "color": 4, "count": 1, "to_floor": 1, "to_lid": 0}]
    assert state.round == 3  # nothing else to choose: the round was scored at once
    grey = board(wall=["kbyr.", ".....", ".....", ".....", "....."], lines={1: "w"})
    state = table("azul-grey", [grey, board()], factories=["y"])
    state, events = play(state, (0, "1y2"))
    assert kinds(events, "wall", 0)[0]["col"] == 4 and kinds(events, "wall", 0)[0]["points"] == 5


def test_grey_wall_full_line_with_no_legal_space_goes_to_the_floor_and_scores_as_floor() -> None:
    # Row 3 has free columns 4 and 5 only, and both columns already hold red.
    grey = board(wall=["...r.", "....r", "bky..", ".....", "....."], lines={3: "rrr"}, score=10)
    state = table("azul-grey", [grey, board()], factories=["w"])
    state, events = play(state, (0, "1wF"))
    assert kinds(events, "line_to_floor", 0)[0]["to_floor"] == 3
    assert kinds(events, "floor_penalty", 0) == [{"points": -6, "applied": -6, "tiles": 4}]
    assert state.boards[0].line_count[2] == 0


def test_grey_wall_earlier_choices_in_the_same_tiling_count() -> None:
    grey = board(lines={1: "b", 2: "bb"})
    state = table("azul-grey", [grey, board()], factories=["k"])
    state, _ = play(state, (0, "1k4"), (0, "L1C3"))
    assert "L2C3" not in legal(state)  # blue now stands in column 3
    with pytest.raises(engine.IllegalMove) as refused:
        play(state, (0, "L2C3"))
    assert (refused.value.key, refused.value.params["reason"]) == ("column_not_legal", "color_in_column")


def test_grey_wall_players_choose_independently_and_the_round_waits_for_all() -> None:
    state = table("azul-grey", [board(lines={1: "b"}), board(lines={1: "r"}), board()], factories=["k"])
    state, events = play(state, (0, "1k5"))
    assert engine.to_act(state) == {0, 1} and kinds(events, "choose_columns") == [{"seats": [0, 1]}]
    state, events = play(state, (1, "L1C5"))
    assert engine.to_act(state) == {0} and not kinds(events, "round_scored")
    assert state.boards[1].wall[0][4] == 2
    state, events = play(state, (0, "L1C1"))
    assert kinds(events, "round_scored") == [{"round": 2, "scores": [1, 1, 0]}]
    assert engine.to_act(state) == {0} and state.phase == "offer"


def test_grey_wall_refusals_say_why() -> None:
    grey = board(wall=[".....", "..k..", ".....", ".....", "....."], lines={1: "b", 2: "rr"})
    state = table("azul-grey", [grey, board()], factories=["y"])
    with pytest.raises(engine.IllegalMove, match="not_choosing_now"):
        play(state, (0, "L1C1"))
    state, _ = play(state, (0, "1y5"))
    cases = {
        "L2C1": ("line_not_next", {"line": 2, "expected": 1}),
        "1b1": ("choose_column_first", {"line": 1}),
    }
    for notation, (key, params) in cases.items():
        with pytest.raises(engine.IllegalMove) as refused:
            play(state, (0, notation))
        assert (refused.value.key, refused.value.params) == (key, params)
    state, _ = play(state, (0, "L1C1"))
    with pytest.raises(engine.IllegalMove) as refused:
        play(state, (0, "L2C3"))
    assert refused.value.key == "space_taken"
    with pytest.raises(engine.NotYourTurn):
        play(state, (1, "L2C2"))


def test_the_coloured_wall_has_no_column_to_choose() -> None:
    state = table("azul", [board(), board()], factories=["bbbb"])
    with pytest.raises(engine.IllegalMove, match="no_column_choice"):
        play(state, (0, "L1C1"))


def test_grey_wall_may_fill_a_line_whose_colour_has_no_free_column() -> None:
    # The rule only bars a colour already in the wall row; a dead line is resolved at tiling (to the floor).
    grey = board(wall=["r....", ".r...", "..r..", "...r.", "....."])
    state = table("azul-grey", [grey, board()], factories=["rrrr"])
    assert "1r5" in legal(state)


def test_refused_moves_change_nothing() -> None:
    state = table("azul", [board(lines={3: "r"}), board()], factories=["bbbb"])
    before = engine.to_json(state)
    for notation in ("1b3", "2b1", "9b1", "cb1"):
        with pytest.raises(engine.IllegalMove):
            play(state, (0, notation))
    assert engine.to_json(state) == before


def test_apply_does_not_mutate_its_input() -> None:
    state = engine.new_game("azul-grey", 3, seed=4)
    before = engine.to_json(state)
    seat = min(engine.to_act(state))
    for move in engine.legal_moves(state, seat):
        engine.apply(state, seat, move)
    assert engine.to_json(state) == before


def test_take_values_know_their_parts() -> None:
    move = engine.parse_move("azul", "cr5")
    assert move == Take(CENTRE, 2, 4)
    assert engine.parse_move("azul", "1kf") == Take(0, 3, FLOOR)


def test_grey_wall_game_ends_when_no_player_can_ever_complete_a_row() -> None:
    # Every row of both walls has a free space whose missing colour already stands in that space's column.
    blocked = [
        ["rk.by", "kbw.r", "b.ryw", "wry.k", ".ykwb"],
        ["rb.wk", "y.rbw", "bwyk.", ".kbyr", "wrk.y"],
    ]
    state = table("azul-grey", [board(wall=blocked[0], score=30), board(wall=blocked[1], score=20)], factories=["b"])
    state, events = play(state, (0, "1bF"))
    assert engine.is_over(state)
    assert kinds(events, "game_over")[0]["reason"] == "no_row_possible"
    assert engine.standings(state) == [[0], [1]]
    # One completable row is enough to play on.
    open_row = [*blocked[0][:4], "....."]
    state = table("azul-grey", [board(wall=open_row), board(wall=blocked[1])], factories=["b"])
    state, _ = play(state, (0, "1bF"))
    assert not engine.is_over(state)


def test_game_over_says_why_it_ended() -> None:
    walls = ["byrk.", ".....", ".....", ".....", "....."]
    state = table("azul", [board(wall=walls, lines={1: "w"}), board()], factories=["r"])
    _, events = play(state, (0, "1r2"))
    assert kinds(events, "game_over")[0]["reason"] == "row_complete"


def test_the_game_ends_when_every_tile_is_on_the_boards_and_nothing_can_be_dealt() -> None:
    walls = ["byr..", "wby..", "kwb..", "rkw..", "yrk.."]  # 15 tiles each, no row complete
    boards = [
        board(wall=walls, lines={2: "k", 3: "rr", 4: "yyy", 5: "bbbb"}),
        board(wall=walls, lines={1: "k", 2: "k", 3: "rr", 4: "yyy", 5: "b"}),
        board(wall=walls, lines={1: "k", 2: "k", 3: "rr", 4: "yy", 5: "wwww"}),
        board(wall=walls, lines={1: "k", 2: "k", 3: "rr", 4: "bbb", 5: "wwww"}),
    ]
    state = table("azul", boards, factories=["k"], bag="")
    assert sum(state.bag) == sum(state.lid) == 0
    state, events = play(state, (0, "1k1"))
    assert engine.is_over(state) and kinds(events, "game_over")[0]["reason"] == "no_tiles"
    assert not kinds(events, "round_started") and state.round == 2


def test_opening_events_describe_the_first_deal() -> None:
    state = engine.new_game("azul", 2, seed=3)
    (event,) = engine.opening_events(state)
    assert event.kind == "round_started"
    assert event.data["round"] == 1 and event.data["start_seat"] == 0 and event.data["bag"] == 80
    assert [counts("".join("byrkw"[c] for c in tiles)) for tiles in event.data["factories"]] == state.factories


def test_heuristic_counts_sure_points_and_floor_losses() -> None:
    variant = engine.get_variant("azul")
    me = board(wall=[".yrk.", ".....", ".....", ".....", "....."], lines={1: "b", 2: "ww"}, floor="kk", score=5)
    state = table("azul", [me, board()], factories=["y"])
    # Blue in row 1 joins y r k (4 points); white in row 2 sits under blue (2 points); two floor tiles lose 2.
    assert variant.heuristic(state, 0) == 5 + 4 + 2 - 2
    grey = engine.get_variant("azul-grey")
    state = table("azul-grey", [me, board()], factories=["y"])
    assert grey.heuristic(state, 0) == 5 + 4 + 2 - 2  # the best columns: 1 for blue, then 1 for white


def test_a_game_in_which_no_line_can_ever_be_tiled_again_ends_at_the_deal() -> None:
    # Found by random grey-wall play (seed 479 of 4 players went on for 2,336 rounds): the only tiles in play are
    # red, and every row that could take red already holds it or has red in each free space's column.
    walls = [
        [".wyrb", "rk.yw", "kyw.r", "yr.bk", "w.b.."],
        ["kwbr.", "rk.wb", "..y.w", "br.ky", ".b..."],
        ["k.byw", "wb.ry", "bwr.k", "...wb", ".rkb."],
        ["ykb.w", ".bkry", "byr.k", "wryk.", "...w."],
    ]
    lines = [
        {3: "bb", 5: "kk"},
        {2: "y", 3: "b", 4: "www", 5: "yy"},
        {2: "k", 4: "yyy", 5: "yy"},
        {2: "w", 3: "ww", 4: "bb", 5: "kkkk"},
    ]
    boards = [
        board(wall=wall, lines=held, score=10 * seat)
        for seat, (wall, held) in enumerate(zip(walls, lines, strict=True))
    ]
    state = table("azul-grey", boards, factories=["rrrr"])
    assert engine.legal_moves(state, 0), "red can still be taken: only never tiled"
    state, events = play(state, (0, "1rF"))
    assert engine.is_over(state)
    assert kinds(events, "game_over")[0]["reason"] == "no_tiling_possible"
    # One line that red could still fill and tile is enough to play on.
    walls[3][0] = "ykb.."
    boards = [board(wall=wall, lines=held) for wall, held in zip(walls, lines, strict=True)]
    state = table("azul-grey", boards, factories=["rrrr"])
    state, _ = play(state, (0, "1rF"))
    assert not engine.is_over(state)


@pytest.mark.parametrize(("seed", "players"), [(479, 4), (608, 4)])
def test_random_grey_wall_games_that_went_round_forever_now_end(seed: int, players: int) -> None:
    # Of 3,000 random grey-wall games (`python -m bench endings`), these two never ended before the rule.
    assert random_ending("azul-grey", players, seed) == "no_tiling_possible"
