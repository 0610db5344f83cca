"""What a game's renderer declares: how to draw its table, and which of the optional pictures it can draw.

Each game's module (``render.<game>``, ``Variant.game`` with ``-`` as ``_``) ends with ``RENDERER = Renderer(...)``
naming its drawing functions; :func:`render.register` adds one from elsewhere. A renderer is generic in its game's
state type, so mypy checks that the functions it names take that game's state; the dispatch in :mod:`render` is the
one place that sees a state only as :class:`engine.GameState`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PIL import Image

import engine
from render.common import Box
from render.inputs import SeatInfo
from render.palette import FAST

__all__ = ["CloseupRegions", "DrawPersonal", "DrawPreview", "DrawTable", "Info", "Renderer"]

Info = Sequence[SeatInfo | None]

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class DrawTable(Protocol[S_contra]):
    """The whole table (``seats``: draw only these boards, for a close-up cut from it)."""

    def __call__(
        self,
        state: S_contra,
        *,
        names: Sequence[str],
        events: Sequence[engine.Event],
        locale: str,
        info: Info = (),
        seats: Collection[int] | None = None,
    ) -> Image.Image: ...


class DrawPersonal(Protocol[S_contra]):
    """One player's view, one board wide, with three or more players: the shared area, their board, the others'."""

    def __call__(
        self,
        state: S_contra,
        seat: int,
        *,
        names: Sequence[str],
        events: Sequence[engine.Event],
        locale: str,
        info: Info = (),
    ) -> Image.Image: ...


class DrawPreview(Protocol[S_contra]):
    """``seat``'s board with every candidate move of a previewed step drawn where it would go, each marked with its
    label (``(label, move)`` pairs); see ``MoveCommand.previews``."""

    def __call__(
        self,
        state: S_contra,
        seat: int,
        candidates: Sequence[tuple[str, engine.Move]],
        *,
        names: Sequence[str],
        locale: str,
    ) -> Image.Image: ...


class CloseupRegions(Protocol[S_contra]):
    """The boxes of the shared area and of ``seat``'s board in the table's picture."""

    def __call__(self, state: S_contra, seat: int) -> tuple[list[Box], Box]: ...


@dataclass(frozen=True)
class Renderer(Generic[S]):
    """How one game is drawn. ``draw_table`` and ``closeup_regions`` are required; the rest are capabilities."""

    game: str
    """``Variant.game`` of the game drawn."""
    draw_table: DrawTable[S]
    closeup_regions: CloseupRegions[S]
    draw_personal: DrawPersonal[S] | None = None
    """Without it, a personal view is the shared area and the player's board cut from the table."""
    draw_preview: DrawPreview[S] | None = None
    """Needed when a move command of the game declares ``previews``."""
    png_level: int = FAST
    """zlib-ng's level for the whole table (``python -m bench render`` prints what each level costs)."""
