"""``python -m bench leagues``: how long pairing a league's round takes, and how many repeats it needed.

Plays Swiss leagues of several sizes with random results (seeded) through :mod:`bot.app.league_rules` and prints, per
league, the slowest round's pairing time (CPU time of this process: a busy machine does not distort it) and the
pairs that met again; then the imbalance of round-robin schedules at tables of 3 and 4.
"""

from __future__ import annotations

import random
import time

from bot.app.league_rules import Entrant, Played, imbalance, planned_schedule, swiss_round

SWISS = ((6, 5, 2), (8, 7, 2), (16, 9, 2), (32, 9, 2), (64, 11, 2), (12, 5, 3), (16, 5, 4), (24, 6, 4))
ROUND_ROBIN = ((6, 3), (9, 3), (12, 3), (8, 4), (12, 4), (16, 4))


def swiss_league(players: int, rounds: int, size: int) -> tuple[float, int]:
    """The slowest round's pairing (seconds of CPU) and the repeats over a league with random results."""
    rng = random.Random(players * 100 + size)
    entrants = [Entrant(user, rating=rng.random() * 10, order=user) for user in range(players)]
    history: list[Played] = []
    slowest, repeats = 0.0, 0
    for number in range(1, rounds + 1):
        started = time.process_time()
        chosen = swiss_round(entrants, history, size=size)
        slowest = max(slowest, time.process_time() - started)
        repeats += chosen.repeats
        for table in chosen.tables:
            places = list(range(1, len(table) + 1))
            rng.shuffle(places)
            scores = tuple(rng.randint(10, 80) for _ in table)
            history.append(Played(number, table, scores, tuple(places), table_size=size))
        history += [Played(number, (user,), bye=True, table_size=size) for user in chosen.byes]
    return slowest, repeats


def main(argv: list[str]) -> int:
    del argv
    for players, rounds, size in SWISS:
        slowest, repeats = swiss_league(players, rounds, size)
        print(
            f"swiss {players} players, {rounds} rounds, tables of {size}: slowest pairing {slowest * 1000:.1f} ms"
            f" CPU, pairs met again {repeats}"
        )
    for players, size in ROUND_ROBIN:
        users = list(range(players))
        rounds = planned_schedule(users, size)
        fewest, most = imbalance(users, rounds)
        print(f"round robin {players} players at tables of {size}: {len(rounds)} rounds, pairs meet {fewest}–{most}×")
    return 0
