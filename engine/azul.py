"""Azul (2017): the coloured wall (``azul``) and the grey wall (``azul-grey``). Rules: shared/rules/azul.md.

State layout (the renderer and the bot read these fields; keep them stable):
- colours are ints 0..4 in the order of ``COLORS``; ``MARKER`` (5) stands for the starting-player marker on a floor;
- a multiset of tiles is a list of 5 counts indexed by colour (factories, centre, bag, lid);
- a board has ``line_color``/``line_count`` per pattern line 0..4 (capacity index+1; colour -1 when empty),
  ``wall[row][col]`` (colour or -1), ``floor`` (colours and MARKER in the order they arrived, at most 7);
- ``phase`` is ``"offer"`` (factory offer, ``current`` moves), ``"wall"`` (grey wall: seats in ``choosing`` pick
  columns) or ``"over"``.
- during the grey wall's ``"wall"`` phase, lines above a choosing seat's topmost full line are already tiled: that
  topmost full line is the one waiting for its column.

Moves and their notation (case-insensitive on input, canonical on output):
- :class:`Take` ``<source><colour><line>``: source ``1``-``9`` (factory) or ``c`` (centre), colour ``b y r k w``,
  line ``1``-``5`` or ``F`` (floor). ``3b4``: factory 3, blue, line 4; ``cr5``; ``1kF``.
  Choices: ``source`` ("1".."9" | "centre"), ``color`` (colour id, e.g. "blue"), ``line`` ("1".."5" | "floor").
- :class:`PlaceOnWall` (grey wall) ``L<line>C<column>``, e.g. ``L3C2``. Choices: ``line``, ``column`` ("1".."5").

Events (``Event.kind``: ``data``; ``seat`` is the player concerned, None for table-wide events). In events a
``source`` is the factory index from 0 or ``"centre"`` and a ``line`` is 1..5 or ``"floor"`` (as in transcripts);
``row``/``col`` are 0-based indices into ``wall``; colours are colour ints.
- ``round_started``: {round, start_seat, factories: per factory the list of its colour ints (sorted), bag, lid}
  (also the one opening event of a new game, see :meth:`AzulVariant.opening_events`).
- ``take``: {source, color, count, line, to_line, to_floor, to_lid, marker (bool: took the starting marker)}.
- ``wall``: {row, col, color, points, h, v} a tile moved to the wall; ``h``/``v`` are the runs through it (1 = none).
- ``line_to_floor`` (grey wall): {row, color, count, to_floor, to_lid} a full line with no legal column.
- ``choose_columns`` (grey wall): {seats} these seats must now pick columns (``wall`` moves).
- ``floor_penalty``: {points (the printed penalty, <= 0), applied (the change after the 0 floor), tiles}.
- ``round_scored``: {round, scores}.
- ``bonus``: {rows, columns, colors, points} end-of-game bonuses of one seat (emitted for every seat).
- ``game_over``: {standings (seat groups, best first), scores, reason}: ``reason`` is ``"row_complete"`` (the rule),
  ``"no_row_possible"`` (grey wall: no player can ever complete a row any more), ``"no_tiles"`` (every tile is
  on the boards, so no round can be dealt) or ``"no_tiling_possible"`` (no pattern line can ever be filled and tiled
  again: the tiles in play cannot complete any line, so the game could only go round forever).

Where the rules are silent (choices, each in one obvious place below):
- seat 0 starts the first round (the bot seats players in the order it wants);
- a full pattern line is not offered as a target (it would only send everything to the floor: use ``F``);
- the starting marker taken onto a full floor takes the last space and that tile goes to the lid (the penalty is
  the same);
- nobody took from the centre: the start player of the round just ended starts again;
- grey wall: full lines are tiled top down; a line with one legal column is placed without asking; a game in which
  no player can complete a row any more ends after that round's tiling, as does a game with no tile left to deal;
- any wall: a game in which no pattern line can ever be filled and tiled again (say a colour stuck on pattern lines
  with too few of it left in play) ends at that round's deal: no wall could change again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from itertools import permutations
from operator import itemgetter

from engine.core import (
    JSON,
    BadNotation,
    BadOptions,
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
from engine.strict import MAX_RNG, invalid, read_bool, read_int, read_ints, read_list, read_object, read_rows, read_str

COLORS = ("blue", "yellow", "red", "black", "white")
COLOR_LETTERS = "byrkw"
MARKER = 5
LINES = 5
WALL_SIZE = 5
FLOOR_PENALTIES = (-1, -1, -2, -2, -2, -3, -3)
FLOOR_SIZE = len(FLOOR_PENALTIES)
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}
TILES_PER_COLOR = 20
TILES_PER_FACTORY = 4
ROW_BONUS = 2
COLUMN_BONUS = 7
COLOR_BONUS = 10

CENTRE = -1
"""``Take.source`` of the centre of the table (factories are 0..8)."""
FLOOR = 5
"""``Take.line`` that sends every taken tile straight to the floor (pattern lines are 0..4)."""

OFFER, WALL, OVER = "offer", "wall", "over"


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

    @property
    def player_count(self) -> int:
        """The number of seats, by the name every game's state uses."""
        return len(self.boards)


# --- moves ------------------------------------------------------------------------------------------------------
def source_token(source: int) -> str:
    """A source as players name it: factories from 1, or ``centre``."""
    return "centre" if source == CENTRE else str(source + 1)


def line_token(line: int) -> str:
    return "floor" if line == FLOOR else str(line + 1)


def event_source(source: int) -> JSON:
    """A source as events and transcripts name it: the factory index from 0, or ``"centre"``."""
    return "centre" if source == CENTRE else source


def event_line(line: int) -> JSON:
    return "floor" if line == FLOOR else line + 1


@dataclass(frozen=True, slots=True)
class Take:
    """Take every tile of ``color`` from ``source`` (factory index or CENTRE) into pattern ``line`` (or FLOOR)."""

    source: int
    color: int
    line: int

    @property
    def command(self) -> str:
        return "take"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("source", source_token(self.source)), ("color", COLORS[self.color]), ("line", line_token(self.line)))

    def __str__(self) -> str:
        source = "c" if self.source == CENTRE else str(self.source + 1)
        line = "F" if self.line == FLOOR else str(self.line + 1)
        return f"{source}{COLOR_LETTERS[self.color]}{line}"


@dataclass(frozen=True, slots=True)
class PlaceOnWall:
    """Grey wall: move the tile of full pattern ``line`` (0-based) to ``column`` (0-based) of the same wall row."""

    line: int
    column: int

    @property
    def command(self) -> str:
        return "wall"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("line", str(self.line + 1)), ("column", str(self.column + 1)))

    def __str__(self) -> str:
        return f"L{self.line + 1}C{self.column + 1}"


# Moves are interned: legal_moves hands out these shared values instead of building new ones on every call.
_TAKES = [[[Take(source, color, line) for line in range(LINES + 1)] for color in range(5)] for source in range(-1, 9)]
_WALL_MOVES = [[PlaceOnWall(line, column) for column in range(WALL_SIZE)] for line in range(LINES)]


def _take_sets() -> list[list[list[tuple[Take, ...]]]]:
    """``[source + 1][color][mask]``: the takes into each pattern line whose bit is set in ``mask``, then the floor,
    picked from :data:`_TAKES` by one itemgetter per mask (a tenth of the import time of building them line by line)."""
    picks = [itemgetter(*(line for line in range(LINES) if mask >> line & 1), FLOOR) for mask in range(1, 1 << LINES)]
    return [[[(by_line[FLOOR],), *(pick(by_line) for pick in picks)] for by_line in by_color] for by_color in _TAKES]


_TAKE_SETS = _take_sets()


def take(source: int, color: int, line: int) -> Take:
    return _TAKES[source + 1][color][line]


_TAKE_TEXT = re.compile(r"(c|[1-9])([byrkw])([1-5f])")
_WALL_TEXT = re.compile(r"l([1-5])c([1-5])")


def parse_notation(text: str) -> Move:
    """Read ``3b4`` / ``cr5`` / ``1kF`` / ``L3C2`` (any case, surrounding blanks ignored)."""
    if not isinstance(text, str):
        raise BadNotation("bad_notation", text=repr(text))
    compact = "".join(text.split()).lower()
    if matched := _TAKE_TEXT.fullmatch(compact):
        source, color, line = matched.groups()
        return take(
            CENTRE if source == "c" else int(source) - 1,
            COLOR_LETTERS.index(color),
            FLOOR if line == "f" else int(line) - 1,
        )
    if matched := _WALL_TEXT.fullmatch(compact):
        return _WALL_MOVES[int(matched.group(1)) - 1][int(matched.group(2)) - 1]
    raise BadNotation("bad_notation", text=text.strip()[:40])


def _choice(choices: Mapping[str, str], option: str, allowed: Mapping[str, int]) -> int:
    if option not in choices or choices[option] in ("", None):
        raise BadNotation("missing_choice", option=option)
    token = str(choices[option]).strip().lower()
    if token not in allowed:
        raise BadNotation("bad_choice", option=option, token=str(choices[option])[:40])
    return allowed[token]


_SOURCE_TOKENS = {"centre": CENTRE, "center": CENTRE, "c": CENTRE} | {str(i + 1): i for i in range(9)}
_COLOR_TOKENS = {name: i for i, name in enumerate(COLORS)} | {letter: i for i, letter in enumerate(COLOR_LETTERS)}
_LINE_TOKENS = {"floor": FLOOR, "f": FLOOR} | {str(i + 1): i for i in range(LINES)}
_COLUMN_TOKENS = {str(i + 1): i for i in range(WALL_SIZE)}


def move_from_choices(command: str, choices: Mapping[str, str]) -> Move:
    if command == "take":
        return take(
            _choice(choices, "source", _SOURCE_TOKENS),
            _choice(choices, "color", _COLOR_TOKENS),
            _choice(choices, "line", _LINE_TOKENS),
        )
    if command == "wall":
        return _WALL_MOVES[_choice(choices, "line", _COLUMN_TOKENS)][_choice(choices, "column", _COLUMN_TOKENS)]
    raise BadNotation("unknown_command", command=str(command)[:40])


# --- small pure helpers -----------------------------------------------------------------------------------------
def placement_points(wall: list[list[int]], row: int, col: int) -> tuple[int, int, int]:
    """Points for the tile just placed at ``(row, col)``, with its horizontal and vertical run lengths."""
    line = wall[row]
    h = 1
    c = col - 1
    while c >= 0 and line[c] >= 0:
        h += 1
        c -= 1
    c = col + 1
    while c < WALL_SIZE and line[c] >= 0:
        h += 1
        c += 1
    v = 1
    r = row - 1
    while r >= 0 and wall[r][col] >= 0:
        v += 1
        r -= 1
    r = row + 1
    while r < WALL_SIZE and wall[r][col] >= 0:
        v += 1
        r += 1
    if h > 1 and v > 1:
        return h + v, h, v
    if h > 1:
        return h, h, v
    return v, h, v


def grey_columns(wall: list[list[int]], row: int, color: int) -> list[int]:
    """Grey wall: the free spaces of ``row`` whose column does not hold ``color`` yet."""
    return [
        col for col in range(WALL_SIZE) if wall[row][col] < 0 and all(wall[r][col] != color for r in range(WALL_SIZE))
    ]


def row_can_be_completed(wall: list[list[int]], row: int) -> bool:
    """Grey wall: can the free spaces of ``row`` still all be filled (its missing colours, each in a column that
    lacks it)? Walls only gain tiles, so once False it stays False."""
    free = [col for col in range(WALL_SIZE) if wall[row][col] < 0]
    missing = [color for color in range(5) if color not in wall[row]]
    in_column = [{wall[r][col] for r in range(WALL_SIZE)} for col in free]
    return any(
        all(color not in colors for color, colors in zip(order, in_column, strict=True))
        for order in permutations(missing)
    )


def floor_penalty(tiles: int) -> int:
    return sum(FLOOR_PENALTIES[:tiles])


def complete_rows(wall: list[list[int]]) -> int:
    return sum(1 for line in wall if min(line) >= 0)


def end_bonus(wall: list[list[int]]) -> tuple[int, int, int, int]:
    """``(rows, columns, colours, points)``: complete rows, complete columns and colours with all 5 tiles."""
    rows = complete_rows(wall)
    columns = sum(1 for col in range(WALL_SIZE) if all(wall[r][col] >= 0 for r in range(WALL_SIZE)))
    placed = [0] * 5
    for line in wall:
        for color in line:
            if color >= 0:
                placed[color] += 1
    colors = placed.count(WALL_SIZE)
    return rows, columns, colors, rows * ROW_BONUS + columns * COLUMN_BONUS + colors * COLOR_BONUS


def tile_ids(counts: list[int]) -> list[int]:
    return [color for color in range(5) for _ in range(counts[color])]


def _clone_board(board: AzulBoard) -> AzulBoard:
    """A board whose lines and floor may be changed; the wall stays shared until tiling copies it."""
    return AzulBoard(board.score, board.line_color[:], board.line_count[:], board.wall, board.floor[:])


def _clone_state(s: AzulState) -> AzulState:
    """A shallow copy: callers replace (never mutate) the lists they change."""
    return AzulState(
        s.variant,
        s.seed,
        s.rng,
        s.round,
        s.phase,
        s.start_seat,
        s.current,
        s.factories,
        s.centre,
        s.marker_in_centre,
        s.bag,
        s.lid,
        s.boards,
        s.choosing,
    )


# --- the variants -----------------------------------------------------------------------------------------------
class AzulVariant(Variant[AzulState]):
    game = "azul"
    title = "Azul"
    commands = (MoveCommand("take", ("source", "color", "line")), MoveCommand("wall", ("line", "column"), repeats=True))

    def __init__(self, name: str, grey: bool) -> None:
        self.name = name
        self.grey = grey

    # -- new game and the deal --
    def new_game(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> AzulState:
        check_players(self, players)
        check_no_options(options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("bad_seed", seed=repr(seed)[:40])
        state = AzulState(
            variant=self.name,
            seed=seed,
            rng=seed_state(seed),
            round=1,
            phase=OFFER,
            start_seat=0,
            current=0,
            factories=[],
            centre=[0] * 5,
            marker_in_centre=True,
            bag=[TILES_PER_COLOR] * 5,
            lid=[0] * 5,
            boards=[AzulBoard() for _ in range(players)],
        )
        self._deal(state)
        return state

    def opening_events(self, state: AzulState) -> list[Event]:
        """The first round's deal, described like every later one."""
        return [self._round_started_event(state)]

    @staticmethod
    def _deal(s: AzulState) -> None:
        """Fill every factory with 4 tiles from the bag, pouring the lid into the bag when it runs out."""
        rng = Rng(s.rng)
        bag, lid = s.bag[:], s.lid
        factories = []
        for _ in range(FACTORIES_BY_PLAYERS[s.players]):
            tiles = [0] * 5
            for _ in range(TILES_PER_FACTORY):
                if not any(bag):
                    if not any(lid):
                        break
                    bag, lid = lid[:], [0] * 5
                tiles[rng.draw_from_counts(bag)] += 1
            factories.append(tiles)
        s.rng, s.bag, s.lid, s.factories = rng.state, bag, lid, factories

    @staticmethod
    def _round_started_event(s: AzulState) -> Event:
        return Event(
            "round_started",
            None,
            {
                "round": s.round,
                "start_seat": s.start_seat,
                "factories": [tile_ids(tiles) for tiles in s.factories],
                "bag": sum(s.bag),
                "lid": sum(s.lid),
            },
        )

    # -- reading the state --
    def parse_move(self, text: str) -> Move:
        return parse_notation(text)

    def move_from_choices(self, command: str, choices: Mapping[str, str]) -> Move:
        return move_from_choices(command, choices)

    def to_act(self, state: AzulState) -> frozenset[int]:
        if state.phase == OFFER:
            return frozenset((state.current,))
        if state.phase == WALL:
            return frozenset(state.choosing)
        return frozenset()

    def is_over(self, state: AzulState) -> bool:
        return state.phase == OVER

    def scores(self, state: AzulState) -> list[int]:
        return [board.score for board in state.boards]

    def standings(self, state: AzulState) -> list[list[int]]:
        return ranked([(board.score, complete_rows(board.wall)) for board in state.boards])

    def round_number(self, state: AzulState) -> int:
        return state.round

    def accepts(self, board: AzulBoard, line: int, color: int) -> bool:
        """May tiles of ``color`` go into pattern ``line`` of ``board`` now? (The floor always accepts.)"""
        return bool(self._line_mask(board, color) >> line & 1)

    def legal_moves(self, state: AzulState, seat: int) -> list[Move]:
        if state.phase == OFFER:
            return self._take_moves(state, seat) if seat == state.current else []
        if state.phase == WALL and seat in state.choosing:
            board = state.boards[seat]
            row = self.pending_line(board)
            return [_WALL_MOVES[row][col] for col in grey_columns(board.wall, row, board.line_color[row])]
        return []

    def _take_moves(self, s: AzulState, seat: int) -> list[Move]:
        board = s.boards[seat]
        masks = [-1] * 5  # per colour, the set of lines that accept it (bit per line), computed when first needed
        moves: list[Move] = []
        for source, tiles in [*enumerate(s.factories), (CENTRE, s.centre)]:
            by_color = _TAKE_SETS[source + 1]
            for color in range(5):
                if tiles[color]:
                    mask = masks[color]
                    if mask < 0:
                        mask = masks[color] = self._line_mask(board, color)
                    moves.extend(by_color[color][mask])
        return moves

    def _line_mask(self, board: AzulBoard, color: int) -> int:
        """The pattern lines that accept ``color``, as bits (line 0 = bit 0).

        A line holding tiles takes more of its colour until full; an empty line takes a colour its wall row lacks
        (coloured wall: that colour's own space is free; grey wall: the colour is nowhere in the row).
        """
        mask = 0
        wall, counts = board.wall, board.line_count
        for line, held in enumerate(board.line_color):
            if held >= 0:
                if held == color and counts[line] <= line:
                    mask |= 1 << line
            elif color not in wall[line] if self.grey else wall[line][(color + line) % WALL_SIZE] < 0:
                mask |= 1 << line
        return mask

    @staticmethod
    def pending_line(board: AzulBoard) -> int:
        """Grey wall, wall phase: the topmost full pattern line (the one waiting for its column), or -1."""
        for line in range(LINES):
            if board.line_count[line] == line + 1:
                return line
        return -1

    # -- validation --
    def check(self, state: AzulState, seat: int, move: Move) -> None:
        """Raise the specific reason why ``seat`` may not play ``move`` now; return if it may."""
        if state.phase == OVER:
            raise GameOver("game_over")
        if isinstance(move, PlaceOnWall):
            self._check_wall(state, seat, move)
        elif isinstance(move, Take):
            self._check_take(state, seat, move)
        else:
            raise BadNotation("bad_notation", text=str(move)[:40])

    def _check_take(self, s: AzulState, seat: int, move: Take) -> None:
        if not (-1 <= move.source < 9 and 0 <= move.color < 5 and 0 <= move.line <= FLOOR):
            raise BadNotation("bad_notation", text=repr(move)[:40])
        if s.phase == WALL:
            if seat in s.choosing:
                raise IllegalMove("choose_column_first", line=self.pending_line(s.boards[seat]) + 1)
            raise NotYourTurn("not_your_turn", seat=seat)
        if seat != s.current:
            raise NotYourTurn("not_your_turn", seat=seat)
        if move.source >= len(s.factories):
            raise IllegalMove("no_such_factory", factory=move.source + 1, factories=len(s.factories))
        if move.source == CENTRE:
            if not any(s.centre):
                raise IllegalMove("centre_empty")
            if not s.centre[move.color]:
                raise IllegalMove("color_not_in_centre", color=COLORS[move.color])
        else:
            tiles, source = s.factories[move.source], source_token(move.source)
            if not any(tiles):
                raise IllegalMove("empty_source", source=source)
            if not tiles[move.color]:
                raise IllegalMove("color_not_in_source", source=source, color=COLORS[move.color])
        if move.line == FLOOR:
            return
        board = s.boards[seat]
        line, held = move.line, s.boards[seat].line_color[move.line]
        if held >= 0 and held != move.color:
            raise IllegalMove("line_has_other_color", line=line + 1, color=COLORS[move.color], line_color=COLORS[held])
        if board.line_count[line] == line + 1:
            raise IllegalMove("line_full", line=line + 1)
        if not self.accepts(board, line, move.color):
            raise IllegalMove("color_already_on_wall", line=line + 1, color=COLORS[move.color])

    def _check_wall(self, s: AzulState, seat: int, move: PlaceOnWall) -> None:
        if not (0 <= move.line < LINES and 0 <= move.column < WALL_SIZE):
            raise BadNotation("bad_notation", text=repr(move)[:40])
        if not self.grey:
            raise IllegalMove("no_column_choice")
        if s.phase != WALL or seat not in s.choosing:
            if s.phase == WALL or seat != s.current:
                raise NotYourTurn("not_your_turn", seat=seat)
            raise IllegalMove("not_choosing_now")
        board = s.boards[seat]
        expected = self.pending_line(board)
        if move.line != expected:
            raise IllegalMove("line_not_next", line=move.line + 1, expected=expected + 1)
        column, color = move.column, board.line_color[move.line]
        if board.wall[move.line][column] >= 0:
            raise IllegalMove("space_taken", line=move.line + 1, column=column + 1, reason="occupied")
        if any(board.wall[row][column] == color for row in range(WALL_SIZE)):
            raise IllegalMove("column_not_legal", line=move.line + 1, column=column + 1, reason="color_in_column")

    # -- applying moves --
    def apply(self, state: AzulState, seat: int, move: Move) -> tuple[AzulState, list[Event]]:
        self.check(state, seat, move)
        events: list[Event] = []
        return self._play(state, seat, move, events), events

    def apply_unchecked(self, state: AzulState, seat: int, move: Move) -> AzulState:
        return self._play(state, seat, move, None)

    def _play(self, state: AzulState, seat: int, move: Move, events: list[Event] | None) -> AzulState:
        s = _clone_state(state)
        if isinstance(move, Take):
            self._take(s, seat, move, events)
            if not any(s.centre) and not any(map(any, s.factories)):
                self._end_offer(s, events)
        elif isinstance(move, PlaceOnWall):
            s.boards = s.boards[:]
            s.boards[seat] = _clone_board(s.boards[seat])
            s.lid = s.lid[:]
            self._place(s, seat, move.line, move.column, events)
            if not self._advance_grey(s, seat, events):
                s.choosing = [other for other in s.choosing if other != seat]
                if not s.choosing:
                    self._finish_round(s, events)
        return s

    def _take(self, s: AzulState, seat: int, move: Take, events: list[Event] | None) -> None:
        color = move.color
        centre = s.centre[:]
        marker = False
        if move.source == CENTRE:
            count = centre[color]
            centre[color] = 0
            marker = s.marker_in_centre
            s.marker_in_centre = False
        else:
            tiles = s.factories[move.source]
            count = tiles[color]
            for other in range(5):
                if other != color:
                    centre[other] += tiles[other]
            s.factories = s.factories[:]
            s.factories[move.source] = [0] * 5
        s.centre = centre

        s.boards = s.boards[:]
        board = s.boards[seat] = _clone_board(s.boards[seat])
        floor = board.floor
        to_lid = 0
        if marker:
            if len(floor) == FLOOR_SIZE:
                # A full floor: the marker takes the last space (same penalty) and that tile goes to the lid.
                to_lid += 1
                s.lid = s.lid[:]
                s.lid[floor.pop()] += 1
            floor.append(MARKER)
        to_line = 0
        if move.line != FLOOR:
            to_line = min(count, move.line + 1 - board.line_count[move.line])
            board.line_count[move.line] += to_line
            board.line_color[move.line] = color
        to_floor = min(count - to_line, FLOOR_SIZE - len(floor))
        floor.extend([color] * to_floor)
        overflow = count - to_line - to_floor
        if overflow:
            s.lid = s.lid[:]
            s.lid[color] += overflow
        s.current = (seat + 1) % s.players
        if events is not None:
            data = {
                "source": event_source(move.source),
                "color": color,
                "count": count,
                "line": event_line(move.line),
                "to_line": to_line,
                "to_floor": to_floor,
                "to_lid": overflow + to_lid,
                "marker": marker,
            }
            events.append(Event("take", seat, data))

    def _end_offer(self, s: AzulState, events: list[Event] | None) -> None:
        """Wall tiling: automatic on the coloured wall; on the grey wall up to each seat's first real choice."""
        s.phase = WALL
        s.boards = [_clone_board(board) for board in s.boards]
        s.lid = s.lid[:]
        if not self.grey:
            for seat, board in enumerate(s.boards):
                for line in range(LINES):
                    if board.line_count[line] == line + 1:
                        self._place(s, seat, line, wall_column(line, board.line_color[line]), events)
            self._finish_round(s, events)
            return
        s.choosing = [seat for seat in range(s.players) if self._advance_grey(s, seat, events)]
        if not s.choosing:
            self._finish_round(s, events)
        elif events is not None:
            events.append(Event("choose_columns", None, {"seats": list(s.choosing)}))

    @staticmethod
    def _place(s: AzulState, seat: int, line: int, col: int, events: list[Event] | None) -> None:
        """Move the tile of full ``line`` to ``(line, col)``, score it, and put the rest of the line in the lid.

        The board and ``s.lid`` must already be private to ``s``; the wall is copied here (it may be shared).
        """
        board = s.boards[seat]
        color = board.line_color[line]
        board.wall = board.wall[:]
        board.wall[line] = board.wall[line][:]
        board.wall[line][col] = color
        points, h, v = placement_points(board.wall, line, col)
        board.score += points
        s.lid[color] += line  # a full line holds line+1 tiles: one to the wall, the rest to the lid
        board.line_color[line] = -1
        board.line_count[line] = 0
        if events is not None:
            data = {"row": line, "col": col, "color": color, "points": points, "h": h, "v": v}
            events.append(Event("wall", seat, data))

    def _advance_grey(self, s: AzulState, seat: int, events: list[Event] | None) -> bool:
        """Tile ``seat``'s full lines top down while there is no choice; True if it stopped at a real choice."""
        board = s.boards[seat]
        for line in range(LINES):
            if board.line_count[line] != line + 1:
                continue
            color = board.line_color[line]
            columns = grey_columns(board.wall, line, color)
            if len(columns) > 1:
                return True
            if columns:
                self._place(s, seat, line, columns[0], events)
            else:
                self._line_to_floor(s, seat, board, line, events)
        return False

    @staticmethod
    def _line_to_floor(s: AzulState, seat: int, board: AzulBoard, line: int, events: list[Event] | None) -> None:
        color, count = board.line_color[line], line + 1
        to_floor = min(count, FLOOR_SIZE - len(board.floor))
        board.floor.extend([color] * to_floor)
        s.lid[color] += count - to_floor
        board.line_color[line] = -1
        board.line_count[line] = 0
        if events is not None:
            data = {"row": line, "color": color, "count": count, "to_floor": to_floor, "to_lid": count - to_floor}
            events.append(Event("line_to_floor", seat, data))

    def _finish_round(self, s: AzulState, events: list[Event] | None) -> None:
        """Floor penalties, then the end of the game or the next round's deal."""
        next_start = s.start_seat  # nobody took from the centre: the same player starts again
        s.boards = [_clone_board(board) for board in s.boards]  # every score and floor changes
        for seat, board in enumerate(s.boards):
            if not board.floor:
                continue
            penalty = floor_penalty(len(board.floor))
            before = board.score
            board.score = max(0, before + penalty)
            for tile in board.floor:
                if tile == MARKER:
                    next_start = seat
                else:
                    s.lid[tile] += 1
            if events is not None:
                data = {"points": penalty, "applied": board.score - before, "tiles": len(board.floor)}
                events.append(Event("floor_penalty", seat, data))
            board.floor = []
        if events is not None:
            events.append(Event("round_scored", None, {"round": s.round, "scores": self.scores(s)}))
        s.choosing = []
        if any(complete_rows(board.wall) for board in s.boards):
            self._end_game(s, events, "row_complete")
            return
        if self.grey and not any(
            row_can_be_completed(board.wall, row) for board in s.boards for row in range(WALL_SIZE)
        ):
            # Nobody can ever complete a row, so the game could never end: it ends now (a choice; the rules are silent).
            self._end_game(s, events, "no_row_possible")
            return
        s.start_seat = s.current = next_start
        s.centre = [0] * 5
        s.marker_in_centre = True
        self._deal(s)
        if not any(map(any, s.factories)):
            # Every tile is on the boards: no move could ever change anything again, so the game ends here.
            self._end_game(s, events, "no_tiles")
            return
        if not self.tiling_possible(s):
            # No pattern line can ever be filled and tiled again, so no wall (and no score but the floors') can
            # change: the game could only go round forever. It ends now (a choice; the rules are silent).
            self._end_game(s, events, "no_tiling_possible")
            return
        s.round += 1
        s.phase = OFFER
        if events is not None:
            events.append(self._round_started_event(s))

    def tiling_possible(self, s: AzulState) -> bool:
        """Could any pattern line of any board still be filled and tiled? Only tiles in play (bag, lid, factories,
        centre) can fill a line: those on walls and pattern lines stay there until a line is tiled."""
        in_play = [sum(tiles) for tiles in zip(s.bag, s.lid, s.centre, *s.factories, strict=True)]
        for board in s.boards:
            for line in range(LINES):
                held, count = board.line_color[line], board.line_count[line]
                for color in [held] if held >= 0 else range(5):
                    if in_play[color] >= line + 1 - count and self.has_space(board.wall, line, color):
                        return True
        return False

    def has_space(self, wall: list[list[int]], row: int, color: int) -> bool:
        """Has ``row`` of ``wall`` a space ``color`` may be tiled in (grey wall: in a column that lacks it)?"""
        if self.grey:
            return color not in wall[row] and bool(grey_columns(wall, row, color))
        return wall[row][wall_column(row, color)] < 0

    def _end_game(self, s: AzulState, events: list[Event] | None, reason: str) -> None:
        s.phase = OVER
        for seat, board in enumerate(s.boards):
            rows, columns, colors, points = end_bonus(board.wall)
            board.score += points
            if events is not None:
                data = {"rows": rows, "columns": columns, "colors": colors, "points": points}
                events.append(Event("bonus", seat, data))
        if events is not None:
            over = {"standings": self.standings(s), "scores": self.scores(s), "reason": reason}
            events.append(Event("game_over", None, over))

    # -- the greedy agent's yardstick --
    def heuristic(self, state: AzulState, seat: int) -> float:
        """Score now, plus what this seat's full lines will score at tiling, minus its floor penalty (unclamped)."""
        board = state.boards[seat]
        if state.phase == OVER:
            return float(board.score)
        return self._tiled(board)[0]

    def evaluation(self, state: AzulState, seat: int) -> float:
        """The heuristic plus a share of every row, column and colour bonus still in reach after the coming tiling:
        the share grows with the square of the tiles already there, and a bonus needing more tiles than rounds
        likely remain (the fullest row on the table says how many) counts nothing."""
        board = state.boards[seat]
        if state.phase == OVER:
            return float(board.score)
        value, wall = self._tiled(board)
        fullest = max(
            sum(1 for color in other.wall[row] if color >= 0) + (other.line_count[row] == row + 1)
            for other in state.boards
            for row in range(LINES)
        )
        rounds_left = max(0, WALL_SIZE - fullest)
        placed = [0] * 5
        for row in wall:
            for color in row:
                if color >= 0:
                    placed[color] += 1
        rows = [sum(1 for color in row if color >= 0) for row in wall]
        columns = [sum(1 for row in wall if row[col] >= 0) for col in range(WALL_SIZE)]
        for counts, bonus in ((rows, ROW_BONUS), (columns, COLUMN_BONUS), (placed, COLOR_BONUS)):
            for count in counts:
                if WALL_SIZE - count <= rounds_left:
                    value += bonus * (count / WALL_SIZE) ** 2
        return value

    def _tiled(self, board: AzulBoard) -> tuple[float, list[list[int]]]:
        """The heuristic's value of ``board`` and its wall after this round's tiling (best column on a grey wall)."""
        wall = [row[:] for row in board.wall]
        points = board.score
        floor = len(board.floor)
        for line in range(LINES):
            if board.line_count[line] != line + 1:
                continue
            color = board.line_color[line]
            columns = grey_columns(wall, line, color) if self.grey else [wall_column(line, color)]
            if not columns:
                floor += line + 1
                continue
            best, best_col = -1, columns[0]
            for col in columns:
                wall[line][col] = color
                gain = placement_points(wall, line, col)[0]
                wall[line][col] = -1
                if gain > best:
                    best, best_col = gain, col
            wall[line][best_col] = color
            points += best
        return float(points + floor_penalty(min(floor, FLOOR_SIZE))), wall

    # -- JSON --
    def to_json(self, state: AzulState) -> dict[str, JSON]:
        return {
            "variant": state.variant,
            "seed": state.seed,
            "rng": state.rng,
            "round": state.round,
            "phase": state.phase,
            "start_seat": state.start_seat,
            "current": state.current,
            "factories": [tiles[:] for tiles in state.factories],
            "centre": state.centre[:],
            "marker_in_centre": state.marker_in_centre,
            "bag": state.bag[:],
            "lid": state.lid[:],
            "boards": [
                {
                    "score": board.score,
                    "line_color": board.line_color[:],
                    "line_count": board.line_count[:],
                    "wall": [row[:] for row in board.wall],
                    "floor": board.floor[:],
                }
                for board in state.boards
            ],
            "choosing": state.choosing[:],
        }

    def from_json(self, raw: Mapping[str, JSON]) -> AzulState:
        state = _read_state(raw)
        if state.variant != self.name:
            raise invalid("variant", f"expected {self.name}")
        _check_state(self, state)
        return state


# --- loading saved states ---------------------------------------------------------------------------------------
_STATE_KEYS = frozenset(f.name for f in fields(AzulState))
_BOARD_KEYS = frozenset(f.name for f in fields(AzulBoard))
_MAX_SCORE = 10_000
_MAX_ROUND = 10_000


def _read_board(raw: JSON, name: str) -> AzulBoard:
    raw = read_object(raw, name, _BOARD_KEYS)
    return AzulBoard(
        score=read_int(raw["score"], f"{name}.score", 0, _MAX_SCORE),
        line_color=read_ints(raw["line_color"], f"{name}.line_color", LINES, -1, 4),
        line_count=read_ints(raw["line_count"], f"{name}.line_count", LINES, 0, LINES),
        wall=read_rows(raw["wall"], f"{name}.wall", (WALL_SIZE, WALL_SIZE), -1, 4),
        floor=read_ints(raw["floor"], f"{name}.floor", None, 0, MARKER),
    )


def _read_state(raw: Mapping[str, JSON]) -> AzulState:
    """The shape of a saved state: every field present with the right type and range."""
    raw = read_object(raw, "state", _STATE_KEYS)
    boards = read_list(raw["boards"], "boards")
    if len(boards) not in FACTORIES_BY_PLAYERS:
        raise invalid("boards", "expected 2 to 4 boards")
    players = len(boards)
    factories = read_list(raw["factories"], "factories", FACTORIES_BY_PLAYERS[players])
    return AzulState(
        variant=read_str(raw["variant"], "variant"),
        seed=read_int(raw["seed"], "seed"),
        rng=read_int(raw["rng"], "rng", 0, MAX_RNG),
        round=read_int(raw["round"], "round", 1, _MAX_ROUND),
        phase=read_str(raw["phase"], "phase", (OFFER, WALL, OVER)),
        start_seat=read_int(raw["start_seat"], "start_seat", 0, players - 1),
        current=read_int(raw["current"], "current", 0, players - 1),
        factories=[read_ints(tiles, f"factories[{i}]", 5, 0, TILES_PER_FACTORY) for i, tiles in enumerate(factories)],
        centre=read_ints(raw["centre"], "centre", 5, 0, TILES_PER_COLOR),
        marker_in_centre=read_bool(raw["marker_in_centre"], "marker_in_centre"),
        bag=read_ints(raw["bag"], "bag", 5, 0, TILES_PER_COLOR),
        lid=read_ints(raw["lid"], "lid", 5, 0, TILES_PER_COLOR),
        boards=[_read_board(board, f"boards[{seat}]") for seat, board in enumerate(boards)],
        choosing=read_ints(raw["choosing"], "choosing", None, 0, players - 1),
    )


def _check_state(variant: AzulVariant, s: AzulState) -> None:
    """The rules' invariants: what no sequence of legal moves can produce is refused."""
    for i, tiles in enumerate(s.factories):
        if sum(tiles) > TILES_PER_FACTORY:
            raise invalid(f"factories[{i}]", "more than 4 tiles")
    if s.phase == WALL and not variant.grey:
        raise invalid("phase", "the coloured wall is tiled automatically")
    totals = [s.bag[c] + s.lid[c] + s.centre[c] + sum(tiles[c] for tiles in s.factories) for c in range(5)]
    markers = int(s.marker_in_centre)
    for seat, board in enumerate(s.boards):
        name = f"boards[{seat}]"
        _check_board(variant, board, name)
        markers += board.floor.count(MARKER)
        for tile in board.floor:
            if tile != MARKER:
                totals[tile] += 1
        for line in range(LINES):
            if board.line_count[line]:
                totals[board.line_color[line]] += board.line_count[line]
        for row in board.wall:
            for tile in row:
                if tile >= 0:
                    totals[tile] += 1
    for color, total in enumerate(totals):
        if total != TILES_PER_COLOR:
            raise invalid("tiles", f"{total} {COLORS[color]} tiles instead of {TILES_PER_COLOR}")
    if markers > 1 or (s.phase == OFFER and markers != 1):
        raise invalid("marker", "the starting marker must be in exactly one place")
    if s.phase == OFFER and not any(s.centre) and not any(map(any, s.factories)):
        raise invalid("factories", "the factory offer has no tiles left")
    if s.phase == OVER and any(board.floor for board in s.boards):
        raise invalid("floor", "a finished game has empty floors")
    _check_choosing(variant, s)


def _check_board(variant: AzulVariant, board: AzulBoard, name: str) -> None:
    if len(board.floor) > FLOOR_SIZE:
        raise invalid(f"{name}.floor", "more than 7 tiles")
    for r, row in enumerate(board.wall):
        for c, tile in enumerate(row):
            if tile < 0:
                continue
            if variant.grey:
                if row.count(tile) > 1 or [line[c] for line in board.wall].count(tile) > 1:
                    raise invalid(f"{name}.wall", "a colour repeats in a row or column")
            elif tile != wall_color(r, c):
                raise invalid(f"{name}.wall", f"wrong colour at row {r + 1}, column {c + 1}")
    for line in range(LINES):
        color, count = board.line_color[line], board.line_count[line]
        if count > line + 1 or (color < 0) != (count == 0):
            raise invalid(f"{name}.line_count", f"pattern line {line + 1} is impossible")
        if count and color in board.wall[line]:
            raise invalid(f"{name}.line_color", f"pattern line {line + 1} holds a colour already on its wall row")


def _check_choosing(variant: AzulVariant, s: AzulState) -> None:
    if s.choosing != sorted(set(s.choosing)):
        raise invalid("choosing", "seats must be listed once, in order")
    if s.phase != WALL:
        if s.choosing:
            raise invalid("choosing", "only the wall-tiling phase has seats choosing")
        return
    if not s.choosing:
        raise invalid("choosing", "the wall-tiling phase waits for nobody")
    for seat, board in enumerate(s.boards):
        line = variant.pending_line(board)
        if seat not in s.choosing:
            if line >= 0:
                raise invalid("choosing", f"seat {seat} has a full line but is not choosing")
        elif line < 0 or len(grey_columns(board.wall, line, board.line_color[line])) < 2:
            raise invalid("choosing", f"seat {seat} has no column to choose")


VARIANTS = (AzulVariant("azul", grey=False), AzulVariant("azul-grey", grey=True))
