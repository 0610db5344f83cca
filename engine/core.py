"""The game-independent part of the engine: errors, events, moves, randomness and the variant contract.

Every game of the family implements :class:`Variant`; the bot, the renderer and the tools only ever talk to that
contract (through the functions in ``engine/__init__.py``), so a new game is one new module and a registry entry.
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None only."""


# --- errors -----------------------------------------------------------------------------------------------------
class EngineError(ValueError):
    """Base of every refusal. ``key`` names a message in the locale catalogue; ``params`` fill it in.

    The English text is only for logs and tracebacks: people are told why in their own language by the bot,
    which translates ``error.<key>`` with ``params``.
    """

    def __init__(self, key: str, **params: JSON) -> None:
        self.key = key
        self.params = params
        detail = ", ".join(f"{name}={value!r}" for name, value in params.items())
        super().__init__(f"{key}({detail})" if detail else key)


class BadNotation(EngineError):
    """A move's text (or its choices) cannot be read at all."""


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid now."""


class NotYourTurn(IllegalMove):
    """The seat is not among :func:`to_act`."""


class GameOver(IllegalMove):
    """Nothing may be played in a finished game."""


class BadState(EngineError):
    """A serialised state is malformed or impossible."""


class BadOptions(EngineError):
    """A new game was asked for with an unknown variant, a wrong player count or unknown options."""


# --- events -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while a move was applied: what the bot describes and the renderer highlights.

    ``kind`` is a short stable name (``"take"``, ``"wall"``, ``"floor"``, ``"round_scored"``, ...); ``data`` holds
    JSON values only, so events can be logged and stored as they are.
    """

    kind: str
    seat: int | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Event:
        return cls(kind=str(raw["kind"]), seat=raw.get("seat"), data=dict(raw.get("data", {})))


# --- moves ------------------------------------------------------------------------------------------------------
class Move(Protocol):
    """A small immutable value with one compact text form.

    ``str(move)`` is the notation the store logs and buttons carry; the variant's ``parse_move`` reads it back.
    ``command`` names the family of moves (and the slash command that makes it: ``take``, ``wall``, ``place``...);
    ``choices()`` lists the move as ordered ``(option, token)`` pairs, the same steps a player goes through in the
    bot's picker and in the slash command's options. ``Variant.move_from_choices`` is its inverse.
    """

    @property
    def command(self) -> str: ...

    def choices(self) -> tuple[tuple[str, str], ...]: ...


# --- deterministic randomness -----------------------------------------------------------------------------------
_MASK64 = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    """SplitMix64: a tiny, fast generator whose whole state is one integer stored in the game state.

    The engine never touches the module-level ``random`` functions: a game is its seed plus its moves.
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (the 64-bit draw makes the modulo bias negligible)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.next64() % n

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def draw_from_counts(self, counts: list[int]) -> int:
        """Remove one item at random from a multiset given as counts per kind and return its kind."""
        total = sum(counts)
        if total == 0:
            raise ValueError("draw from an empty multiset")
        pick = self.below(total)
        for kind, count in enumerate(counts):
            if pick < count:
                counts[kind] -= 1
                return kind
            pick -= count
        raise AssertionError("unreachable: pick exceeded the total")


def seed_state(seed: int) -> int:
    """The generator state a new game starts from (seeds may be any integer, negative or huge)."""
    return Rng(seed ^ 0x5DEECE66D).next64()


# --- the declaration of a game ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveCommand:
    """One family of moves (``take``, ``place``...): the slash command that makes it and its options in order.

    ``Move.command`` names it and ``Move.choices()`` lists its options in this order (optional ones may be absent).
    """

    name: str
    options: tuple[str, ...]
    sets: tuple[str, ...] = ()
    """The options whose token is a multiset of items (tiles to keep, hexagons to pay with): the bot offers them
    item by item (a multi-select, a set typed item by item) instead of listing every combination. The variant reads
    and writes such tokens with :meth:`Variant.split_set` and :meth:`Variant.join_set`."""
    repeats: bool = False
    """A seat plays this command several times in a row, each choice limiting the next (the grey wall's columns,
    line by line): the bot lets a player choose the whole run at once and applies it together."""
    previews: tuple[str, ...] = ()
    """The options that words cannot show (where an expansion goes and how it is turned): the bot's step that
    chooses one comes with a picture of the candidates, drawn by the game's renderer (``draw_preview``)."""


ANY_SET = "*"
"""A set-valued option left open in :meth:`Variant.move_shapes`."""


class GameState(Protocol):
    """What every game's state offers to the code outside the engine: the name of its variant.

    The bot and the renderer pass states around as this type; only the game's own module looks inside.
    """

    @property
    def variant(self) -> str: ...


# --- the contract every game implements -------------------------------------------------------------------------
S = TypeVar("S")


class Variant(ABC, Generic[S]):
    """One playable variant (``azul``, ``azul-grey``, ...). Instances are stateless and registered by name.

    States are plain dataclasses owned by the game module; they carry their variant's ``name`` so the generic
    functions can dispatch on them. ``apply`` never mutates its input.
    """

    name: str
    game: str
    title: str = ""
    """The game's name in English, for tools and logs (people read the bot's translated ``bot.variant.<name>``)."""
    min_players: int = 2
    max_players: int = 4
    commands: tuple[MoveCommand, ...] = ()
    """Every move command this variant's moves use, each with its options in order: the bot's slash commands,
    their autocomplete and the picker's steps are built from this."""

    def command(self, name: str) -> MoveCommand | None:
        """The declared move command named ``name``, or ``None`` when this variant has none by that name."""
        return next((declared for declared in self.commands if declared.name == name), None)

    def is_run(self, command: str) -> bool:
        """Whether ``command`` is played as a run (``MoveCommand.repeats``: the grey wall's columns, line by line)."""
        declared = self.command(command)
        return declared is not None and declared.repeats

    @abstractmethod
    def new_game(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> S: ...

    @abstractmethod
    def parse_move(self, text: str) -> Move: ...

    @abstractmethod
    def move_from_choices(self, command: str, choices: Mapping[str, str]) -> Move: ...

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]: ...

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[Move]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, move: Move) -> tuple[S, list[Event]]: ...

    def split_set(self, command: str, option: str, token: str) -> dict[str, int]:
        """A set-valued option's token as counts per item token (``"1p2r"`` → ``{"p": 1, "r": 2}``); empty for the
        empty set. Raises :class:`BadNotation` for a token that is not a set. Only for options in ``sets``."""
        raise BadNotation("unknown_option", option=option)

    def join_set(self, command: str, option: str, counts: Mapping[str, int]) -> str:
        """The canonical token of a set given as counts per item token: the inverse of :meth:`split_set`."""
        raise BadNotation("unknown_option", option=option)

    def move_shapes(self, state: S, seat: int) -> list[tuple[tuple[str, str], ...]]:
        """The legal moves' ``choices()`` with every set-valued option written :data:`ANY_SET`, each shape once.

        What a move entry walks option by option; a set is then chosen item by item (:meth:`set_pool`,
        :meth:`is_legal_set`) instead of from every combination. This default derives it from
        :meth:`legal_moves`; a game whose sets have many combinations overrides the three methods."""
        shapes: dict[tuple[tuple[str, str], ...], None] = {}
        for move in self.legal_moves(state, seat):
            sets = set_options(self, move.command)
            choices = tuple((option, ANY_SET if option in sets else token) for option, token in move.choices())
            shapes.setdefault((("command", move.command), *choices), None)
        return list(shapes)

    def set_tokens(self, state: S, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> list[str]:
        """The legal tokens of a set-valued option given the options chosen before it (default: from the legal
        moves). Only for tools and small sets: the bot asks :meth:`set_pool` and :meth:`is_legal_set`."""
        tokens: dict[str, None] = {}
        for move in self.legal_moves(state, seat):
            if move.command != command:
                continue
            choices = dict(move.choices())
            if all(choices.get(name) == value for name, value in chosen.items() if name != option):
                tokens.setdefault(choices.get(option, ""), None)
        return list(tokens)

    def set_pool(self, state: S, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> dict[str, int]:
        """The most of each item a legal set of ``option`` may hold, in the variant's order of items."""
        pool: dict[str, int] = {}
        for token in self.set_tokens(state, seat, command, option, chosen):
            for item, count in self.split_set(command, option, token).items():
                pool[item] = max(pool.get(item, 0), count)
        return self.split_set(command, option, self.join_set(command, option, pool))

    def is_legal_set(self, state: S, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> bool:
        """Whether ``chosen[option]`` (a canonical set token) is legal given the options chosen before it."""
        return chosen.get(option) in self.set_tokens(state, seat, command, option, chosen)

    def largest_set(self, state: S, seat: int, command: str, option: str, chosen: Mapping[str, str]) -> int:
        """The most items a legal set of ``option`` holds (a menu of items is capped there: Summer Pavilion keeps at
        most 4 of a larger hand)."""
        tokens = self.set_tokens(state, seat, command, option, chosen)
        return max((sum(self.split_set(command, option, token).values()) for token in tokens), default=0)

    def opening_events(self, state: S) -> list[Event]:
        """Events describing a new game's starting position (e.g. the first deal), as ``apply`` describes later
        ones: transcripts and the first board post start from them."""
        return []

    def apply_unchecked(self, state: S, seat: int, move: Move) -> S:
        """The fast path for search and benchmarks: ``move`` must come from ``legal_moves``."""
        return self.apply(state, seat, move)[0]

    def redeterminize(self, state: S, rng: Rng) -> S:
        """One possible world: ``state`` with what no player can know (the bag's draw order, face-down stacks)
        drawn afresh from ``rng``, so a search does not peek at future deals.

        The default re-seeds the state's ``rng`` field, which covers every game whose hidden part is only the order
        in which a bag of counts is drawn; a game with face-down stacks also shuffles them. Never mutates ``state``.
        """
        if dataclasses.is_dataclass(state) and isinstance(getattr(state, "rng", None), int):
            return dataclasses.replace(state, rng=rng.next64())  # type: ignore[type-var]
        return state

    def reveals(self, before: S, after: S) -> bool:
        """Whether going from ``before`` to ``after`` (one move with the automatic steps it set off) showed the
        players something that was hidden: tiles drawn from a bag (the state's generator moved), a new round (a new
        deal), or, in games with face-down components, one turned face up (those games extend this).

        A move that reveals nothing can be taken back without anyone learning what they should not have: the bot's
        undo asks this. The default covers every game whose hidden part is the order of a bag drawn through the
        state's ``rng`` field (see :meth:`redeterminize`)."""
        drew = getattr(before, "rng", None) != getattr(after, "rng", None)
        return drew or self.round_number(before) != self.round_number(after)

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def scores(self, state: S) -> list[int]: ...

    @abstractmethod
    def standings(self, state: S) -> list[list[int]]:
        """Seats grouped by rank, best first; a group of several seats is a shared place (rulebook tie-break)."""

    @abstractmethod
    def round_number(self, state: S) -> int: ...

    @abstractmethod
    def heuristic(self, state: S, seat: int) -> float:
        """How good ``state`` looks for ``seat`` right now (points, minus what is sure to be lost): the greedy
        agent's yardstick."""

    def playout_moves(self, state: S, seat: int) -> list[Move]:
        """The moves a search weighs for ``seat`` below its root and in its playouts: every legal move unless the
        game narrows them. A game whose legal moves are mostly variants of one choice that a playout never prefers
        (Queen's Garden's pass with every set of discards: thousands against a few dozen placements) leaves those
        out, so that sampling a few moves still finds the real choices. Never empty while ``seat`` may move."""
        return self.legal_moves(state, seat)

    def evaluation(self, state: S, seat: int) -> float:
        """The search's estimate of where ``seat`` will finish from here, in points: the heuristic plus what the
        position promises beyond the next scoring (end-of-game bonuses in reach). A game whose heuristic already
        counts them keeps this default. Equal to the score once the game is over."""
        return float(self.scores(state)[seat]) if self.is_over(state) else self.heuristic(state, seat)

    @abstractmethod
    def to_json(self, state: S) -> dict[str, JSON]: ...

    def public_json(self, state: S) -> dict[str, JSON]:
        """``to_json`` without what the players cannot see, for anyone to read while the game runs: no seed and no
        generator state (together with the log they fix every later draw). Games with face-down components extend
        this. Not a state :meth:`from_json` accepts."""
        document = self.to_json(state)
        for hidden in ("seed", "rng"):
            document.pop(hidden, None)
        return document

    @abstractmethod
    def from_json(self, raw: Mapping[str, JSON]) -> S:
        """Rebuild a state, rejecting malformed or impossible ones with :class:`BadState`."""


def command_options(variant: Variant[Any], command: str) -> tuple[str, ...]:
    """The options of ``command`` in ``variant``'s declaration, in order."""
    declared = variant.command(command)
    if declared is None:
        raise BadNotation("unknown_command", command=command)
    return declared.options


def set_options(variant: Variant[Any], command: str) -> tuple[str, ...]:
    """The set-valued options of ``command`` in ``variant`` (none for an unknown command)."""
    declared = variant.command(command)
    return declared.sets if declared else ()


def check_players(variant: Variant[Any], players: int) -> None:
    if not isinstance(players, int) or not variant.min_players <= players <= variant.max_players:
        raise BadOptions("players_out_of_range", players=players, min=variant.min_players, max=variant.max_players)


def check_no_options(options: Mapping[str, JSON] | None) -> None:
    if options:
        raise BadOptions("unknown_option", option=sorted(options)[0])


def ranked(values: Sequence[tuple[Any, ...]]) -> list[list[int]]:
    """Group seat indices by descending key; equal keys share a place."""
    order = sorted(range(len(values)), key=lambda seat: values[seat], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and values[groups[-1][0]] == values[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


# --- what each game provides to the layers above ----------------------------------------------------------------
class ForGame(Protocol):
    @property
    def game(self) -> str: ...


G = TypeVar("G", bound=ForGame)


class PerGame(Generic[G]):
    """What each game provides to a layer above the engine (its renderer, its bot adapter), by ``Variant.game``:
    registered (a game declared elsewhere, or a test's own game), else found by convention as ``attribute`` of the
    module ``package.<game>`` (dashes written as underscores) and kept."""

    def __init__(self, package: str, attribute: str, kind: type[G], missing: str) -> None:
        self._package, self._attribute, self._kind = package, attribute, kind
        self._missing = missing  # the LookupError's words: ``{game}`` and ``{module}`` are filled in
        self._found: dict[str, G] = {}

    def register(self, item: G) -> None:
        self._found[item.game] = item

    def unregister(self, game: str) -> None:
        self._found.pop(game, None)

    def of(self, game: str) -> G:
        """``game``'s item; ``LookupError`` when it has none, or its module's is not a ``kind`` for ``game``."""
        if game not in self._found:
            module_name = f"{self._package}.{game.replace('-', '_')}"
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as error:
                if error.name != module_name:
                    raise
                raise LookupError(self._missing.format(game=repr(game), module=module_name)) from None
            item = getattr(module, self._attribute, None)
            if not isinstance(item, self._kind) or item.game != game:
                kind = self._kind.__name__
                raise LookupError(f"{module_name}.{self._attribute} must be a {kind} with game = {game!r}")
            self._found[game] = item
        return self._found[game]
