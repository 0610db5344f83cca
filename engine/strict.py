"""Strict readers for saved states: every game's ``from_json`` reads its fields through these.

A saved state comes from the store, an export or a hand-edited file, so nothing in it is trusted: a field of the
wrong type is refused, never coerced (``"false"`` is not False, ``"1"`` is not 1, ``true`` is not 1), and a missing
or unknown key is refused. Every refusal is ``BadState("invalid_state", field=..., detail=...)``: ``field`` is the
path of the broken part (``players[1].tiles[4]``) for people, ``detail`` says what is wrong, for logs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine.core import JSON, BadState

MAX_RNG = (1 << 64) - 1
"""Generators keep 64-bit states."""


def invalid(field: str, detail: str) -> BadState:
    """The one refusal of a saved state, for readers and for the games' own consistency checks."""
    return BadState("invalid_state", field=field, detail=detail[:160])


def read_object(raw: JSON, field: str, keys: Collection[str]) -> Mapping[str, JSON]:
    """A JSON object with exactly ``keys``."""
    if not isinstance(raw, Mapping):
        raise invalid(field, f"expected an object, got {type(raw).__name__}")
    if missing := sorted(set(keys) - raw.keys()):
        raise invalid(field, f"missing {', '.join(missing)}")
    if unknown := sorted(map(str, raw.keys() - set(keys))):
        raise invalid(field, f"unknown {', '.join(unknown)}")
    return raw


def read_int(value: JSON, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (never a bool, float or numeric string) in ``low..high`` (either bound may be open)."""
    if type(value) is not int:
        raise invalid(field, f"expected an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise invalid(field, f"expected {_range(low, high)}, got {value}")
    return value


def read_bool(value: JSON, field: str) -> bool:
    if type(value) is not bool:
        raise invalid(field, f"expected true or false, got {value!r}")
    return value


def read_str(value: JSON, field: str, allowed: Collection[str] | None = None) -> str:
    """A string, one of ``allowed`` when given."""
    if not isinstance(value, str):
        raise invalid(field, f"expected a string, got {value!r}")
    if allowed is not None and value not in allowed:
        raise invalid(field, f"expected one of {', '.join(map(repr, allowed))}, got {value[:40]!r}")
    return value


def read_list(value: JSON, field: str, length: int | None = None, most: int | None = None) -> list[JSON]:
    """A list (exactly ``length`` long, or at most ``most``); its items are left to the caller."""
    if not isinstance(value, list):
        raise invalid(field, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise invalid(field, f"expected {length} items, got {len(value)}")
    if most is not None and len(value) > most:
        raise invalid(field, f"expected at most {most} items, got {len(value)}")
    return value


def read_ints(
    value: JSON,
    field: str,
    length: int | None = None,
    low: int | None = None,
    high: int | None = None,
    *,
    most: int | None = None,
) -> list[int]:
    """A list of integers in ``low..high`` (a fresh copy, so the state never shares the caller's list)."""
    items = read_list(value, field, length, most)
    lo = -(1 << 70) if low is None else low
    hi = 1 << 70 if high is None else high
    if all(type(item) is int and lo <= item <= hi for item in items):  # the usual case, checked fast
        return list(items)
    return [read_int(item, f"{field}[{i}]", low, high) for i, item in enumerate(items)]


def read_rows(value: JSON, field: str, shape: tuple[int | None, int | None], low: int, high: int) -> list[list[int]]:
    """A list of integer lists: ``shape`` is (rows, columns), None where the size may vary."""
    rows, columns = shape
    return [read_ints(row, f"{field}[{r}]", columns, low, high) for r, row in enumerate(read_list(value, field, rows))]


def _range(low: int | None, high: int | None) -> str:
    if low is None:
        return f"at most {high}"
    if high is None:
        return f"at least {low}"
    return f"{low}..{high}"
