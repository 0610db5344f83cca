"""A server's settings (defaults for new games, thinking time, threads, caps on open games), the counts
its caps are checked against, and the fingerprint of the command tree last synced."""

from __future__ import annotations

from typing import Any

from bot.infra.db import Connection
from bot.infra.store.base import Aggregate
from bot.infra.store.rows import CapReached, SeatCaps, now_iso


class Servers(Aggregate):
    """A server's settings and the counts its caps are checked against."""

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
        """Lobbies and running games in a server (``None``: outside any server), league games apart."""
        async with self._engine.reading() as db:
            return await _open_games(db, guild_id)

    async def open_seats_of(self, guild_id: int | None, user_id: int) -> int:
        """The seats ``user_id`` fills in a server's open games, league games apart: their own, and every computer
        seat in the games they created (see :mod:`bot.app.quotas`)."""
        async with self._engine.reading() as db:
            return await _open_seats(db, guild_id, user_id)

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

    async def set_server_defaults(self, guild_id: int, time_limit_hours: int, on_timeout: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO servers (guild_id, time_limit_hours, on_timeout) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET time_limit_hours = excluded.time_limit_hours, on_timeout = excluded.on_timeout",
                (guild_id, time_limit_hours, on_timeout),
            )


_OPEN = "g.status IN ('lobby', 'active') AND NOT EXISTS (SELECT 1 FROM league_tables t WHERE t.game_id = g.id"
_OPEN += " OR t.channel_id = g.channel_id)"
"""An open game that is no league's (a league table names its game, or its thread while the game opens)."""


def _in_server(guild_id: int | None) -> tuple[str, tuple[int, ...]]:
    return ("g.guild_id = ?", (guild_id,)) if guild_id is not None else ("g.guild_id IS NULL", ())


async def _count(db: Connection, sql: str, params: tuple[Any, ...]) -> int:
    async with db.execute(sql, params) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def _open_games(db: Connection, guild_id: int | None) -> int:
    where, params = _in_server(guild_id)
    return await _count(db, f"SELECT COUNT(*) FROM games g WHERE {where} AND {_OPEN}", params)


async def _open_seats(db: Connection, guild_id: int | None, user_id: int) -> int:
    where, params = _in_server(guild_id)
    return await _count(
        db,
        f"SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id WHERE {where} AND {_OPEN}"
        " AND (s.user_id = ? OR (s.user_id IS NULL AND g.creator_id = ?))",
        (*params, user_id, user_id),
    )


async def take_caps(db: Connection, guild_id: int | None, caps: SeatCaps) -> None:
    """Inside the transaction that adds the seats: raise :class:`CapReached` unless they fit under ``caps``. The
    counts and the write that follows are one step: SQLite's ``BEGIN IMMEDIATE`` already excludes every other
    writer, and on PostgreSQL the server's advisory lock makes simultaneous creates and joins count one at a time."""
    await db.serialize(f"azul caps {guild_id}")
    if caps.server is not None and guild_id is not None and await _open_games(db, guild_id) >= caps.server:
        raise CapReached("server", caps.server)  # games outside a server (DMs) have no server to fill
    if await _open_seats(db, guild_id, caps.user_id) + caps.seats > caps.member:
        raise CapReached("member", caps.member)
