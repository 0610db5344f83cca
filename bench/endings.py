"""How random games end: ``python -m bench endings [--variant azul-grey] [--games 3000]`` plays seeded random games
(2 to 4 players in turn; each move drawn uniformly from the legal ones) and prints how many ended for each reason,
how many did not end within the ply cap, and the time taken.

Random play is the computer-only game at its most aimless: every such game must end (a grey-wall game once could
go round forever, a colour stuck on pattern lines; the engine now ends it, ``no_tiling_possible``)."""

from __future__ import annotations

import argparse
import time
from collections import Counter

from tests.engine.random_games import random_ending


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench endings", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="azul-grey")
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args(argv)
    started = time.monotonic()
    endings = Counter(random_ending(args.variant, 2 + seed % 3, seed) for seed in range(args.games))
    took = time.monotonic() - started
    print(
        f"{args.games} random {args.variant} games in {took:.1f} s: "
        + ", ".join(f"{k} {v}" for k, v in endings.most_common())
    )
    return 1 if endings["never"] else 0
