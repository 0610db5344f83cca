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

import engine
from bot.app import ratings
from bot.app.language import text
from bot.app.movelog import MoveLog
from bot.app.narration import shown_names
from bot.app.reads import ResultReads
from bot.app.records import GameRow, Skill
from bot.games import adapter_of
from engine import Event, GameState


def points_by_category(
    variant: str, events: Iterable[Event], start: Sequence[int], final: Sequence[int]
) -> dict[str, list[int]]:
    """Each of the game's scoring categories (``GameAdapter.score_parts``) with its points per seat, summed from
    the game's events (penalties are negative); ``start`` and ``final``: the scores before the first move and at the
    end. The categories add up to the final score."""
    adapter = adapter_of(variant)
    parts = {name: [0] * len(start) for name in adapter.score_parts}
    if "start" in parts:
        parts["start"] = list(start)
    for event in events:
        adapter.count_points(parts, event)
    adapter.settle_points(parts, final)
    return parts


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
    """Why players with equal points are ranked as they are (the game's tie-break), or that they share a place."""
    result = game.result or {}
    scores = result.get("scores") or engine.scores(state)
    names = shown_names(game, locale)
    left = set(game.dropped_seats()) | ({result["resigned"]} if isinstance(result.get("resigned"), int) else set())
    groups = [[seat for seat in group if seat not in left] for group in result.get("standings") or []]
    groups = [group for group in groups if group]
    adapter = adapter_of(game.variant)
    lines = []
    for ahead, behind in itertools.pairwise(groups):
        if scores[ahead[-1]] == scores[behind[0]] and (why := adapter.tie_break(state, ahead, behind, names, locale)):
            lines.append(why)
    for group in groups:
        if len(group) > 1:
            lines.append(adapter.shared_place(", ".join(f"**{names[s]}**" for s in group), locale))
    return lines


async def summary_lines(
    move_log: MoveLog, results: ResultReads, game: GameRow, state: GameState, locale: str
) -> list[str]:
    """The summary of the finished ``game``: length and moves, then each player's place, points by category and
    rating change, then the tie-breaks."""
    result = game.result or {}
    players = game.by_seat()
    moves = await move_log.moves(game.id)
    start, events = await asyncio.to_thread(game_events, game, moves)
    scores = list(result.get("scores") or engine.scores(state))
    parts = points_by_category(game.variant, events, start, scores)
    changes = await results.rating_changes(game.id)
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
        lines += [line, f"-# {said}"] if said else [line]  # a game may declare no categories
    lines += tie_break_lines(game, state, locale)
    return lines


__all__ = ["game_events", "points_by_category", "summary_lines", "tie_break_lines"]
