"""Games and their seats: reading a game, opening, starting, finishing and quarantining it; seating,
replacing, dropping and renaming players; the messages and the thread that show it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Collection, Sequence
from typing import Any

from bot.infra.db import PostgresPool, SqliteFile
from bot.infra.store.base import Aggregate, inserted_id
from bot.infra.store.gathered import Gathered
from bot.infra.store.rows import Conflict, GameResult, GameRow, Seat, SeatCaps, now_iso
from bot.infra.store.servers import take_caps
from bot.infra.store.states import as_text, unpacked

_RECORD_BOARD = (
    "UPDATE games SET board_previous = board_message_id, board_message_id = ?, board_version = ?,"
    " board_owner = CASE WHEN board_claim <= ? THEN NULL ELSE board_owner END"
    " WHERE id = ? AND board_version <= ? RETURNING board_previous"
)
"""A version's board recorded, unless a newer version's is: the claim on this board or an older one ends (an
ending's final board: its holder releases it); it returns the board recorded before (``SET`` reads the old row)."""
_RECORD_BOARD_AGAIN = (
    "UPDATE games SET board_previous = board_message_id, board_message_id = ?"
    " WHERE id = ? AND board_version <= ? RETURNING board_previous"
)
"""A board shown again recorded as the newest message only: the version's own board is still owed if it is."""


BOARDS_TOGETHER = 16
"""The most boards' records one commit waits for (:mod:`bot.infra.store.gathered`)."""


class GameRecords(Aggregate):
    """Games and their seats."""

    def __init__(self, engine: SqliteFile | PostgresPool) -> None:
        super().__init__(engine)
        self._boards = Gathered(engine, most=BOARDS_TOGETHER)

    def posting_board(self) -> contextlib.AbstractContextManager[None]:
        """While the block runs, a board is being posted (drawn, sent): the boards' records wait for its, to share
        its commit. A block must not wait for another board's record (a board posted inside one)."""
        return self._boards.coming()

    async def settle(self) -> None:
        """Write the boards' records that wait (before the store closes)."""
        await self._boards.settle()

    async def _game(self, where: str, params: tuple[Any, ...]) -> GameRow | None:
        found = f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT 1"
        async with self._engine.reading() as db:  # the row and its seats in one trip
            rows, seats = await db.fetch_each(
                [
                    (found, params),
                    (
                        "SELECT user_id, name, joined, seat, level, timeouts, dropped, resigned FROM seats"
                        f" WHERE game_id = (SELECT id FROM ({found}) AS found) ORDER BY joined",
                        params,
                    ),
                ]
            )
        if not rows:
            return None
        row = rows[0]
        broken = row["broken"]
        try:
            options, state, result = (unpacked(row[c]) if row[c] else None for c in ("options", "state", "result"))
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
            epoch=row["epoch"],
        )

    async def game(self, game_id: int) -> GameRow | None:
        return await self._game("id = ?", (game_id,))

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        return await self._game("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def open_game_from(self, channel_id: int) -> GameRow | None:
        """The open game whose lobby is in ``channel_id`` and which moved on to its own thread."""
        return await self._game("lobby_channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

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

    async def broken_games_of(self, user_id: int) -> list[GameRow]:
        """Every open game of ``user_id`` that is quarantined."""
        rows = await self._fetchall(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') AND g.broken IS NOT NULL ORDER BY g.id",
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
        """The game's row as stored (its JSON columns as text, see :func:`as_text`), for the export of a quarantined
        game."""
        rows = await self._fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
        row = {key: rows[0][key] for key in rows[0].keys()} if rows else {}  # noqa: SIM118 - a Row iterates values
        return {key: as_text(value) if isinstance(value, bytes) else value for key, value in row.items()}

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
        caps: SeatCaps | None = None,
    ) -> int | None:
        """A new lobby with its creator seated, or None when the channel already has an open game; raises
        :class:`CapReached` when the server or the creator has no room under ``caps`` (None: a league's game)."""
        stamp = now_iso()
        row = (guild_id, channel_id, creator_id, variant, json.dumps(options), seed, max_seats, seat_order, stamp)
        choice = None if rated is None else int(rated)
        try:
            async with self.transaction() as db:
                if caps is not None:
                    await take_caps(db, guild_id, caps)
                game_id = await inserted_id(
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

    async def add_seat(self, game_id: int, user_id: int, name: str, max_seats: int, caps: SeatCaps | None) -> bool:
        """Seat ``user_id`` in a lobby that still has room; False when it is full or no longer a lobby. Raises
        :class:`Conflict` ``seated`` when they have a seat there already, :class:`CapReached` past ``caps``."""
        return await self._add_seat(game_id, user_id, name, None, max_seats, caps=caps)

    async def add_computer_seat(
        self, game_id: int, name: str, level: str, max_seats: int, caps: SeatCaps | None
    ) -> bool:
        """Seat a computer player of ``level`` in a lobby that still has room; False when full or started."""
        return await self._add_seat(game_id, None, name, level, max_seats, caps=caps)

    async def _add_seat(
        self, game_id: int, user_id: int | None, name: str, level: str | None, max_seats: int, *, caps: SeatCaps | None
    ) -> bool:
        async with self.transaction() as db:
            # The game's row is locked first, so two joins at once count the seats one after the other.
            async with db.execute("SELECT status, guild_id FROM games WHERE id = ? FOR UPDATE", (game_id,)) as cursor:
                row = await cursor.fetchone()
            async with db.execute(
                "SELECT COUNT(*), COALESCE(MAX(joined), -1), COUNT(CASE WHEN user_id = ? THEN 1 END) FROM seats"
                " WHERE game_id = ?",
                (user_id, game_id),
            ) as cursor:
                seated, last, theirs = await cursor.fetchone() or (0, -1, 0)
            if row is not None and theirs:
                raise Conflict("seated")
            if row is None or row["status"] != "lobby" or seated >= max_seats:
                return False
            if caps is not None:
                await take_caps(db, row["guild_id"], caps)
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
                "UPDATE games SET status = 'active', state = ?, turn_since = ?, epoch = ?"
                " WHERE id = ? AND status = 'lobby'",
                (self._packed_state(state), now_iso(), self._engine.epoch, game_id),
            )
            if cursor.rowcount != 1:
                return False
            for joined, seat in seat_by_joined.items():
                await db.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND joined = ?", (seat, game_id, joined))
            return True

    async def finish(self, game_id: int, status: str, result: GameResult | None) -> bool:
        """Close an open game (``over`` or ``aborted``); False if it was already closed."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = ?, result = ?, turn_since = ?"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, json.dumps(result) if result is not None else None, now_iso(), game_id),
            )
            return cursor.rowcount == 1

    async def set_creator(self, game_id: int, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE games SET creator_id = ? WHERE id = ?", (user_id, game_id))

    async def set_message(self, game_id: int, kind: str, message_id: int) -> None:
        column = {"lobby": "lobby_message_id", "board": "board_message_id"}[kind]
        async with self.transaction() as db:
            await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def set_board(
        self, game_id: int, message_id: int, version: int, *, again: bool = False
    ) -> tuple[bool, int | None]:
        """Record ``message_id`` as the board of ``version`` unless a newer version's board is recorded already;
        ``again``: as the newest board message only (shown again), the version's own board still owed if it is; else
        the claim on posting it or an older board ends (:func:`bot.infra.store.timers.board_work`): it is done.

        Returns whether it is now the newest board, and the message whose controls must go: the previous board's,
        or this one's own when a newer board got there first. Written with the records of the boards posted
        meanwhile (:meth:`posting_board`), in one commit.
        """
        if again:
            rows = await self._boards.write(_RECORD_BOARD_AGAIN, (message_id, game_id, version))
        else:
            rows = await self._boards.write(_RECORD_BOARD, (message_id, version, version, game_id, version))
        if not rows:  # a newer version's board is recorded already (or the game is gone: nothing to strip)
            gone = not await self._fetchall("SELECT 1 FROM games WHERE id = ?", (game_id,))
            return False, None if gone else message_id
        previous = rows[0]["board_previous"]
        return True, previous if previous != message_id else None
