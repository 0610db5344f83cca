"""Colour-blind safety, checked: every pair of tile colours a game uses is told apart under deuteranopia and
protanopia (simulated with Machado, Oliveira & Fernandes 2009's matrices at full severity) either by colour (CIE76
ΔE at least ``MIN_DELTA_E``) or by a distinct mark; and "to move" differs from "last move" by more than hue."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageDraw

from render import common as c
from render import queens_garden as qg
from render import summer_pavilion as sp
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


def _silhouette(mark: str, size: int = 48) -> set[tuple[int, int]]:
    """The pixels ``mark`` covers when drawn in a ``size``-pixel box."""
    image = Image.new("L", (size, size), 0)
    c.draw_mark(ImageDraw.Draw(image), (0, 0, size - 1, size - 1), mark, 255)
    return {(x, y) for y in range(size) for x in range(size) if image.getpixel((x, y)) > 127}  # type: ignore[operator]


def _overlap(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    """Intersection over union: 1 for the same shape, 0 for shapes that share no pixel."""
    return len(a & b) / len(a | b)


MAX_OVERLAP = 0.7  # a filled hexagon over a dot of the same box is 0.83: on a phone's few pixels they look alike


@pytest.mark.parametrize("game", sorted(GAME_COLORS))
def test_the_marks_of_a_game_differ_in_shape_not_only_in_name(game: str) -> None:
    """Two marks whose silhouettes mostly coincide are one mark on a phone, whatever they are called."""
    shapes = {color: _silhouette(c.STYLES[color].mark) for color in GAME_COLORS[game]}
    alike = [
        f"{first}/{second}: {_overlap(shapes[first], shapes[second]):.2f}"
        for first, second in combinations(GAME_COLORS[game], 2)
        if _overlap(shapes[first], shapes[second]) > MAX_OVERLAP
    ]
    assert not alike, alike


def test_the_overlap_check_finds_a_hexagon_that_looks_like_a_dot() -> None:
    assert _overlap(_silhouette("hexagon"), _silhouette("dot")) > MAX_OVERLAP


def _inside(polygon: list[tuple[float, float]], point: tuple[float, float]) -> bool:
    """Whether ``point`` lies inside the convex ``polygon`` (on the same side of every edge)."""
    sides = [
        (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
    ]
    return all(side >= 0 for side in sides) or all(side <= 0 for side in sides)


def test_queens_garden_marks_fill_the_top_of_the_hexagon() -> None:
    """The mark is at least half the hexagon's radius across (it was 0.43 of it, about 5 px on a phone), lies
    inside the hexagon and above the value."""
    size = qg.HEX
    x0, y0, x1, y1 = qg.mark_box(0, 0, size)
    assert x1 - x0 >= 0.55 * size and y1 - y0 >= 0.55 * size
    hexagon = qg._corners(0, 0, size)
    assert all(_inside(hexagon, corner) for corner in ((x0, y1), (x1, y1), ((x0 + x1) / 2, y0)))
    qg._hexagon_sprite.cache_clear()
    with c.recording() as drawn:
        qg._hexagon_sprite(GAME_COLORS["queens_garden"], 9, size, False)
    value = next(text for text in drawn if text.text.isdigit())
    side = int(2 * size) + 4
    assert value.box[1] - side // 2 >= y1 - 1  # the value starts under the mark


def test_summer_pavilion_empty_spaces_carry_their_stars_mark() -> None:
    """Every empty space of a coloured star shows, in its tip, the shape of that star's colour mark: of the six
    marks, its own fits the drawn pixels best."""
    cluster = sp._empty_cluster(False).convert("RGB")
    marks = {sp.COLORS[color]: _silhouette(c.STYLES[sp.COLORS[color]].mark, sp.EMPTY_MARK + 1) for color in range(6)}
    half = sp.EMPTY_MARK // 2
    for star in range(sp.STARS):
        if star == sp.CENTRE:
            continue
        face = sp._star_face(False, star)
        own = sp.COLORS[sp.FRONT_STAR_COLORS[star]]
        for space in range(sp.SPACES):
            mx, my = sp.empty_mark_middle(star, space)
            left, top = round(mx + sp.CLUSTER_W / 2) - half, round(my + sp.CLUSTER_H / 2) - half
            drawn = {
                (x, y)
                for y in range(sp.EMPTY_MARK + 1)
                for x in range(sp.EMPTY_MARK + 1)
                if sum(abs(a - b) for a, b in zip(cluster.getpixel((left + x, top + y)), face, strict=True)) > 90  # type: ignore[arg-type]
            }
            best = max(marks, key=lambda color: _overlap(drawn, marks[color]))
            assert best == own, (star, space, best, own)
