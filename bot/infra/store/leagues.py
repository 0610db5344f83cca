"""Leagues: the leagues, their players, rounds and tables (migration 0017_leagues.sql).

Every write that more than one process might make at once is guarded by the row's current state (a round goes
``pending`` → ``open`` → ``over`` once; a result is written only where there is none), so running it twice, or in
two processes, changes nothing the second time.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from bot.infra.store.base import Aggregate
from bot.infra.store.rows import now_iso

LEAGUE_STATUSES = ("signup", "running", "paused", "over")
PLAYER_STATUSES = ("in", "withdrew", "dropped")
BYE_RESULT = json.dumps({"bye": True})


@dataclass(frozen=True, slots=True)
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    name: str
    variant: str
    format: str  # "swiss" or "round_robin"
    table_size: int
    rounds: int  # Swiss: as chosen; round robin: set when sign-up closes
    time_limit_hours: int
    on_timeout: str
    rated: bool
    leftover: str  # "bye" or "computer"
    signup_closes: str
    round_days: int  # 0: the next round starts when the last game ends; else at most one round per this many days
    status: str
    round: int
    signup_message_id: int | None
    standings_message_id: int | None

    @property
    def swiss(self) -> bool:
        return self.format == "swiss"


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    user_id: int
    name: str
    joined: int
    status: str = "in"


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table of a round: its players (None: a computer seat), or one player with a bye; the thread and game
    opened for it; the result (each seat's score and place, in the order of ``players``) once recorded."""

    id: int
    league_id: int
    round: int
    number: int
    players: tuple[int | None, ...]
    bye: bool
    channel_id: int | None
    game_id: int | None
    result: dict[str, Any] | None


class LeagueRecords(Aggregate):
    """Leagues, their players, rounds and tables."""

    # --- leagues ---------------------------------------------------------------------------------------------------
    async def create(self, **values: Any) -> int | None:
        """A new league in sign-up; None when the server already has one of that name that is not over."""
        columns = [*values, "created_at"]
        params = [int(v) if isinstance(v, bool) else v for v in values.values()]
        marks = ", ".join("?" for _ in columns)
        try:
            async with (
                self.transaction() as db,
                db.execute(
                    f"INSERT INTO leagues ({', '.join(columns)}) VALUES ({marks}) RETURNING id",
                    (*params, now_iso()),
                ) as cursor,
            ):
                row = await cursor.fetchone()
        except sqlite3.IntegrityError:
            return None
        return None if row is None else int(row[0])

    @staticmethod
    def _league(row: Any) -> LeagueRow:
        return LeagueRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            creator_id=row["creator_id"],
            name=row["name"],
            variant=row["variant"],
            format=row["format"],
            table_size=row["table_size"],
            rounds=row["rounds"],
            time_limit_hours=row["time_limit_hours"],
            on_timeout=row["on_timeout"],
            rated=bool(row["rated"]),
            leftover=row["leftover"],
            signup_closes=row["signup_closes"],
            round_days=row["round_days"],
            status=row["status"],
            round=row["round"],
            signup_message_id=row["signup_message_id"],
            standings_message_id=row["standings_message_id"],
        )

    async def league(self, league_id: int) -> LeagueRow | None:
        rows = await self._fetchall("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return self._league(rows[0]) if rows else None

    async def leagues_in(self, guild_id: int, *, finished: bool = False) -> list[LeagueRow]:
        """The server's leagues, newest first: those not over (or, with ``finished``, every one)."""
        where = "" if finished else " AND status <> 'over'"
        rows = await self._fetchall(f"SELECT * FROM leagues WHERE guild_id = ?{where} ORDER BY id DESC", (guild_id,))
        return [self._league(row) for row in rows]

    async def leagues_with(self, status: str) -> list[LeagueRow]:
        rows = await self._fetchall("SELECT * FROM leagues WHERE status = ? ORDER BY id", (status,))
        return [self._league(row) for row in rows]

    async def set_status(self, league_id: int, was: tuple[str, ...], status: str) -> bool:
        """Change the league's status if it is one of ``was``; False when another change came first."""
        async with self.transaction() as db:
            cursor = await db.execute(
                f"UPDATE leagues SET status = ? WHERE id = ? AND status IN ({', '.join('?' for _ in was)})",
                (status, league_id, *was),
            )
            return cursor.rowcount == 1

    async def set_league_message(self, league_id: int, kind: str, message_id: int) -> None:
        column = {"signup": "signup_message_id", "standings": "standings_message_id"}[kind]
        async with self.transaction() as db:
            await db.execute(f"UPDATE leagues SET {column} = ? WHERE id = ?", (message_id, league_id))

    # --- players ---------------------------------------------------------------------------------------------------
    async def add_player(self, league_id: int, user_id: int, name: str) -> bool:
        """Sign ``user_id`` up; False when they are in already or sign-up is closed."""
        async with self.transaction() as db:
            async with db.execute("SELECT status FROM leagues WHERE id = ? FOR UPDATE", (league_id,)) as cursor:
                league = await cursor.fetchone()
            if league is None or league["status"] != "signup":
                return False
            cursor = await db.execute(
                "INSERT INTO league_players (league_id, user_id, name, joined) VALUES (?, ?, ?,"
                " (SELECT COALESCE(MAX(joined), -1) + 1 FROM league_players WHERE league_id = ?))"
                " ON CONFLICT DO NOTHING",
                (league_id, user_id, name, league_id),
            )
            return cursor.rowcount == 1

    async def remove_player(self, league_id: int, user_id: int) -> bool:
        """Take a sign-up back (only while sign-up is open)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM league_players WHERE league_id = ? AND user_id = ?"
                " AND EXISTS (SELECT 1 FROM leagues WHERE id = ? AND status = 'signup')",
                (league_id, user_id, league_id),
            )
            return cursor.rowcount == 1

    async def players(self, league_id: int) -> list[LeaguePlayer]:
        rows = await self._fetchall(
            "SELECT user_id, name, joined, status FROM league_players WHERE league_id = ? ORDER BY joined",
            (league_id,),
        )
        return [LeaguePlayer(row["user_id"], row["name"], row["joined"], row["status"]) for row in rows]

    async def set_player_status(self, league_id: int, user_id: int, status: str) -> bool:
        """A player still in withdraws or is dropped; False when they are not in (any more)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE league_players SET status = ? WHERE league_id = ? AND user_id = ? AND status = 'in'",
                (status, league_id, user_id),
            )
            return cursor.rowcount == 1

    async def leagues_of(self, user_id: int) -> list[tuple[LeagueRow, LeaguePlayer]]:
        """Every league ``user_id`` signed up to that is not over, with their place in it."""
        rows = await self._fetchall(
            "SELECT l.*, p.name AS player_name, p.joined, p.status AS player_status FROM leagues l"
            " JOIN league_players p ON p.league_id = l.id WHERE p.user_id = ? AND l.status <> 'over' ORDER BY l.id",
            (user_id,),
        )
        return [
            (self._league(row), LeaguePlayer(user_id, row["player_name"], row["joined"], row["player_status"]))
            for row in rows
        ]

    # --- rounds ----------------------------------------------------------------------------------------------------
    async def start(self, league_id: int, rounds: int, due_at: str) -> bool:
        """Close the sign-up: the league runs ``rounds`` rounds, the first due at ``due_at``, all in one write;
        False when its sign-up was closed already."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE leagues SET status = 'running', rounds = ?, round = 1 WHERE id = ? AND status = 'signup'",
                (rounds, league_id),
            )
            if cursor.rowcount != 1:
                return False
            await db.execute(
                "INSERT INTO league_rounds (league_id, round, due_at) VALUES (?, 1, ?) ON CONFLICT DO NOTHING",
                (league_id, due_at),
            )
            return True

    async def close_round(self, league_id: int, number: int, next_due: str | None) -> bool:
        """Close an open round and, in the same write, schedule the next one (due at ``next_due``) or, with None,
        end the league; False when the round was closed already (another process did it)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE league_rounds SET state = 'over' WHERE league_id = ? AND round = ? AND state = 'open'",
                (league_id, number),
            )
            if cursor.rowcount != 1:
                return False
            if next_due is None:
                await db.execute(
                    "UPDATE leagues SET status = 'over' WHERE id = ? AND status IN ('running', 'paused')", (league_id,)
                )
                return True
            await db.execute(
                "INSERT INTO league_rounds (league_id, round, due_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (league_id, number + 1, next_due),
            )
            following = number + 1
            await db.execute(
                "UPDATE leagues SET round = ? WHERE id = ? AND round < ?", (following, league_id, following)
            )
            return True

    async def due_rounds(self, now: str) -> list[tuple[int, int]]:
        """Rounds whose start is due, of running leagues: (league, round), earliest first."""
        rows = await self._fetchall(
            "SELECT r.league_id, r.round FROM league_rounds r JOIN leagues l ON l.id = r.league_id"
            " WHERE r.state = 'pending' AND r.due_at <= ? AND l.status = 'running' ORDER BY r.due_at, r.league_id",
            (now,),
        )
        return [(row[0], row[1]) for row in rows]

    async def open_rounds(self) -> list[tuple[int, int]]:
        rows = await self._fetchall(
            "SELECT r.league_id, r.round FROM league_rounds r JOIN leagues l ON l.id = r.league_id"
            " WHERE r.state = 'open' AND l.status IN ('running', 'paused') ORDER BY r.league_id, r.round"
        )
        return [(row[0], row[1]) for row in rows]

    async def round_state(self, league_id: int, number: int) -> tuple[str, str] | None:
        """The round's state and when it starts (or started)."""
        rows = await self._fetchall(
            "SELECT state, due_at FROM league_rounds WHERE league_id = ? AND round = ?", (league_id, number)
        )
        return (rows[0]["state"], rows[0]["due_at"]) if rows else None

    async def set_round_state(self, league_id: int, number: int, was: str, state: str) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE league_rounds SET state = ? WHERE league_id = ? AND round = ? AND state = ?",
                (state, league_id, number, was),
            )
            return cursor.rowcount == 1

    # --- tables ----------------------------------------------------------------------------------------------------
    async def add_tables(self, league_id: int, number: int, tables: list[tuple[tuple[int | None, ...], bool]]) -> None:
        """The round's tables, numbered from 1, with the byes' results (once: a round that has tables keeps them)."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT COUNT(*) FROM league_tables WHERE league_id = ? AND round = ?", (league_id, number)
            ) as cursor:
                if (await cursor.fetchone() or (0,))[0]:
                    return
            await db.executemany(  # a bye's result is known at once: it is written with it
                "INSERT INTO league_tables (league_id, round, number, players, bye, result) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (league_id, number, index, json.dumps(list(players)), int(bye), BYE_RESULT if bye else None)
                    for index, (players, bye) in enumerate(tables, start=1)
                ],
            )

    @staticmethod
    def _table(row: Any) -> TableRow:
        return TableRow(
            id=row["id"],
            league_id=row["league_id"],
            round=row["round"],
            number=row["number"],
            players=tuple(json.loads(row["players"])),
            bye=bool(row["bye"]),
            channel_id=row["channel_id"],
            game_id=row["game_id"],
            result=json.loads(row["result"]) if row["result"] else None,
        )

    async def tables(self, league_id: int, number: int | None = None) -> list[TableRow]:
        """The tables of one round, or of every round, in order."""
        if number is None:
            rows = await self._fetchall(
                "SELECT * FROM league_tables WHERE league_id = ? ORDER BY round, number", (league_id,)
            )
        else:
            rows = await self._fetchall(
                "SELECT * FROM league_tables WHERE league_id = ? AND round = ? ORDER BY number", (league_id, number)
            )
        return [self._table(row) for row in rows]

    async def table_of_game(self, game_id: int) -> tuple[TableRow, LeagueRow] | None:
        rows = await self._fetchall("SELECT * FROM league_tables WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        table = self._table(rows[0])
        league = await self.league(table.league_id)
        return (table, league) if league is not None else None

    async def set_table(self, table_id: int, column: str, value: int) -> None:
        """Record the thread (``channel_id``) or the game (``game_id``) opened for a table."""
        if column not in {"channel_id", "game_id"}:
            raise ValueError(column)
        async with self.transaction() as db:
            await db.execute(f"UPDATE league_tables SET {column} = ? WHERE id = ?", (value, table_id))

    async def record_result(self, table_id: int, result: dict[str, Any]) -> bool:
        """Write a table's result once; False when it has one already."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE league_tables SET result = ? WHERE id = ? AND result IS NULL", (json.dumps(result), table_id)
            )
            return cursor.rowcount == 1


async def forget_in_leagues(db: Any, user_id: int, shown_as: str) -> bool:
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
