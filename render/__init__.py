"""Pictures of a game table: a state (plus the last move's events, player names, a locale) in, an image out.

    png = render.render_png(state, names=["Ala", "Bob"], events=events, locale="pl")
    png = render.render_png(state, names=names, info=[None, SeatInfo(robot="trudny", clock="5 godz.")])
    png = render.render_closeup(state, seat, names=names)   # one player's board with the shared area

Pure: no Discord, no disk writes, no state kept between calls beyond lazily cached fonts and static layers.
Each game has one module, named after the game (``Variant.game`` with ``-`` as ``_``: ``render.queens_garden``),
exposing ``draw_table(state, *, names, events, locale, info, seats) -> PIL.Image.Image`` (``seats``: draw only
these boards, for a close-up) and ``closeup_regions(state, seat) -> (shared boxes, board box)``; nothing lists them.
A registered game without one fails :func:`check_renderers` (run at the bot's start-up and in the tests). Shared
pieces (palette, colour-blind marks, tiles, panels, highlights, text fitting, the player header with its per-seat
notes) live in ``render.common``.
``info`` carries what the bot knows about each seat (computer level, away, time left): see
:class:`render.common.SeatInfo`; every game draws it the same way, and leaving it out changes nothing.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Collection, Sequence
from types import ModuleType
from typing import Protocol, cast

from PIL import Image

import engine
from render.common import Box, SeatInfo, captioned, closeup, to_png
from render.palette import FAST, PREVIEW, palette_image, png_level

__all__ = [
    "SeatInfo",
    "check_renderers",
    "render_closeup",
    "render_closeup_image",
    "render_expansion_preview",
    "render_png",
    "render_table",
    "renderer_of",
]

# Drawing shares cached FreeType faces, which must not be used by two threads at once (the bot renders in worker
# threads); drawing takes a few milliseconds, so pictures simply take turns. PNG encoding runs outside the lock.
_drawing = threading.Lock()

Info = Sequence[SeatInfo | None]


class DrawTable(Protocol):
    def __call__(
        self,
        state: engine.GameState,
        *,
        names: Sequence[str],
        events: Sequence[engine.Event],
        locale: str,
        info: Info = (),
        seats: Collection[int] | None = None,
    ) -> Image.Image: ...


class CloseupRegions(Protocol):
    def __call__(self, state: engine.GameState, seat: int) -> tuple[list[Box], Box]: ...


def _module_of(game: str) -> ModuleType:
    module_name = f"{__name__}.{game.replace('-', '_')}"
    try:
        module: ModuleType = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise LookupError(f"no renderer for game {game!r}: add {module_name} with draw_table()") from None
    for needed in ("draw_table", "closeup_regions"):
        if not callable(getattr(module, needed, None)):
            raise LookupError(f"{module_name} has no {needed}()")
    return module


def renderer_of(game: str) -> DrawTable:
    """The ``draw_table`` of ``game``; raises ``LookupError`` when the game has no renderer module."""
    return cast(DrawTable, _module_of(game).draw_table)


def check_renderers() -> None:
    """Fail loudly when a registered game cannot be drawn."""
    for game in engine.game_names():
        _module_of(game)


def _game(state: engine.GameState) -> str:
    return engine.variant_of(state).game


def render_table(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
    caption: str = "",
) -> Image.Image:
    """The whole table of ``state`` as one RGB image; ``names[seat]`` are the players' display names,
    ``info[seat]`` (optional) what else to show beside a name and ``caption`` (optional) the last move in words,
    drawn in a line under the table."""
    draw_table = renderer_of(_game(state))
    with _drawing:
        return captioned(draw_table(state, names=names, events=events, locale=locale, info=info), caption)


def render_png(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
    caption: str = "",
) -> bytes:
    """The same picture as :func:`render_table`, encoded as small, deterministic PNG bytes."""
    image = render_table(state, names=names, events=events, locale=locale, info=info, caption=caption)
    return _encode(image, _game(state), png_level(_game(state)))


def render_closeup_image(
    state: engine.GameState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
) -> Image.Image:
    """``seat``'s personal view, one board wide so a phone shows it twice as large as the whole table. With three or
    four players (a game module with ``draw_personal``): the shared area laid out at that width on top, the
    player's own board below, and a row for each other player. With two (the table is one board wide already):
    the shared area and the player's own board cut from the table."""
    players = len(engine.scores(state))
    if not 0 <= seat < players:
        raise ValueError(f"no seat {seat} at this table")
    module = _module_of(_game(state))
    if players >= 3 and callable(getattr(module, "draw_personal", None)):
        with _drawing:
            personal: Image.Image = module.draw_personal(
                state, seat, names=names, events=events, locale=locale, info=info
            )
        return personal
    draw_table = renderer_of(_game(state))
    with _drawing:  # the other boards are cut away: drawing them would only cost time
        table = draw_table(state, names=names, events=events, locale=locale, info=info, seats={seat})
    regions = cast(CloseupRegions, _module_of(_game(state)).closeup_regions)
    shared, board = regions(state, seat)
    return closeup(table, shared, board)


def render_closeup(
    state: engine.GameState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
) -> bytes:
    """The same picture as :func:`render_closeup_image`, as PNG bytes."""
    image = render_closeup_image(state, seat, names=names, events=events, locale=locale, info=info)
    return _encode(image, _game(state), FAST)


def render_expansion_preview(
    state: engine.GameState,
    seat: int,
    candidates: Sequence[tuple[str, engine.Move]],
    *,
    names: Sequence[str],
    locale: str = "en",
) -> bytes:
    """Queen's Garden: ``seat``'s garden with every candidate expansion move drawn where it would go, each marked
    with its label (``candidates`` are ``(label, move)`` pairs, labels as the picker shows them)."""
    if _game(state) != "queens-garden":
        raise ValueError("expansion previews exist for Queen's Garden only")
    module = _module_of("queens-garden")
    with _drawing:
        image: Image.Image = module.draw_expansion_preview(state, seat, candidates, names=names, locale=locale)
    return _encode(image, "queens-garden", PREVIEW)


def _encode(image: Image.Image, game: str, level: int) -> bytes:
    """PNG bytes of a picture of ``game``: mapped onto its fixed palette, compressed at zlib-ng's ``level``."""
    return to_png(image, palette=palette_image(game), level=level)
