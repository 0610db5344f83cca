"""League points, standings and pairings, each checked against a hand computation."""

from __future__ import annotations

import itertools

import pytest

from bot.app.league_rules import (
    BYE,
    COMPUTER,
    Entrant,
    Played,
    circle_round,
    imbalance,
    planned_schedule,
    points_of,
    round_robin_round,
    standings,
    swiss_round,
)


def duel(number: int, winner: int, loser: int, scores: tuple[int, int] = (40, 30)) -> Played:
    return Played(number, (winner, loser), scores, (1, 2))


def test_points_by_place() -> None:
    assert points_of(Played(1, (1, 2), (40, 30), (1, 2))) == {1: 2.0, 2: 0.0}
    assert points_of(Played(1, (1, 2), (40, 40), (1, 1))) == {1: 1.0, 2: 1.0}, "a draw"
    # 4 players, places 1, 2, 2, 4: 2+2+2, 0+1+2, 1+0+2... by hand: beaten below ×2, tied ×1
    four = Played(1, (1, 2, 3, 4), (50, 40, 40, 10), (1, 2, 2, 4), table_size=4)
    assert points_of(four) == {1: 6.0, 2: 3.0, 3: 3.0, 4: 0.0}
    assert points_of(Played(1, (7, None, 8), (20, 60, 10), (2, 1, 3), table_size=3)) == {7: 2.0, 8: 0.0}
    assert points_of(Played(1, (5,), bye=True, table_size=2)) == {5: 1.0}, "a bye is an average result"
    assert points_of(Played(1, (5,), bye=True, table_size=4)) == {5: 3.0}


def test_who_left_a_game_earns_nothing_from_it_and_ranks_after_who_is_still_in() -> None:
    # 4 seats: 1 and 2 stayed; 3 and 4 left (sharing the last place, whatever the computer scored for them)
    table = Played(1, (1, 2, 3, 4), (30, 20, 70, 60), (1, 2, 3, 3), table_size=4, left=(False, False, True, True))
    assert points_of(table) == {1: 6.0, 2: 4.0, 3: 0.0, 4: 0.0}, "no tie point between two who left"
    earlier = Played(0, (4, 5), (50, 10), (1, 2))  # 4 won a game before leaving the league
    lines = standings([Entrant(user, order=user) for user in (1, 2, 3, 4, 5)], [earlier, table], swiss=False, out=[4])
    assert [(line.user_id, line.points, line.score) for line in lines] == [
        (1, 6.0, 30),
        (2, 4.0, 20),
        (5, 0.0, 10),
        (3, 0.0, 0),  # the game they left adds no score
        (4, 2.0, 50),  # still out of the league: after everyone in it, whatever their points
    ]


def test_standings_break_ties_by_buchholz_then_score_then_head_to_head() -> None:
    players = [Entrant(user, order=user) for user in (1, 2, 3, 4)]
    history = [
        duel(1, 1, 2, (50, 20)),
        duel(1, 3, 4, (41, 40)),
        duel(2, 1, 3, (30, 29)),
        duel(2, 4, 2, (35, 34)),
    ]
    # points: 1 → 4, 3 → 2, 4 → 2, 2 → 0. Buchholz: 1 met 2 and 3 → 0 + 2 = 2; 3 met 4 and 1 → 2 + 4 = 6;
    # 4 met 3 and 2 → 2 + 0 = 2; 2 met 1 and 4 → 4 + 2 = 6. So 3 (B 6) is ahead of 4 (B 2).
    lines = standings(players, history, swiss=True)
    assert [(line.user_id, line.points, line.buchholz) for line in lines] == [
        (1, 4.0, 2.0),
        (3, 2.0, 6.0),
        (4, 2.0, 2.0),
        (2, 0.0, 6.0),
    ]
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    assert [line.score for line in lines] == [80, 70, 75, 54]

    # Without Buchholz (round robin), 3 and 4 are tied on points: total score decides (4: 75 > 3: 70).
    assert [line.user_id for line in standings(players, history, swiss=False)] == [1, 4, 3, 2]


def test_head_to_head_decides_when_points_and_score_are_equal() -> None:
    players = [Entrant(user, order=user) for user in (1, 2, 3)]
    # 2 beats 1 in round 1 with the same total scores in the end: 1 and 2 tie on points (2) and score (70).
    history = [duel(1, 2, 1, (40, 30)), duel(2, 1, 3, (40, 10)), duel(3, 3, 2, (20, 30))]
    lines = standings(players, history, swiss=False)
    assert [(line.user_id, line.points, line.score) for line in lines][:2] == [(2, 2.0, 70), (1, 2.0, 70)]
    assert lines[0].head_to_head == 2.0 and lines[1].head_to_head == 0.0
    # 3 also has 2 points but only 40: third. Ranks are not shared: head-to-head split 1 and 2.
    assert [line.rank for line in lines] == [1, 2, 3]


def test_swiss_pairs_by_points_then_rating_and_never_repeats() -> None:
    players = [Entrant(user, rating=rating, order=user) for user, rating in ((1, 10), (2, 30), (3, 20), (4, 0))]
    first = swiss_round(players, [])
    assert first.tables == ((2, 3), (1, 4)), "rating order 2, 3, 1, 4: neighbours meet (Monrad)"
    history = [duel(1, 3, 2), duel(1, 4, 1)]
    # points: 3 and 4 have 2, then 2 (rating 30) and 1 (10). 3 v 4, 2 v 1: neither met before.
    assert swiss_round(players, history).tables == ((3, 4), (2, 1))
    history += [duel(2, 3, 4), duel(2, 2, 1)]
    # points: 3 → 4; 4 (rating 0) and 2 (rating 30) → 2: order 3, 2, 4, 1. 3 v 2 is a repeat (round 1), so the
    # search backs up: 3 v 4 is a repeat too (round 2), so 3 v 1, and 2 v 4.
    third = swiss_round(players, history)
    assert third.tables == ((3, 1), (2, 4)) and third.repeats == 0


def test_swiss_with_an_odd_count_gives_the_bye_to_the_lowest_without_one() -> None:
    players = [Entrant(user, order=user) for user in (1, 2, 3, 4, 5)]
    first = swiss_round(players, [])
    assert first.byes == (5,) and first.tables == ((1, 2), (3, 4))
    history = [duel(1, 1, 2), duel(1, 3, 4), Played(1, (5,), bye=True)]
    # points: 1 → 2, 3 → 2, 5 → 1, 2 → 0, 4 → 0: order 1, 3, 5, 2, 4. The lowest without a bye is 4.
    second = swiss_round(players, history)
    assert second.byes == (4,) and second.tables == ((1, 3), (5, 2))
    with_computer = swiss_round(players, [], leftover=COMPUTER)
    assert with_computer.byes == () and with_computer.tables == ((1, 2), (3, 4), (5, None))


def test_swiss_repeats_only_when_nothing_else_exists() -> None:
    players = [Entrant(user, order=user) for user in (1, 2)]
    again = swiss_round(players, [duel(1, 1, 2)])
    assert again.tables == ((1, 2),) and again.repeats == 1


def test_swiss_fills_bigger_tables_and_computers() -> None:
    players = [Entrant(user, order=user) for user in range(1, 7)]
    first = swiss_round(players, [], size=3)
    assert first.tables == ((1, 2, 3), (4, 5, 6))
    # 7 players at tables of 4 with computers: 2 tables, one computer at the last.
    seven = [Entrant(user, order=user) for user in range(1, 8)]
    assert swiss_round(seven, [], size=4, leftover=COMPUTER).tables == ((1, 2, 3, 4), (5, 6, 7, None))
    # with byes: one table of 4, three byes for the lowest.
    bye = swiss_round(seven, [], size=4, leftover=BYE)
    assert bye.tables == ((1, 2, 3, 4),) and bye.byes == (5, 6, 7)


def test_circle_method_meets_every_pair_once_with_one_bye_each() -> None:
    players = [1, 2, 3, 4, 5]
    rounds = [circle_round(players, number) for number in range(1, 6)]
    # by hand, round 1: ring 1 2 3 4 5 _ → 1–_ (bye), 2–5, 3–4
    assert rounds[0].tables == ((2, 5), (3, 4)) and rounds[0].byes == (1,)
    pairs = sorted(tuple(sorted(u for u in table if u is not None)) for each in rounds for table in each.tables)
    assert pairs == list(itertools.combinations(players, 2))
    assert sorted(user for each in rounds for user in each.byes) == players


def test_round_robin_without_a_player_who_left() -> None:
    players = [1, 2, 3, 4]
    planned = round_robin_round(players, 1, [])
    assert planned.tables == ((1, 4), (2, 3))
    without = round_robin_round(players, 1, [], still_in=[1, 2, 3])
    assert without.tables == ((2, 3),) and without.byes == (1,)
    assert round_robin_round(players, 1, [], still_in=[1, 2, 3], leftover=COMPUTER).tables == ((2, 3), (1, None))


def test_bigger_tables_meet_as_evenly_as_they_can() -> None:
    # 9 players at tables of 3: a perfect schedule (Kirkman's) exists in 4 rounds; the greedy one states its spread.
    players = list(range(1, 10))
    rounds = planned_schedule(players, 3)
    assert len(rounds) == 4
    assert all(sorted(u for t in each.tables for u in t if u is not None) == players for each in rounds)
    assert imbalance(players, rounds) == (1, 1), "here the greedy schedule is perfect: every pair meets once"
    # 8 players at tables of 4: rounds of two tables, 3 rounds (7 others / 3 per game): nobody meets anyone 3 times.
    eight = planned_schedule(list(range(1, 9)), 4)
    assert len(eight) == 3 and imbalance(list(range(1, 9)), eight) == (0, 2)


def test_swiss_out_of_search_budget_still_seats_everyone_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.app.league_rules

    monkeypatch.setattr(bot.app.league_rules, "SEARCH_LIMIT", 1)
    players = [Entrant(user, order=user) for user in range(1, 9)]
    history = [Played(1, (1, 2, 3, 4), (0,) * 4, (1, 2, 3, 4), table_size=4)]
    chosen = swiss_round(players, history, size=4)
    assert sorted(u for table in chosen.tables for u in table if u is not None) == list(range(1, 9))
    # 1–4 have all met, and two tables of four hold them two and two at best: 2 repeats is the fewest there is
    assert chosen.tables[0][0] == 1 and chosen.repeats == 2
