"""``python -m bench render --posted [--against REV] [--boards N] [--repeat N]``: the CPU the board posted after a
turn costs the picture thread, per board, for every variant with 2, 3 and 4 players, as the bot makes it.

The boards are the states of one seeded game per variant and player count (the engine's greedy agent), ``--boards``
of them in four runs of turns one after the other (a picture may reuse what the last turn's drew, as in a game the
bot serves) spread evenly from the first move to the last, each with its move in words under it (the caption the bot
writes); each is drawn and encoded as the bot's picture thread does it (:mod:`bot.infra.picture_worker`), one after
the other in game order, as a game is played. A pass draws them all once to warm the caches, as a running bot has
them; then the median of ``--repeat`` timed passes, process CPU time.

With ``--against REV`` the same boards are drawn by the renderer of revision ``REV`` (``git archive`` of its
``render/`` and picture worker into a temporary directory, put first on the path) in a process of its own, a pass
each turn about with this tree's, so a burst of load on a shared machine falls on both; the table gives both, their
ratio and the PNG bytes of each. The work is made once, in this process, and handed to both as JSON.
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


WINDOWS = 4


def _windows(history: list[Any], boards: int) -> list[Any]:
    """``boards`` of ``history``: ``WINDOWS`` runs of turns one after the other (a picture may reuse what the
    previous turn's drew, as the bot's do), spread evenly from the first move to the last."""
    run = max(1, boards // WINDOWS)
    starts = sorted({round(k * (len(history) - run) / max(1, WINDOWS - 1)) for k in range(WINDOWS)})
    return [history[i] for start in starts for i in range(max(0, start), min(len(history), start + run))]


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
            names = list(NAMES[:players])
            for state, events in _windows(history, boards):
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


class Drawer:
    """Draws the boards as a picture thread does: with ``worker`` (:mod:`bot.infra.picture_worker`, or an older
    revision's), whose ``board_in_thread`` takes the state itself, decoded here untimed, as the bot hands it over;
    a revision without it decoded the game's JSON in the picture thread, and that is timed."""

    def __init__(self, work: dict[str, list[dict[str, Any]]], worker: Any) -> None:
        import engine

        self.work, self.worker = work, worker
        if hasattr(worker, "board_in_thread"):
            for board in (board for boards in work.values() for board in boards):
                board["decoded"] = (
                    engine.from_json(board["state"]),
                    [engine.Event.from_json(e) for e in board["events"]],
                )
        self.warm: set[str] = set()

    def draw(self, board: dict[str, Any]) -> bytes:
        info: list[Any] = [None] * board["players"]
        if "decoded" in board:
            state, events = board["decoded"]
            png: bytes = self.worker.board_in_thread(state, board["names"], events, "en", info, board["caption"])
            return png
        args = (board["state"], board["names"], board["events"], "en", info, board["caption"])
        png = self.worker.board_in_worker(*args)
        return png

    def one_pass(self, variant: str) -> dict[str, dict[int, float]]:
        """CPU ms per board, per player count, over one pass through ``variant``'s boards in game order (the first
        pass, untimed, warms the caches as a running bot has them) and the bytes per board."""
        boards = self.work[variant]
        if variant not in self.warm:
            self.warm.add(variant)
            for board in boards:
                self.draw(board)
        spent: dict[int, float] = {}
        size: dict[int, int] = {}
        count: dict[int, int] = {}
        for board in boards:
            start = time.process_time()
            png = self.draw(board)
            players = board["players"]
            spent[players] = spent.get(players, 0.0) + time.process_time() - start
            size[players] = size.get(players, 0) + len(png)
            count[players] = count.get(players, 0) + 1
        return {
            "ms": {players: spent[players] * 1000 / count[players] for players in count},
            "bytes": {players: size[players] / count[players] for players in count},
        }


def serve(work_file: str, tree: str | None) -> None:
    """A drawing process: reads a variant a line, answers each with one pass's figures (JSON) a line."""
    if tree:  # an older revision's picture worker: what its picture thread ran
        spec = importlib.util.spec_from_file_location(
            "older_picture_worker", Path(tree) / "bot/infra/picture_worker.py"
        )
        assert spec is not None
        assert spec.loader is not None
        worker: Any = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(worker)
    else:
        from bot.infra import picture_worker as worker
    drawer = Drawer(json.loads(Path(work_file).read_text()), worker)
    for line in sys.stdin:
        print(json.dumps(drawer.one_pass(line.strip())), flush=True)


def _start(tree: str | None, work_file: str) -> subprocess.Popen[str]:
    """A drawing process with the renderer of ``tree`` (None: this tree's) first on the path."""
    first = [tree] if tree else []
    code = f"import sys; sys.path[:0] = {first!r}; from bench.posted import serve; serve({work_file!r}, {tree!r})"
    return subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )


def _ask(process: subprocess.Popen[str], variant: str) -> dict[str, dict[int, float]]:
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(variant + "\n")
    process.stdin.flush()
    result = json.loads(process.stdout.readline())
    return {key: {int(players): value for players, value in values.items()} for key, values in result.items()}


def _medians(passes: list[dict[str, dict[int, float]]]) -> dict[str, dict[int, float]]:
    return {
        key: {players: statistics.median(one[key][players] for one in passes) for players in passes[0][key]}
        for key in passes[0]
    }


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
        trees: list[str | None] = [None]
        if against:
            trees.append(_old_tree(against, str(Path(scratch) / "old")))
        processes = [_start(tree, work_file) for tree in trees]
        header = f"{'posted board':<24} {'players':>7} {'ms/board':>9} {'KB':>6}"
        if against:
            header += f" {f'{against} ms':>12} {'KB':>6} {'new/old':>8}"
        print(header, flush=True)
        totals: list[tuple[float, float]] = []
        try:
            for variant in variants:
                passes: list[list[dict[str, dict[int, float]]]] = [[] for _ in processes]
                for turn in range(repeat):  # turn about, each first in every other round
                    order = list(range(len(processes)))[:: 1 if turn % 2 == 0 else -1]
                    for k in order:
                        passes[k].append(_ask(processes[k], variant))
                new, *older = [_medians(done) for done in passes]
                for players in PLAYERS:
                    ms, kb = new["ms"][players], new["bytes"][players] / 1024
                    line = f"{variant:<24} {players:>7} {ms:>7.2f}ms {kb:>6.1f}"
                    old_ms = ms
                    if older:
                        old_ms, old_kb = older[0]["ms"][players], older[0]["bytes"][players] / 1024
                        line += f" {old_ms:>10.2f}ms {old_kb:>6.1f} {ms / old_ms:>7.2f}x"
                    totals.append((ms, old_ms))
                    print(line, flush=True)
        finally:
            for process in processes:
                assert process.stdin is not None
                process.stdin.close()
                process.wait()
        mean_new = statistics.mean(new for new, _ in totals)
        mean_old = statistics.mean(old for _, old in totals)
        summary = f"mean over the {len(totals)} rows: {mean_new:.2f} ms a board"
        if against:
            summary += f", {against}: {mean_old:.2f} ms ({mean_new / mean_old:.2f}x)"
        print(summary)
    return 0
