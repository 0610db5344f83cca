"""How games end or go away: resigning, aborting, games in deleted channels, and forgetting a player."""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.app.computer import STRONGEST
from bot.app.errors import Refusal
from bot.app.outcomes import Resigned
from bot.app.service_base import ServiceBase
from bot.infra.store import GameRow

log = logging.getLogger(__name__)


class Endings(ServiceBase):
    """Resigning, aborting, closing games whose place is gone, forgetting a player."""

    async def resign(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, version: int | None = None
    ) -> Resigned:
        """A player gives up. With others still playing (three seats or more, at least one other person and one more
        seat still in) the table plays on: the strongest computer plays the seat to the end and the player ranks
        last. Otherwise the game ends, the others ranked by score and the resigning player last. ``version``: the
        one the player confirmed at (a confirmation button's), refused as stale once the game moved on."""
        game = await self.active_game(channel_id, game_id, version)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:  # already out: the others play on
            raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
        state = self.state_of(game)
        if self.plays_on_without(game, seat):
            if not await self.store.games.resign_seat(game.id, seat, STRONGEST, game.version):
                raise Refusal("stale" if version is not None else "raced")
            log.info("game %s: seat %s resigned; the computer plays it to the end", game.id, seat)
            return Resigned(await self._changed(game.id), state, seat, ended=False)
        result = self._result_of(game, state, resigned=[seat])
        if not await self.store.games.finish(game.id, "over", result):
            raise Refusal("raced")
        finished = await self._changed(game.id)
        await self.settle(finished)
        return Resigned(finished, state, seat, ended=True)

    @staticmethod
    def plays_on_without(game: GameRow, seat: int) -> bool:
        """Whether the table plays on when ``seat`` leaves: three seats or more, and besides it at least two seats
        still in (not dropped), one of them a person's."""
        still_in = [s for s in game.by_seat() if s.seat != seat and not s.dropped]
        return len(game.by_seat()) >= 3 and len(still_in) >= 2 and any(not s.is_computer for s in still_in)

    async def check_may_abort(self, game: GameRow, user_id: int, *, is_admin: bool) -> None:
        """Refuse unless ``user_id`` may cancel ``game``: its creator or a server manager; a league game, only a
        server manager (a cancelled league game counts for nobody: the organisers' call)."""
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_aborts")
        if not is_admin and await self.store.leagues.table_of_game(game.id) is not None:
            raise Refusal("league_game_abort")

    async def abort(
        self, channel_id: int, user_id: int, *, is_admin: bool, game_id: int | None = None, version: int | None = None
    ) -> GameRow:
        """Cancel the open game (its creator or a server manager). ``game_id`` and ``version``: the ones the user
        confirmed at (a confirmation button's), refused as stale once the game moved on or is another one. A
        quarantined game can still be ended."""
        game = await self.open_game(channel_id, broken_too=True)
        if (game_id is not None and game.id != game_id) or (version is not None and game.version != version):
            raise Refusal("stale")
        await self.check_may_abort(game, user_id, is_admin=is_admin)
        if not await self.store.games.finish(game.id, "aborted", None):
            raise Refusal("raced")
        return await self._changed(game.id)

    async def open_game_channels(self) -> list[int]:
        """Every server channel or thread that holds an open game."""
        return await self.store.games.open_game_channels()

    async def close_gone(self, channel_ids: Collection[int] = (), guild_id: int | None = None) -> list[GameRow]:
        """Abort every open game in channels or threads that are gone (deleted, or out of the bot's sight) or in a
        server that removed the bot: nobody can play them any more. Aborted games change no rating; their timers
        go, and they leave everyone's list of games."""
        closed = []
        for game_id in await self.store.games.open_games_in(channel_ids, guild_id):
            if await self.store.games.finish(game_id, "aborted", None):
                closed.append(await self._changed(game_id))
        return closed

    async def check_forgettable(self, user_id: int) -> None:
        """Refuse to forget a person who sits in an open game: those games still need their seat."""
        if await self.store.games.open_games_of(user_id):
            raise Refusal("forget_open_games")

    async def forget(self, user_id: int, shown_as: str) -> int:
        """Erase what the bot keeps about ``user_id`` (see :meth:`Users.forget_user`); how many games they played."""
        played = await self.store.users.forget_user(user_id, shown_as)
        if played is None:
            raise Refusal("forget_open_games")
        self.hints.forget(user_id)
        log.info("erased a person's data on their request (%d finished games anonymised)", played)
        return played
