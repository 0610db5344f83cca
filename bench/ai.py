"""Computer players' strength and speed: win rates with 95% (Wilson) intervals, targets, and move times per level.

    python -m bench ai                                  # every row, 200 games each, hard at 1 s per move
    python -m bench ai --games 20 --iterations 200 --jobs 2
    python -m bench ai --suite duel --variant azul      # hard vs greedy, two players, Azul only
    python -m bench ai --suite ladder --level easy      # easy vs random only (the rows that count easy's wins)
    python -m bench ai --iterations 150 --out ai.jsonl  # every game appended as it ends; run again to resume
    python -m bench ai --speed                          # the hard player's search iterations per CPU second
    python -m bench ai --speed --seconds 1              # what hard's default budget buys: iterations per move
    python -m bench ai --speed --seconds 5              # ... and what the 5 s thinking time buys
    python -m bench ai --queue                          # an easy move's wait while 25 games x 3 hard seats think
    python -m bench ai --speed --seconds 1 --busy 2     # what hard's budget buys with two other processes spinning
    python -m bench ai --suite duel --variant azul --busy 2 --out busy.jsonl  # the same row on a loaded host
    python -m bench ai --load 2                         # hard's moves quiet and with two processes spinning

Rows (``--suite``): ``duel`` is hard vs greedy with two players in every variant; ``ladder`` is hard vs medium,
medium vs easy and easy vs random with two players; ``table`` is one hard seat against greedy seats with three and
four players. A row's win rate is the first agent's share of wins (a shared first place counts as a share). Seats
rotate from game to game (the first agent sits in every seat equally often) and game ``i`` of every row is dealt
from seed ``i``, so rows are repeatable; with ``--iterations`` the moves are too, only times depend on the machine.

Each row is printed as soon as its last game ends. With ``--out FILE`` every finished game is appended to FILE (JSON
lines) and games already there for the same row and budget are not played again, so a stopped run loses at most
the games in progress; ``--report`` prints what the file holds (rows not yet complete too) without playing.

Move times are printed twice: CPU seconds of the playing process (``time.process_time``), whose p50/p95 do not grow
when other work shares the machine, and wall-clock seconds, what a person waits. Hard's budget in ``seconds`` counts
CPU time, so a loaded machine makes a move slower, not weaker; past ten times the budget in wall-clock time the
search plays the best move found so far (the "capped" column counts such moves). ``--busy N`` keeps N other
processes spinning meanwhile (at the benchmark's own priority): the same figures on a loaded host, where a CPU budget
should cost time (wall clock), not iterations or strength. Give such a run its own ``--out`` file. ``--load N``
asks that of hard's choices: from the same positions it searches twice on a quiet host and once with N processes
spinning, each run in a fresh process, and prints how often the loaded run (and the second quiet one) chose the
first quiet run's move: a search that loses nothing to the load differs from it no more than quiet runs differ.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine import get_variant, variant_names
from engine.agents import HardAgent, make_agent

SUITES = ("duel", "ladder", "table")
LADDER = (("hard", "medium"), ("medium", "easy"), ("easy", "random"))
LEVEL_ORDER = ("hard", "medium", "easy", "greedy", "random")


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

    @property
    def target(self) -> float:
        """The issues' targets for the win rate. Hard against greedy in a duel: 95% in Azul (kept from 97.5%),
        88% in Queen's Garden, 85% on its variant side, 90% on Azul's grey wall and 80% in Summer Pavilion. One
        hard seat at a table of greedy seats: 60% in 4-player Azul, 55% elsewhere. A ladder step must be clearly
        above the level below, read as its whole 95% interval above 50%."""
        if self.suite == "duel":
            return DUEL_TARGETS.get(self.variant, 0.8)
        if self.suite == "table":
            return 0.6 if (self.variant, self.players) == ("azul", 4) else 0.55
        return 0.5


DUEL_TARGETS = {"azul": 0.95, "azul-grey": 0.9, "queens-garden": 0.88, "queens-garden-variant": 0.85}


@dataclass
class Tally:
    """A row's finished games: the counted agent's summed share of wins, and per level its move times (CPU
    seconds) and, for ``hard``, the search iterations per move."""

    games: int = 0
    wins: float = 0.0
    leads: list[float] = field(default_factory=list)

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.wins += result.share
        if result.lead is not None:
            self.leads.append(result.lead)

    @property
    def lead(self) -> tuple[float, float] | None:
        """The mean final lead in points over the best other seat, and its 95% half-width: far more telling than
        the win rate in a few dozen games, since a near loss and a rout count alike as wins."""
        if len(self.leads) < 2:
            return None
        mean = sum(self.leads) / len(self.leads)
        spread = math.sqrt(sum((x - mean) ** 2 for x in self.leads) / (len(self.leads) - 1))
        return mean, 1.96 * spread / math.sqrt(len(self.leads))

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def met(self, row: Row) -> bool:
        low, _ = wilson(self.wins, self.games)
        return low > row.target if row.suite == "ladder" else self.rate >= row.target


@dataclass
class GameResult:
    share: float
    times: dict[str, list[float]]  # level -> CPU seconds per move
    iterations: list[int]  # hard's iterations per move where it searched (empty without a hard seat)
    walls: dict[str, list[float]] = field(default_factory=dict)  # level -> wall-clock seconds per move
    capped: int = 0  # hard's moves ended by the wall-clock cap rather than the CPU budget
    lead: float | None = None  # the counted agent's final score minus the best other seat's (older files: none)


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
    """One game of a row: the counted agent's share of the win and every level's move times (CPU seconds)."""
    result = play_game(row, index, budget)
    return result.share, result.times


def play_game(row: Row, index: int, budget: dict[str, Any]) -> GameResult:
    variant = get_variant(row.variant)
    focus = index % row.players
    names = [row.agent if seat == focus else row.opponent for seat in range(row.players)]
    agents = [make_agent(name, index * 8 + seat, **budget) for seat, name in enumerate(names)]
    times: dict[str, list[float]] = {row.agent: [], row.opponent: []}
    walls: dict[str, list[float]] = {row.agent: [], row.opponent: []}
    iterations: list[int] = []
    capped = 0
    state = variant.new_game(row.players, index)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        agent = agents[seat]
        start, start_wall = time.process_time(), time.perf_counter()
        move = agent.choose(variant, state, seat)
        times[names[seat]].append(time.process_time() - start)
        walls[names[seat]].append(time.perf_counter() - start_wall)
        if isinstance(agent, HardAgent) and agent.last_iterations:
            iterations.append(agent.last_iterations)
            capped += agent.last_capped
        state = variant.apply_unchecked(state, seat, move)
    winners = variant.standings(state)[0]
    scores = variant.scores(state)
    lead = scores[focus] - max(score for seat, score in enumerate(scores) if seat != focus)
    return GameResult((1.0 / len(winners) if focus in winners else 0.0), times, iterations, walls, capped, lead)


Job = tuple[Row, int, dict[str, Any]]


def _play_job(job: Job) -> tuple[Job, GameResult]:
    row, index, budget = job
    return job, play_game(row, index, budget)


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


def results(jobs: list[Job], workers: int) -> Iterator[tuple[Job, GameResult]]:
    if workers <= 1:
        yield from map(_play_job, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_job, jobs)


# --- the results file ---------------------------------------------------------------------------------------------
def _key(row: Row, index: int, budget: dict[str, Any]) -> str:
    return json.dumps([asdict(row), index, budget], sort_keys=True)


def load(path: Path | None) -> dict[str, GameResult]:
    """Games already played, by row, game and budget (a line cut short by a stop is skipped)."""
    found: dict[str, GameResult] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
            row = Row(**record["row"])
            found[_key(row, record["game"], record["budget"])] = GameResult(
                record["share"],
                record["times"],
                record["iterations"],
                record.get("walls", {}),
                record.get("capped", 0),
                record.get("lead"),
            )
        except (ValueError, KeyError, TypeError):
            continue
    return found


def append(path: Path, row: Row, index: int, budget: dict[str, Any], result: GameResult) -> None:
    record = {"row": asdict(row), "game": index, "budget": budget, **asdict(result)}
    with path.open("a") as file:
        file.write(json.dumps(record, separators=(",", ":")) + "\n")


# --- printing -----------------------------------------------------------------------------------------------------
HEADER = (
    f"{'suite':<7}{'variant':<22}{'players':>8}  {'row':<17}{'games':>6}{'win rate':>9}  {'95% interval':<13}"
    f"{'target':>7}  met  lead in points (95%)"
)


def row_line(row: Row, tally: Tally) -> str:
    low, high = wilson(tally.wins, tally.games)
    target = f"{'>' if row.suite == 'ladder' else '≥'}{row.target:.0%}"
    lead = "" if tally.lead is None else f"{tally.lead[0]:+.1f} ± {tally.lead[1]:.1f}"
    return (
        f"{row.suite:<7}{row.variant:<22}{row.players:>8}  {row.label:<17}{tally.games:>6}{tally.rate:>9.1%}  "
        f"{f'{low:.1%}-{high:.1%}':<13}{target:>7}  {'yes' if tally.met(row) else 'no ':<3}  {lead}"
    )


def print_times(games: list[tuple[Row, GameResult]]) -> None:
    """Move times (CPU and wall-clock ms) per level and variant, hard's search iterations per move and how many of
    its moves the wall-clock cap ended."""
    times: dict[tuple[str, str], list[float]] = {}
    walls: dict[tuple[str, str], list[float]] = {}
    iterations: dict[str, list[int]] = {}
    capped: dict[str, int] = {}
    for row, result in games:
        for level, values in result.times.items():
            times.setdefault((level, row.variant), []).extend(values)
        for level, values in result.walls.items():
            walls.setdefault((level, row.variant), []).extend(values)
        iterations.setdefault(row.variant, []).extend(result.iterations)
        capped[row.variant] = capped.get(row.variant, 0) + result.capped
    print("\nmove times, ms per move (CPU, then wall clock)")
    print(
        f"{'level':<8}{'variant':<22}{'moves':>8}{'CPU p50':>9}{'p95':>9}{'wall p50':>10}{'p95':>9}"
        "  hard iterations p50, capped"
    )
    order = {name: i for i, name in enumerate(LEVEL_ORDER)}
    for level, variant in sorted(times, key=lambda key: (order.get(key[0], 9), key[1])):
        values, wall = times[level, variant], walls.get((level, variant)) or [math.nan]
        p50, p95 = percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000
        w50, w95 = percentile(wall, 0.5) * 1000, percentile(wall, 0.95) * 1000
        searched = iterations.get(variant, []) if level == "hard" else []
        extra = f"  {percentile([float(n) for n in searched], 0.5):.0f}, {capped[variant]}" if searched else ""
        print(f"{level:<8}{variant:<22}{len(values):>8}{p50:>9.1f}{p95:>9.1f}{w50:>10.1f}{w95:>9.1f}{extra}")


# --- speed ----------------------------------------------------------------------------------------------------------
SPEED_PLIES = (4, 12, 24)
"""Positions the speed figures search from: greedy games stopped after this many moves (opening to mid-game)."""


def speed_positions(name: str, players: int, plies_list: tuple[int, ...] = SPEED_PLIES) -> list[tuple[int, Any]]:
    variant = get_variant(name)
    greedy = make_agent("greedy", 1)
    found = []
    for plies in plies_list:
        state = variant.new_game(players, plies)
        for _ in range(plies):
            if variant.is_over(state):
                break
            seat = min(variant.to_act(state))
            state = variant.apply_unchecked(state, seat, greedy.choose(variant, state, seat))
        if not variant.is_over(state):
            found.append((plies, state))
    return found


def search_speed(name: str, players: int, iterations: int) -> tuple[int, float]:
    """Hard's search from a few fixed positions of ``name``: iterations done and the CPU seconds they took (CPU
    time, not wall time: other work on the machine slows this process down without changing what it did)."""
    variant = get_variant(name)
    done, spent = 0, 0.0
    for plies, state in speed_positions(name, players):
        seat = min(variant.to_act(state))
        hard = HardAgent(plies, iterations=iterations)
        start = time.process_time()
        hard.choose(variant, state, seat)
        spent += time.process_time() - start
        done += hard.last_iterations
    return done, spent


def budget_bought(name: str, players: int, seconds: float) -> tuple[list[int], list[float], list[float]]:
    """Hard at a budget of ``seconds`` from the speed positions: iterations per move, CPU and wall seconds."""
    variant = get_variant(name)
    counts, cpu, wall = [], [], []
    for plies, state in speed_positions(name, players):
        seat = min(variant.to_act(state))
        hard = HardAgent(plies, seconds=seconds)
        start, start_wall = time.process_time(), time.perf_counter()
        hard.choose(variant, state, seat)
        cpu.append(time.process_time() - start)
        wall.append(time.perf_counter() - start_wall)
        counts.append(hard.last_iterations)
    return counts, cpu, wall


def speed(variants: list[str], iterations: int) -> int:
    print(f"hard's search, {iterations} iterations from each of {len(SPEED_PLIES)} positions (CPU time)")
    print(f"{'variant':<24}{'players':>8}{'iterations/s':>14}")
    for name in variants:
        for players in (2, 4):
            done, spent = search_speed(name, players, iterations)
            print(f"{name:<24}{players:>8}{done / spent if spent else 0.0:>14.0f}", flush=True)
    return 0


def speed_at(variants: list[str], seconds: float) -> int:
    print(f"hard at {seconds} CPU s per move from each of {len(SPEED_PLIES)} positions (wall clock capped at 10x)")
    print(f"{'variant':<24}{'players':>8}{'iterations':>11}{'CPU s':>7}{'wall s':>8}{'iterations/CPU s':>18}")
    for name in variants:
        for players in (2, 4):
            counts, cpu, wall = budget_bought(name, players, seconds)
            moves = len(counts)
            print(
                f"{name:<24}{players:>8}{sum(counts) / moves:>11.0f}{sum(cpu) / moves:>7.2f}{sum(wall) / moves:>8.2f}"
                f"{sum(counts) / sum(cpu):>18.0f}",
                flush=True,
            )
    return 0


# --- load ------------------------------------------------------------------------------------------------------------
LOAD_PLIES = tuple(range(2, 62, 2))
"""Positions the load figures search from: up to 30 per variant, opening to late game."""


@dataclass
class Choices:
    """Hard's moves from the load positions, with the iterations, CPU and wall seconds each took."""

    moves: list[str] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def same_as(self, other: Choices) -> float:
        return sum(a == b for a, b in zip(self.moves, other.moves, strict=True)) / len(self.moves)


def hard_choices(name: str, seconds: float) -> Choices:
    variant, found = get_variant(name), Choices()
    for plies, state in speed_positions(name, 2, LOAD_PLIES):
        seat = min(variant.to_act(state))
        hard = HardAgent(plies, seconds=seconds)  # seeded by the position: only the iterations can differ
        start, start_wall = time.process_time(), time.perf_counter()
        found.moves.append(str(hard.choose(variant, state, seat)))
        found.cpu.append(time.process_time() - start)
        found.wall.append(time.perf_counter() - start_wall)
        found.iterations.append(hard.last_iterations)
    return found


def fresh_choices(name: str, seconds: float) -> Choices:
    """``hard_choices`` in a process of its own: every run starts with the engine's memos empty."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(hard_choices, name, seconds).result()


def load_effect(variants: list[str], seconds: float, processes: int) -> int:
    """Hard's choices from the same positions twice on a quiet host and once with ``processes`` spinning: a CPU
    budget should make the loaded run slower, not different (it differs from a quiet run no more than two quiet
    runs differ from each other, which they do by the few iterations a clock tick moves)."""
    print(f"hard at {seconds:g} CPU s from up to {len(LOAD_PLIES)} positions per variant, 2 players, each run in a")
    print(f"fresh process: quiet, quiet again, and with {processes} other processes spinning; medians per move")
    print(f"{'variant':<24}{'positions':>10}{'iterations':>22}{'wall s':>16}{'same move as quiet 1':>22}")
    print(f"{'':<34}{'quiet  quiet  loaded':>22}{'quiet  loaded':>16}{'quiet 2  loaded':>22}")
    for name in variants:
        first, second = fresh_choices(name, seconds), fresh_choices(name, seconds)
        with spinning(processes, quiet=True):
            loaded = fresh_choices(name, seconds)
        counts = "  ".join(
            f"{percentile([float(n) for n in run.iterations], 0.5):5.0f}" for run in (first, second, loaded)
        )
        walls = "  ".join(f"{percentile(run.wall, 0.5):5.2f}" for run in (first, loaded))
        same = f"{first.same_as(second):7.0%}  {first.same_as(loaded):6.0%}"
        print(f"{name:<24}{len(first.moves):>10}{counts:>22}{walls:>16}{same:>22}", flush=True)
    return 0


# --- the search queue -----------------------------------------------------------------------------------------------
async def queue_waits(workers: int, games: int, seats: int, seconds: float) -> dict[str, float]:
    """Wall-clock seconds an easy move waits in the bot's search pool (``workers`` processes) while one member's
    ``games`` games have ``seats`` hard searches each queued: for another member's game, and for a 26th game of the
    same member. The hard searches think ``seconds`` of CPU time each."""
    from bot.app.computer import Computer  # the bot's pool and queue, as the bot runs them

    variant = get_variant("azul")
    state = variant.new_game(2, 1)
    computer = Computer(workers)
    computer.start()
    waits: dict[str, float] = {}
    try:
        await computer.choose(state, 0, "easy", 0)  # the workers' interpreters start before the clock does
        busy = [
            asyncio.create_task(computer.choose(state, 0, "hard", game, game=game, creator=1, seconds=seconds))
            for game in range(games)
            for _ in range(seats)
        ]
        await asyncio.sleep(0)
        for label, creator in (("another member's game", 2), ("the same member's next game", 1)):
            start = time.perf_counter()
            await computer.choose(state, 0, "easy", 1, game=games + creator, creator=creator)
            waits[label] = time.perf_counter() - start
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
    finally:
        await computer.close()
    return waits


def queue(workers: int, seconds: float, games: int = 25, seats: int = 3) -> int:
    print(
        f"an easy move while one member's {games} games x {seats} hard seats ({seconds:g} CPU s each) wait for"
        f" {workers} search worker(s); wall-clock seconds"
    )
    for label, wait in asyncio.run(queue_waits(workers, games, seats, seconds)).items():
        print(f"{label:<30}{wait:>8.2f}", flush=True)
    return 0


# --- main -----------------------------------------------------------------------------------------------------------
def _resume(
    chosen: list[Row], games: int, budget: dict[str, Any], done: dict[str, GameResult]
) -> tuple[list[Tally], list[tuple[Row, GameResult]], list[Job]]:
    """Each row's tally of the games ``done`` holds, those games, and the jobs that play the missing ones."""
    tallies = [Tally() for _ in chosen]
    finished: list[tuple[Row, GameResult]] = []
    jobs: list[Job] = []
    for tally, row in zip(tallies, chosen, strict=True):
        for index in range(games):
            result = done.get(_key(row, index, budget))
            if result is None:
                jobs.append((row, index, budget))
            else:
                tally.add(result)
                finished.append((row, result))
    return tallies, finished, jobs


def run(  # noqa: PLR0917 (a run is all of these)
    chosen: list[Row], games: int, budget: dict[str, Any], workers: int, out: Path | None, play_more: bool = True
) -> None:
    """Play the rows' missing games (unless ``play_more`` is false: then only print what ``out`` holds), printing
    each row as it completes, then the rows left incomplete and the move times."""
    tallies, finished, jobs = _resume(chosen, games, budget, load(out))
    if not play_more:
        jobs = []
    if jobs and out is not None:
        print(f"{len(finished)} games already in {out}; {len(jobs)} to play", flush=True)
    print(HEADER, flush=True)
    position = {row: r for r, row in enumerate(chosen)}
    for r, row in enumerate(chosen):
        if tallies[r].games == games:
            print(row_line(row, tallies[r]), flush=True)
    for (row, index, _), result in results(jobs, workers):
        if out is not None:
            append(out, row, index, budget, result)
        finished.append((row, result))
        tally = tallies[position[row]]
        tally.add(result)
        if tally.games == games:
            print(row_line(row, tally), flush=True)
    incomplete = [(row, tally) for row, tally in zip(chosen, tallies, strict=True) if 0 < tally.games < games]
    if incomplete:
        print(f"\nrows with fewer than {games} games")
        for row, tally in incomplete:
            print(row_line(row, tally))
    print_times(finished)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ai", description=__doc__.split("\n")[0])
    parser.add_argument("--suite", action="append", choices=SUITES, help="rows to run (repeatable); default: all")
    parser.add_argument("--variant", action="append", help="a variant name (repeatable); default: all")
    parser.add_argument("--level", action="append", choices=LEVEL_ORDER, help="only rows that count this level")
    parser.add_argument("--games", type=int, default=200, help="games per row")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="hard's time per move (default 1)")
    budget.add_argument("--iterations", type=int, help="hard's iterations per move (repeatable moves)")
    parser.add_argument(
        "--jobs", "--workers", dest="workers", type=int, help="processes playing at once (default 2; --queue: 1)"
    )
    parser.add_argument("--out", type=Path, help="append every finished game here (JSON lines) and resume from it")
    parser.add_argument("--report", action="store_true", help="print what --out holds, playing nothing")
    parser.add_argument("--speed", action="store_true", help="print hard's search speed per variant instead")
    parser.add_argument("--queue", action="store_true", help="print an easy move's wait behind many hard searches")
    parser.add_argument("--busy", type=int, default=0, help="keep this many other processes spinning meanwhile")
    parser.add_argument(
        "--load",
        type=int,
        metavar="N",
        help="hard's moves from the same positions, quiet and with N processes spinning",
    )
    args = parser.parse_args(argv)
    if args.load:
        return load_effect(args.variant or ["azul", "queens-garden"], args.seconds or 1.0, args.load)
    with spinning(0 if args.report else args.busy):
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    variants = args.variant or variant_names()
    if args.queue:
        return queue(args.workers or 1, args.seconds or 1.0)
    if args.speed:
        return speed_at(variants, args.seconds) if args.seconds else speed(variants, args.iterations or 200)
    chosen = [row for row in rows(args.suite or list(SUITES), variants) if row.agent in (args.level or LEVEL_ORDER)]
    hard_budget = {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds or 1.0}
    workers = args.workers or 2
    print(f"hard budget: {hard_budget}; {args.games} games per row; {workers} workers", flush=True)
    run(chosen, args.games, hard_budget, workers, args.out, play_more=not args.report)
    return 0


def spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def spinning(processes: int, *, quiet: bool = False) -> Iterator[None]:
    """``processes`` busy loops beside the run (a loaded host), stopped when it ends."""
    if processes and not quiet:
        print(f"{processes} other process{'es' if processes > 1 else ''} spinning meanwhile", flush=True)
    spinners = [multiprocessing.get_context("spawn").Process(target=spin, daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
