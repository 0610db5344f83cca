"""What a picture worker runs (:mod:`bot.app.pictures` sends it there): plain data in, PNG bytes out.

This module imports the engine and the renderer only, not discord.py or the store: a worker process imports it by
name, and a light import keeps each worker small in memory and quick to start (or to replace after it died). The bot
imports it at start-up too (to name the work it sends): what draws (Pillow, each game's renderer, the animation and
the players' pictures) loads with the first picture, not then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
import render
from engine import Event, GameState
from render.inputs import LeagueStanding, SeatInfo, Standing


def render_png(  # noqa: PLR0917
    state: GameState, names: list[str], events: list[Event], locale: str, info: list[SeatInfo | None], caption: str = ""
) -> bytes:
    """The posted picture (:func:`render.render_post_png`): made for a phone."""
    return render.render_post_png(state, names=names, events=events, locale=locale, info=info, caption=caption)


def board_in_thread(  # noqa: PLR0917
    state: GameState, names: list[str], events: list[Event], locale: str, info: list[SeatInfo | None], caption: str
) -> bytes:
    """:func:`board_in_worker` for a thread of the bot's process: the state and events as they are, not their JSON
    (the engine never changes a state in place, so the thread may read the loop's own; decoding a state cost a
    tenth of a millisecond, a few per cent of a board)."""
    return render_png(state, names, events, locale, info, caption)


def render_closeup(  # noqa: PLR0917
    state: GameState, seat: int, names: list[str], events: list[Event], locale: str, info: list[SeatInfo | None]
) -> bytes:
    return render.render_closeup(state, seat, names=names, events=events, locale=locale, info=info)


def board_in_worker(  # noqa: PLR0917
    state: dict[str, Any],
    names: list[str],
    events: list[dict[str, Any]],
    locale: str,
    info: list[SeatInfo | None],
    caption: str = "",
) -> bytes:
    """The picture posted after a turn (made for a phone), with the last move in words under it."""
    happened = [Event.from_json(event) for event in events]
    return render_png(engine.from_json(state), names, happened, locale, info, caption)


def render_whole(state: GameState, names: list[str], locale: str, info: list[SeatInfo | None]) -> bytes:
    """The whole table in full detail (:func:`render.render_png`): every player's board at full size."""
    return render.render_png(state, names=names, locale=locale, info=info)


def table_in_worker(state: dict[str, Any], names: list[str], locale: str, info: list[SeatInfo | None]) -> bytes:
    """The whole table in full detail: every player's board at full size."""
    return render_whole(engine.from_json(state), names, locale, info)


def closeup_in_worker(
    state: dict[str, Any], seat: int, names: list[str], locale: str, info: list[SeatInfo | None]
) -> bytes:
    """``seat``'s own board at full size under the shared area."""
    return render_closeup(engine.from_json(state), seat, names, [], locale, info)


def preview_in_worker(
    state: dict[str, Any], seat: int, candidates: list[tuple[str, str]], names: list[str], locale: str
) -> bytes:
    """The picture of a previewed step, its candidates given by their mark and notation."""
    game_state = engine.from_json(state)
    variant = engine.variant_of(game_state)
    moves = [(mark, variant.parse_move(notation)) for mark, notation in candidates]
    return render.render_preview(game_state, seat, moves, names=names, locale=locale)


def animation_in_worker(  # noqa: PLR0917
    variant: str,
    players: int,
    seed: int,
    moves: list[tuple[int, str]],
    options: dict[str, Any] | None,
    names: list[str],
    locale: str,
    max_bytes: int,
    captions: list[str] | None = None,
) -> bytes:
    """A whole game replayed from its log and drawn as an animated GIF of at most ``max_bytes``, each table with
    its move in words (``captions``) under it."""
    from render.animation import animate

    return animate(
        variant,
        players,
        seed,
        moves,
        names=names,
        options=options,
        locale=locale,
        max_bytes=max_bytes,
        captions=captions or (),
    )


def leaderboard_in_worker(title: str, subtitle: str, rows: Sequence[Standing], locale: str) -> bytes:
    """A page of a leaderboard (:func:`render.stats.leaderboard_png`)."""
    from render.stats import leaderboard_png

    return leaderboard_png(title, subtitle, rows, locale)


def profile_in_worker(
    name: str,
    rated: Sequence[tuple[str, Standing]],
    facts: Sequence[tuple[str, str]],
    chart: Mapping[str, Sequence[tuple[float, float]]],
    locale: str,
) -> bytes:
    """A player's profile card (:func:`render.stats.profile_png`)."""
    from render.stats import profile_png

    return profile_png(name, rated, facts, chart, locale)


def league_in_worker(title: str, subtitle: str, rows: Sequence[LeagueStanding], swiss: bool, locale: str) -> bytes:
    """A league's standings (:func:`render.league.standings_png`)."""
    from render.league import standings_png

    return standings_png(title, subtitle, rows, swiss, locale)


def warm_up() -> None:
    """Run as a worker starts: one small picture loads the fonts and tables, so the first real board is not slower."""
    render.warm_up()


__all__ = [
    "animation_in_worker",
    "board_in_thread",
    "board_in_worker",
    "closeup_in_worker",
    "leaderboard_in_worker",
    "league_in_worker",
    "preview_in_worker",
    "profile_in_worker",
    "render_closeup",
    "render_png",
    "render_whole",
    "table_in_worker",
    "warm_up",
]
