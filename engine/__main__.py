"""The engine's command line: a terminal hot-seat game and self-play transcripts.

    python -m engine play azul --players 2 --seed 7
    python -m engine selfplay azul-grey --players 3 --seed 1 --agent greedy > game.json
    python -m engine variants

``selfplay`` prints one JSON transcript of a whole game; :func:`export` builds the same from a stored move log (the
bot's game export). Both use the generic API only, so any game of the family plugs in if it emits these events:
- ``round_started`` at the start of every round, the first one included (from ``Variant.opening_events``); its data
  is copied into the round's entry and should say at least ``round``, ``start_seat`` and what was dealt;
- for each move, an event whose ``kind`` is the move's ``command`` and whose ``seat`` is the mover: its data is
  copied into the move's entry next to ``seat`` and ``notation`` (without such an event the move's choices are);
- ``round_scored`` with ``scores`` after the round; ``game_over`` with ``standings`` at the end.

This module alone in ``engine/`` may read the locale catalogue: ``play`` explains refused moves in words.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from data.i18n import t
from engine import EngineError, Event, Variant, get_variant, variant_names
from engine.agents import AGENT_NAMES, make_agent


# --- self-play transcripts --------------------------------------------------------------------------------------
def _move_entry(seat: int, move: Any, events: list[Event]) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "notation": str(move), "command": move.command}
    described = next((e for e in events if e.kind == move.command and e.seat == seat), None)
    if described is not None:
        entry.update(described.data)
    else:
        entry["choices"] = dict(move.choices())
    return entry


class Recorder:
    """Builds a transcript while a game is played: feed it every move with the events ``apply`` returned."""

    def __init__(self, variant: Variant[Any], state: Any) -> None:
        self.variant = variant
        self.rounds: list[dict[str, Any]] = []
        self.moves = 0
        self._absorb(variant.opening_events(state))

    def _absorb(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "round_started":
                self.rounds.append({**event.data, "moves": []})
            elif event.kind == "round_scored" and self.rounds:
                self.rounds[-1]["scores"] = list(event.data["scores"])

    def record(self, seat: int, move: Any, events: list[Event]) -> None:
        if not self.rounds:
            self.rounds.append({"moves": []})
        self.rounds[-1]["moves"].append(_move_entry(seat, move, events))
        self._absorb(events)
        self.moves += 1

    def result(self, state: Any, **head: Any) -> dict[str, Any]:
        """The transcript; ``winners`` is empty while the game is not over."""
        over = self.variant.is_over(state)
        standings = self.variant.standings(state)
        return {
            "variant": self.variant.name,
            "players": len(self.variant.scores(state)),
            **head,
            "rounds": self.rounds,
            "moves": self.moves,
            "finished": over,
            "final_scores": self.variant.scores(state),
            "standings": standings,
            "winners": standings[0] if over else [],
        }


def transcript(variant_name: str, players: int, seed: int, agent: str = "random") -> dict[str, Any]:
    """Play a whole game with ``agent`` in every seat and describe it round by round."""
    variant = get_variant(variant_name)
    state = variant.new_game(players, seed)
    agents = [make_agent(agent, seed * 8 + seat) for seat in range(players)]
    recorder = Recorder(variant, state)
    while not variant.is_over(state):
        seat = min(variant.to_act(state))
        move = agents[seat].choose(variant, state, seat)
        state, events = variant.apply(state, seat, move)
        recorder.record(seat, move, events)
    return recorder.result(state, seed=seed, agent=agent)


def export(
    variant_name: str,
    players: int,
    seed: int,
    log: list[tuple[int, str]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The transcript of a logged game, finished or not (``(seat, notation)`` pairs): the bot's game export."""
    variant = get_variant(variant_name)
    state = variant.new_game(players, seed, options)
    recorder = Recorder(variant, state)
    for seat, notation in log:
        move = variant.parse_move(notation)
        state, events = variant.apply(state, seat, move)
        recorder.record(seat, move, events)
    return recorder.result(state, seed=seed)


# --- the terminal game ------------------------------------------------------------------------------------------
def _text_board(state: Any) -> str:
    if getattr(state, "variant", "").startswith("azul"):
        from engine.text import render

        return render(state)
    return json.dumps(get_variant(state.variant).to_json(state))


def describe(event: Event) -> str:
    """One English line per event (the bot has its own translated wording)."""
    d = event.data
    who = f"Seat {event.seat}: " if event.seat is not None else ""
    texts: dict[str, Callable[[], str]] = {
        "take": lambda: (
            f"took {d['count']} {_color(d['color'])} from {_source(d['source'])} to line {d['line']}"
            f" ({d['to_line']} on the line, {d['to_floor']} to the floor, {d['to_lid']} to the lid)"
            + (", and the starting marker" if d["marker"] else "")
        ),
        "wall": lambda: f"tile on wall row {d['row'] + 1}, column {d['col'] + 1}: {d['points']} points",
        "line_to_floor": lambda: f"line {d['row'] + 1} has no free column: {d['count']} tiles to the floor",
        "choose_columns": lambda: f"now choosing columns: seats {', '.join(map(str, d['seats']))}",
        "floor_penalty": lambda: f"floor penalty {d['applied']} ({d['tiles']} tiles)",
        "round_scored": lambda: f"round {d['round']} scored: {d['scores']}",
        "round_started": lambda: f"round {d['round']} starts with seat {d['start_seat']}",
        "bonus": lambda: f"bonus {d['points']} ({d['rows']} rows, {d['columns']} columns, {d['colors']} colours)",
        "game_over": lambda: f"game over: scores {d['scores']}, winners {d['standings'][0]}",
    }
    text = texts[event.kind]() if event.kind in texts else f"{event.kind} {dict(d)}"
    return who + text


def _color(color: Any) -> str:
    from engine.azul import COLORS

    return COLORS[color] if isinstance(color, int) and 0 <= color < len(COLORS) else str(color)


def _source(source: Any) -> str:
    return "the centre" if source == "centre" else f"factory {int(source) + 1}"


def play(variant: Variant[Any], players: int, seed: int, read: Callable[[str], str], out: TextIO) -> int:
    """Hot seat: whoever may act types a move in notation; ``?`` lists the legal moves, ``q`` quits."""
    state = variant.new_game(players, seed)
    print(_text_board(state), file=out)
    print(
        "Type a move (e.g. 3b4: factory 3, blue, to line 4; cr5: centre; 1kF: floor; L3C2: grey wall column),", file=out
    )
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
            print(describe(event), file=out)
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
