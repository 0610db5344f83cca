"""Which board to post after a move: one per turn (a run's moves and a wall tiling told at once), and the boards a
restart still owes."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import engine
from bot.app import quarantine
from bot.app.outcomes import Turn, Undone
from bot.app.tables import Tables
from bot.infra.store import GameRow, MoveRow, Store, UndoneRow
from engine import GameState


class Boards:
    """The boards to post."""

    def __init__(self, store: Store, tables: Tables) -> None:
        self.store = store
        self.tables = tables

    async def told(self, turn: Turn) -> Turn:
        """What the board after ``turn`` tells: ``turn`` itself, or all the moves of a run since the last posted
        board when earlier ones were held back (:meth:`bot.app.outcomes.Turn.holds_board`), with who waited before the
        first of them."""
        game = turn.game
        if game.version - game.board_version <= turn.plies:
            return turn
        rows = await self.store.moves.move_rows(game.id)
        told = await asyncio.to_thread(self._since_board, game, rows)  # a replay takes a moment
        if told is None or told.plies <= turn.plies:
            return turn
        return replace(turn, before_to_act=told.before_to_act, events=told.events, plies=told.plies)

    async def boards_to_post(self) -> list[tuple[GameRow, GameState, Turn | Undone | None]]:
        """Games whose newest version has no board (the process died before posting it, or the post failed), each
        with the moves that made that version (None for the opening board), so the board says what happened. A
        board held back in the middle of a run is not one of them: the run's next move posts it."""
        missing = []
        for game_id in await self.store.games.without_board():
            game = await self.store.games.game(game_id)
            if game is None or game.state is None or game.board_version >= game.version:
                continue  # gone, or its board was posted since it was listed
            try:
                found = await self._board_to_post(game)
            except Exception as error:
                await quarantine.after_fault(self.store, game.id, error)
                continue
            if found is not None:
                missing.append(found)
        return missing

    async def _board_to_post(self, game: GameRow) -> tuple[GameRow, GameState, Turn | Undone | None] | None:
        undone = await self.store.moves.undone(game.id, game.version - 1)
        rows = await self.store.moves.move_rows(game.id)
        if undone is not None and undone.ply < game.board_version:  # a move on a board was taken back: say so
            moves = [(row.seat, row.notation) for row in rows]
            turn: Turn | Undone | None = await asyncio.to_thread(self._last_undo, game, moves, undone)
        else:
            if undone is not None and all(row.ply < game.board_version for row in rows):
                return None  # a held move was taken back: the board on show is this position
            turn = await asyncio.to_thread(self._since_board, game, rows)  # a replay takes a moment
            if turn is not None and turn.holds_board():
                return None
        return game, self.tables.state_of(game), turn

    @classmethod
    def _since_board(cls, game: GameRow, rows: list[MoveRow]) -> Turn | None:
        """The turn the board of ``game``'s version tells: its last move, or every move since the last posted board
        when they are all of a run's command (its board held back); None before the first move."""
        moves = [(row.seat, row.notation) for row in rows if row.ply < game.version]
        if not moves:
            return None
        unposted = [row for row in rows if game.board_version <= row.ply < game.version]
        run = bool(unposted) and all(
            engine.get_variant(game.variant).is_run(engine.parse_move(game.variant, row.notation).command)
            for row in unposted
        )
        count = len(unposted) if run else 1
        before = Tables.replay(game, moves[:-count])
        state, events = before, []
        for seat, notation in moves[-count:]:
            state, more = engine.apply(state, seat, notation)
            events.extend(more)
        seat, notation = moves[-1]
        to_act = frozenset() if game.status == "over" else engine.to_act(state)
        move = engine.parse_move(game.variant, notation)
        return Turn(game, state, engine.to_act(before), to_act, seat, move, events, plies=count)

    @classmethod
    def _last_undo(cls, game: GameRow, moves: list[tuple[int, str]], undone: UndoneRow) -> Undone:
        restored = Tables.replay(game, moves)
        after, events = engine.apply(restored, undone.seat, undone.notation)
        move = engine.parse_move(game.variant, undone.notation)
        return Undone(game, restored, engine.to_act(after), engine.to_act(restored), undone.seat, move, events)
