"""Azul: Queen's Garden, standard side (``queens-garden``) and variant side (``queens-garden-variant``).

Rules: shared/rules/queens_garden.md; component numbers: data/queens_garden.json through
:mod:`engine.queens_garden_data` (loaded on first use, so a corrected number needs no code change).

Vocabulary and state layout (the renderer and the bot read these fields; keep them stable):
- a **hexagon kind** is ``color * 6 + pattern - 1`` (colour 0..5 in the data file's order, pattern value 1..6); its
  token is the colour code and the value, e.g. ``bl3`` for a blue butterfly. Expansions are identified by their
  printed hexagon (each is printed on exactly one), so an expansion id is a kind too; as a payment item an expansion
  is written with an ``x`` prefix (``xbl3``) to tell it from a tile of the same hexagon.
- garden cells that can hold hexagons are indexed by :data:`CELLS` with short stable names: ``F1``..``F6`` around the
  fountain, ``A1-0``..``A6-6`` in the six expansion areas (``-0`` is an area's centre, ``-1``..``-6`` its outer cells
  in direction order). Ornaments are named ``F`` (fountain), ``S1``..``S3`` (statues), ``B1``..``B3`` (benches),
  ``P1``..``P6`` (the pavilion of a face-up expansion in that area).
- a garden keeps ``hexes[cell]`` (kind or -1), ``areas[a]`` (expansion kind or -1) and ``rotations[a]`` (-1 for a
  face-down expansion, else the outer direction 0..5 that holds the printed hexagon).
- the display is the round ``stack`` (expansion kinds, top first) with ``top_tiles`` on its top expansion, and
  ``display``: the expansions moved beside it, each with its tiles, or face up (then acquirable as a hexagon).
  Locations are ``s`` (the stack top) and ``d1``, ``d2``... (display items in order).
- tile multisets (bag, tower, storages) are 36 counts indexed by kind.

Moves (``command`` and the ``choices()`` options):
- ``acquire <by> [<which>]``: by a colour code or a pattern value; ``which`` picks, for each kind found in several
  locations, the location to take it from (``ye2@d1``, several joined by ``+``), ``-`` when there is nothing to pick.
- ``tile <tile> <payment> <cell>``: a tile from storage, the other hexagons and jokers paid (``ye3+xlg3+2j``, ``-``
  when the cost is 1), the garden cell.
- ``expansion <expansion> <payment> <area> <rotation>``: a face-up expansion from storage (by its hexagon) or
  ``supply`` (face down, for the supply cost in points); area ``A1``..``A6``; rotation ``1``..``6`` = the outer cell
  that gets the printed hexagon (``-`` for a face-down one).
- ``pass [<discard>]``: the hexagons discarded from storage, e.g. ``bl3+2ye2+xlg1``.

Events (``Event.kind``: data):
- ``acquire``: by, taken (list of {kind, location, expansion}), tiles, expansions
- ``stack_moved``: expansion, tiles (the stack's top went beside the stack with the tiles left on it)
- ``display_refilled``: tiles drawn onto the new stack top (and ``bag_refilled`` when the tower went back in the bag)
- ``expansion_turned``: expansion, location (an emptied display expansion became acquirable)
- ``tile_placed``: tile, cell, payment, cost
- ``expansion_placed``: expansion (kind or None for a face-down one), area, rotation, payment, points (lost)
- ``joker_earned``: ornament, count, lost
- ``pass``: discarded, penalty (before the score's floor of 0), marker (True for the first to pass, who also loses
  the pass penalty), score (after the pass: what the penalty really took is the score before less this)
- ``round_scored``: round, breakdown per seat {criteria: [points per wheel criterion], pavilions, total}, scores
- ``round_started``: round, start_seat, stack (expansions left in it), top_tiles, display (face-up kinds); also
  from ``opening_events`` for round 1
- ``final_scored`` (one per seat): storage (jokers minus hexagons left), groups [{category, cells, points}], total
- ``game_over``: scores, standings
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import NamedTuple, TypeVar, cast

from engine.core import (
    ANY_SET,
    JSON,
    BadNotation,
    Event,
    GameOver,
    IllegalMove,
    Move,
    MoveCommand,
    NotYourTurn,
    Rng,
    Variant,
    check_no_options,
    check_players,
    ranked,
    seed_state,
)
from engine.queens_garden_data import ComponentError, Components, load_components
from engine.strict import MAX_RNG, invalid, read_bool, read_int, read_ints, read_list, read_object, read_rows, read_str

KINDS = 36
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SUPPLY = "supply"
NONE = "-"


def color_of(kind: int) -> int:
    return kind // 6


def pattern_of(kind: int) -> int:
    return kind % 6 + 1


def kind_of(color: int, pattern: int) -> int:
    return color * 6 + pattern - 1


COLOR_OF = tuple(color_of(kind) for kind in range(KINDS))
PATTERN_OF = tuple(pattern_of(kind) for kind in range(KINDS))
PATTERN_GROUPS = tuple(6 + pattern for pattern in PATTERN_OF)
"""Per kind, its pattern as a group after the six colours (grouping the offer by colour and by pattern at once)."""
FAMILY_MASKS = tuple(
    sum(
        1 << other
        for other in range(KINDS)
        if other != kind and (COLOR_OF[other] == COLOR_OF[kind]) != (PATTERN_OF[other] == PATTERN_OF[kind])
    )
    for kind in range(KINDS)
)
"""Per kind, a mask of the kinds that may pay for it: the other kinds of its colour and of its pattern."""


# --- garden geometry --------------------------------------------------------------------------------------------
def _add(a: tuple[int, int], b: tuple[int, int], times: int = 1) -> tuple[int, int]:
    return a[0] + times * b[0], a[1] + times * b[1]


def _area_centre(area: int) -> tuple[int, int]:
    return _add((0, 0), DIRS[area], 3)


def _build_cells() -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    names = [f"F{d + 1}" for d in range(6)]
    coords = [DIRS[d] for d in range(6)]
    for area in range(6):
        centre = _area_centre(area)
        names.append(f"A{area + 1}-0")
        coords.append(centre)
        for d in range(6):
            names.append(f"A{area + 1}-{d + 1}")
            coords.append(_add(centre, DIRS[d]))
    return tuple(names), tuple(coords)


CELLS, CELL_COORDS = _build_cells()
"""Every cell that can hold a hexagon: 6 fountain cells, then 7 per area (centre first)."""
CELL_INDEX = {name: index for index, name in enumerate(CELLS)}
_COORD_INDEX = {coord: index for index, coord in enumerate(CELL_COORDS)}


def _neighbours(coord: tuple[int, int]) -> tuple[int, ...]:
    return tuple(_COORD_INDEX[n] for d in DIRS if (n := _add(coord, d)) in _COORD_INDEX)


NEIGHBOURS = tuple(_neighbours(coord) for coord in CELL_COORDS)


def area_of(cell: int) -> int:
    """The expansion area of a cell, or -1 for a fountain cell."""
    return -1 if cell < 6 else (cell - 6) // 7


def area_cell(area: int, position: int) -> int:
    """Cell index of ``position`` (0 = centre, 1..6 = outer cell in direction position-1) of ``area``."""
    return 6 + area * 7 + position


AREA_OF = tuple(area_of(cell) for cell in range(len(CELLS)))
CENTRE_OF = tuple(cell >= 6 and cell == area_cell(area_of(cell), 0) for cell in range(len(CELLS)))


@dataclass(frozen=True, slots=True)
class Ornament:
    name: str
    kind: str  # fountain | statue | bench | pavilion
    coord: tuple[int, int]
    ring: tuple[int, ...]  # the cells that surround it
    area: int = -1  # the area whose face-up expansion carries it (pavilions only)


def _build_ornaments() -> tuple[Ornament, ...]:
    ornaments = [Ornament("F", "fountain", (0, 0), tuple(range(6)))]
    for i in range(6):
        kind = "statue" if i % 2 == 0 else "bench"
        coord = _add(DIRS[i], DIRS[(i + 1) % 6])
        ornaments.append(Ornament(f"{kind[0].upper()}{i // 2 + 1}", kind, coord, _neighbours(coord)))
    for area in range(6):
        ring = tuple(area_cell(area, p) for p in range(1, 7))
        ornaments.append(Ornament(f"P{area + 1}", "pavilion", _area_centre(area), ring, area))
    return tuple(ornaments)


ORNAMENTS = _build_ornaments()
_ORNAMENTS_BY_CELL = {cell: tuple(o for o in ORNAMENTS if cell in o.ring) for cell in range(len(CELLS))}


# --- state ------------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class DisplayItem:
    expansion: int
    tiles: list[int] = field(default_factory=list)  # kinds, sorted
    face_up: bool = False


@dataclass(slots=True)
class QGPlayer:
    score: int
    jokers: int
    tiles: list[int] = field(default_factory=lambda: [0] * KINDS)
    expansions: list[int] = field(default_factory=list)  # face-up expansion kinds, sorted
    hexes: list[int] = field(default_factory=lambda: [-1] * len(CELLS))
    areas: list[int] = field(default_factory=lambda: [-1] * 6)
    rotations: list[int] = field(default_factory=lambda: [-1] * 6)
    passed: bool = False

    def storage_used(self) -> int:
        return sum(self.tiles) + self.jokers

    def has_pavilion(self, area: int) -> bool:
        return self.areas[area] >= 0 and self.rotations[area] >= 0

    def is_free(self, cell: int) -> bool:
        """A cell that may take a tile: empty, on the fountain board or a laid area, and not a pavilion."""
        if self.hexes[cell] >= 0:
            return False
        area = AREA_OF[cell]
        if area < 0:
            return True
        return self.areas[area] >= 0 and not (CENTRE_OF[cell] and self.rotations[area] >= 0)


@dataclass(slots=True)
class QGState:
    variant: str
    seed: int
    rng: int
    round: int
    phase: str  # "actions" or "over"
    current: int
    marker: int  # seat holding the first-player marker this round, -1 while nobody has passed
    stack: list[int]
    top_tiles: list[int]
    display: list[DisplayItem]
    future_stacks: list[list[int]]
    supply: list[int]  # top first
    bag: list[int]
    tower: list[int]
    players: list[QGPlayer]
    final: list[dict[str, JSON]] = field(default_factory=list)  # final scoring breakdown per seat, once over

    @property
    def player_count(self) -> int:
        return len(self.players)


# --- moves ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Acquire:
    by: str
    which: str = NONE

    @property
    def command(self) -> str:
        return "acquire"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("by", self.by), ("which", self.which))

    def __str__(self) -> str:
        return f"acquire {self.by}" + ("" if self.which == NONE else f" {self.which}")


@dataclass(frozen=True, slots=True)
class PlaceTile:
    tile: str
    payment: str
    cell: str

    @property
    def command(self) -> str:
        return "tile"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("tile", self.tile), ("payment", self.payment), ("cell", self.cell))

    def __str__(self) -> str:
        return f"tile {self.tile} {self.payment} {self.cell}"


@dataclass(frozen=True, slots=True)
class PlaceExpansion:
    expansion: str
    payment: str
    area: str
    rotation: str

    @property
    def command(self) -> str:
        return "expansion"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (
            ("expansion", self.expansion),
            ("payment", self.payment),
            ("area", self.area),
            ("rotation", self.rotation),
        )

    def __str__(self) -> str:
        return f"expansion {self.expansion} {self.payment} {self.area} {self.rotation}"


@dataclass(frozen=True, slots=True)
class Pass:
    discard: str = NONE

    @property
    def command(self) -> str:
        return "pass"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("discard", self.discard),)

    def __str__(self) -> str:
        return "pass" + ("" if self.discard == NONE else f" {self.discard}")


QGMove = Acquire | PlaceTile | PlaceExpansion | Pass
_OPTIONS: dict[str, tuple[str, ...]] = {
    "acquire": ("by", "which"),
    "tile": ("tile", "payment", "cell"),
    "expansion": ("expansion", "payment", "area", "rotation"),
    "pass": ("discard",),
}
_OPTIONAL = {"which", "discard"}


def _build_move(command: str, values: list[str]) -> QGMove:
    if command == "acquire":
        return Acquire(*values)
    if command == "tile":
        return PlaceTile(*values)
    if command == "expansion":
        return PlaceExpansion(*values)
    return Pass(*values)


# --- items and multisets ----------------------------------------------------------------------------------------
class Item(NamedTuple):
    """A hexagon in storage: a tile or a face-up expansion of a kind (a tuple: hashed and ordered at C speed)."""

    kind: int
    expansion: bool = False


TILE_ITEMS = tuple(Item(kind) for kind in range(KINDS))
EXPANSION_ITEMS = tuple(Item(kind, True) for kind in range(KINDS))


class Notation:
    """Reading and writing hexagon tokens with the colour codes of the component tables."""

    def __init__(self, codes: tuple[str, ...]) -> None:
        self.codes = codes
        self.tokens = tuple(f"{codes[color_of(kind)]}{pattern_of(kind)}" for kind in range(KINDS))

    def kind(self, kind: int) -> str:
        return self.tokens[kind]

    def item(self, item: Item) -> str:
        return ("x" if item.expansion else "") + self.kind(item.kind)

    def parse_kind(self, text: str) -> int:
        if len(text) != 3 or text[:2] not in self.codes or text[2] not in "123456":
            raise BadNotation("qg_bad_hexagon", token=text)
        return kind_of(self.codes.index(text[:2]), int(text[2]))

    def parse_item(self, text: str) -> Item:
        if text.startswith("x"):
            return Item(self.parse_kind(text[1:]), True)
        return Item(self.parse_kind(text))

    def bag(self, items: Mapping[Item, int], jokers: int = 0) -> str:
        """A multiset token: items sorted by kind (tiles before expansions), counts as a prefix, jokers last."""
        parts = [
            (f"{count}" if count > 1 else "") + self.item(item) for item, count in sorted(items.items()) if count > 0
        ]
        if jokers:
            parts.append(f"{jokers}j")
        return "+".join(parts) or NONE

    def parse_bag(self, text: str) -> tuple[dict[Item, int], int]:
        items: dict[Item, int] = {}
        jokers = 0
        if text == NONE:
            return items, 0
        for part in text.split("+"):
            digits = len(part) - len(part.lstrip("0123456789"))
            count = int(part[:digits]) if digits else 1
            rest = part[digits:]
            if count < 1 or count > 99:
                raise BadNotation("qg_bad_token", token=text)
            if rest == "j":
                jokers += count
                continue
            item = self.parse_item(rest)
            items[item] = items.get(item, 0) + count
        return items, jokers

    def canonical_bag(self, text: str) -> str:
        items, jokers = self.parse_bag(text)
        return self.bag(items, jokers)


K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A bounded memo of pure results (move lists of a storage): search revisits the same storages again and again.
    A dict, so that a lookup (``get``) costs no Python call."""

    LIMIT = 50_000

    def put(self, key: K, value: V) -> V:
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = value
        return value


def storage_value(comp: Components, player: QGPlayer) -> int:
    """What ``player``'s storage would score if the game ended now: each joker's final value, minus each hexagon's
    pattern value (tiles and face-up expansions alike)."""
    return int(comp.joker_final_value * player.jokers) - sum(
        pattern_of(item.kind) * count for item, count in _storage_items(player).items()
    )


def _held(player: QGPlayer) -> tuple[int, int]:
    """Masks of the kinds ``player`` holds: as tiles (bit ``kind``) and as face-up expansions."""
    tiles = expansions = 0
    for kind, count in enumerate(player.tiles):
        if count:
            tiles |= 1 << kind
    for kind in player.expansions:
        expansions |= 1 << kind
    return tiles, expansions


def _storage_items(player: QGPlayer) -> dict[Item, int]:
    items = {TILE_ITEMS[kind]: count for kind, count in enumerate(player.tiles) if count}
    for kind in player.expansions:
        items[EXPANSION_ITEMS[kind]] = 1
    return items


# --- the variant ------------------------------------------------------------------------------------------------
class QueensGarden(Variant[QGState]):
    game = "queens-garden"
    title = "Azul: Queen's Garden"
    commands = (
        MoveCommand("acquire", ("by", "which")),
        MoveCommand("tile", ("tile", "payment", "cell"), sets=("payment",)),
        MoveCommand(
            "expansion", ("expansion", "payment", "area", "rotation"), sets=("payment",), previews=("area", "rotation")
        ),
        MoveCommand("pass", ("discard",), sets=("discard",)),
    )

    def __init__(self, name: str, side: str, components: Components | None = None) -> None:
        self.name = name
        self.side_name = side
        self._given = components

    @cached_property
    def components(self) -> Components:
        """The validated tables: the ones given, else data/queens_garden.json."""
        return self._given if self._given is not None else load_components()

    @cached_property
    def notation(self) -> Notation:
        return Notation(self.components.color_codes)

    # --- new game -----------------------------------------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> QGState:
        check_players(self, players)
        check_no_options(options)
        comp = self.components
        rng = Rng(seed_state(seed))
        order = list(comp.expansions)
        rng.shuffle(order)
        size = comp.round_stack_sizes[players]
        stacks = [order[r * size : (r + 1) * size] for r in range(comp.rounds)]
        state = QGState(
            variant=self.name,
            seed=seed,
            rng=rng.state,
            round=1,
            phase="actions",
            current=0,
            marker=-1,
            stack=stacks[0],
            top_tiles=[],
            display=[],
            future_stacks=stacks[1:],
            supply=order[comp.rounds * size :],
            bag=[comp.tiles_per_hexagon] * KINDS,
            tower=[0] * KINDS,
            players=[QGPlayer(score=comp.starting_score, jokers=comp.starting_jokers) for _ in range(players)],
        )
        self._refill_top(state, [])
        return state

    def opening_events(self, state: QGState) -> list[Event]:
        return [self._round_started(state)] if state.round == 1 and state.phase == "actions" else []

    def _round_started(self, state: QGState) -> Event:
        data: dict[str, JSON] = {
            "round": state.round,
            "start_seat": state.current,
            "stack": len(state.stack),
            "top_tiles": [self.notation.kind(k) for k in state.top_tiles],
            "display": [self.notation.kind(item.expansion) for item in state.display if item.face_up],
        }
        return Event("round_started", None, data)

    # --- notation -----------------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> QGMove:
        words = text.strip().lower().split()
        if not words or words[0] not in _OPTIONS:
            raise BadNotation("qg_bad_move", text=text)
        options = _OPTIONS[words[0]]
        values = words[1:]
        missing = [name for name in options[len(values) :] if name not in _OPTIONAL]
        if len(values) > len(options) or missing:
            raise BadNotation("qg_bad_move", text=text)
        values += [NONE] * (len(options) - len(values))
        return self._normalised(_build_move(words[0], values))

    def split_set(self, command: str, option: str, token: str) -> dict[str, int]:
        """Hexagons (``bl3``), expansions (``xbl3``) and jokers (``j``) with their counts."""
        items, jokers = self.notation.parse_bag(token.strip().lower())
        counts = {self.notation.item(item): count for item, count in items.items()}
        if jokers:
            counts["j"] = jokers
        return counts

    def join_set(self, command: str, option: str, counts: Mapping[str, int]) -> str:
        parts = [f"{count}{item}" for item, count in counts.items() if count > 0]
        return self.notation.canonical_bag("+".join(parts) or NONE)

    def move_from_choices(self, command: str, choices: Mapping[str, str]) -> QGMove:
        if command not in _OPTIONS:
            raise BadNotation("qg_bad_move", text=command)
        values = []
        for option in _OPTIONS[command]:
            value = str(choices.get(option, NONE if option in _OPTIONAL else "")).strip().lower()
            if not value:
                raise BadNotation("qg_missing_choice", option=option)
            values.append(value)
        return self._normalised(_build_move(command, values))

    def _normalised(self, move: QGMove) -> QGMove:
        """Checks every token's shape and writes multisets in their one canonical order."""
        n = self.notation
        if isinstance(move, Acquire):
            self._by(move.by)
            return Acquire(move.by, self._canonical_which(move.which))
        if isinstance(move, PlaceTile):
            n.parse_kind(move.tile)
            _cell(move.cell)
            return PlaceTile(move.tile, n.canonical_bag(move.payment), move.cell.upper())
        if isinstance(move, PlaceExpansion):
            if move.expansion != SUPPLY:
                n.parse_kind(move.expansion)
            _area(move.area)
            if move.rotation != NONE and (len(move.rotation) != 1 or move.rotation not in "123456"):
                raise BadNotation("qg_bad_rotation", token=move.rotation)
            return PlaceExpansion(move.expansion, n.canonical_bag(move.payment), move.area.upper(), move.rotation)
        return Pass(n.canonical_bag(move.discard))

    def _by(self, by: str) -> tuple[int, int]:
        """``(color, -1)`` or ``(-1, pattern)`` for an acquire's choice."""
        if by in self.components.color_codes:
            return self.components.color_codes.index(by), -1
        if len(by) == 1 and by in "123456":
            return -1, int(by)
        raise BadNotation("qg_bad_by", token=by)

    def _canonical_which(self, which: str) -> str:
        if which == NONE:
            return NONE
        picks = []
        for part in which.split("+"):
            kind_text, at, location = part.partition("@")
            if not at:
                raise BadNotation("qg_bad_pick", token=which)
            _location(location)
            picks.append((self.notation.parse_kind(kind_text), location))
        return "+".join(f"{self.notation.kind(kind)}@{loc}" for kind, loc in sorted(picks))

    # --- turn order -----------------------------------------------------------------------------------------------
    def to_act(self, state: QGState) -> frozenset[int]:
        return frozenset() if state.phase == "over" else frozenset({state.current})

    def is_over(self, state: QGState) -> bool:
        return state.phase == "over"

    def scores(self, state: QGState) -> list[int]:
        return [player.score for player in state.players]

    def standings(self, state: QGState) -> list[list[int]]:
        return ranked([(player.score,) for player in state.players])

    def round_number(self, state: QGState) -> int:
        return state.round

    # --- legal moves ------------------------------------------------------------------------------------------------
    def legal_moves(self, state: QGState, seat: int) -> list[Move]:
        if state.phase == "over" or seat != state.current:
            return []
        player = state.players[seat]
        return [*self._actions(state, player), *self._pass_moves(player)]

    def playout_moves(self, state: QGState, seat: int) -> list[Move]:
        """As :meth:`legal_moves` with a single pass, discarding nothing. A discard costs a hexagon's value in points
        at once while keeping it is worth something until the last round and costs the same value at the end, so a
        search never prefers it; yet the discards are most of the legal moves once storage fills (2,304 of 2,346),
        and random samples of them were nearly all passes: playouts passed early, and the opponents below the root
        were mostly modelled as passing."""
        if state.phase == "over" or seat != state.current:
            return []
        return [*self._actions(state, state.players[seat]), _pass(NONE)]

    def _actions(self, state: QGState, player: QGPlayer) -> list[Move]:
        """Every legal move but a pass: acquisitions, then placements from storage, then expansions from the supply."""
        return [*self._acquires(state, player), *self._placements(player), *self._buy_moves(state, player)]

    def _placements(self, player: QGPlayer) -> tuple[Move, ...]:
        """Every placement from storage: fixed by the garden, the kinds held and the jokers, which recur often in a
        search (a seat's storage and garden stay as they are while the others move)."""
        held = _held(player)
        key = (*player.hexes, *player.areas, *player.rotations, -1, *held, *player.expansions, -1, player.jokers)
        moves = self._placement_cache.get(key)
        if moves is None:
            placements: tuple[Move, ...] = (*self._tile_moves(player, held), *self._expansion_moves(player, held=held))
            moves = self._placement_cache.put(key, placements)
        return moves

    @cached_property
    def _placement_cache(self) -> Memo[tuple[int, ...], tuple[Move, ...]]:
        return Memo()

    # --- set-valued options without every combination (the bot's move entry) --------------------------------------
    def move_shapes(self, state: QGState, seat: int) -> list[tuple[tuple[str, str], ...]]:
        """As the default, but built without listing payments and discards (thousands in a full storage)."""
        if state.phase == "over" or seat != state.current:
            return []
        player = state.players[seat]
        shapes: list[tuple[tuple[str, str], ...]] = [
            (("command", "acquire"), *move.choices()) for move in self._acquires(state, player)
        ]
        cells_for = self._cells_for(player)
        for kind in range(KINDS):
            if player.tiles[kind] and self._payments(player, Item(kind)):
                token = self.notation.kind(kind)
                shapes += [
                    (("command", "tile"), ("tile", token), ("payment", ANY_SET), ("cell", cell))
                    for cell in cells_for(kind)
                ]
        for move in [*self._expansion_moves(player, payments=False), *self._buy_moves(state, player, ANY_SET)]:
            shapes.append((("command", "expansion"), *move.choices()))
        shapes.append((("command", "pass"), ("discard", ANY_SET)))
        return list(dict.fromkeys(shapes))

    def set_tokens(self, state: QGState, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> list[str]:
        player = state.players[seat]
        if command == "pass":
            return [move.discard for move in self._pass_moves(player)]
        placed = chosen.get("tile" if command == "tile" else "expansion", "")
        if placed == SUPPLY:
            return [NONE] if self._can_buy(state, player) else []
        try:
            item = Item(self.notation.parse_kind(placed), command == "expansion")
        except BadNotation:
            return []
        if _storage_items(player).get(item, 0) < 1:
            return []
        return list(self._payments(player, item))

    def set_pool(
        self, state: QGState, seat: int, command: str, option: str, chosen: Mapping[str, str]
    ) -> dict[str, int]:
        if command == "pass":
            return self.split_set(command, option, self.notation.bag(_storage_items(state.players[seat])))
        return super().set_pool(state, seat, command, option, chosen)

    def largest_set(self, state: QGState, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> int:
        if command == "pass":  # any part of the storage may be discarded, all of it too
            return sum(self.set_pool(state, seat, command, option, chosen).values())
        return super().largest_set(state, seat, command, option, chosen)

    def is_legal_set(self, state: QGState, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> bool:
        if command != "pass":
            return super().is_legal_set(state, seat, command, option, chosen)
        try:
            wanted, jokers = self.notation.parse_bag(chosen.get(option, ""))
        except BadNotation:
            return False
        storage = _storage_items(state.players[seat])
        return not jokers and all(storage.get(item, 0) >= count for item, count in wanted.items())

    def _pass_moves(self, player: QGPlayer) -> tuple[Pass, ...]:
        """Every discard (sub-multiset of storage), smallest first: the picker shows the first ones."""
        key = (*player.tiles, *player.expansions)
        moves = self._pass_cache.get(key)
        if moves is None:
            moves = self._pass_cache.put(key, self._discards(tuple(sorted(_storage_items(player).items()))))
        return moves

    def _discards(self, items: tuple[tuple[Item, int], ...]) -> tuple[Pass, ...]:
        """Tokens are built item by item in the canonical order, as ``Notation.bag`` would write them."""
        discards = [(0, "")]
        for item, held in items:
            text = self.notation.item(item)
            parts = [(count, f"{count}{text}" if count > 1 else text) for count in range(1, held + 1)]
            discards += [
                (size + count, f"{token}+{part}" if token else part)
                for size, token in discards
                for count, part in parts
            ]
        discards.sort()
        return tuple(_pass(token or NONE) for _, token in discards)

    @cached_property
    def _pass_cache(self) -> Memo[tuple[int, ...], tuple[Pass, ...]]:
        return Memo()

    @cached_property
    def _payment_cache(self) -> Memo[tuple[Item, int, int, int], tuple[str, ...]]:
        return Memo()

    def _places(self, state: QGState) -> dict[int, dict[str, Item]]:
        """Per kind on offer, the locations holding it (with what lies there), locations in offer order."""
        places: dict[int, dict[str, Item]] = {}
        if state.stack:
            for kind in state.top_tiles:
                places.setdefault(kind, {})["s"] = TILE_ITEMS[kind]
        locations = self._display_locations
        for index, item in enumerate(state.display):
            location = locations[index]
            if item.face_up:  # a face-up expansion is all its place offers
                places.setdefault(item.expansion, {})[location] = EXPANSION_ITEMS[item.expansion]
            else:
                for kind in item.tiles:
                    places.setdefault(kind, {})[location] = TILE_ITEMS[kind]
        return places

    @cached_property
    def _display_locations(self) -> tuple[str, ...]:
        """The display's places by index: it never holds more than every expansion of the game."""
        return tuple(f"d{number}" for number in range(1, len(self.components.expansions) + 1))

    def sources(self, state: QGState, by: str) -> dict[int, dict[str, Item]]:
        """What choosing ``by`` takes: per matching kind, the locations holding it (several = a choice)."""
        return _matching(self._places(state), *self._by(by))

    def _acquires(self, state: QGState, player: QGPlayer) -> list[Acquire]:
        # The offer grouped once by colour and by pattern: each of the 12 choices is one of those groups.
        groups: dict[int, dict[int, dict[str, Item]]] = {}
        for kind, where in sorted(self._places(state).items()):
            groups.setdefault(COLOR_OF[kind], {})[kind] = where
            groups.setdefault(PATTERN_GROUPS[kind], {})[kind] = where
        comp = self.components
        room = comp.storage_tiles - player.storage_used()
        expansion_room = comp.storage_expansions - len(player.expansions)
        moves: list[Acquire] = []
        for group, by in self._groups_by:
            sources = groups.get(group)
            if not sources:
                continue
            # Kinds in one place are taken from there; a kind in several places is taken from the one picked. Each
            # pick is written ``<kind>@<location>`` and counts 1 when it takes a tile (0 for an expansion).
            tiles = 0
            picks: list[list[tuple[str, int]]] = []
            for kind, where in sources.items():
                if len(where) == 1:
                    for item in where.values():
                        tiles += not item.expansion
                else:
                    picks.append([(self._pick_text(kind, loc), not where[loc].expansion) for loc in sorted(where)])
            if not picks:  # the usual case: one way to take them, the same move object every time
                if tiles <= room and len(sources) - tiles <= expansion_room:
                    moves.append(self._plain_acquires[by])
                continue
            for pick in itertools.product(*picks):
                taken = tiles + sum(tile for _, tile in pick)
                if taken <= room and len(sources) - taken <= expansion_room:
                    moves.append(Acquire(by, "+".join(text for text, _ in pick)))
        return moves

    def _pick_text(self, kind: int, location: str) -> str:
        return f"{self.notation.tokens[kind]}@{location}"

    @cached_property
    def _plain_acquires(self) -> dict[str, Acquire]:
        """The acquire without picks for each choice (moves are immutable, so one object serves every position)."""
        return {by: Acquire(by) for _, _, by in self._choices_by}

    @cached_property
    def _groups_by(self) -> tuple[tuple[int, str], ...]:
        """The 12 ways to acquire as ``(group, token)``: the group is a colour (0-5) or 6 + a pattern."""
        return tuple((color if color >= 0 else 6 + pattern, by) for color, pattern, by in self._choices_by)

    @cached_property
    def _choices_by(self) -> tuple[tuple[int, int, str], ...]:
        """The 12 ways to acquire, in the order they are listed: ``(color, pattern, token)``."""
        return tuple((*self._by(by), by) for by in [*self.components.color_codes, *"123456"])

    def _fits(self, player: QGPlayer, tiles: int, expansions: int) -> bool:
        comp = self.components
        return (
            player.storage_used() + tiles <= comp.storage_tiles
            and len(player.expansions) + expansions <= comp.storage_expansions
        )

    def _payments(self, player: QGPlayer, placed: Item, held: tuple[int, int] | None = None) -> tuple[str, ...]:
        """Every payment class for ``placed``: which other hexagons (by colour or by pattern) and how many jokers.
        They depend only on the kinds held of its colour or its pattern (``held``: masks of the kinds held as
        tiles and as expansions, see ``_held``), so storages that differ elsewhere share one answer."""
        need = PATTERN_OF[placed.kind] - 1
        if need == 0:
            return (NONE,)
        tiles, expansions = held or _held(player)
        family = FAMILY_MASKS[placed.kind]
        key = (placed, min(player.jokers, need), tiles & family, expansions & family)
        payments = self._payment_cache.get(key)
        if payments is None:
            payments = self._payment_cache.put(key, self._payment_tokens(player, placed, need, key[1]))
        return payments

    def _payment_tokens(self, player: QGPlayer, placed: Item, need: int, jokers: int) -> tuple[str, ...]:
        pattern, color = pattern_of(placed.kind), color_of(placed.kind)
        same_pattern = [kind_of(c, pattern) for c in range(6) if c != color]
        same_color = [kind_of(color, p) for p in range(1, 7) if p != pattern]
        tiles, expansions = player.tiles, player.expansions
        fewest = need - jokers  # hexagons that must be paid; jokers stand in for the rest
        result: set[str] = set()
        for family in (same_pattern, same_color):
            # Per kind of the family held, the items that may pay for it (its tile, its expansion, or both).
            # (The placed hexagon is of neither family, so all of storage may pay.)
            held = []
            for k in family:
                alts = ([TILE_ITEMS[k]] if tiles[k] else []) + ([EXPANSION_ITEMS[k]] if k in expansions else [])
                if alts:
                    held.append(alts)
            for size in range(fewest, min(need, len(held)) + 1):
                for kinds in itertools.combinations(held, size):
                    for chosen in itertools.product(*kinds):
                        result.add(self.notation.bag(dict.fromkeys(chosen, 1), need - size))
        return tuple(sorted(result))

    def _tile_moves(self, player: QGPlayer, held: tuple[int, int]) -> list[PlaceTile]:
        garden = self._garden(player)
        tokens = self.notation.tokens
        moves: list[PlaceTile] = []
        for kind, count in enumerate(player.tiles):
            if count and garden.cells_for(kind):
                moves += garden.tile_moves(kind, tokens[kind], self._payments(player, TILE_ITEMS[kind], held))
        return moves

    def _cells_for(self, player: QGPlayer) -> Callable[[int], tuple[str, ...]]:
        return self._garden(player).cells_for

    def _garden(self, player: QGPlayer) -> _Garden:
        """What ``player``'s garden allows, worked out once per garden: a garden changes only when its owner places,
        so most turns (and most search steps) find it known."""
        key = (*player.hexes, *player.areas, *player.rotations)
        garden = self._garden_cache.get(key)
        if garden is None:
            garden = self._garden_cache.put(key, _Garden(player))
        return garden

    @cached_property
    def _garden_cache(self) -> Memo[tuple[int, ...], _Garden]:
        return Memo()

    def _expansion_moves(
        self, player: QGPlayer, *, payments: bool = True, held: tuple[int, int] | None = None
    ) -> Iterator[PlaceExpansion]:
        """Placements of stored expansions; with ``payments=False`` one per placement, its payment written
        ``ANY_SET``. (Buying one from the supply depends on the state: see ``_buy_moves``.)"""
        empty = [area for area in range(6) if player.areas[area] < 0]
        for kind in player.expansions:
            spots = [
                (f"A{area + 1}", str(d + 1))
                for area in empty
                for d in range(6)
                if placement_error(player, kind, area_cell(area, d + 1), laying=area) is None
            ]
            if not spots:
                continue
            paid = self._payments(player, EXPANSION_ITEMS[kind], held)
            for payment in paid if payments else [ANY_SET] * bool(paid):
                for area_name, rotation in spots:
                    yield PlaceExpansion(self.notation.kind(kind), payment, area_name, rotation)

    def _buy_moves(self, state: QGState, player: QGPlayer, payment: str = NONE) -> list[PlaceExpansion]:
        """Laying an expansion bought from the supply, on each free area (``payment`` as the caller writes it)."""
        if not self._can_buy(state, player):
            return []
        if payment == NONE:  # the search's case: the same six moves every time
            return [self._supply_moves[area] for area in range(6) if player.areas[area] < 0]
        return [PlaceExpansion(SUPPLY, payment, f"A{area + 1}", NONE) for area in range(6) if player.areas[area] < 0]

    @cached_property
    def _supply_moves(self) -> tuple[PlaceExpansion, ...]:
        return tuple(PlaceExpansion(SUPPLY, NONE, f"A{area + 1}", NONE) for area in range(6))

    def _can_buy(self, state: QGState, player: QGPlayer) -> bool:
        return bool(state.supply) and player.score >= self.components.supply_expansion_cost

    # --- apply ----------------------------------------------------------------------------------------------------
    def apply(self, state: QGState, seat: int, move: Move) -> tuple[QGState, list[Event]]:
        if state.phase == "over":
            raise GameOver("game_over")
        if seat != state.current:
            raise NotYourTurn("not_your_turn", seat=seat)
        if not isinstance(move, Acquire | PlaceTile | PlaceExpansion | Pass):
            raise BadNotation("qg_bad_move", text=str(move))
        return self._applied(state, seat, self._normalised(move))

    def apply_unchecked(self, state: QGState, seat: int, move: Move) -> QGState:
        """For search: ``move`` comes from ``legal_moves``, so it is already in canonical form."""
        return self._applied(state, seat, move)[0]  # type: ignore[arg-type]

    def _applied(self, state: QGState, seat: int, move: QGMove) -> tuple[QGState, list[Event]]:
        new = _copy(state, seat)
        events: list[Event] = []
        if isinstance(move, Acquire):
            self._do_acquire(new, seat, move, events)
        elif isinstance(move, PlaceTile):
            self._do_tile(new, seat, move, events)
        elif isinstance(move, PlaceExpansion):
            self._do_expansion(new, seat, move, events)
        else:
            self._do_pass(new, seat, move, events)
        self._advance(new, events)
        return new, events

    def _do_acquire(self, state: QGState, seat: int, move: Acquire, events: list[Event]) -> None:
        player = state.players[seat]
        sources = self.sources(state, move.by)
        if not sources:
            raise IllegalMove("qg_nothing_to_acquire", by=move.by)
        taken = _taken(sources, self._read_which(move.which, sources))
        tiles = sum(1 for _, item in taken if not item.expansion)
        if not self._fits(player, tiles, len(taken) - tiles):
            raise IllegalMove("qg_storage_full", tiles=tiles, expansions=len(taken) - tiles)
        from_top = any(location == "s" for location, _ in taken)
        for location, item in taken:
            if item.expansion:
                player.expansions = sorted([*player.expansions, item.kind])
                continue
            player.tiles[item.kind] += 1
            source = state.top_tiles if location == "s" else state.display[int(location[1:]) - 1].tiles
            source.remove(item.kind)
        gone = {location for location, item in taken if item.expansion}
        state.display = [item for index, item in enumerate(state.display) if f"d{index + 1}" not in gone]
        taken_json: list[JSON] = [
            {"kind": self.notation.kind(item.kind), "location": loc, "expansion": item.expansion} for loc, item in taken
        ]
        data = {"by": move.by, "taken": taken_json, "tiles": tiles, "expansions": len(taken) - tiles}
        events.append(Event("acquire", seat, data))
        if from_top:
            top = state.stack.pop(0)
            state.display.append(DisplayItem(top, sorted(state.top_tiles)))
            events.append(Event("stack_moved", seat, {"tiles": len(state.top_tiles)}))
            state.top_tiles = []
            self._refill_top(state, events)
        for index, shown in enumerate(state.display):
            if not shown.face_up and not shown.tiles:
                shown.face_up = True
                kind = self.notation.kind(shown.expansion)
                events.append(Event("expansion_turned", None, {"expansion": kind, "location": f"d{index + 1}"}))

    def _read_which(self, which: str, places: Mapping[int, Mapping[str, Item]]) -> dict[int, str]:
        picks: dict[int, str] = {}
        if which != NONE:
            for part in which.split("+"):
                kind_text, _, location = part.partition("@")
                kind = self.notation.parse_kind(kind_text)
                if location not in places.get(kind, []):
                    raise IllegalMove("qg_bad_which", token=part)
                picks[kind] = location
        for kind, locations in places.items():
            if len(locations) > 1 and kind not in picks:
                where = ", ".join(sorted(locations))
                raise IllegalMove("qg_which_needed", hexagon=self.notation.kind(kind), locations=where)
        extra = [kind for kind in picks if len(places[kind]) < 2]
        if extra:
            raise IllegalMove("qg_bad_which", token=self.notation.kind(extra[0]))
        return picks

    def _refill_top(self, state: QGState, events: list[Event]) -> None:
        """Draw tiles onto the stack's top; when no tile is left anywhere, the stack is laid face up instead."""
        if not state.stack:
            return
        rng = Rng(state.rng)
        drawn: list[int] = []
        for _ in range(self.components.tiles_on_stack_top):
            if not sum(state.bag):
                if not sum(state.tower):
                    break
                state.bag, state.tower = state.tower, [0] * KINDS
                events.append(Event("bag_refilled", None, {"tiles": sum(state.bag)}))
            drawn.append(rng.draw_from_counts(state.bag))
        state.rng = rng.state
        state.top_tiles = sorted(drawn)
        if drawn:
            events.append(Event("display_refilled", None, {"tiles": [self.notation.kind(k) for k in state.top_tiles]}))
            return
        for expansion in state.stack:
            state.display.append(DisplayItem(expansion, [], True))
            location = f"d{len(state.display)}"
            events.append(
                Event("expansion_turned", None, {"expansion": self.notation.kind(expansion), "location": location})
            )
        state.stack = []

    def _pay(self, state: QGState, player: QGPlayer, placed: Item, payment: str) -> None:
        """Checks and takes ``placed`` and its payment out of storage; refuses an invalid payment."""
        items, jokers = self.notation.parse_bag(payment)
        color, pattern = color_of(placed.kind), pattern_of(placed.kind)
        if sum(items.values()) + jokers != pattern - 1:
            raise IllegalMove("qg_payment_size", cost=pattern, given=sum(items.values()) + jokers + 1)
        everything = dict(items)
        everything[placed] = everything.get(placed, 0) + 1
        kinds = [item.kind for item, count in everything.items() for _ in range(count)]
        by_pattern = {pattern_of(k) for k in kinds} == {pattern} and len({color_of(k) for k in kinds}) == len(kinds)
        by_color = {color_of(k) for k in kinds} == {color} and len({pattern_of(k) for k in kinds}) == len(kinds)
        if not (by_pattern or by_color):
            raise IllegalMove("qg_payment_mismatch", payment=payment)
        owned = _storage_items(player)
        for item, count in everything.items():
            if owned.get(item, 0) < count:
                raise IllegalMove("qg_not_in_storage", hexagon=self.notation.item(item))
        if jokers > player.jokers:
            raise IllegalMove("qg_not_enough_jokers", needed=jokers, have=player.jokers)
        for item, count in everything.items():
            if item.expansion:
                player.expansions.remove(item.kind)
                if item != placed:
                    state.supply.append(item.kind)
            else:
                player.tiles[item.kind] -= count
                state.tower[item.kind] += count - (1 if item == placed else 0)
        player.jokers -= jokers

    def _do_tile(self, state: QGState, seat: int, move: PlaceTile, events: list[Event]) -> None:
        player = state.players[seat]
        kind = self.notation.parse_kind(move.tile)
        cell = _cell(move.cell)
        if not player.tiles[kind]:
            raise IllegalMove("qg_not_in_storage", hexagon=move.tile)
        error = placement_error(player, kind, cell)
        if error:
            raise IllegalMove(error, cell=move.cell, hexagon=move.tile)
        self._pay(state, player, Item(kind), move.payment)
        player.hexes[cell] = kind
        events.append(
            Event(
                "tile_placed",
                seat,
                {"tile": move.tile, "cell": move.cell, "payment": move.payment, "cost": pattern_of(kind)},
            )
        )
        self._reward(player, seat, [cell], events)

    def _do_expansion(self, state: QGState, seat: int, move: PlaceExpansion, events: list[Event]) -> None:
        player = state.players[seat]
        area = _area(move.area)
        if player.areas[area] >= 0:
            raise IllegalMove("qg_area_taken", area=move.area)
        if move.expansion == SUPPLY:
            cost = self.components.supply_expansion_cost
            if move.payment != NONE or move.rotation != NONE:
                raise IllegalMove("qg_supply_no_payment")
            if not state.supply:
                raise IllegalMove("qg_supply_empty")
            if player.score < cost:
                raise IllegalMove("qg_supply_points", cost=cost, score=player.score)
            player.score -= cost
            player.areas[area] = state.supply.pop(0)
            player.rotations[area] = -1
            changed = [area_cell(area, p) for p in range(7)]
            data: dict[str, JSON] = {"expansion": None, "area": move.area, "rotation": None, "points": cost}
        else:
            kind = self.notation.parse_kind(move.expansion)
            if kind not in player.expansions:
                raise IllegalMove("qg_not_in_storage", hexagon=move.expansion)
            if move.rotation == NONE:
                raise IllegalMove("qg_rotation_needed")
            rotation = int(move.rotation) - 1
            cell = area_cell(area, rotation + 1)
            error = placement_error(player, kind, cell, laying=area)
            if error:
                raise IllegalMove(error, cell=CELLS[cell], hexagon=move.expansion)
            self._pay(state, player, Item(kind, True), move.payment)
            player.areas[area] = kind
            player.rotations[area] = rotation
            player.hexes[cell] = kind
            changed = [area_cell(area, p) for p in range(7)]
            data = {"expansion": move.expansion, "area": move.area, "rotation": move.rotation, "points": 0}
        data["payment"] = move.payment
        events.append(Event("expansion_placed", seat, data))
        self._reward(player, seat, changed, events)

    def _reward(self, player: QGPlayer, seat: int, changed: list[int], events: list[Event]) -> None:
        """Jokers for every ornament the last placement completed the ring of (each ring completes only once)."""
        done: set[str] = set()
        for cell in changed:
            for ornament in _ORNAMENTS_BY_CELL[cell]:
                if ornament.name in done or not _is_surrounded(player, ornament):
                    continue
                done.add(ornament.name)
                reward = self.components.joker_rewards[ornament.kind]
                kept = min(reward, self.components.storage_tiles - player.storage_used())
                player.jokers += kept
                events.append(
                    Event("joker_earned", seat, {"ornament": ornament.name, "count": kept, "lost": reward - kept})
                )

    def _do_pass(self, state: QGState, seat: int, move: Pass, events: list[Event]) -> None:
        player = state.players[seat]
        items, jokers = self.notation.parse_bag(move.discard)
        if jokers:
            raise IllegalMove("qg_discard_jokers")
        owned = _storage_items(player)
        for item, count in items.items():
            if owned.get(item, 0) < count:
                raise IllegalMove("qg_not_in_storage", hexagon=self.notation.item(item))
        penalty = 0
        for item, count in items.items():
            penalty += pattern_of(item.kind) * count
            if item.expansion:
                player.expansions.remove(item.kind)
                state.supply.append(item.kind)
            else:
                player.tiles[item.kind] -= count
                state.tower[item.kind] += count
        player.score = max(0, player.score - penalty)
        marker = state.marker < 0
        if marker:
            state.marker = seat
            penalty += self.components.first_pass_penalty
            player.score = max(0, player.score - self.components.first_pass_penalty)
        player.passed = True
        data = {"discarded": move.discard, "penalty": penalty, "marker": marker, "score": player.score}
        events.append(Event("pass", seat, data))

    # --- rounds ---------------------------------------------------------------------------------------------------
    def _advance(self, state: QGState, events: list[Event]) -> None:
        count = state.player_count
        for step in range(1, count + 1):
            seat = (state.current + step) % count
            if not state.players[seat].passed:
                state.current = seat
                return
        self._score_round(state, events)
        if state.round == self.components.rounds:
            self._final_scoring(state, events)
            return
        self._prepare_round(state, events)

    def _score_round(self, state: QGState, events: list[Event]) -> None:
        comp = self.components
        criteria = comp.sides[self.side_name].wheel[state.round - 1]
        breakdown = []
        for player in state.players:
            points = [
                sum(
                    c.score(pattern_of(kind))
                    for kind in player.hexes
                    if kind >= 0 and c.matches(color_of(kind), pattern_of(kind))
                )
                for c in criteria
            ]
            pavilions = sum(1 for area in range(6) if player.has_pavilion(area)) * comp.pavilion_points
            total = sum(points) + pavilions
            player.score += total
            breakdown.append({"criteria": points, "pavilions": pavilions, "total": total})
        data = {"round": state.round, "breakdown": breakdown, "scores": self.scores(state)}
        events.append(Event("round_scored", None, data))

    def _prepare_round(self, state: QGState, events: list[Event]) -> None:
        for kind in state.top_tiles:
            state.tower[kind] += 1
        for item in state.display:
            for kind in item.tiles:
                state.tower[kind] += 1
        # The whole pool goes face down onto the supply: display expansions and what is left of the round stack.
        state.supply = [*(item.expansion for item in state.display), *state.stack, *state.supply]
        state.display, state.top_tiles = [], []
        state.stack = state.future_stacks.pop(0)
        state.round += 1
        state.current = state.marker
        state.marker = -1
        for player in state.players:
            player.passed = False
        self._refill_top(state, events)
        events.append(self._round_started(state))

    def _final_scoring(self, state: QGState, events: list[Event]) -> None:
        comp = self.components
        side = comp.sides[self.side_name]
        state.final = []
        for player in state.players:
            storage = storage_value(comp, player)
            player.score = max(0, player.score + storage)
            groups = []
            for category, value in comp.evaluation_order:
                for group in garden_groups(player, category, value):
                    if len(group) < side.group_min_size:
                        continue
                    points = sum(pattern_of(player.hexes[c]) for c in group) + side.group_bonuses.get(len(group), 0)
                    player.score += points
                    label = comp.color_codes[value] if category == "color" else str(value)
                    groups.append({"category": label, "cells": [CELLS[c] for c in group], "points": points})
            state.final.append({"storage": storage, "groups": groups, "total": player.score})
        state.phase = "over"
        for seat, breakdown in enumerate(state.final):
            events.append(Event("final_scored", seat, breakdown))
        events.append(Event("game_over", None, {"scores": self.scores(state), "standings": self.standings(state)}))

    def reveals(self, before: QGState, after: QGState) -> bool:
        """Also when a face-down expansion was turned face up (an emptied display expansion, or the stack laid out
        when no tile is left): one that was face down before is no longer among the face-down ones after. A face-down
        expansion taken from the supply stays face down in its garden, and one paid away goes face down onto the
        supply: neither shows anything."""
        gone = Counter(face_down_expansions(before))
        gone.subtract(face_down_expansions(after))
        return super().reveals(before, after) or any(count > 0 for count in gone.values())

    # --- agents -------------------------------------------------------------------------------------------------
    def redeterminize(self, state: QGState, rng: Rng) -> QGState:
        """Deal the face-down expansions (display, round stacks, supply) afresh among their places, and re-seed
        the bag's draws: a search must not know which expansion lies where."""
        world = _copy(state, seat=-1)  # no player's lists change here, so every seat may share them
        world.rng = rng.next64()
        hidden = [item for item in world.display if not item.face_up]
        places: list[list[int]] = [world.stack, *world.future_stacks, world.supply]
        pool = [item.expansion for item in hidden] + [e for place in places for e in place]
        rng.shuffle(pool)
        for item in hidden:
            item.expansion = pool.pop()
        for place in places:
            place[:] = [pool.pop() for _ in place]
        return world

    def heuristic(self, state: QGState, seat: int) -> float:
        """Points, plus what the garden promises (groups, placed values, room), plus what storage may still become.

        Stored hexagons are worth something while rounds remain (they become placements) and cost their value in
        the last round, as the final scoring will charge them.
        """
        player = state.players[seat]
        groups, placed = self._garden_value(tuple(player.hexes))
        waiting = sum(PATTERN_OF[kind] * n for kind, n in enumerate(player.tiles) if n)
        waiting += sum(PATTERN_OF[kind] for kind in player.expansions)
        areas = sum(1 for area in player.areas if area >= 0)
        last_round = state.round == self.components.rounds
        storage_weight = -0.9 if last_round else 0.35
        area_weight = 1.0 if last_round else 3.0  # room for seven hexagons, worth less with little time left
        return player.score + groups + placed + area_weight * areas + player.jokers + storage_weight * waiting

    def _garden_value(self, hexes: tuple[int, ...]) -> tuple[float, int]:
        """The heuristic's worth of a garden's groups (full weight from the scoring size on) and of its placed
        values. Every colour and every pattern is evaluated, so one pass per category finds every group; gardens
        recur across a search (the other seats' never change during a move), hence the memo."""
        known = self._garden_memo.get(hexes)
        if known is not None:
            return known
        full = self.components.sides[self.side_name].group_min_size
        groups = 0.0
        for by_color in (True, False):
            for group in _all_groups(hexes, by_color):
                weight = 1.0 if len(group) >= full else 0.4
                groups += weight * sum(PATTERN_OF[hexes[c]] for c in group)
        placed = sum(PATTERN_OF[k] for k in hexes if k >= 0)
        return self._garden_memo.put(hexes, (groups, placed))

    @cached_property
    def _garden_memo(self) -> Memo[tuple[int, ...], tuple[float, int]]:
        return Memo()

    # --- JSON -----------------------------------------------------------------------------------------------------
    def to_json(self, state: QGState) -> dict[str, JSON]:
        return {
            "variant": state.variant,
            "seed": state.seed,
            "rng": state.rng,
            "round": state.round,
            "phase": state.phase,
            "current": state.current,
            "marker": state.marker,
            "stack": list(state.stack),
            "top_tiles": list(state.top_tiles),
            "display": [
                {"expansion": item.expansion, "tiles": list(item.tiles), "face_up": item.face_up}
                for item in state.display
            ],
            "future_stacks": [list(stack) for stack in state.future_stacks],
            "supply": list(state.supply),
            "bag": list(state.bag),
            "tower": list(state.tower),
            "players": [
                {
                    "score": p.score,
                    "jokers": p.jokers,
                    "tiles": list(p.tiles),
                    "expansions": list(p.expansions),
                    "hexes": list(p.hexes),
                    "areas": list(p.areas),
                    "rotations": list(p.rotations),
                    "passed": p.passed,
                }
                for p in state.players
            ],
            "final": [dict(item) for item in state.final],
        }

    def public_json(self, state: QGState) -> dict[str, JSON]:
        """Also no face-down expansion: the round stacks and the supply become how many they hold, a face-down
        display expansion and one laid face down in a garden become ``None``."""
        document = super().public_json(state)
        document["stack"] = len(state.stack)
        document["future_stacks"] = [len(stack) for stack in state.future_stacks]
        document["supply"] = len(state.supply)
        document["display"] = [
            {"expansion": item.expansion if item.face_up else None, "tiles": list(item.tiles), "face_up": item.face_up}
            for item in state.display
        ]
        players = cast(list[dict[str, JSON]], document["players"])
        for shown, player in zip(players, state.players, strict=True):
            shown["areas"] = [
                None if rotation < 0 <= kind else kind
                for kind, rotation in zip(player.areas, player.rotations, strict=True)
            ]
        return document

    def from_json(self, raw: Mapping[str, JSON]) -> QGState:
        state = self._read_state(raw)
        self._validate(state)
        return state

    def _read_state(self, raw: Mapping[str, JSON]) -> QGState:
        """The shape of a saved state: every field present with the right type and range."""
        comp = self.components
        raw = read_object(raw, "state", _STATE_KEYS)
        if read_str(raw["variant"], "variant") != self.name:
            raise invalid("variant", f"expected {self.name}")
        players = read_list(raw["players"], "players")
        if not self.min_players <= len(players) <= self.max_players:
            raise invalid("players", f"expected {self.min_players} to {self.max_players} players")
        last_seat = len(players) - 1
        categories = (*comp.color_codes, *"123456")  # a final scoring group is of a colour or of a pattern
        return QGState(
            variant=self.name,
            seed=read_int(raw["seed"], "seed"),
            rng=read_int(raw["rng"], "rng", 0, MAX_RNG),
            round=read_int(raw["round"], "round", 1, comp.rounds),
            phase=read_str(raw["phase"], "phase", ("actions", "over")),
            current=read_int(raw["current"], "current", 0, last_seat),
            marker=read_int(raw["marker"], "marker", -1, last_seat),
            stack=_kinds(raw["stack"], "stack"),
            top_tiles=_kinds(raw["top_tiles"], "top_tiles"),
            display=[
                _read_display_item(item, f"display[{i}]") for i, item in enumerate(read_list(raw["display"], "display"))
            ],
            future_stacks=read_rows(raw["future_stacks"], "future_stacks", (None, None), 0, KINDS - 1),
            supply=_kinds(raw["supply"], "supply"),
            bag=read_ints(raw["bag"], "bag", KINDS, 0, comp.tiles_per_hexagon),
            tower=read_ints(raw["tower"], "tower", KINDS, 0, comp.tiles_per_hexagon),
            players=[self._read_player(p, f"players[{seat}]") for seat, p in enumerate(players)],
            final=[_read_final(item, f"final[{i}]", categories) for i, item in _items(raw["final"], "final")],
        )

    def _read_player(self, raw: JSON, name: str) -> QGPlayer:
        comp = self.components
        raw = read_object(raw, name, _PLAYER_KEYS)
        return QGPlayer(
            score=read_int(raw["score"], f"{name}.score", 0),
            jokers=read_int(raw["jokers"], f"{name}.jokers", 0, comp.storage_tiles),
            tiles=read_ints(raw["tiles"], f"{name}.tiles", KINDS, 0, comp.tiles_per_hexagon),
            expansions=read_ints(
                raw["expansions"], f"{name}.expansions", None, 0, KINDS - 1, most=comp.storage_expansions
            ),
            hexes=read_ints(raw["hexes"], f"{name}.hexes", len(CELLS), -1, KINDS - 1),
            areas=read_ints(raw["areas"], f"{name}.areas", 6, -1, KINDS - 1),
            rotations=read_ints(raw["rotations"], f"{name}.rotations", 6, -1, 5),
            passed=read_bool(raw["passed"], f"{name}.passed"),
        )

    def _validate(self, state: QGState) -> None:
        """The rules' invariants (types and ranges are the readers' job): what no legal play can produce."""
        comp = self.components
        if len(state.future_stacks) != comp.rounds - state.round:
            raise invalid("future_stacks", f"expected {comp.rounds - state.round} stacks for the rounds to come")
        if state.phase == "actions" and state.players[state.current].passed:
            raise invalid("current", "the seat to act has passed")
        if len(state.final) != (state.player_count if state.phase == "over" else 0):
            raise invalid("final", "a final scoring for every seat once the game is over, none before")
        if state.top_tiles and not state.stack:
            raise invalid("top_tiles", "tiles on a stack that is gone")
        if state.top_tiles != sorted(state.top_tiles):
            raise invalid("top_tiles", "expected sorted hexagons")
        for i, item in enumerate(state.display):
            if item.face_up and item.tiles:
                raise invalid(f"display[{i}].tiles", "tiles on a face-up expansion")
            if item.tiles != sorted(item.tiles):
                raise invalid(f"display[{i}].tiles", "expected sorted hexagons")
        for seat, p in enumerate(state.players):
            name = f"players[{seat}]"
            if p.storage_used() > comp.storage_tiles:
                raise invalid(f"{name}.tiles", "storage over capacity")
            if p.expansions != sorted(p.expansions):
                raise invalid(f"{name}.expansions", "expected sorted expansions")
            if any(p.areas[area] < 0 <= p.rotations[area] for area in range(6)):
                raise invalid(f"{name}.rotations", "a rotation for an area with no expansion")
            if any(kind >= 0 and not _holds_hexagons(p, cell) for cell, kind in enumerate(p.hexes)):
                raise invalid(f"{name}.hexes", "a hexagon outside the garden's free cells")
        self._check_conservation(state)

    def _check_conservation(self, state: QGState) -> None:
        tiles = [0] * KINDS
        for kind in state.top_tiles:
            tiles[kind] += 1
        for item in state.display:
            for kind in item.tiles:
                tiles[kind] += 1
        expansions = [*state.stack, *state.supply, *(item.expansion for item in state.display)]
        for stack in state.future_stacks:
            expansions += stack
        for p in state.players:
            expansions += p.expansions + [kind for kind in p.areas if kind >= 0]
            for kind in range(KINDS):
                tiles[kind] += p.tiles[kind]
            for area in range(6):
                if p.areas[area] >= 0 and p.rotations[area] >= 0:
                    printed = area_cell(area, p.rotations[area] + 1)
                    if p.hexes[printed] != p.areas[area]:
                        raise invalid(f"players[{state.players.index(p)}].hexes", "the printed hexagon is missing")
            for cell, kind in enumerate(p.hexes):
                if kind >= 0 and not _is_printed(p, cell):
                    tiles[kind] += 1
        expected = self.components.tiles_per_hexagon
        if any(tiles[k] + state.bag[k] + state.tower[k] != expected for k in range(KINDS)):
            raise invalid("tiles", "hexagons are not conserved")
        if sorted(expansions) != list(range(KINDS)):
            raise invalid("expansions", "expansions are not conserved")


# --- garden rules (pure functions of a player's garden) ---------------------------------------------------------
def _is_printed(player: QGPlayer, cell: int) -> bool:
    area = area_of(cell)
    return area >= 0 and player.rotations[area] >= 0 and cell == area_cell(area, player.rotations[area] + 1)


def _holds_hexagons(player: QGPlayer, cell: int) -> bool:
    """Whether ``cell`` is part of the garden and no ornament: a fountain cell, or a laid area's non-pavilion cell."""
    area = area_of(cell)
    if area < 0:
        return True
    return player.areas[area] >= 0 and not (player.rotations[area] >= 0 and cell == area_cell(area, 0))


def _is_surrounded(player: QGPlayer, ornament: Ornament) -> bool:
    if ornament.kind == "pavilion" and not player.has_pavilion(ornament.area):
        return False
    return all(player.hexes[cell] >= 0 for cell in ornament.ring)


def _group(hexes: Sequence[int], start: int, same: int, by_color: bool) -> list[int]:
    """The cells connected to ``start`` by colour (or by pattern) when ``start`` holds ``same``."""
    key = COLOR_OF if by_color else PATTERN_OF
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        here = same if cell == start else hexes[cell]
        wanted = key[here]
        for n in NEIGHBOURS[cell]:
            other = hexes[n]
            if other >= 0 and other != here and key[other] == wanted and n not in seen:
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def placement_error(player: QGPlayer, kind: int, cell: int, laying: int = -1) -> str | None:
    """Why ``kind`` may not go on ``cell`` (a message key), or None. ``laying`` is the area being laid, if any.

    The cell must be free, have no neighbouring hexagon or one sharing its colour or pattern, touch no identical
    hexagon, and leave no colour or pattern group holding two identical hexagons.
    """
    if laying < 0 and not player.is_free(cell):
        return "qg_cell_not_free"
    return _garden_error(player.hexes, kind, cell)


def _garden_error(hexes: list[int], kind: int, cell: int) -> str | None:
    """``placement_error`` for a cell known to be free: what the hexagons around it allow."""
    color, pattern = COLOR_OF[kind], PATTERN_OF[kind]
    same_color = same_pattern = crowded = False
    for n in NEIGHBOURS[cell]:
        other = hexes[n]
        if other < 0:
            continue
        if other == kind:
            return "qg_identical_neighbour"
        crowded = True
        same_color = same_color or COLOR_OF[other] == color
        same_pattern = same_pattern or PATTERN_OF[other] == pattern
    if not (same_color or same_pattern):
        return "qg_no_match" if crowded else None
    # A group can only gain a duplicate through a neighbour of the same colour (or pattern): search only then.
    for by_color, touching in ((True, same_color), (False, same_pattern)):
        if touching:
            group = [kind if c == cell else hexes[c] for c in _group(hexes, cell, kind, by_color)]
            if len(group) != len(set(group)):
                return "qg_group_duplicate"
    return None


_PLACE_TILES: Memo[tuple[str, str, str], PlaceTile] = Memo()
_PASSES: Memo[str, Pass] = Memo()


def _place_tile(tile: str, payment: str, cell: str) -> PlaceTile:
    """One shared object per tile placement (moves are immutable): a new garden lists mostly placements seen
    before, and looking one up costs a fifth of building it."""
    key = (tile, payment, cell)
    move = _PLACE_TILES.get(key)
    if move is None:
        move = _PLACE_TILES.put(key, PlaceTile(tile, payment, cell))
    return move


def _pass(discard: str) -> Pass:
    """One shared object per discard, as ``_place_tile``: storages that differ by a hexagon share most discards."""
    move = _PASSES.get(discard)
    if move is None:
        move = _PASSES.put(discard, Pass(discard))
    return move


class _Garden:
    """One garden's legal cells per kind and its tile placements per kind and payments, each worked out when first
    asked. It keeps its own copy of the garden, so a later change to the player's lists cannot reach it."""

    __slots__ = ("_areas", "_cells", "_free", "_hexes", "_moves", "_rotations")

    def __init__(self, player: QGPlayer) -> None:
        self._hexes, self._areas, self._rotations = player.hexes[:], player.areas[:], player.rotations[:]
        self._free: list[tuple[int, int, int, int]] | None = None
        self._cells: dict[int, tuple[str, ...]] = {}
        self._moves: dict[tuple[int, tuple[str, ...]], tuple[PlaceTile, ...]] = {}

    def cells_for(self, kind: int) -> tuple[str, ...]:
        cells = self._cells.get(kind)
        if cells is None:
            cells = self._cells[kind] = tuple(self._legal_cells(kind))
        return cells

    def tile_moves(self, kind: int, token: str, payments: tuple[str, ...]) -> tuple[PlaceTile, ...]:
        moves = self._moves.get((kind, payments))
        if moves is None:
            cells = self.cells_for(kind)
            moves = self._moves[kind, payments] = tuple(
                _place_tile(token, pay, cell) for pay in payments for cell in cells
            )
        return moves

    def _legal_cells(self, kind: int) -> Iterator[str]:
        """``_garden_error`` per free cell, its common answers read from masks of the neighbours' kinds, colours
        and patterns; only a cell whose neighbours match the kind needs the group search."""
        color, pattern = 1 << COLOR_OF[kind], 1 << PATTERN_OF[kind]
        for cell, kinds, colors, patterns in self._neighbourhoods():
            alone = not kinds  # no hexagon around: anything goes
            if alone or (
                not kinds >> kind & 1  # no identical neighbour
                and (colors & color or patterns & pattern)  # one neighbour shares its colour or pattern
                and _garden_error(self._hexes, kind, cell) is None  # and no group gains a duplicate
            ):
                yield CELLS[cell]

    def _neighbourhoods(self) -> list[tuple[int, int, int, int]]:
        """Per free cell (as ``QGPlayer.is_free``), masks of its neighbours' kinds, colours and patterns."""
        if self._free is None:
            hexes, areas, rotations, free = self._hexes, self._areas, self._rotations, []
            for cell, area in enumerate(AREA_OF):
                if hexes[cell] >= 0 or (area >= 0 and (areas[area] < 0 or (CENTRE_OF[cell] and rotations[area] >= 0))):
                    continue
                kinds = colors = patterns = 0
                for other in (hexes[n] for n in NEIGHBOURS[cell]):
                    if other >= 0:
                        kinds |= 1 << other
                        colors |= 1 << COLOR_OF[other]
                        patterns |= 1 << PATTERN_OF[other]
                free.append((cell, kinds, colors, patterns))
            self._free = free
        return self._free


def _all_groups(hexes: Sequence[int], by_color: bool) -> list[list[int]]:
    """Every group (2 or more cells) of every colour (or every pattern) in a garden, in one pass."""
    seen: set[int] = set()
    groups = []
    for cell, kind in enumerate(hexes):
        if kind < 0 or cell in seen:
            continue
        group = _group(hexes, cell, kind, by_color)
        seen.update(group)
        if len(group) > 1:
            groups.append(group)
    return groups


def garden_groups(player: QGPlayer, category: str, value: int) -> list[list[int]]:
    """The groups (2 or more cells) of one colour index or one pattern value in a garden."""
    by_color = category == "color"
    seen: set[int] = set()
    groups = []
    for cell, kind in enumerate(player.hexes):
        if kind < 0 or cell in seen or (color_of(kind) if by_color else pattern_of(kind)) != value:
            continue
        group = _group(player.hexes, cell, kind, by_color)
        seen.update(group)
        if len(group) > 1:
            groups.append(group)
    return groups


# --- small readers --------------------------------------------------------------------------------------------------
def face_down_expansions(state: QGState) -> list[int]:
    """Every expansion nobody has seen: in the round stacks, the supply, the display (still under tiles) and the
    gardens (laid face down)."""
    hidden = [*state.stack, *itertools.chain.from_iterable(state.future_stacks), *state.supply]
    hidden += [item.expansion for item in state.display if not item.face_up]
    for player in state.players:
        hidden += [kind for kind, rotation in zip(player.areas, player.rotations, strict=True) if rotation < 0 <= kind]
    return hidden


def _copy(state: QGState, seat: int) -> QGState:
    """A copy that ``seat``'s move may change (cheaper than a deep copy, far cheaper than a JSON round trip).

    Only the mover's storage and garden change during a move; other seats change only their score and passed
    flag. So other seats get new player records that share their lists with ``state``: code that changes a
    player's lists must do so through the seat that moves.
    """
    return QGState(
        variant=state.variant,
        seed=state.seed,
        rng=state.rng,
        round=state.round,
        phase=state.phase,
        current=state.current,
        marker=state.marker,
        stack=list(state.stack),
        top_tiles=list(state.top_tiles),
        display=[DisplayItem(item.expansion, list(item.tiles), item.face_up) for item in state.display],
        future_stacks=[list(stack) for stack in state.future_stacks],
        supply=list(state.supply),
        bag=list(state.bag),
        tower=list(state.tower),
        players=[
            QGPlayer(p.score, p.jokers, p.tiles[:], p.expansions[:], p.hexes[:], p.areas[:], p.rotations[:], p.passed)
            if index == seat
            else QGPlayer(p.score, p.jokers, p.tiles, p.expansions, p.hexes, p.areas, p.rotations, p.passed)
            for index, p in enumerate(state.players)
        ],
        final=[dict(item) for item in state.final],
    )


_STATE_KEYS = frozenset(f.name for f in fields(QGState))
_PLAYER_KEYS = frozenset(f.name for f in fields(QGPlayer))
_DISPLAY_KEYS = frozenset(f.name for f in fields(DisplayItem))


def _items(value: JSON, name: str) -> Iterator[tuple[int, JSON]]:
    return enumerate(read_list(value, name))


def _kinds(value: JSON, name: str) -> list[int]:
    return read_ints(value, name, None, 0, KINDS - 1)


def _read_display_item(raw: JSON, name: str) -> DisplayItem:
    raw = read_object(raw, name, _DISPLAY_KEYS)
    return DisplayItem(
        read_int(raw["expansion"], f"{name}.expansion", 0, KINDS - 1),
        _kinds(raw["tiles"], f"{name}.tiles"),
        read_bool(raw["face_up"], f"{name}.face_up"),
    )


def _read_final(raw: JSON, name: str, categories: tuple[str, ...]) -> dict[str, JSON]:
    """One seat's final scoring breakdown, as ``_final_scoring`` writes it."""
    raw = read_object(raw, name, ("storage", "groups", "total"))
    groups: list[JSON] = []
    for i, item in _items(raw["groups"], f"{name}.groups"):
        where = f"{name}.groups[{i}]"
        group = read_object(item, where, ("category", "cells", "points"))
        cells: list[JSON] = [
            read_str(cell, f"{where}.cells[{c}]", CELL_INDEX) for c, cell in _items(group["cells"], f"{where}.cells")
        ]
        category = read_str(group["category"], f"{where}.category", categories)
        groups.append({"category": category, "cells": cells, "points": read_int(group["points"], f"{where}.points", 0)})
    storage = read_int(raw["storage"], f"{name}.storage")
    return {"storage": storage, "groups": groups, "total": read_int(raw["total"], f"{name}.total", 0)}


def _cell(name: str) -> int:
    index = CELL_INDEX.get(name.upper())
    if index is None:
        raise BadNotation("qg_bad_cell", cell=name)
    return index


def _area(name: str) -> int:
    text = name.upper()
    if len(text) != 2 or text[0] != "A" or text[1] not in "123456":
        raise BadNotation("qg_bad_area", area=name)
    return int(text[1]) - 1


def _location(text: str) -> None:
    if text != "s" and not (text.startswith("d") and text[1:].isdecimal() and int(text[1:]) >= 1):
        raise BadNotation("qg_bad_location", token=text)


def _matching(places: Mapping[int, dict[str, Item]], color: int, pattern: int) -> dict[int, dict[str, Item]]:
    """The kinds on offer of one colour (or of one pattern), in kind order as the acquire rule takes them."""
    return {
        kind: where for kind, where in sorted(places.items()) if color_of(kind) == color or pattern_of(kind) == pattern
    }


def _taken(sources: Mapping[int, Mapping[str, Item]], picks: Mapping[int, str]) -> list[tuple[str, Item]]:
    """One hexagon of each matching kind: from the picked location, or the only one."""
    taken = []
    for kind, places in sorted(sources.items()):
        location = picks.get(kind, min(places))
        taken.append((location, places[location]))
    return taken


# The tables are read and validated when the registry imports this module (the bot's start-up), so a wrong
# number in data/queens_garden.json stops the bot with a clear message instead of failing mid-game.
_COMPONENTS = load_components()
VARIANTS = (
    QueensGarden("queens-garden", "standard", _COMPONENTS),
    QueensGarden("queens-garden-variant", "variant", _COMPONENTS),
)
__all__ = ["CELLS", "ORNAMENTS", "VARIANTS", "ComponentError", "QGState", "QueensGarden", "placement_error"]
