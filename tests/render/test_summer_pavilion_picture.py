"""Golden pictures of the Summer Pavilion table (compared and updated as ``tests/render/goldens.py`` says), and the
picture's reading of the engine's events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import engine
import render
from engine.agents import GreedyAgent
from render import common as c
from render import summer_pavilion
from render.summer_pavilion import read_events
from tests.render.goldens import check_golden, differs
from tests.render.test_table_features import history

NAMES = ["Ala", "Bartłomiej z Gdańska 🌞", "Олександра", "ʕ•ᴥ•ʔ Kuba 💙"]
Stop = Callable[[Any, list[engine.Event]], bool]


def played(variant: str, players: int, seed: int, stop: Stop) -> tuple[Any, list[engine.Event]]:
    """A greedy self-play game stopped after the first move for which ``stop(state, events)`` holds."""
    state = engine.new_game(variant, players, seed)
    agent = GreedyAgent(seed)
    events: list[engine.Event] = []
    while not engine.is_over(state) and not stop(state, events):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
    return state, events


def kinds(events: list[engine.Event]) -> set[str]:
    return {e.kind for e in events}


TABLES: dict[str, Callable[[], tuple[Any, list[engine.Event]]]] = {
    "start-2p": lambda: played("summer-pavilion", 2, 1, lambda s, e: True),
    "draft-3p": lambda: played("summer-pavilion", 3, 5, lambda s, e: "start_tile" in kinds(e)),
    "bonus-4p": lambda: played("summer-pavilion", 4, 3, lambda s, e: s.round == 3 and "bonus_earned" in kinds(e)),
    "mono-3p": lambda: played("summer-pavilion-mono", 3, 2, lambda s, e: s.round == 5 and "place" in kinds(e)),
    "game-over-2p": lambda: played("summer-pavilion", 2, 4, lambda s, e: False),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_golden_picture(name: str) -> None:
    state, events = TABLES[name]()
    check_golden(f"summer_pavilion-{name}", render.render_png(state, names=NAMES, events=events, locale="en"))


def test_the_same_state_gives_the_same_bytes() -> None:
    state, events = TABLES["bonus-4p"]()
    first = render.render_png(state, names=NAMES, events=events)
    assert render.render_png(state, names=NAMES, events=events) == first
    assert len(first) < 300_000  # well under Discord's limits, even for four boards


def test_last_move_is_read_from_the_events() -> None:
    state, events = TABLES["bonus-4p"]()
    last = read_events(events)
    place = next(e for e in events if e.kind == "place")
    assert last.seat == place.seat and last.placed is not None
    assert last.placed[:2] == (place.data["star"], place.data["space"])
    assert last.structures
    without = render.render_table(state, names=NAMES)
    assert differs(render.render_table(state, names=NAMES, events=events), without)


def test_start_tile_penalty_and_source_are_read() -> None:
    _, events = TABLES["draft-3p"]()
    last = read_events(events)
    assert last.from_centre and last.score_change < 0 and last.hand_changed


@pytest.mark.parametrize("locale", ["pl", "uk"])
def test_other_languages_draw(locale: str) -> None:
    state, events = TABLES["game-over-2p"]()
    english = render.render_table(state, names=NAMES, events=events)
    assert differs(render.render_table(state, names=NAMES, events=events, locale=locale), english)


@pytest.mark.parametrize("variant", ["summer-pavilion", "summer-pavilion-mono"])
def test_every_kind_of_moment_draws(variant: str) -> None:
    """Every state right after a new kind of event in a whole seeded game draws without error."""
    state = engine.new_game(variant, 4, 11)
    agent = GreedyAgent(11)
    seen: set[str] = set()
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        new = kinds(events) - seen
        if new or engine.is_over(state):
            seen |= new
            image = render.render_table(state, names=NAMES[:2], events=events)  # fewer names than seats
            assert image.width == 968
    assert {"take", "start_tile", "place", "bonus_earned", "round_started", "game_over"} <= seen


def test_a_hand_of_every_colour_fits_beside_the_start_tile() -> None:
    state = engine.new_game("summer-pavilion", 2, 1)
    for factory in state.factories:
        for color in range(6):
            state.bag[color] += factory[color]
            factory[color] = 0
    state.boards[0].hand = [12, 11, 13, 10, 14, 12]
    for color in range(6):
        state.bag[color] -= state.boards[0].hand[color]
    state.phase, state.start_tile = "play", 0
    check_golden("summer_pavilion-big-hand-2p", render.render_png(state, names=NAMES))


def test_cached_covered_spaces_equal_the_cluster_drawn_whole() -> None:
    """The cached pieces of the star cluster must give exactly the pixels of drawing every covered space at once."""
    from PIL import Image, ImageDraw

    from render import common as c
    from render.summer_pavilion import CLUSTER_H, CLUSTER_W, COLORS, SS, _covered_space, diamond

    colours = [(star + space) % 6 for star in range(7) for space in range(6)]  # mixed colours
    big = Image.new("RGBA", (CLUSTER_W * SS, CLUSTER_H * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    pieces = Image.new("RGBA", (CLUSTER_W, CLUSTER_H), (0, 0, 0, 0))
    for index, color in enumerate(colours):
        star, space = divmod(index, 6)
        if index % 3 == 0:  # some spaces stay empty
            continue
        points = [(x + CLUSTER_W / 2 * SS, y + CLUSTER_H / 2 * SS) for x, y in diamond(star, space, SS)]
        d.polygon(points, fill=c.STYLES[COLORS[color]].fill, outline=c.DARK_INK, width=2)
        patch, xy = _covered_space(star, space, color)
        pieces.alpha_composite(patch, xy)
    assert big.reduce(SS).tobytes() == pieces.tobytes()


def test_the_cluster_put_on_its_panel_once_looks_as_when_blended_whole() -> None:
    """The cluster and its pieces are flattened onto the panel's fill once (blending the whole cluster into every
    picture cost 0.6 ms a board); the covered spaces then blend onto the flattened cluster, which may round an edge
    pixel differently from blending them into the cluster first, never visibly."""
    from PIL import Image, ImageChops

    from render import common as c
    from render.summer_pavilion import COLORS, _covered_space, _empty_cluster, _on_panel

    for mono in (False, True):
        layer, flat = _empty_cluster(mono).copy(), _on_panel(_empty_cluster(mono))
        for index in range(0, 42, 2):
            star, space = divmod(index, 6)
            patch, xy = _covered_space(star, space, index % len(COLORS))
            layer.alpha_composite(patch, xy)
            flat.paste(patch, xy, patch)
        whole = Image.new("RGB", layer.size, c.PANEL)
        whole.paste(layer, (0, 0), layer)
        assert max(high for _, high in ImageChops.difference(whole, flat).getextrema()) <= 4


def test_an_empty_centre_takes_one_line_in_the_personal_view() -> None:
    # One board wide, the centre takes as many lines as its tiles need; with none, "empty" needs only one.
    states = [state for state, _ in history("summer-pavilion", 4, 5) if state.phase != "over"]
    empty = next(state for state in states if not any(state.centre))
    held = next(state for state in states if any(state.centre))
    heights = {}
    for name, state in (("empty", empty), ("held", held)):
        with c.regions() as regions:
            render.render_closeup_image(state, 0, names=["a", "b", "c", "d"], locale="en")
        top, bottom = regions["centre"][0][1], regions["centre"][0][3]
        heights[name] = bottom - top
    assert heights["empty"] == summer_pavilion.ROW_H <= heights["held"], heights
