"""Developer commands for the pictures (they draw through :mod:`render`, which stays free of them):

``python -m tools.pictures demo <dir> [--locale pl]``: write the sample pictures as PNG files for people to look at.
``python -m tools.pictures palettes``: rebuild the games' fixed palettes after changing how they are drawn.
``python -m tools.pictures phone <dir>``: the board the bot posts in each game, with 4 players and with 2, as a
390 x 844 phone shows it (the README's pictures in ``data/readme/phone``)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image

import engine
from engine.agents import RandomAgent
from render import palette, render_closeup_image, render_png, render_post, render_table
from render.common import SeatInfo
from tools.samples import NAMES, play, samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.pictures")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="write sample pictures (start, mid-round, scoring, grey wall, game over)")
    demo.add_argument("directory", type=Path)
    demo.add_argument("--locale", default="en", help="en, pl or uk")
    commands.add_parser("palettes", help="rebuild every game's fixed palette (render/palette.py) from its samples")
    phone = commands.add_parser("phone", help="write posted boards (4 and 2 players) as a phone shows them")
    phone.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    if args.command == "palettes":
        return rebuild_palettes()
    if args.command == "phone":
        return phone_pictures(args.directory)
    args.directory.mkdir(parents=True, exist_ok=True)
    for sample in samples():
        png = render_png(sample.state, names=sample.names, events=sample.events, locale=args.locale)
        target = args.directory / f"{sample.name}.png"
        target.write_bytes(png)
        print(f"{target}  {len(png) // 1024} KB")
    return 0


PHONE = (390, 844)  # a portrait phone's screen: a tapped picture is fitted into it
PHONE_TABLES = (  # game, locale, names (Polish, Ukrainian, an emoji name, a long name)
    ("azul", "pl", ("Bartłomiej Grzegorzewski-Wąsowicz", "Małgorzata", "Komputer 1", "Zoë 💙 Żak")),
    ("summer-pavilion", "uk", ("Олександра Коваленко", "Святослав", "Комп'ютер 1", "Zoë 💙 Żak")),
    ("queens-garden", "pl", ("Przemysław Chrząszczewski", "Kasia", "Komputer 1", "🎲🎲")),
)


def phone_pictures(directory: Path) -> int:
    """The board the bot posts mid-game (:func:`render.render_post`, its move said under it), with 4 players (a
    computer seat, an absent player, a running clock) and with 2, each as a 390 x 844 phone shows it when tapped."""
    directory.mkdir(parents=True, exist_ok=True)
    words = {
        "pl": ("zostało 23 h", "23 h", "nieobecność do 3.12", "trudny", "{name} bierze płytki"),
        "uk": ("лишилося 23 год", "23 год", "відсутність до 3.12", "складний", "{name} бере плитки"),
    }
    for game, locale, names in PHONE_TABLES:
        for players in (4, 2):
            states = list(play(game, players, 11))
            state, events = states[len(states) // 2]
            clock, clock_short, away, level, took = words[locale]
            info: list[SeatInfo | None] = [None] * players
            acting = min(engine.to_act(state))
            if players == 4:
                info[2] = SeatInfo(robot=level, robot_short="3")  # the computer seat
                info[3 if acting != 3 else 1] = SeatInfo(away=away, away_short="3.12")
            if info[acting] is None:  # a computer has no clock
                info[acting] = SeatInfo(clock=clock, clock_short=clock_short)
            caption = took.format(name=names[(acting - 1) % players])
            image = render_post(state, names=names[:players], events=events, locale=locale, info=info, caption=caption)
            scale = min(PHONE[0] / image.width, PHONE[1] / image.height)
            small = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
            target = directory / f"{game}-{players}p.png"
            small.save(target, optimize=True)
            print(f"{target}  {image.width}x{image.height} shown at {scale:.2f}x: {small.width}x{small.height}")
    return 0


def reference_pictures(game: str) -> Iterator[Image.Image]:
    """The pictures a game's palette is chosen from: every variant with 2 to 4 players from the start to the end of
    seeded games (random moves: quick, and they reach odd corners), in every language, plus close-ups."""
    for variant in engine.variant_names():
        if engine.get_variant(variant).game != game:
            continue
        for players in (2, 3, 4):
            history = list(_random_game(variant, players))
            for index in (0, len(history) // 3, len(history) * 3 // 4, len(history) - 1):
                state, events = history[index]
                names = NAMES[:players]
                for locale in ("en", "pl", "uk"):
                    yield render_table(state, names=names, events=events, locale=locale)
                yield render_closeup_image(state, players - 1, names=names, events=events)


def _random_game(variant: str, players: int) -> Iterator[tuple[Any, list[Any]]]:
    state, agent = engine.new_game(variant, players, players), RandomAgent(players)
    events: list[Any] = []
    yield state, events
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        yield state, events


def build_palette(game: str) -> bytes:
    """A 256-colour palette (768 bytes) for ``game`` from its reference pictures (fast octree, no dithering)."""
    pictures = list(reference_pictures(game))
    sheet = Image.new("RGB", (max(p.width for p in pictures), sum(p.height for p in pictures)))
    y = 0
    for picture in pictures:
        sheet.paste(picture.convert("RGB"), (0, y))
        y += picture.height
    quantized = sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colors = bytes(quantized.getpalette() or [])[: 256 * 3]
    return colors + colors[:3] * (256 - len(colors) // 3)  # pad with a colour in use, never with an unused black


def rebuild_palettes() -> int:
    """Rewrite ``PALETTES`` in ``render/palette.py`` from every game's reference pictures."""
    games = engine.game_names()
    entries = [f'    "{game}": (\n' + _wrapped(build_palette(game).hex()) + "    )," for game in games]
    target = Path(palette.__file__)
    head, _, rest = target.read_text(encoding="utf-8").partition("PALETTES: dict[str, str] = {\n")
    _, _, tail = rest.partition("\n}\n")
    target.write_text(head + "PALETTES: dict[str, str] = {\n" + "\n".join(entries) + "\n}\n" + tail, encoding="utf-8")
    print(f"rebuilt {', '.join(games)}")
    return 0


def _wrapped(hex_text: str, width: int = 96) -> str:
    return "".join(f'        "{hex_text[i : i + width]}"\n' for i in range(0, len(hex_text), width))


if __name__ == "__main__":
    raise SystemExit(main())
