"""Figures of bot/'s shape: the longest files, handlers' reaches into the store, the longest import chains, and what one
move costs the database (counted through the real bot: :mod:`tools.move_cost`).

``python -m tools.layout`` prints them (from the repository's root), to compare a branch with main in review.
"""

from __future__ import annotations

import asyncio
import functools
import re
import sys
from pathlib import Path

import grimp

from tools.move_cost import BEFORE, measure

ROOT = Path(__file__).resolve().parent.parent
STORE_ATTRIBUTE = re.compile(r"\.store\b")
STORE_IMPORT = re.compile(r"^from bot\.infra\.(store|db)\b", re.MULTILINE)


def longest_files(count: int = 5) -> list[tuple[int, str]]:
    lengths = [
        (len(path.read_text(encoding="utf-8").splitlines()), path.relative_to(ROOT).as_posix())
        for path in (ROOT / "bot").rglob("*.py")
    ]
    return sorted(lengths, reverse=True)[:count]


def store_reaches() -> tuple[int, int]:
    """``.store`` attributes and store or database imports in bot/ui (docstrings' :meth: references aside)."""
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "bot" / "ui").rglob("*.py")]
    attributes = sum(
        1
        for source in sources
        for line in source.splitlines()
        if STORE_ATTRIBUTE.search(line) and ":meth:" not in line and not line.startswith(("from ", "import "))
    )
    return attributes, sum(len(STORE_IMPORT.findall(source)) for source in sources)


def import_chains(*starts: str) -> list[tuple[int, str]]:
    """The longest chain of direct imports inside bot/ (bot/ has no cycles), and the longest from each of ``starts``."""
    graph = grimp.build_graph("bot")

    @functools.cache
    def chain(module: str) -> tuple[str, ...]:
        below = [chain(other) for other in graph.find_modules_directly_imported_by(module) if other.startswith("bot")]
        return (module, *max(below, key=len, default=()))

    longest = max((chain(module) for module in graph.modules if module.startswith("bot")), key=len)
    return [(len(path), " → ".join(path)) for path in [longest, *(chain(start) for start in starts)]]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    print("longest bot/ files:")
    for lines, path in longest_files():
        print(f"  {lines:5d}  {path}")
    attributes, imports = store_reaches()
    print(f"handlers' reaches into the store: {attributes} .store attributes, {imports} store/db imports in bot/ui")
    print("longest import chains (modules):")
    for length, path in import_chains("bot.ui.posting", "bot.ui.context"):
        print(f"  {length:3d}  {path}")

    print("one move's cost to the database (a two-player Azul game through the bot in SimCord, counted):")
    for label, figure in asyncio.run(measure()).rows():
        print(f"  {label}: {figure}   (before one call owned a move: {BEFORE[label]})")


if __name__ == "__main__":
    main()
