"""Rules of the Azul family behind one API.

    state = engine.new_game("azul", players=2, seed=7)
    seat = min(engine.to_act(state))
    move = engine.legal_moves(state, seat)[0]
    state, events = engine.apply(state, seat, move)

Every function dispatches on the variant named in the state; see :class:`engine.core.Variant` for the contract.
"""

from __future__ import annotations

import importlib
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
    IllegalMove,
    Move,
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
    "IllegalMove",
    "Move",
    "NotYourTurn",
    "Variant",
    "apply",
    "from_json",
    "get_variant",
    "is_over",
    "legal_moves",
    "new_game",
    "opening_events",
    "parse_move",
    "replay",
    "scores",
    "standings",
    "to_act",
    "to_json",
    "variant_names",
    "variant_of",
]

# One module per game; each exposes VARIANTS, a tuple of Variant instances. Imported on first use.
GAME_MODULES = ("engine.azul", "engine.summer_pavilion", "engine.queens_garden")

_registry: dict[str, Variant[Any]] = {}


def _variants() -> dict[str, Variant[Any]]:
    if not _registry:
        for module_name in GAME_MODULES:
            for variant in importlib.import_module(module_name).VARIANTS:
                _registry[variant.name] = variant
    return _registry


def variant_names() -> list[str]:
    return list(_variants())


def get_variant(name: str) -> Variant[Any]:
    try:
        return _variants()[name]
    except KeyError:
        raise BadOptions("unknown_variant", variant=name) from None


def variant_of(state: Any) -> Variant[Any]:
    return get_variant(state.variant)


def new_game(variant: str, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> Any:
    return get_variant(variant).new_game(players, seed, options)


def opening_events(state: Any) -> list[Event]:
    return variant_of(state).opening_events(state)


def parse_move(variant: str, text: str) -> Move:
    return get_variant(variant).parse_move(text)


def to_act(state: Any) -> frozenset[int]:
    return variant_of(state).to_act(state)


def legal_moves(state: Any, seat: int) -> list[Move]:
    return variant_of(state).legal_moves(state, seat)


def apply(state: Any, seat: int, move: Move | str) -> tuple[Any, list[Event]]:
    variant = variant_of(state)
    if isinstance(move, str):
        move = variant.parse_move(move)
    return variant.apply(state, seat, move)


def is_over(state: Any) -> bool:
    return variant_of(state).is_over(state)


def scores(state: Any) -> list[int]:
    return variant_of(state).scores(state)


def standings(state: Any) -> list[list[int]]:
    return variant_of(state).standings(state)


def to_json(state: Any) -> dict[str, JSON]:
    return variant_of(state).to_json(state)


def from_json(raw: Mapping[str, JSON]) -> Any:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("variant"), str):
        raise BadState("not_a_state")
    try:
        variant = get_variant(raw["variant"])
    except BadOptions:
        raise BadState("unknown_variant", variant=raw["variant"]) from None
    return variant.from_json(raw)


def replay(
    variant: str, players: int, seed: int, moves: list[tuple[int, str]], options: Mapping[str, JSON] | None = None
) -> Any:
    """The state reached by playing ``(seat, notation)`` pairs from a new game: how the store checks itself."""
    state = new_game(variant, players, seed, options)
    for seat, notation in moves:
        state, _ = apply(state, seat, notation)
    return state
