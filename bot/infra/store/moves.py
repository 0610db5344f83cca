"""The append-only move log and the moves taken back: recording one move or a computer's run of them
(one atomic step each: append to ``moves`` and bump ``games.version`` only if it is unchanged), undoing one, and
what an interaction already did (a redelivered interaction never acts twice)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from bot.infra.db import Connection, Refused, Row, Step
from bot.infra.store.base import Aggregate
from bot.infra.store.rows import (
    Conflict,
    GameResult,
    MoveRow,
    TimerChanges,
    TimerRow,
    UndoneRow,
    UserPrefs,
    now_iso,
)
from bot.infra.store.timers import (
    BOARD_CLAIM,
    TIMERS_TO_SYNC,
    TimerRecords,
    board_of,
    change_steps,
    claim_statement,
)
from bot.infra.store.users import prefs_of, prefs_query

_BY_INTERACTION = (
    "SELECT (SELECT COUNT(*) FROM moves WHERE interaction_id = ?)"
    " + (SELECT COUNT(*) FROM undone_moves WHERE move_interaction_id = ?)"
    " + (SELECT COUNT(*) FROM undone_moves WHERE interaction_id = ?)"
)
"""How many moves and undos an interaction made: a redelivered interaction must never act twice."""

_COLUMNS = "game_id, ply, seat, notation, created_at, interaction_id, cause, waited_since"
_TURN_SINCE = "(SELECT turn_since FROM games WHERE id = ?)"
_APPEND = f"INSERT INTO moves ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, {_TURN_SINCE})"
_APPEND_NEW = (
    f"INSERT INTO moves ({_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, {_TURN_SINCE}"
    " WHERE NOT EXISTS (SELECT 1 FROM undone_moves WHERE move_interaction_id = ? OR interaction_id = ?)"
    " ON CONFLICT (interaction_id) DO NOTHING"
)
"""A move appended unless its interaction already made a move or an undo (then it inserts nothing): the check of
:data:`_BY_INTERACTION` within the insert."""

_COMPUTER_PLAYS = "SELECT level FROM seats WHERE game_id = ? AND seat = ? AND level IS NOT NULL FOR UPDATE"
"""The seat a computer's move is for, while the computer plays it: locked (PostgreSQL), so a take-back either lands
before the move or waits for its commit."""

SEAT_CAUSES = frozenset({"computer_seat", "stand_in"})
"""The causes of moves the computer makes for a seat it plays (its own, or a person's handed to it); a time limit's
single move for a person (``time_limit``) is not one of them."""


class Moves(Aggregate):
    """The append-only move log and the moves taken back."""

    async def last_plies(self, game_id: int) -> dict[int, int]:
        """The version of each seat's latest act: a move in the log, or taking one back (seats that never acted are
        missing). A seat whose move was undone began to wait again then, so its timers start afresh."""
        rows = await self._fetchall(
            "SELECT seat, MAX(at) FROM (SELECT seat, ply AS at FROM moves WHERE game_id = ?"
            " UNION ALL SELECT seat, version AS at FROM undone_moves WHERE game_id = ?) AS acts GROUP BY seat",
            (game_id, game_id),
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def acts(self, game_id: int) -> tuple[dict[int, int], dict[int, int]]:
        """:meth:`last_plies`, and the ply of each seat's latest move in the log (seats that never moved are
        missing), in one read."""
        return _acts(await self._fetchall(_ACTS, (game_id, game_id)))

    async def acts_and_timers(self, game_id: int) -> tuple[dict[int, int], dict[int, int], list[TimerRow]]:
        """:meth:`acts` and the game's timers that a sync goes by (:data:`TIMERS_TO_SYNC`), in one trip: what
        syncing a game's timers reads."""
        async with self._engine.reading() as db:
            acts, timers = await db.fetch_each([(_ACTS, (game_id, game_id)), (TIMERS_TO_SYNC, (game_id, game_id))])
        return *_acts(acts), [TimerRecords.timer(row) for row in timers]

    async def before_move(
        self, game_id: int, user_ids: Collection[int]
    ) -> tuple[dict[int, int], dict[int, int], list[TimerRow], dict[int, UserPrefs], dict[int, int]]:
        """:meth:`acts_and_timers`, the preferences of ``user_ids`` (:meth:`bot.infra.store.users.Users.users`) and
        each seat's latest own move (the ply), in one trip: what a move reads to write its timers with it, and what
        its board's post would read after it."""
        async with self._engine.reading() as db:
            acts, timers, prefs = await db.fetch_each(
                [(_ACTS, (game_id, game_id)), (TIMERS_TO_SYNC, (game_id, game_id)), prefs_query(user_ids)]
            )
        timer_rows = [TimerRecords.timer(row) for row in timers]
        return *_acts(acts), timer_rows, prefs_of(user_ids, prefs), _own(acts)

    async def move_plies(self, game_id: int) -> dict[int, int]:
        """The ply of each seat's latest move in the log (seats that never moved are missing)."""
        return (await self.acts(game_id))[1]

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

    async def rows_since_own(self, game_id: int, seat: int) -> list[MoveRow]:
        """The moves after ``seat``'s own latest one (every move when it has made none), oldest first: the computer's
        moves for it are not its own."""
        rows = await self._fetchall(
            "SELECT ply, seat, notation, cause FROM moves WHERE game_id = ? AND ply > COALESCE((SELECT MAX(ply)"
            " FROM moves WHERE game_id = ? AND seat = ? AND cause IS NULL), -1) ORDER BY ply",
            (game_id, game_id, seat),
        )
        return [MoveRow(row["ply"], row["seat"], row["notation"], row["cause"] or "") for row in rows]

    async def last_move(self, game_id: int) -> MoveRow | None:
        """The newest move of the log (None before the first)."""
        rows = await self._fetchall(
            "SELECT ply, seat, notation, cause FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
        )
        return MoveRow(rows[0]["ply"], rows[0]["seat"], rows[0]["notation"], rows[0]["cause"] or "") if rows else None

    async def cause_before(self, game_id: int, seat: int, ply: int) -> str | None:
        """Why the seat's last move before ``ply`` was made (``""``: its person's own), or None before its first."""
        rows = await self._fetchall(
            "SELECT cause FROM moves WHERE game_id = ? AND seat = ? AND ply < ? ORDER BY ply DESC LIMIT 1",
            (game_id, seat, ply),
        )
        return str(rows[0]["cause"] or "") if rows else None

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

    async def record_move(
        self,
        game_id: int,
        *,
        version: int,
        seat: int,
        notation: str,
        state: dict[str, Any],
        interaction_id: int | None,
        finished: GameResult | None,
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

    async def record_moves(  # noqa: PLR0913 - one transaction writes what a move changes
        self,
        game_id: int,
        *,
        version: int,
        seat: int,
        notations: Sequence[str],
        state: dict[str, Any],
        interaction_id: int | None,
        finished: GameResult | None,
        cause: str = "",
        rename: tuple[int, str] | None = None,
        reset_timeouts: bool = False,
        claim: tuple[str, str, str] | None = None,
        timers: TimerChanges | None = None,
    ) -> str:
        """Append one seat's consecutive moves as plies ``version``… and save ``state`` after the last, atomically;
        returns the moment saved (the new ``turn_since``).

        The interaction id goes on the first of them (ids are unique), so a retried interaction finds it and saves
        nothing. A move the computer makes for a seat it plays (:data:`SEAT_CAUSES`) stands only while it still
        plays it: a player who takes the seat back during the search wins. Raises :class:`Conflict` (saving
        nothing) when the interaction was already applied, the game moved on, or the seat is no longer the
        computer's.

        With the move, in the same transaction: ``rename`` (a user id and the name they go by now) renames their
        seat, ``reset_timeouts`` starts the seat's timeouts over (the player moved by themselves), and ``claim``
        (work, owner, until) takes a claim on background work for ``owner``: the board of the new version, posted
        by whoever saved it (:meth:`bot.infra.store.timers.TimerRecords.claim`), written with the game's row; and
        ``timers``: the changes that syncing the game's timers makes after the move (:func:`change_steps`).
        """
        if not notations:
            raise ValueError("no moves to record")
        stamp = now_iso()
        first = interaction_id  # on the first move of a run only (interaction ids are unique)
        rows = [
            (game_id, version + n, seat, notation, stamp, first if n == 0 else None, cause or None, game_id)
            for n, notation in enumerate(notations)
        ]
        # The status only when the game ends: setting it, even unchanged, rewrites its open-game index's page.
        ending = ", status = 'over', result = ?" if finished is not None else ""
        board = claim is not None and board_of(claim[0]) == (game_id, version + len(notations))
        saved = (
            f"UPDATE games SET version = version + ?, epoch = ?, state = ?, turn_since = ?{ending}"
            f"{', ' + BOARD_CLAIM if board else ''} WHERE id = ? AND version = ? AND status = 'active'",
            (
                len(notations),
                self._engine.epoch,
                self._packed_state(state),
                stamp,
                *([json.dumps(finished)] if finished is not None else []),
                *([version + len(notations), *claim[1:]] if board and claim is not None else []),
                game_id,
                version,
            ),
            "version",
        )
        steps: list[Step] = [(_COMPUTER_PLAYS, (game_id, seat), "seat")] if cause in SEAT_CAUSES else []
        # Before the version moves on: each move keeps when its turn began (an undo restores it).
        steps.append((_APPEND_NEW, (*rows[0], interaction_id, interaction_id), "duplicate"))
        steps += [(_APPEND, row, None) for row in rows[1:]]
        steps.append(saved)
        if rename is not None:
            steps.append(
                ("UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?", (rename[1], game_id, rename[0]), None)
            )
        if reset_timeouts:
            steps.append(("UPDATE seats SET timeouts = 0 WHERE game_id = ? AND seat = ?", (game_id, seat), None))
        if claim is not None and not board:
            steps.append((*claim_statement(*claim, stamp), None))
        if timers is not None:
            steps += change_steps(game_id, timers)
        try:  # the whole move in one trip to the SQLite thread
            await self._write_steps(steps)
        except Refused as refused:
            raise Conflict(refused.reason) from None
        except sqlite3.IntegrityError:  # not the interaction's (it inserts nothing): another move took the ply
            raise Conflict("version") from None
        return stamp

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
                "UPDATE games SET version = version + 1, epoch = ?, state = ?, turn_since = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (self._engine.epoch, self._packed_state(state), last["waited_since"] or stamp, game_id, version),
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


_ACTS = (
    "SELECT seat, MAX(at), MAX(CASE WHEN undone = 0 THEN at END), MAX(CASE WHEN undone = 0 AND own = 1 THEN at END)"
    " FROM (SELECT seat, ply AS at, 0 AS undone, CASE WHEN cause IS NULL THEN 1 ELSE 0 END AS own FROM moves"
    " WHERE game_id = ? UNION ALL SELECT seat, version AS at, 1 AS undone, 0 AS own FROM undone_moves"
    " WHERE game_id = ?) AS acts GROUP BY seat"
)
"""Each seat's last act (a move, or a move taken back), its latest move in the log, and its latest own move (not
the computer's for it)."""


def _acts(rows: Sequence[Row]) -> tuple[dict[int, int], dict[int, int]]:
    last = {int(row[0]): int(row[1]) for row in rows}
    return last, {int(row[0]): int(row[2]) for row in rows if row[2] is not None}


def _own(rows: Sequence[Row]) -> dict[int, int]:
    return {int(row[0]): int(row[3]) for row in rows if row[3] is not None}
