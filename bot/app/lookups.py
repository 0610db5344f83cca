"""What handlers read, and the settings a player or admin changes: asked of the service, so no handler reaches the
store.

Each method is one question a handler asks (a game, a half-made choice, a player's preferences, the results and
ratings behind ``/azul stats``) or one setting a player or admin changes that involves no game rules. Moves, seats and
endings go through :class:`bot.app.service.GameService`'s other methods, which check them.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from bot.app import quarantine
from bot.app.timers import deadlines
from bot.infra.store import GameRow, MoveRow, PickerRow, PlayerTotals, RatingRow, ResultRow, Skill, Store, UserPrefs
from bot.infra.store.leagues import LeagueRow, TableRow


class Lookups:
    """Reads and personal settings, answered from the store (the service's first layer)."""

    store: Store

    # --- games ---------------------------------------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        return await self.store.games.game(game_id)

    async def takes_over(self, game_id: int, seat: int, ply: int) -> bool:
        """Whether the computer's move at ``ply`` for a person's seat is its first since it took the seat over (its
        own move before it was not the computer's for the same reason): the one to say so once."""
        return await self.store.moves.cause_before(game_id, seat, ply) != "stand_in"

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, whatever its status (the one a channel's commands speak of)."""
        return await self.store.games.latest_game_in(channel_id)

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        """The user's open games that can be played; one found damaged now is quarantined at once (and then is among
        :meth:`damaged_games_of`)."""
        sound = []
        for game in await self.store.games.open_games_of(user_id):
            why = quarantine.diagnose(game)
            if why is None:
                sound.append(game)
            else:
                await quarantine.quarantine(self.store, game, why)
        return sound

    async def damaged_games_of(self, user_id: int) -> list[GameRow]:
        """The user's open games that are quarantined: not listed with the others, but named to them."""
        return await self.store.games.broken_games_of(user_id)

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        """A game's move log: ``(seat, notation)`` in order."""
        return await self.store.moves.moves(game_id)

    async def move_rows(self, game_id: int) -> list[MoveRow]:
        """A game's move log with each move's seat, time and ply (what the log and "since your turn" tell)."""
        return await self.store.moves.move_rows(game_id)

    async def rows_since_own(self, game_id: int, seat: int) -> list[MoveRow]:
        """The moves after ``seat``'s own latest one (what "since your turn" tells)."""
        return await self.store.moves.rows_since_own(game_id, seat)

    async def games_with_computer_seats(self) -> list[int]:
        return await self.store.games.games_with_computer_seats()

    async def deadlines(self, game: GameRow) -> dict[int, datetime]:
        """When each waiting seat's time runs out (none in a game without a limit)."""
        return await deadlines(self.store, game)

    async def league_table_of(self, game_id: int) -> tuple[TableRow, LeagueRow] | None:
        """The league table a game is played at, with its league (None for a game outside leagues)."""
        return await self.store.leagues.table_of_game(game_id)

    # --- the messages a game keeps ---------------------------------------------------------------------------------
    async def set_message(self, game_id: int, kind: str, message_id: int) -> None:
        """Remember a game's message of one kind (``lobby``…) so it can be edited later."""
        await self.store.games.set_message(game_id, kind, message_id)

    async def set_board(
        self, game_id: int, message_id: int, version: int, *, again: bool = False
    ) -> tuple[bool, int | None]:
        """Remember the newest board (``again``: shown again, not a version's own), ending the claims on posting it and
        older ones in the same write; returns whether it is newer than the one kept and the replaced board's id."""
        return await self.store.games.set_board(game_id, message_id, version, again=again)

    # --- the picker's steps --------------------------------------------------------------------------------------
    async def picker(self, picker_id: int) -> PickerRow | None:
        return await self.store.pickers.picker(picker_id)

    async def create_picker(
        self, game_id: int, version: int, user_id: int, *, command: str | None, chosen: dict[str, str], option: str
    ) -> int:
        return await self.store.pickers.create_picker(
            game_id, version, user_id, command=command, chosen=chosen, option=option
        )

    # --- a player's own settings -----------------------------------------------------------------------------------
    async def user(self, user_id: int) -> UserPrefs:
        return await self.store.users.user(user_id)

    async def users(self, user_ids: Collection[int]) -> dict[int, UserPrefs]:
        """Several players' preferences in one read (a board post's players)."""
        return await self.store.users.users(user_ids)

    async def set_user(
        self,
        user_id: int,
        *,
        notify_dm: bool | None = None,
        dm_closed_told: bool | None = None,
        locale: str | None = None,
    ) -> None:
        await self.store.users.set_user(user_id, notify_dm=notify_dm, dm_closed_told=dm_closed_told, locale=locale)

    async def set_away(self, user_id: int, until: str | None) -> None:
        await self.store.users.set_away(user_id, until)

    async def set_reminder_prefs(self, user_id: int, **values: Any) -> None:
        await self.store.users.set_reminder_prefs(user_id, **values)

    async def quick_play(self, user_id: int) -> bool:
        return await self.store.users.quick_play(user_id)

    async def set_quick_play(self, user_id: int, enabled: bool) -> None:
        await self.store.users.set_quick_play(user_id, enabled)

    # --- a server's settings -------------------------------------------------------------------------------------
    async def server_defaults(self, guild_id: int | None) -> tuple[int, str]:
        """The server's default time limit (hours) and what happens when it runs out."""
        return await self.store.servers.server_defaults(guild_id)

    async def server_threads(self, guild_id: int | None) -> bool:
        return await self.store.servers.server_threads(guild_id)

    async def set_server_threads(self, guild_id: int, threads: bool) -> None:
        await self.store.servers.set_server_threads(guild_id, threads)

    # --- results and ratings -------------------------------------------------------------------------------------
    async def results(
        self, *, channel_id: int | None = None, guild_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> tuple[list[ResultRow], int]:
        return await self.store.results.results(channel_id=channel_id, guild_id=guild_id, limit=limit, offset=offset)

    async def leaderboard(
        self, family: str, *, guild_id: int | None, z: float, limit: int, offset: int
    ) -> tuple[list[RatingRow], int]:
        return await self.store.results.leaderboard(family, guild_id=guild_id, z=z, limit=limit, offset=offset)

    async def totals_of(self, user_id: int) -> PlayerTotals:
        return await self.store.results.totals_of(user_id)

    async def ratings_of(self, user_id: int) -> list[RatingRow]:
        return await self.store.results.ratings_of(user_id)

    async def rating_history_of(self, user_id: int) -> dict[str, list[Skill]]:
        return await self.store.results.rating_history_of(user_id)

    async def rating_changes(self, game_id: int) -> dict[int, tuple[Skill | None, Skill]]:
        """Each seat's rating before (None on a first game) and after a finished game."""
        return await self.store.results.rating_changes(game_id)
