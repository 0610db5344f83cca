"""``python -m bench render [--repeat N] [--only TEXT] [--phone]``: how long every kind of picture the bot sends
takes to make, and how big it is.

Pictures: the board posted after a turn (:func:`render.render_post`) of every variant for 2, 3 and 4 players late in
a seeded game and at its end (the final picture with the standings; replay pages are these same pictures), a
player's personal view of every variant, the Queen's Garden expansion preview, a leaderboard page and a profile
card. For each: the median and 95th-percentile time (drawing, palette mapping and PNG encoding, as the bot calls
it), the drawing alone, the PNG size, and two references: ``blank``, the time Pillow takes to encode a blank PNG of
the same size (the floor: ``ratio`` is the median of the ratios of each alternating pair — one picture, then one
blank — so a burst of load on a shared machine skews one pair, not the figure; aim at most 1.5x), and ``old KB``,
the same picture encoded as before the fixed palettes (a palette made for each picture; aim: no larger, but for the
boards posted after a turn, deflated at level 1 for time: see ``render.palette.POSTED``). The last lines give the
worst ratio and the totals.

Times are the process's CPU time (a picture is drawn in one thread), so other work on a shared machine skews them
far less than wall-clock time would; a picture and its floor are still timed turn about.

Then, for the board posted after a turn (4 players, late in the game), where its time goes on the first turn a
process draws (every cached layer, word mask and tile drawn afresh) and on later turns (caches warm): the drawing,
the caption under it (a new sentence each turn), and the encoding, each beside the way it was done before the cached
words and strips and the whole fixed palette (the caption rendered whole into a copy of the picture; a histogram to
trim the palette and deflate at level 6).

``--phone`` prints instead how the posted picture reads on a phone (:mod:`bench.phone`); ``--posted`` the CPU a posted
board costs the picture thread over whole games, for every variant and player count, with ``--against REV`` beside
that of an older renderer (:mod:`bench.posted`).
"""

from __future__ import annotations

import argparse
import io
import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from PIL import Image, ImageDraw

import engine
from render import (
    common,
    render_closeup,
    render_closeup_image,
    render_post,
    render_post_png,
    render_preview,
)
from render.common import BG
from render.palette import POSTED, palette_image
from render.phone import forget_cached_layers
from render.png import palette_png, to_png
from render.stats import Standing, leaderboard_png, profile_png
from tools.samples import play

NAMES = ("Zoë", "Олександра", "Bob", "Kuba")


@dataclass(frozen=True)
class Picture:
    name: str
    make: Callable[[], bytes]  # as the bot makes it: PNG bytes
    draw: Callable[[], Image.Image] | None  # the drawing alone, when it can be had apart from the encoding


def timings(work: Callable[[], object], repeat: int) -> list[float]:
    work()  # warm the caches (fonts, tiles, empty boards) as a running bot would have them
    result = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        result.append((time.process_time() - start) * 1000)
    return result


def paired(work: Callable[[], object], floor: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Times of ``work`` and ``floor`` run turn about, so both see the same load on a shared machine."""
    work(), floor()
    work_times: list[float] = []
    floor_times: list[float] = []
    for _ in range(repeat):
        for job, times in ((work, work_times), (floor, floor_times)):
            start = time.process_time()
            job()
            times.append((time.process_time() - start) * 1000)
    return work_times, floor_times


def plain_png(image: Image.Image) -> bytes:
    """The floor: Pillow's default PNG encoding, with no drawing and no palette work."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def moment(variant: str, players: int, share: float, seed: int = 3) -> tuple[Any, tuple[engine.Event, ...]]:
    """The table ``share`` of the way through a seeded greedy game (1.0: the final table) and its last move."""
    history = _history(variant, players, seed)
    state, events = history[min(len(history) - 1, int(len(history) * share))]
    return state, tuple(events)


@cache
def _history(variant: str, players: int, seed: int) -> list[tuple[Any, list[engine.Event]]]:
    return list(play(variant, players, seed))


def table_pictures(variant: str) -> list[Picture]:
    result = []
    for players in (2, 3, 4):
        names = NAMES[:players]
        for label, share in (("late", 0.75), ("final", 1.0)):
            state, events = moment(variant, players, share)
            result.append(
                Picture(
                    f"{variant}-{players}p-{label}",
                    partial(render_post_png, state, names=names, events=events),  # as posted after a turn
                    partial(render_post, state, names=names, events=events),
                )
            )
    state, events = moment(variant, 4, 0.75)
    result.append(
        Picture(
            f"{variant}-4p-mine",
            partial(render_closeup, state, 0, names=NAMES, events=events),
            partial(render_closeup_image, state, 0, names=NAMES, events=events),
        )
    )
    return result


def expansion_preview() -> Picture:
    """A Queen's Garden position with several expansion placements to choose from, labelled A, B, C..."""
    for state, _ in play("queens-garden", 2, 5):
        seat = min(engine.to_act(state))
        moves = [m for m in engine.legal_moves(state, seat) if m.command == "expansion" and "supply" not in str(m)]
        if len(moves) > 6:
            labelled = [(chr(ord("A") + i % 26), move) for i, move in enumerate(moves)]
            return Picture(
                "queens-garden-expansions",
                partial(render_preview, state, seat, labelled, names=NAMES[:2]),
                None,
            )
    raise LookupError("no expansion choice in the seeded game")


def stats_pictures() -> list[Picture]:
    rows = [
        Standing(rank, f"{NAMES[rank % 4]} {rank}", 30 - rank, 2.5 + rank / 10, 22 - rank, 40 - rank, 20 - rank)
        for rank in range(1, 11)
    ]
    ratings = [(game, row) for game, row in zip(("Azul", "Summer Pavilion", "Queen's Garden"), rows, strict=False)]
    facts = [("Games", "42"), ("Wins", "17"), ("Favourite", "Azul"), ("Best score", "97")]
    history = {game: [(25 + k / 4, 8.3 - k / 6) for k in range(30)] for game, _ in ratings}
    return [
        Picture("leaderboard", partial(leaderboard_png, "Azul", "Server ratings", rows, "en"), None),
        Picture("profile", partial(profile_png, "Zoë", ratings, facts, history, "en"), None),
    ]


def pictures() -> list[Picture]:
    result = [picture for variant in engine.variant_names() for picture in table_pictures(variant)]
    return [*result, expansion_preview(), *stats_pictures()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench render")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--only", default="", help="only pictures whose name contains this")
    parser.add_argument("--phone", action="store_true", help="how the posted pictures read on a 390x844 phone")
    parser.add_argument("--posted", action="store_true", help="CPU per posted board over whole games")
    parser.add_argument("--against", default=None, help="with --posted: beside the renderer of this git revision")
    parser.add_argument("--boards", type=int, default=24, help="with --posted: boards per game")
    args = parser.parse_args(argv)
    if args.phone:
        from bench import phone

        return phone.main()
    if args.posted:
        from bench import posted

        variants = [variant for variant in engine.variant_names() if args.only in variant]
        return posted.main(variants, against=args.against, boards=args.boards, repeat=args.repeat)
    print(
        f"{'picture':<34} {'pixels':>9} {'median':>8} {'p95':>8} {'draw':>8} {'size':>8} {'old KB':>7}"
        f" {'blank':>8} {'ratio':>6}"
    )
    ratios, sizes, old_sizes = [], 0, 0
    for picture in pictures():
        if args.only not in picture.name:
            continue
        ratio, size, old = _row(picture, args.repeat)
        ratios.append((ratio, picture.name))
        sizes, old_sizes = sizes + size, old_sizes + old
    if ratios:
        worst, name = max(ratios)
        print(f"worst ratio {worst:.2f}x ({name}); {sum(r <= 1.5 for r, _ in ratios)} of {len(ratios)} within 1.5x")
        print(f"all files {sizes / 1024:.1f} KB, {old_sizes / 1024:.1f} KB as before ({sizes / old_sizes - 1:+.1%})")
    turns(args.only, args.repeat)
    return 0


def turns(only: str, repeat: int) -> None:
    """Where a posted board's time goes, first turn and later turns, new beside old (see the module's note)."""
    print(
        f"\n{'posted board, 4 players':<30} {'draw 1st':>8} {'later':>7} {'caption':>8} {'was':>7}"
        f" {'encode':>7} {'was':>7} {'KB':>6} {'was KB':>7}"
    )
    for variant in engine.variant_names():
        if only in f"{variant}-4p-late":
            _turn_row(variant, repeat)


_turn = itertools.count()


def _sentence() -> str:
    """A caption as the bot writes one, new every turn: no cached mask holds it whole, but its words recur."""
    k = next(_turn)
    colour = ("red", "blue", "black", "yellow", "white")[k % 5]
    return (
        f"{NAMES[k % 4]} took {k % 4 + 1} {colour} tiles from factory {k % 9 + 1} and put them on line"
        f" {k % 5 + 1} (+{k % 7} → {k % 100})"
    )


def _turn_row(variant: str, repeat: int) -> None:
    state, events = moment(variant, 4, 0.75)
    draw = partial(render_post, state, names=NAMES, events=events)
    forget_cached_layers()
    for cached in (common._text_mask, common.width, common.advance):
        cached.cache_clear()
    first = _ms(draw)
    later = statistics.median(timings(draw, repeat))
    image = draw()
    caption = statistics.median(timings(lambda: common.caption_strip(image.width, image.height, _sentence()), repeat))
    was_caption = statistics.median(timings(lambda: _old_caption(image, _sentence()), repeat))
    palette = palette_image(engine.get_variant(variant).game)
    encode = statistics.median(timings(lambda: to_png(image, palette=palette, level=POSTED), repeat))
    was_encode = statistics.median(timings(lambda: _old_png(image, palette), repeat))
    size, was_size = len(to_png(image, palette=palette, level=POSTED)), len(_old_png(image, palette))
    print(
        f"{variant:<30} {first:>6.1f}ms {later:>5.1f}ms {caption * 1000:>6.0f}us {was_caption * 1000:>5.0f}us"
        f" {encode:>5.1f}ms {was_encode:>5.1f}ms {size / 1024:>6.1f} {was_size / 1024:>7.1f}",
        flush=True,
    )


def _ms(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def _old_caption(image: Image.Image, caption: str) -> Image.Image:
    """The caption as it was drawn: the whole sentence rendered at once, into a copy of the picture."""
    result = Image.new("RGB", (image.width, image.height + common.CAPTION_H), BG)
    result.paste(image, (0, 0))
    face = common.font(24, bold=True)
    text = common.fit(common.printable(caption), face, image.width - 32)
    common.text_at(ImageDraw.Draw(result), (16, image.height + 18), text, face, fill=common.TEXT, anchor="lm")
    return result


def _old_png(image: Image.Image, palette: Image.Image | None) -> bytes:
    """The encoding as it was: the palette trimmed to the colours used (a histogram and a remap), deflate level 6."""
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    used = [index for index, count in enumerate(mapped.histogram()) if count]
    lookup = [0] * 256
    for new, old in enumerate(used):
        lookup[old] = new
    trimmed = mapped.point(lookup)
    colors = mapped.getpalette() or []
    trimmed.putpalette([value for index in used for value in colors[3 * index : 3 * index + 3]])
    return palette_png(trimmed, level=6)


def _row(picture: Picture, repeat: int) -> tuple[float, int, int]:
    png = picture.make()
    image = Image.open(io.BytesIO(png))
    drawn = picture.draw() if picture.draw else image.convert("RGB")
    old = len(to_png(drawn))  # a palette made for this picture (fast octree), as before the fixed palettes
    draw = statistics.median(timings(picture.draw, repeat)) if picture.draw else None
    blank_image = Image.new("RGB", image.size, BG)
    total, blank_times = paired(picture.make, lambda: plain_png(blank_image), repeat)
    blank, median = statistics.median(blank_times), statistics.median(total)
    ratio = statistics.median(work / floor for work, floor in zip(total, blank_times, strict=True) if floor > 0)
    draw_text = f"{draw:>6.1f}ms" if draw is not None else f"{'-':>8}"
    print(
        f"{picture.name:<34} {image.width:>4}x{image.height:<4} {median:>6.1f}ms {p95(total):>6.1f}ms {draw_text} "
        f"{len(png) / 1024:>6.1f}KB {old / 1024:>7.1f} {blank:>6.1f}ms {ratio:>5.2f}x",
        flush=True,
    )
    return ratio, len(png), old
