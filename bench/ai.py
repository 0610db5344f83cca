"""Computer players' strength and speed: win rates with 95% (Wilson) intervals and move times per level.

    python -m bench ai                                  # every row, 200 games each, hard at 1 s per move
    python -m bench ai --games 20 --iterations 200 --jobs 2
    python -m bench ai --suite duel --variant azul      # hard vs greedy, two players, Azul only
    python -m bench ai --speed                          # the hard player's search iterations per second

Rows (``--suite``): ``duel`` is hard vs greedy with two players in every variant; ``ladder`` is hard vs medium,
medium vs easy and easy vs random with two players; ``table`` is one hard seat against greedy seats with three and
four players. A row's win rate is the first agent's share of wins (a shared first place counts as a share). Seats
rotate from game to game (the first agent sits in every seat equally often) and game ``i`` of every row is dealt
from seed ``i``, so rows are repeatable; with ``--iterations`` the moves are too, only times depend on the machine.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine import get_variant, variant_names
from engine.agents import HardAgent, make_agent

SUITES = ("duel", "ladder", "table")
LADDER = (("hard", "medium"), ("medium", "easy"), ("easy", "random"))


@dataclass(frozen=True)
class Row:
    suite: str
    variant: str
    players: int
    agent: str  # the seat whose wins are counted
    opponent: str  # every other seat

    @property
    def label(self) -> str:
        return f"{self.agent} vs {self.opponent}"


@dataclass(frozen=True)
class Game:
    row: int
    index: int


def rows(suites: list[str], variants: list[str]) -> list[Row]:
    found: list[Row] = []
    for suite in suites:
        for name in variants:
            if suite == "duel":
                found.append(Row(suite, name, 2, "hard", "greedy"))
            elif suite == "ladder":
                found.extend(Row(suite, name, 2, strong, weak) for strong, weak in LADDER)
            else:
                variant = get_variant(name)
                found.extend(
                    Row(suite, name, players, "hard", "greedy")
                    for players in (3, 4)
                    if variant.min_players <= players <= variant.max_players
                )
    return found


def play(row: Row, index: int, budget: dict[str, Any]) -> tuple[float, dict[str, list[float]]]:
    """One game of a row: the counted agent's share of the win and every level's move times."""
    variant = get_variant(row.variant)
    focus = index % row.players
    names = [row.agent if seat == focus else row.opponent for seat in range(row.players)]
    agents = [make_agent(name, index * 8 + seat, **budget) for seat, name in enumerate(names)]
    times: dict[str, list[float]] = {row.agent: [], row.opponent: []}
    state = variant.new_game(row.players, index)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        start = time.perf_counter()
        move = agents[seat].choose(variant, state, seat)
        times[names[seat]].append(time.perf_counter() - start)
        state = variant.apply_unchecked(state, seat, move)
    winners = variant.standings(state)[0]
    return (1.0 / len(winners) if focus in winners else 0.0), times


def _play_job(job: tuple[Row, Game, dict[str, Any]]) -> tuple[Game, float, dict[str, list[float]]]:
    row, game, budget = job
    share, times = play(row, game.index, budget)
    return game, share, times


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (ties count as half successes)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def results(jobs: list[tuple[Row, Game, dict[str, Any]]], workers: int) -> Iterator[tuple[Game, float, Any]]:
    if workers <= 1:
        yield from map(_play_job, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_job, jobs)


SPEED_PLIES = (4, 12, 24)
"""Positions the speed figures search from: greedy games stopped after this many moves (opening to mid-game)."""


def search_speed(name: str, players: int, iterations: int) -> tuple[int, float]:
    """Hard's search from a few fixed positions of ``name``: iterations done and the CPU seconds they took (CPU
    time, not wall time: other work on the machine slows this process down without changing what it did)."""
    variant = get_variant(name)
    greedy = make_agent("greedy", 1)
    done, spent = 0, 0.0
    for plies in SPEED_PLIES:
        state = variant.new_game(players, plies)
        for _ in range(plies):
            if variant.is_over(state):
                break
            seat = min(variant.to_act(state))
            state = variant.apply_unchecked(state, seat, greedy.choose(variant, state, seat))
        if variant.is_over(state):
            continue
        seat = min(variant.to_act(state))
        hard = HardAgent(plies, iterations=iterations)
        start = time.process_time()
        hard.choose(variant, state, seat)
        spent += time.process_time() - start
        done += hard.last_iterations
    return done, spent


def speed(variants: list[str], iterations: int) -> int:
    print(f"hard's search, {iterations} iterations from each of {len(SPEED_PLIES)} positions (CPU time)")
    print(f"{'variant':<24}{'players':>8}{'iterations/s':>14}")
    for name in variants:
        for players in (2, 4):
            done, spent = search_speed(name, players, iterations)
            print(f"{name:<24}{players:>8}{done / spent if spent else 0.0:>14.0f}", flush=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ai", description=__doc__.split("\n")[0])
    parser.add_argument("--suite", action="append", choices=SUITES, help="rows to run (repeatable); default: all")
    parser.add_argument("--variant", action="append", help="a variant name (repeatable); default: all")
    parser.add_argument("--games", type=int, default=200, help="games per row")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="hard's time per move (default 1)")
    budget.add_argument("--iterations", type=int, help="hard's iterations per move (repeatable moves)")
    parser.add_argument("--jobs", "--workers", dest="workers", type=int, default=2, help="processes playing at once")
    parser.add_argument("--speed", action="store_true", help="print hard's iterations per second per variant instead")
    args = parser.parse_args(argv)
    if args.speed:
        return speed(args.variant or variant_names(), args.iterations or 200)
    chosen = rows(args.suite or list(SUITES), args.variant or variant_names())
    hard_budget = {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds or 1.0}
    print(f"hard budget: {hard_budget}; {args.games} games per row; {args.workers} workers", flush=True)
    jobs = [(row, Game(r, i), hard_budget) for r, row in enumerate(chosen) for i in range(args.games)]
    shares = [0.0] * len(chosen)
    played = [0] * len(chosen)
    times: dict[str, list[float]] = {}
    header = f"{'suite':<7}{'variant':<22}{'players':>8}  {'row':<18}{'games':>6}{'win rate':>10}  95% interval"
    print(header, flush=True)
    for game, share, game_times in results(jobs, args.workers):
        shares[game.row] += share
        played[game.row] += 1
        for name, values in game_times.items():
            times.setdefault(name, []).extend(values)
        if played[game.row] == args.games:
            row = chosen[game.row]
            low, high = wilson(shares[game.row], args.games)
            rate = shares[game.row] / args.games
            print(
                f"{row.suite:<7}{row.variant:<22}{row.players:>8}  {row.label:<18}{args.games:>6}"
                f"{rate:>10.1%}  {low:.1%}-{high:.1%}",
                flush=True,
            )
    print(f"\n{'level':<8}{'moves':>8}{'p50 ms':>10}{'p95 ms':>10}")
    for name in ("hard", "medium", "easy", "greedy", "random"):
        if name in times:
            values = times[name]
            p50, p95 = percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000
            print(f"{name:<8}{len(values):>8}{p50:>10.1f}{p95:>10.1f}")
    return 0
