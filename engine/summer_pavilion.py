"""Azul: Summer Pavilion (2019): the front side (``summer-pavilion``) and the monochrome side
(``summer-pavilion-mono``). Rules: shared/rules/summer_pavilion.md.

State layout (the renderer and the bot read these fields; keep them stable):
- colours are ints 0..5 in the order of ``COLORS``, which is also the order of the wild colours: the wild colour of
  round r is colour r-1;
- a multiset of tiles is a list of 6 counts indexed by colour (factories, centre, supply, bag, tower, hands, kept);
- stars are indexed 0..6: the outer stars clockwise from the upper left, then ``CENTRE`` (6); spaces 0..5 are the
  printed spaces 1..6 clockwise. ``board.stars[star][space]`` is the colour covering it or -1. On the front side the
  outer stars are orange, red, blue, yellow, green, purple (``FRONT_STAR_COLORS``);
- ``phase`` is ``"draft"`` (phase 1: take tiles), ``"play"`` (phase 2: place or pass), ``"bonus"`` (the player who
  just completed structures picks ``bonus_pending`` tiles from the supply) or ``"over"``; one seat, ``current``, acts;
- ``start_seat`` began the current round's draft; ``start_tile`` is the seat holding the start tile, -1 while it lies
  in the centre.

Moves and their notation (``str(move)``; the bot's choices in brackets):
- ``Take``  ``3r`` / ``cr``: from factory 3 (or the centre) all red tiles plus one wild if any; when only wild tiles
  are left the colour is the wild colour and one tile is taken [take: source, color];
- ``Place`` ``b:6+2``: cover space 6 of the blue star spending 2 wild tiles; ``c:4r`` covers centre space 4 with a
  red tile; on the monochrome side stars are ``1``..``6`` and ``c``, and the placed colour is always written
  (``3:2y+1``) [place: star, space (with the colour letter when the star does not fix it), wilds];
- ``Bonus`` ``bonus:1p2r``: the bonus tiles picked from the supply [bonus: tiles];
- ``Pass``  ``pass:4g`` / ``pass``: the tiles kept on the corners for the next round [pass: keep].
Multisets are written as count+letter in colour order (``1p2r``); ``-`` is the empty multiset.

Events (``Event.kind``: ``data``; ``seat`` is the player concerned, None for table-wide events). As in Azul's
events, colours are colour ints, ``star``/``space`` are 0-based indices into ``board.stars``, a ``source`` is the
factory index from 0 or ``"centre"`` and a multiset is a list of 6 counts.
- ``round_started``: {round, start_seat, wild, factories (per factory its sorted colour ints), supply (sorted
  colour ints), bag, tower} (also the one opening event of a new game, see ``opening_events``);
- ``take``: {source, color, count (of that colour), wild (0/1: the wild tile that came along), to_centre};
- ``start_tile``: {penalty, score} the first take from the centre in a round;
- ``place``: {star, star_token (as in the move's choices), space, color, cost, points, wilds, spent (paid to the
  tower), score};
- ``bonus_earned``: {structures (list of {kind, star, bonus}), count (tiles to pick, capped by the supply)};
- ``bonus_taken``: {tiles, auto (true when there was nothing to choose)};
- ``supply_refilled``: {tiles (added), from_tower (the tower was poured into the bag)};
- ``pass``: {kept, discarded, penalty, score, auto (true when the pass was forced: nothing to place or decide)};
- ``round_scored``: {round, scores} when everybody has passed;
- ``end_bonus``: {stars (list of {star, points}), costs (list of {cost, points}), points, score}, every seat;
- ``game_over``: {standings (seat groups, best first), scores}.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache

from engine.core import (
    JSON,
    BadNotation,
    BadState,
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

COLORS = ("purple", "green", "orange", "yellow", "blue", "red")
LETTERS = "pgoybr"
NCOLORS = 6
TILES_PER_COLOR = 22
TOTAL_TILES = NCOLORS * TILES_PER_COLOR
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}
TILES_PER_FACTORY = 4
SUPPLY_SIZE = 10
ROUNDS = 6
START_SCORE = 5
MIN_SCORE = 1
MAX_KEEP = 4

CENTRE = 6
STARS = 7
SPACES = 6
CENTRE_SOURCE = -1
# Front side: the colour of each outer star, clockwise from the upper left.
FRONT_STAR_COLORS = (2, 5, 4, 3, 1, 0)  # orange, red, blue, yellow, green, purple
# Printed costs per star (outer stars share one row) and space.
FRONT_COSTS = (1, 2, 3, 4, 5, 6)
MONO_OUTER_COSTS = (3, 2, 1, 4, 5, 6)
MONO_CENTRE_COSTS = (3, 3, 3, 3, 3, 3)
# End bonuses: a completed star of one colour (by colour), a multicolour star, all spaces of a cost covered.
COLOR_STAR_BONUS = (20, 18, 17, 16, 15, 14)
MULTICOLOR_STAR_BONUS = 12
COST_BONUS = {1: 4, 2: 8, 3: 12, 4: 16}

Space = tuple[int, int]  # (star, space index)
Counts = list[int]


@dataclass(frozen=True, slots=True)
class Structure:
    kind: str  # "pillar", "statue" or "window"
    star: int  # the outer star it belongs to (statue: the one clockwise before it)
    bonus: int
    spaces: tuple[Space, ...]


def _structures() -> tuple[Structure, ...]:
    found: list[Structure] = []
    for s in range(6):
        following = (s + 1) % 6
        found.append(Structure("window", s, 3, ((s, 4), (s, 5))))
        found.append(Structure("statue", s, 2, ((s, 0), (s, 1), (following, 2), (following, 3))))
        found.append(Structure("pillar", s, 1, ((s, 1), (s, 2), (CENTRE, (s - 1) % 6), (CENTRE, s))))
    return tuple(found)


STRUCTURES = _structures()
STRUCTURES_AT: dict[Space, tuple[Structure, ...]] = {
    (star, space): tuple(st for st in STRUCTURES if (star, space) in st.spaces)
    for star in range(STARS)
    for space in range(SPACES)
}


def wild_of(round_number: int) -> int:
    """The wild colour of a round (1..6)."""
    return (round_number - 1) % NCOLORS


def space_cost(mono: bool, star: int, space: int) -> int:
    if not mono:
        return FRONT_COSTS[space]
    return (MONO_CENTRE_COSTS if star == CENTRE else MONO_OUTER_COSTS)[space]


def star_colors(mono: bool, star: int, tiles: Sequence[int]) -> list[int]:
    """The colours that may go on ``star`` whose spaces hold ``tiles`` (colours or -1)."""
    if not mono and star != CENTRE:
        return [FRONT_STAR_COLORS[star]]
    placed = [c for c in tiles if c >= 0]
    distinct = set(placed)
    if mono and (len(placed) <= 1):
        return list(range(NCOLORS))  # still free: one colour so far may become single- or multicolour
    if mono and len(distinct) == 1:
        return [placed[0]]
    return [c for c in range(NCOLORS) if c not in distinct]


def arc_points(tiles: Sequence[int], space: int) -> int:
    """The length of the unbroken ring arc of covered spaces through ``space`` (which must be covered)."""
    if all(c >= 0 for c in tiles):
        return SPACES
    points = 1
    for step in (1, -1):
        i = (space + step) % SPACES
        while tiles[i] >= 0:
            points += 1
            i = (i + step) % SPACES
    return points


# --- multisets ------------------------------------------------------------------------------------------------
def multiset_token(counts: Sequence[int]) -> str:
    """``[1,0,0,0,0,2]`` -> ``"1p2r"``; the empty multiset is ``"-"``."""
    text = "".join(f"{n}{LETTERS[c]}" for c, n in enumerate(counts) if n)
    return text or "-"


_MULTISET = re.compile(r"(\d*)([pgoybr])")


def parse_multiset(text: str) -> tuple[int, ...]:
    text = text.strip().lower().replace(" ", "")
    counts = [0] * NCOLORS
    if text in ("-", "0", "none"):
        return tuple(counts)
    pos = 0
    for match in _MULTISET.finditer(text):
        if match.start() != pos:
            break
        counts[LETTERS.index(match.group(2))] += int(match.group(1) or 1)
        pos = match.end()
    if pos != len(text) or pos == 0:
        raise BadNotation("sp_bad_tiles", text=text)
    return tuple(counts)


def as_list(counts: Sequence[int]) -> list[int]:
    return list(counts)


def _compositions(size: int, parts: int = NCOLORS) -> list[tuple[int, ...]]:
    """Every way to split ``size`` tiles among ``parts`` colours, larger counts of earlier colours first (built part
    by part: filtering every product of counts cost 5 ms at import, this a tenth of that)."""
    if parts == 1:
        return [(size,)]
    return [(first, *rest) for first in range(size, -1, -1) for rest in _compositions(size - first, parts - 1)]


_SMALL_MULTISETS = [_compositions(size) for size in range(MAX_KEEP + 1)]


def sub_multisets(counts: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every multiset of exactly ``size`` tiles drawn from ``counts``, larger counts of earlier colours first.

    ``size`` is at most 4: no more is ever kept (4) or earned by one placement (3); the candidates are precomputed.
    """
    c0, c1, c2, c3, c4, c5 = counts
    return [
        t
        for t in _SMALL_MULTISETS[size]
        if t[0] <= c0 and t[1] <= c1 and t[2] <= c2 and t[3] <= c3 and t[4] <= c4 and t[5] <= c5
    ]


def _parse_color(token: str) -> int:
    token = token.strip().lower()
    if token in COLORS:
        return COLORS.index(token)
    if len(token) == 1 and token in LETTERS:
        return LETTERS.index(token)
    raise BadNotation("sp_bad_color", text=token)


# --- moves ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Take:
    source: int  # factory index, or CENTRE_SOURCE
    color: int

    @property
    def command(self) -> str:
        return "take"

    def source_token(self) -> str:
        return "centre" if self.source == CENTRE_SOURCE else str(self.source + 1)

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("source", self.source_token()), ("color", COLORS[self.color]))

    def __str__(self) -> str:
        return ("c" if self.source == CENTRE_SOURCE else str(self.source + 1)) + LETTERS[self.color]


@dataclass(frozen=True, slots=True)
class Place:
    star: int
    space: int
    color: int
    wilds: int
    mono: bool

    @property
    def command(self) -> str:
        return "place"

    @property
    def color_implied(self) -> bool:
        return not self.mono and self.star != CENTRE

    def star_token(self) -> str:
        if self.star == CENTRE:
            return "centre"
        return str(self.star + 1) if self.mono else COLORS[FRONT_STAR_COLORS[self.star]]

    def space_token(self) -> str:
        return str(self.space + 1) + ("" if self.color_implied else LETTERS[self.color])

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("star", self.star_token()), ("space", self.space_token()), ("wilds", str(self.wilds)))

    def __str__(self) -> str:
        if self.star == CENTRE:
            star = "c"
        else:
            star = str(self.star + 1) if self.mono else LETTERS[FRONT_STAR_COLORS[self.star]]
        return f"{star}:{self.space_token()}" + (f"+{self.wilds}" if self.wilds else "")


@dataclass(frozen=True, slots=True)
class Bonus:
    tiles: tuple[int, ...]

    @property
    def command(self) -> str:
        return "bonus"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("tiles", multiset_token(self.tiles)),)

    def __str__(self) -> str:
        return "bonus:" + multiset_token(self.tiles)


@dataclass(frozen=True, slots=True)
class Pass:
    keep: tuple[int, ...]

    @property
    def command(self) -> str:
        return "pass"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("keep", multiset_token(self.keep)),)

    def __str__(self) -> str:
        return "pass" if not any(self.keep) else "pass:" + multiset_token(self.keep)


SPMove = Take | Place | Bonus | Pass


# --- state ----------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class SPBoard:
    score: int = START_SCORE
    hand: Counts = field(default_factory=lambda: [0] * NCOLORS)
    kept: Counts = field(default_factory=lambda: [0] * NCOLORS)
    stars: list[list[int]] = field(default_factory=lambda: [[-1] * SPACES for _ in range(STARS)])
    passed: bool = False

    def copy(self) -> SPBoard:
        return SPBoard(self.score, self.hand[:], self.kept[:], [row[:] for row in self.stars], self.passed)

    def placed_counts(self) -> Counts:
        counts = [0] * NCOLORS
        for row in self.stars:
            for c in row:
                if c >= 0:
                    counts[c] += 1
        return counts


@dataclass(slots=True)
class SPState:
    variant: str
    seed: int
    rng: int
    round: int
    phase: str
    current: int
    start_seat: int
    start_tile: int
    factories: list[Counts]
    centre: Counts
    supply: Counts
    bag: Counts
    tower: Counts
    boards: list[SPBoard]
    bonus_pending: int = 0

    @property
    def players(self) -> int:
        return len(self.boards)

    @property
    def player_count(self) -> int:
        """The number of seats, by the name every game's state uses."""
        return len(self.boards)

    @property
    def wild(self) -> int:
        return wild_of(self.round)

    def copy(self) -> SPState:
        return SPState(
            self.variant,
            self.seed,
            self.rng,
            self.round,
            self.phase,
            self.current,
            self.start_seat,
            self.start_tile,
            [f[:] for f in self.factories],
            self.centre[:],
            self.supply[:],
            self.bag[:],
            self.tower[:],
            [b.copy() for b in self.boards],
            self.bonus_pending,
        )


PHASES = ("draft", "play", "bonus", "over")
_MOVES_BY_PHASE: dict[str, tuple[type, ...]] = {"draft": (Take,), "play": (Place, Pass), "bonus": (Bonus,)}


# --- the variant ----------------------------------------------------------------------------------------------
_TAKE = re.compile(r"^([1-9]|c)([pgoybr])$")
_PLACE = re.compile(r"^([pgoybr1-6c]):([1-6])([pgoybr]?)(?:\+([0-5]))?$")


class SummerPavilion(Variant[SPState]):
    game = "summer-pavilion"
    title = "Azul: Summer Pavilion"
    commands = (
        MoveCommand("take", ("source", "color")),
        MoveCommand("place", ("star", "space", "wilds")),
        MoveCommand("bonus", ("tiles",), sets=("tiles",)),
        MoveCommand("pass", ("keep",), sets=("keep",)),
    )

    def __init__(self, name: str, mono: bool) -> None:
        self.name = name
        self.mono = mono

    # --- set-up -----------------------------------------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> SPState:
        check_players(self, players)
        check_no_options(options)
        state = SPState(
            variant=self.name,
            seed=seed,
            rng=seed_state(seed),
            round=1,
            phase="draft",
            current=0,
            start_seat=0,
            start_tile=-1,
            factories=[[0] * NCOLORS for _ in range(FACTORIES_BY_PLAYERS[players])],
            centre=[0] * NCOLORS,
            supply=[0] * NCOLORS,
            bag=[TILES_PER_COLOR] * NCOLORS,
            tower=[0] * NCOLORS,
            boards=[SPBoard() for _ in range(players)],
        )
        rng = Rng(state.rng)
        _draw(state, rng, state.supply, SUPPLY_SIZE)
        for factory in state.factories:
            _draw(state, rng, factory, TILES_PER_FACTORY)
        state.rng = rng.state
        return state

    # --- notation ---------------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> SPMove:
        if not isinstance(text, str):
            raise BadNotation("bad_notation", text=str(text))
        raw = text.strip().lower().replace(" ", "")
        if match := _TAKE.match(raw):
            source = CENTRE_SOURCE if match.group(1) == "c" else int(match.group(1)) - 1
            return Take(source, LETTERS.index(match.group(2)))
        if match := _PLACE.match(raw):
            return self._place_from_parts(match.group(1), match.group(2), match.group(3), match.group(4) or "0")
        if raw.startswith("bonus:"):
            return Bonus(parse_multiset(raw[6:]))
        if raw == "pass":
            return Pass((0,) * NCOLORS)
        if raw.startswith("pass:"):
            return Pass(parse_multiset(raw[5:]))
        raise BadNotation("bad_notation", text=text)

    def _place_from_parts(self, star_text: str, space_text: str, color_text: str, wilds_text: str) -> Place:
        star = self._parse_star_letter(star_text)
        implied = not self.mono and star != CENTRE
        if implied:
            color = FRONT_STAR_COLORS[star]
            if color_text and LETTERS.index(color_text) != color:
                raise BadNotation("sp_star_color_mismatch", star=COLORS[color], color=COLORS[LETTERS.index(color_text)])
        elif not color_text:
            raise BadNotation("sp_color_missing")
        else:
            color = LETTERS.index(color_text)
        return Place(star, int(space_text) - 1, color, int(wilds_text), self.mono)

    def _parse_star_letter(self, text: str) -> int:
        if text == "c":
            return CENTRE
        if self.mono and text.isdecimal():
            return int(text) - 1
        if not self.mono and text in LETTERS:
            return FRONT_STAR_COLORS.index(LETTERS.index(text))
        raise BadNotation("sp_bad_star", text=text)

    def _parse_star_token(self, token: str) -> int:
        token = token.strip().lower()
        if token in ("centre", "center", "c"):
            return CENTRE
        if self.mono and token in ("1", "2", "3", "4", "5", "6"):
            return int(token) - 1
        if not self.mono and token in COLORS:
            return FRONT_STAR_COLORS.index(COLORS.index(token))
        raise BadNotation("sp_bad_star", text=token)

    def split_set(self, command: str, option: str, token: str) -> dict[str, int]:
        """A multiset of tiles by colour letter: ``"1p2r"`` → ``{"p": 1, "r": 2}``."""
        counts = parse_multiset(token)
        return {LETTERS[color]: count for color, count in enumerate(counts) if count}

    def join_set(self, command: str, option: str, counts: Mapping[str, int]) -> str:
        tiles = [0] * NCOLORS
        for letter, count in counts.items():
            if len(letter) != 1 or letter not in LETTERS or count < 0:
                raise BadNotation("sp_bad_tiles", text=f"{count}{letter}")
            tiles[LETTERS.index(letter)] += count
        return multiset_token(tiles)

    def move_from_choices(self, command: str, choices: Mapping[str, str]) -> SPMove:
        def need(option: str) -> str:
            value = choices.get(option)
            if not isinstance(value, str) or not value.strip():
                raise BadNotation("missing_choice", option=option)
            return value.strip().lower()

        if command == "take":
            source = need("source")
            if source in ("centre", "center", "c"):
                index = CENTRE_SOURCE
            elif source.isdecimal() and 1 <= int(source) <= 9:
                index = int(source) - 1
            else:
                raise BadNotation("sp_bad_source", text=source)
            return Take(index, _parse_color(need("color")))
        if command == "place":
            star = self._parse_star_token(need("star"))
            space = need("space")
            wilds = need("wilds")
            match = re.fullmatch(r"([1-6])([pgoybr]?)", space)
            if not match:
                raise BadNotation("sp_bad_space", text=space)
            if not re.fullmatch(r"[0-5]", wilds):
                raise BadNotation("sp_bad_wilds", text=wilds)
            letter = LETTERS[FRONT_STAR_COLORS[star]] if not self.mono and star != CENTRE else str(star + 1)
            star_letter = "c" if star == CENTRE else letter
            return self._place_from_parts(star_letter, match.group(1), match.group(2), wilds)
        if command == "bonus":
            return Bonus(parse_multiset(need("tiles")))
        if command == "pass":
            return Pass(parse_multiset(need("keep")))
        raise BadNotation("unknown_command", command=command)

    # --- whose turn, what is legal --------------------------------------------------------------------------
    def to_act(self, state: SPState) -> frozenset[int]:
        return frozenset() if state.phase == "over" else frozenset((state.current,))

    def legal_moves(self, state: SPState, seat: int) -> list[Move]:
        if state.phase == "over" or seat != state.current:
            return []
        if state.phase == "draft":
            return list(_legal_takes(state))
        if state.phase == "bonus":
            return [Bonus(tiles) for tiles in sub_multisets(state.supply, state.bonus_pending)]
        board = state.boards[seat]
        moves: list[Move] = list(_legal_places(board, state.wild, self.mono))
        moves.extend(Pass(keep) for keep in _legal_keeps(board, state.round))
        return moves

    # --- applying ---------------------------------------------------------------------------------------------
    def apply(self, state: SPState, seat: int, move: Move) -> tuple[SPState, list[Event]]:
        self._validate(state, seat, move)
        return self._apply(state, seat, move)

    def apply_unchecked(self, state: SPState, seat: int, move: Move) -> SPState:
        return self._apply(state, seat, move)[0]

    def _apply(self, state: SPState, seat: int, move: Move) -> tuple[SPState, list[Event]]:
        new = state.copy()
        events: list[Event] = []
        if isinstance(move, Take):
            if _do_take(new, seat, move, events):
                starter = new.start_tile if new.start_tile >= 0 else new.start_seat
                self._seek_player(new, starter, events)
        elif isinstance(move, Place):
            self._do_place(new, seat, move, events)
        elif isinstance(move, Bonus):
            self._do_bonus(new, seat, move.tiles, False, events)
        elif isinstance(move, Pass):
            self._do_pass(new, seat, move.keep, False, events)
        return new, events

    def _validate(self, state: SPState, seat: int, move: Move) -> None:
        if state.phase == "over":
            raise GameOver("game_over")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise NotYourTurn("not_your_turn")
        if seat != state.current:
            raise NotYourTurn("not_your_turn")
        expected = _MOVES_BY_PHASE[state.phase]
        if not isinstance(move, expected):
            raise IllegalMove(f"sp_now_{state.phase}", command=getattr(move, "command", "?"))
        if isinstance(move, (Bonus, Pass)):
            tiles = move.tiles if isinstance(move, Bonus) else move.keep
            if len(tiles) != NCOLORS or min(tiles) < 0:
                raise BadNotation("bad_notation", text=str(move))
        if isinstance(move, Take):
            _check_take(state, move)
        elif isinstance(move, Place):
            self._check_place(state.boards[seat], state.wild, move)
        elif isinstance(move, Bonus):
            _check_bonus(state, move)
        elif isinstance(move, Pass):
            _check_pass(state.boards[seat], state.round, move)

    def _check_place(self, board: SPBoard, wild: int, move: Place) -> None:
        if move.mono != self.mono or not 0 <= move.star < STARS or not 0 <= move.space < SPACES or move.wilds < 0:
            raise BadNotation("bad_notation", text=str(move))
        tiles = board.stars[move.star]
        if tiles[move.space] >= 0:
            raise IllegalMove("sp_space_covered", space=move.space + 1)
        if move.color not in star_colors(self.mono, move.star, tiles):
            raise IllegalMove("sp_color_not_allowed", color=COLORS[move.color])
        cost = space_cost(self.mono, move.star, move.space)
        have, wilds_held = board.hand[move.color], board.hand[wild]
        if have == 0:
            raise IllegalMove("sp_no_tile_of_color", color=COLORS[move.color])
        if move.color == wild:
            if move.wilds:
                raise IllegalMove("sp_wild_as_itself", color=COLORS[wild])
            if have < cost:
                raise IllegalMove("sp_cannot_afford", cost=cost, have=have)
            return
        if move.wilds > cost - 1:
            raise IllegalMove("sp_too_many_wilds", wilds=move.wilds, most=cost - 1)
        if have + min(wilds_held, cost - 1) < cost:
            raise IllegalMove("sp_cannot_afford", cost=cost, have=have + min(wilds_held, cost - 1))
        if move.wilds > wilds_held:
            raise IllegalMove("sp_not_enough_wilds", wilds=move.wilds, have=wilds_held)
        if have < cost - move.wilds:
            raise IllegalMove("sp_more_wilds_needed", color=COLORS[move.color], have=have, cost=cost)

    # --- phase 2 steps --------------------------------------------------------------------------------------
    def _do_place(self, state: SPState, seat: int, move: Place, events: list[Event]) -> None:
        board = state.boards[seat]
        cost = space_cost(self.mono, move.star, move.space)
        spent = [0] * NCOLORS
        spent[move.color] += cost - 1 - move.wilds
        spent[state.wild] += move.wilds
        board.hand[move.color] -= 1
        for c in range(NCOLORS):
            board.hand[c] -= spent[c]
            state.tower[c] += spent[c]
        tiles = board.stars[move.star]
        tiles[move.space] = move.color
        points = arc_points(tiles, move.space)
        board.score += points
        events.append(
            Event(
                "place",
                seat,
                {
                    "star": move.star,
                    "star_token": move.star_token(),
                    "space": move.space,
                    "color": move.color,
                    "cost": cost,
                    "points": points,
                    "wilds": move.wilds,
                    "spent": as_list(spent),
                    "score": board.score,
                },
            )
        )
        completed = [
            st for st in STRUCTURES_AT[(move.star, move.space)] if all(board.stars[s][i] >= 0 for s, i in st.spaces)
        ]
        earned = sum(st.bonus for st in completed)
        count = min(earned, sum(state.supply))
        if completed:
            described = [{"kind": st.kind, "star": st.star, "bonus": st.bonus} for st in completed]
            events.append(Event("bonus_earned", seat, {"structures": described, "count": count}))
        if count:
            state.phase = "bonus"
            state.bonus_pending = count
            options = list(sub_multisets(state.supply, count))
            if len(options) == 1:
                self._do_bonus(state, seat, options[0], True, events)
            return
        self._seek_player(state, (seat + 1) % state.players, events)

    def _do_bonus(self, state: SPState, seat: int, tiles: Sequence[int], auto: bool, events: list[Event]) -> None:
        board = state.boards[seat]
        for c in range(NCOLORS):
            state.supply[c] -= tiles[c]
            board.hand[c] += tiles[c]
        events.append(Event("bonus_taken", seat, {"tiles": as_list(tiles), "auto": auto}))
        state.bonus_pending = 0
        state.phase = "play"
        rng = Rng(state.rng)
        before = state.supply[:]
        poured = _draw(state, rng, state.supply, SUPPLY_SIZE - sum(state.supply))
        state.rng = rng.state
        added = [state.supply[c] - before[c] for c in range(NCOLORS)]
        if any(added):
            events.append(Event("supply_refilled", None, {"tiles": as_list(added), "from_tower": poured}))
        self._seek_player(state, (seat + 1) % state.players, events)

    def _do_pass(self, state: SPState, seat: int, keep: Sequence[int], auto: bool, events: list[Event]) -> None:
        board = state.boards[seat]
        discarded = [board.hand[c] - keep[c] for c in range(NCOLORS)]
        for c in range(NCOLORS):
            board.kept[c] += keep[c]
            state.tower[c] += discarded[c]
            board.hand[c] = 0
        penalty = sum(discarded)
        before = board.score
        board.score = max(MIN_SCORE, board.score - penalty)
        board.passed = True
        events.append(
            Event(
                "pass",
                seat,
                {
                    "kept": as_list(keep),
                    "discarded": as_list(discarded),
                    "penalty": before - board.score,
                    "score": board.score,
                    "auto": auto,
                },
            )
        )
        self._seek_player(state, (seat + 1) % state.players, events)

    def _seek_player(self, state: SPState, first: int, events: list[Event]) -> None:
        """Hand phase 2 to the next seat (from ``first``, clockwise) that has a decision to make, passing for
        those who have none; when everybody has passed, the round ends."""
        for step in range(state.players):
            seat = (first + step) % state.players
            board = state.boards[seat]
            if board.passed:
                continue
            state.current = seat
            if _must_choose_keep(board, state.round) or _can_place(board, state.wild, self.mono):
                return
            self._do_pass(state, seat, _legal_keeps(board, state.round)[0], True, events)
            return
        self._end_round(state, events)

    def _end_round(self, state: SPState, events: list[Event]) -> None:
        events.append(Event("round_scored", None, {"round": state.round, "scores": self.scores(state)}))
        if state.round == ROUNDS:
            self._finish(state, events)
            return
        starter = state.start_tile if state.start_tile >= 0 else state.start_seat
        state.round += 1
        state.start_seat = starter
        state.start_tile = -1
        state.current = starter
        state.phase = "draft"
        for board in state.boards:
            board.passed = False
            for c in range(NCOLORS):
                board.hand[c] += board.kept[c]
                board.kept[c] = 0
        rng = Rng(state.rng)
        for factory in state.factories:
            _draw(state, rng, factory, TILES_PER_FACTORY)
        state.rng = rng.state
        events.append(_round_started_event(state))
        if not _draft_left(state):  # bag and tower both empty: nothing to take, straight to placing
            state.phase = "play"
            self._seek_player(state, starter, events)

    def opening_events(self, state: SPState) -> list[Event]:
        """The first round's deal, described like every later one."""
        return [_round_started_event(state)]

    def _finish(self, state: SPState, events: list[Event]) -> None:
        state.phase = "over"
        state.current = -1
        for seat, board in enumerate(state.boards):
            stars, costs = end_bonuses(board, self.mono)
            points = sum(p for _, p in stars) + sum(p for _, p in costs)
            board.score += points
            events.append(
                Event(
                    "end_bonus",
                    seat,
                    {
                        "stars": [{"star": s, "points": p} for s, p in stars],
                        "costs": [{"cost": k, "points": p} for k, p in costs],
                        "points": points,
                        "score": board.score,
                    },
                )
            )
        events.append(Event("game_over", None, {"standings": self.standings(state), "scores": self.scores(state)}))

    # --- results ----------------------------------------------------------------------------------------------
    def is_over(self, state: SPState) -> bool:
        return state.phase == "over"

    def scores(self, state: SPState) -> list[int]:
        return [b.score for b in state.boards]

    def standings(self, state: SPState) -> list[list[int]]:
        return ranked([(b.score,) for b in state.boards])

    def round_number(self, state: SPState) -> int:
        return state.round

    def heuristic(self, state: SPState, seat: int) -> float:
        board = state.boards[seat]
        if state.phase == "over":
            return float(board.score)
        held = sum(board.hand)
        doomed = held if state.round == ROUNDS else max(0, held - MAX_KEEP)
        stars, costs = end_bonuses(board, self.mono)
        return board.score - 0.5 * doomed + sum(p for _, p in stars) + sum(p for _, p in costs)

    # --- JSON -------------------------------------------------------------------------------------------------
    def to_json(self, state: SPState) -> dict[str, JSON]:
        return {
            "variant": state.variant,
            "seed": state.seed,
            "rng": state.rng,
            "round": state.round,
            "phase": state.phase,
            "current": state.current,
            "start_seat": state.start_seat,
            "start_tile": state.start_tile,
            "factories": [f[:] for f in state.factories],
            "centre": state.centre[:],
            "supply": state.supply[:],
            "bag": state.bag[:],
            "tower": state.tower[:],
            "bonus_pending": state.bonus_pending,
            "boards": [
                {
                    "score": b.score,
                    "hand": b.hand[:],
                    "kept": b.kept[:],
                    "stars": [row[:] for row in b.stars],
                    "passed": b.passed,
                }
                for b in state.boards
            ],
        }

    def from_json(self, raw: Mapping[str, JSON]) -> SPState:
        state = self._read_state(raw)
        self._check_state(state)
        return state

    def _read_state(self, raw: Mapping[str, JSON]) -> SPState:
        """The shape of a saved state: every field present with the right type and range."""
        raw = read_object(raw, "state", _STATE_KEYS)
        if read_str(raw["variant"], "variant") != self.name:
            raise invalid("variant", f"expected {self.name}")
        boards = read_list(raw["boards"], "boards")
        if len(boards) not in FACTORIES_BY_PLAYERS:
            raise invalid("boards", "expected 2 to 4 boards")
        players = len(boards)
        factories = read_list(raw["factories"], "factories", FACTORIES_BY_PLAYERS[players])
        return SPState(
            variant=self.name,
            seed=read_int(raw["seed"], "seed"),
            rng=read_int(raw["rng"], "rng", 0, MAX_RNG),
            round=read_int(raw["round"], "round", 1, ROUNDS),
            phase=read_str(raw["phase"], "phase", PHASES),
            current=read_int(raw["current"], "current", -1, players - 1),
            start_seat=read_int(raw["start_seat"], "start_seat", 0, players - 1),
            start_tile=read_int(raw["start_tile"], "start_tile", -1, players - 1),
            factories=[_counts(f, f"factories[{i}]") for i, f in enumerate(factories)],
            centre=_counts(raw["centre"], "centre"),
            supply=_counts(raw["supply"], "supply"),
            bag=_counts(raw["bag"], "bag"),
            tower=_counts(raw["tower"], "tower"),
            boards=[_read_board(b, f"boards[{seat}]") for seat, b in enumerate(boards)],
            bonus_pending=read_int(raw["bonus_pending"], "bonus_pending", 0, SUPPLY_SIZE),
        )

    def _check_state(self, state: SPState) -> None:
        def bad(why: str) -> BadState:
            return invalid("state", why)

        n = state.players
        if n not in FACTORIES_BY_PLAYERS or len(state.factories) != FACTORIES_BY_PLAYERS[n]:
            raise bad("player or factory count")
        if not 1 <= state.round <= ROUNDS or state.phase not in PHASES:
            raise bad("round or phase")
        if state.phase == "over" and (state.current != -1 or state.round != ROUNDS):
            raise bad("finished game still has someone to act")
        if state.phase != "over" and not 0 <= state.current < n:
            raise bad("current seat")
        if not 0 <= state.start_seat < n or not -1 <= state.start_tile < n:
            raise bad("start seat or start tile")
        if any(sum(f) > TILES_PER_FACTORY for f in state.factories) or sum(state.supply) > SUPPLY_SIZE:
            raise bad("factory or supply overfull")
        if (state.phase == "bonus") != (state.bonus_pending > 0) or state.bonus_pending > sum(state.supply):
            raise bad("bonus pending")
        if state.phase == "draft" and not _draft_left(state):
            raise bad("draft with nothing to take")
        if state.phase in ("play", "bonus") and _draft_left(state):
            raise bad("tiles left to draft in phase 2")
        total = [0] * NCOLORS
        pools = [*state.factories, state.centre, state.supply, state.bag, state.tower]
        for board in state.boards:
            if board.score < MIN_SCORE:
                raise bad("score below 1")
            if sum(board.kept) > MAX_KEEP:
                raise bad("more than 4 kept tiles")
            for star, row in enumerate(board.stars):
                self._check_star(star, row)
            pools += [board.hand, board.kept, board.placed_counts()]
        for pool in pools:
            for c in range(NCOLORS):
                total[c] += pool[c]
        if total != [TILES_PER_COLOR] * NCOLORS:
            raise bad("tiles are not 22 of each colour")

    def _check_star(self, star: int, row: list[int]) -> None:
        placed = [c for c in row if c >= 0]
        if not self.mono and star != CENTRE:
            ok = all(c == FRONT_STAR_COLORS[star] for c in placed)
        elif self.mono and len(set(placed)) == 1:
            ok = True
        else:
            ok = len(set(placed)) == len(placed)
        if not ok:
            raise invalid(f"stars[{star}]", f"star {star + 1} holds colours it cannot")


def _sorted_tiles(counts: Sequence[int]) -> list[int]:
    return [c for c in range(NCOLORS) for _ in range(counts[c])]


def _round_started_event(state: SPState) -> Event:
    return Event(
        "round_started",
        None,
        {
            "round": state.round,
            "start_seat": state.start_seat,
            "wild": state.wild,
            "factories": [_sorted_tiles(f) for f in state.factories],
            "supply": _sorted_tiles(state.supply),
            "bag": state.bag[:],
            "tower": state.tower[:],
        },
    )


def end_bonuses(board: SPBoard, mono: bool) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``([(star, points)], [(cost, points)])``: the completed stars and fully covered costs of a board."""
    stars: list[tuple[int, int]] = []
    for star, row in enumerate(board.stars):
        if min(row) < 0:
            continue
        if not mono:
            points = MULTICOLOR_STAR_BONUS if star == CENTRE else COLOR_STAR_BONUS[FRONT_STAR_COLORS[star]]
        else:
            points = COLOR_STAR_BONUS[row[0]] if len(set(row)) == 1 else MULTICOLOR_STAR_BONUS
        stars.append((star, points))
    costs: list[tuple[int, int]] = []
    for cost, points in COST_BONUS.items():
        if all(
            board.stars[star][space] >= 0
            for star in range(STARS)
            for space in range(SPACES)
            if space_cost(mono, star, space) == cost
        ):
            costs.append((cost, points))
    return stars, costs


# --- drafting -------------------------------------------------------------------------------------------------
def _legal_takes(state: SPState) -> Iterator[Take]:
    wild = state.wild
    sources = [(i, f) for i, f in enumerate(state.factories)] + [(CENTRE_SOURCE, state.centre)]
    for index, tiles in sources:
        if not sum(tiles):
            continue
        colors = [c for c in range(NCOLORS) if c != wild and tiles[c]]
        by_color = _takes()[index - CENTRE_SOURCE]
        for color in colors or [wild]:
            yield by_color[color]


def _check_take(state: SPState, move: Take) -> None:
    if move.source != CENTRE_SOURCE and not 0 <= move.source < len(state.factories):
        raise IllegalMove("sp_no_such_factory", factory=move.source + 1, count=len(state.factories))
    if not 0 <= move.color < NCOLORS:
        raise BadNotation("bad_notation", text=str(move))
    tiles = state.centre if move.source == CENTRE_SOURCE else state.factories[move.source]
    source = move.source_token()
    if not sum(tiles):
        raise IllegalMove("sp_source_empty", source=source)
    if not tiles[move.color]:
        raise IllegalMove("sp_color_absent", source=source, color=COLORS[move.color])
    if move.color == state.wild and sum(tiles) != tiles[state.wild]:
        raise IllegalMove("sp_wild_not_alone", color=COLORS[move.color])


def _do_take(state: SPState, seat: int, move: Take, events: list[Event]) -> bool:
    """Take tiles; whether that ended the draft."""
    wild = state.wild
    tiles = state.centre if move.source == CENTRE_SOURCE else state.factories[move.source]
    board = state.boards[seat]
    if move.color == wild:
        count, extra = 1, 0
    else:
        count, extra = tiles[move.color], min(1, tiles[wild])
    tiles[move.color] -= count
    tiles[wild] -= extra
    board.hand[move.color] += count
    board.hand[wild] += extra
    to_centre = [0] * NCOLORS
    if move.source != CENTRE_SOURCE:
        to_centre = tiles[:]
        for c in range(NCOLORS):
            state.centre[c] += tiles[c]
            tiles[c] = 0
    events.append(
        Event(
            "take",
            seat,
            {
                "source": "centre" if move.source == CENTRE_SOURCE else move.source,
                "color": move.color,
                "count": count,
                "wild": extra,
                "to_centre": as_list(to_centre),
            },
        )
    )
    if move.source == CENTRE_SOURCE and state.start_tile < 0:
        state.start_tile = seat
        before = board.score
        board.score = max(MIN_SCORE, board.score - count - extra)
        events.append(Event("start_tile", seat, {"penalty": before - board.score, "score": board.score}))
    if _draft_left(state):
        state.current = (seat + 1) % state.players
        return False
    state.phase = "play"
    return True


def _draft_left(state: SPState) -> bool:
    return any(sum(f) > 0 for f in state.factories) or sum(state.centre) > 0


def _draw(state: SPState, rng: Rng, into: Counts, count: int) -> bool:
    """Move up to ``count`` random tiles from the bag into ``into``, pouring the tower into the bag when the bag
    runs out; stop short when both are empty. Whether the tower was poured."""
    poured = False
    for _ in range(count):
        if not sum(state.bag):
            if not sum(state.tower):
                break
            state.bag, state.tower = state.tower, [0] * NCOLORS
            poured = True
        into[rng.draw_from_counts(state.bag)] += 1
    return poured


# --- phase 2 helpers ------------------------------------------------------------------------------------------
# Moves are interned: listing legal moves hands out these shared values instead of building new ones each time.
# Built with the first list of moves, not at import: the bot imports every game to declare its commands, and the
# 3,000 places were a seventh of the bot's own import time.
@cache
def _places() -> dict[bool, list[list[list[list[Place]]]]]:
    """``[mono][star][space][color][wilds]``: every place."""
    return {
        mono: [
            [
                [[Place(star, space, color, wilds, mono) for wilds in range(SPACES)] for color in range(NCOLORS)]
                for space in range(SPACES)
            ]
            for star in range(STARS)
        ]
        for mono in (False, True)
    }


@cache
def _takes() -> list[list[Take]]:
    """``[source - CENTRE_SOURCE][color]``: every take."""
    return [[Take(source, color) for color in range(NCOLORS)] for source in range(CENTRE_SOURCE, 9)]


def _legal_places(board: SPBoard, wild: int, mono: bool) -> Iterator[Place]:
    hand = board.hand
    places = _places()[mono]
    for star in range(STARS):
        tiles = board.stars[star]
        colors = [c for c in star_colors(mono, star, tiles) if hand[c]]
        if not colors:
            continue
        for space in range(SPACES):
            if tiles[space] >= 0:
                continue
            cost = space_cost(mono, star, space)
            at = places[star][space]
            for color in colors:
                if color == wild:
                    if hand[wild] >= cost:
                        yield at[color][0]
                    continue
                yield from at[color][max(0, cost - hand[color]) : min(cost - 1, hand[wild]) + 1]


def _can_place(board: SPBoard, wild: int, mono: bool) -> bool:
    return next(_legal_places(board, wild, mono), None) is not None


def _must_choose_keep(board: SPBoard, round_number: int) -> bool:
    """Whether a player who cannot place still has a choice when passing. With 4 tiles or fewer they could discard
    some, but a player who cannot place is passed automatically keeping them all (a choice for asynchronous play:
    nobody is made to wait for a decision that only loses points)."""
    return round_number != ROUNDS and sum(board.hand) > MAX_KEEP


def _legal_keeps(board: SPBoard, round_number: int) -> list[tuple[int, ...]]:
    """What a passing player may keep: nothing in the last round, otherwise any choice of at most 4 of the tiles
    held (the rulebook's "maksymalnie 4"), largest first, so the first choice keeps as much as fits."""
    if round_number == ROUNDS:
        return [(0,) * NCOLORS]
    most = min(MAX_KEEP, sum(board.hand))
    return [keep for size in range(most, -1, -1) for keep in sub_multisets(board.hand, size)]


def _check_bonus(state: SPState, move: Bonus) -> None:
    tiles = move.tiles
    if sum(tiles) != state.bonus_pending:
        raise IllegalMove("sp_bonus_count", count=state.bonus_pending, given=sum(tiles))
    for c in range(NCOLORS):
        if tiles[c] > state.supply[c]:
            raise IllegalMove("sp_not_in_supply", color=COLORS[c], count=tiles[c], available=state.supply[c])


def _check_pass(board: SPBoard, round_number: int, move: Pass) -> None:
    keep = move.keep
    if round_number == ROUNDS and any(keep):
        raise IllegalMove("sp_keep_last_round")
    if sum(keep) > MAX_KEEP:
        raise IllegalMove("sp_keep_too_many", count=sum(keep), most=MAX_KEEP)
    for c in range(NCOLORS):
        if keep[c] > board.hand[c]:
            raise IllegalMove("sp_keep_not_held", color=COLORS[c], count=keep[c], have=board.hand[c])


# --- JSON readers ---------------------------------------------------------------------------------------------
_STATE_KEYS = frozenset(f.name for f in fields(SPState))
_BOARD_KEYS = frozenset(f.name for f in fields(SPBoard))


def _counts(value: JSON, name: str) -> Counts:
    return read_ints(value, name, NCOLORS, 0, TILES_PER_COLOR)


def _read_board(raw: JSON, name: str) -> SPBoard:
    raw = read_object(raw, name, _BOARD_KEYS)
    return SPBoard(
        score=read_int(raw["score"], f"{name}.score", MIN_SCORE),
        hand=_counts(raw["hand"], f"{name}.hand"),
        kept=_counts(raw["kept"], f"{name}.kept"),
        stars=read_rows(raw["stars"], f"{name}.stars", (STARS, SPACES), -1, NCOLORS - 1),
        passed=read_bool(raw["passed"], f"{name}.passed"),
    )


VARIANTS = (SummerPavilion("summer-pavilion", mono=False), SummerPavilion("summer-pavilion-mono", mono=True))
