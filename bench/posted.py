"""``python -m bench render --posted [--against REV] [--boards N] [--repeat N]``: the CPU the board posted after a
turn costs the picture thread, per board, for every variant with 2, 3 and 4 players, as the bot makes it.

The boards are the states of one seeded game per variant and player count (the engine's greedy agent), ``--boards``
of them spread evenly from the first move to the last, each with its move in words under it (the caption the bot
writes); each is decoded from the game's JSON and drawn and encoded (:func:`bot.infra.picture_worker.board_in_worker`,
what the bot's picture thread runs), one after the other in game order, as a game is played. A pass draws them all
once to warm the caches, as a running bot has them; then the median of ``--repeat`` timed passes, process CPU time.

With ``--against REV`` the same boards are drawn by the renderer of revision ``REV`` (``git archive`` of its
``render/`` into a temporary directory, put first on the path) in a process of its own, turn about with this tree's,
one variant at a time, so a burst of load on a shared machine falls on both; the table gives both, their ratio and
the PNG bytes of each. The work is made once, in this process, and handed to both as JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PLAYERS = (2, 3, 4)
NAMES = ("Zoë", "Олександра", "Bob", "Kuba")
SEED = 3


def workload(variants: Sequence[str], boards: int) -> dict[str, list[dict[str, Any]]]:
    """Per variant: the boards to draw, as the bot hands them to a picture worker (JSON, names, caption)."""
    import engine
    from bot.app.pictures import move_caption
    from tools.samples import play

    work: dict[str, list[dict[str, Any]]] = {}
    for variant in variants:
        work[variant] = []
        for players in PLAYERS:
            history = list(play(variant, players, SEED))[1:]
            step = max(1, len(history) // boards)
            names = list(NAMES[:players])
            for state, events in history[::step][:boards]:
                work[variant].append(
                    {
                        "players": players,
                        "state": engine.to_json(state),
                        "events": [event.to_json() for event in events],
                        "names": names,
                        "caption": move_caption(variant, events, names, "en"),
                    }
                )
    return work


def measure(boards: list[dict[str, Any]], repeat: int, worker: Any = None) -> dict[str, dict[int, float]]:
    """Median CPU ms per board and bytes per board, per player count, over ``repeat`` passes after a warm one.
    ``worker``: the module the picture thread runs (:mod:`bot.infra.picture_worker`, or an older revision's): its
    ``board_in_thread`` takes the state itself, decoded here untimed, as the bot hands it over; a revision without it
    decoded the game's JSON in the picture thread, and that is timed."""
    import engine

    if worker is None:
        from bot.infra import picture_worker as worker

    def draw(board: dict[str, Any]) -> bytes:
        info: list[Any] = [None] * board["players"]
        if hasattr(worker, "board_in_thread"):
            state, events = board["decoded"]
            return worker.board_in_thread(state, board["names"], events, "en", info, board["caption"])
        return worker.board_in_worker(board["state"], board["names"], board["events"], "en", info, board["caption"])

    for board in boards:
        board["decoded"] = (engine.from_json(board["state"]), [engine.Event.from_json(e) for e in board["events"]])
    size: dict[int, int] = {}
    count: dict[int, int] = {}
    for board in boards:
        size[board["players"]] = size.get(board["players"], 0) + len(draw(board))
        count[board["players"]] = count.get(board["players"], 0) + 1
    passes: dict[int, list[float]] = {players: [] for players in count}
    for _ in range(repeat):
        spent = dict.fromkeys(count, 0.0)
        for board in boards:
            start = time.process_time()
            draw(board)
            spent[board["players"]] += time.process_time() - start
        for players, seconds in spent.items():
            passes[players].append(seconds * 1000 / count[players])
    return {
        "ms": {players: statistics.median(times) for players, times in passes.items()},
        "bytes": {players: size[players] / count[players] for players in count},
    }


def _child(work_file: str, variant: str, repeat: int, out_file: str, tree: str | None) -> None:
    boards = json.loads(Path(work_file).read_text())[variant]
    worker = None
    if tree:  # an older revision's picture worker: what its picture thread ran
        older = Path(tree) / "bot" / "infra" / "picture_worker.py"
        spec = importlib.util.spec_from_file_location("older_picture_worker", older)
        assert spec is not None
        assert spec.loader is not None
        worker = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(worker)
    Path(out_file).write_text(json.dumps(measure(boards, repeat, worker)))


def _run(tree: str | None, work_file: str, variant: str, repeat: int) -> dict[str, dict[int, float]]:
    """``measure`` in a fresh process, with the renderer of ``tree`` (None: this tree's) first on the path."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        first = [tree] if tree else []
        code = (
            f"import sys; sys.path[:0] = {first!r}; from bench.posted import _child;"
            f" _child({work_file!r}, {variant!r}, {repeat}, {out.name!r}, {tree!r})"
        )
        subprocess.run([sys.executable, "-c", code], check=True, cwd=os.getcwd())
        result = json.loads(Path(out.name).read_text())
    return {key: {int(players): value for players, value in values.items()} for key, values in result.items()}


def _old_tree(rev: str, into: str) -> str:
    paths = ["render", "bot/infra/picture_worker.py"]
    archive = subprocess.run(["git", "archive", rev, *paths], check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as tar:
        tar.write(archive)
        tar.seek(0)
        with tarfile.open(fileobj=tar) as files:
            files.extractall(into, filter="data")
    return into


def main(variants: Sequence[str], *, against: str | None, boards: int, repeat: int) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        work_file = str(Path(scratch) / "work.json")
        Path(work_file).write_text(json.dumps(workload(variants, boards)))
        old_tree = _old_tree(against, str(Path(scratch) / "old")) if against else None
        header = f"{'posted board':<24} {'players':>7} {'ms/board':>9} {'KB':>6}"
        if against:
            header += f" {f'{against} ms':>12} {'KB':>6} {'new/old':>8}"
        print(header, flush=True)
        totals: list[tuple[float, float]] = []
        for variant in variants:
            new = _run(None, work_file, variant, repeat)
            old = _run(old_tree, work_file, variant, repeat) if old_tree else None
            for players in PLAYERS:
                line = f"{variant:<24} {players:>7} {new['ms'][players]:>7.2f}ms {new['bytes'][players] / 1024:>6.1f}"
                if old is not None:
                    ms, kb = old["ms"][players], old["bytes"][players] / 1024
                    line += f" {ms:>10.2f}ms {kb:>6.1f} {new['ms'][players] / ms:>7.2f}x"
                    totals.append((new["ms"][players], ms))
                else:
                    totals.append((new["ms"][players], new["ms"][players]))
                print(line, flush=True)
        mean_new = statistics.mean(new for new, _ in totals)
        mean_old = statistics.mean(old for _, old in totals)
        summary = f"mean over the {len(totals)} rows: {mean_new:.2f} ms a board"
        if against:
            summary += f", {against}: {mean_old:.2f} ms ({mean_new / mean_old:.2f}x)"
        print(summary)
    return 0
