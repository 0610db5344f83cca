"""A game in words: names, standings, scores, the status and lobby texts, and one line for what a move did.

Pure functions of a stored game (and its state); no Discord calls.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

import discord

import engine
from bot.app.computer import LEVELS
from bot.app.language import text
from bot.app.outcomes import Turn, Undone
from bot.app.ratings import is_rated
from bot.games import adapter_of
from bot.games.base import variant_label
from bot.infra.store import GameRow, Seat
from data.i18n import has
from engine import GameState, Move

ROBOT = "🤖"


def level_label(level: str, locale: str) -> str:
    return text(f"bot.level.{level}", locale)


def level_number(level: str) -> str:
    """A computer level as the picture's short form shows it: "1" easy, "2" medium, "3" hard."""
    return str(LEVELS.index(level) + 1) if level in LEVELS else level


def seat_label(game: GameRow, seat: Seat, locale: str, *, escape: bool = True) -> str:
    """A seat's name as posts show it: a computer seat is named by its number and level, with a robot mark; a
    person's seat the computer plays for them keeps their name and gets the mark. ``escape``: the person's name is
    made inert for message text (see :func:`shown`); pictures draw it as it is."""
    if seat.is_computer:
        number = 1 + sum(1 for other in game.seats if other.is_computer and other.joined < seat.joined)
        name = text("bot.computer.name", locale, number=number, level=level_label(seat.level or "", locale))
        return f"{ROBOT} {name}"
    name = shown(seat.name) if escape else seat.name
    return f"{name} {ROBOT}" if seat.computer_plays else name


def names_by_seat(game: GameRow, locale: str = "en") -> list[str]:
    """Names by seat as people chose them, for pictures; text uses :func:`shown_names`."""
    return [seat_label(game, seat, locale, escape=False) for seat in game.by_seat()]


@functools.lru_cache(maxsize=4096)
def shown(name: str) -> str:
    """A player's name made inert in a message: no markdown, and a nickname like ``<@123>`` or ``@everyone`` pings
    nobody (mentions are allowed only for the seats a post names, but the text must not even look like one). Kept:
    a move's words name every seat a few times, and escaping a name takes 6 us."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def shown_names(game: GameRow, locale: str = "en") -> list[str]:
    """Names by seat as message text shows them: escaped, computer seats named by number and level."""
    return [seat_label(game, seat, locale) for seat in game.by_seat()]


def standings_text(game: GameRow, locale: str) -> str:
    result = game.result or {}
    scores = result.get("scores") or []
    names = shown_names(game, locale)
    lines = []
    place = 1  # standard competition ranking (1, 1, 3, 4), as the final picture shows it
    for group in result.get("standings") or []:
        for seat in group:
            score = scores[seat] if seat < len(scores) else 0
            mark = ""
            if seat == result.get("resigned") or seat in game.resigned_seats():
                mark = " " + text("bot.post.resigned", locale)
            elif seat in game.dropped_seats():
                mark = " " + text("bot.limit.dropped_mark", locale)
            lines.append(text("bot.post.standing", locale, place=place, name=names[seat], score=score) + mark)
        place += len(group)
    return "\n".join(lines)


def scores_text(game: GameRow, state: GameState, locale: str = "en") -> str:
    names = shown_names(game, locale)
    return " · ".join(f"{names[seat]} {score}" for seat, score in enumerate(engine.scores(state)))


def status_text(game: GameRow, state: GameState, locale: str) -> str:
    names = shown_names(game, locale)
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
        lines.append(text("bot.status.scores", locale, scores=scores_text(game, state, locale)))
    lines.append(
        text("bot.status.order", locale, order=", ".join(names), how=text(f"bot.order.{game.seat_order}", locale))
    )
    return "\n".join(lines)


def limit_line(hours: int, action: str, locale: str) -> str:
    """The time limit of a game (or a server's default) in words: "⏳ 24 h per move; then the computer…"."""
    if not hours:
        return text("bot.limit.none", locale)
    return text("bot.limit.line", locale, hours=hours, then=text(f"bot.limit.then.{action}", locale))


def thinking_line(seconds: int, locale: str) -> str:
    """How long a game's (or a server's new games') computer players think per move."""
    return text("bot.thinking.line", locale, seconds=seconds)


def lobby_text(game: GameRow, locale: str) -> str:
    players = "\n".join(f"{i}. {seat_label(game, seat, locale)}" for i, seat in enumerate(game.seats, start=1))
    key = "bot.lobby.open" if game.status == "lobby" else f"bot.lobby.{game.status}"
    said = text(
        key,
        locale,
        variant=variant_label(game.variant, locale),
        creator=f"<@{game.creator_id}>",
        seats=len(game.seats),
        max=game.max_seats,
        players=players,
        order=text(f"bot.order.{game.seat_order}", locale),
    )
    if game.lobby_channel_id is not None:  # the game moved to its own thread
        said += "\n" + text("bot.thread.link", locale, thread=f"<#{game.channel_id}>")
    if game.status == "aborted":
        return said
    kind = text("bot.lobby.rated" if is_rated(game) else "bot.lobby.casual", locale)
    hints = "\n" + text("bot.lobby.hints_on", locale) if game.hints and game.status == "lobby" else ""
    undo = "\n" + text("bot.lobby.undo_off", locale) if not game.undo and game.status == "lobby" else ""
    limit = "\n" + limit_line(game.time_limit_hours, game.on_timeout, locale) if game.status == "lobby" else ""
    note_key = f"bot.lobby.note.{game.variant}"  # what a player should know about this variant before joining
    note = "\n" + text(note_key, locale) if game.status == "lobby" and has(note_key, locale) else ""
    # The default thinking time goes without saying; a longer one tells players the computer's turns take a while.
    thinking = "\n" + thinking_line(game.thinking, locale) if game.thinking > 1 and game.status == "lobby" else ""
    return f"{said}\n{kind}{note}{hints}{limit}{thinking}{undo}"


def move_sentence(game: GameRow, state: GameState, seat: int, move: Move, locale: str) -> str:
    """A move as the picker's confirm says it, as a clause ("take 2 blue tiles from factory 1 to line 4, …"): the
    same sentence a player reads before playing it, cost included."""
    asked = adapter_of(game.variant).confirm(state, seat, move.command, dict(move.choices()), locale).rstrip("?")
    return asked[:1].lower() + asked[1:]


def hint_text(
    game: GameRow, state: GameState, seat: int, move: Move, *, reasons: list[tuple[str, dict[str, Any]]], locale: str
) -> str:
    """The strongest level's move for ``seat`` and a few words on why (the engine's reasons, translated)."""
    lines = [text("bot.hint.move", locale, move=move_sentence(game, state, seat, move, locale), notation=str(move))]
    for key, params in reasons:
        said = reason_text(key, params, locale)
        if said:
            lines.append(f"• {said}")
    return "\n".join(lines)


def reason_text(key: str, params: dict[str, Any], locale: str) -> str:
    """One of the engine's reasons in words; points are rounded to whole points (``count`` picks the plural)."""
    if key == "points_now":
        points = round(float(params.get("points", 0)))
        key = "points_gain" if points > 0 else "points_loss" if points < 0 else "points_even"
        return text(f"bot.hint.{key}", locale, count=abs(points))
    if key in ("gives_up", "denies"):
        points = round(float(params.get("points", 0)))
        return text(f"bot.hint.{key}", locale, count=points) if points else ""
    if key == "avoids_loss":
        worst = round(float(params.get("worst", 0)))
        return text("bot.hint.avoids_loss", locale, count=params.get("moves", 0), of=params.get("of", 0), worst=worst)
    full = f"bot.hint.{key}"
    return text(full, locale, **params) if has(full, locale) else ""


def headline(turn: Turn, locale: str) -> str:
    """What the move did, in one line: the adapter's words for its events, or the move's notation."""
    names = shown_names(turn.game, locale)
    said = adapter_of(turn.game.variant).describe(turn.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[turn.seat], move=str(turn.move))


def undone_words(undone: Undone, locale: str) -> str:
    """The move that was taken back, in the words its own post used."""
    names = shown_names(undone.game, locale)
    said = adapter_of(undone.game.variant).describe(undone.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[undone.seat], move=str(undone.move))


def undo_headline(undone: Undone, locale: str) -> str:
    """The restored board's one line: which move was taken back."""
    return text("bot.post.undone", locale, move=undone_words(undone, locale))


__all__ = [
    "ROBOT",
    "headline",
    "hint_text",
    "level_label",
    "limit_line",
    "lobby_text",
    "names_by_seat",
    "scores_text",
    "seat_label",
    "shown",
    "shown_names",
    "standings_text",
    "status_text",
    "undo_headline",
    "undone_words",
]
