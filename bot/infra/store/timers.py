"""Timers (reminders, time limits, computer turns), the leases and claims that let one bot process run one
piece of background work, and nudges."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.infra.db import Connection, Row, Step
from bot.infra.store.base import Aggregate
from bot.infra.store.rows import TimerChanges, TimerRow


def board_work(game_id: int, version: int) -> str:
    """The claim on posting the board of ``version`` of a game (one poster per version, whoever it is)."""
    return f"board:{game_id}:{version}"


_BOARD_WORK = re.compile(r"board:(\d+):(\d+)")


def board_of(work: str) -> tuple[int, int] | None:
    """The game and version of a board's claim (:func:`board_work`), carried by the game's row; None for other work
    (a row of ``claims``), an ending's final board among it."""
    found = _BOARD_WORK.fullmatch(work)
    return (int(found[1]), int(found[2])) if found else None


BOARD_CLAIM = "board_claim = ?, board_owner = ?, board_until = ?"
"""The columns of ``games`` a board's claim is written to (the version, the owner, the end of the lease)."""


async def take_claim(db: Connection, work: str, owner: str, until: str, now: str) -> bool:
    """Inside a transaction: take ``work`` for ``owner`` until ``until`` when it is free, its lease ran out by
    ``now``, or ``owner`` holds it already (see :meth:`TimerRecords.claim`)."""
    cursor = await db.execute(*claim_statement(work, owner, until, now))
    return bool(cursor.rowcount == 1)


def claim_statement(work: str, owner: str, until: str, now: str) -> tuple[str, tuple[Any, ...]]:
    """The statement of :func:`take_claim`: it changes one row when the claim is taken."""
    board = board_of(work)
    if board is not None:  # free too when the game's claim is on an older board, which this one supersedes
        game_id, version = board
        return (
            f"UPDATE games SET {BOARD_CLAIM} WHERE id = ? AND (board_owner IS NULL OR board_until <= ?"
            " OR board_claim < ? OR (board_claim = ? AND board_owner = ?))",
            (version, owner, until, game_id, now, version, version, owner),
        )
    return (
        "INSERT INTO claims (work, owner, until) VALUES (?, ?, ?) ON CONFLICT (work) DO UPDATE SET"
        " owner = excluded.owner, until = excluded.until"
        " WHERE claims.until <= ? OR claims.owner = excluded.owner",
        (work, owner, until, now),
    )


TIMERS_OF = "SELECT * FROM timers WHERE game_id = ? ORDER BY id"
"""Every timer of a game, pending or not, oldest first."""

TIMERS_TO_SYNC = (
    "SELECT * FROM timers WHERE game_id = ? AND (state = 'pending' OR version > (SELECT MIN(COALESCE((SELECT MAX(ply)"
    " FROM moves WHERE moves.game_id = seats.game_id AND moves.seat = seats.seat), -1)) FROM seats"
    " WHERE seats.game_id = ? AND seats.seat IS NOT NULL)) ORDER BY id"
)
"""The timers a sync of the game goes by, oldest first: the pending ones, and those set since the seat that moved
longest ago last moved (whether a seat began to wait, or had a move taken back, is told by timers no older): not
every reminder of a long game, one more with every move."""

_CANCEL = "UPDATE timers SET state = 'cancelled', done_at = ? WHERE id = ? AND state = 'pending'"
_ADD = (
    "INSERT INTO timers (game_id, kind, seat, version, due_at, payload) VALUES (?, ?, ?, ?, ?, '{}')"
    " ON CONFLICT DO NOTHING"
)


def change_steps(game_id: int, changes: TimerChanges) -> list[Step]:
    """The statements of a sync's changes, for a write transaction of their own or a move's: a timer no longer
    pending stays as it is, and one added twice once (the store's unique key)."""
    return [(_CANCEL, (changes.at, timer_id), None) for timer_id in changes.cancel] + [
        (_ADD, (game_id, new.kind, new.seat, new.version, new.due_at), None) for new in changes.add
    ]


class TimerRecords(Aggregate):
    """Timers, claims on background work, nudges and votes to cancel a game."""

    @staticmethod
    def timer(row: Row) -> TimerRow:
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

    async def apply_changes(self, game_id: int, changes: TimerChanges) -> None:
        """A sync's changes to the game's timers, in one write (none when there are none)."""
        if changes.cancel or changes.add:
            await self._write_steps(change_steps(game_id, changes))

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        """Every timer of a game, pending or not, oldest first."""
        rows = await self._fetchall(TIMERS_OF, (game_id,))
        return [self.timer(row) for row in rows]

    async def due_timers(self, now: str) -> list[TimerRow]:
        """Pending timers due at ``now`` (ISO time) or earlier, earliest first."""
        rows = await self._fetchall(
            "SELECT * FROM timers WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [self.timer(row) for row in rows]

    async def bring_forward_timers(self, user_id: int, postponed_to: str, now: str) -> None:
        """Pending timers of ``user_id``'s seats that were postponed to ``postponed_to`` become due at ``now``."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE timers SET due_at = ? WHERE state = 'pending' AND due_at = ? AND EXISTS (SELECT 1 FROM seats s"
                " WHERE s.game_id = timers.game_id AND s.seat = timers.seat AND s.user_id = ?)",
                (now, postponed_to, user_id),
            )

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
        return sorted((self.timer(row) for row in rows), key=lambda timer: (timer.due_at, timer.id))

    async def claim(self, work: str, owner: str, now: str, until: str) -> bool:
        """Take ``work`` (a name such as ``board:12:40``) for ``owner`` until ``until``; True when it is theirs: it
        was free, its lease ran out by ``now``, or they hold it already (then the lease is extended). A game's row
        carries one claim on its boards: a newer version's takes the place of an older one's (whose holder's
        renewals and release then change nothing), and an older version's waits for a newer one's lease."""
        async with self.transaction() as db:
            return await take_claim(db, work, owner, until, now)

    async def held_until(self, work: str, now: str) -> str | None:
        """Until when ``work`` is held by someone (ISO time), or None when it is free at ``now``."""
        board = board_of(work)
        if board is not None:
            rows = await self._fetchall(
                "SELECT board_until AS until FROM games WHERE id = ? AND board_claim = ? AND board_owner IS NOT NULL"
                " AND board_until > ?",
                (*board, now),
            )
        else:
            rows = await self._fetchall("SELECT until FROM claims WHERE work = ? AND until > ?", (work, now))
        return str(rows[0]["until"]) if rows else None

    async def release(self, work: str, owner: str) -> None:
        board = board_of(work)
        async with self.transaction() as db:
            if board is not None:
                await db.execute(
                    f"UPDATE games SET {BOARD_CLAIM} WHERE id = ? AND board_claim = ? AND board_owner = ?",
                    (None, None, None, *board, owner),
                )
            else:
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
            cursor = await db.execute(  # once per start: a scan of the games here, rather than an index on each move
                "UPDATE games SET board_owner = ? WHERE board_owner LIKE ? AND board_owner <> ?",
                (owner, earlier, owner),
            )
            taken += max(cursor.rowcount, 0)
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

    async def pending_timers_of_user(self, user_id: int, kinds: tuple[str, ...]) -> list[TimerRow]:
        """Pending timers of ``kinds`` for ``user_id``'s seats in active games."""
        marks = ", ".join("?" * len(kinds))
        rows = await self._fetchall(
            "SELECT t.* FROM timers t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.seat"
            f" JOIN games g ON g.id = t.game_id WHERE t.state = 'pending' AND t.kind IN ({marks})"
            " AND s.user_id = ? AND g.status = 'active' ORDER BY t.id",
            (*kinds, user_id),
        )
        return [self.timer(row) for row in rows]

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

    async def add_abort_vote(self, game_id: int, user_id: int, at: str) -> None:
        """``user_id`` agrees at ``at`` to cancel ``game_id`` (their agreement in an earlier vote is replaced)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO abort_votes (game_id, user_id, at) VALUES (?, ?, ?) ON CONFLICT (game_id, user_id)"
                " DO UPDATE SET at = excluded.at",
                (game_id, user_id, at),
            )

    async def abort_votes(self, game_id: int, since: str) -> set[int]:
        """Who agreed to cancel ``game_id`` at ``since`` or later."""
        rows = await self._fetchall("SELECT user_id FROM abort_votes WHERE game_id = ? AND at >= ?", (game_id, since))
        return {int(row["user_id"]) for row in rows}

    async def clear_abort_votes(self, game_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM abort_votes WHERE game_id = ?", (game_id,))
