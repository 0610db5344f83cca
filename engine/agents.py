"""Computer players for every game of the family, built only on the generic Variant API.

- ``random`` (:class:`RandomAgent`) picks uniformly among ``legal_moves``.
- ``greedy`` (:class:`GreedyAgent`) picks the move whose result the variant's ``heuristic`` rates best for the mover
  (best immediate points, fewest points lost), breaking ties at random.
- ``easy`` (:class:`EasyAgent`) plays greedily but, like a person, now and then settles for a plausible
  second-best move (never one that loses much against the best).
- ``medium`` (:class:`MediumAgent`) looks one reply ahead: for its best few greedy candidates it lets the next
  player answer greedily and keeps the move that leaves it furthest ahead of the best opponent.
- ``hard`` (:class:`HardAgent`) is a Monte Carlo tree search (single-observer information-set MCTS): every iteration
  draws one possible world of what nobody can see (``Variant.redeterminize``), walks a tree of moves with UCB (below
  the root, the moves ``Variant.playout_moves`` keeps), widens each node progressively in the heuristic's order, plays
  a short greedy-ish rollout to the end of the round (each mover takes the best of a dozen sampled moves) and values
  the result for every seat by ``Variant.evaluation`` (the heuristic plus end-of-game bonuses in reach), as the lead
  over the best opponent.

``random`` and ``greedy`` draw from their own seeded :class:`~engine.core.Rng`, never from the game's, so an agent
does not change the game's deals and the same agent seed plays the same game again. The other levels derive their
generator from their seed *and the position*, so the same seed and iteration budget always choose the same move in
the same position, whatever was played before (a restarted computer turn plays the move it would have played).

A budget is ``seconds`` or ``iterations`` (fixed work: deterministic, for tests and benchmarks); only ``hard``
searches, the other levels do a fixed amount of work. ``seconds`` (about one by default) counts the CPU time of the
searching process, so a busy host delays a move rather than weakening it; a search that cannot get that much CPU
within :data:`WALL_CAP` times the budget in wall-clock time plays the best move found so far, so the wait a person
sees stays bounded.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine.core import JSON, Move, Rng, Variant

S = TypeVar("S")
"""A game's state type: an agent plays any game, through its variant's methods only."""

AGENT_NAMES = ("random", "greedy", "easy", "medium", "hard")
LEVELS = ("easy", "medium", "hard")
"""The levels people choose from (weakest first); ``random`` and ``greedy`` are yardsticks."""

DEFAULT_SECONDS = 1.0
WALL_CAP = 10.0
"""How many times its CPU budget a search may take in wall-clock time before it plays the best move found so far."""
SCORE_SCALE = 10.0
"""Points of lead that make a position look clearly (73%) won: the slope of the search's value of a lead."""
PRIOR_SCALE = 2.0
"""Points a move looks worse now than the best one that halve (1/e) the search's initial trust in it."""


class Agent(Protocol):
    name: str

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move: ...


def _legal(variant: Variant[S], state: S, seat: int) -> list[Move]:
    moves = variant.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    return moves


def _position_rng(seed: int, variant: Variant[S], state: S, seat: int) -> Rng:
    """A generator fixed by the agent's seed and the position (stable across processes, unlike ``hash``)."""
    text = json.dumps([seat, variant.to_json(state)], sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return Rng(seed ^ int.from_bytes(digest, "big"))


def _mover(variant: Variant[S], state: S) -> int:
    """Whose move the search plays next (simultaneous choices are taken in seat order)."""
    return min(variant.to_act(state))


def _gains(variant: Variant[S], state: S, seat: int, moves: list[Move]) -> list[float]:
    """The heuristic of the position after each move, for the mover."""
    return [variant.heuristic(variant.apply_unchecked(state, seat, move), seat) for move in moves]


def _sample(moves: list[Move], limit: int, rng: Rng) -> list[Move]:
    """At most ``limit`` of ``moves``, a seeded random choice when there are more (some games offer thousands of
    moves that differ only in what is discarded: weighing every one costs more than it tells)."""
    if len(moves) <= limit:
        return moves
    picked = list(range(len(moves)))
    for i in range(limit):
        j = i + rng.below(len(picked) - i)
        picked[i], picked[j] = picked[j], picked[i]
    return [moves[i] for i in sorted(picked[:limit])]


def _values(variant: Variant[S], state: S) -> list[float]:
    """How good ``state`` is for every seat, in [0, 1]: a finished game's share of the win (with a little of the
    margin), otherwise a logistic of the lead in ``Variant.evaluation`` over the best opponent."""
    players = len(variant.scores(state))
    if variant.is_over(state):
        scores = variant.scores(state)
        winners = variant.standings(state)[0]
        return [
            0.9 * (1.0 / len(winners) if seat in winners else 0.0) + 0.1 * _squash(_lead(scores, seat))
            for seat in range(players)
        ]
    estimates = [variant.evaluation(state, seat) for seat in range(players)]
    return [_squash(_lead(estimates, seat)) for seat in range(players)]


def _lead(values: list[float] | list[int], seat: int) -> float:
    return float(values[seat] - max(value for other, value in enumerate(values) if other != seat))


def _squash(lead: float) -> float:
    return 1.0 / (1.0 + math.exp(-lead / SCORE_SCALE))


# --- yardsticks -------------------------------------------------------------------------------------------------
class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move:
        moves = _legal(variant, state, seat)
        return moves[self.rng.below(len(moves))]


class GreedyAgent(RandomAgent):
    name = "greedy"

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move:
        moves = _legal(variant, state, seat)
        gains = _gains(variant, state, seat, moves)
        best_value = max(gains)
        best = [move for move, gain in zip(moves, gains, strict=True) if gain == best_value]
        return best[self.rng.below(len(best))]


class Budget:
    """A search's time: ``seconds`` of CPU time (``cpu_clock``), but never more than :data:`WALL_CAP` times that in
    wall-clock time (``wall_clock``). The clocks are injectable so tests need not wait."""

    def __init__(
        self,
        seconds: float,
        cpu_clock: Callable[[], float] = time.process_time,
        wall_clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seconds, self.cpu_clock, self.wall_clock = seconds, cpu_clock, wall_clock
        self.cpu_start, self.wall_start = cpu_clock(), wall_clock()
        self.capped = False
        """True once the wall-clock cap, not the CPU budget, ended the search."""

    def cpu(self) -> float:
        return self.cpu_clock() - self.cpu_start

    def wall(self) -> float:
        return self.wall_clock() - self.wall_start

    def spent(self) -> bool:
        if self.cpu() >= self.seconds:
            return True
        self.capped = self.wall() >= WALL_CAP * self.seconds
        return self.capped


# --- levels -----------------------------------------------------------------------------------------------------
class EasyAgent:
    """Greedy, but with probability ``mistake_rate`` it takes one of the next best moves that lose at most
    ``slack`` points against the best: the slips of a casual player, never a blunder."""

    name = "easy"

    def __init__(self, seed: int = 0, *, mistake_rate: float = 0.4, slack: float = 4.0, consider: int = 200) -> None:
        self.seed, self.mistake_rate, self.slack, self.consider = seed, mistake_rate, slack, consider

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move:
        rng = _position_rng(self.seed, variant, state, seat)
        moves = _sample(_legal(variant, state, seat), self.consider, rng)
        gains = _gains(variant, state, seat, moves)
        order = sorted(range(len(moves)), key=lambda index: -gains[index])
        best = gains[order[0]]
        if rng.below(1000) < self.mistake_rate * 1000:
            plausible = [index for index in order if best - self.slack <= gains[index] < best][:3]
            if plausible:
                return moves[plausible[rng.below(len(plausible))]]
        top = [index for index in order if gains[index] == best]
        return moves[top[rng.below(len(top))]]


class MediumAgent:
    """One reply deep: the best ``candidates`` greedy moves, each answered by the next player's greedy reply, in
    one possible world of the hidden draws; keeps the move that leaves it furthest ahead of the best opponent."""

    name = "medium"

    def __init__(self, seed: int = 0, *, candidates: int = 6, consider: int = 300, replies: int = 60) -> None:
        self.seed, self.candidates, self.consider, self.replies = seed, candidates, consider, replies

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move:
        moves = _legal(variant, state, seat)
        if len(moves) == 1:
            return moves[0]
        rng = _position_rng(self.seed, variant, state, seat)
        moves = _sample(moves, self.consider, rng)
        world = variant.redeterminize(state, rng)
        gains = _gains(variant, world, seat, moves)
        order = sorted(range(len(moves)), key=lambda index: (-gains[index], rng.below(1 << 30)))
        best_index, best_value = order[0], float("-inf")
        for index in order[: self.candidates]:
            value = self._after_reply(variant, variant.apply_unchecked(world, seat, moves[index]), seat, rng)
            if value > best_value:
                best_index, best_value = index, value
        return moves[best_index]

    def _after_reply(self, variant: Variant[S], state: S, seat: int, rng: Rng) -> float:
        if not variant.is_over(state):
            replier = _mover(variant, state)
            if replier != seat:
                replies = _sample(variant.legal_moves(state, replier), self.replies, rng)
                if replies:
                    gains = _gains(variant, state, replier, replies)
                    state = variant.apply_unchecked(state, replier, replies[gains.index(max(gains))])
        return _values(variant, state)[seat]


@dataclass(slots=True)
class _Edge:
    """A move out of a node: its visits, its summed value for the seat that makes it, and how often it was
    available (information-set MCTS selects by availability, as worlds differ in what can be played)."""

    visits: int = 0
    total: float = 0.0
    available: int = 0
    prior: float = 0.0  # 1 for the heuristic's favourite, less for moves that look worse now
    child: _Node | None = None


@dataclass(slots=True)
class _Node:
    visits: int = 0
    ranked: list[Move] = field(default_factory=list)  # moves in the heuristic's order, as first seen
    priors: dict[Move, float] = field(default_factory=dict)
    seen: set[Move] = field(default_factory=set)
    edges: dict[Move, _Edge] = field(default_factory=dict)


class HardAgent:
    """Information-set Monte Carlo tree search over ``apply_unchecked``.

    ``seconds`` (CPU seconds, capped in wall-clock time: see :class:`Budget`) or ``iterations`` bound
    the work per move; ``exploration`` is the UCB constant; ``widening`` how many children a node opens per square
    root of its visits; ``consider`` how many moves the root keeps, the best by the heuristic (greedy's move always
    among them), and ``consider_inner`` how many a node below the root ranks (a seeded sample when there are more).
    Candidates at the root are compared with common random numbers: each one's n-th visit plays in the same world
    against the same random replies. ``rollout_plies`` caps the heuristic-guided rollout that ends at the round's
    end (``0``: evaluate the leaf at once) and ``rollout_moves`` caps the moves it may sample (counted as sampled,
    not as generated: a game that offers thousands of moves a turn gets as long a rollout as one that offers
    dozens); ``rollout_samples`` is how many random moves the rollout compares by heuristic at each step (a dozen:
    near-greedy rollouts won clearly more games than near-random ones at the same number of iterations, as
    opponents in these games mostly take the points on offer).
    ``cpu_clock`` and ``wall_clock`` measure a ``seconds`` budget (see :class:`Budget`).
    """

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        exploration: float = 0.5,
        widening: float = 1.0,
        bias: float = 0.5,
        consider: int = 400,
        consider_inner: int = 60,
        rollout_plies: int = 12,
        rollout_moves: int = 500,
        rollout_samples: int = 12,
        cpu_clock: Callable[[], float] = time.process_time,
        wall_clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.seed = seed
        self.iterations = iterations
        self.seconds = DEFAULT_SECONDS if seconds is None and iterations is None else seconds
        self.exploration, self.widening, self.bias = exploration, widening, bias
        self.consider, self.consider_inner = consider, consider_inner
        self.rollout_plies, self.rollout_moves, self.rollout_samples = rollout_plies, rollout_moves, rollout_samples
        self.cpu_clock, self.wall_clock = cpu_clock, wall_clock
        self.last_iterations = 0
        self.last_value = 0.5
        self.last_capped = False
        """Whether the last search was ended by the wall-clock cap rather than by its CPU budget."""

    def choose(self, variant: Variant[S], state: S, seat: int) -> Move:
        return self.search(variant, state, seat)[0]

    def search(self, variant: Variant[S], state: S, seat: int) -> tuple[Move, float]:
        """The chosen move and its estimated value for ``seat`` (0 = sure loss, 1 = sure win)."""
        moves = _legal(variant, state, seat)
        if len(moves) == 1:
            self.last_iterations, self.last_value, self.last_capped = 0, 0.5, False
            return moves[0], 0.5
        base = _position_rng(self.seed, variant, state, seat).next64()
        root = _Node()
        budget = None if self.seconds is None else Budget(self.seconds, self.cpu_clock, self.wall_clock)
        self._rank_root(variant, state, seat, root, moves)
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if budget is not None and done and budget.spent():
                break
            move, edge, fresh = self._select(variant, state, seat, root, moves, root, Rng(base))
            # Common random numbers: a candidate's n-th visit sees the n-th world (the hidden draws) and the n-th
            # random stream of replies and rollouts, the same for every candidate, so candidates are compared
            # against the same replies rather than each against its own luck.
            rng = Rng(base ^ ((edge.visits + 1) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF))
            world = variant.redeterminize(state, rng)
            self._iterate(variant, world, seat, root, rng, (move, edge, fresh))
            done += 1
        legal = set(moves)
        edges = [(move, edge) for move, edge in root.edges.items() if move in legal and edge.visits]
        move, edge = max(edges, key=lambda pair: (pair[1].visits, pair[1].total / pair[1].visits))
        self.last_iterations, self.last_value = done, edge.total / edge.visits
        self.last_capped = budget is not None and budget.capped
        return move, self.last_value

    def _rank_root(self, variant: Variant[S], state: S, seat: int, root: _Node, moves: list[Move]) -> None:
        """The root's candidates: the ``consider`` moves the heuristic rates best for ``seat`` (greedy's move
        always among them), from what ``seat`` sees."""
        gains = _gains(variant, state, seat, moves)
        order = sorted(range(len(moves)), key=lambda i: -gains[i])[: self.consider]
        root.ranked = [moves[i] for i in order]
        top = gains[order[0]]
        root.priors = {moves[i]: math.exp((gains[i] - top) / PRIOR_SCALE) for i in order}
        root.seen.update(moves)

    def _iterate(  # noqa: PLR0917 (one iteration needs all of these)
        self,
        variant: Variant[S],
        state: S,
        seat: int,
        root: _Node,
        rng: Rng,
        first: tuple[Move, _Edge, bool],
    ) -> None:
        """One descent from the root, whose move ``first`` is already selected, then a rollout and the backup."""
        path: list[tuple[_Node, _Edge, int]] = []
        node: _Node | None = root
        start_round = variant.round_number(state)
        mover = seat
        while node is not None and not variant.is_over(state):
            if node is root:
                move, edge, fresh = first
                mover = seat
            else:
                mover = _mover(variant, state)
                moves = variant.playout_moves(state, mover)
                if not moves:
                    break
                move, edge, fresh = self._select(variant, state, mover, node, moves, root, rng)
            path.append((node, edge, mover))
            state = variant.apply_unchecked(state, mover, move)
            if fresh:
                break
            if edge.child is None:
                edge.child = _Node()
            node = edge.child
        values = self._rollout(variant, state, start_round, rng)
        for visited, edge, who in path:
            visited.visits += 1
            edge.visits += 1
            edge.total += values[who]

    def _select(  # noqa: PLR0917 (one step of the descent needs all of these)
        self, variant: Variant[S], state: S, mover: int, node: _Node, moves: list[Move], root: _Node, rng: Rng
    ) -> tuple[Move, _Edge, bool]:
        """UCB over the node's open children that can be played in this world; a new child when widening allows."""
        if not node.ranked:
            ranked = _sample(moves, self.consider_inner, rng)  # the root is ranked once per search (_rank_root)
            gains = _gains(variant, state, mover, ranked)
            node.ranked = [ranked[i] for i in sorted(range(len(ranked)), key=lambda i: -gains[i])]
            top = max(gains)
            node.priors = {move: math.exp((gain - top) / PRIOR_SCALE) for move, gain in zip(ranked, gains, strict=True)}
            node.seen.update(ranked)
        legal = set(moves)
        if not legal <= node.seen:  # this world offers moves the first one did not: they come last
            node.ranked.extend(move for move in moves if move not in node.seen)
            node.seen.update(moves)
        width = max(1, math.ceil(self.widening * math.sqrt(node.visits + 1)))
        opened = 0
        best: tuple[float, Move, _Edge] | None = None
        for move in node.ranked:
            if opened >= width:
                break
            if move not in legal:
                continue
            opened += 1
            edge = node.edges.get(move)
            if edge is None:
                edge = node.edges[move] = _Edge(prior=node.priors.get(move, 0.0))
            edge.available += 1
            if edge.visits == 0:
                return move, edge, True
            score = (
                edge.total / edge.visits
                + self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
                + self.bias * edge.prior / (edge.visits + 1)
            )
            if best is None or score > best[0]:
                best = (score, move, edge)
        assert best is not None  # width >= 1 and every legal move is ranked
        return best[1], best[2], False

    def _rollout(self, variant: Variant[S], state: S, start_round: int, rng: Rng) -> list[float]:
        """Play on to the end of the round (at most ``rollout_plies`` plies and ``rollout_moves`` sampled moves),
        each mover taking the best of a few random moves by the heuristic, then value the position for every
        seat."""
        sampled = 0
        for _ in range(self.rollout_plies):
            if variant.is_over(state) or variant.round_number(state) != start_round:
                break
            mover = _mover(variant, state)
            moves = variant.playout_moves(state, mover)
            samples = min(self.rollout_samples, len(moves))
            sampled += samples
            if not moves or sampled > self.rollout_moves:
                break
            best_state: S | None = None
            best_value = float("-inf")
            for _ in range(samples):
                after = variant.apply_unchecked(state, mover, moves[rng.below(len(moves))])
                value = variant.heuristic(after, mover)
                if value > best_value:
                    best_state, best_value = after, value
            if best_state is None:  # every sample valued at -inf: nothing to prefer
                break
            state = best_state
        return _values(variant, state)


# --- hints --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Reason:
    """One fact about why a move is good; the bot translates ``hint.<key>`` with ``params``."""

    key: str
    params: Mapping[str, JSON] = field(default_factory=dict)


def explain(variant: Variant[S], state: S, seat: int, move: Move, value: float | None = None) -> list[Reason]:
    """A few facts about ``move`` for ``seat``, generic over the API, most telling first.

    - ``points_now`` {points}: how much the move changes the seat's heuristic (points scored now or sure to be
      scored when the round ends, minus penalties sure to come);
    - ``gives_up`` {points}: how much less that is than the greediest move (the move sets something up instead);
    - ``avoids_loss`` {moves, of, worst}: how many of the legal moves would lose points now, and the worst loss;
    - ``denies`` {points}: how much the move lowers the best immediate gain left to the next player;
    - ``win_chance`` {percent}: the search's estimate, when ``value`` is given.
    """
    moves = _legal(variant, state, seat)
    before = variant.heuristic(state, seat)
    gains = [after - before for after in _gains(variant, state, seat, moves)]
    after_state = variant.apply_unchecked(state, seat, move)
    gain = variant.heuristic(after_state, seat) - before
    reasons = [Reason("points_now", {"points": _points(gain)})]
    best = max(gains)
    if best - gain >= 0.5:
        reasons.append(Reason("gives_up", {"points": _points(best - gain)}))
    losing = [g for g in gains if g <= -0.5]
    if gain > -0.5 and losing:
        reasons.append(Reason("avoids_loss", {"moves": len(losing), "of": len(moves), "worst": _points(-min(losing))}))
    denied = _denied(variant, state, seat, after_state)
    if denied >= 0.5:
        reasons.append(Reason("denies", {"points": _points(denied)}))
    if value is not None:
        reasons.append(Reason("win_chance", {"percent": round(100 * value)}))
    return reasons


def _points(value: float) -> int | float:
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def _denied(variant: Variant[S], state: S, seat: int, after: S) -> float:
    """The next player's best immediate gain if they moved instead of ``seat``, minus after ``seat``'s move."""
    if variant.is_over(after):
        return 0.0
    nxt = _mover(variant, after)
    if nxt == seat:
        return 0.0
    now = variant.legal_moves(state, nxt) if nxt in variant.to_act(state) else []
    if not now:
        return 0.0
    then = variant.legal_moves(after, nxt)
    if not then:
        return 0.0
    best_now = max(_gains(variant, state, nxt, now)) - variant.heuristic(state, nxt)
    best_then = max(_gains(variant, after, nxt, then)) - variant.heuristic(after, nxt)
    return best_now - best_then


def hint(variant: Variant[S], state: S, seat: int, seed: int = 0, **options: Any) -> tuple[Move, list[Reason]]:
    """The move the hard player would make for ``seat`` and why."""
    agent = HardAgent(seed, **options)
    move, value = agent.search(variant, state, seat)
    return move, explain(variant, state, seat, move, value)


# --- by name ------------------------------------------------------------------------------------------------------
_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "easy": EasyAgent,
    "medium": MediumAgent,
    "hard": HardAgent,
}
_BUDGET = ("seconds", "iterations")


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """An agent by name (one of :data:`AGENT_NAMES`). Options: ``seconds`` or ``iterations`` (a per-move budget,
    used by ``hard`` and accepted by every level so callers can pass one budget to all) and the level's own
    tuning (see each class)."""
    if name not in _AGENTS:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(AGENT_NAMES)}")
    if name != "hard":
        options = {key: value for key, value in options.items() if key not in _BUDGET}
    try:
        agent: Agent = _AGENTS[name](seed, **options)
    except TypeError as error:
        raise ValueError(f"bad options for agent {name!r}: {error}") from None
    return agent
