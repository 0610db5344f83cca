"""A fourth game that exists only in the tests: Pebbles, a two-pile Nim for two players.

Players take turns picking 1 to 3 pebbles from one pile; whoever picks the last pebble wins. It is everything a game
must provide to the bot, and nothing more: its rules (an :class:`engine.Variant`), its words (a
:class:`bot.games.GameAdapter`) and its pictures (a :class:`render.Renderer`), registered from here with
:func:`register` and taken away again with :func:`unregister`. Its ``pile`` option declares a preview: the Play
picker's pile step shows a picture of the candidate piles, drawn by :func:`draw_preview`.

Its texts are the adapter's own (English only); its name and rules are missing, so the bot shows its variant's name:
a real game puts them in ``data/locale`` (see :mod:`bot.games`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

import bot.games
import engine
import render
from bot.games import GameAdapter
from engine import JSON, BadNotation, BadState, Event, IllegalMove, MoveCommand, NotYourTurn, Variant
from render.base import Info, Renderer
from render.common import Box

GAME = "pebbles"
START = (4, 3)
MOST = 3
"""The most pebbles one move picks."""


@dataclass(frozen=True)
class PebblesState:
    variant: str
    piles: tuple[int, ...]
    turn: int
    winner: int | None = None


@dataclass(frozen=True)
class Pick:
    pile: int
    count: int

    @property
    def command(self) -> str:
        return "pick"

    def choices(self) -> tuple[tuple[str, str], ...]:
        return (("pile", str(self.pile)), ("count", str(self.count)))

    def __str__(self) -> str:
        return f"pick {self.pile} {self.count}"


class Pebbles(Variant[PebblesState]):
    name = GAME
    game = GAME
    title = "Pebbles"
    min_players = 2
    max_players = 2
    commands = (MoveCommand("pick", ("pile", "count"), previews=("pile",)),)

    def new_game(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> PebblesState:
        if players != 2:
            raise engine.BadOptions("players_out_of_range", players=players, min=2, max=2)
        return PebblesState(self.name, START, turn=seed % 2)

    def parse_move(self, text: str) -> Pick:
        command, *tokens = text.split()
        if command != "pick" or len(tokens) != 2:
            raise BadNotation("bad_move", text=text)
        return self.move_from_choices(command, dict(zip(("pile", "count"), tokens, strict=True)))

    def move_from_choices(self, command: str, choices: Mapping[str, str]) -> Pick:
        try:
            return Pick(int(choices["pile"]), int(choices.get("count", "1")))
        except (KeyError, ValueError):
            raise BadNotation("bad_move", text=str(dict(choices))) from None

    def to_act(self, state: PebblesState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_moves(self, state: PebblesState, seat: int) -> list[engine.Move]:
        if seat not in self.to_act(state):
            return []
        return [
            Pick(pile, count)
            for pile, left in enumerate(state.piles, start=1)
            for count in range(1, min(left, MOST) + 1)
        ]

    def apply(self, state: PebblesState, seat: int, move: engine.Move) -> tuple[PebblesState, list[Event]]:
        if seat not in self.to_act(state):
            raise NotYourTurn("not_your_turn")
        if not isinstance(move, Pick) or move not in self.legal_moves(state, seat):
            raise IllegalMove("illegal_move", move=str(move))
        piles = list(state.piles)
        piles[move.pile - 1] -= move.count
        events = [Event("pick", seat, {"pile": move.pile, "count": move.count, "left": piles[move.pile - 1]})]
        winner = seat if not any(piles) else None
        if winner is not None:
            events.append(Event("game_over", None, {"winner": seat}))
        return replace(state, piles=tuple(piles), turn=1 - seat, winner=winner), events

    def is_over(self, state: PebblesState) -> bool:
        return state.winner is not None

    def scores(self, state: PebblesState) -> list[int]:
        return [int(state.winner == seat) for seat in range(2)]

    def standings(self, state: PebblesState) -> list[list[int]]:
        if state.winner is None:
            return [[0, 1]]
        return [[state.winner], [1 - state.winner]]

    def round_number(self, state: PebblesState) -> int:
        return 1

    def heuristic(self, state: PebblesState, seat: int) -> float:
        return float(self.scores(state)[seat])

    def to_json(self, state: PebblesState) -> dict[str, JSON]:
        return {"variant": state.variant, "piles": list(state.piles), "turn": state.turn, "winner": state.winner}

    def from_json(self, raw: Mapping[str, JSON]) -> PebblesState:
        piles, turn, winner = raw.get("piles"), raw.get("turn"), raw.get("winner")
        if not isinstance(piles, list) or not all(isinstance(p, int) and p >= 0 for p in piles) or turn not in (0, 1):
            raise BadState("bad_state", reason="piles and turn")
        if winner not in (None, 0, 1):
            raise BadState("bad_state", reason="winner")
        return PebblesState(self.name, tuple(piles), int(turn), winner if isinstance(winner, int) else None)


class PebblesAdapter(GameAdapter[PebblesState]):
    game = GAME

    def command_label(self, command: str, locale: str | None) -> str:
        return "Pick pebbles"

    def option_label(self, option: str, locale: str | None) -> str:
        return {"pile": "pile", "count": "number"}[option]

    def label(
        self, state: PebblesState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        if option == "pile" and token.isdigit():
            return f"Pile {token} ({state.piles[int(token) - 1]} left)"
        return f"{token} pebble" + ("" if token == "1" else "s")

    def preview_note(self, command: str, locale: str | None) -> str:
        return "The picture shows each pile under its number."

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        said = []
        for event in events:
            if event.kind == "pick" and event.seat is not None:
                data = event.data
                said.append(f"{names[event.seat]} picks {data['count']} from pile {data['pile']} ({data['left']} left)")
        return " · ".join(said)


# --- its pictures ------------------------------------------------------------------------------------------------
WIDTH, ROW = 360, 60
BACKGROUND, STONE, INK = (34, 40, 52), (180, 170, 150), (240, 240, 240)


def draw_table(
    state: PebblesState,
    *,
    names: Sequence[str],
    events: Sequence[Event],
    locale: str,
    info: Info = (),
    seats: Collection[int] | None = None,
) -> Image.Image:
    """The piles, one row each, and who is to move."""
    image = Image.new("RGB", (WIDTH, ROW * (len(state.piles) + 1)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, left in enumerate(state.piles):
        for pebble in range(left):
            x, y = 20 + pebble * 40, row * ROW + 15
            draw.ellipse((x, y, x + 30, y + 30), fill=STONE)
    mover = names[state.turn] if state.winner is None and state.turn < len(names) else ""
    draw.text((20, ROW * len(state.piles) + 20), mover, fill=INK)
    return image


def closeup_regions(state: PebblesState, seat: int) -> tuple[list[Box], Box]:
    height = ROW * len(state.piles)
    return [(0, 0, WIDTH, height)], (0, height, WIDTH, height + ROW)


def draw_preview(
    state: PebblesState,
    seat: int,
    candidates: Sequence[tuple[str, engine.Move]],
    *,
    names: Sequence[str],
    locale: str,
) -> Image.Image:
    """The piles, each candidate's mark written beside the pile it picks from."""
    image = draw_table(state, names=names, events=(), locale=locale)
    draw = ImageDraw.Draw(image)
    for mark, move in candidates:
        if isinstance(move, Pick):
            draw.text((WIDTH - 40, (move.pile - 1) * ROW + 20), mark, fill=INK)
    return image


VARIANT = Pebbles()
ADAPTER = PebblesAdapter()
RENDERER = Renderer(game=GAME, draw_table=draw_table, closeup_regions=closeup_regions, draw_preview=draw_preview)


def register() -> None:
    """Make Pebbles a game like the others (before a bot is made: its commands come from the registry then)."""
    engine.register(VARIANT)
    bot.games.register(ADAPTER)
    render.register(RENDERER)


def unregister() -> None:
    engine.unregister(VARIANT.name)
    bot.games.unregister(GAME)
    render.unregister(GAME)
