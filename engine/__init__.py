"""Rules of the Azul family behind one API.

    state = engine.new_game("azul", players=2, seed=7)
    seat = min(engine.to_act(state))
    move = engine.legal_moves(state, seat)[0]
    state, events = engine.apply(state, seat, move)

Every function dispatches on the variant named in the state; see :class:`engine.core.Variant` for the contract.

The registry is found, not listed: every module of this package that defines ``VARIANTS`` (a tuple of
:class:`Variant` instances) is a game; :func:`register` adds one declared elsewhere. Adding a game is adding its
module; the bot's commands and adapters and the renderer registry are derived from the variants' declarations.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from engine.core import (
    JSON,
    BadNotation,
    BadOptions,
    BadState,
    EngineError,
    Event,
    GameOver,
    GameState,
    IllegalMove,
    Move,
    MoveCommand,
    NotYourTurn,
    Variant,
)

__all__ = [
    "JSON",
    "BadNotation",
    "BadOptions",
    "BadState",
    "EngineError",
    "Event",
    "GameOver",
    "GameState",
    "IllegalMove",
    "Move",
    "MoveCommand",
    "NotYourTurn",
    "Variant",
    "apply",
    "from_json",
    "game_names",
    "get_variant",
    "is_over",
    "legal_moves",
    "new_game",
    "opening_events",
    "parse_move",
    "public_json",
    "register",
    "replay",
    "reveals",
    "scores",
    "standings",
    "to_act",
    "to_json",
    "unregister",
    "variant_names",
    "variant_of",
]

_registry: dict[str, Variant[Any]] = {}
_NOT_GAMES = frozenset({"__main__", "agents"})
"""Modules that are no game: the command-line front end, and the computer players, which load only when one plays
(or a hint is asked), not with the first look at the registry."""


def _game_modules() -> list[str]:
    """This package's modules that may declare games, in name order."""
    found = pkgutil.iter_modules(__path__, f"{__name__}.")
    return sorted(info.name for info in found if not info.ispkg and info.name.rpartition(".")[2] not in _NOT_GAMES)


def _variants() -> dict[str, Variant[Any]]:
    if not _registry:
        for module_name in _game_modules():
            for variant in getattr(importlib.import_module(module_name), "VARIANTS", ()):
                if variant.name in _registry:
                    raise RuntimeError(f"variant {variant.name!r} is declared twice")
                _registry[variant.name] = variant
    return _registry


def register(*variants: Variant[Any]) -> None:
    """Add variants declared outside this package (a game shipped as a plug-in, or a test's own game): from now on
    they behave as the built-in ones. A name already registered is refused."""
    known = _variants()
    for variant in variants:
        if variant.name in known:
            raise RuntimeError(f"variant {variant.name!r} is declared twice")
        known[variant.name] = variant


def unregister(*names: str) -> None:
    """Remove variants added by :func:`register` (a test's game, once the test is over)."""
    for name in names:
        _variants().pop(name, None)


def variant_names() -> list[str]:
    return list(_variants())


def game_names() -> list[str]:
    """Every game (``Variant.game``) with at least one variant, in registry order."""
    return list(dict.fromkeys(variant.game for variant in _variants().values()))


def get_variant(name: str) -> Variant[Any]:
    try:
        return _variants()[name]
    except KeyError:
        raise BadOptions("unknown_variant", variant=name) from None


def variant_of(state: GameState) -> Variant[Any]:
    return get_variant(state.variant)


def new_game(variant: str, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> GameState:
    state: GameState = get_variant(variant).new_game(players, seed, options)
    return state


def opening_events(state: GameState) -> list[Event]:
    return variant_of(state).opening_events(state)


def parse_move(variant: str, text: str) -> Move:
    return get_variant(variant).parse_move(text)


def to_act(state: GameState) -> frozenset[int]:
    return variant_of(state).to_act(state)


def legal_moves(state: GameState, seat: int) -> list[Move]:
    return variant_of(state).legal_moves(state, seat)


def apply(state: GameState, seat: int, move: Move | str) -> tuple[GameState, list[Event]]:
    variant = variant_of(state)
    if isinstance(move, str):
        move = variant.parse_move(move)
    return variant.apply(state, seat, move)


def reveals(before: GameState, after: GameState) -> bool:
    """Whether the step from ``before`` to ``after`` showed something hidden (see :meth:`Variant.reveals`)."""
    return variant_of(before).reveals(before, after)


def is_over(state: GameState) -> bool:
    return variant_of(state).is_over(state)


def scores(state: GameState) -> list[int]:
    return variant_of(state).scores(state)


def standings(state: GameState) -> list[list[int]]:
    return variant_of(state).standings(state)


def to_json(state: GameState) -> dict[str, JSON]:
    return variant_of(state).to_json(state)


def public_json(state: GameState) -> dict[str, JSON]:
    """What everyone at the table may know of ``state`` (see :meth:`Variant.public_json`)."""
    return variant_of(state).public_json(state)


def from_json(raw: Mapping[str, JSON]) -> GameState:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("variant"), str):
        raise BadState("not_a_state")
    try:
        variant = get_variant(raw["variant"])
    except BadOptions:
        raise BadState("unknown_variant", variant=raw["variant"]) from None
    state: GameState = variant.from_json(raw)
    return state


def replay(
    variant: str, players: int, seed: int, moves: list[tuple[int, str]], options: Mapping[str, JSON] | None = None
) -> GameState:
    """The state reached by playing ``(seat, notation)`` pairs from a new game: how the store checks itself."""
    state = new_game(variant, players, seed, options)
    for seat, notation in moves:
        state, _ = apply(state, seat, notation)
    return state
