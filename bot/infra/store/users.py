"""A user's preferences (reminders, direct messages, locale, quick play), their time away, and forgetting
them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from bot.infra.db import Row
from bot.infra.store.base import Aggregate
from bot.infra.store.leagues import forget_in_leagues
from bot.infra.store.rows import (
    UserPrefs,
)


def prefs_query(user_ids: Collection[int]) -> tuple[str, list[int]]:
    """The read of :meth:`Users.users`, to share a trip with others."""
    wanted = sorted(set(user_ids))
    return f"SELECT * FROM users WHERE user_id IN ({', '.join('?' * len(wanted)) or 'NULL'})", wanted


def prefs_of(user_ids: Collection[int], rows: Sequence[Row]) -> dict[int, UserPrefs]:
    """The preferences of each of ``user_ids`` in the rows :func:`prefs_query` read (defaults for one who set none)."""
    found = {row["user_id"]: _prefs(row) for row in rows}
    return {user_id: found.get(user_id) or UserPrefs(user_id, False, False) for user_id in sorted(set(user_ids))}


def _prefs(row: Row) -> UserPrefs:
    return UserPrefs(
        row["user_id"],
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


class Users(Aggregate):
    """A user's preferences, time away, and forgetting them."""

    async def user(self, user_id: int) -> UserPrefs:
        return (await self.users([user_id]))[user_id]

    async def users(self, user_ids: Collection[int]) -> dict[int, UserPrefs]:
        """The preferences of each of ``user_ids`` (the defaults for one who set none), in one read."""
        return prefs_of(user_ids, await self._fetchall(*prefs_query(user_ids)))

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
            if not await forget_in_leagues(db, user_id, shown_as):
                return None
            cursor = await db.execute("UPDATE seats SET user_id = -id, name = ? WHERE user_id = ?", (shown_as, user_id))
            played = cursor.rowcount
            await db.execute("UPDATE games SET creator_id = 0 WHERE creator_id = ?", (user_id,))
            await db.execute(
                "UPDATE result_seats SET user_id = -(result_id * 8 + seat + 1), name = ? WHERE user_id = ?",
                (shown_as, user_id),
            )
            for table in ("ratings", "rating_history", "pickers", "users", "nudges", "abort_votes"):
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        return int(played)

    async def quick_play(self, user_id: int) -> bool:
        rows = await self._fetchall("SELECT quick_play FROM users WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0]["quick_play"])

    async def set_quick_play(self, user_id: int, enabled: bool) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO users (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,))
            await db.execute("UPDATE users SET quick_play = ? WHERE user_id = ?", (int(enabled), user_id))

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
