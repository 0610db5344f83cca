"""The component tables of Azul: Queen's Garden, validated.

The numbers live in ``data/queens_garden.json`` (each with a status: ``confirmed`` from the rulebook text or
``default`` where only the components show them), so correcting a number is a data change only. The engine may not
import ``data/``: :func:`load_components` reads the file with the standard library from a path (by default the
repository's ``data`` folder beside this package), and :meth:`Components.from_dict` validates an already parsed dict
so tests can build tables without touching the disk. Every impossible value is refused with a :class:`ComponentError`
naming the entry and saying what was expected.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "queens_garden.json"
STATUSES = ("confirmed", "default")
ORNAMENTS = ("fountain", "statue", "bench", "pavilion")
SIDES = ("standard", "variant")
PLAYER_COUNTS = (2, 3, 4)


class ComponentError(ValueError):
    """The component file holds an impossible value; the message names the entry."""


@dataclass(frozen=True, slots=True)
class Criterion:
    """One scoring criterion of the wheel: a colour index or a pattern value, and its points.

    ``points`` is ``None`` when a matching hexagon scores its own pattern value.
    """

    color: int | None
    pattern: int | None
    points: int | None

    def matches(self, color: int, pattern: int) -> bool:
        return color == self.color or pattern == self.pattern

    def score(self, pattern: int) -> int:
        return pattern if self.points is None else self.points


@dataclass(frozen=True, slots=True)
class Side:
    wheel: tuple[tuple[Criterion, ...], ...]
    group_min_size: int
    group_bonuses: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Components:
    colors: tuple[str, ...]
    color_codes: tuple[str, ...]
    pattern_names: tuple[str, ...]
    tiles_per_hexagon: int
    expansions: tuple[int, ...]
    """The printed hexagon (``color * 6 + pattern - 1``) of each expansion id."""
    rounds: int
    round_stack_sizes: Mapping[int, int]
    tiles_on_stack_top: int
    storage_tiles: int
    storage_expansions: int
    starting_score: int
    starting_jokers: int
    first_pass_penalty: int
    supply_expansion_cost: int
    pavilion_points: int
    joker_final_value: int
    joker_rewards: Mapping[str, int]
    evaluation_order: tuple[tuple[str, int], ...]
    """``("color", index)`` or ``("pattern", value)`` in the order of the evaluation track."""
    sides: Mapping[str, Side]
    defaults: tuple[tuple[str, str], ...]
    """``(entry, note)`` for every value whose status is ``default``: what the rules text lists as unverified."""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Components:
        return _Reader(raw).components()


def load_components(path: Path | str = DEFAULT_PATH) -> Components:
    try:
        with Path(path).open(encoding="utf-8") as handle:
            raw = json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise ComponentError(f"{path}: cannot read the component tables: {error}") from error
    try:
        return Components.from_dict(raw)
    except ComponentError as error:
        raise ComponentError(f"{path}: {error}") from None


class _Reader:
    """Walks the parsed file, collecting ``default`` entries and refusing anything impossible."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        if not isinstance(raw, Mapping):
            raise ComponentError("the component file must hold a JSON object")
        self.raw = raw
        self.defaults: list[tuple[str, str]] = []

    def leaf(self, where: str, node: Any) -> Any:
        if not isinstance(node, Mapping) or "value" not in node:
            raise ComponentError(f"{where}: expected an object with 'value' and 'status'")
        status = node.get("status")
        if status not in STATUSES:
            raise ComponentError(f"{where}: status must be one of {STATUSES}, got {status!r}")
        if status == "default":
            self.defaults.append((where, str(node.get("note", ""))))
        return node["value"]

    def entry(self, *keys: str) -> Any:
        node: Any = self.raw
        for key in keys:
            if not isinstance(node, Mapping) or key not in node:
                raise ComponentError(f"{'.'.join(keys)}: missing")
            node = node[key]
        return self.leaf(".".join(keys), node)

    def number(self, *keys: str, low: int = 0, high: int = 1000) -> int:
        value = self.entry(*keys)
        return _checked_int(".".join(keys), value, low, high)

    def components(self) -> Components:
        colors, codes = self.colors()
        names = self.patterns()
        per_hexagon = self.number("tiles_per_hexagon", low=1, high=10)
        expansions = self.expansions(colors)
        rounds = self.number("rounds", low=1, high=10)
        stacks = self.stack_sizes(rounds, len(expansions))
        return Components(
            colors=colors,
            color_codes=codes,
            pattern_names=names,
            tiles_per_hexagon=per_hexagon,
            expansions=expansions,
            rounds=rounds,
            round_stack_sizes=stacks,
            tiles_on_stack_top=self.number("tiles_on_stack_top", low=1, high=12),
            storage_tiles=self.storage("tiles"),
            storage_expansions=self.storage("expansions"),
            starting_score=self.number("starting_score"),
            starting_jokers=self.number("starting_jokers", high=12),
            first_pass_penalty=self.number("first_pass_penalty", high=100),
            supply_expansion_cost=self.number("supply_expansion_cost", high=100),
            pavilion_points=self.number("pavilion_points", high=100),
            joker_final_value=self.number("joker_final_value", high=100),
            joker_rewards={name: self.number("joker_rewards", name, high=12) for name in ORNAMENTS},
            evaluation_order=self.evaluation_order(colors),
            sides={side: self.side(side, rounds, colors) for side in SIDES},
            defaults=tuple(self.defaults),
        )

    def colors(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        value = self.entry("colors")
        if not isinstance(value, list) or len(value) != 6:
            raise ComponentError("colors: expected a list of 6 colours")
        ids = tuple(str(item.get("id")) if isinstance(item, Mapping) else "" for item in value)
        codes = tuple(str(item.get("code")) if isinstance(item, Mapping) else "" for item in value)
        for code in codes:
            if len(code) != 2 or not code.isalpha() or not code.islower():
                raise ComponentError(f"colors: code {code!r} must be two lowercase letters")
        if len(set(ids)) != 6 or len(set(codes)) != 6 or not all(ids):
            raise ComponentError("colors: ids and codes must be 6 distinct non-empty strings")
        return ids, codes

    def patterns(self) -> tuple[str, ...]:
        value = self.raw.get("patterns")
        if not isinstance(value, list) or len(value) != 6:
            raise ComponentError("patterns: expected a list of 6 patterns")
        names = []
        for number, item in enumerate(value, start=1):
            where = f"patterns[{number}]"
            if not isinstance(item, Mapping) or item.get("value") != number:
                raise ComponentError(f"{where}: expected value {number}")
            self.leaf(where, item)
            if not isinstance(item.get("name"), str) or not item["name"]:
                raise ComponentError(f"{where}: name must be a non-empty string")
            names.append(item["name"])
        return tuple(names)

    def expansions(self, colors: tuple[str, ...]) -> tuple[int, ...]:
        value = self.entry("expansions")
        if not isinstance(value, list) or len(value) != 36:
            raise ComponentError("expansions: expected 36 expansions")
        kinds = [_hexagon(f"expansions[{index}]", item, colors) for index, item in enumerate(value)]
        if len(set(kinds)) != 36:
            raise ComponentError("expansions: each of the 36 hexagons must be printed on exactly one expansion")
        return tuple(kinds)

    def stack_sizes(self, rounds: int, expansions: int) -> dict[int, int]:
        value = self.entry("round_stack_sizes")
        if not isinstance(value, Mapping) or sorted(value) != [str(n) for n in PLAYER_COUNTS]:
            raise ComponentError("round_stack_sizes: expected sizes for 2, 3 and 4 players")
        sizes = {int(n): _checked_int(f"round_stack_sizes.{n}", size, 1, 36) for n, size in value.items()}
        for players, size in sizes.items():
            if size * rounds > expansions:
                raise ComponentError(
                    f"round_stack_sizes.{players}: {rounds} stacks of {size} need more than {expansions} expansions"
                )
        return sizes

    def storage(self, key: str) -> int:
        value = self.entry("storage")
        if not isinstance(value, Mapping) or key not in value:
            raise ComponentError(f"storage: missing {key!r}")
        return _checked_int(f"storage.{key}", value[key], 1, 36)

    def evaluation_order(self, colors: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        value = self.entry("evaluation_order")
        expected = sorted([*colors, *(str(n) for n in range(1, 7))])
        if not isinstance(value, list) or sorted(map(str, value)) != expected:
            raise ComponentError("evaluation_order: must list each colour id and each pattern '1'..'6' once")
        return tuple(("color", colors.index(item)) if item in colors else ("pattern", int(item)) for item in value)

    def side(self, side: str, rounds: int, colors: tuple[str, ...]) -> Side:
        wheel = self.entry("sides", side, "wheel")
        if not isinstance(wheel, list) or len(wheel) != rounds:
            raise ComponentError(f"sides.{side}.wheel: expected one list of criteria per round ({rounds})")
        parsed = tuple(
            tuple(_criterion(f"sides.{side}.wheel[{r + 1}]", item, colors) for item in _list(wheel[r]))
            for r in range(rounds)
        )
        bonuses = self.entry("sides", side, "group_bonuses")
        if not isinstance(bonuses, Mapping):
            raise ComponentError(f"sides.{side}.group_bonuses: expected an object of size → points")
        table = {
            _checked_int(f"sides.{side}.group_bonuses key", _int_key(size), 1, 6): _checked_int(
                f"sides.{side}.group_bonuses.{size}", points, 0, 100
            )
            for size, points in bonuses.items()
        }
        return Side(parsed, self.number("sides", side, "group_min_size", low=2, high=6), table)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _int_key(text: Any) -> Any:
    return int(text) if isinstance(text, str) and text.isdecimal() else text


def _checked_int(where: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ComponentError(f"{where}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def _hexagon(where: str, item: Any, colors: tuple[str, ...]) -> int:
    if not isinstance(item, list) or len(item) != 2 or item[0] not in colors:
        raise ComponentError(f"{where}: expected [colour id, pattern 1..6], got {item!r}")
    return colors.index(item[0]) * 6 + _checked_int(where, item[1], 1, 6) - 1


def _criterion(where: str, item: Any, colors: tuple[str, ...]) -> Criterion:
    if not isinstance(item, Mapping) or ("color" in item) == ("pattern" in item):
        raise ComponentError(f"{where}: a criterion names exactly one 'color' or 'pattern'")
    color = pattern = None
    if "color" in item:
        if item["color"] not in colors:
            raise ComponentError(f"{where}: unknown colour {item['color']!r}")
        color = colors.index(item["color"])
    else:
        pattern = _checked_int(where, item["pattern"], 1, 6)
    points = item.get("points")
    if points != "value":
        points = _checked_int(f"{where}.points", points, 0, 100)
    return Criterion(color, pattern, None if points == "value" else points)
