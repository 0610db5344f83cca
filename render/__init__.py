"""Pictures of a game table: a state (plus the last move's events, player names, a locale) in, an image out.

    png = render.render_post_png(state, names=["Ala", "Bob"], events=events, locale="pl")  # what the bot posts
    png = render.render_png(state, names=["Ala", "Bob"], events=events, locale="pl")  # the whole table
    png = render.render_png(state, names=names, info=[None, SeatInfo(robot="trudny", clock="5 godz.")])
    png = render.render_closeup(state, seat, names=names)   # one player's board with the shared area

Pure: no Discord, no disk writes, no state kept between calls beyond lazily cached fonts and static layers.
Each game has one module, named after the game (``Variant.game`` with ``-`` as ``_``), ending with ``RENDERER``: a
:class:`render.base.Renderer` naming its ``draw_table`` and ``closeup_regions`` and what else it can draw (a personal
view, the preview of a step that words cannot show) and how hard to compress its tables; nothing lists them, and
:func:`register` adds a game's renderer from elsewhere. A registered game without one fails :func:`check_renderers`
(run at the bot's start-up and in the tests). Shared
pieces (palette, colour-blind marks, tiles, panels, highlights, text fitting, the player header with its per-seat
notes) live in ``render.common``.
``info`` carries what the bot knows about each seat (computer level, away, time left): see
:class:`render.inputs.SeatInfo`; every game draws it the same way, and leaving it out changes nothing.

Importing this package loads neither Pillow nor any drawing module (the bot imports it at start-up, and its first
answer draws nothing): they load with the first picture, or the first renderer looked up.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import engine
from engine.core import PerGame
from render.inputs import SeatInfo

if TYPE_CHECKING:
    from PIL import Image

    from render.base import Info, Renderer

__all__ = [
    "Renderer",
    "SeatInfo",
    "check_renderers",
    "focus_seat",
    "register",
    "render_closeup",
    "render_closeup_image",
    "render_png",
    "render_post",
    "render_post_png",
    "render_preview",
    "render_table",
    "renderer_of",
    "unregister",
    "warm_up",
]

# Drawing shares cached FreeType faces, which must not be used by two threads at once (the bot renders in worker
# threads); drawing takes a few milliseconds, so pictures simply take turns. PNG encoding runs outside the lock.
_drawing = threading.Lock()


@cache
def _renderers() -> PerGame[Renderer[Any]]:
    """Each game's renderer, by ``Variant.game``. Its state type is known only to it: here every state is a
    GameState. Made on first use: :mod:`render.base` imports the drawing modules."""
    from render.base import Renderer

    return PerGame(__name__, "RENDERER", Renderer, "no renderer for game {game}: add {module} with RENDERER")


def __getattr__(name: str) -> Any:
    """``render.Renderer``, loaded when asked for (see the module's note on imports)."""
    if name == "Renderer":
        from render.base import Renderer

        return Renderer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register(renderer: Renderer[Any]) -> None:
    """Draw ``renderer.game`` with ``renderer`` (a game declared outside this package, or a test's own game)."""
    _renderers().register(renderer)


def unregister(game: str) -> None:
    """Forget a renderer added by :func:`register`."""
    _renderers().unregister(game)


def renderer_of(game: str) -> Renderer[Any]:
    """The renderer of ``game``: registered, or ``RENDERER`` of ``render.<game>``; ``LookupError`` when none."""
    return _renderers().of(game)


def check_renderers() -> None:
    """Fail loudly when a registered game cannot be drawn, or cannot draw the previews its moves declare."""
    for name in engine.variant_names():
        variant = engine.get_variant(name)
        renderer = renderer_of(variant.game)
        previewed = [command.name for command in variant.commands if command.previews]
        if previewed and renderer.draw_preview is None:
            raise LookupError(f"{variant.game!r} declares previews of {previewed} but its renderer has no draw_preview")


def _renderer(state: engine.GameState) -> Renderer[Any]:
    return renderer_of(engine.variant_of(state).game)


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
    from render.common import stacked

    return stacked(_table_parts(state, names=names, events=events, locale=locale, info=info, caption=caption))


def _table_parts(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event],
    locale: str,
    info: Info,
    caption: str,
) -> list[Image.Image]:
    """The whole table and the strips under it (legend, caption), apart: see :func:`render.common.under`."""
    from render.common import legend_notes, under

    renderer = _renderer(state)
    with _drawing, legend_notes() as notes:
        table = renderer.draw_table(state, names=names, events=events, locale=locale, info=info)
        return [table, *under(table, notes=notes, caption=caption)]


def focus_seat(state: engine.GameState) -> int:
    """The seat whose board the posted picture shows in full: whoever must act next (the first of them when several
    may), and at the end the winner (the first of the best)."""
    acting = engine.to_act(state)
    if acting:
        return min(acting)
    return min(engine.standings(state)[0])


def render_post(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
    caption: str = "",
) -> Image.Image:
    """The picture posted after every turn, made for a phone (see :mod:`render.phone`): the personal view of
    :func:`focus_seat` (the shared area one board wide, that seat's board in full, a row for every other player and
    a legend of the picture's short marks), with the last move in words under it. The whole table
    (:func:`render_table`) is one tap away in the bot."""
    from render.common import stacked

    return stacked(_post_parts(state, names=names, events=events, locale=locale, info=info, caption=caption))


def _post_parts(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event],
    locale: str,
    info: Info,
    caption: str,
) -> list[Image.Image]:
    """The posted picture as parts, top to bottom, for the encoder to take without stacking them."""
    from render.common import caption_strip

    parts = _closeup_parts(state, focus_seat(state), names=names, events=events, locale=locale, info=info)
    with _drawing:  # the caption's words are rendered by the shared FreeType faces too
        line = caption_strip(parts[0].width, sum(part.height for part in parts), caption)
    return [*parts, line] if line is not None else parts


def render_post_png(
    state: engine.GameState,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
    caption: str = "",
) -> bytes:
    """The same picture as :func:`render_post`, encoded as small, deterministic PNG bytes."""
    from render.palette import POSTED

    parts = _post_parts(state, names=names, events=events, locale=locale, info=info, caption=caption)
    return _encode(parts, _renderer(state).game, POSTED)


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
    parts = _table_parts(state, names=names, events=events, locale=locale, info=info, caption=caption)
    renderer = _renderer(state)
    return _encode(parts, renderer.game, renderer.png_level)


def render_closeup_image(
    state: engine.GameState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event] = (),
    locale: str = "en",
    info: Info = (),
) -> Image.Image:
    """``seat``'s personal view, one board wide so a phone shows it large. With a renderer with ``draw_personal``:
    the shared area laid out at that width on top, the player's own board below, and a row for each other player.
    Without: the shared area and the player's own board cut from the whole table."""
    from render.common import stacked

    return stacked(_closeup_parts(state, seat, names=names, events=events, locale=locale, info=info))


def _closeup_parts(
    state: engine.GameState,
    seat: int,
    *,
    names: Sequence[str],
    events: Sequence[engine.Event],
    locale: str,
    info: Info,
) -> list[Image.Image]:
    """``seat``'s personal view and its legend, apart (see :func:`render.common.under`)."""
    from render.common import closeup, legend_notes, under

    players = len(engine.scores(state))
    if not 0 <= seat < players:
        raise ValueError(f"no seat {seat} at this table")
    renderer = _renderer(state)
    if renderer.draw_personal is not None:
        with _drawing, legend_notes() as notes:
            view = renderer.draw_personal(state, seat, names=names, events=events, locale=locale, info=info)
            return [view, *under(view, notes=notes)]
    with _drawing:  # the other boards are cut away: drawing them would only cost time
        table = renderer.draw_table(state, names=names, events=events, locale=locale, info=info, seats={seat})
    shared, board = renderer.closeup_regions(state, seat)
    return [closeup(table, shared, board)]


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
    from render.palette import FAST

    parts = _closeup_parts(state, seat, names=names, events=events, locale=locale, info=info)
    return _encode(parts, _renderer(state).game, FAST)


def render_preview(
    state: engine.GameState,
    seat: int,
    candidates: Sequence[tuple[str, engine.Move]],
    *,
    names: Sequence[str],
    locale: str = "en",
) -> bytes:
    """The picture of a previewed step (``MoveCommand.previews``: where an expansion goes and how it is turned):
    ``seat``'s board with every candidate move drawn where it would go, each marked with its label (``candidates``
    are ``(label, move)`` pairs, labels as the picker shows them). ``ValueError`` for a game that declares none."""
    from render.palette import PREVIEW

    renderer = _renderer(state)
    if renderer.draw_preview is None:
        raise ValueError(f"{renderer.game!r} draws no previews")
    with _drawing:
        image = renderer.draw_preview(state, seat, candidates, names=names, locale=locale)
    return _encode(image, renderer.game, PREVIEW)


def warm_up() -> None:
    """Draw one small table, so that the fonts and cached layers are loaded before the first real picture (a picture
    worker runs this as it starts): the first registered variant's opening with its fewest players."""
    variant = engine.get_variant(engine.variant_names()[0])
    names = [""] * variant.min_players
    render_png(engine.new_game(variant.name, variant.min_players, 1), names=names)


def _encode(image: Image.Image | Sequence[Image.Image], game: str, level: int) -> bytes:
    """PNG bytes of a picture of ``game``: mapped onto its fixed palette, compressed at zlib-ng's ``level``."""
    from render.palette import palette_image
    from render.png import to_png

    return to_png(image, palette=palette_image(game), level=level)
