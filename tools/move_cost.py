"""What one move costs the database, counted through the real bot: a two-player Azul game in SimCord, its moves made
by slash command and by the Play picker, every SQL statement the store's SQLite connection runs traced.

Counted per slash move, from the command to its board post: the loads of the game's state (``SELECT * FROM games``,
the one query that reads a game row), every statement and commit, and the bytes the move adds to the write-ahead log
(checkpointed to nothing before each move, so the log holds that move's pages alone). Counted per picker step (the
Play click and each select before the move is played): the loads of the game's state.

:func:`measure` gives the figures; ``python -m tools.layout`` prints them, and tests/bot/test_move_cost.py holds the
bot to its ceilings.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import statistics
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import simcord

import engine
from bot.app.computer import Computer
from bot.client import create_bot
from bot.infra.config import Config
from engine.agents import GreedyAgent

GAME_READ = "SELECT * FROM games"
REMINDERS = timedelta(hours=Config.remind_hours)
"""The bot's default reminders, which every move changes (``AZUL_REMIND_HOURS``)."""
"""How the store reads a game row, its state with it (:meth:`bot.infra.store.games.GameRecords._game`)."""


@dataclass
class Trace:
    """The statements the store ran, in order (``BEGIN`` and ``COMMIT`` among them), and its trips to aiosqlite's
    thread (each a queue put, a thread wake-up and a future resolved on the event loop; a trip runs one statement or
    several)."""

    statements: list[str] = field(default_factory=list)
    trips: int = 0

    def __call__(self, sql: str) -> None:
        self.statements.append(" ".join(sql.split()))

    @property
    def game_reads(self) -> int:
        return sum(statement.startswith(GAME_READ) for statement in self.statements)

    @property
    def commits(self) -> int:
        return sum(statement.upper() == "COMMIT" for statement in self.statements)


@contextlib.asynccontextmanager
async def traced(bot: Any) -> AsyncIterator[Trace]:
    """Every statement the bot's SQLite store runs, and every trip to its thread, while the block runs."""
    raw = bot.service.store._engine.raw  # the aiosqlite connection under the store
    trace = Trace()
    run = raw._execute

    def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trace.trips += 1
        return run(fn, *args, **kwargs)

    await raw.set_trace_callback(trace)
    raw._execute = counted
    try:
        yield trace
    finally:
        del raw._execute  # the class's own again
        await raw.set_trace_callback(None)


async def wal_bytes(bot: Any, path: str, *, truncate: bool = False) -> int:
    """The write-ahead log's size now; ``truncate`` checkpoints it into the database first, leaving it empty."""
    if truncate:
        async with bot.service.store._engine.reading() as db:
            await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0


@dataclass(frozen=True)
class MoveCost:
    """Figures of one run: per slash move and per picker step (each a list, one entry per move or step)."""

    slash_reads: list[int]
    slash_statements: list[int]
    slash_commits: list[int]
    slash_wal_bytes: list[int]
    picker_reads: list[int]
    example: list[str]
    """The statements of one slash move, in order (for a reader to see where they go)."""

    def rows(self) -> list[tuple[str, str]]:
        """Each figure with its label (the labels of :data:`BEFORE`)."""
        return [
            (READS, f"{max(self.slash_reads)}"),
            (STEP_READS, f"{max(self.picker_reads)}"),
            (STATEMENTS, f"{statistics.median(self.slash_statements):g}, {statistics.median(self.slash_commits):g}"),
            (WAL, f"{statistics.median(self.slash_wal_bytes) / 1024:.1f}"),
        ]


READS = "game-state loads per slash move"
STEP_READS = "game-state loads per picker step"
STATEMENTS = "SQL statements per slash move, and the commits among them"
WAL = "KB written to the write-ahead log per slash move"
BEFORE = {READS: "6", STEP_READS: "3", STATEMENTS: "45, 6", WAL: "40.3"}
"""The figures before a move became one call (commit 4f01364), to compare with."""


async def _open(env: Any, channel: Any, users: list[Any]) -> None:
    await users[0].slash(channel, "azul new", variant="azul", seats=2, order="joined")
    await users[1].slash(channel, "azul join")
    await users[0].slash(channel, "azul start")


def _first_pick(message: Any) -> tuple[str, str] | None:
    """The first choice of a picker step (its select's custom id and value), or None when it shows the move to
    confirm."""
    first = message.components[0]["components"][0]
    if first["type"] == 2:  # a button: the confirm step
        return None
    return first["custom_id"], first["options"][0]["value"]


async def measure(slash_moves: int = 8) -> MoveCost:
    """Play ``slash_moves`` moves by slash command and one by the picker in a fresh bot and database, counting."""
    seeds = itertools.count(20240611)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "cost.sqlite3")
        bot = create_bot(  # reminders on, as the bot runs by default: a move cancels one and sets the next
            path, seed_source=lambda: next(seeds), computer=Computer(1, {"iterations": 12}), remind_after=REMINDERS
        )
        reads: list[int] = []
        statements: list[int] = []
        commits: list[int] = []
        written: list[int] = []
        picker: list[int] = []
        example: list[str] = []
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("azul")
            users = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            await _open(env, channel, users)
            store = bot.service.store
            agent = GreedyAgent(1)

            async def to_move() -> tuple[Any, engine.Move]:
                game = await store.games.open_game_in(channel.id)
                if game is None or game.state is None:
                    raise RuntimeError("the game is not running")
                state = engine.from_json(game.state)
                seat = min(engine.to_act(state))
                user = next(u for u in users if u.id == game.by_seat()[seat].user_id)
                return user, agent.choose(engine.variant_of(state), state, seat)

            for _ in range(slash_moves):
                user, move = await to_move()
                await wal_bytes(bot, path, truncate=True)
                async with traced(bot) as trace:
                    result = await user.slash(channel, f"azul-move {move.command}", **dict(move.choices()))
                if not result.ephemeral or "Played" not in (result.response.content or ""):
                    raise RuntimeError(f"the move was refused: {result.response.content}")
                written.append(await wal_bytes(bot, path))
                reads.append(trace.game_reads)
                statements.append(len(trace.statements))
                commits.append(trace.commits)
                example = example or trace.statements
            user, _ = await to_move()
            async with traced(bot) as trace:
                step = await user.click(channel.last_message, label="Play")
            picker.append(trace.game_reads)
            while (pick := _first_pick(step.response)) is not None:
                custom_id, value = pick
                async with traced(bot) as trace:
                    step = await user.select(step.response, [value], custom_id=custom_id)
                picker.append(trace.game_reads)
        await bot.close_store()
    return MoveCost(reads, statements, commits, written, picker, example)


__all__ = ["BEFORE", "MoveCost", "Trace", "measure", "traced", "wal_bytes"]
