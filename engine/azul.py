"""Azul (2017): the coloured wall (``azul``) and the grey wall (``azul-grey``). Rules: shared/rules/azul.md.

State layout (the renderer and the bot read these fields; keep them stable):
- colours are ints 0..4 in the order of ``COLORS``; ``MARKER`` (5) stands for the starting-player marker on a floor;
- a multiset of tiles is a list of 5 counts indexed by colour (factories, centre, bag, lid);
- a board has ``line_color``/``line_count`` per pattern line 0..4 (capacity index+1; colour -1 when empty),
  ``wall[row][col]`` (colour or -1), ``floor`` (colours and MARKER in the order they arrived, at most 7);
- ``phase`` is ``"offer"`` (factory offer, ``current`` moves), ``"wall"`` (grey wall: seats in ``choosing`` pick
  columns) or ``"over"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLORS = ("blue", "yellow", "red", "black", "white")
MARKER = 5
LINES = 5
WALL_SIZE = 5
FLOOR_PENALTIES = (-1, -1, -2, -2, -2, -3, -3)
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}
TILES_PER_COLOR = 20
TILES_PER_FACTORY = 4


def wall_color(row: int, col: int) -> int:
    """The colour printed at ``(row, col)`` of the coloured wall."""
    return (col - row) % WALL_SIZE


def wall_column(row: int, color: int) -> int:
    """The column of ``color`` in ``row`` of the coloured wall."""
    return (color + row) % WALL_SIZE


@dataclass(slots=True)
class AzulBoard:
    score: int = 0
    line_color: list[int] = field(default_factory=lambda: [-1] * LINES)
    line_count: list[int] = field(default_factory=lambda: [0] * LINES)
    wall: list[list[int]] = field(default_factory=lambda: [[-1] * WALL_SIZE for _ in range(WALL_SIZE)])
    floor: list[int] = field(default_factory=list)


@dataclass(slots=True)
class AzulState:
    variant: str
    seed: int
    rng: int
    round: int
    phase: str
    start_seat: int
    current: int
    factories: list[list[int]]
    centre: list[int]
    marker_in_centre: bool
    bag: list[int]
    lid: list[int]
    boards: list[AzulBoard]
    # Grey wall only: seats that still have a column to choose this wall-tiling phase.
    choosing: list[int] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.boards)
