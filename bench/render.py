"""``python -m bench render [--repeat N]``: how long a table picture takes and how big it is.

Prints, for 2 to 4 players, the median and 95th-percentile time per picture (drawing + PNG encoding with the game's
fixed palette), the drawing alone, the PNG size, and the floor to compare with: the time to encode a blank PNG of
the same size. ``ratio`` is the median over that floor; aim: every picture within 1.5x, under 400 KB. ``octree``
and ``old KB`` are the same picture encoded as before the fixed palettes (a colour quantization per picture), for
comparison on the same machine at the same moment. The close-ups and an expansion preview are timed too.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from functools import partial

from PIL import Image

import engine
from render import render_closeup, render_expansion_preview, render_png, render_table
from render.common import BG, to_png
from render.samples import Sample, play, samples

# The other games of the family: a late table (three quarters of a seeded greedy game) for 2 and 4 players.
FAMILY = ("summer-pavilion", "summer-pavilion-mono", "queens-garden")


def timings(work: Callable[[], object], repeat: int) -> list[float]:
    work()  # warm the caches (fonts, tiles, empty boards) as a running bot would have them
    result = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        result.append((time.perf_counter() - start) * 1000)
    return result


def paired(work: Callable[[], object], floor: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Times of ``work`` and ``floor`` run turn about, so both see the same load on a shared machine."""
    work(), floor()
    work_times: list[float] = []
    floor_times: list[float] = []
    for _ in range(repeat):
        for job, times in ((work, work_times), (floor, floor_times)):
            start = time.perf_counter()
            job()
            times.append((time.perf_counter() - start) * 1000)
    return work_times, floor_times


def plain_png(image: Image.Image) -> bytes:
    """The floor: Pillow's default PNG encoding, with no drawing and no palette work."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def late_table(variant: str, players: int, seed: int = 3) -> Sample:
    history = list(play(variant, players, seed))
    state, events = history[len(history) * 3 // 4]
    return Sample(f"{variant}-late-{players}p", state, tuple(events), chosen_names(players))


def chosen_names(players: int) -> tuple[str, ...]:
    return ("Zoë", "Олександра", "Bob", "Kuba")[:players]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench render")
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args(argv)
    chosen = {s.name: s for s in samples()}
    tables = [chosen[name] for name in ("start-2p", "game-over-2p", "mid-round-3p", "mid-round-4p", "game-over-4p")]
    tables += [late_table(variant, players) for variant in FAMILY for players in (2, 4)]
    header = f"{'picture':<30} {'median':>8} {'p95':>8} {'draw':>8} {'size':>8} {'blank':>8} {'ratio':>6}"
    print(header + f" {'octree':>8} {'old KB':>8}")
    for sample in tables:
        state, names, events = sample.state, sample.names, sample.events
        drawn = render_table(state, names=names, events=events)
        draw = timings(partial(render_table, state, names=names, events=events), args.repeat)
        old = timings(lambda: to_png(render_table(state, names=names, events=events)), args.repeat)  # noqa: B023
        work = partial(render_png, state, names=names, events=events)
        _row(sample.name, work, draw, drawn.size, args.repeat, (statistics.median(old), len(to_png(drawn))))
    for sample in (chosen["mid-round-4p"], late_table("summer-pavilion", 4), late_table("queens-garden", 4)):
        closeup = partial(render_closeup, sample.state, 0, names=sample.names, events=sample.events)
        size = Image.open(io.BytesIO(closeup())).size
        _row(f"{sample.name[:21]}-closeup", closeup, [0.0], size, args.repeat, None)
    preview = _expansion_preview()
    if preview is not None:
        size = Image.open(io.BytesIO(preview())).size
        _row("queens-garden-expansions", preview, [0.0], size, args.repeat, None)
    return 0


def _row(  # noqa: PLR0917
    name: str,
    work: Callable[[], bytes],
    draw: list[float],
    pixels: tuple[int, int],
    repeat: int,
    old: tuple[float, int] | None,
) -> None:
    blank_image = Image.new("RGB", pixels, BG)
    total, blank_times = paired(work, lambda: plain_png(blank_image), repeat)
    blank = statistics.median(blank_times)
    median = statistics.median(total)
    line = (
        f"{name:<30} {median:>6.1f}ms {p95(total):>6.1f}ms {statistics.median(draw):>6.1f}ms "
        f"{len(work()) / 1024:>6.1f}KB {blank:>6.1f}ms {median / blank:>5.2f}x"
    )
    if old is not None:
        line += f" {old[0]:>6.1f}ms {old[1] / 1024:>6.1f}KB"
    print(line)


def _expansion_preview() -> Callable[[], bytes] | None:
    """A Queen's Garden position with several expansion placements to choose from, labelled A, B, C..."""
    for state, _ in play("queens-garden", 2, 5):
        if engine.is_over(state):
            return None
        seat = min(engine.to_act(state))
        moves = [m for m in engine.legal_moves(state, seat) if m.command == "expansion" and "supply" not in str(m)]
        if len(moves) > 6:
            labelled = [(chr(ord("A") + i % 26), move) for i, move in enumerate(moves)]
            return lambda: render_expansion_preview(state, seat, labelled, names=("Zoë", "Bob"))
    return None
