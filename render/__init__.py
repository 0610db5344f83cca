"""Pictures of a game table: a state (plus the last move's events, player names, a locale) in, an image out.

    png = render.render_png(state, names=["Ala", "Bob"], events=events, locale="pl")

Pure: no Discord, no disk writes, no state kept between calls beyond lazily cached fonts and static layers.
Each game has one module exposing ``draw_table(state, *, names, events, locale) -> PIL.Image.Image``; shared pieces
(palette, colour-blind marks, tiles, panels, highlights, text fitting) live in ``render.common``.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from typing import Any

from PIL import Image

import engine
from render.common import to_png

__all__ = ["RENDERERS", "render_png", "render_table"]

# Drawing shares cached FreeType faces, which must not be used by two threads at once (the bot renders in worker
# threads); drawing takes a few milliseconds, so pictures simply take turns. PNG encoding runs outside the lock.
_drawing = threading.Lock()

# Game name (``Variant.game``) -> the module that draws its table.
RENDERERS: dict[str, str] = {
    "azul": "render.azul",
    "queens-garden": "render.queens_garden",
    "summer-pavilion": "render.summer_pavilion",
}


def render_table(
    state: Any, *, names: Sequence[str], events: Sequence[engine.Event] = (), locale: str = "en"
) -> Image.Image:
    """The whole table of ``state`` as one RGB image; ``names[seat]`` are the players' display names."""
    game = engine.get_variant(state.variant).game
    if game not in RENDERERS:
        raise ValueError(f"no renderer for game {game!r}")
    module = importlib.import_module(RENDERERS[game])
    with _drawing:
        image: Image.Image = module.draw_table(state, names=names, events=events, locale=locale)
    return image


def render_png(state: Any, *, names: Sequence[str], events: Sequence[engine.Event] = (), locale: str = "en") -> bytes:
    """The same picture as :func:`render_table`, encoded as small, deterministic PNG bytes."""
    return to_png(render_table(state, names=names, events=events, locale=locale))
