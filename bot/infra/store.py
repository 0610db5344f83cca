"""All SQL of the bot: games, seats, the append-only move log and user preferences, in SQLite or PostgreSQL.

By default the database is one SQLite file, in WAL mode with foreign keys on; ``AZUL_DB=postgresql://…`` puts it in
PostgreSQL instead, shared by several bot processes. Each query is written once, in SQL both engines run, with
``?`` placeholders; :mod:`bot.infra.db` holds the few differences (placeholders, row locks, column types). The schema
is a
list of numbered migrations applied in order. Writes go through :meth:`Store.transaction`: on SQLite one at a time
on the one connection (reads wait for them), on PostgreSQL one pooled connection each, with the rows they read
before writing locked (``FOR UPDATE``). Either way a move is one atomic step: append to ``moves`` and bump
``games.version`` only if it is unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.infra.config import redacted_url
from bot.infra.db import Connection, PostgresPool, Row, SqliteFile, is_postgres

OPEN_STATUSES = ("lobby", "active")
PICKERS_KEPT_VERSIONS = 8
# Less free space than this next to the database, and an I/O error at start-up is called a full disk.
FULL_DISK_BYTES = 1 << 20

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        creator_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        max_seats INTEGER NOT NULL,
        seat_order TEXT NOT NULL DEFAULT 'random' CHECK (seat_order IN ('random', 'joined')),
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'aborted')),
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        result TEXT,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        created_at TEXT NOT NULL,
        turn_since TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined INTEGER NOT NULL,
        seat INTEGER,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, seat)
    );
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        created_at TEXT NOT NULL,
        interaction_id INTEGER UNIQUE,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        notify_dm INTEGER NOT NULL DEFAULT 0,
        dm_closed_told INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 2: remember each user's Discord locale, so direct messages speak their language.
    """
    ALTER TABLE users ADD COLUMN locale TEXT;
    """,
    # 3: reminders: the version of the game at which its waiting players were last reminded (unused since 5).
    """
    ALTER TABLE games ADD COLUMN reminded_version INTEGER NOT NULL DEFAULT -1;
    """,
    # 4: the steps of Play pickers, so a half-made choice survives a restart (rows of older versions are dropped).
    """
    CREATE TABLE pickers (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        command TEXT,
        chosen TEXT NOT NULL DEFAULT '{}',
        option TEXT NOT NULL
    );
    CREATE INDEX pickers_by_game ON pickers (game_id, version);
    """,
    # 5: who controls a seat. A computer seat has a level and no Discord user; a person's seat with a level is
    # played by the computer at that level for them (a stand-in) until they take it back. SQLite cannot loosen a
    # primary key in place, so the table is rebuilt with the same rows.
    """
    CREATE TABLE seats_new (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER,
        name TEXT NOT NULL,
        joined INTEGER NOT NULL,
        seat INTEGER,
        level TEXT CHECK (level IN ('easy', 'medium', 'hard')),
        CHECK (user_id IS NOT NULL OR level IS NOT NULL),
        UNIQUE (game_id, user_id),
        UNIQUE (game_id, seat),
        UNIQUE (game_id, joined)
    );
    INSERT INTO seats_new (game_id, user_id, name, joined, seat)
        SELECT game_id, user_id, name, joined, seat FROM seats ORDER BY game_id, joined;
    DROP TABLE seats;
    ALTER TABLE seats_new RENAME TO seats;
    """,
    # 6: the creator's choice whether /azul hint may be used in the game (off unless chosen at /azul new).
    """
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: the version of each game whose board is posted, so a board lost to a crash or a failed post is posted
    # again (games that already have a board message count as posted).
    """
    ALTER TABLE games ADD COLUMN board_version INTEGER NOT NULL DEFAULT -1;
    UPDATE games SET board_version = version WHERE board_message_id IS NOT NULL;
    """,
    # 8: timers: every reminder and deadline is a row with its due time, run by the bot's timer loop, so none lives
    # only in memory. ``version`` is the game's version when the seat began to wait: a timer is never doubled.
    """
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        seat INTEGER NOT NULL,
        version INTEGER NOT NULL,
        due_at TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'cancelled')),
        done_at TEXT,
        UNIQUE (game_id, kind, seat, version)
    );
    CREATE INDEX timers_pending ON timers (due_at) WHERE state = 'pending';
    """,
    # 9: reminders each person controls: on or off, how often (0: once per turn), quiet hours in their time zone.
    """
    ALTER TABLE users ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE users ADD COLUMN remind_every_hours INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN quiet_start INTEGER;
    ALTER TABLE users ADD COLUMN quiet_end INTEGER;
    ALTER TABLE users ADD COLUMN timezone TEXT;
    """,
    # 10: vacations: until when a person is away (their reminders wait; their games do not time out).
    """
    ALTER TABLE users ADD COLUMN away_until TEXT;
    """,
    # 11: whether a player's Play picker plays a move at its last choice (quick play) or asks to confirm it first.
    """
    ALTER TABLE users ADD COLUMN quick_play INTEGER NOT NULL DEFAULT 0;
    """,
    # 12: results, ratings and their history. ``games.rated`` is the creator's choice (NULL: rated when every seat
    # is human). A result is written once per finished game, with one row per seat and the outcome of each seat;
    # ratings and their history are derived from the results in ``results.id`` order and can be rebuilt from them.
    """
    ALTER TABLE games ADD COLUMN rated INTEGER;
    CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
        family TEXT NOT NULL,
        variant TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_by_channel ON results (channel_id, id);
    CREATE INDEX results_by_guild ON results (guild_id, id);
    CREATE TABLE result_seats (
        result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        score INTEGER NOT NULL,
        place INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('played', 'resigned', 'timed_out', 'dropped')),
        computer INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0,
        think_seconds REAL NOT NULL DEFAULT 0,
        CHECK (user_id IS NOT NULL OR computer = 1),
        PRIMARY KEY (result_id, seat)
    );
    CREATE INDEX result_seats_by_user ON result_seats (user_id, result_id);
    CREATE TABLE ratings (
        family TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (family, user_id)
    );
    CREATE TABLE rating_history (
        result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        family TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (result_id, user_id)
    );
    CREATE INDEX rating_history_by_user ON rating_history (user_id, family, result_id);
    """,
    # 13: time limits per move. A game's limit in hours (0: none) and what happens when it runs out (the computer
    # plays the move, or the player is dropped); per seat the timeouts in a row (a person's own move resets it) and
    # whether the player was dropped (ranked last, the computer plays the rest); a server's defaults for new games.
    """
    ALTER TABLE games ADD COLUMN time_limit_hours INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer' CHECK (on_timeout IN ('computer', 'drop'));
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE servers (
        guild_id INTEGER PRIMARY KEY,
        time_limit_hours INTEGER NOT NULL DEFAULT 0,
        on_timeout TEXT NOT NULL DEFAULT 'computer' CHECK (on_timeout IN ('computer', 'drop'))
    );
    """,
    # 14: taking a move back. ``games.undo``: the creator's choice whether players may (on unless switched off).
    # ``moves.cause``: why the computer made a move (NULL: a person made it), since nobody takes back the computer's.
    # An undone move leaves the log (which must replay to the snapshot) for ``undone_moves``, with the version at
    # which it was taken back (the game's version still moves forward, so old buttons and timers stay stale) and
    # both interactions, so neither the move nor the undo is ever applied twice.
    """
    ALTER TABLE games ADD COLUMN undo INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE moves ADD COLUMN cause TEXT;
    CREATE TABLE undone_moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        played_at TEXT NOT NULL,
        move_interaction_id INTEGER UNIQUE,
        undone_at TEXT NOT NULL,
        interaction_id INTEGER UNIQUE,
        PRIMARY KEY (game_id, version)
    );
    """,
    # 15: several bot processes on one database. A due timer is leased to one of them (``claimed_until``) while it
    # runs; other background work (posting a missing board, a computer's turn) is a row in ``claims`` held by one
    # process until it is done or its lease runs out, so the work is taken over when that process dies.
    """
    ALTER TABLE timers ADD COLUMN claimed_until TEXT;
    CREATE TABLE claims (
        work TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        until TEXT NOT NULL
    );
    """,
    # 16: the fingerprint of the command tree last synced to Discord, per scope ("global" or a
    # test server's id), so every bot process syncs only when the tree changed (creates are rate-limited per day).
    """
    CREATE TABLE synced_commands (
        scope TEXT PRIMARY KEY,
        payload_hash TEXT NOT NULL,
        synced_at TEXT NOT NULL
    );
    """,
    # 17: leagues. A league (its settings, status and current round), its players (in until
    # they withdraw or are dropped), its rounds (each a row with the time it starts: the round's timer, claimed in
    # ``claims`` while it opens) and its tables (the players of each, the thread and game opened for it, and the
    # result once the game is over; a bye is a table of one). Tables name their league and round, so a game knows.
    """
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        creator_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('swiss', 'round_robin')),
        table_size INTEGER NOT NULL CHECK (table_size BETWEEN 2 AND 4),
        rounds INTEGER NOT NULL,
        time_limit_hours INTEGER NOT NULL,
        on_timeout TEXT NOT NULL CHECK (on_timeout IN ('computer', 'drop')),
        rated INTEGER NOT NULL,
        leftover TEXT NOT NULL CHECK (leftover IN ('bye', 'computer')),
        signup_closes TEXT NOT NULL,
        round_days INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'paused', 'over')),
        round INTEGER NOT NULL DEFAULT 0,
        signup_message_id INTEGER,
        standings_message_id INTEGER,
        created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_league_name_per_server ON leagues (guild_id, name) WHERE status <> 'over';
    CREATE TABLE league_players (
        league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'withdrew', 'dropped')),
        PRIMARY KEY (league_id, user_id)
    );
    CREATE TABLE league_rounds (
        league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        due_at TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'open', 'over')),
        PRIMARY KEY (league_id, round)
    );
    CREATE INDEX league_rounds_due ON league_rounds (due_at) WHERE state = 'pending';
    CREATE TABLE league_tables (
        id INTEGER PRIMARY KEY,
        league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        players TEXT NOT NULL,
        bye INTEGER NOT NULL DEFAULT 0,
        channel_id INTEGER,
        game_id INTEGER UNIQUE REFERENCES games (id) ON DELETE SET NULL,
        result TEXT,
        UNIQUE (league_id, round, number)
    );
    """,
    # 18: fair play. ``moves.waited_since``: the game's ``turn_since`` before the move, so
    # taking it back restores when the turn began (undo never buys time). A server's caps on open games per member
    # and per server (NULL: the bot's defaults).
    """
    ALTER TABLE moves ADD COLUMN waited_since TEXT;
    ALTER TABLE servers ADD COLUMN member_games INTEGER;
    ALTER TABLE servers ADD COLUMN server_games INTEGER;
    """,
    # 19: games that keep going. A seat whose player resigned is dropped (the computer plays
    # it to the end) and marked ``resigned``, so the final standings put that player last. ``nudges``: when each
    # seated player last nudged the awaited players of a game (once per 12 hours). A game opened with ``thread``
    # moves into a thread of its channel when it starts: ``channel_id`` becomes the thread's and
    # ``lobby_channel_id`` keeps the channel of its lobby message; ``servers.threads`` is a server's default.
    """
    ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE servers ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN lobby_channel_id INTEGER;
    CREATE TABLE nudges (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 20: thinking time. ``games.thinking``: the CPU seconds a computer may search per move in this game (1, 5 or
    # 30); ``servers.thinking``: a server's default for new games (NULL: the bot's, one second).
    """
    ALTER TABLE games ADD COLUMN thinking INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE servers ADD COLUMN thinking INTEGER;
    """,
    # 21: a game whose stored state cannot be read is quarantined: ``broken`` holds why, and
    # every sweep, timer and listing skips it; its creator or an admin may still abort or export it.
    """
    ALTER TABLE games ADD COLUMN broken TEXT;
    """,
    # 22 (renumbered at merge): ``timers.leased_by``: the process (``identity#generation``) whose lease holds a
    # timer (``claimed_until``, or a deadline's ``due_at`` moved on by its lease); a restarted process takes its own
    # back at once, as it does its claims.
    """
    ALTER TABLE timers ADD COLUMN leased_by TEXT;
    """,
)


async def _forget_in_leagues(db: Any, user_id: int, shown_as: str) -> bool:
    """Anonymise ``user_id`` in the leagues they played (their standings row and their tables keep their place under a
    number of their own); False, changing nothing, while they are still in a league that goes on."""
    async with db.execute(
        "SELECT COUNT(*) FROM league_players p JOIN leagues l ON l.id = p.league_id"
        " WHERE p.user_id = ? AND p.status = 'in' AND l.status <> 'over'",
        (user_id,),
    ) as cursor:
        row = await cursor.fetchone()
    if row is not None and row[0]:
        return False
    async with db.execute("SELECT league_id, joined FROM league_players WHERE user_id = ?", (user_id,)) as cursor:
        memberships = list(await cursor.fetchall())
    for league_id, joined in memberships:
        anonymous = -(league_id * 1000 + joined + 1)
        await db.execute(
            "UPDATE league_players SET user_id = ?, name = ? WHERE league_id = ? AND user_id = ?",
            (anonymous, shown_as, league_id, user_id),
        )
        async with db.execute("SELECT id, players FROM league_tables WHERE league_id = ?", (league_id,)) as cursor:
            tables = list(await cursor.fetchall())
        for table_id, players in tables:
            seated = json.loads(players)
            if user_id in seated:
                renamed = [anonymous if player == user_id else player for player in seated]
                await db.execute("UPDATE league_tables SET players = ? WHERE id = ?", (json.dumps(renamed), table_id))
    await db.execute("UPDATE leagues SET creator_id = 0 WHERE creator_id = ?", (user_id,))
    return True


_BY_INTERACTION = (
    "SELECT (SELECT COUNT(*) FROM moves WHERE interaction_id = ?)"
    " + (SELECT COUNT(*) FROM undone_moves WHERE move_interaction_id = ?)"
    " + (SELECT COUNT(*) FROM undone_moves WHERE interaction_id = ?)"
)
"""How many moves and undos an interaction made: a redelivered interaction must never act twice."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a person's (``user_id``) or a computer's (no user). ``level`` is set when the computer
    plays the seat: always for a computer seat, and for a person's seat handed to the computer."""

    user_id: int | None
    name: str
    joined: int
    seat: int | None
    level: str | None = None
    timeouts: int = 0  # the player's time ran out this many times in a row
    dropped: bool = False  # dropped (time ran out, or resigned): ranked last, the computer plays the rest
    resigned: bool = False  # the player resigned (a dropped seat): ranked after everyone

    @property
    def is_computer(self) -> bool:
        """A computer's own seat (no person behind it)."""
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        """The computer moves for this seat now (its own seat, or a person's handed to it)."""
        return self.level is not None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    creator_id: int
    variant: str
    options: dict[str, Any]
    seed: int
    max_seats: int
    seat_order: str
    status: str
    version: int
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    lobby_message_id: int | None
    board_message_id: int | None
    created_at: str
    turn_since: str
    seats: tuple[Seat, ...]
    hints: bool = False
    board_version: int = -1
    rated: bool | None = None  # None: rated when every seat is a person's
    time_limit_hours: int = 0  # per move; 0: no limit
    on_timeout: str = "computer"  # when the limit runs out: the computer plays the move, or "drop" the player
    undo: bool = True  # players may take back their last move (the creator's choice)
    thread: bool = False  # played in a thread of its own, opened when it starts
    lobby_channel_id: int | None = None  # the channel of the lobby message, once the game moved to its thread
    thinking: int = 1  # CPU seconds a computer seat (or a stand-in) may search per move
    broken: str | None = None  # why its stored state cannot be read (quarantined), None for a sound game

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """The engine seat of ``user_id`` (None when not seated or the game has not started)."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def has_player(self, user_id: int) -> bool:
        return any(s.user_id == user_id for s in self.seats)

    def people(self) -> list[Seat]:
        """The seats of people (in joining order), whoever plays them now."""
        return [s for s in self.seats if not s.is_computer]

    def computer_seats(self) -> list[int]:
        """Engine seats the computer plays now (its own and stand-ins), in seat order."""
        return sorted(s.seat for s in self.seats if s.computer_plays and s.seat is not None)

    def dropped_seats(self) -> list[int]:
        """Engine seats whose players were dropped: for running out of time, or because they resigned."""
        return sorted(s.seat for s in self.seats if s.dropped and s.seat is not None)

    def resigned_seats(self) -> list[int]:
        """Engine seats whose players resigned while the others played on."""
        return sorted(s.seat for s in self.seats if s.resigned and s.seat is not None)

    def by_seat(self) -> list[Seat]:
        """Seated players in engine seat order (started games only)."""
        return sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat or 0)


@dataclass(frozen=True, slots=True)
class PickerRow:
    """One step of a Play picker: what ``user_id`` chose so far, and which ``option`` the step asks for."""

    id: int
    game_id: int
    version: int
    user_id: int
    command: str | None
    chosen: dict[str, str]
    option: str


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One move of the log: made at version ``ply`` by ``seat``; ``cause`` says why the computer made it (empty for
    a person's move)."""

    ply: int
    seat: int
    notation: str
    cause: str = ""


@dataclass(frozen=True, slots=True)
class UndoneRow:
    """A move taken back at version ``version`` (the board posted then shows version ``version + 1``)."""

    version: int
    ply: int
    seat: int
    notation: str


OUTCOMES = ("played", "resigned", "timed_out", "dropped")
Skill = tuple[float, float]  # a rating: (mu, sigma)


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """One seat of a finished game. ``place`` 1 is first (ties share a place); ``outcome`` says whether the player
    played to the end or left (resigned, timed out, dropped): a player who left is placed after all who stayed."""

    seat: int
    user_id: int | None  # None: a computer's own seat
    name: str
    score: int
    place: int
    outcome: str = "played"
    computer: bool = False
    moves: int = 0
    think_seconds: float = 0.0

    @property
    def left(self) -> bool:
        return self.outcome != "played"

    @property
    def won(self) -> bool:
        return self.place == 1 and not self.left


@dataclass(frozen=True, slots=True)
class ResultRow:
    id: int  # 0 until stored; ratings follow the order of ids
    game_id: int
    family: str
    variant: str
    guild_id: int | None
    channel_id: int
    rated: bool
    finished_at: str
    seats: tuple[ResultSeat, ...]


RateFn = Callable[[ResultRow, Mapping[int, Skill]], dict[int, Skill]]
"""Ratings after a result, from the ratings before it (of the users that have one): see :mod:`bot.app.ratings`."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    family: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """Everything a profile shows that is not a rating, from the result rows (rated and casual games)."""

    games: int
    wins: int
    average_score: float | None
    favourite_variant: str | None
    moves: int
    think_seconds: float
    recent: tuple[bool, ...]  # won?, newest first (for the current streak)


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A reminder or deadline of one seat (``seat`` -1: the whole table), due at ``due_at`` (ISO time, UTC)."""

    id: int
    game_id: int
    kind: str
    seat: int
    version: int
    due_at: str
    payload: dict[str, Any]
    state: str


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    notify_dm: bool
    dm_closed_told: bool
    locale: str | None = None
    reminders: bool = True
    remind_every_hours: int = 0  # 0: once per turn
    quiet_start: int | None = None  # an hour of the day in ``timezone``; quiet until ``quiet_end``
    quiet_end: int | None = None
    timezone: str | None = None  # an IANA zone; None: UTC
    away_until: str | None = None  # ISO time (UTC); away while it is in the future

    REMINDER_FIELDS = ("reminders", "remind_every_hours", "quiet_start", "quiet_end", "timezone")


class Conflict(Exception):
    """A write lost a race (the game moved on) or repeated an interaction that was already applied."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "version" or "duplicate"


class StoreOpenError(Exception):
    """The database cannot be used at start-up; the message is one line: which file, what is wrong, what to do."""


def _newer_schema(where: str, current: int) -> None:
    raise StoreOpenError(
        f"the database {where} has schema {current}, newer than this bot knows ({len(MIGRATIONS)}): it was"
        " written by a newer version of the bot; run that version, or restore a backup made for this one"
    )


def private_file(path: str) -> None:
    """Create the SQLite file readable by its owner only (it holds people's ids, names, time zones and vacations),
    or make an existing one so. SQLite gives its ``-wal`` and ``-shm`` files the database's mode. A file that cannot
    be created or changed here is left to SQLite, whose error says why."""
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(OSError):
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)


def explain_open_error(path: str, error: sqlite3.Error) -> str:
    """One line for an SQLite error met while opening ``path``, by SQLite's error code."""
    code = getattr(error, "sqlite_errorname", "") or ""
    said = f"({code or type(error).__name__}: {error})"
    folder = Path(path).parent
    disk = None
    if code == "SQLITE_FULL" or code.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_READONLY")):
        with contextlib.suppress(OSError):
            disk = os.statvfs(folder)  # SQLite often names the symptom (no shared memory), not the cause
    if disk is not None and disk.f_flag & os.ST_RDONLY:
        return (
            f"the database {path} is on a read-only filesystem {said}: mount {folder} read-write (in Docker: a"
            " writable volume on /data) or set AZUL_DB to a writable place"
        )
    if disk is not None and disk.f_bavail * disk.f_frsize < FULL_DISK_BYTES:
        return f"the disk holding the database {path} is full {said}: free some space in {folder} and start again"
    if code == "SQLITE_NOTADB":
        return (
            f"{path} is not an SQLite database {said}: point AZUL_DB at the bot's database, or move this file away"
            " (or restore a backup) to start afresh"
        )
    if code.startswith("SQLITE_CORRUPT"):
        return (
            f'the database {path} is damaged, perhaps truncated {said}: restore a backup (README, "Backups"), or'
            f" salvage it with `sqlite3 {path} .recover | sqlite3 recovered.sqlite3` (the image has sqlite3), point"
            " AZUL_DB there and check it with `python -m bot backup PATH`"
        )
    if code.startswith("SQLITE_BUSY") or code.startswith("SQLITE_LOCKED"):
        return (
            f"the database {path} is locked by another process {said}: is another copy of the bot running on the"
            " same file? Stop it (or the program holding the file) and start again"
        )
    if code.startswith("SQLITE_READONLY"):
        return (
            f"the database {path} cannot be written {said}: its filesystem or file is read-only; mount it"
            " read-write, give the bot's user write access to the file and its folder, or set AZUL_DB elsewhere"
        )
    if code == "SQLITE_FULL":
        return f"the disk holding the database {path} is full {said}: free some space and start again"
    if code.startswith("SQLITE_CANTOPEN"):
        return (
            f"the database {path} cannot be opened {said}: check that its folder exists, is writable by the bot's"
            " user and is not on a read-only filesystem, or set AZUL_DB elsewhere"
        )
    if code.startswith("SQLITE_IOERR"):
        return f"reading or writing the database {path} failed {said}: check the disk (full? failing? read-only?)"
    return f"the database {path} cannot be used {said}: check the file, or set AZUL_DB to another one"


class Store:
    """The bot's database, SQLite or PostgreSQL; open with :meth:`open` and close with :meth:`close`."""

    def __init__(self, engine: SqliteFile | PostgresPool) -> None:
        self._engine = engine

    @property
    def is_postgres(self) -> bool:
        return isinstance(self._engine, PostgresPool)

    @classmethod
    async def open(cls, path: str) -> Store:
        """Open (and migrate) the database, an SQLite file or a ``postgresql://`` URL; any fault is a
        :class:`StoreOpenError` and leaves no thread or connection behind."""
        if is_postgres(path):
            return await cls._open_postgres(path)
        if path != ":memory:" and not Path(path).parent.is_dir():
            raise StoreOpenError(
                f"the folder of the database {path} does not exist: create {Path(path).parent} or set AZUL_DB"
                " to a file in an existing folder"
            )
        private_file(path)
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as error:
            # aiosqlite stops its thread but does not wait for it: wait here, or it reports to a closed loop.
            await asyncio.to_thread(connecting._thread.join, 5)
            raise StoreOpenError(explain_open_error(path, error)) from error
        try:
            db.row_factory = aiosqlite.Row
            # busy_timeout first: switching to WAL already waits for another process's lock. synchronous = FULL: in
            # WAL mode NORMAL may lose the last commits on a power cut, and a move the player was told is saved
            # must survive one; the cost is one fsync per commit, far below a Discord round trip.
            for pragma in ("busy_timeout = 5000", "journal_mode = WAL", "foreign_keys = ON", "synchronous = FULL"):
                async with db.execute(f"PRAGMA {pragma}"):
                    pass
            engine = SqliteFile(db, path)
            await engine.migrate(MIGRATIONS, newer=lambda current: _newer_schema(path, current))
            await engine.probe_write()
        except BaseException as error:
            # aiosqlite's worker thread keeps the process alive until the connection is closed.
            with contextlib.suppress(Exception):
                await db.close()
            if isinstance(error, sqlite3.Error):
                raise StoreOpenError(explain_open_error(path, error)) from error
            raise
        return cls(engine)

    @classmethod
    async def _open_postgres(cls, url: str) -> Store:
        shown = redacted_url(url)
        try:
            engine = await PostgresPool.open(url)
        except (OSError, TimeoutError) as error:
            raise StoreOpenError(
                f"cannot reach the PostgreSQL server of {shown} ({type(error).__name__}: {error}): is it running,"
                " and are host and port right?"
            ) from error
        except Exception as error:  # asyncpg's errors: wrong password, no such database, …
            raise StoreOpenError(
                f"cannot use the PostgreSQL database {shown} ({type(error).__name__}: {error})"
            ) from error
        try:
            await engine.migrate(MIGRATIONS, newer=lambda current: _newer_schema(shown, current))
        except BaseException:
            with contextlib.suppress(Exception):
                await engine.close()
            raise
        return cls(engine)

    async def close(self) -> None:
        await self._engine.close()

    def lost(self) -> str | None:
        """For SQLite: why the file opened is no longer the database (deleted, replaced), else None."""
        return self._engine.check_file() if isinstance(self._engine, SqliteFile) else None

    async def schema_version(self) -> int:
        return await self._engine.schema_version()

    async def pragma(self, name: str) -> Any:
        """An SQLite setting (tests check WAL and foreign keys); PostgreSQL has none."""
        if not isinstance(self._engine, SqliteFile):
            raise TypeError("PRAGMA is SQLite's")
        return await self._engine.pragma(name)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A write transaction, rolled back on any error (see the module's docstring)."""
        return self._engine.transaction()

    async def copy_into(self, target: Store) -> dict[str, int]:
        """Copy every row of this SQLite database into ``target``, an empty PostgreSQL database with the same schema
        (both opened, so both migrated), in one transaction; returns the rows copied per table."""
        if not isinstance(self._engine, SqliteFile) or not isinstance(target._engine, PostgresPool):
            raise TypeError("copies an SQLite database into PostgreSQL")
        tables = await self._engine.tables()
        copied: dict[str, int] = {}
        async with target.transaction() as into:
            for table in tables:
                async with into.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                    if (await cursor.fetchone() or (0,))[0]:
                        raise StoreOpenError(f"the table {table} of the PostgreSQL database is not empty")
            for table in tables:
                rows = await self._fetchall(f"SELECT * FROM {table} ORDER BY rowid")
                if rows:
                    columns = list(rows[0].keys())
                    await into.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                        [tuple(row) for row in rows],
                    )
                copied[table] = len(rows)
        await target._engine.restart_identities(tables)
        return copied

    # --- reads ---------------------------------------------------------------------------------------------------
    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read query (for the stores of other aggregates built on this one:
        :mod:`bot.infra.league_store`)."""
        return await self._fetchall(sql, params)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._engine.reading() as db, db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _game(self, where: str, params: tuple[Any, ...]) -> GameRow | None:
        rows = await self._fetchall(f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT 1", params)
        if not rows:
            return None
        row = rows[0]
        seats = await self._fetchall(
            "SELECT user_id, name, joined, seat, level, timeouts, dropped, resigned FROM seats WHERE game_id = ?"
            " ORDER BY joined",
            (row["id"],),
        )
        broken = row["broken"]
        try:
            options, state, result = (json.loads(row[c]) if row[c] else None for c in ("options", "state", "result"))
        except ValueError as error:  # a damaged row: the game is quarantined, never the whole bot
            broken = broken or f"its stored JSON cannot be read ({error})"
            options, state, result = {}, None, None
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            creator_id=row["creator_id"],
            variant=row["variant"],
            options=options or {},
            seed=row["seed"],
            max_seats=row["max_seats"],
            seat_order=row["seat_order"],
            status=row["status"],
            version=row["version"],
            state=state,
            result=result,
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            created_at=row["created_at"],
            turn_since=row["turn_since"],
            seats=tuple(
                Seat(
                    s["user_id"],
                    s["name"],
                    s["joined"],
                    s["seat"],
                    s["level"],
                    s["timeouts"],
                    bool(s["dropped"]),
                    bool(s["resigned"]),
                )
                for s in seats
            ),
            hints=bool(row["hints"]),
            board_version=row["board_version"],
            rated=None if row["rated"] is None else bool(row["rated"]),
            time_limit_hours=row["time_limit_hours"],
            on_timeout=row["on_timeout"],
            undo=bool(row["undo"]),
            thread=bool(row["thread"]),
            lobby_channel_id=row["lobby_channel_id"],
            thinking=row["thinking"],
            broken=broken,
        )

    async def game(self, game_id: int) -> GameRow | None:
        return await self._game("id = ?", (game_id,))

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        return await self._game("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        return await self._game("channel_id = ?", (channel_id,))

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        """Every open game (lobby or active) in which ``user_id`` has a seat, in any server, longest waiting first."""
        rows = await self._fetchall(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') AND g.broken IS NULL ORDER BY g.turn_since, g.id",
            (user_id,),
        )
        games = [await self.game(row["id"]) for row in rows]
        return [game for game in games if game is not None]

    async def open_games_in(self, channel_ids: Collection[int] = (), guild_id: int | None = None) -> list[int]:
        """The open games (lobby or active) in any of ``channel_ids`` or in the server ``guild_id``."""
        channels = list(channel_ids)
        marks = ", ".join("?" * len(channels)) or "NULL"
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE status IN ('lobby', 'active') AND (channel_id IN ({marks}) OR guild_id = ?)"
            " ORDER BY id",
            (*channels, guild_id),
        )
        return [row["id"] for row in rows]

    async def open_game_channels(self) -> list[int]:
        """Every server channel or thread that holds an open game."""
        rows = await self._fetchall(
            "SELECT DISTINCT channel_id FROM games WHERE status IN ('lobby', 'active') AND guild_id IS NOT NULL"
            " ORDER BY channel_id"
        )
        return [row["channel_id"] for row in rows]

    async def all_game_ids(self) -> list[int]:
        rows = await self._fetchall("SELECT id FROM games ORDER BY id")
        return [row["id"] for row in rows]

    async def active_game_ids(self) -> list[int]:
        rows = await self._fetchall("SELECT id FROM games WHERE status = 'active' AND broken IS NULL ORDER BY id")
        return [row["id"] for row in rows]

    async def open_game_ids(self) -> list[int]:
        """Every lobby and active game not quarantined yet (the start-up check reads each)."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status IN ('lobby', 'active') AND broken IS NULL ORDER BY id"
        )
        return [row["id"] for row in rows]

    async def broken_games(self) -> list[GameRow]:
        """The quarantined games that are still open (``python -m bot check`` lists them)."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status IN ('lobby', 'active') AND broken IS NOT NULL ORDER BY id"
        )
        games = [await self.game(row["id"]) for row in rows]
        return [game for game in games if game is not None]

    async def mark_broken(self, game_id: int, why: str) -> bool:
        """Quarantine a game: sweeps, timers and listings skip it from now on. False if it was already."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET broken = ? WHERE id = ? AND broken IS NULL", (why[:500], game_id)
            )
            return bool(cursor.rowcount == 1)

    async def raw_game(self, game_id: int) -> dict[str, Any]:
        """The game's row as stored (its JSON columns as text), for the export of a quarantined game."""
        rows = await self._fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
        return {key: rows[0][key] for key in rows[0].keys()} if rows else {}  # noqa: SIM118 - a Row iterates values

    async def last_plies(self, game_id: int) -> dict[int, int]:
        """The version of each seat's latest act: a move in the log, or taking one back (seats that never acted are
        missing). A seat whose move was undone began to wait again then, so its timers start afresh."""
        rows = await self._fetchall(
            "SELECT seat, MAX(at) FROM (SELECT seat, ply AS at FROM moves WHERE game_id = ?"
            " UNION ALL SELECT seat, version AS at FROM undone_moves WHERE game_id = ?) AS acts GROUP BY seat",
            (game_id, game_id),
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def move_plies(self, game_id: int) -> dict[int, int]:
        """The ply of each seat's latest move in the log (seats that never moved are missing)."""
        rows = await self._fetchall("SELECT seat, MAX(ply) FROM moves WHERE game_id = ? GROUP BY seat", (game_id,))
        return {int(row[0]): int(row[1]) for row in rows}

    @staticmethod
    def _timer(row: Row) -> TimerRow:
        return TimerRow(
            row["id"],
            row["game_id"],
            row["kind"],
            row["seat"],
            row["version"],
            row["due_at"],
            json.loads(row["payload"]),
            row["state"],
        )

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        """Every timer of a game, pending or not, oldest first."""
        rows = await self._fetchall("SELECT * FROM timers WHERE game_id = ? ORDER BY id", (game_id,))
        return [self._timer(row) for row in rows]

    async def due_timers(self, now: str) -> list[TimerRow]:
        """Pending timers due at ``now`` (ISO time) or earlier, earliest first."""
        rows = await self._fetchall(
            "SELECT * FROM timers WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [self._timer(row) for row in rows]

    async def games_with_computer_seats(self) -> list[int]:
        """Active games in which the computer plays at least one seat (the service checks whose turn it is)."""
        rows = await self._fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = 'active' AND g.broken IS NULL AND s.level IS NOT NULL ORDER BY g.id"
        )
        return [row["id"] for row in rows]

    async def without_board(self) -> list[int]:
        """Started games whose newest version has no board posted (a crash or a failed post came in between).

        A finished game counts only when an earlier board of it was recorded: games from before boards were
        recorded are not posted again."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE board_version < version AND broken IS NULL"
            " AND (status = 'active' OR status = 'over' AND board_version >= 0) ORDER BY id"
        )
        return [row["id"] for row in rows]

    async def picker(self, picker_id: int) -> PickerRow | None:
        rows = await self._fetchall("SELECT * FROM pickers WHERE id = ?", (picker_id,))
        if not rows:
            return None
        row = rows[0]
        return PickerRow(
            row["id"],
            row["game_id"],
            row["version"],
            row["user_id"],
            row["command"],
            json.loads(row["chosen"]),
            row["option"],
        )

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self._fetchall("SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [(row["seat"], row["notation"]) for row in rows]

    async def seats_moved_since(self, game_id: int, ply: int) -> set[int]:
        """The seats that made a move, or took one back, at version ``ply`` or later."""
        rows = await self._fetchall(
            "SELECT seat FROM moves WHERE game_id = ? AND ply >= ?"
            " UNION SELECT seat FROM undone_moves WHERE game_id = ? AND version >= ?",
            (game_id, ply, game_id, ply),
        )
        return {row["seat"] for row in rows}

    async def move_rows(self, game_id: int) -> list[MoveRow]:
        """The whole log with each move's ply (the version it was made at), oldest first."""
        rows = await self._fetchall(
            "SELECT ply, seat, notation, cause FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [MoveRow(row["ply"], row["seat"], row["notation"], row["cause"] or "") for row in rows]

    async def last_move(self, game_id: int) -> MoveRow | None:
        """The newest move of the log (None before the first)."""
        rows = await self._fetchall(
            "SELECT ply, seat, notation, cause FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
        )
        return MoveRow(rows[0]["ply"], rows[0]["seat"], rows[0]["notation"], rows[0]["cause"] or "") if rows else None

    async def undone(self, game_id: int, version: int) -> UndoneRow | None:
        """The move taken back at ``version``, if that is what happened then."""
        rows = await self._fetchall(
            "SELECT version, ply, seat, notation FROM undone_moves WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        return UndoneRow(*rows[0]) if rows else None

    async def move_count_by_interaction(self, interaction_id: int) -> int:
        """Moves and undos this interaction made (a move later taken back still counts: it was applied once)."""
        rows = await self._fetchall(_BY_INTERACTION, (interaction_id,) * 3)
        return int(rows[0][0])

    async def user(self, user_id: int) -> UserPrefs:
        rows = await self._fetchall("SELECT * FROM users WHERE user_id = ?", (user_id,))
        if not rows:
            return UserPrefs(user_id, notify_dm=False, dm_closed_told=False)
        row = rows[0]
        return UserPrefs(
            user_id,
            bool(row["notify_dm"]),
            bool(row["dm_closed_told"]),
            row["locale"],
            bool(row["reminders"]),
            row["remind_every_hours"],
            row["quiet_start"],
            row["quiet_end"],
            row["timezone"],
            row["away_until"],
        )

    async def bring_forward_timers(self, user_id: int, postponed_to: str, now: str) -> None:
        """Pending timers of ``user_id``'s seats that were postponed to ``postponed_to`` become due at ``now``."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE timers SET due_at = ? WHERE state = 'pending' AND due_at = ? AND EXISTS (SELECT 1 FROM seats s"
                " WHERE s.game_id = timers.game_id AND s.seat = timers.seat AND s.user_id = ?)",
                (now, postponed_to, user_id),
            )

    async def set_away(self, user_id: int, until: str | None) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO users (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            await db.execute("UPDATE users SET away_until = ? WHERE user_id = ?", (until, user_id))

    async def set_reminder_prefs(self, user_id: int, **values: Any) -> None:
        """Save reminder settings (names from ``UserPrefs.REMINDER_FIELDS``; None clears quiet hours and zone)."""
        unknown = set(values) - set(UserPrefs.REMINDER_FIELDS)
        if unknown:
            raise ValueError(f"not reminder settings: {sorted(unknown)}")
        async with self.transaction() as db:
            await db.execute("INSERT INTO users (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            for column, value in values.items():
                await db.execute(f"UPDATE users SET {column} = ? WHERE user_id = ?", (value, user_id))

    async def claim_due_timers(self, now: str, until: str, limit: int = 100, owner: str = "") -> list[TimerRow]:
        """Lease pending timers due at ``now`` or earlier, earliest first, to this process until ``until``: another
        process skips them (rows locked by a claim under way are skipped, not waited for) unless the lease runs out
        first, as it does when this process dies before ending them."""
        async with (
            self.transaction() as db,
            db.execute(
                "UPDATE timers SET claimed_until = ?, leased_by = ? WHERE id IN (SELECT id FROM timers"
                " WHERE state = 'pending' AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
                " AND game_id NOT IN (SELECT id FROM games WHERE broken IS NOT NULL) ORDER BY due_at, id LIMIT ?"
                " FOR UPDATE SKIP LOCKED) RETURNING *",
                (until, owner or None, now, now, limit),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return sorted((self._timer(row) for row in rows), key=lambda timer: (timer.due_at, timer.id))

    async def claim(self, work: str, owner: str, now: str, until: str) -> bool:
        """Take ``work`` (a name such as ``board:12:40``) for ``owner`` until ``until``; True when it is theirs: it
        was free, its lease ran out by ``now``, or they hold it already (then the lease is extended)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO claims (work, owner, until) VALUES (?, ?, ?) ON CONFLICT (work) DO UPDATE SET"
                " owner = excluded.owner, until = excluded.until"
                " WHERE claims.until <= ? OR claims.owner = excluded.owner",
                (work, owner, until, now),
            )
            return cursor.rowcount == 1

    async def release(self, work: str, owner: str) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM claims WHERE work = ? AND owner = ?", (work, owner))

    async def take_over(self, identity: str, owner: str, now: str = "") -> int:
        """At start-up: the claims an earlier life of this process left (owners ``identity#…``) become ``owner``'s,
        so it resumes that work at once instead of waiting out its own lease; so do its timers' leases (due again
        ``now``: a deadline's lease had moved it on). Returns how many."""
        earlier = identity.replace("%", "").replace("_", "") + "#%"
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE claims SET owner = ? WHERE owner LIKE ? AND owner <> ?", (owner, earlier, owner)
            )
            taken = max(cursor.rowcount, 0)
            if now:
                cursor = await db.execute(
                    "UPDATE timers SET claimed_until = NULL, leased_by = NULL,"
                    " due_at = CASE WHEN due_at > ? THEN ? ELSE due_at END"
                    " WHERE state = 'pending' AND leased_by LIKE ? AND leased_by <> ?",
                    (now, now, earlier, owner),
                )
                taken += max(cursor.rowcount, 0)
            return taken

    async def lease_deadline(self, timer_id: int, was_due: str, until: str, owner: str) -> bool:
        """A deadline taken for running now: moved on to ``until`` (its lease), noted as ``owner``'s."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE timers SET due_at = ?, claimed_until = NULL, leased_by = ?"
                " WHERE id = ? AND state = 'pending' AND due_at = ?",
                (until, owner, timer_id, was_due),
            )
            return cursor.rowcount == 1

    async def reschedule_timer(self, timer_id: int, was_due: str, due_at: str) -> bool:
        """Move a pending timer to ``due_at``, only if it is still pending at ``was_due`` (so one runner does it)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE timers SET due_at = ?, claimed_until = NULL, leased_by = NULL"
                " WHERE id = ? AND state = 'pending' AND due_at = ?",
                (due_at, timer_id, was_due),
            )
            return cursor.rowcount == 1

    # --- writes --------------------------------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        variant: str,
        options: dict[str, Any],
        seed: int,
        max_seats: int,
        seat_order: str,
        hints: bool = False,
        rated: bool | None = None,
        time_limit_hours: int = 0,
        on_timeout: str = "computer",
        undo: bool = True,
        thread: bool = False,
        thinking: int = 1,
    ) -> int | None:
        """A new lobby with its creator seated, or None when the channel already has an open game."""
        stamp = now_iso()
        row = (guild_id, channel_id, creator_id, variant, json.dumps(options), seed, max_seats, seat_order, stamp)
        choice = None if rated is None else int(rated)
        try:
            async with self.transaction() as db:
                game_id = await _inserted_id(
                    db,
                    "INSERT INTO games (guild_id, channel_id, creator_id, variant, options, seed, max_seats,"
                    " seat_order, status, created_at, turn_since, hints, rated, time_limit_hours, on_timeout, undo,"
                    " thread, thinking)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (*row, stamp, int(hints), choice, time_limit_hours, on_timeout, int(undo), int(thread), thinking),
                )
                await db.execute(
                    "INSERT INTO seats (game_id, user_id, name, joined) VALUES (?, ?, ?, 0)",
                    (game_id, creator_id, creator_name),
                )
        except sqlite3.IntegrityError:
            return None
        return game_id

    async def add_seat(self, game_id: int, user_id: int, name: str, max_seats: int) -> bool:
        """Seat ``user_id`` in a lobby that still has room; False when it is full or no longer a lobby."""
        return await self._add_seat(game_id, user_id, name, None, max_seats)

    async def add_computer_seat(self, game_id: int, name: str, level: str, max_seats: int) -> bool:
        """Seat a computer player of ``level`` in a lobby that still has room; False when full or started."""
        return await self._add_seat(game_id, None, name, level, max_seats)

    async def _add_seat(self, game_id: int, user_id: int | None, name: str, level: str | None, max_seats: int) -> bool:
        async with self.transaction() as db:
            # The game's row is locked first, so two joins at once count the seats one after the other.
            async with db.execute("SELECT status FROM games WHERE id = ? FOR UPDATE", (game_id,)) as cursor:
                row = await cursor.fetchone()
            async with db.execute(
                "SELECT COUNT(*), COALESCE(MAX(joined), -1) FROM seats WHERE game_id = ?", (game_id,)
            ) as cursor:
                seated, last = await cursor.fetchone() or (0, -1)
            if row is None or row["status"] != "lobby" or seated >= max_seats:
                return False
            await db.execute(
                "INSERT INTO seats (game_id, user_id, name, joined, level) VALUES (?, ?, ?, ?, ?)",
                (game_id, user_id, name, last + 1, level),
            )
            return True

    async def seat_lobby(self, game_id: int, seats: Sequence[tuple[int | None, str, str | None]]) -> None:
        """Seat ``(user_id, name, level)`` in this joining order in a lobby (a rematch's), replacing its seats."""
        async with self.transaction() as db:
            await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (game_id, game_id),
            )
            for joined, (user_id, name, level) in enumerate(seats):
                await db.execute(
                    "INSERT INTO seats (game_id, user_id, name, joined, level) VALUES (?, ?, ?, ?, ?)",
                    (game_id, user_id, name, joined, level),
                )

    async def remove_computer_seat(self, game_id: int, joined: int) -> bool:
        """Take the computer seat that joined ``joined``-th out of a lobby; False when there is none."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND joined = ? AND user_id IS NULL"
                " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (game_id, joined, game_id),
            )
            return cursor.rowcount == 1

    async def set_controller(self, game_id: int, seat: int, level: str | None) -> bool:
        """Hand a person's seat of an active game to the computer at ``level``, or back to them with ``None``.

        False when there is no such person's seat in an active game, or it already had that controller."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE seats SET level = ? WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL"
                " AND level IS DISTINCT FROM ? AND (SELECT status FROM games WHERE id = ?) = 'active'",
                (level, game_id, seat, level, game_id),
            )
            return cursor.rowcount == 1

    async def count_timeout(self, game_id: int, seat: int) -> int:
        """One more time the seat's player ran out of time in a row; returns how many times that is now."""
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET timeouts = timeouts + 1 WHERE game_id = ? AND seat = ?", (game_id, seat))
            async with db.execute(
                "SELECT timeouts FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cursor:
                row = await cursor.fetchone()
            return int(row[0]) if row else 0

    async def reset_timeouts(self, game_id: int, seat: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET timeouts = 0 WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def drop_seat(self, game_id: int, seat: int, level: str) -> bool:
        """A person's seat of an active game is dropped: the computer at ``level`` plays it for good."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE seats SET dropped = 1, level = ? WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL"
                " AND dropped = 0 AND (SELECT status FROM games WHERE id = ?) = 'active'",
                (level, game_id, seat, game_id),
            )
            return cursor.rowcount == 1

    async def resign_seat(self, game_id: int, seat: int, level: str, version: int) -> bool:
        """A person resigns from an active game at ``version`` while the others play on: the seat is dropped and
        marked resigned, and the computer at ``level`` plays it to the end."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE seats SET dropped = 1, resigned = 1, level = ? WHERE game_id = ? AND seat = ?"
                " AND user_id IS NOT NULL AND dropped = 0"
                " AND (SELECT status FROM games WHERE id = ?) = 'active'"
                " AND (SELECT version FROM games WHERE id = ?) = ?",
                (level, game_id, seat, game_id, game_id, version),
            )
            return cursor.rowcount == 1

    async def take_back(self, game_id: int, seat: int) -> bool:
        """The person takes back their seat from the computer (never a dropped one); their timeouts start over."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE seats SET level = NULL, timeouts = 0 WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL"
                " AND level IS NOT NULL AND dropped = 0 AND (SELECT status FROM games WHERE id = ?) = 'active'",
                (game_id, seat, game_id),
            )
            return cursor.rowcount == 1

    async def synced_hash(self, scope: str) -> str | None:
        """The fingerprint of the command tree last synced to ``scope``, if any."""
        rows = await self._fetchall("SELECT payload_hash FROM synced_commands WHERE scope = ?", (scope,))
        return str(rows[0][0]) if rows else None

    async def set_synced_hash(self, scope: str, payload_hash: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO synced_commands (scope, payload_hash, synced_at) VALUES (?, ?, ?) ON CONFLICT (scope)"
                " DO UPDATE SET payload_hash = excluded.payload_hash, synced_at = excluded.synced_at",
                (scope, payload_hash, now_iso()),
            )

    async def server_defaults(self, guild_id: int | None) -> tuple[int, str]:
        """A server's time limit (hours, 0: none) and timeout action for new games."""
        if guild_id is None:
            return 0, "computer"
        rows = await self._fetchall("SELECT time_limit_hours, on_timeout FROM servers WHERE guild_id = ?", (guild_id,))
        return (int(rows[0][0]), str(rows[0][1])) if rows else (0, "computer")

    async def server_thinking(self, guild_id: int | None) -> int | None:
        """A server's default thinking time for new games' computer players (``None``: the bot's default)."""
        if guild_id is None:
            return None
        rows = await self._fetchall("SELECT thinking FROM servers WHERE guild_id = ?", (guild_id,))
        return rows[0][0] if rows else None

    async def set_server_thinking(self, guild_id: int, seconds: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO servers (guild_id, thinking) VALUES (?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET thinking = excluded.thinking",
                (guild_id, seconds),
            )

    async def game_caps(self, guild_id: int | None) -> tuple[int | None, int | None]:
        """A server's own caps on open games per member and per server (``None``: the bot's default)."""
        if guild_id is None:
            return None, None
        rows = await self._fetchall("SELECT member_games, server_games FROM servers WHERE guild_id = ?", (guild_id,))
        return (rows[0][0], rows[0][1]) if rows else (None, None)

    async def set_game_caps(self, guild_id: int, member_games: int | None, server_games: int | None) -> None:
        """Change the caps given (``None``: leave it as it is)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO servers (guild_id, member_games, server_games) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET member_games = COALESCE(excluded.member_games, servers.member_games),"
                " server_games = COALESCE(excluded.server_games, servers.server_games)",
                (guild_id, member_games, server_games),
            )

    async def open_games_count(self, guild_id: int | None) -> int:
        """Lobbies and running games in a server (``None``: outside any server)."""
        where = "guild_id = ?" if guild_id is not None else "guild_id IS NULL"
        rows = await self._fetchall(
            f"SELECT COUNT(*) FROM games WHERE {where} AND status IN ('lobby', 'active')",
            (guild_id,) if guild_id is not None else (),
        )
        return int(rows[0][0])

    async def open_seats_of(self, guild_id: int | None, user_id: int) -> int:
        """The seats ``user_id`` fills in a server's open games: their own, and every computer seat in the games they
        created (see :mod:`bot.app.quotas`)."""
        where = "g.guild_id = ?" if guild_id is not None else "g.guild_id IS NULL"
        rows = await self._fetchall(
            f"SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}"
            " AND g.status IN ('lobby', 'active') AND (s.user_id = ? OR (s.user_id IS NULL AND g.creator_id = ?))",
            (*((guild_id,) if guild_id is not None else ()), user_id, user_id),
        )
        return int(rows[0][0])

    async def forget_user(self, user_id: int, shown_as: str) -> int | None:
        """Erase ``user_id``'s settings, profile, ratings and half-made picks, and anonymise their seats in finished
        and aborted games (the id becomes a number of its own, the name ``shown_as``), so the others' games and
        results stay whole; one transaction. ``None`` (changing nothing) while they sit in an open game; else how
        many games they played."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = ? AND g.status IN ('lobby', 'active')",
                (user_id,),
            ) as cursor:
                row = await cursor.fetchone()
            if row is not None and row[0]:
                return None
            if not await _forget_in_leagues(db, user_id, shown_as):
                return None
            cursor = await db.execute("UPDATE seats SET user_id = -id, name = ? WHERE user_id = ?", (shown_as, user_id))
            played = cursor.rowcount
            await db.execute("UPDATE games SET creator_id = 0 WHERE creator_id = ?", (user_id,))
            await db.execute(
                "UPDATE result_seats SET user_id = -(result_id * 8 + seat + 1), name = ? WHERE user_id = ?",
                (shown_as, user_id),
            )
            for table in ("ratings", "rating_history", "pickers", "users", "nudges"):
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        return int(played)

    async def open_games_total(self) -> int:
        """Lobbies and running games everywhere (for the metrics)."""
        rows = await self._fetchall("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')")
        return int(rows[0][0])

    async def server_threads(self, guild_id: int | None) -> bool:
        """Whether a server's new games get a thread each unless their creator says otherwise."""
        if guild_id is None:
            return False
        rows = await self._fetchall("SELECT threads FROM servers WHERE guild_id = ?", (guild_id,))
        return bool(rows and rows[0]["threads"])

    async def set_server_threads(self, guild_id: int, threads: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO servers (guild_id, threads) VALUES (?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET threads = excluded.threads",
                (guild_id, int(threads)),
            )

    async def move_to_thread(self, game_id: int, thread_id: int) -> bool:
        """An active game moves from its channel into ``thread_id`` (a thread of that channel): its lobby message
        stays in the channel, which is free for another game."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET lobby_channel_id = channel_id, channel_id = ? WHERE id = ? AND status = 'active'"
                " AND lobby_channel_id IS NULL",
                (thread_id, game_id),
            )
            return cursor.rowcount == 1

    async def set_server_defaults(self, guild_id: int, time_limit_hours: int, on_timeout: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO servers (guild_id, time_limit_hours, on_timeout) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET time_limit_hours = excluded.time_limit_hours, on_timeout = excluded.on_timeout",
                (guild_id, time_limit_hours, on_timeout),
            )

    async def pending_timers_of_user(self, user_id: int, kinds: tuple[str, ...]) -> list[TimerRow]:
        """Pending timers of ``kinds`` for ``user_id``'s seats in active games."""
        marks = ", ".join("?" * len(kinds))
        rows = await self._fetchall(
            "SELECT t.* FROM timers t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.seat"
            f" JOIN games g ON g.id = t.game_id WHERE t.state = 'pending' AND t.kind IN ({marks})"
            " AND s.user_id = ? AND g.status = 'active' ORDER BY t.id",
            (*kinds, user_id),
        )
        return [self._timer(row) for row in rows]

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    async def rename_seat(self, game_id: int, user_id: int, name: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ? AND name != ?",
                (name, game_id, user_id, name),
            )

    async def start_game(self, game_id: int, seat_by_joined: dict[int, int], state: dict[str, Any]) -> bool:
        """Lobby → active with the seats assigned (engine seat by joining order); False if no longer a lobby."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'active', state = ?, turn_since = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(state), now_iso(), game_id),
            )
            if cursor.rowcount != 1:
                return False
            for joined, seat in seat_by_joined.items():
                await db.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND joined = ?", (seat, game_id, joined))
            return True

    async def record_move(
        self,
        game_id: int,
        *,
        version: int,
        seat: int,
        notation: str,
        state: dict[str, Any],
        interaction_id: int | None,
        finished: dict[str, Any] | None,
        cause: str = "",
    ) -> None:
        """Append ply ``version`` and save ``state`` as version ``version + 1``, atomically. ``cause``: why the
        computer made the move (empty for a person's).

        Raises :class:`Conflict` (saving nothing) when the interaction was already applied or the game moved on.
        """
        await self.record_moves(
            game_id,
            version=version,
            seat=seat,
            notations=[notation],
            state=state,
            interaction_id=interaction_id,
            finished=finished,
            cause=cause,
        )

    async def record_moves(
        self,
        game_id: int,
        *,
        version: int,
        seat: int,
        notations: Sequence[str],
        state: dict[str, Any],
        interaction_id: int | None,
        finished: dict[str, Any] | None,
        cause: str = "",
    ) -> None:
        """Append one seat's consecutive moves as plies ``version``… and save ``state`` after the last, atomically.

        The interaction id goes on the first of them (ids are unique), so a retried interaction finds it and saves
        nothing. Raises :class:`Conflict` (saving nothing) when the interaction was already applied or the game
        moved on.
        """
        if not notations:
            raise ValueError("no moves to record")
        stamp = now_iso()
        async with self.transaction() as db:
            await self._check_new_interaction(db, interaction_id)
            async with db.execute("SELECT turn_since FROM games WHERE id = ?", (game_id,)) as cursor:
                waited = await cursor.fetchone()
            cursor = await db.execute(
                "UPDATE games SET version = version + ?, state = ?, turn_since = ?, status = ?, result = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (
                    len(notations),
                    json.dumps(state),
                    stamp,
                    "over" if finished is not None else "active",
                    json.dumps(finished) if finished is not None else None,
                    game_id,
                    version,
                ),
            )
            if cursor.rowcount != 1:
                raise Conflict("version")
            try:
                await db.executemany(
                    "INSERT INTO moves (game_id, ply, seat, notation, created_at, interaction_id, cause, waited_since)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            version + index,
                            seat,
                            notation,
                            stamp,
                            interaction_id if index == 0 else None,
                            cause or None,
                            waited[0] if waited is not None else None,
                        )
                        for index, notation in enumerate(notations)
                    ],
                )
            except sqlite3.IntegrityError:
                raise Conflict("duplicate") from None
            # A picker outlives a few versions: in a simultaneous phase another player's move does not end it (the
            # service checks its choice against the newest state), and a repeated one is told "already played".
            await db.execute(
                "DELETE FROM pickers WHERE game_id = ? AND version <= ?", (game_id, version - PICKERS_KEPT_VERSIONS)
            )

    @staticmethod
    async def _check_new_interaction(db: Connection, interaction_id: int | None) -> None:
        if interaction_id is None:
            return
        async with db.execute(_BY_INTERACTION, (interaction_id,) * 3) as cursor:
            row = await cursor.fetchone()
        if row is not None and row[0]:
            raise Conflict("duplicate")

    async def undo_move(
        self, game_id: int, *, version: int, ply: int, state: dict[str, Any], interaction_id: int | None
    ) -> None:
        """Take back ply ``ply``, the newest move of the log: it moves to ``undone_moves`` and ``state`` (the replay
        of the log without it) is saved as version ``version + 1``, atomically, so the log still replays to the
        snapshot and the version still only grows.

        Raises :class:`Conflict` (saving nothing) when the interaction was already applied, the game moved on since
        ``version``, or ply ``ply`` is not the newest move.
        """
        stamp = now_iso()
        async with self.transaction() as db:
            await self._check_new_interaction(db, interaction_id)
            async with db.execute(
                "SELECT ply, seat, notation, created_at, interaction_id, waited_since FROM moves WHERE game_id = ?"
                " ORDER BY ply DESC LIMIT 1",
                (game_id,),
            ) as cursor:
                last = await cursor.fetchone()
            if last is None or last["ply"] != ply:
                raise Conflict("version")
            cursor = await db.execute(  # the turn began when it began before the move (moves older than 16: now)
                "UPDATE games SET version = version + 1, state = ?, turn_since = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (json.dumps(state), last["waited_since"] or stamp, game_id, version),
            )
            if cursor.rowcount != 1:
                raise Conflict("version")
            await db.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply))
            await db.execute(
                "INSERT INTO undone_moves (game_id, version, ply, seat, notation, played_at, move_interaction_id,"
                " undone_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    version,
                    ply,
                    last["seat"],
                    last["notation"],
                    last["created_at"],
                    last["interaction_id"],
                    stamp,
                    interaction_id,
                ),
            )

    async def finish(self, game_id: int, status: str, result: dict[str, Any] | None) -> bool:
        """Close an open game (``over`` or ``aborted``); False if it was already closed."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = ?, result = ?, turn_since = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, json.dumps(result) if result is not None else None, now_iso(), game_id),
            )
            return cursor.rowcount == 1

    async def quick_play(self, user_id: int) -> bool:
        rows = await self._fetchall("SELECT quick_play FROM users WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["quick_play"])

    async def set_quick_play(self, user_id: int, enabled: bool) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO users (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            await db.execute("UPDATE users SET quick_play = ? WHERE user_id = ?", (int(enabled), user_id))

    async def create_picker(
        self, game_id: int, version: int, user_id: int, *, command: str | None, chosen: dict[str, str], option: str
    ) -> int:
        async with self.transaction() as db:
            picker_id = await _inserted_id(
                db,
                "INSERT INTO pickers (game_id, version, user_id, command, chosen, option) VALUES (?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (game_id, version, user_id, command, json.dumps(chosen), option),
            )
            return picker_id or 0

    async def schedule_timer(
        self, game_id: int, kind: str, seat: int, version: int, *, due_at: str, payload: dict[str, Any] | None = None
    ) -> bool:
        """Add a pending timer; False (adding nothing) when this (game, kind, seat, version) already has one."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO timers (game_id, kind, seat, version, due_at, payload)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, kind, seat, version, due_at, json.dumps(payload or {})),
            )
            return cursor.rowcount == 1

    async def end_timer(self, timer_id: int, state: str, at: str) -> bool:
        """Mark a pending timer ``done`` (it ran) or ``cancelled``; False if it was no longer pending, so a timer
        is claimed by exactly one runner."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE timers SET state = ?, done_at = ? WHERE id = ? AND state = 'pending'", (state, at, timer_id)
            )
            return cursor.rowcount == 1

    async def set_creator(self, game_id: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE games SET creator_id = ? WHERE id = ?", (user_id, game_id))

    async def set_message(self, game_id: int, kind: str, message_id: int) -> None:
        column = {"lobby": "lobby_message_id", "board": "board_message_id"}[kind]
        async with self.transaction() as db:
            await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def set_board(self, game_id: int, message_id: int, version: int) -> tuple[bool, int | None]:
        """Record ``message_id`` as the board of ``version`` unless a newer version's board is recorded already.

        Returns whether it is now the newest board, and the message whose controls must go: the previous board's,
        or this one's own when a newer board got there first.
        """
        async with self.transaction() as db:
            async with db.execute(
                "SELECT board_message_id, board_version FROM games WHERE id = ? FOR UPDATE", (game_id,)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return False, None
            previous, posted = row["board_message_id"], row["board_version"]
            if version < posted:
                return False, message_id
            await db.execute(
                "UPDATE games SET board_message_id = ?, board_version = ? WHERE id = ?", (message_id, version, game_id)
            )
            return True, previous if previous != message_id else None

    async def set_user(
        self,
        user_id: int,
        *,
        notify_dm: bool | None = None,
        dm_closed_told: bool | None = None,
        locale: str | None = None,
    ) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO users (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            if notify_dm is not None:
                await db.execute("UPDATE users SET notify_dm = ? WHERE user_id = ?", (int(notify_dm), user_id))
            if locale is not None:
                await db.execute("UPDATE users SET locale = ? WHERE user_id = ?", (locale, user_id))
            if dm_closed_told is not None:
                await db.execute(
                    "UPDATE users SET dm_closed_told = ? WHERE user_id = ?", (int(dm_closed_told), user_id)
                )

    # --- results and ratings -------------------------------------------------------------------------------------
    async def unsettled_games(self) -> list[int]:
        """Finished games without a result row (the bot stopped between the last move and the result): oldest first."""
        rows = await self._fetchall(
            "SELECT id FROM games g WHERE status = 'over'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY turn_since, id"
        )
        return [row["id"] for row in rows]

    async def think_times(self, game_id: int) -> dict[int, tuple[int, float]]:
        """Per seat: moves timed and seconds spent on them, each from the move before it (by anyone); the game's first
        move has no start time, so it is not counted."""
        rows = await self._fetchall("SELECT seat, created_at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        times: dict[int, tuple[int, float]] = {}
        previous: datetime | None = None
        for row in rows:
            at = datetime.fromisoformat(row["created_at"])
            moves, seconds = times.get(row["seat"], (0, 0.0))
            if previous is not None:
                moves, seconds = moves + 1, seconds + (at - previous).total_seconds()
            times[row["seat"]] = (moves, seconds)
            previous = at
        return {seat: (moves, max(0.0, seconds)) for seat, (moves, seconds) in times.items()}

    async def settle(self, result: ResultRow, rate: RateFn) -> int | None:
        """Store a finished game's result and, if rated, move its players' ratings, in one transaction.

        Returns the result's id, or None when the game already has one (settling twice changes nothing).
        """
        async with self.transaction() as db:
            result_id = await _inserted_id(
                db,
                "INSERT INTO results (game_id, family, variant, guild_id, channel_id, rated, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (
                    result.game_id,
                    result.family,
                    result.variant,
                    result.guild_id,
                    result.channel_id,
                    int(result.rated),
                    result.finished_at,
                ),
            )
            if result_id is None:
                return None
            await db.serialize("ratings")  # two games settled at once must not both start from the same rating
            await db.executemany(
                "INSERT INTO result_seats (result_id, seat, user_id, name, score, place, outcome, computer, moves,"
                " think_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        result_id,
                        s.seat,
                        s.user_id,
                        s.name,
                        s.score,
                        s.place,
                        s.outcome,
                        int(s.computer),
                        s.moves,
                        s.think_seconds,
                    )
                    for s in result.seats
                ],
            )
            if result.rated:
                await self._apply_rating(db, replace(result, id=result_id), rate)
            return result_id

    async def rebuild_ratings(self, rate: RateFn) -> int:
        """Forget every rating and recompute them from the stored results, in order; returns the rated games."""
        async with self.transaction() as db:
            await db.serialize("ratings")
            results = await self._results(db, "rated = 1", (), order="id")
            # Replayed in memory, then written at once: the same inputs to ``rate`` as one by one (a REAL column
            # keeps a float exactly), without a query per player per game while the bot waits for the lock.
            current: dict[tuple[str, int], tuple[float, float, int, int]] = {}
            history = []
            for result in results:
                people = {seat.user_id: seat for seat in result.seats if seat.user_id is not None}
                before = {
                    user_id: current[result.family, user_id][:2]
                    for user_id in people
                    if (result.family, user_id) in current
                }
                won = {user_id: seat.won for user_id, seat in people.items()}
                for user_id, (mu, sigma) in rate(result, before).items():
                    _, _, games, wins = current.get((result.family, user_id), (0.0, 0.0, 0, 0))
                    current[result.family, user_id] = (mu, sigma, games + 1, wins + int(won[user_id]))
                    history.append((result.id, user_id, result.family, mu, sigma))
            await db.execute("DELETE FROM rating_history")
            await db.execute("DELETE FROM ratings")
            await db.executemany(
                "INSERT INTO ratings (family, user_id, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?)",
                [(family, user_id, *row) for (family, user_id), row in current.items()],
            )
            await db.executemany(
                "INSERT INTO rating_history (result_id, user_id, family, mu, sigma) VALUES (?, ?, ?, ?, ?)", history
            )
            return len(results)

    @staticmethod
    async def _apply_rating(db: Connection, result: ResultRow, rate: RateFn) -> None:
        before: dict[int, Skill] = {}
        people = {seat.user_id: seat for seat in result.seats if seat.user_id is not None}
        for user_id in people:
            async with db.execute(
                "SELECT mu, sigma FROM ratings WHERE family = ? AND user_id = ?", (result.family, user_id)
            ) as cursor:
                row = await cursor.fetchone()
            if row is not None:
                before[user_id] = (float(row[0]), float(row[1]))
        won = {user_id: seat.won for user_id, seat in people.items()}
        for user_id, (mu, sigma) in rate(result, before).items():
            await db.execute(
                "INSERT INTO ratings (family, user_id, mu, sigma, games, wins) VALUES (?, ?, ?, ?, 1, ?)"
                " ON CONFLICT (family, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " games = ratings.games + 1, wins = ratings.wins + excluded.wins",
                (result.family, user_id, mu, sigma, int(won[user_id])),
            )
            await db.execute(
                "INSERT INTO rating_history (result_id, user_id, family, mu, sigma) VALUES (?, ?, ?, ?, ?)",
                (result.id, user_id, result.family, mu, sigma),
            )

    @staticmethod
    async def _results(
        db: Connection,
        where: str,
        params: tuple[Any, ...],
        *,
        order: str,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ResultRow]:
        page = f" LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
        async with db.execute(f"SELECT * FROM results WHERE {where} ORDER BY {order}{page}", params) as cursor:
            rows = list(await cursor.fetchall())
        found = []
        for row in rows:
            async with db.execute(
                "SELECT * FROM result_seats WHERE result_id = ? ORDER BY seat", (row["id"],)
            ) as cursor:
                seats = [
                    ResultSeat(
                        s["seat"],
                        s["user_id"],
                        s["name"],
                        s["score"],
                        s["place"],
                        s["outcome"],
                        bool(s["computer"]),
                        s["moves"],
                        s["think_seconds"],
                    )
                    for s in await cursor.fetchall()
                ]
            found.append(
                ResultRow(
                    row["id"],
                    row["game_id"],
                    row["family"],
                    row["variant"],
                    row["guild_id"],
                    row["channel_id"],
                    bool(row["rated"]),
                    row["finished_at"],
                    tuple(seats),
                )
            )
        return found

    async def results(
        self, *, channel_id: int | None = None, guild_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> tuple[list[ResultRow], int]:
        """Finished games of a channel (or of a server), newest first, one page, and how many there are in all."""
        where, params = ("channel_id = ?", (channel_id,)) if channel_id is not None else ("guild_id = ?", (guild_id,))
        async with self._engine.reading() as db:
            async with db.execute(f"SELECT COUNT(*) FROM results WHERE {where}", params) as cursor:
                total = int((await cursor.fetchone() or (0,))[0])
            return await self._results(db, where, params, order="id DESC", limit=limit, offset=offset), total

    async def all_ratings(self) -> list[tuple[Any, ...]]:
        rows = await self._fetchall(
            "SELECT family, user_id, mu, sigma, games, wins FROM ratings ORDER BY family, user_id"
        )
        return [tuple(row) for row in rows]

    async def all_rating_history(self) -> list[tuple[Any, ...]]:
        rows = await self._fetchall(
            "SELECT result_id, user_id, family, mu, sigma FROM rating_history ORDER BY result_id, user_id"
        )
        return [tuple(row) for row in rows]

    _LATEST_NAME = "(SELECT name FROM result_seats n WHERE n.user_id = r.user_id ORDER BY n.result_id DESC LIMIT 1)"

    async def leaderboard(
        self, family: str, *, guild_id: int | None, z: float, limit: int, offset: int
    ) -> tuple[list[RatingRow], int]:
        """Ratings of ``family`` by their conservative estimate ``mu - z * sigma``, best first, one page; with
        ``guild_id``, only players who played a rated game of the family in that server."""
        where = "r.family = ?"
        params: list[Any] = [family]
        if guild_id is not None:
            where += (
                " AND EXISTS (SELECT 1 FROM result_seats s JOIN results x ON x.id = s.result_id WHERE"
                " s.user_id = r.user_id AND x.family = r.family AND x.rated = 1 AND x.guild_id = ?)"
            )
            params.append(guild_id)
        total = await self._fetchall(f"SELECT COUNT(*) FROM ratings r WHERE {where}", tuple(params))
        rows = await self._fetchall(
            f"SELECT r.*, {self._LATEST_NAME} AS name FROM ratings r WHERE {where}"
            " ORDER BY r.mu - ? * r.sigma DESC, r.mu DESC, r.user_id LIMIT ? OFFSET ?",
            (*params, z, limit, offset),
        )
        return [_rating_row(row) for row in rows], int(total[0][0])

    async def ratings_of(self, user_id: int) -> list[RatingRow]:
        rows = await self._fetchall(
            f"SELECT r.*, {self._LATEST_NAME} AS name FROM ratings r WHERE r.user_id = ? ORDER BY r.family",
            (user_id,),
        )
        return [_rating_row(row) for row in rows]

    async def last_nudge(self, game_id: int, user_id: int) -> str | None:
        """When ``user_id`` last nudged in ``game_id`` (ISO time), or None."""
        rows = await self._fetchall("SELECT at FROM nudges WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return str(rows[0]["at"]) if rows else None

    async def record_nudge(self, game_id: int, user_id: int, at: str, earlier_than: str) -> bool:
        """Record a nudge at ``at`` unless the user's last one is not earlier than ``earlier_than`` (False then: a
        nudge sent at the same moment won the race)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO nudges (game_id, user_id, at) VALUES (?, ?, ?) ON CONFLICT (game_id, user_id)"
                " DO UPDATE SET at = excluded.at WHERE nudges.at < ?",
                (game_id, user_id, at, earlier_than),
            )
            return cursor.rowcount == 1

    async def rating_changes(self, game_id: int) -> dict[int, tuple[Skill | None, Skill]]:
        """Each rated person's rating before and after the finished game ``game_id`` (None before: their first
        rated game of the family); empty when the game moved no rating."""
        rows = await self._fetchall(
            "SELECT h.user_id, h.mu, h.sigma,"
            " (SELECT p.mu FROM rating_history p WHERE p.user_id = h.user_id AND p.family = h.family"
            "  AND p.result_id < h.result_id ORDER BY p.result_id DESC LIMIT 1) AS mu_before,"
            " (SELECT p.sigma FROM rating_history p WHERE p.user_id = h.user_id AND p.family = h.family"
            "  AND p.result_id < h.result_id ORDER BY p.result_id DESC LIMIT 1) AS sigma_before"
            " FROM rating_history h JOIN results r ON r.id = h.result_id WHERE r.game_id = ?",
            (game_id,),
        )
        return {
            int(row["user_id"]): (
                None if row["mu_before"] is None else (float(row["mu_before"]), float(row["sigma_before"])),
                (float(row["mu"]), float(row["sigma"])),
            )
            for row in rows
        }

    async def rating_history_of(self, user_id: int) -> dict[str, list[Skill]]:
        """Each game family's ratings of ``user_id`` after every rated game, oldest first."""
        rows = await self._fetchall(
            "SELECT family, mu, sigma FROM rating_history WHERE user_id = ? ORDER BY result_id", (user_id,)
        )
        history: dict[str, list[Skill]] = {}
        for row in rows:
            history.setdefault(row["family"], []).append((float(row["mu"]), float(row["sigma"])))
        return history

    async def totals_of(self, user_id: int, recent: int = 100) -> PlayerTotals:
        rows = await self._fetchall(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN place = 1 AND outcome = 'played' THEN 1 ELSE 0 END), 0),"
            " AVG(CASE WHEN outcome = 'played' THEN score END), COALESCE(SUM(moves), 0),"
            " COALESCE(SUM(think_seconds), 0) FROM result_seats WHERE user_id = ?",
            (user_id,),
        )
        games, wins, average, moves, seconds = rows[0]
        favourite = await self._fetchall(
            "SELECT x.variant FROM result_seats s JOIN results x ON x.id = s.result_id WHERE s.user_id = ?"
            " GROUP BY x.variant ORDER BY COUNT(*) DESC, MAX(x.id) DESC LIMIT 1",
            (user_id,),
        )
        last = await self._fetchall(
            "SELECT place = 1 AND outcome = 'played' FROM result_seats WHERE user_id = ? ORDER BY result_id DESC"
            " LIMIT ?",
            (user_id, recent),
        )
        return PlayerTotals(
            games=int(games),
            wins=int(wins),
            average_score=None if average is None else float(average),
            favourite_variant=favourite[0][0] if favourite else None,
            moves=int(moves),
            think_seconds=float(seconds),
            recent=tuple(bool(row[0]) for row in last),
        )


async def _inserted_id(db: Connection, sql: str, params: Sequence[Any]) -> int | None:
    """The id an ``INSERT … RETURNING id`` gave its row (None when ``ON CONFLICT DO NOTHING`` added none)."""
    async with db.execute(sql, params) as cursor:
        row = await cursor.fetchone()
    return None if row is None else int(row[0])


def _rating_row(row: Row) -> RatingRow:
    return RatingRow(
        row["family"],
        row["user_id"],
        row["name"] or str(row["user_id"]),
        row["mu"],
        row["sigma"],
        row["games"],
        row["wins"],
    )
