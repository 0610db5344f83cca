"""The engine's command line: a terminal hot-seat game and self-play transcripts.

    python -m engine play azul --players 2 --seed 7
    python -m engine selfplay azul-grey --players 3 --seed 1 --agent greedy > game.json
    python -m engine variants

``selfplay`` prints one JSON transcript of a whole game (see :mod:`engine.transcript`).

This module alone in ``engine/`` may read the locale catalogue: ``play`` explains refused moves in words.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, TextIO

from data.i18n import t
from engine import EngineError, Event, Variant, get_variant, variant_names
from engine.agents import AGENT_NAMES
from engine.transcript import transcript

# --- the terminal game ------------------------------------------------------------------------------------------
# Game name (``Variant.game``) -> the module with its terminal texts: ``render(state, names=None)`` (the board),
# ``hint(variant)`` (how to type moves) and ``describe(event)`` (one English line, None for an unknown kind).
TEXT_BOARDS: dict[str, str] = {
    "azul": "engine.text",
    "summer-pavilion": "engine.text_summer_pavilion",
    "queens-garden": "engine.text_queens_garden",
}


def _text_boards(variant: Variant[Any]) -> ModuleType:
    return importlib.import_module(TEXT_BOARDS[variant.game])


def _text_board(state: Any) -> str:
    text: str = _text_boards(get_variant(state.variant)).render(state)
    return text


def describe(event: Event, game: str = "azul") -> str:
    """One English line per event (the bot has its own translated wording), from the game's text module."""
    who = f"Seat {event.seat}: " if event.seat is not None else ""
    text: str | None = importlib.import_module(TEXT_BOARDS[game]).describe(event)
    return who + (text if text is not None else f"{event.kind} {dict(event.data)}")


def play(variant: Variant[Any], players: int, seed: int, read: Callable[[str], str], out: TextIO) -> int:
    """Hot seat: whoever may act types a move in notation; ``?`` lists the legal moves, ``q`` quits."""
    state = variant.new_game(players, seed)
    print(_text_board(state), file=out)
    print(_text_boards(variant).hint(variant), file=out)
    print("'?' for the legal moves, 'b' for the board, 'q' to quit.", file=out)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        try:
            text = read(f"Seat {seat}> ").strip()
        except EOFError:
            return 0
        if text.lower() in ("q", "quit", "exit"):
            return 0
        if text in ("?", "moves", "help"):
            legal = " ".join(str(move) for move in variant.legal_moves(state, seat))
            print(f"Legal moves: {legal}\n(type a move, '?' for this list, 'b' for the board, 'q' to quit)", file=out)
            continue
        if text.lower() in ("b", "board"):
            print(_text_board(state), file=out)
            continue
        try:
            state, events = variant.apply(state, seat, variant.parse_move(text))
        except EngineError as error:
            print("Refused: " + t(f"error.{error.key}", "en", **error.params), file=out)
            continue
        for event in events:
            print(describe(event, variant.game), file=out)
        print(_text_board(state), file=out)
    print(
        "Final standings: " + " | ".join(", ".join(f"seat {s}" for s in g) for g in variant.standings(state)), file=out
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("play", "selfplay"):
        sub = commands.add_parser(name)
        sub.add_argument("variant")
        sub.add_argument("--players", type=int, default=2)
        sub.add_argument("--seed", type=int, default=0)
        if name == "selfplay":
            sub.add_argument("--agent", choices=AGENT_NAMES, default="random")
    commands.add_parser("variants")
    args = parser.parse_args(argv)
    try:
        if args.command == "variants":
            print("\n".join(variant_names()))
            return 0
        if args.command == "selfplay":
            print(json.dumps(transcript(args.variant, args.players, args.seed, args.agent)))
            return 0
        return play(get_variant(args.variant), args.players, args.seed, input, sys.stdout)
    except EngineError as error:
        print(t(f"error.{error.key}", "en", **error.params), file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
