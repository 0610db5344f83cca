"""Move entry: can every legal move be entered, in how many picker steps, and how fast is the autocomplete?

    python -m bench entry                       # every variant: reachability, then autocomplete latency
    python -m bench entry --variant queens-garden --games 2 --every 3

Reachability walks a random and a greedy game of every variant (2 to 4 players) and, in every ``--every``-th
position, enters **every** legal move twice: through the Play picker's plan (:func:`bot.app.move_entry.plan`: each
step's
choices as the selects show them, a set ticked in its multi-select) and through the slash command's autocomplete
(each option typed in full, its choice looked up among the at most 25 offered). It prints how many moves each
reaches and the most picker steps one needed (the confirm click, skipped with quick play, not counted).

Latency takes the positions with the most legal moves of each variant and times the autocomplete's work (reading
the options already filled, then offering choices) for every option of every command with several typings: empty,
one letter, a word, a whole token, a set being typed. It prints p50/p99/max, and the longest the event loop was
held while the work ran in a thread as the bot runs it (a 1 ms ticker's longest gap).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import engine
from bot.app.move_entry import autocomplete, shapes_of
from engine import Variant
from engine.core import set_options
from tests.bot.entry_walks import by_autocomplete, picker_steps, positions


def reachability(names: list[str], games: int, every: int) -> None:
    print(f"{'variant':<24}{'game':<10}{'positions':>10}{'moves':>9}{'picker':>9}{'typed':>9}{'max steps':>10}")
    for name in names:
        variant = engine.get_variant(name)
        for greedy in (False, True):
            for number in range(games):
                players = variant.min_players + number % (variant.max_players - variant.min_players + 1)
                counted = Counter[str]()
                most = 0
                for index, (state, seat) in enumerate(positions(variant, players, 100 + number, greedy)):
                    if index % every:
                        continue
                    legal = variant.legal_moves(state, seat)
                    shapes = shapes_of(state, seat)
                    commands = len({shape["command"] for shape in shapes})
                    cache: dict[Any, list[str]] = {}
                    counted["positions"] += 1
                    for move in legal:
                        counted["moves"] += 1
                        steps = picker_steps(state, seat, move, shapes, commands)
                        if steps is not None:
                            counted["picker"] += 1
                            most = max(most, steps)
                        counted["typed"] += by_autocomplete(state, seat, move, cache, shapes)
                kind = f"{'greedy' if greedy else 'random'}-{players}p"
                print(
                    f"{name:<24}{kind:<10}{counted['positions']:>10}{counted['moves']:>9}"
                    f"{counted['picker']:>9}{counted['typed']:>9}{most:>10}",
                    flush=True,
                )


# --- latency -------------------------------------------------------------------------------------------------------
def worst_positions(variant: Variant[Any], count: int) -> list[tuple[Any, int]]:
    found: list[tuple[int, int, Any, int]] = []
    for seed in range(4):
        for greedy in (False, True):
            for index, (state, seat) in enumerate(positions(variant, 2 + seed % 3, 200 + seed, greedy)):
                size = len(variant.legal_moves(state, seat))
                found.append((size, -len(found), state, seat))
                del index
    found.sort(key=lambda entry: entry[:2], reverse=True)
    return [(state, seat) for _, _, state, seat in found[:count]]


def typings(variant: Variant[Any], state: Any, seat: int) -> Iterator[tuple[str, str, dict[str, str | None], str]]:
    """(command, option, options filled before it, typed) as players type them, for every option of every move
    shape (first shape of each command only for the later options, to keep the run short)."""
    shapes = shapes_of(state, seat)
    seen: set[tuple[str, str]] = set()
    for shape in shapes:
        command = shape["command"]
        given: dict[str, str | None] = {}
        for option, token in [(o, t) for o, t in shape.items() if o != "command"]:
            if (command, option) not in seen:
                seen.add((command, option))
                sets = set_options(variant, command)
                sample = "bl" if option in sets else token
                for typed in ("", sample[:1], sample, "blue", "2x", "center", "Factory 1", "red, 2"):
                    yield command, option, dict(given), typed
            given[option] = token


def autocomplete_work(call: tuple[Any, Any, int, str, str, dict[str, str | None], str]) -> float:
    """What the bot's autocomplete does in its thread (:func:`bot.app.move_entry.autocomplete`, the position kept per
    game
    version as the bot keeps it): read the options filled before, offer this one's choices. Returns the thread's
    CPU time, which other processes on a busy machine do not inflate."""
    key, state, seat, command, option, given, typed = call
    start = time.thread_time()
    autocomplete(key, state, seat, command=command, option=option, given=given, typed=typed, locale="en")
    return time.thread_time() - start


async def timed_on_loop(calls: list[Any]) -> tuple[list[float], list[float], float]:
    """Run each call in a thread, as the bot does, with a 1 ms ticker on the loop; return the calls' wall-clock
    and CPU times and the longest gap between ticks."""
    gaps: list[float] = []
    running = True

    async def ticker() -> None:
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    task = asyncio.create_task(ticker())
    times, cpu = [], []
    for call in calls:
        start = time.perf_counter()
        cpu.append(await asyncio.to_thread(autocomplete_work, call))
        times.append(time.perf_counter() - start)
    running = False
    await task
    return times, cpu, max(gaps, default=0.0)


def latency(names: list[str], worst: int) -> None:
    """Each position's typings in a row, as one player types them: the first of them works the position out, the
    others find it kept. Wall-clock p50/p99/max (what a player waits, inflated on a busy machine), the CPU time's
    p99 and the first typing's (the work itself), and the longest loop block."""
    print(
        f"\n{'variant':<24}{'moves':>7}{'calls':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'cpu p99':>9}"
        f"{'cpu first':>10}{'loop block ms':>15}"
    )
    for name in names:
        variant = engine.get_variant(name)
        chosen = worst_positions(variant, worst)
        calls = [
            ((name, index), state, seat, *typing)
            for index, (state, seat) in enumerate(chosen)
            for typing in typings(variant, state, seat)
        ]
        times, cpu, block = asyncio.run(timed_on_loop(calls))
        starts = [index for index, call in enumerate(calls) if not index or calls[index - 1][0] != call[0]]
        first = max(cpu[index] for index in starts)
        cpu_cuts = statistics.quantiles(cpu, n=100) if len(cpu) > 1 else cpu * 99
        cuts = statistics.quantiles(times, n=100) if len(times) > 1 else times * 99
        moves = len(variant.legal_moves(*chosen[0]))
        print(
            f"{name:<24}{moves:>7}{len(calls):>7}{cuts[49] * 1000:>9.1f}{cuts[98] * 1000:>9.1f}"
            f"{max(times) * 1000:>9.1f}{cpu_cuts[98] * 1000:>9.1f}{first * 1000:>10.1f}{block * 1000:>15.1f}",
            flush=True,
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench entry", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="a variant name (repeatable); default: all")
    parser.add_argument("--games", type=int, default=1, help="games of each kind (random, greedy) per variant")
    parser.add_argument("--every", type=int, default=4, help="check every n-th position of a game")
    parser.add_argument("--worst", type=int, default=3, help="positions with the most legal moves to time")
    parser.add_argument("--skip-reachability", action="store_true")
    args = parser.parse_args(argv)
    names = args.variant or engine.variant_names()
    if not args.skip_reachability:
        reachability(names, args.games, args.every)
    latency(names, args.worst)
    return 0
