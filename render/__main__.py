"""``python -m render demo <dir> [--locale pl]``: write the sample pictures as PNG files for people to look at."""

from __future__ import annotations

import argparse
from pathlib import Path

from render import render_png
from render.samples import samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="write sample pictures (start, mid-round, scoring, grey wall, game over)")
    demo.add_argument("directory", type=Path)
    demo.add_argument("--locale", default="en", help="en, pl or uk")
    args = parser.parse_args(argv)
    args.directory.mkdir(parents=True, exist_ok=True)
    for sample in samples():
        png = render_png(sample.state, names=sample.names, events=sample.events, locale=args.locale)
        target = args.directory / f"{sample.name}.png"
        target.write_bytes(png)
        print(f"{target}  {len(png) // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
