"""Benchmarks that print figures: ``python -m bench SUITE [options]``, SUITE one of :data:`SUITES`."""

from __future__ import annotations

import importlib
import sys

SUITES = (
    "engine",
    "render",
    "bot",
    "replay",
    "animation",
    "ai",
    "load",
    "abuse",
    "entry",
    "leagues",
    "endings",
    "startup",
)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in SUITES:
        print(f"usage: python -m bench {{{'|'.join(SUITES)}}} [options]", file=sys.stderr)
        return 2
    suite = importlib.import_module(f"bench.{argv[0]}")
    result: int = suite.main(argv[1:])
    return result


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
