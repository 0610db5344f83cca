"""Engine speed: whole random games per second, for every registered variant and player count.

    python -m bench engine                      # every variant, every player count, 3 s each
    python -m bench engine --variant azul --players 2 --seconds 10

Two paths are timed: ``fast`` plays with ``apply_unchecked`` (what an AI search uses) and ``checked`` with
``apply`` (validation and events, what the bot uses). Moves are picked uniformly from ``legal_moves`` with a seeded
generator, so runs are repeatable; the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import time
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
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = variant.new_game(players, first_seed + games)
        while not variant.is_over(state):
            seat = min(variant.to_act(state))
            legal = variant.legal_moves(state, seat)
            move = legal[rng.below(len(legal))]
            state = variant.apply(state, seat, move)[0] if checked else variant.apply_unchecked(state, seat, move)
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench engine", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="a variant name (repeatable); default: all")
    parser.add_argument("--players", type=int, action="append", help="a player count (repeatable); default: all")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant, player count and path")
    args = parser.parse_args(argv)
    names = args.variant or variant_names()
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
