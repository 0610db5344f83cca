"""Games played over the wire: set them up in a database, read them back, and send their moves to a fake Discord.

Shared by the crash test, the concurrency test and ``python -m bench load``. The database is read through its own
connection (read-only for SQLite), so it can be read while bot processes write it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from bot.app.service import GameService
from bot.infra.db import is_postgres, postgres_sql
from bot.infra.store import Store
from bot.infra.store.states import unpacked
from engine.agents import GreedyAgent
from tests.bot.fake_discord import FakeDiscord

GUILD = 500
FIRST_CHANNEL = 6000
FIRST_USER = 7000
PLAYED = ("Played", "Zagrano", "Зіграно")
TAKEN_BACK = "↩ "


async def prepare_games(db: str, count: int, *, variant: str = "azul", players: int = 2, seed: int = 11) -> None:
    """``count`` started games, each in its own channel, whose first boards are not posted yet."""
    store = await Store.open(db)
    service = GameService(store, lambda: seed)
    for index in range(count):
        channel = FIRST_CHANNEL + index
        users = [FIRST_USER + players * index + n for n in range(players)]
        await service.seating.create(
            guild_id=GUILD,
            channel_id=channel,
            user_id=users[0],
            name=f"p{users[0]}",
            variant=variant,
            seats=players,
            order="joined",
        )
        for user in users[1:]:
            await service.seating.join(channel, user, f"p{user}")
        await service.seating.start(channel, users[0], is_admin=False)
    await store.close()


@dataclass(frozen=True)
class Seen:
    id: int
    channel: int
    status: str
    version: int
    board_version: int
    board_message_id: int | None
    state: engine.GameState | None
    users: list[int]  # by seat
    seed: int
    variant: str
    options: dict[str, Any]


def _query(db: str, queries: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
    """The rows of each query, read in one go (one connection) from an SQLite file or a PostgreSQL URL."""
    if is_postgres(db):
        return _pg_query(db, queries)
    connection = _read_only(db)
    try:
        return [connection.execute(sql, params).fetchall() for sql, params in queries]
    finally:
        connection.close()


def _read_only(db: str, *, check_same_thread: bool = True) -> sqlite3.Connection:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10, check_same_thread=check_same_thread)
    connection.row_factory = sqlite3.Row
    return connection


def _pg_query(db: str, queries: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
    import asyncpg

    async def fetch() -> list[list[Any]]:
        connection = await asyncpg.connect(db)
        try:
            return [list(await connection.fetch(postgres_sql(sql), *params)) for sql, params in queries]
        finally:
            await connection.close()

    # Its own thread and loop: callers may be inside a running event loop.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


Query = Callable[[list[tuple[str, tuple[Any, ...]]]], list[list[Any]]]


class Reader:
    """Reads one store's games through one connection kept open, for a player reading its game before every move: a
    new SQLite connection parses the whole schema again at its first query (most of the cost of reading one game),
    and a new PostgreSQL one starts a server process. Safe to share between threads; ``close`` it when done."""

    def __init__(self, db: str) -> None:
        self.db = db
        self._lock = threading.Lock()
        self._sqlite: sqlite3.Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # PostgreSQL's: asyncpg's connection lives in its thread
        self._thread: threading.Thread | None = None
        self._postgres: Any = None

    def query(self, queries: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
        with self._lock:
            if is_postgres(self.db):
                return asyncio.run_coroutine_threadsafe(self._fetch(queries), self._postgres_loop()).result()
            if self._sqlite is None:
                self._sqlite = _read_only(self.db, check_same_thread=False)
            return [self._sqlite.execute(sql, params).fetchall() for sql, params in queries]

    def _postgres_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="wire-reader", daemon=True)
            self._thread.start()
        return self._loop

    async def _fetch(self, queries: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
        if self._postgres is None:
            import asyncpg

            self._postgres = await asyncpg.connect(self.db)
        return [list(await self._postgres.fetch(postgres_sql(sql), *params)) for sql, params in queries]

    def game_in(self, channel: int) -> Seen:
        return _game_in(self.query, channel)

    def close(self) -> None:
        with self._lock:
            if self._sqlite is not None:
                self._sqlite.close()
                self._sqlite = None
            if self._loop is not None and self._thread is not None:
                if self._postgres is not None:
                    asyncio.run_coroutine_threadsafe(self._postgres.close(), self._loop).result()
                    self._postgres = None
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join()
                self._loop.close()
                self._loop = self._thread = None


def read_games(db: str) -> list[Seen]:
    return _read_seen(functools.partial(_query, db), "", ())


def _read_seen(query: Query, where: str, params: tuple[Any, ...]) -> list[Seen]:
    """The games the condition ``where`` (SQL after ``WHERE``, or none) picks, in id order, with their seated users."""
    picked = f" WHERE {where}" if where else ""
    (games, seats) = query(
        [
            (f"SELECT * FROM games{picked} ORDER BY id", params),
            (
                "SELECT game_id, user_id FROM seats WHERE seat IS NOT NULL"
                f" AND game_id IN (SELECT id FROM games{picked}) ORDER BY game_id, seat",
                params,
            ),
        ],
    )
    users: dict[int, list[int]] = {}
    for row in seats:
        users.setdefault(row[0], []).append(row[1])
    return [_seen(game, users.get(game["id"], [])) for game in games]


def _seen(game: Any, users: list[int]) -> Seen:
    return Seen(
        game["id"],
        game["channel_id"],
        game["status"],
        game["version"],
        game["board_version"],
        game["board_message_id"],
        engine.from_json(unpacked(game["state"])) if game["state"] else None,
        users,
        game["seed"],
        game["variant"],
        json.loads(game["options"]),
    )


def moves_of(db: str, game_id: int) -> list[tuple[int, str, int | None]]:
    (rows,) = _query(
        db, [("SELECT seat, notation, interaction_id FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
    )
    return [(row[0], row[1], row[2]) for row in rows]


def undone_of(db: str, game_id: int) -> list[tuple[int | None, int | None]]:
    """Moves taken back: the interaction of each move and of the undo that took it back."""
    (rows,) = _query(
        db,
        [
            (
                "SELECT move_interaction_id, interaction_id FROM undone_moves WHERE game_id = ? ORDER BY version",
                (game_id,),
            )
        ],
    )
    return [(row[0], row[1]) for row in rows]


def game_in(db: str, channel: int) -> Seen:
    """The game being played (or just over) in ``channel``; only that game is read."""
    return _game_in(functools.partial(_query, db), channel)


def _game_in(query: Query, channel: int) -> Seen:
    return next(iter(_read_seen(query, "channel_id = ? AND status IN ('active', 'over')", (channel,))))


AGENT = GreedyAgent(5)


def moves_now(game: Seen) -> list[tuple[int, engine.Move]]:
    """For each player who may act now: their user id and the move the greedy agent picks for them."""
    if game.state is None or game.status != "active":
        return []
    state = game.state
    return [
        (game.users[seat], AGENT.choose(engine.variant_of(state), state, seat)) for seat in sorted(engine.to_act(state))
    ]


async def send_move(
    server: FakeDiscord, game: Seen, user: int, move: engine.Move, *, interaction_id: str | None = None
) -> str:
    return await server.slash(
        guild_id=GUILD,
        channel_id=game.channel,
        user_id=user,
        command="azul-move",
        sub=move.command,
        options=dict(move.choices()),
        locale="en-US",
        interaction_id=interaction_id,
    )


async def send_undo(server: FakeDiscord, game: Seen, user: int) -> str:
    return await server.slash(
        guild_id=GUILD, channel_id=game.channel, user_id=user, command="azul", sub="undo", locale="en-US"
    )


async def answer(server: FakeDiscord, interaction_id: str, timeout: float) -> str | None:
    """The bot's final text for an interaction (None when it gave none in time)."""
    found = server.answers[interaction_id]
    try:
        await asyncio.wait_for(found.done.wait(), timeout)
    except TimeoutError:
        return None
    return found.texts[-1]


def played(text: str | None) -> bool:
    return text is not None and text.startswith(PLAYED)


def took_back(text: str | None) -> bool:
    return text is not None and text.startswith(TAKEN_BACK)


class Logged(logging.Handler):
    """An event set when a record of ``logger`` says ``words`` (the bot runs in this process and loop)."""

    def __init__(self, logger: str, words: str) -> None:
        super().__init__()
        self.logger, self.words, self.event = logging.getLogger(logger), words, asyncio.Event()
        self.level = self.logger.level

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.event.set()

    def __enter__(self) -> asyncio.Event:
        self.logger.addHandler(self)
        self.logger.setLevel(min(self.logger.getEffectiveLevel(), logging.INFO))
        return self.event

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self)
        self.logger.setLevel(self.level)


HANDLERS = ("CommandTree-invoker", "discord-ui-view-dispatch")  # discord.py's task names for a command, a click


async def handled(timeout: float) -> None:
    """Wait until the bot in this process has finished every command and click it is handling (discord.py runs each
    in a task of its own): whatever it answers, it has answered."""
    running = [task for task in asyncio.all_tasks() if task.get_name().startswith(HANDLERS)]
    await asyncio.wait_for(asyncio.gather(*running, return_exceptions=True), timeout)
