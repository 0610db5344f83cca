"""What the pictures show besides the game: per-seat notes, close-ups, Queen's Garden expansion previews, the grey
wall's column numbers, final standings in every game, and the fixed palettes that make encoding fast."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import engine
import render
from engine.agents import RandomAgent
from engine.queens_garden import CELL_COORDS, ORNAMENTS, area_cell
from render import azul, queens_garden, summer_pavilion
from render import common as c
from render.palette import PALETTES, palette_image
from render.png import to_png
from tests.render.goldens import differs
from tools.samples import NAMES, play

VARIANTS = ("azul", "azul-grey", "summer-pavilion", "summer-pavilion-mono", "queens-garden", "queens-garden-variant")


@cache
def history(variant: str, players: int, seed: int) -> list[tuple[Any, list[engine.Event]]]:
    """Every state of a seeded game played by the random agent (fast, and it reaches odd corners)."""
    state = engine.new_game(variant, players, seed)
    agent = RandomAgent(seed)
    result = [(state, [])]
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        result.append((state, events))
    return result


def moment(variant: str, players: int, share: float = 0.5, seed: int = 3) -> tuple[Any, list[engine.Event]]:
    states = history(variant, players, seed)
    return states[min(len(states) - 1, int(len(states) * share))]


def image_of(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("variant", VARIANTS)
def test_seat_notes_appear_beside_the_names_and_are_optional(variant: str) -> None:
    state, events = moment(variant, 3)
    plain = render.render_table(state, names=NAMES[:3], events=events)
    assert not differs(render.render_table(state, names=NAMES[:3], events=events, info=[None, None]), plain)
    info = [c.SeatInfo(robot="hard"), c.SeatInfo(away="away until 3 Dec"), c.SeatInfo(clock="5 h left")]
    noted = render.render_table(state, names=NAMES[:3], events=events, info=info)
    assert noted.width == plain.width and noted.height >= plain.height  # a legend may say what short notes mean
    changed = ImageChops.difference(noted.crop((0, 0, *plain.size)), plain).getbbox()
    assert changed is not None
    # Only the headers change: nothing in the shared area above the first board.
    shared, _board = render.renderer_of(engine.variant_of(state).game).closeup_regions(state, 0)
    assert changed[1] >= shared[0][3] - 12


def test_seat_info_pills_carry_the_callers_texts_in_order() -> None:
    pills = c.seat_pills(c.SeatInfo(robot="trudny", away="nieobecny do 3 grudnia", clock="5 godz.", urgent=True))
    assert [p.text for p in pills] == ["trudny", "nieobecny do 3 grudnia", "5 godz."]
    assert [p.icon for p in pills] == ["robot", "moon", "clock"]
    assert pills[2].fill == c.LOSS
    assert c.seat_pills(c.SeatInfo()) == []


def test_the_robot_is_drawn_as_an_icon() -> None:
    image, d = c.canvas(200, 40)
    c.pill(d, 190, 20, c.Pill("hard", icon="robot"), c.font(16, bold=True))
    with_icon = image.copy()
    image, d = c.canvas(200, 40)
    c.pill(d, 190, 20, c.Pill("hard"), c.font(16, bold=True))
    assert with_icon.getbbox() != image.getbbox() or differs(with_icon, image)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_closeup_shows_one_board_larger_for_every_game(variant: str, players: int) -> None:
    state, events = moment(variant, players, 0.3)
    draw_table = render.renderer_of(engine.variant_of(state).game).draw_table
    for seat in range(players):
        closeup = image_of(render.render_closeup(state, seat, names=NAMES[:players], events=events))
        # the board as the whole table shows it, without the other boards (no piece of a neighbour's pill)
        table = draw_table(state, names=NAMES[:players], events=events, locale="en", seats={seat})
        if table.width > 1.5 * closeup.width:
            assert closeup.width * 1.8 < table.width  # a phone shows it about twice as large
        else:  # a table in one column is already that large: the close-up leaves the other boards out
            assert closeup.width == table.width
        _shared, board = render.renderer_of(engine.variant_of(state).game).closeup_regions(state, seat)
        own = table.crop(board)
        left = (closeup.width - own.width) // 2  # the board sits in the middle, under the shared area
        # the board proper (not the margin around it) somewhere above the other players' rows
        own = own.crop((9, 12, own.width - 9, own.height - 12))
        left += 9
        tops = range(closeup.height - own.height)
        assert any(not differs(closeup.crop((left, y, left + own.width, y + own.height)), own) for y in tops), (
            "the player's own board is drawn as the whole table draws it"
        )


def test_closeup_refuses_a_seat_that_is_not_at_the_table() -> None:
    state, _ = moment("azul", 2, 0.0)
    with pytest.raises(ValueError, match="no seat 2"):
        render.render_closeup(state, 2, names=NAMES[:2])


def expansion_position() -> tuple[Any, int, list[Any]]:
    for state, _ in play("queens-garden", 2, 5):  # greedy players buy expansions; random ones rarely do
        if engine.is_over(state):
            break
        seat = min(engine.to_act(state))
        moves = [m for m in engine.legal_moves(state, seat) if m.command == "expansion" and "supply" not in str(m)]
        if len(moves) > 6:
            return state, seat, moves
    raise LookupError("no expansion choice in this game")


def test_expansion_preview_marks_each_candidate_with_its_label() -> None:
    state, seat, moves = expansion_position()
    unique = {(dict(m.choices())["area"], dict(m.choices())["rotation"]): m for m in moves}
    first_two = list(unique.values())[:2]
    one = image_of(render.render_preview(state, seat, [("A", first_two[0])], names=NAMES[:2]))
    other = image_of(render.render_preview(state, seat, [("A", first_two[1])], names=NAMES[:2]))
    relabelled = image_of(render.render_preview(state, seat, [("B", first_two[0])], names=NAMES[:2]))
    assert differs(one, other)  # another rotation is drawn elsewhere
    assert differs(one, relabelled)  # the label is drawn
    box = ImageChops.difference(one, relabelled).getbbox()
    assert box is not None and box[2] - box[0] < 40  # ...and only the label changes
    supply = engine.parse_move("queens-garden", "expansion supply - A3 -")
    assert differs(image_of(render.render_preview(state, seat, [("S", supply)], names=NAMES[:2])), one)


def test_expansion_preview_rings_are_the_outlines_pillow_draws() -> None:
    """The cached ring of each area puts down exactly the pixels of its seven wide outlines drawn one by one."""
    state, seat, _ = expansion_position()
    drawn = image_of(render.render_preview(state, seat, [], names=NAMES[:2])).convert("RGB")  # no rings
    origin = queens_garden.garden_origin(
        queens_garden.MARGIN + queens_garden.PAD, queens_garden.MARGIN + queens_garden.PAD + queens_garden.HEADER_H
    )
    for area in range(6):
        direct, cached = drawn.copy(), drawn.copy()
        d = ImageDraw.Draw(direct)
        for p in range(7):
            px, py = queens_garden._xy(CELL_COORDS[area_cell(area, p)], queens_garden.HEX)
            d.polygon(
                queens_garden._corners(origin[0] + px, origin[1] + py, queens_garden.HEX), outline=c.ACCENT, width=2
            )
        mask, box = queens_garden.area_ring(area, origin, drawn.size)
        cached.paste(c.ACCENT, box, mask)
        assert direct.tobytes() == cached.tobytes(), f"area {area + 1}"
        assert direct.tobytes() != drawn.tobytes()  # the ring shows


def test_expansion_preview_refuses_other_moves_and_games() -> None:
    state, seat, _ = expansion_position()
    tile = next(m for m in engine.legal_moves(state, seat) if m.command != "expansion")
    with pytest.raises(ValueError, match="not an expansion move"):
        render.render_preview(state, seat, [("A", tile)], names=NAMES[:2])
    azul_state, _ = moment("azul", 2, 0.0)
    with pytest.raises(ValueError, match="draws no previews"):
        render.render_preview(azul_state, 0, [], names=NAMES[:2])


def test_grey_wall_spaces_show_their_column_numbers() -> None:
    grey, coloured = azul._empty_board(True), azul._empty_board(False)
    plain = Image.new("RGBA", grey.size, (0, 0, 0, 0))
    from PIL import ImageDraw

    c.slot(ImageDraw.Draw(plain), (azul._wall_x(2), azul._line_y(0)), azul.TILE)
    box = (azul._wall_x(2), azul._line_y(0), azul._wall_x(2) + azul.TILE, azul._line_y(0) + azul.TILE)
    assert differs(grey.crop(box), plain.crop(box))  # a number on the empty space
    assert differs(grey.crop(box), coloured.crop(box))


@pytest.mark.parametrize("module", [azul, summer_pavilion, queens_garden])
def test_every_final_picture_has_a_standings_table(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    variant = {azul: "azul", summer_pavilion: "summer-pavilion", queens_garden: "queens-garden"}[module]
    state, events = moment(variant, 2, 1.0)
    assert engine.is_over(state)
    calls: list[Any] = []
    monkeypatch.setattr(module, "_draw_standings", lambda *args: calls.append(args))
    render.render_table(state, names=NAMES[:2], events=events)
    assert len(calls) == 1


def test_a_monochrome_star_shows_its_colour_from_the_first_tile() -> None:
    empty = [-1] * 6
    assert summer_pavilion.hub_color(True, empty) == -1
    assert summer_pavilion.hub_color(True, [3, -1, -1, -1, -1, -1]) == 3
    assert summer_pavilion.hub_color(True, [3, 3, -1, -1, -1, -1]) == 3
    assert summer_pavilion.hub_color(True, [3, 4, -1, -1, -1, -1]) == -1
    assert summer_pavilion.hub_color(False, [3, -1, -1, -1, -1, -1]) == -1
    assert differs(summer_pavilion._hub(True, 0, 3)[0], summer_pavilion._hub(True, 0, -1)[0])


@pytest.mark.parametrize(("variant", "board_h"), [("azul", azul.BOARD_H), ("summer-pavilion", summer_pavilion.BOARD_H)])
@pytest.mark.parametrize("share", [0.3, 1.0])
def test_three_players_fill_the_quarter_beside_the_last_board(variant: str, board_h: int, share: float) -> None:
    state, events = moment(variant, 3, share)
    table = render.render_table(state, names=NAMES[:3], events=events)
    board = table.crop((20, table.height - board_h, table.width // 2 - 20, table.height - 20))
    quarter = table.crop((table.width // 2 + 20, table.height - board_h, table.width - 20, table.height - 20))
    assert len(board.getcolors(1 << 16) or []) > 3  # the last board sits left...
    assert len(quarter.getcolors(1 << 16) or []) > 3  # ...and the shared area (or the standings) beside it


@pytest.mark.parametrize("share", [0.3, 1.0])
def test_three_player_queens_garden_puts_the_display_beside_the_last_garden(share: float) -> None:
    state, events = moment("queens-garden", 3, share)
    table = render.renderer_of("queens-garden").draw_table(state, names=NAMES[:3], events=events, locale="en")
    x, y = queens_garden._panel_origin(state, 2)
    assert x == queens_garden.MARGIN and y + queens_garden._panel_height(state) + queens_garden.MARGIN == table.height
    beside = table.crop((table.width // 2 + 20, y + 20, table.width - 20, y + 100))
    assert len(beside.getcolors(1 << 16) or []) > 3


@pytest.mark.parametrize("share", [0.3, 1.0])
def test_two_player_queens_garden_is_one_garden_wide(share: float) -> None:
    state, events = moment("queens-garden", 2, share)
    table = render.render_table(state, names=NAMES[:2], events=events)
    assert table.width == queens_garden.NARROW < queens_garden.WIDTH // 2 + queens_garden.MARGIN
    assert table.height > 2 * queens_garden.PANEL_H  # the gardens one under the other


@pytest.mark.parametrize("game", engine.game_names())
def test_every_game_has_a_full_fixed_palette(game: str) -> None:
    assert len(bytes.fromhex(PALETTES[game])) == 256 * 3
    palette = palette_image(game)
    assert palette is not None and palette.mode == "P"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_fixed_palette_keeps_the_look(variant: str) -> None:
    for players, share in ((2, 0.0), (4, 0.6), (3, 1.0)):
        state, events = moment(variant, players, share, seed=11)
        drawn = render.render_table(state, names=NAMES[:players], events=events, locale="pl")
        encoded = image_of(render.render_png(state, names=NAMES[:players], events=events, locale="pl"))
        assert not differs(encoded, drawn), (variant, players, share)


@pytest.mark.parametrize("variant", VARIANTS)
def test_files_are_no_larger_than_with_a_palette_made_for_each_picture(variant: str) -> None:
    for players in (2, 4) if not variant.startswith("queens-garden") else (3, 4):  # QG 2p: up to 0.5% larger
        state, events = moment(variant, players, 0.75)
        fixed = render.render_png(state, names=NAMES[:players], events=events)
        own = to_png(render.render_table(state, names=NAMES[:players], events=events))
        # zlib-ng level 6 keeps every picture within 1.5x of a blank PNG's time, for at most 3 % more bytes
        assert len(fixed) <= len(own) * 1.03, (players, len(fixed), len(own))


def _as_the_picker_labels(move: Any) -> str:
    """The label the picker gives an expansion move (``bot.app.picking.preview_candidates``): its cell, or its area
    when it is laid face down."""
    choices = dict(move.choices())
    rotation = choices["rotation"]
    return choices["area"] if rotation in ("", "-") else f"{choices['area']}-{rotation}"


def _preview_labels(candidates: list[tuple[str, Any]]) -> tuple[list[c.DrawnText], list[c.Box], list[c.DrawnText]]:
    """The preview's label texts, their badges, and every other text it prints (cached layers drawn afresh)."""
    state, seat, _ = expansion_position()
    for sprite in (queens_garden._unlaid_area, queens_garden._free_cell, queens_garden._ornament):
        sprite.cache_clear()
    with c.recording() as drawn, c.regions() as regions:
        render.render_preview(state, seat, candidates, names=NAMES[:2])
    badges = regions.get("preview label", [])

    def on_badge(t: c.DrawnText) -> bool:
        return any(b[0] <= t.box[0] and t.box[2] <= b[2] and b[1] <= t.box[1] and t.box[3] <= b[3] for b in badges)

    labels = [text for text in drawn if on_badge(text)]
    return labels, badges, [text for text in drawn if not on_badge(text)]


def _every_candidate() -> list[tuple[str, Any]]:
    state, seat, moves = expansion_position()
    supply = [m for m in engine.legal_moves(state, seat) if m.command == "expansion" and "supply" in str(m)]
    return [(_as_the_picker_labels(move), move) for move in [*moves, *supply]]


def test_expansion_preview_labels_never_overlap() -> None:
    _, badges, _ = _preview_labels(_every_candidate())
    assert len(badges) > 6
    for i, a in enumerate(badges):
        for b in badges[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_expansion_preview_labels_never_repeat_the_printed_names() -> None:
    """A label says only what the garden does not print already: "A2-3" is "3" on its cell, beside the printed
    "A2"; a face-down expansion's "A2" is drawn on the printed name, taking its place instead of repeating it."""
    labels, badges, printed = _preview_labels(_every_candidate())
    areas = {f"A{n + 1}": n for n in range(6)}
    assert set(areas) <= {text.text for text in printed}  # the garden prints its areas' names
    names = {*areas, *(o.name for o in ORNAMENTS)}
    origin = queens_garden.garden_origin(
        queens_garden.MARGIN + queens_garden.PAD, queens_garden.MARGIN + queens_garden.PAD + queens_garden.HEADER_H
    )
    face_down = 0
    for label, badge in zip(labels, badges, strict=True):
        for part in label.text.split(","):
            assert not any(part.startswith(name + "-") for name in names), label.text
            if part in names:  # only an area's own name, on the printed one
                px, py = queens_garden._xy(CELL_COORDS[area_cell(areas[part], 0)], queens_garden.HEX)
                middle = ((badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2)
                assert abs(middle[0] - origin[0] - px) <= 2 and abs(middle[1] - origin[1] - py) <= 2, label.text
                face_down += 1
    assert face_down
