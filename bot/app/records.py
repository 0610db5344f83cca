"""The rows the application hands to handlers (a game, a player's settings, results, leagues): their shapes in one
place, so the Discord side reads them without importing the store that keeps them."""

from bot.infra.store import (
    GameResult,
    GameRow,
    MoveRow,
    PickerRow,
    PlayerTotals,
    RatingRow,
    ResultRow,
    ResultSeat,
    Skill,
    UserPrefs,
)
from bot.infra.store.leagues import LeaguePlayer, LeagueRow, TableRow

__all__ = [
    "GameResult",
    "GameRow",
    "LeaguePlayer",
    "LeagueRow",
    "MoveRow",
    "PickerRow",
    "PlayerTotals",
    "RatingRow",
    "ResultRow",
    "ResultSeat",
    "Skill",
    "TableRow",
    "UserPrefs",
]
