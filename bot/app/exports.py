"""A game written out: its JSON transcript (``/azul export``), and a quarantined game's row as stored."""

from __future__ import annotations

import asyncio
from typing import Any

import engine
from bot.app.errors import Refusal
from bot.app.tables import Tables
from bot.infra.store import GameRow, Store
from engine.transcript import export


class Exports:
    """Transcripts and raw records."""

    def __init__(self, store: Store, tables: Tables) -> None:
        self.store = store
        self.tables = tables

    async def raw_record(self, game: GameRow, user_id: int, *, is_admin: bool) -> dict[str, Any]:
        """A quarantined game's row exactly as stored, with its seats and move log: for its creator or an admin."""
        if user_id != game.creator_id and not is_admin:
            raise Refusal("broken_export_creator")
        return {
            "game": game.id,
            "broken": game.broken,
            "row": await self.store.games.raw_game(game.id),
            "seats": [{"user_id": s.user_id, "name": s.name, "seat": s.seat, "level": s.level} for s in game.seats],
            "log": [{"seat": seat, "notation": notation} for seat, notation in await self.store.moves.moves(game.id)],
        }

    async def transcript(self, channel_id: int) -> tuple[GameRow, dict[str, Any]]:
        """The JSON transcript of the game ``/azul board`` shows (running or the last finished one), from its log.

        A finished game's replays from its seed. A running game's holds only what the table has seen (the log, the
        deals as they came, the table now): its seed and generator state would let anyone replay the log a move
        further and read the next deal, and its face-down expansions are face down."""
        game = await self.tables.shown_in(channel_id)
        if game.state is None:
            raise Refusal("not_started")
        moves = await self.store.moves.moves(game.id)
        players = game.by_seat()
        document = await asyncio.to_thread(
            export, game.variant, len(players), game.seed, moves, game.options or None
        )  # replaying a long game takes a moment: keep the event loop free
        if game.status != "over":
            del document["seed"]
            document["state"] = engine.public_json(self.tables.state_of(game))
        resigned = (game.result or {}).get("resigned")
        return game, {
            "game": game.id,
            "names": [seat.name for seat in players],
            "status": game.status,
            "resigned": resigned,
            **document,
            "options": game.options,
            "log": [{"seat": seat, "notation": notation} for seat, notation in moves],
        }
