"""The one place a game row is loaded and refused: by its id, by its channel, the one a command or button acts on,
and the game a channel shows; a row found damaged is quarantined here and refused (:mod:`bot.app.quarantine`).
Writes go through the store's guarded methods (each with the game's version); :meth:`Tables.changed` reads the row a
change saved, with its timers made to match who waits now.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from bot.app import quarantine
from bot.app.errors import Refusal
from bot.app.timers import Timers
from bot.infra.store import GameRow, Store
from engine import GameState

POSITIONS_KEPT = 256
"""Games whose newest position is kept (those being played now; the least recently used is dropped first)."""


class Tables:
    """Loading a game row, and refusing one that cannot be played."""

    def __init__(self, store: Store, timers: Timers) -> None:
        self.store = store
        self.timers = timers
        self._positions: OrderedDict[int, tuple[Mapping[str, Any], GameState]] = OrderedDict()
        """Each game's newest position this process read or made, with the snapshot it is (:meth:`keep`): reading a
        snapshot costs the event loop 0.1 ms (two-player Azul) to 0.3 ms, comparing it with the one kept a hundredth
        of that, and a move reads the position its game's last move made. States are never changed in place."""

    def state_of(self, game: GameRow) -> GameState:
        """The game's position, from its saved snapshot (refused before it started)."""
        if game.state is None:
            raise Refusal("not_started")
        return self._kept(game) or self.keep(game.id, game.state, engine.from_json(game.state))

    def keep(self, game_id: int, snapshot: Mapping[str, Any], state: GameState) -> GameState:
        """Remember ``state`` as ``game_id``'s position while its row holds ``snapshot`` (a move's new position)."""
        self._positions[game_id] = (snapshot, state)
        self._positions.move_to_end(game_id)
        while len(self._positions) > POSITIONS_KEPT:
            self._positions.popitem(last=False)
        return state

    def _kept(self, game: GameRow) -> GameState | None:
        """The kept position of ``game`` when its row holds the very snapshot it was kept with."""
        kept = self._positions.get(game.id)
        if kept is None or game.state is None or (kept[0] is not game.state and kept[0] != game.state):
            return None
        return kept[1]

    @staticmethod
    def replay(game: GameRow, moves: Sequence[tuple[int, str]]) -> GameState:
        """The position ``moves`` reach from ``game``'s deal (a replay takes a moment: call it off the event loop)."""
        return engine.replay(game.variant, len(game.by_seat()), game.seed, list(moves), game.options or None)

    # --- by id ---------------------------------------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id``, whatever its status; None when there is none."""
        return await self.store.games.game(game_id)

    async def load(self, game_id: int) -> GameRow:
        """The game ``game_id``, or ``no_game``."""
        game = await self.store.games.game(game_id)
        if game is None:
            raise Refusal("no_game")
        return game

    async def changed(self, game_id: int) -> GameRow:
        """The game as saved after a change, with its timers made to match who is waiting now."""
        game = await self.load(game_id)
        await self.timers.sync(game)
        return game

    # --- by channel ----------------------------------------------------------------------------------------------
    async def latest_in(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, whatever its status (the one a channel's commands speak of)."""
        return await self.store.games.latest_game_in(channel_id)

    async def open_in(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The channel's open game; a quarantined one only for ``broken_too`` (abort and export), else refused."""
        game = await self.store.games.open_game_in(channel_id)
        if game is None:
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def shown_in(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The game ``/azul board`` and ``status`` describe: the open one (here, or in the thread it moved to from
        here), else the last one that was played out."""
        game = (
            await self.store.games.open_game_in(channel_id)
            or await self.store.games.open_game_from(channel_id)
            or await self.store.games.latest_game_in(channel_id)
        )
        if game is None or game.status == "aborted":
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def active(self, channel_id: int, game_id: int | None = None, version: int | None = None) -> GameRow:
        """The running game of the channel (``game_id``: the one a button names, read by its id alone: a channel
        holds one open game, so the named one, open and there, is it), or why not."""
        named = await self.store.games.game(game_id) if game_id is not None else None
        if named is not None and named.channel_id == channel_id:
            if not named.is_open:  # a button's game is over: say so
                raise Refusal("finished" if named.status == "over" else "aborted")
            await self.refuse_broken(named)
            game = named
        else:
            game = await self.open_in(channel_id)
            if game_id is not None and game.id != game_id:
                raise Refusal("stale")
        if game.status == "lobby":  # how full it is, and who starts it
            raise Refusal(
                "not_started_lobby", seats=len(game.seats), max=game.max_seats, creator=f"<@{game.creator_id}>"
            )
        if game.status != "active":
            raise Refusal("not_started")
        if version is not None and game.version != version:
            raise Refusal("stale")
        return game

    async def lobby(self, channel_id: int, game_id: int | None) -> GameRow:
        """The channel's lobby (``game_id``: the one a button names), or why it cannot be joined or started."""
        game = await self.open_in(channel_id)
        if game_id is not None and game.id != game_id:
            raise Refusal("stale_lobby")
        if game.status != "lobby":
            raise Refusal("already_started")
        return game

    async def undoable_in(self, channel_id: int, game_id: int | None) -> GameRow:
        """The running game a move would be taken back in; a finished one is refused as such."""
        game = await self.store.games.open_game_in(channel_id)
        if game is None or (game_id is not None and game.id != game_id):
            latest = (
                await self.store.games.game(game_id)
                if game_id is not None
                else await self.store.games.latest_game_in(channel_id)
            )
            if latest is not None and latest.channel_id == channel_id and latest.status == "over":
                raise Refusal("undo_game_over")
            raise Refusal("no_game" if game is None else "undo_moved_on")
        if game.status != "active":
            raise Refusal("not_started")
        return game

    # --- a player's ----------------------------------------------------------------------------------------------
    async def open_games_of(self, user_id: int) -> list[GameRow]:
        """The user's open games that can be played; one found damaged now is quarantined at once (and then is among
        :meth:`damaged_games_of`)."""
        sound = []
        for game in await self.store.games.open_games_of(user_id):
            why = quarantine.diagnose(game)
            if why is None:
                sound.append(game)
            else:
                await quarantine.quarantine(self.store, game, why)
        return sound

    async def damaged_games_of(self, user_id: int) -> list[GameRow]:
        """The user's open games that are quarantined: not listed with the others, but named to them."""
        return await self.store.games.broken_games_of(user_id)

    # --- refusing --------------------------------------------------------------------------------------------------
    async def refuse_broken(self, game: GameRow) -> None:
        """Refuse to act on a quarantined game (:mod:`bot.app.quarantine`), quarantining it if it has just turned out to
        be broken."""
        if not game.broken and self._kept(game) is not None:
            return  # the engine made or read this very snapshot already
        why, state = quarantine.examine(game)
        if why is None:
            if state is not None and game.state is not None:
                self.keep(game.id, game.state, state)
            return
        # Marked in the store (and logged) once, whether the row was found damaged now or before: a row read just now
        # carries why it cannot be read, but is not marked yet.
        await quarantine.quarantine(self.store, game, why)
        raise Refusal("game_broken", game=game.id)

    async def replayed(self, game: GameRow) -> GameState:
        """The state reached by replaying the whole move log: must equal the snapshot."""
        return self.replay(game, await self.store.moves.moves(game.id))
