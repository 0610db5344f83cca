"""Pictures of a game table: a state (plus the last move's events, player names, a locale) in, an image out.

    png = render.render_png(state, names=["Ala", "Bob"], events=events, locale="pl")

Pure: no Discord, no disk writes, no state kept between calls beyond lazily cached fonts and static layers.
Each game has one module, named after the game (``Variant.game`` with ``-`` as ``_``: ``render.queens_garden``),
exposing ``draw_table(state, *, names, events, locale) -> PIL.Image.Image``; nothing lists them. A registered game
without one fails :func:`check_renderers` (run at the bot's start-up and in the tests). Shared pieces (palette,
colour-blind marks, tiles, panels, highlights, text fitting) live in ``render.common``.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Protocol, cast

from PIL import Image

import engine
from render.common import to_png

__all__ = ["check_renderers", "render_png", "render_table", "renderer_of"]

# Drawing shares cached FreeType faces, which must not be used by two threads at once (the bot renders in worker
# threads); drawing takes a few milliseconds, so pictures simply take turns. PNG encoding runs outside the lock.
_drawing = threading.Lock()


class DrawTable(Protocol):
    def __call__(
        self, state: engine.GameState, *, names: Sequence[str], events: Sequence[engine.Event], locale: str
    ) -> Image.Image: ...


def renderer_of(game: str) -> DrawTable:
    """The ``draw_table`` of ``game``; raises ``LookupError`` when the game has no renderer module."""
    module_name = f"{__name__}.{game.replace('-', '_')}"
    try:
        module: ModuleType = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise LookupError(f"no renderer for game {game!r}: add {module_name} with draw_table()") from None
    if not callable(getattr(module, "draw_table", None)):
        raise LookupError(f"{module_name} has no draw_table()")
    return cast(DrawTable, module.draw_table)


def check_renderers() -> None:
    """Fail loudly when a registered game cannot be drawn."""
    for game in engine.game_names():
        renderer_of(game)


def render_table(
    state: engine.GameState, *, names: Sequence[str], events: Sequence[engine.Event] = (), locale: str = "en"
) -> Image.Image:
    """The whole table of ``state`` as one RGB image; ``names[seat]`` are the players' display names."""
    draw_table = renderer_of(engine.variant_of(state).game)
    with _drawing:
        return draw_table(state, names=names, events=events, locale=locale)


def render_png(
    state: engine.GameState, *, names: Sequence[str], events: Sequence[engine.Event] = (), locale: str = "en"
) -> bytes:
    """The same picture as :func:`render_table`, encoded as small, deterministic PNG bytes."""
    return to_png(render_table(state, names=names, events=events, locale=locale))
