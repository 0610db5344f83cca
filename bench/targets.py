"""The speed targets of one move, each figure beside its target, from one command: ``python -m bench load --targets``.

Three measurements make the table, each the one its figure belongs to:

- counted through the real bot in SimCord (:mod:`tools.move_cost`, what ``python -m tools.layout`` prints): SQL
  statements and commits and loads of the game's state per slash move, from the command to its board post;
- the load run (:mod:`bench.load`): the real bot process over the wire at 16 interactions in flight — moves/s, move →
  board p95, the CPU per move of the bot process and of its event-loop thread, the bytes it wrote per move;
- a cold start (:mod:`bench.startup`): from the process starting to its first answered interaction, with .pyc.

CPU per move and the counts hardly depend on how busy the host is; moves/s, p95 and the start's wall clock do.
"""

from __future__ import annotations

import asyncio
import statistics
from dataclasses import dataclass

from bench import startup
from bench.bot import percentile


@dataclass(frozen=True)
class LoadFigures:
    """What the load run measured at 16 interactions in flight (per acknowledged move)."""

    moves_per_second: float
    board_p95_ms: float
    bot_cpu_ms: float
    loop_cpu_ms: float
    written_kb: float


@dataclass(frozen=True)
class Row:
    figure: str
    measured: str
    target: str
    how: str

    @property
    def filed(self) -> str:
        """The figure when the issue was filed (its table's "now"), to compare with."""
        return FILED.get(self.figure, "")


FILED = {
    "SQL statements + commits per slash move, command to board post": "52",
    "game-state loads per slash move": "6",
    "event-loop CPU per move, 16 in flight": "13.1 ms",
    "bot CPU per move, 16 in flight": "23–31 ms",
    "moves/s, 16 in flight, one process": "38–48",
    "move → board p95, 16 in flight": "389–507 ms",
    "bytes written per move (the bot process)": "59 KB",
    "start-up to first answer (with .pyc)": "1.07 s",
}


def counted_rows() -> list[Row]:
    """The statements and loads of a slash move, counted through the bot in SimCord."""
    from tools.move_cost import measure  # the whole bot: imported only when the table is asked for

    cost = asyncio.run(measure())
    statements, commits = statistics.median(cost.slash_statements), statistics.median(cost.slash_commits)
    how = "counted in SimCord (python -m tools.layout)"
    return [
        Row(
            "SQL statements + commits per slash move, command to board post",
            f"{statements:g} ({commits:g})",
            "≤ 16",
            how,
        ),
        Row("game-state loads per slash move", f"{max(cost.slash_reads)}", "≤ 2", how),
    ]


def load_rows(load: LoadFigures) -> list[Row]:
    how = "this load run, 16 in flight"
    return [
        Row("event-loop CPU per move, 16 in flight", f"{load.loop_cpu_ms:.1f} ms", "≤ 5 ms", how),
        Row("bot CPU per move, 16 in flight", f"{load.bot_cpu_ms:.1f} ms", "≤ 12 ms", how),
        Row("moves/s, 16 in flight, one process", f"{load.moves_per_second:.1f}", "≥ 100", how + " (busy host: low)"),
        Row("move → board p95, 16 in flight", f"{load.board_p95_ms:.0f} ms", "≤ 150 ms", how + " (busy host: high)"),
        Row("bytes written per move (the bot process)", f"{load.written_kb:.1f} KB", "≤ 20 KB", how),
    ]


def startup_row(runs: int = 7) -> Row:
    starts = asyncio.run(startup.measure(runs, compiled=True))
    first = statistics.median(answer for answer, _, _ in starts)
    cpu = statistics.median(used for _, _, used in starts)
    return Row(
        "start-up to first answer (with .pyc)",
        f"{first:.2f} s (CPU {cpu:.2f} s)",
        "≤ 0.5 s",
        f"median of {runs} starts (python -m bench startup)",
    )


def load_figures(
    board_ms: list[float], moves: int, elapsed: float, per_move: tuple[float, float, float]
) -> LoadFigures:
    bot_cpu, loop_cpu, written = per_move
    return LoadFigures(moves / elapsed, percentile(board_ms, 0.95), bot_cpu, loop_cpu, written)


def print_table(load: LoadFigures) -> None:
    rows = [*counted_rows(), *load_rows(load), startup_row()]
    print("\nthe speed targets (issue #39), each measured where it belongs:")
    names = ("figure", "measured", "filed", "target")
    header = Row("figure", "now", "target", "measured by")
    widths = [max(len(getattr(row, name)) for row in (*rows, header)) for name in names]
    for row in (header, *rows):
        filed = "when filed" if row is header else row.filed
        print(
            f"  {row.figure:<{widths[0]}}  {row.measured:>{widths[1]}}  {filed:>{max(widths[2], 10)}}"
            f"  {row.target:<{widths[3]}}  {row.how}"
        )


__all__ = ["LoadFigures", "Row", "load_figures", "print_table"]
