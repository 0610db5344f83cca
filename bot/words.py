"""A game in words: names, standings, scores, the status and lobby texts, and one line for what a move did.

Pure functions of a stored game (and its state); no Discord calls.
"""

from __future__ import annotations

from datetime import datetime

import discord

import engine
from bot.games import adapter_of
from bot.service import Turn
from bot.store import GameRow
from bot.texts import text, variant_label
from engine import GameState


def names_by_seat(game: GameRow) -> list[str]:
    """Names as people chose them, for pictures; text uses :func:`shown_names`."""
    return [seat.name for seat in game.by_seat()]


def shown(name: str) -> str:
    """A player's name made inert in a message: no markdown, and a nickname like ``<@123>`` or ``@everyone`` pings
    nobody (mentions are allowed only for the seats a post names, but the text must not even look like one)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def shown_names(game: GameRow) -> list[str]:
    """Names by seat, escaped for message text."""
    return [shown(name) for name in names_by_seat(game)]


def standings_text(game: GameRow, locale: str) -> str:
    result = game.result or {}
    scores = result.get("scores") or []
    names = shown_names(game)
    lines = []
    place = 1  # standard competition ranking (1, 1, 3, 4), as the final picture shows it
    for group in result.get("standings") or []:
        for seat in group:
            score = scores[seat] if seat < len(scores) else 0
            mark = " " + text("bot.post.resigned", locale) if seat == result.get("resigned") else ""
            lines.append(text("bot.post.standing", locale, place=place, name=names[seat], score=score) + mark)
        place += len(group)
    return "\n".join(lines)


def scores_text(game: GameRow, state: GameState) -> str:
    names = shown_names(game)
    return " · ".join(f"{names[seat]} {score}" for seat, score in enumerate(engine.scores(state)))


def status_text(game: GameRow, state: GameState, locale: str) -> str:
    names = shown_names(game)
    since = int(datetime.fromisoformat(game.turn_since).timestamp())
    lines = [
        text(
            "bot.status.title",
            locale,
            variant=variant_label(game.variant, locale),
            game=game.id,
            round=engine.variant_of(state).round_number(state),
        )
    ]
    if game.status == "over":
        lines.append(text("bot.post.game_over", locale))
        lines.append(standings_text(game, locale))
    else:
        waiting = ", ".join(f"**{names[s]}**" for s in sorted(engine.to_act(state)))
        lines.append(text("bot.status.to_act", locale, players=waiting, since=f"<t:{since}:R>"))
        lines.append(text("bot.status.scores", locale, scores=scores_text(game, state)))
    lines.append(
        text("bot.status.order", locale, order=", ".join(names), how=text(f"bot.order.{game.seat_order}", locale))
    )
    return "\n".join(lines)


def lobby_text(game: GameRow, locale: str) -> str:
    players = "\n".join(f"{i}. {shown(seat.name)}" for i, seat in enumerate(game.seats, start=1))
    key = "bot.lobby.open" if game.status == "lobby" else f"bot.lobby.{game.status}"
    return text(
        key,
        locale,
        variant=variant_label(game.variant, locale),
        creator=f"<@{game.creator_id}>",
        seats=len(game.seats),
        max=game.max_seats,
        players=players,
        order=text(f"bot.order.{game.seat_order}", locale),
    )


def headline(turn: Turn, locale: str) -> str:
    """What the move did, in one line: the adapter's words for its events, or the move's notation."""
    names = shown_names(turn.game)
    said = adapter_of(turn.game.variant).describe(turn.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[turn.seat], move=str(turn.move))


__all__ = [
    "headline",
    "lobby_text",
    "names_by_seat",
    "scores_text",
    "shown",
    "shown_names",
    "standings_text",
    "status_text",
]
