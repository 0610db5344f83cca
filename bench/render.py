"""``python -m bench render [--repeat N]``: how long a table picture takes and how big it is.

Prints, for 2 and 4 players, the median and 95th-percentile time per picture (drawing + PNG encoding), the PNG
size, and as the floor to compare with the time to encode a blank PNG of the same size. Aims: a 4-player table in
at most 50 ms median, within 3x of that floor, under 400 KB.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from PIL import Image

from render import render_png, render_table
from render.common import BG
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
    tables = [chosen[name] for name in ("start-2p", "game-over-2p", "mid-round-4p", "after-scoring-4p", "game-over-4p")]
    tables += [late_table(variant, players) for variant in FAMILY for players in (2, 4)]
    print(f"{'picture':<30} {'median':>8} {'p95':>8} {'draw':>8} {'size':>8} {'blank':>8} {'ratio':>6}")
    for sample in tables:
        kwargs = {"names": sample.names, "events": sample.events}
        total = timings(lambda s=sample, k=kwargs: render_png(s.state, **k), args.repeat)
        draw = timings(lambda s=sample, k=kwargs: render_table(s.state, **k), args.repeat)
        png = render_png(sample.state, **kwargs)  # type: ignore[arg-type]
        blank_image = Image.new("RGB", render_table(sample.state, **kwargs).size, BG)  # type: ignore[arg-type]
        blank = timings(lambda b=blank_image: plain_png(b), args.repeat)
        median = statistics.median(total)
        print(
            f"{sample.name:<30} {median:>6.1f}ms {p95(total):>6.1f}ms {statistics.median(draw):>6.1f}ms "
            f"{len(png) / 1024:>6.1f}KB {statistics.median(blank):>6.1f}ms {median / statistics.median(blank):>5.1f}x"
        )
    return 0
