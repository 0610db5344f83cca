"""The end of a game: the summary posted with the final board, and its Replay, Animation and Rematch buttons.

The summary tells the standings with the tie-breaks that decided them, each player's points by category (summed from
the events of the whole game, replayed off the event loop), the rating change of each person in a rated game (the
leaderboard's own figure, ``mu - 3 sigma``, before and after), and the game's length and number of moves.

The buttons are persistent (``azul:summary:<game>:<what>``): Replay opens the move-by-move viewer and Animation
sends the GIF (both ephemeral, as ``/azul-stats replay`` does); Rematch opens a lobby in the same channel with the
same variant, settings and players, the seat order rotated by one and computer seats at the same levels, and pings
the players once.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import discord

import engine
from bot.app import ratings
from bot.app.language import text, user_locale
from bot.app.narration import lobby_text, shown_names
from bot.app.ports import Games
from bot.app.records import GameRow, Skill
from bot.games.base import variant_label
from bot.ui.context import bot_of
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.lobby import lobby_view
from bot.ui.replays import finished_game, open_viewer, send_animation
from bot.ui.replies import channel_of, display_name, public_locale
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


async def summary_lines(service: Games, game: GameRow, state: GameState, locale: str) -> list[str]:
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
WHAT = ("replay", "animation", "rematch")


class SummaryButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:summary:(?P<game>{NUMBER}):(?P<what>replay|animation|rematch)",
):
    def __init__(self, game_id: int, what: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if what == "rematch" else discord.ButtonStyle.secondary
        custom_id = f"azul:summary:{game_id}:{what}"
        super().__init__(discord.ui.Button(label=label or what, style=style, custom_id=custom_id))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SummaryButton:
        game = bounded(match["game"])
        return cls(game, match["what"]) if game is not None else forged(cls(0, match["what"]))

    async def act(self, interaction: discord.Interaction) -> None:
        if self.what == "replay":
            await open_viewer(interaction, self.game_id)
        elif self.what == "animation":
            await send_animation(interaction, await finished_game(interaction, self.game_id))
        else:
            await rematch(interaction, self.game_id)


def summary_view(game: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in WHAT:
        view.add_item(SummaryButton(game.id, what, text(f"bot.button.{what}", locale)))
    return view


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """Open the rematch lobby of ``game_id`` in this channel and ping its players (but the one who asked) once."""
    bot = bot_of(interaction)
    user = interaction.user
    game = await bot.service.rematch(game_id, interaction.channel_id or 0, user.id, display_name(user))
    locale = user_locale(interaction)
    public = public_locale(interaction)
    others = [seat.user_id for seat in game.people() if seat.user_id not in (None, user.id)]
    ping = text("bot.summary.rematch_post", public, game=game_id, players=" ".join(f"<@{u}>" for u in others))
    channel = channel_of(interaction)
    if game.channel_id != interaction.channel_id:  # asked in the old game's thread: the lobby goes to its channel
        found = interaction.client.get_channel(game.channel_id) or await interaction.client.fetch_channel(
            game.channel_id
        )
        if isinstance(found, discord.abc.Messageable):
            channel = found
    message = await channel.send(
        f"{lobby_text(game, public)}\n{ping}",
        view=lobby_view(game, public),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in others if u is not None]),
    )
    await bot.service.set_message(game.id, "lobby", message.id)
    await interaction.response.send_message(
        text("bot.summary.rematch_reply", locale, variant=variant_label(game.variant, locale)), ephemeral=True
    )


__all__ = ["CATEGORIES", "SummaryButton", "points_by_category", "rematch", "summary_lines", "summary_view"]
