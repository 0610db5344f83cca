"""The board picture of a stored game, drawn off the event loop: in a pool of worker processes
(``AZUL_PICTURE_WORKERS``, :mod:`bot.infra.pools`), or in a thread of the bot's process when the pool has none.

A worker gets plain data only (the game's JSON, its events' JSON, the seats' names and notes, the locale) and returns
the PNG's bytes (:mod:`bot.infra.picture_worker`, what it runs). A picture that fails to draw is logged with the game
id and ``None``
is returned, so a renderer bug never blocks a game: the post goes out without it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import engine
from bot.app.language import text
from bot.app.narration import level_label, level_number
from bot.games import adapter_of
from bot.games.base import variant_label
from bot.infra import metrics
from bot.infra.picture_worker import (
    animation_in_worker,
    board_in_thread,
    board_in_worker,
    closeup_in_worker,
    leaderboard_in_worker,
    league_in_worker,
    preview_in_worker,
    profile_in_worker,
    table_in_worker,
    warm_up,
)
from bot.infra.pools import SingleFlight, WorkerPool
from bot.infra.store import GameRow
from engine import Event, GameState, Move
from render.inputs import LeagueStanding, SeatInfo, Standing
from render.replay import Frame, replay_states

log = logging.getLogger(__name__)


def picture_seats(game: GameRow, locale: str) -> tuple[list[str], list[SeatInfo | None]]:
    """Names and notes of the seats as the picture shows them: a seat the computer plays gets the drawn robot and
    its level (no font we ship has the emoji; "3" for hard where room is short), and a computer seat is named by
    its number."""
    names, info = [], []
    for seat in game.by_seat():
        if seat.is_computer:
            number = 1 + sum(1 for other in game.seats if other.is_computer and other.joined < seat.joined)
            names.append(text("bot.computer.short", locale, number=number))
        else:
            names.append(seat.name)
        level = seat.level
        info.append(SeatInfo(robot=level_label(level, locale), robot_short=level_number(level)) if level else None)
    return names, info


def noted_seats(
    game: GameRow, locale: str, notes: Sequence[SeatInfo | None]
) -> tuple[list[str], list[SeatInfo | None]]:
    """:func:`picture_seats` with ``notes[seat]`` (away until…, time left) added to the computer's."""
    names, info = picture_seats(game, locale)
    for seat, note in enumerate(notes):
        robot = info[seat] if seat < len(info) else None
        if note is not None and seat < len(info):
            info[seat] = note if robot is None else replace(note, robot=robot.robot, robot_short=robot.robot_short)
    return names, info


def move_caption(variant: str, events: Sequence[Event], names: Sequence[str], locale: str) -> str:
    """The last move in words, as the post says it, for the line under the picture (plain text: no markdown). A
    name the picture cannot draw is the picture's "Player N" here too, so the line always says who moved."""
    from render.names import shown as shown_name  # noqa: PLC0415 - with the fonts' tables: not at start-up

    shown = [
        name if shown_name(name, "") else text("picture.player", locale, number=seat + 1)
        for seat, name in enumerate(names)
    ]
    said = adapter_of(variant).describe(events, shown, locale)
    return said.replace("**", "").replace("`", "")


def replay_captions(  # noqa: PLR0917
    variant: str,
    players: int,
    seed: int,
    moves: list[tuple[int, str]],
    options: dict[str, Any] | None,
    names: list[str],
    locale: str,
) -> list[str]:
    """Each table's line for an animation: the game's name on the opening deal, then every move in words."""
    frames = replay_states(variant, players, seed, moves, options)
    return [variant_label(variant, locale)] + [move_caption(variant, f.events, names, locale) for f in frames[1:]]


class Pictures:
    """Draws the bot's pictures in ``workers`` processes (0: in a thread of the bot's process); started with the bot
    and closed when it stops. A whole game's animation is drawn in a worker process even with no workers: a process
    of its own, started for it, so the bot's process never holds a GIF's peak; and asking for an animation already
    being drawn waits for that one."""

    def __init__(self, workers: int = 0) -> None:
        self.pool = WorkerPool("picture", workers, warm_up=warm_up)
        self.heavy = self.pool if workers else WorkerPool("animation", 1, fresh=True)
        self._animations: SingleFlight[tuple[Any, ...], bytes] = SingleFlight()

    def start(self) -> None:
        self.pool.start()
        if self.heavy is not self.pool:
            self.heavy.start()

    async def close(self) -> None:
        await self.pool.close()
        if self.heavy is not self.pool:
            await self.heavy.close()

    async def draw(
        self,
        game: GameRow,
        state: GameState,
        events: Sequence[Event],
        locale: str,
        notes: Sequence[SeatInfo | None] = (),
    ) -> bytes | None:
        """The board picture posted after a turn (see :func:`render.render_post`); ``notes[seat]`` adds notes beside
        a player's name (away until…) to the computer's."""
        names, info = noted_seats(game, locale, notes)
        caption = move_caption(game.variant, events, names, locale)
        try:
            with metrics.picture_timer(game.variant):
                if not self.pool.processes:  # a thread: no JSON to write here and read there
                    png: bytes = await self.pool.run(board_in_thread, state, names, list(events), locale, info, caption)
                    return png
                document, happened = engine.to_json(state), [event.to_json() for event in events]
                png = await self.pool.run(board_in_worker, document, names, happened, locale, info, caption)
                return png
        except Exception:
            log.exception("game %s: the board picture could not be drawn", game.id)
            return None

    async def preview(
        self, game: GameRow, state: GameState, seat: int, candidates: Sequence[tuple[str, Move]], locale: str
    ) -> bytes | None:
        """``seat``'s board with each candidate move of a previewed step drawn where it would go, under its mark
        (see :func:`render.render_preview`)."""
        names, _ = picture_seats(game, locale)
        marked = [(mark, str(move)) for mark, move in candidates]
        try:
            png: bytes = await self.pool.run(preview_in_worker, engine.to_json(state), seat, marked, names, locale)
            return png
        except Exception:
            log.exception("game %s: the preview picture could not be drawn", game.id)
            return None

    async def draw_table(
        self, game: GameRow, state: GameState, locale: str, notes: Sequence[SeatInfo | None] = ()
    ) -> bytes | None:
        """The whole table in full detail, every board at full size (see :func:`render.render_png`)."""
        names, info = noted_seats(game, locale, notes)
        try:
            with metrics.picture_timer(game.variant):
                png: bytes = await self.pool.run(table_in_worker, engine.to_json(state), names, locale, info)
                return png
        except Exception:
            log.exception("game %s: the whole table could not be drawn", game.id)
            return None

    async def draw_closeup(
        self, game: GameRow, state: GameState, seat: int, locale: str, notes: Sequence[SeatInfo | None] = ()
    ) -> bytes | None:
        """``seat``'s own board at full size under the shared area, the others' rows with their notes (see
        :func:`render.render_closeup`)."""
        names, info = noted_seats(game, locale, notes)
        try:
            with metrics.picture_timer(game.variant):
                png: bytes = await self.pool.run(closeup_in_worker, engine.to_json(state), seat, names, locale, info)
                return png
        except Exception:
            log.exception("game %s: the close-up of seat %s could not be drawn", game.id, seat)
            return None

    # Replays and ratings: a failure here is the command's (answered by the one error path), not a game's.
    async def replay_frame(self, frame: Frame, names: Sequence[str], locale: str) -> bytes:
        """One table of a replay (:func:`render.animation.frame_png`), its move said under it."""
        events = [event.to_json() for event in frame.events]
        caption = move_caption(frame.state.variant, frame.events, names, locale)
        document = engine.to_json(frame.state)
        png: bytes = await self.pool.run(board_in_worker, document, list(names), events, locale, [], caption)
        return png

    async def animation(
        self, game: GameRow, moves: Sequence[tuple[int, str]], names: Sequence[str], locale: str, max_bytes: int
    ) -> bytes:
        """The finished ``game`` (its log ``moves``) as an animated GIF (:func:`render.animation.animate`), drawn once
        however many ask for it at the same time."""
        players = len(game.by_seat())
        options = dict(game.options) if game.options else None
        log_of = [(seat, notation) for seat, notation in moves]
        replay = (game.variant, players, game.seed, log_of, options, list(names), locale)

        async def draw() -> bytes:
            captions = await asyncio.to_thread(replay_captions, *replay)  # the engine replays fast; words need the bot
            gif: bytes = await self.heavy.run(animation_in_worker, *replay, max_bytes, captions)
            return gif

        return await self._animations.run((game.id, game.version, locale, max_bytes, tuple(names)), draw)

    async def leaderboard(self, title: str, subtitle: str, standings: Sequence[Standing], locale: str) -> bytes:
        png: bytes = await self.pool.run(leaderboard_in_worker, title, subtitle, list(standings), locale)
        return png

    async def profile(
        self,
        name: str,
        rated: Sequence[tuple[str, Standing]],
        facts: Sequence[tuple[str, str]],
        chart: Mapping[str, Sequence[tuple[float, float]]],
        locale: str,
    ) -> bytes:
        png: bytes = await self.pool.run(profile_in_worker, name, list(rated), list(facts), chart, locale)
        return png

    async def league_standings(
        self, title: str, subtitle: str, rows: Sequence[LeagueStanding], swiss: bool, locale: str
    ) -> bytes:
        png: bytes = await self.pool.run(league_in_worker, title, subtitle, list(rows), swiss, locale)
        return png


__all__ = ["Pictures", "noted_seats", "picture_seats"]
