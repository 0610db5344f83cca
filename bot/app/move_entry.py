"""Move entry without Discord: what a player may choose for one option, and reading what they typed.

Shared by the slash commands' autocomplete and submit (:mod:`bot.ui.commands.move`) and the Play picker
(:mod:`bot.ui.picker`). Two rules keep it fast in the biggest positions (a Queen's Garden pass with thousands of
possible discards): a set-valued option (``MoveCommand.sets`` in the engine's declaration) is offered item by item,
never as every combination, and choices are filtered before they are labelled, so only what is shown is put into
words.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from bot.app.outcomes import Needed
from bot.games import adapter_of
from bot.games.base import GameAdapter
from data.i18n import SUPPORTED
from engine import GameState, Move, Variant
from engine.core import ANY_SET, command_options, set_options

CHOICE_LIMIT = 25
LABEL_BUDGET = 0.03
"""Seconds of labelling one autocomplete may spend looking for words that match (it returns what it found)."""

_SEPARATORS = re.compile(r"\s*[+,;&]\s*|\s+(?:and|i|oraz|та|і|й)\s+")
_COUNT_FIRST = re.compile(r"^(\d+)\s*[x×*]?\s*(\D.*)$")
_COUNT_LAST = re.compile(r"^(.*\D)\s*[x×*]\s*(\d+)$")
_SPELLING = (("×", "x"), ("center", "centre"), ("ё", "е"), ("’", "'"))
_NOTHING = frozenset({"", "-", "none", "nothing", "nic", "нічого"})


@functools.lru_cache(maxsize=4096)
def normal(text: str) -> str:
    """Text as compared with what people type: case-folded, one spelling of centre and of times, single spaces.
    Kept: matching a move compares every legal move's tokens, the same few words on every move."""
    text = text.casefold()
    for variant, canonical in _SPELLING:
        text = text.replace(variant, canonical)
    return " ".join(text.split())


def matches(typed: str, label: str, token: str = "") -> bool:
    """Whether what was typed names a choice: the start of its token, or every typed word within its label."""
    wanted = normal(typed)
    if not wanted or (token and normal(token).startswith(wanted)):
        return True
    words = normal(label)
    return all(part in words for part in wanted.split())


def closeness(typed: str, label: str) -> int:
    """How well what was typed names a label: 0 its start (``Factory 1``), 1 a phrase in it, 2 all its words in
    it, 3 not at all; reading a typed word picks among the closest."""
    wanted, words = normal(typed), normal(label)
    if words.startswith(wanted) and (len(words) == len(wanted) or not words[len(wanted)].isalnum()):
        return 0
    if wanted in words:
        return 1
    return 2 if matches(typed, label) else 3


def split_count(part: str) -> tuple[int, str]:
    """``2x blue`` / ``2× blue`` / ``blue x2`` / ``2 blue`` → (2, "blue"); ``2`` → (2, ""); no count counts once."""
    part = part.strip()
    if part.isdecimal():
        return int(part), ""  # a count typed before its item
    if found := _COUNT_FIRST.match(part):
        return int(found[1]), found[2].strip()
    if found := _COUNT_LAST.match(part):
        return int(found[2]), found[1].strip()
    return 1, part


Shape = dict[str, str]
"""A legal move's choices with its command (``{"command": "pass", "discard": "*"}``), sets left open."""


def shapes_of(state: GameState, seat: int) -> list[Shape]:
    return [dict(shape) for shape in engine.variant_of(state).move_shapes(state, seat)]


def _wanted(given: Mapping[str, str | None]) -> dict[str, str]:
    """The options given, as compared: empty ones left out."""
    return {name: normal(value) for name, value in given.items() if value and normal(value)}


def _agrees(choices: Mapping[str, str], wanted: Mapping[str, str], *, open_too: bool) -> bool:
    """Whether ``choices`` agree with every wanted option; ``open_too``: a set left open (or an option the choices
    do not have) agrees with anything."""
    return all(
        normal(choices[name]) == value if choices.get(name) not in (ANY_SET, None) else open_too
        for name, value in wanted.items()
    )


def matching_shapes(shapes: list[Shape], command: str, given: Mapping[str, str | None]) -> list[Shape]:
    """The shapes of ``command`` agreeing with every given option that is not an open set."""
    wanted = _wanted(given)
    return [shape for shape in shapes if shape["command"] == command and _agrees(shape, wanted, open_too=True)]


def matching(moves: Sequence[Move], command: str, given: Mapping[str, str | None]) -> list[Move]:
    """The legal moves of ``command`` that agree with every non-empty option in ``given`` (the same rule and the same
    normalising as :func:`matching_shapes`, on whole moves)."""
    wanted = _wanted(given)
    return [move for move in moves if move.command == command and _agrees(dict(move.choices()), wanted, open_too=False)]


def matching_whole(
    variant: Variant[Any], moves: Sequence[Move], command: str, given: Mapping[str, str | None]
) -> list[Move] | None:
    """:func:`matching` when every option of ``command`` is given and nothing else (the autocomplete's tokens, the
    picker's): only the move they make can agree with all of them, so it is made and looked for, instead of comparing
    every legal move's options (a quarter of a millisecond at the start of a two-player Azul round). None when that
    does not apply (an option missing or extra, or what was given makes no move): ask :func:`matching`."""
    declared = variant.command(command)
    wanted = _wanted(given)
    if declared is None or set(wanted) != set(declared.options):
        return None
    try:
        move = variant.move_from_choices(command, {name: str(given[name]).strip() for name in wanted})
    except engine.EngineError:
        return None
    if move in moves and _agrees(dict(move.choices()), wanted, open_too=False):
        return [move]
    return None


def first_open_option(candidates: list[Move]) -> Needed:
    """The first option (in choice order) on which several candidate moves still differ."""
    order = [option for option, _ in candidates[0].choices()]
    for option in order:
        tokens = list(dict.fromkeys(dict(move.choices()).get(option, "") for move in candidates))
        if len(tokens) > 1:
            return Needed(option, tokens)
    return Needed(order[-1] if order else "", [])


def tokens_of(shapes: list[Shape], command: str, option: str, given: Mapping[str, str | None]) -> list[str]:
    others = {name: value for name, value in given.items() if name != option}
    return list(dict.fromkeys(shape[option] for shape in matching_shapes(shapes, command, others) if option in shape))


@dataclass(frozen=True, slots=True)
class SetChoice:
    """What a set-valued option may hold now: the most of each item a legal set has, and the options it depends on."""

    pool: dict[str, int]
    before: dict[str, str]


class Position:
    """One seat's view of one game version, keeping what move entry works out about it: the legal move shapes, set
    pools and legal sets, and labels. The autocomplete asks again on every keystroke; kept per game and version
    (:func:`position`), only the first ask pays for them."""

    def __init__(self, state: GameState, seat: int, shapes: list[Shape] | None = None) -> None:
        self.state, self.seat = state, seat
        self.variant: Variant[Any] = engine.variant_of(state)
        self._shapes = shapes
        self._pools: dict[Hashable, dict[str, int]] = {}
        self._sets: dict[Hashable, frozenset[str]] = {}
        self._legal: dict[Hashable, bool] = {}
        self._labels: dict[Hashable, str] = {}

    @property
    def shapes(self) -> list[Shape]:
        if self._shapes is None:
            self._shapes = shapes_of(self.state, self.seat)
        return self._shapes

    def set_pool(self, command: str, option: str, before: Mapping[str, str]) -> dict[str, int]:
        key = (command, option, tuple(sorted(before.items())))
        if key not in self._pools:
            self._pools[key] = self.variant.set_pool(self.state, self.seat, command, option, before)
        return self._pools[key]

    def is_legal_set(self, command: str, option: str, chosen: Mapping[str, str]) -> bool:
        key = (command, option, tuple(sorted(chosen.items())))
        if key in self._legal:
            return self._legal[key]
        if type(self.variant).is_legal_set is Variant.is_legal_set:
            # The default rule is membership in the legal tokens: list them once for every set asked about.
            before = (command, option, tuple(sorted((k, v) for k, v in chosen.items() if k != option)))
            if before not in self._sets:
                tokens = self.variant.set_tokens(self.state, self.seat, command, option, chosen)
                self._sets[before] = frozenset(tokens)
            legal = chosen.get(option) in self._sets[before]
        else:
            legal = self.variant.is_legal_set(self.state, self.seat, command, option, chosen)
        self._legal[key] = legal
        return legal

    def label(self, option: str, token: str, chosen: Mapping[str, str], locale: str) -> str:
        key = (option, token, tuple(sorted(chosen.items())), locale)
        if key not in self._labels:
            adapter = adapter_of(self.state.variant)
            self._labels[key] = adapter.label(self.state, self.seat, option, token, chosen=chosen, locale=locale)
        return self._labels[key]


POSITIONS_KEPT = 64
"""Positions the autocomplete keeps (a few per game being played now); the oldest is dropped first."""
_positions: OrderedDict[Hashable, Position] = OrderedDict()
_positions_lock = threading.Lock()


def position(key: Hashable, state: GameState, seat: int) -> Position:
    """The kept :class:`Position` of ``seat`` in the game version ``key`` names (``(game id, version)``)."""
    with _positions_lock:
        found = _positions.get((key, seat))
        if found is not None:
            _positions.move_to_end((key, seat))
            return found
        found = _positions[(key, seat)] = Position(state, seat)
        while len(_positions) > POSITIONS_KEPT:
            _positions.popitem(last=False)
        return found


@dataclass
class Entry:
    """One option of one move command being entered by one player, in the reader's language."""

    state: GameState
    seat: int
    command: str
    option: str
    locale: str
    shapes: list[Shape] = field(default_factory=list)
    at: Position | None = None

    def __post_init__(self) -> None:
        if self.at is None:
            self.at = Position(self.state, self.seat, self.shapes or None)
        self.shapes = self.at.shapes

    @property
    def position(self) -> Position:
        assert self.at is not None  # set in __post_init__
        return self.at

    @property
    def variant(self) -> Variant[Any]:
        return engine.variant_of(self.state)

    @property
    def adapter(self) -> GameAdapter[Any]:
        return adapter_of(self.state.variant)

    @property
    def is_set(self) -> bool:
        return self.option in set_options(self.variant, self.command)

    def label(self, token: str, chosen: Mapping[str, str], locale: str | None = None) -> str:
        return self.position.label(self.option, token, chosen, locale or self.locale)

    def tokens(self, given: Mapping[str, str | None]) -> list[str]:
        """Distinct tokens of this (not set-valued) option among the moves agreeing with the other options given."""
        return tokens_of(self.shapes, self.command, self.option, given)

    # --- sets ---------------------------------------------------------------------------------------------------
    def set_choice(self, given: Mapping[str, str | None]) -> SetChoice:
        before = self.before(given)
        return SetChoice(self.position.set_pool(self.command, self.option, before), before)

    def before(self, given: Mapping[str, str | None]) -> dict[str, str]:
        """The options declared before this one that are given: what a set's legality depends on."""
        options = command_options(self.variant, self.command)
        earlier = options[: options.index(self.option)] if self.option in options else ()
        return {name: value for name in earlier if (value := given.get(name))}

    def is_legal(self, token: str, choice: SetChoice) -> bool:
        chosen = {**choice.before, self.option: token}
        return self.position.is_legal_set(self.command, self.option, chosen)

    def split(self, token: str) -> dict[str, int]:
        return self.variant.split_set(self.command, self.option, token)

    def join(self, counts: Mapping[str, int]) -> str:
        return self.variant.join_set(self.command, self.option, counts)

    def item_words(self, item: str, locales: Iterable[str]) -> str:
        """An item in words, in each of ``locales``: the label of the set holding just that item."""
        token = self.join({item: 1})
        return " ".join(self.label(token, {}, locale) for locale in locales)

    def items_named(self, name: str, items: Iterable[str]) -> list[str]:
        """The items whose words contain ``name``: in the reader's language, else in any language the bot speaks."""
        items = list(items)
        for locales in ((self.locale,), SUPPORTED):
            scores = {item: closeness(name, self.item_words(item, locales)) for item in items}
            best = min(scores.values(), default=3)
            if best < 3:
                return [item for item, score in scores.items() if score == best]
        return []

    def read_item(self, part: str, pool: Mapping[str, int]) -> tuple[str, int] | None:
        """One part of a typed set: the item it names (by its token, or uniquely by words) and its count."""
        count, name = split_count(part)
        if not name:
            return None
        if normal(name) in pool:
            return normal(name), count
        found = self.items_named(name, pool)
        return (found[0], count) if len(found) == 1 else None

    def read_set(self, text: str, pool: Mapping[str, int]) -> dict[str, int] | None:
        """A set typed in letters (``1p2r``, ``bl3+2ye2``) or words (``2 blue, red``, ``2× red + purple``)."""
        if normal(text) in _NOTHING:
            return {}
        try:
            return self.split(text.replace(" ", ""))
        except engine.EngineError:
            pass
        counts: dict[str, int] = {}
        for part in _SEPARATORS.split(text.strip()):
            found = self.read_item(part, pool)
            if found is None:
                return None
            counts[found[0]] = counts.get(found[0], 0) + found[1]
        return counts

    def complete_set(self, typed: str, choice: SetChoice) -> list[str]:
        """Set tokens completing what is being typed: the parts before the last separator kept, the last part
        completed item by item (within the most of each item a legal set holds). Legal sets come first, then
        the ones still to be added to (a payment of three hexagons typed one by one)."""
        parts = _SEPARATORS.split(typed.strip()) if typed.strip() else []
        done: dict[str, int] = {}
        for part in parts[:-1]:
            found = self.read_item(part, choice.pool)
            if found is None:
                return []
            done[found[0]] = done.get(found[0], 0) + found[1]
        shown: list[str] = []
        whole = self.read_set(typed, choice.pool)
        if whole is not None and self.is_legal(token := self.join(whole), choice):
            shown.append(token)
        count, name = split_count(parts[-1]) if parts else (1, "")
        items = [item for item, most in choice.pool.items() if done.get(item, 0) + count <= most]
        if name:
            items = [item for item in items if item.startswith(normal(name))] or self.items_named(name, items)
        for item in items[:CHOICE_LIMIT]:
            token = self.join({**done, item: done.get(item, 0) + count})
            if token not in shown:
                shown.append(token)
        legal = {token: self.is_legal(token, choice) for token in shown}
        return sorted(shown, key=lambda token: not legal[token])[:CHOICE_LIMIT]

    # --- any option ---------------------------------------------------------------------------------------------
    def shown(self, given: Mapping[str, str | None], typed: str) -> list[tuple[str, str]]:
        """At most 25 ``(token, label)`` pairs for the autocomplete, given the other options already filled in."""
        chosen = {name: value for name, value in given.items() if name != self.option and value}
        if self.is_set:
            tokens = self.complete_set(typed, self.set_choice(given))
            return [(token, self.label(token, chosen)) for token in tokens]
        tokens = self.tokens(given)
        cheap = [token for token in tokens if normal(token).startswith(normal(typed))][:CHOICE_LIMIT]
        shown = [(token, self.label(token, chosen)) for token in cheap]
        if not typed:
            return shown
        deadline = time.perf_counter() + LABEL_BUDGET  # words matched in labels, within a time budget
        for token in tokens:
            if len(shown) >= CHOICE_LIMIT or time.perf_counter() > deadline:
                break
            if token not in cheap and matches(typed, label := self.label(token, chosen)):
                shown.append((token, label))
        return shown

    def read(self, typed: str, others: Mapping[str, str]) -> str:
        """A typed value as the token it names; as typed when it names none (or several), for the engine to refuse."""
        if self.is_set:
            counts = self.read_set(typed, self.set_choice(others).pool)
            return typed if counts is None else self.join(counts)
        tokens = self.tokens(others)
        if any(normal(token) == normal(typed) for token in tokens):
            return typed
        for locales in ((self.locale,), SUPPORTED):
            scores = {
                token: min(closeness(typed, self.label(token, others, each)) for each in locales) for token in tokens
            }
            best = min(scores.values(), default=3)
            named = [token for token, score in scores.items() if score == best]
            if best < 3:
                return named[0] if len(named) == 1 else typed
        return typed


def read_given(
    state: GameState,
    seat: int,
    command: str,
    given: Mapping[str, str | None],
    locale: str,
    *,
    at: Position | None = None,
) -> dict[str, str]:
    """What was typed into a move command's options, as tokens: sets read in words or letters and written in the
    variant's notation, words (``Factory 1``, ``turquoise``, ``center``) read as the one legal token they name."""
    variant = engine.variant_of(state)
    read = {name: value.strip() for name, value in given.items() if value and value.strip()}
    if variant.command(command) is None:
        return read
    at = at or Position(state, seat)
    options = command_options(variant, command)
    for index, option in enumerate(options):
        if option in read:
            before = {name: read[name] for name in options[:index] if name in read}
            read[option] = Entry(state, seat, command, option, locale, at=at).read(read[option], before)
    return read


def may_complete(state: GameState, seat: int | None, command: str, option: str) -> bool:
    """Whether ``seat`` is offered choices for ``option`` of ``command`` now: it must act, and the game's command has
    that option (the slash commands hold every game's options)."""
    if seat is None or seat not in engine.to_act(state):
        return False
    declared = engine.variant_of(state).command(command)
    return declared is not None and option in declared.options


def autocomplete(
    key: Hashable,
    state: GameState,
    seat: int,
    *,
    command: str,
    option: str,
    given: Mapping[str, str | None],
    typed: str,
    locale: str,
) -> list[tuple[str, str]]:
    """The autocomplete's work (run off the event loop): the options filled before read as tokens, then at most 25
    ``(token, label)`` choices for ``option``; ``key`` names the game version, whose position is kept."""
    at = position(key, state, seat)
    others = {name: value for name, value in given.items() if name != option}
    read = read_given(state, seat, command, others, locale, at=at)
    return Entry(state, seat, command, option, locale, at=at).shown(read, typed)


__all__ = [
    "Entry",
    "Position",
    "SetChoice",
    "Shape",
    "autocomplete",
    "first_open_option",
    "matches",
    "matching",
    "matching_shapes",
    "may_complete",
    "normal",
    "position",
    "read_given",
    "shapes_of",
    "split_count",
    "tokens_of",
]


# --- the picker's plan ----------------------------------------------------------------------------------------------
TAIL_LIMIT = 25
"""A step may ask for the rest of a move at once (area and rotation together) when that fits one select."""


@dataclass(frozen=True, slots=True)
class Step:
    """What the picker asks next: ``options`` (one, or the rest of the move at once) with their ``tokens`` (each a
    ``|``-joined tuple for several options); or a set chosen item by item from ``pool``; or nothing (``done``)."""

    command: str
    chosen: dict[str, str]
    options: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    pool: dict[str, int] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return not self.options

    @property
    def is_set(self) -> bool:
        return bool(self.options) and not self.tokens


def plan(state: GameState, seat: int, command: str, chosen: Mapping[str, str], shapes: list[Shape]) -> Step | None:
    """The next step of the picker after ``chosen``, filling in what has only one possible value; None when
    ``chosen`` matches no legal move (the position changed)."""
    variant = engine.variant_of(state)
    chosen = dict(chosen)
    candidates = matching_shapes(shapes, command, chosen)
    if not candidates:
        return None
    options = [option for option in command_options(variant, command) if option in candidates[0]]
    sets = set_options(variant, command)
    for index, option in enumerate(options):
        if option in chosen:
            continue
        if option in sets:
            pool = variant.set_pool(state, seat, command, option, chosen)
            if pool:
                return Step(command, chosen, (option,), pool=pool)
            chosen[option] = variant.join_set(command, option, {})
            continue
        candidates = matching_shapes(shapes, command, chosen)
        tokens = list(dict.fromkeys(shape[option] for shape in candidates))
        if len(tokens) == 1:
            chosen[option] = tokens[0]
            continue
        rest = [name for name in options[index:] if name not in chosen]
        if not set(sets).intersection(rest):
            tails = list(dict.fromkeys("|".join(shape[name] for name in rest) for shape in candidates))
            if len(tails) <= TAIL_LIMIT:
                return Step(command, chosen, tuple(rest), tuple(tails))
        return Step(command, chosen, (option,), tuple(tokens))
    return Step(command, chosen)


# --- runs: one command played several times in a row ----------------------------------------------------------------
RUN_LIMIT = 4096
"""Ways of a run listed at most; a grey wall with five full lines on an empty wall has at most 5⁵ = 3,125."""


def run_ways(state: GameState, seat: int, command: str) -> list[tuple[Move, ...]]:
    """Every way ``seat`` may play ``command`` again and again until it no longer may, each as its moves in order
    (the grey wall: a column for each full line, top down, each placement limiting the lines below it)."""
    variant = engine.variant_of(state)
    ways: list[tuple[Move, ...]] = []

    def walk(position: GameState, made: tuple[Move, ...]) -> None:
        if len(ways) >= RUN_LIMIT:
            return
        moves = variant.legal_moves(position, seat) if seat in variant.to_act(position) else []
        moves = [move for move in moves if move.command == command]
        if not moves:
            if made:
                ways.append(made)
            return
        for move in moves:
            walk(variant.apply_unchecked(position, seat, move), (*made, move))

    walk(state, ())
    return ways


def key_of(move: Move) -> str:
    """What a move of a run is a choice for: its first option (the grey wall's line)."""
    return move.choices()[0][1]


@dataclass(frozen=True, slots=True)
class Run:
    """A run being chosen: every way to play it and the moves picked so far (at most one per key)."""

    command: str
    ways: list[tuple[Move, ...]]
    picked: tuple[Move, ...] = ()

    def left(self) -> list[tuple[Move, ...]]:
        """The ways holding every picked move."""
        return [way for way in self.ways if all(move in way for move in self.picked)]

    def offered(self) -> dict[str, list[Move]]:
        """Per key still open to choice (in the order the ways meet them), the moves it may take given the moves
        picked for the other keys; a key with one possible move is left out (it follows from the others)."""
        keys = list(dict.fromkeys(key_of(move) for way in self.ways for move in way))
        offered: dict[str, list[Move]] = {}
        for key in keys:
            others = [move for move in self.picked if key_of(move) != key]
            moves = [move for way in self.ways if all(m in way for m in others) for move in way if key_of(move) == key]
            moves = list(dict.fromkeys(moves))
            if len(moves) > 1:
                offered[key] = moves
        return offered

    def pick(self, move: Move) -> Run:
        """Pick ``move`` for its key, keeping the earlier picks for other keys that still fit with it."""
        kept: tuple[Move, ...] = (move,)
        for earlier in self.picked:
            if key_of(earlier) != key_of(move) and any(all(m in way for m in (*kept, earlier)) for way in self.ways):
                kept = (*kept, earlier)
        return replace(self, picked=kept)

    def chosen(self) -> tuple[Move, ...] | None:
        """The whole run once the picks leave one way."""
        left = self.left()
        return left[0] if len(left) == 1 else None
