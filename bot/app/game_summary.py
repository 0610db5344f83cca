"""The summary posted with a finished game's final board.

It tells the standings with the tie-breaks that decided them, each player's points by category (summed from the
events of the whole game, replayed off the event loop), the rating change of each person in a rated game (the
leaderboard's own figure, ``mu - 3 sigma``, before and after), and the game's length and number of moves.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import engine
from bot.app import ratings
from bot.app.language import text
from bot.app.narration import shown_names
from bot.app.ports import Reads
from bot.app.records import GameRow, Skill
from engine import Event, GameState
from engine.azul import COLOR_BONUS, COLUMN_BONUS, ROW_BONUS, complete_rows

CATEGORIES = {
    "azul": ("wall", "floor", "rows", "columns", "colours"),
    "summer-pavilion": ("start", "placed", "penalties", "stars", "numbers"),
    "queens-garden": ("start", "rounds", "gardens", "storage", "costs"),
}
"""Each game's scoring categories, in the order the summary names them (catalogue ``bot.summary.part.<name>``)."""


def points_by_category(
    variant: str, events: Iterable[Event], start: Sequence[int], final: Sequence[int]
) -> dict[str, list[int]]:
    """Each category's points per seat, summed from the game's events (penalties are negative); ``start`` and
    ``final``: the scores before the first move and at the end. The categories add up to the final score."""
    family = engine.get_variant(variant).game
    players = len(start)
    parts = {name: [0] * players for name in CATEGORIES[family]}
    if "start" in parts:
        parts["start"] = list(start)
    for event in events:
        seat, data = event.seat, event.data
        if family == "azul":
            _azul_points(parts, event.kind, seat, data)
        elif family == "summer-pavilion":
            _pavilion_points(parts, event.kind, seat, data)
        else:
            _garden_points(parts, event.kind, seat, data)
    if family == "queens-garden":
        # Its events give a penalty before the score's floor of 0 cuts it: what penalties and bought expansions
        # really took is what the other categories leave unexplained.
        for seat in range(players):
            parts["costs"][seat] = final[seat] - sum(points[seat] for name, points in parts.items() if name != "costs")
    return parts


def _number(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 0


def _azul_points(parts: dict[str, list[int]], kind: str, seat: int | None, data: Any) -> None:
    if seat is None:
        return
    if kind == "wall":
        parts["wall"][seat] += _number(data.get("points"))
    elif kind == "floor_penalty":
        parts["floor"][seat] += _number(data.get("applied"))  # what it took off: a score never goes below 0
    elif kind == "bonus":
        parts["rows"][seat] += _number(data.get("rows")) * ROW_BONUS
        parts["columns"][seat] += _number(data.get("columns")) * COLUMN_BONUS
        parts["colours"][seat] += _number(data.get("colors")) * COLOR_BONUS


def _pavilion_points(parts: dict[str, list[int]], kind: str, seat: int | None, data: Any) -> None:
    if seat is None:
        return
    if kind == "place":
        parts["placed"][seat] += _number(data.get("points"))
    elif kind in ("pass", "start_tile"):
        parts["penalties"][seat] -= _number(data.get("penalty"))
    elif kind == "end_bonus":
        parts["stars"][seat] += sum(_number(star.get("points")) for star in data.get("stars") or [])
        parts["numbers"][seat] += sum(_number(cost.get("points")) for cost in data.get("costs") or [])


def _garden_points(parts: dict[str, list[int]], kind: str, seat: int | None, data: Any) -> None:
    if kind == "round_scored":
        for index, scored in enumerate(data.get("breakdown") or []):
            parts["rounds"][index] += _number(scored.get("total"))
    elif kind == "final_scored" and seat is not None:
        parts["storage"][seat] += _number(data.get("storage"))
        parts["gardens"][seat] += sum(_number(group.get("points")) for group in data.get("groups") or [])


def game_events(game: GameRow, moves: Sequence[tuple[int, str]]) -> tuple[list[int], list[Event]]:
    """The scores before the first move, and every event of the game, by replaying its log (takes a moment: run
    it in a thread)."""
    state = engine.new_game(game.variant, len(game.by_seat()), game.seed, game.options or None)
    start = engine.scores(state)
    events = list(engine.opening_events(state))
    for seat, notation in moves:
        state, more = engine.apply(state, seat, notation)
        events.extend(more)
    return start, events


def length_words(seconds: float, locale: str) -> str:
    """A game's length in its two largest units: "3 days 4 hours", "2 hours 5 minutes", "7 minutes"."""
    minutes = max(0, int(seconds // 60))
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    units = [("days", days), ("hours", hours), ("minutes", mins)]
    while len(units) > 1 and units[0][1] == 0:
        units.pop(0)
    return " ".join(
        text(f"bot.summary.{unit}", locale, count=count) for unit, count in units[:2] if count or unit == units[0][0]
    )


def signed(points: int) -> str:
    """Points as the posts write them: a penalty with a real minus sign ("−4")."""
    return f"−{-points}" if points < 0 else str(points)


def shown_rating(skill: Skill | None) -> str:
    """A rating as the leaderboard shows it (its conservative estimate); a first rated game starts from the
    newcomer's rating."""
    return f"{ratings.ordinal(skill or ratings.initial()):.1f}"


def tie_break_lines(game: GameRow, state: GameState, locale: str) -> list[str]:
    """Why players with equal points are ranked as they are: Azul's complete rows, or a shared place."""
    result = game.result or {}
    scores = result.get("scores") or engine.scores(state)
    names = shown_names(game, locale)
    left = set(game.dropped_seats()) | ({result["resigned"]} if isinstance(result.get("resigned"), int) else set())
    groups = [[seat for seat in group if seat not in left] for group in result.get("standings") or []]
    groups = [group for group in groups if group]
    azul = engine.get_variant(game.variant).game == "azul"
    rows = [complete_rows(board.wall) for board in state.boards] if azul else []  # type: ignore[attr-defined]
    lines = []
    for ahead, behind in itertools.pairwise(groups):
        if azul and scores[ahead[-1]] == scores[behind[0]]:
            lines.append(
                text(
                    "bot.summary.tie_rows",
                    locale,
                    ahead=", ".join(f"**{names[s]}**" for s in ahead),
                    behind=", ".join(f"**{names[s]}**" for s in behind),
                    rows=rows[ahead[0]],
                    other=rows[behind[0]],
                )
            )
    for group in groups:
        if len(group) > 1:
            key = "bot.summary.shared_azul" if azul else "bot.summary.shared"
            lines.append(text(key, locale, names=", ".join(f"**{names[s]}**" for s in group)))
    return lines


async def summary_lines(service: Reads, game: GameRow, state: GameState, locale: str) -> list[str]:
    """The summary of the finished ``game``: length and moves, then each player's place, points by category and
    rating change, then the tie-breaks."""
    result = game.result or {}
    players = game.by_seat()
    moves = await service.moves(game.id)
    start, events = await asyncio.to_thread(game_events, game, moves)
    scores = list(result.get("scores") or engine.scores(state))
    parts = points_by_category(game.variant, events, start, scores)
    changes = await service.rating_changes(game.id)
    outcomes = ratings.outcomes_of(result, len(players))
    standings = result.get("standings") or [[seat] for seat in range(len(players))]
    places = ratings.places_of(standings, outcomes)
    seconds = (datetime.fromisoformat(game.turn_since) - datetime.fromisoformat(game.created_at)).total_seconds()
    names = shown_names(game, locale)
    lines = [text("bot.summary.head", locale, moves=len(moves), length=length_words(seconds, locale))]
    for seat in [seat for group in standings for seat in group]:
        mark = "" if outcomes[seat] == "played" else " " + text(f"bot.summary.{outcomes[seat]}", locale)
        line = text("bot.post.standing", locale, place=places[seat], name=f"**{names[seat]}**", score=scores[seat])
        line += mark
        user = players[seat].user_id
        if user in changes:
            before, after = changes[user]
            line += " · " + text("bot.summary.rating", locale, before=shown_rating(before), after=shown_rating(after))
        said = " · ".join(
            text(f"bot.summary.part.{name}", locale, points=signed(points[seat])) for name, points in parts.items()
        )
        lines += [line, f"-# {said}"]
    lines += tie_break_lines(game, state, locale)
    return lines


# --- the buttons -------------------------------------------------------------------------------------------------


__all__ = ["CATEGORIES", "game_events", "points_by_category", "summary_lines", "tie_break_lines"]
