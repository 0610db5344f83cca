"""``python -m bench replay [--games azul,queens-garden] [--save DIR]``: how big and slow a game's animation is.

Replays a recorded 4-player game of each game (``tests/render/games/*.json``: greedy self-play, the longest games we
have; Queen's Garden's takes a minute and a half to play, so it is stored rather than played here) and prints the moves,
the time to replay the log, to draw one full-size viewer frame, to make the whole GIF (wall clock and this
process's CPU time, which is what a busy machine does not distort), its size against ``render.animation.MAX_BYTES``,
the frames and width of the step of the shrinking ladder that fitted, and the process's peak memory so far.
"""

from __future__ import annotations

import argparse
import io
import resource
import time
from pathlib import Path

from PIL import Image

from render import animation
from tests.render.recorded_games import recorded_game

GAMES = ("azul", "summer-pavilion", "queens-garden")
NAMES = ("Zoë", "Олександра", "Bob", "Kuba")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench replay")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated, from: " + ", ".join(GAMES))
    parser.add_argument("--save", type=Path, help="also write each animation to DIR/<game>-4p.gif to look at")
    args = parser.parse_args(argv)
    print(
        f"{'game':<18} {'moves':>5} {'replay':>8} {'frame':>8} {'gif':>8} {'gif cpu':>8} {'size':>9} {'frames':>6} "
        f"{'width':>5} {'peak rss':>9}"
    )
    for game in args.games.split(","):
        g = recorded_game(game)
        names = NAMES[: g["players"]]
        start = time.perf_counter()
        frames = animation.replay_states(g["variant"], g["players"], g["seed"], g["moves"])
        replayed = time.perf_counter() - start
        start = time.perf_counter()
        animation.frame_png(frames[len(frames) // 2], names=names)
        frame = time.perf_counter() - start
        start, cpu = time.perf_counter(), time.process_time()
        gif = animation.animate(g["variant"], g["players"], g["seed"], g["moves"], names=names)
        made, made_cpu = time.perf_counter() - start, time.process_time() - cpu
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{game}-4p.gif").write_bytes(gif)
        with Image.open(io.BytesIO(gif)) as image:
            shown, width = getattr(image, "n_frames", 1), image.width
        print(
            f"{game:<18} {len(g['moves']):>5} {replayed * 1000:>6.0f}ms {frame * 1000:>6.0f}ms "
            f"{made:>7.1f}s {made_cpu:>7.1f}s {len(gif) / 1e6:>6.2f}MB {shown:>6} {width:>5} "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:>7.0f}MB"
        )
    print(f"(upload budget {animation.MAX_BYTES / 1e6:.0f} MB; Discord's limit without boosts is 10 MiB)")
    return 0
