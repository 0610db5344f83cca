"""The rules of a league, as pure functions of plain data: league points, standings with tie-breaks, Swiss pairings
and round-robin schedules. No store and no Discord: :mod:`bot.app.leagues` feeds them what the store holds.

- **Points** come from places at the table, as if every two players at it had played a match worth 2: a player
  gets 2 for everyone placed below them and 1 for everyone sharing their place. With 2 players that is win 2, draw
  1, loss 0; with 3 it is 4 / 2 / 0, with 4 it is 6 / 4 / 2 / 0. An average result is ``table size - 1``, and that is
  what a bye is worth. Computer seats take places (a person beaten by the computer loses those points) but collect
  no points of their own. Nor does a person who left the game (resigned, ran out of time, withdrew or was dropped):
  they are placed after everyone who stayed and earn nothing from it, whatever the computer scored in their seat,
  and its score does not count towards their total.
- **Standings** rank everyone still in the league before those who withdrew or were dropped; then
  by points, then Buchholz (Swiss only: the sum of the league points of everyone met; a bye meets
  nobody), then the total game score, then head-to-head (the points won in games against the others still tied),
  then sign-up order (so the order is always complete).
- **Swiss** pairs by points, then by rating (OpenSkill's conservative estimate), then by sign-up order, in the way of
  Monrad: the best player with the best one still free that they have not met, and so on. A small depth-first
  search backs up when the rest cannot be seated without a repeat; only when it finds no schedule without one are
  repeats allowed, as few as it finds within its budget (past that, a greedy schedule improved by swaps). With 3–4
  players per table the same search fills tables in order.
- **Round robin** with 2-player tables uses the circle method (one player fixed, the others turn), so every pair
  meets exactly once in ``n - 1`` rounds (``n`` with an odd count, one bye each). With 3–4 players per table no such
  schedule exists in general: each round is chosen greedily to seat together the pairs that have met least, and the
  schedule's imbalance (most meetings of a pair minus fewest) is reported.
- When the players do not divide into tables, the rest get a bye (the lowest-ranked who have had the fewest) or play
  with computer seats, one per table from the last table up (the organiser's choice).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

BYE = "bye"
COMPUTER = "computer"
LEFTOVERS = (BYE, COMPUTER)
SEARCH_LIMIT = 20_000
"""Candidate tables the Swiss search tries in one round before it settles for the greedy schedule (a few hundred
milliseconds at most: see ``python -m bench leagues``)."""
LEVEL_LIMIT = 2_000
"""Of those, how many one number of allowed repeats may use (so fewer repeats are still tried when none is out of
reach)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player who may be paired: their user id, rating (higher is stronger) and place in the sign-up order."""

    user_id: int
    rating: float = 0.0
    order: int = 0


@dataclass(frozen=True, slots=True)
class Played:
    """One table of a round as it ended: each seat's user id (None: a computer), score and place (1 is first, ties
    share a place). A bye is a table of one with ``bye`` set."""

    round: int
    players: tuple[int | None, ...]
    scores: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    bye: bool = False
    table_size: int = 2
    left: tuple[bool, ...] = ()
    """Per seat: whether its person left the game (ranked last, earning no points and no score)."""

    def has_left(self, index: int) -> bool:
        return bool(self.left) and self.left[index]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings."""

    rank: int
    user_id: int
    points: float
    buchholz: float
    score: int
    games: int
    wins: int
    byes: int
    head_to_head: float = 0.0


@dataclass(frozen=True, slots=True)
class Round:
    """A round's tables (user ids; None is a computer seat) and who has a bye."""

    tables: tuple[tuple[int | None, ...], ...]
    byes: tuple[int, ...] = ()
    repeats: int = 0  # pairs seated together again (Swiss only falls back to that when nothing else exists)


# --- points and standings --------------------------------------------------------------------------------------------
def points_of(played: Played) -> dict[int, float]:
    """Each person's league points from one table (a bye: an average result)."""
    if played.bye:
        return {user: float(played.table_size - 1) for user in played.players if user is not None}
    points: dict[int, float] = {}
    for index, user in enumerate(played.players):
        if user is None:
            continue
        if played.has_left(index):
            points[user] = 0.0
            continue
        mine = played.places[index]
        others = [place for n, place in enumerate(played.places) if n != index]
        points[user] = 2.0 * sum(place > mine for place in others) + sum(place == mine for place in others)
    return points


def _pair_points(played: Played, user: int, rivals: set[int]) -> float:
    """What ``user`` won in ``played`` against the players in ``rivals`` only (2 per one placed below, 1 per tie)."""
    if played.bye or user not in played.players or played.has_left(played.players.index(user)):
        return 0.0
    mine = played.places[played.players.index(user)]
    won = 0.0
    for index, other in enumerate(played.players):
        if other is not None and other != user and other in rivals:
            won += 2.0 if played.places[index] > mine else 1.0 if played.places[index] == mine else 0.0
    return won


def standings(
    entrants: Sequence[Entrant], history: Iterable[Played], *, swiss: bool, out: Collection[int] = ()
) -> list[Line]:
    """The standings after ``history``, ranked by points, Buchholz (Swiss), total score, head-to-head, sign-up;
    those in ``out`` (withdrew, dropped) after everyone else."""
    games = list(history)
    points: defaultdict[int, float] = defaultdict(float)
    scores: Counter[int] = Counter()
    count: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    met: dict[int, list[int]] = {entrant.user_id: [] for entrant in entrants}
    for played in games:
        for user, won in points_of(played).items():
            points[user] += won
        if played.bye:
            byes.update(user for user in played.players if user is not None)
            continue
        for index, seated in enumerate(played.players):
            if seated is None:
                continue
            user = seated
            scores[user] += 0 if played.has_left(index) else played.scores[index]
            count[user] += 1
            wins[user] += played.places[index] == 1 and played.places.count(1) == 1 and not played.has_left(index)
            met.setdefault(user, []).extend(other for other in played.players if other is not None and other != user)
    buchholz = {user: float(sum(points[other] for other in others)) if swiss else 0.0 for user, others in met.items()}
    order = {entrant.user_id: entrant.order for entrant in entrants}

    gone = set(out)

    def key(user: int) -> tuple[bool, float, float, int]:
        return (user in gone, -points[user], -buchholz[user], -scores[user])

    ranked = sorted(order, key=lambda user: (key(user), order[user]))
    head: dict[int, float] = {}
    for _, group in itertools.groupby(ranked, key=key):
        tied = list(group)
        for user in tied:
            head[user] = sum(_pair_points(played, user, set(tied) - {user}) for played in games)
    ranked.sort(key=lambda user: (key(user), -head[user], order[user]))
    lines: list[Line] = []
    for index, user in enumerate(ranked):
        previous = ranked[index - 1] if index else None
        shared = previous is not None and (key(previous), head[previous]) == (key(user), head[user])
        rank = lines[-1].rank if shared else index + 1
        lines.append(
            Line(
                rank, user, points[user], buchholz[user], scores[user], count[user], wins[user], byes[user], head[user]
            )
        )
    return lines


# --- who gets a bye or a computer seat -------------------------------------------------------------------------------
def _tables_for(players: int, size: int, leftover: str) -> tuple[list[int], int]:
    """How many people sit at each table, and how many byes: with byes every table is full; with computers the
    tables are as many as needed and each short one is filled by computers (one per table, from the last up)."""
    if leftover == BYE or players % size == 0:
        return [size] * (players // size), players % size
    tables = -(-players // size)
    people = [size] * tables
    for index in range(tables * size - players):
        people[-1 - index % tables] -= 1
    return people, 0


def _bye_takers(ranked: Sequence[int], count: int, past_byes: Counter[int]) -> list[int]:
    """The ``count`` players to sit out: the fewest byes so far, then the lowest ranked."""
    if count == 0:
        return []
    by_need = sorted(range(len(ranked)), key=lambda index: (past_byes[ranked[index]], -index))
    return [ranked[index] for index in sorted(by_need[:count])]


def _with_computers(tables: list[list[int]], size: int) -> tuple[tuple[int | None, ...], ...]:
    return tuple(tuple([*table, *([None] * (size - len(table)))]) for table in tables)


# --- Swiss ---------------------------------------------------------------------------------------------------------
def meetings(history: Iterable[Played]) -> Counter[frozenset[int]]:
    """How often each pair of people sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for played in history:
        if played.bye:
            continue
        people = [user for user in played.players if user is not None]
        met.update(frozenset(pair) for pair in itertools.combinations(people, 2))
    return met


def swiss_order(entrants: Sequence[Entrant], history: Sequence[Played]) -> list[int]:
    """Players in pairing order: league points, then rating, then sign-up order."""
    points: defaultdict[int, float] = defaultdict(float)
    for played in history:
        for user, won in points_of(played).items():
            points[user] += won
    return [
        entrant.user_id
        for entrant in sorted(entrants, key=lambda entrant: (-points[entrant.user_id], -entrant.rating, entrant.order))
    ]


@dataclass
class _Search:
    sizes: list[int]
    met: Counter[frozenset[int]]
    allowed_repeats: int
    budget: int
    """Candidate tables it may try before giving up (shared by the searches of one round)."""
    found: list[list[int]] | None = None
    chosen: list[list[int]] = field(default_factory=list)

    def run(self, free: list[int], repeats: int = 0) -> bool:
        """Fill the tables in order from ``free`` (in pairing order): the best free player first, with the best
        others that keep the repeats within budget; backtrack when the rest cannot be seated."""
        if not free:
            self.found = [list(table) for table in self.chosen]
            return True
        size = self.sizes[len(self.chosen)]
        first, rest = free[0], free[1:]
        for others in itertools.combinations(rest, size - 1):
            self.budget -= 1
            if self.budget < 0:
                return False
            table = [first, *others]
            added = sum(self.met[frozenset(pair)] > 0 for pair in itertools.combinations(table, 2))
            if repeats + added > self.allowed_repeats:
                continue
            self.chosen.append(table)
            if self.run([user for user in rest if user not in others], repeats + added):
                return True
            self.chosen.pop()
        return False


def _greedy(seated: list[int], sizes: list[int], met: Counter[frozenset[int]]) -> list[list[int]]:
    """Tables filled in pairing order, each next seat going to whoever adds the fewest repeats."""
    free = list(seated)
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(
                free, key=lambda user: (sum(met[frozenset((user, other))] > 0 for other in table), free.index(user))
            )
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def swiss_round(entrants: Sequence[Entrant], history: Sequence[Played], *, size: int = 2, leftover: str = BYE) -> Round:
    """The next Swiss round for ``entrants`` (those still in) given every table played so far: the search without
    repeats, then allowing one more at a time, within :data:`SEARCH_LIMIT` candidate tables in all; past that, the
    greedy schedule (so a round of a big league at big tables is paired in bounded time)."""
    ranked = swiss_order(entrants, history)
    people, bye_count = _tables_for(len(ranked), size, leftover)
    past_byes = Counter(user for played in history if played.bye for user in played.players if user is not None)
    byes = _bye_takers(ranked, bye_count, past_byes)
    seated = [user for user in ranked if user not in byes]
    met = meetings(history)
    budget = SEARCH_LIMIT
    found: list[list[int]] | None = None
    for allowed in range(sum(range(size)) * len(people) + 1):
        search = _Search(people, met, allowed, min(budget, LEVEL_LIMIT))
        if search.run(seated):
            found = search.found
            break
        budget -= min(budget, LEVEL_LIMIT) - max(search.budget, 0)
        if budget <= 0:
            break
    if found is None:  # out of budget: the greedy schedule, then swaps while they seat fewer pairs again
        found = _greedy(seated, people, met)
        _improve(found, met, _repeats)
    tables = found
    return Round(_with_computers(tables, size), tuple(byes), _repeats(tables, met))


def _repeats(tables: list[list[int]], met: Counter[frozenset[int]]) -> int:
    return sum(met[frozenset(pair)] > 0 for table in tables for pair in itertools.combinations(table, 2))


# --- round robin ---------------------------------------------------------------------------------------------------
def round_robin_rounds(players: int, size: int) -> int:
    """How many rounds a round robin has: every pair once with 2-player tables (``n - 1``, or ``n`` with an odd
    count); with bigger tables, enough rounds for each player to meet everyone about once."""
    if size == 2:
        return players if players % 2 else players - 1
    return max(1, -(-(players - 1) // (size - 1)))


def circle_round(players: Sequence[int], number: int) -> Round:
    """Round ``number`` (1-based) of the circle method for ``players`` (sign-up order): the first stays, the others
    turn by one each round; with an odd count an empty place joins, and whoever faces it has the bye."""
    ring: list[int | None] = [*players, *([None] if len(players) % 2 else [])]
    count = len(ring)
    turned = [ring[0], *[ring[1 + (index - (number - 1)) % (count - 1)] for index in range(count - 1)]]
    tables: list[tuple[int | None, ...]] = []
    byes: list[int] = []
    for index in range(count // 2):
        one, two = turned[index], turned[count - 1 - index]
        if one is None or two is None:
            byes.extend(user for user in (one, two) if user is not None)
        else:
            tables.append((one, two))
    return Round(tuple(tables), tuple(byes))


def round_robin_round(
    players: Sequence[int],
    number: int,
    history: Sequence[Played],
    *,
    size: int = 2,
    leftover: str = BYE,
    still_in: Iterable[int] | None = None,
) -> Round:
    """Round ``number`` of a round robin of ``players`` (everyone who started, in sign-up order). A player who has
    left (not in ``still_in``) keeps their place in the schedule; whoever would have met them has a bye instead
    (2-player tables). With a bye and ``leftover`` computer, the player plays a computer seat instead."""
    staying = set(players if still_in is None else still_in)
    if size == 2:
        planned = circle_round(players, number)
        tables: list[tuple[int | None, ...]] = []
        byes = [user for user in planned.byes if user in staying]
        for table in planned.tables:
            here = [user for user in table if user in staying]
            if len(here) == 2:
                tables.append(table)
            else:
                byes.extend(user for user in here if user is not None)
        if leftover == COMPUTER:
            tables += [(user, None) for user in byes]
            byes = []
        return Round(tuple(tables), tuple(byes))
    return balanced_round([user for user in players if user in staying], history, size=size, leftover=leftover)


def balanced_round(players: Sequence[int], history: Sequence[Played], *, size: int, leftover: str = BYE) -> Round:
    """A round of 3–4-player tables that seats together the pairs that have met least: byes to those with the
    fewest, then tables filled greedily (each next player the one who has met the table least), then improved by
    swapping players between tables while that lowers the sum of squared meeting counts."""
    people, bye_count = _tables_for(len(players), size, leftover)
    past_byes = Counter(user for played in history if played.bye for user in played.players if user is not None)
    byes = _bye_takers(list(reversed(players)), bye_count, past_byes)
    free = [user for user in players if user not in byes]
    met = meetings(history)
    tables: list[list[int]] = []
    for seats in people:
        table = [free.pop(0)]
        while len(table) < seats:
            best = min(free, key=lambda user: (_cost([[*table, user]], met), free.index(user)))
            free.remove(best)
            table.append(best)
        tables.append(table)
    _improve(tables, met)
    return Round(_with_computers(tables, size), tuple(byes))


def _cost(tables: list[list[int]], met: Counter[frozenset[int]]) -> int:
    return sum((met[frozenset(pair)] + 1) ** 2 for table in tables for pair in itertools.combinations(table, 2))


Cost = Callable[[list[list[int]], Counter[frozenset[int]]], int]


def _improve(tables: list[list[int]], met: Counter[frozenset[int]], cost: Cost = _cost) -> None:
    """Swap two players of different tables while a swap lowers the cost (a few passes; deterministic)."""
    for _ in range(10):
        better = False
        for one, two in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[one])), range(len(tables[two]))):
                before = cost([tables[one], tables[two]], met)
                tables[one][i], tables[two][j] = tables[two][j], tables[one][i]
                if cost([tables[one], tables[two]], met) < before:
                    better = True
                else:
                    tables[one][i], tables[two][j] = tables[two][j], tables[one][i]
        if not better:
            return


def imbalance(players: Sequence[int], rounds: Sequence[Round]) -> tuple[int, int]:
    """The fewest and the most times any two of ``players`` sit at one table over ``rounds``."""
    met: Counter[frozenset[int]] = Counter()
    for each in rounds:
        for table in each.tables:
            people = [user for user in table if user is not None]
            met.update(frozenset(pair) for pair in itertools.combinations(people, 2))
    counts = [met[frozenset(pair)] for pair in itertools.combinations(players, 2)]
    return (min(counts), max(counts)) if counts else (0, 0)


def planned_schedule(players: Sequence[int], size: int, leftover: str = BYE) -> list[Round]:
    """Every round of a round robin as it will be played if nobody leaves (to state its imbalance up front)."""
    rounds: list[Round] = []
    history: list[Played] = []
    for number in range(1, round_robin_rounds(len(players), size) + 1):
        planned = round_robin_round(players, number, history, size=size, leftover=leftover)
        rounds.append(planned)
        for table in planned.tables:
            history.append(Played(number, table, (0,) * len(table), (1,) * len(table), table_size=size))
        history += [Played(number, (user,), bye=True, table_size=size) for user in planned.byes]
    return rounds


__all__ = [
    "BYE",
    "COMPUTER",
    "LEFTOVERS",
    "Entrant",
    "Line",
    "Played",
    "Round",
    "balanced_round",
    "circle_round",
    "imbalance",
    "meetings",
    "planned_schedule",
    "points_of",
    "round_robin_round",
    "round_robin_rounds",
    "standings",
    "swiss_order",
    "swiss_round",
]
