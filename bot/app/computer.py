"""Computer players for the bot: the search runs in a pool of worker processes (:mod:`bot.infra.pools`), never in the
bot's process.

Pure-Python search holds the GIL, so a thread would stall the event loop and every other game; a process pool keeps
the bot responsive, and its size (``AZUL_AI_WORKERS``) bounds how many searches run at once. Workers receive the game
state as JSON and return the move's notation, so nothing but plain data crosses the process boundary.

Computer turns and hints share the pool fairly: each search waits in its game's queue (first in, first out), the
games of one creator take turns (round robin), and so do the creators, so a game never waits behind another game's
queue, however long, nor a member's game behind the 25 games another member opened (:class:`bot.infra.pools.FairQueue`).
A computer move's budget is the game's thinking time in CPU seconds.

Easy and medium moves cost milliseconds: they have a worker process and a fair queue of their own (the quick lane),
so a table with an easy computer never waits behind the hard searches of other tables, however many.

A move is reproducible: the agent's seed comes from the game's seed, its version and the seat, and the levels derive
their randomness from the seed and the position, so a search interrupted by a restart plays the same move again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import engine
from bot.infra.pools import WorkerPool

LEVELS = ("easy", "medium", "hard")
"""The levels people choose from, weakest first (the engine's agents of the same names)."""
STRONGEST = LEVELS[-1]
THINKING_SECONDS = (1, 5, 30)
"""How long a game's computer players may think per move (CPU seconds), its creator's or its server's choice: an
asynchronous game leaves them minutes, and more time makes the hard level stronger."""
DEFAULT_THINKING = THINKING_SECONDS[0]
QUICK_LEVELS = frozenset({"easy", "medium"})
"""Levels that do a small fixed amount of work (milliseconds): they go to the quick lane, not behind searches."""
SEED_MASK = (1 << 62) - 1
WALL_CAP = 10.0
"""How many times its thinking time a search may take in wall-clock time (:data:`engine.agents.WALL_CAP`, which a
test holds equal: the agents, the search, load only in the worker processes)."""


def longest_search(level: str, thinking: float) -> timedelta:
    """The longest a move of ``level`` may take, ``thinking`` CPU seconds being its game's thinking time: a search
    that cannot get its CPU plays its best move at :data:`engine.agents.WALL_CAP` times that in wall-clock time; the
    quick levels take milliseconds."""
    return timedelta(0) if level in QUICK_LEVELS else timedelta(seconds=WALL_CAP * thinking)


def move_seed(game_seed: int, version: int, seat: int) -> int:
    """The agent's seed for one move: fixed by the game, the ply and the seat."""
    return (game_seed ^ (version * 0x9E3779B97F4A7C15) ^ (seat << 56)) & SEED_MASK


def choose_in_worker(state: dict[str, Any], seat: int, level: str, seed: int, budget: Mapping[str, Any]) -> str:
    """Runs in a worker process: the notation of the move ``level`` plays for ``seat``."""
    from engine.agents import make_agent  # noqa: PLC0415 - the search loads in the worker, not at start-up

    game_state = engine.from_json(state)
    agent = make_agent(level, seed, **budget)
    return str(agent.choose(engine.variant_of(game_state), game_state, seat))


def hint_in_worker(
    state: dict[str, Any], seat: int, seed: int, budget: Mapping[str, Any]
) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """Runs in a worker process: the move the strongest level would play for ``seat``, and why (catalogue keys
    ``hint.<key>`` with their parameters)."""
    from engine.agents import hint  # noqa: PLC0415 - the search loads in the worker, not at start-up

    game_state = engine.from_json(state)
    move, reasons = hint(engine.variant_of(game_state), game_state, seat, seed, **budget)
    return str(move), [(reason.key, dict(reason.params)) for reason in reasons]


class Computer:
    """The pool of search processes (``pool``: hard moves and hints) and the quick lane (``quick``: one process for
    easy and medium moves), each with a fair queue. ``budget`` (``seconds`` or ``iterations``) overrides the levels'
    defaults: tests and benchmarks pass a number of iterations, so every move is deterministic and quick."""

    def __init__(self, workers: int = 1, budget: Mapping[str, Any] | None = None) -> None:
        if workers < 1:
            raise ValueError("the computer needs at least one worker process")
        self.budget = dict(budget or {})
        self.pool = WorkerPool("search", workers, fair=True)
        self.quick = WorkerPool("quick", 1, fair=True)

    def start(self) -> None:
        self.pool.start()
        self.quick.start()

    def budget_for(self, seconds: float | None) -> dict[str, Any]:
        """A search's budget: ``seconds`` of CPU time (the game's thinking time; None: the level's default), with
        the computer's own budget on top (an ``iterations`` cap makes tests and benchmarks repeatable)."""
        return ({} if seconds is None else {"seconds": seconds}) | self.budget

    async def choose(
        self,
        state: engine.GameState,
        seat: int,
        level: str,
        seed: int,
        *,
        game: int | None = None,
        creator: int | None = None,
        seconds: float | None = None,
    ) -> engine.Move:
        """The move the computer at ``level`` plays for ``seat``, searched in ``game``'s turn (among the games of
        its ``creator``), thinking for ``seconds`` of CPU time (the hard level; the others do a fixed amount of work,
        in the quick lane)."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        budget = self.budget_for(seconds)
        args = (engine.to_json(state), seat, level, seed, budget)
        pool = self.quick if level in QUICK_LEVELS else self.pool
        notation = await pool.run(choose_in_worker, *args, owner=game, group=creator)
        return engine.variant_of(state).parse_move(notation)

    async def hint(
        self, state: engine.GameState, seat: int, seed: int, *, game: int | None = None, creator: int | None = None
    ) -> tuple[engine.Move, list[tuple[str, dict[str, Any]]]]:
        """The strongest level's move for ``seat`` and its reasons, searched in the pool in ``game``'s turn (among
        its ``creator``'s games) at the default budget (a person is waiting for it)."""
        budget = self.budget_for(None)
        args = (engine.to_json(state), seat, seed, budget)
        notation, reasons = await self.pool.run(hint_in_worker, *args, owner=game, group=creator)
        return engine.variant_of(state).parse_move(notation), reasons

    async def close(self) -> None:
        """Stop the workers: moves not started are dropped (a restart resumes them), running ones end first."""
        await asyncio.gather(self.pool.close(), self.quick.close())


__all__ = [
    "DEFAULT_THINKING",
    "LEVELS",
    "QUICK_LEVELS",
    "STRONGEST",
    "THINKING_SECONDS",
    "Computer",
    "choose_in_worker",
    "hint_in_worker",
    "longest_search",
    "move_seed",
]
