"""Finished games' results, the ratings derived from them (rebuildable) and their history, and the figures
of ``/azul stats``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.infra.db import Connection, Row
from bot.infra.store.base import Aggregate, inserted_id
from bot.infra.store.rows import (
    PlayerTotals,
    RateFn,
    RatingRow,
    ResultRow,
    ResultSeat,
    Skill,
)


class Results(Aggregate):
    """Finished games' results, the ratings derived from them and their history."""

    _LATEST_NAME = "(SELECT name FROM result_seats n WHERE n.user_id = r.user_id ORDER BY n.result_id DESC LIMIT 1)"

    async def seats_of(self, game_id: int) -> list[ResultSeat]:
        """A settled game's seats as recorded (score, place, outcome), in seat order; none before it is settled."""
        rows = await self._fetchall(
            "SELECT rs.seat, rs.user_id, rs.name, rs.score, rs.place, rs.outcome FROM result_seats rs"
            " JOIN results r ON r.id = rs.result_id WHERE r.game_id = ? ORDER BY rs.seat",
            (game_id,),
        )
        return [
            ResultSeat(row["seat"], row["user_id"], row["name"], int(row["score"]), int(row["place"]), row["outcome"])
            for row in rows
        ]

    async def unsettled_games(self) -> list[int]:
        """Finished games without a result row (the bot stopped between the last move and the result): oldest first."""
        rows = await self._fetchall(
            "SELECT id FROM games g WHERE status = 'over'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY turn_since, id"
        )
        return [row["id"] for row in rows]

    async def settle(self, result: ResultRow, rate: RateFn) -> int | None:
        """Store a finished game's result and, if rated, move its players' ratings, in one transaction.

        Returns the result's id, or None when the game already has one (settling twice changes nothing).
        """
        async with self.transaction() as db:
            result_id = await inserted_id(
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
