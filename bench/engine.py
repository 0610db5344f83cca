"""Engine speed: whole random games per second, for every registered variant and player count.

    python -m bench engine                      # every variant, every player count, 3 s each
    python -m bench engine --variant azul --players 2 --seconds 10
    python -m bench engine --against 7fecde0    # the fast path before (at a commit) and now, and the speed-up

Two paths are timed: ``fast`` plays with ``apply_unchecked`` (what an AI search uses) and ``checked`` with
``apply`` (validation and events, what the bot uses). Moves are picked uniformly from ``legal_moves`` with a seeded
generator, so runs are repeatable. Time is the process's CPU time, so other work on the machine changes the figures
little; they still depend on the machine.

``--against REV`` compares the fast path with the engine at a git revision: each sample runs in a fresh process,
the old engine's and the current one's alternately, and the median of ``--samples`` is printed, so a load that comes
and goes weighs on both sides alike.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import get_variant, variant_names
from engine.core import Rng, Variant


def random_games(variant: Variant[Any], players: int, seconds: float, checked: bool) -> tuple[int, int, float]:
    """Play random games for about ``seconds``; return (games, moves, elapsed seconds)."""
    rng = Rng(12345)
    games = moves = 0
    # The checked path plays other seeds than the fast one: an engine that remembers positions (Queen's Garden
    # remembers legal cells per garden) must not time the checked path on games the fast path has just played.
    first_seed = 1_000_000 if checked else 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = variant.new_game(players, first_seed + games)
        while not variant.is_over(state):
            seat = min(variant.to_act(state))
            legal = variant.legal_moves(state, seat)
            move = legal[rng.below(len(legal))]
            state = variant.apply(state, seat, move)[0] if checked else variant.apply_unchecked(state, seat, move)
            moves += 1
        games += 1
    return games, moves, time.process_time() - start


ROOT = Path(__file__).resolve().parent.parent

# One sample in a fresh process. It uses only what every revision's engine has (``get_variant``, ``Rng`` and the
# variant methods), and imports the engine from its working directory: the revision's copy or this checkout.
SAMPLE = """
import sys, time
from engine import get_variant
from engine.core import Rng
variant, players, seconds = get_variant(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
rng, games = Rng(12345), 0
start = time.process_time()
while time.process_time() - start < seconds:
    state = variant.new_game(players, games)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        legal = variant.legal_moves(state, seat)
        state = variant.apply_unchecked(state, seat, legal[rng.below(len(legal))])
    games += 1
print(games / (time.process_time() - start))
"""


def sample(where: Path, name: str, players: int, seconds: float) -> float:
    """Random games per CPU second with the engine found in ``where``."""
    done = subprocess.run(
        [sys.executable, "-c", SAMPLE, name, str(players), str(seconds)],
        cwd=where,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def unpack(revision: str, into: Path) -> None:
    """The engine and its data files as they were at ``revision``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "engine", "data"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def compare(revision: str, names: list[str], only: list[int] | None, seconds: float, samples: int) -> int:
    print(f"fast path, random games per CPU second: median of {samples} samples of {seconds:g} s each side")
    print(f"{'variant':<24}{'players':>8}{revision[:12]:>14}{'now':>10}{'speed-up':>10}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        unpack(revision, Path(tmp))
        for name in names:
            variant = get_variant(name)
            for players in range(variant.min_players, variant.max_players + 1):
                if only and players not in only:
                    continue
                old: list[float] = []
                new: list[float] = []
                try:
                    for _ in range(samples):
                        old.append(sample(Path(tmp), name, players, seconds))
                        new.append(sample(ROOT, name, players, seconds))
                except subprocess.CalledProcessError as error:  # the variant may not exist at that revision
                    last = (error.stderr.strip().splitlines() or ["no output"])[-1]
                    print(f"{name:<24}{players:>8}  failed: {last}")
                    failed = True
                    continue
                before, after = statistics.median(old), statistics.median(new)
                print(f"{name:<24}{players:>8}{before:>14.1f}{after:>10.1f}{after / before:>9.2f}×")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench engine", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="a variant name (repeatable); default: all")
    parser.add_argument("--players", type=int, action="append", help="a player count (repeatable); default: all")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per variant, player count and path")
    parser.add_argument("--against", metavar="REV", help="compare the fast path with the engine at this git revision")
    parser.add_argument("--samples", type=int, default=3, help="with --against: samples per side")
    args = parser.parse_args(argv)
    names = args.variant or variant_names()
    if args.against:
        return compare(args.against, names, args.players, args.seconds, args.samples)
    print(f"{'variant':<24}{'players':>8}{'path':>9}{'games/s':>10}{'moves/s':>10}{'moves/game':>12}")
    failed = False
    for name in names:
        variant = get_variant(name)
        for players in range(variant.min_players, variant.max_players + 1):
            if args.players and players not in args.players:
                continue
            for path, checked in (("fast", False), ("checked", True)):
                try:
                    games, moves, elapsed = random_games(variant, players, args.seconds, checked)
                except Exception as error:  # another game's engine may be unfinished: report it, go on
                    print(f"{name:<24}{players:>8}{path:>9}  failed: {error!r}")
                    failed = True
                    continue
                per_game = moves / games if games else 0.0
                print(
                    f"{name:<24}{players:>8}{path:>9}{games / elapsed:>10.1f}{moves / elapsed:>10.0f}{per_game:>12.1f}"
                )
    return 1 if failed else 0
