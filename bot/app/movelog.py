"""Moves in words: ``/azul log`` (the last twenty moves, with round separators) and "since your last turn" in a
turn notice (every move since the player's own last one, collapsed to a count when there are many).

A move's words are its events as the game's adapter tells them, the same line its own board post had. Events are
not stored: the log is replayed from the game's seed (in a worker thread: a long game takes a moment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import engine
from bot.app.language import text
from bot.app.narration import shown_names
from bot.games import adapter_of
from bot.infra.store import GameRow, MoveRow
from engine import Event

LOG_MOVES = 20
"""Moves ``/azul log`` shows."""
SINCE_LINES = 8
"""Moves a turn notice tells one by one; beyond that it gives their number."""
MESSAGE_LIMIT = 2000


class MoveLog(Protocol):
    """A game's move log (the store's moves)."""

    async def moves(self, game_id: int) -> list[tuple[int, str]]: ...

    async def move_rows(self, game_id: int) -> list[MoveRow]: ...

    async def rows_since_own(self, game_id: int, seat: int) -> list[MoveRow]: ...


@dataclass(frozen=True, slots=True)
class Told:
    """One move of the log with what it did: its ply, who made it, the round it was made in, and its events."""

    ply: int
    seat: int
    round: int
    notation: str
    events: Sequence[Event]


def replay_told(game: GameRow, rows: Sequence[MoveRow], first_ply: int) -> list[Told]:
    """The moves from ``first_ply`` on, with their events, by replaying the whole log (run it in a thread)."""
    state = engine.new_game(game.variant, len(game.by_seat()), game.seed, game.options or None)
    told = []
    for row in rows:
        round_number = engine.variant_of(state).round_number(state)
        state, events = engine.apply(state, row.seat, row.notation)
        if row.ply >= first_ply:
            told.append(Told(row.ply, row.seat, round_number, row.notation, events))
    return told


async def last_moves(store: MoveLog, game: GameRow, count: int) -> list[Told]:
    """The last ``count`` moves of ``game`` with their events."""
    rows = await store.move_rows(game.id)
    if not rows:
        return []
    return await asyncio.to_thread(replay_told, game, rows, rows[-count:][0].ply)


def move_line(game: GameRow, told: Told, names: Sequence[str], locale: str) -> str:
    said = adapter_of(game.variant).describe(told.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[told.seat], move=told.notation)


async def log_text(store: MoveLog, game: GameRow, locale: str) -> str:
    """The last :data:`LOG_MOVES` moves of ``game`` in words, a line per move and a heading per round (the oldest
    dropped first when they would not fit in one message)."""
    told = await last_moves(store, game, LOG_MOVES)
    names = shown_names(game, locale)
    blocks: list[list[str]] = []
    current = None
    for move in told:
        lines = [move_line(game, move, names, locale)]
        if move.round != current:
            current = move.round
            lines.insert(0, text("bot.log.round", locale, round=move.round))
        blocks.append(lines)
    title = text("bot.log.title", locale, game=game.id, count=len(told))
    if not told:
        return text("bot.log.empty", locale, game=game.id)
    while blocks and len(title) + sum(len(line) + 1 for block in blocks for line in block) > MESSAGE_LIMIT:
        dropped = blocks.pop(0)
        if blocks and not blocks[0][0].startswith("**") and dropped[0].startswith("**"):
            blocks[0].insert(0, dropped[0])  # keep the round's heading with what is left of it
    return "\n".join([title, *(line for block in blocks for line in block)])


async def since_lines(store: MoveLog, game: GameRow, seat: int, locale: str, *, skip_last: bool = False) -> list[str]:
    """Every move made since ``seat``'s own last move, in words (all moves so far when they have not moved yet);
    ``skip_last``: leave out the newest one (the post that carries these lines tells it already). Beyond
    :data:`SINCE_LINES` moves, one line gives their number instead."""
    since = await store.rows_since_own(game.id, seat)  # the whole log only when there is something to tell
    if skip_last:
        since = since[:-1]
    if not since:
        return []
    if len(since) > SINCE_LINES:
        return [text("bot.since.many", locale, count=len(since))]
    last, rows = since[-1].ply, await store.move_rows(game.id)
    told = [move for move in await asyncio.to_thread(replay_told, game, rows, since[0].ply) if move.ply <= last]
    names = shown_names(game, locale)
    return [text("bot.since.title", locale), *(f"• {move_line(game, move, names, locale)}" for move in told)]


__all__ = ["LOG_MOVES", "SINCE_LINES", "Told", "last_moves", "log_text", "move_line", "replay_told", "since_lines"]
