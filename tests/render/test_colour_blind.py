"""Colour-blind safety, checked: every pair of tile colours a game uses is told apart under deuteranopia and
protanopia (simulated with Machado, Oliveira & Fernandes 2009's matrices at full severity) either by colour (CIE76
ΔE at least ``MIN_DELTA_E``) or by a distinct mark; and "to move" differs from "last move" by more than hue."""

from __future__ import annotations

from itertools import combinations

import pytest

from render import common as c
from tests.render.test_common import GAME_COLORS

RGB = tuple[int, int, int]
SIMULATIONS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}
MIN_DELTA_E = 12.0  # below this two flat colours are easily confused at a glance (CIE76)


def _linear(value: int) -> float:
    v = value / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(color: RGB, simulation: str | None) -> tuple[float, float, float]:
    """``color`` in CIE Lab as a person with ``simulation``'s colour vision (None: typical) sees it."""
    linear = tuple(_linear(v) for v in color)
    if simulation is not None:
        m = SIMULATIONS[simulation]
        linear = tuple(sum(m[i][j] * linear[j] for j in range(3)) for i in range(3))
    return _lab(linear)  # type: ignore[arg-type]


def delta_e(a: RGB, b: RGB, simulation: str | None) -> float:
    la, lb = seen(a, simulation), seen(b, simulation)
    return float(sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5)


@pytest.mark.parametrize("simulation", sorted(SIMULATIONS))
@pytest.mark.parametrize("game", sorted(GAME_COLORS))
def test_every_tile_colour_pair_differs_in_colour_or_mark(game: str, simulation: str) -> None:
    confused = []
    for first, second in combinations(GAME_COLORS[game], 2):
        a, b = c.STYLES[first], c.STYLES[second]
        if delta_e(a.fill, b.fill, simulation) < MIN_DELTA_E and a.mark == b.mark:
            confused.append(f"{first}/{second}: ΔE {delta_e(a.fill, b.fill, simulation):.1f}, both {a.mark}")
    assert not confused, confused


def test_the_check_finds_pairs_that_only_hue_tells_apart() -> None:
    """Red and green are far apart for most eyes and close for a deuteranope: the simulation must see that."""
    red, green = (200, 60, 40), (90, 140, 40)
    assert delta_e(red, green, None) > 3 * MIN_DELTA_E
    assert delta_e(red, green, "deuteranopia") < delta_e(red, green, None) / 2


def test_to_move_and_last_move_differ_by_more_than_hue() -> None:
    """Green "to move" and gold "last move" are close for some eyes: the to-move frame is also thicker."""
    assert c.TO_ACT_WIDTH > c.HIGHLIGHT_WIDTH
