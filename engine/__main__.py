"""The engine's command line: a terminal hot-seat game and self-play transcripts.

    python -m engine play azul --players 2 --seed 7 --computer 1=hard
    python -m engine selfplay azul-grey --players 3 --seed 1 --agent hard --iterations 200 > game.json
    python -m engine variants

``selfplay`` prints one JSON transcript of a whole game (see :mod:`engine.transcript`).

This module alone in ``engine/`` may read the locale catalogue: ``play`` explains refused moves in words.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, TextIO

from data.i18n import t
from engine import EngineError, Event, GameState, Variant, get_variant, variant_names
from engine.agents import AGENT_NAMES, Agent, make_agent
from engine.transcript import transcript


# --- the terminal game ------------------------------------------------------------------------------------------
# Each game's terminal texts live in ``engine/text_<game>.py`` (the game's name with ``_`` for ``-``), found by name
# like the game modules themselves: ``render(state, names=None)`` (the board), ``hint(variant)`` (how to type moves)
# and ``describe(event)`` (one English line, None for an unknown kind).
def text_module(game: str) -> ModuleType:
    return importlib.import_module(f"engine.text_{game.replace('-', '_')}")


def _text_boards(variant: Variant[Any]) -> ModuleType:
    return text_module(variant.game)


def _text_board(state: GameState) -> str:
    text: str = _text_boards(get_variant(state.variant)).render(state)
    return text


def describe(event: Event, game: str = "azul") -> str:
    """One English line per event (the bot has its own translated wording), from the game's text module."""
    who = f"Seat {event.seat}: " if event.seat is not None else ""
    text: str | None = text_module(game).describe(event)
    return who + (text if text is not None else f"{event.kind} {dict(event.data)}")


def play(
    variant: Variant[Any],
    players: int,
    seed: int,
    read: Callable[[str], str],
    out: TextIO,
    *,
    computers: Mapping[int, Agent] | None = None,
) -> int:
    """Hot seat: whoever may act types a move in notation; ``?`` lists the legal moves, ``q`` quits.

    Seats in ``computers`` are played by those agents."""
    computers = computers or {}
    state = variant.new_game(players, seed)
    print(_text_board(state), file=out)
    print(_text_boards(variant).hint(variant), file=out)
    print("'?' for the legal moves, 'b' for the board, 'q' to quit.", file=out)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        if seat in computers:
            move = computers[seat].choose(variant, state, seat)
            print(f"Seat {seat} ({computers[seat].name}) plays {move}", file=out)
            state, events = variant.apply(state, seat, move)
            for event in events:
                print(describe(event), file=out)
            print(_text_board(state), file=out)
            continue
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
        else:
            sub.add_argument(
                "--computer",
                action="append",
                default=[],
                metavar="SEAT=LEVEL",
                help=f"let the computer play a seat (repeatable); levels: {', '.join(AGENT_NAMES)}",
            )
        limits = sub.add_mutually_exclusive_group()
        limits.add_argument("--seconds", type=float, help="the hard level's time per move (default 1)")
        limits.add_argument("--iterations", type=int, help="the hard level's search iterations per move")
    commands.add_parser("variants")
    args = parser.parse_args(argv)
    if args.command == "variants":
        print("\n".join(variant_names()))
        return 0
    budget = {key: value for key in ("seconds", "iterations") if (value := getattr(args, key)) is not None}
    try:
        if args.command == "selfplay":
            print(json.dumps(transcript(args.variant, args.players, args.seed, args.agent, **budget)))
            return 0
        computers = _computers(parser, args.computer, args.players, args.seed, budget)
        return play(get_variant(args.variant), args.players, args.seed, input, sys.stdout, computers=computers)
    except EngineError as error:
        print(t(f"error.{error.key}", "en", **error.params), file=sys.stderr)
        return 2


def _computers(
    parser: argparse.ArgumentParser, specs: list[str], players: int, seed: int, budget: Mapping[str, Any]
) -> dict[int, Agent]:
    """``SEAT=LEVEL`` options as agents by seat; a bad one ends the program with a usage message."""
    computers: dict[int, Agent] = {}
    for spec in specs:
        seat_text, _, level = spec.partition("=")
        if not seat_text.isdecimal() or not 0 <= int(seat_text) < players or level not in AGENT_NAMES:
            parser.error(f"--computer {spec!r}: expected SEAT=LEVEL, seat 0..{players - 1}, level in {AGENT_NAMES}")
        computers[int(seat_text)] = make_agent(level, seed * 8 + int(seat_text), **budget)
    return computers


if __name__ == "__main__":
    raise SystemExit(main())
