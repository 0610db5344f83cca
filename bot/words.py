"""A game in words: names, standings, scores, the status and lobby texts, and one line for what a move did.

Pure functions of a stored game (and its state); no Discord calls.
"""

from __future__ import annotations

from datetime import datetime

import engine
from bot.games import adapter_of
from bot.ratings import is_rated
from bot.service import Turn
from bot.store import GameRow
from bot.texts import text, variant_label
from engine import GameState


def names_by_seat(game: GameRow) -> list[str]:
    return [seat.name for seat in game.by_seat()]


def standings_text(game: GameRow, locale: str) -> str:
    result = game.result or {}
    scores = result.get("scores") or []
    names = names_by_seat(game)
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
    names = names_by_seat(game)
    return " · ".join(f"{names[seat]} {score}" for seat, score in enumerate(engine.scores(state)))


def status_text(game: GameRow, state: GameState, locale: str) -> str:
    names = names_by_seat(game)
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
    players = "\n".join(f"{i}. {seat.name}" for i, seat in enumerate(game.seats, start=1))
    key = "bot.lobby.open" if game.status == "lobby" else f"bot.lobby.{game.status}"
    described = text(
        key,
        locale,
        variant=variant_label(game.variant, locale),
        creator=f"<@{game.creator_id}>",
        seats=len(game.seats),
        max=game.max_seats,
        players=players,
        order=text(f"bot.order.{game.seat_order}", locale),
    )
    if game.status == "aborted":
        return described
    kind = text("bot.lobby.rated" if is_rated(game) else "bot.lobby.casual", locale)
    return f"{described}\n{kind}"


def headline(turn: Turn, locale: str) -> str:
    """What the move did, in one line: the adapter's words for its events, or the move's notation."""
    names = names_by_seat(turn.game)
    said = adapter_of(turn.game.variant).describe(turn.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[turn.seat], move=str(turn.move))


__all__ = ["headline", "lobby_text", "names_by_seat", "scores_text", "standings_text", "status_text"]
