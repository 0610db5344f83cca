"""What handlers only read (and the few settings they write unchecked), as small protocols the store's aggregates
serve directly: no layer of the application forwards these calls. A game's move log is :class:`bot.app.movelog.MoveLog`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from typing import Any, Protocol

from bot.app.records import (
    LeagueRow,
    PickerRow,
    PlayerTotals,
    RatingRow,
    ResultRow,
    Skill,
    TableRow,
    UserPrefs,
)


class PlayerPrefs(Protocol):
    """A player's own settings (the store's users)."""

    async def user(self, user_id: int) -> UserPrefs: ...
    async def users(self, user_ids: Collection[int]) -> dict[int, UserPrefs]: ...
    async def set_user(
        self,
        user_id: int,
        *,
        notify_dm: bool | None = None,
        dm_closed_told: bool | None = None,
        locale: str | None = None,
    ) -> None: ...
    async def set_reminder_prefs(self, user_id: int, **values: Any) -> None: ...
    async def quick_play(self, user_id: int) -> bool: ...
    async def set_quick_play(self, user_id: int, enabled: bool) -> None: ...


class ServerPrefs(Protocol):
    """A server's settings that need no check (the store's servers)."""

    async def server_defaults(self, guild_id: int | None) -> tuple[int, str]: ...
    async def server_threads(self, guild_id: int | None) -> bool: ...
    async def set_server_threads(self, guild_id: int, threads: bool) -> None: ...


class ResultReads(Protocol):
    """Results and ratings behind ``/azul stats`` and the profile (the store's results)."""

    async def results(
        self, *, channel_id: int | None = None, guild_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> tuple[list[ResultRow], int]: ...
    async def leaderboard(
        self, family: str, *, guild_id: int | None, z: float, limit: int, offset: int
    ) -> tuple[list[RatingRow], int]: ...
    async def totals_of(self, user_id: int) -> PlayerTotals: ...
    async def ratings_of(self, user_id: int) -> list[RatingRow]: ...
    async def rating_history_of(self, user_id: int) -> dict[str, list[Skill]]: ...
    async def rating_changes(self, game_id: int) -> dict[int, tuple[Skill | None, Skill]]: ...


class PickerSteps(Protocol):
    """The picker's half-made choices (the store's pickers)."""

    async def picker(self, picker_id: int) -> PickerRow | None: ...
    async def create_picker(
        self, game_id: int, version: int, user_id: int, *, command: str | None, chosen: dict[str, str], option: str
    ) -> int: ...


class GameReads(Protocol):
    """The messages a game keeps (to edit them later), and which games have computers or open channels (the store's
    games)."""

    async def set_message(self, game_id: int, kind: str, message_id: int) -> None: ...
    async def set_board(
        self, game_id: int, message_id: int, version: int, *, again: bool = False
    ) -> tuple[bool, int | None]: ...
    def posting_board(self) -> contextlib.AbstractContextManager[None]: ...
    async def games_with_computer_seats(self) -> list[int]: ...
    async def open_game_channels(self) -> list[int]: ...


class LeagueOfGame(Protocol):
    """Which league table a game is played at (the store's leagues)."""

    async def table_of_game(self, game_id: int) -> tuple[TableRow, LeagueRow] | None: ...


__all__ = ["GameReads", "LeagueOfGame", "PickerSteps", "PlayerPrefs", "ResultReads", "ServerPrefs"]
