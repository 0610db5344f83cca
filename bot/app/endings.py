"""How games end or go away: resigning, aborting, games in deleted channels, and forgetting a player."""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime, timedelta

from bot.app.computer import STRONGEST
from bot.app.errors import Refusal
from bot.app.outcomes import AbortVote, Resigned
from bot.app.quotas import Hints
from bot.app.results import Settlement, result_of
from bot.app.tables import Tables
from bot.infra.clock import Clock, iso
from bot.infra.store import GameRow, Store

log = logging.getLogger(__name__)

VOTE_HOURS = 24
"""How long a vote to cancel a running game stays open."""


class Endings:
    """Resigning, aborting, closing games whose place is gone, forgetting a player."""

    def __init__(self, store: Store, tables: Tables, settlement: Settlement, clock: Clock, hints: Hints) -> None:
        self.store = store
        self.tables = tables
        self.settlement = settlement
        self.clock = clock
        self.hints = hints

    async def resign(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, version: int | None = None
    ) -> Resigned:
        """A player gives up. With others still playing (three seats or more, at least one other person and one more
        seat still in) the table plays on: the strongest computer plays the seat to the end and the player ranks
        last. Otherwise the game ends, the others ranked by score and the resigning player last. ``version``: the
        one the player confirmed at (a confirmation button's), refused as stale once the game moved on."""
        game = await self.tables.active(channel_id, game_id, version)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:  # already out: the others play on
            raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
        state = self.tables.state_of(game)
        if self.plays_on_without(game, seat):
            if not await self.store.games.resign_seat(game.id, seat, STRONGEST, game.version):
                raise Refusal("stale" if version is not None else "raced")
            log.info("game %s: seat %s resigned; the computer plays it to the end", game.id, seat)
            return Resigned(await self.tables.changed(game.id), state, seat, ended=False)
        result = result_of(game, state, resigned=[seat])
        if not await self.store.games.finish(game.id, "over", result):
            raise Refusal("raced")
        finished = await self.tables.changed(game.id)
        await self.settlement.settle(finished)
        return Resigned(finished, state, seat, ended=True)

    @staticmethod
    def plays_on_without(game: GameRow, seat: int) -> bool:
        """Whether the table plays on when ``seat`` leaves: three seats or more, and besides it at least two seats
        still in (not dropped), one of them a person's."""
        still_in = [s for s in game.by_seat() if s.seat != seat and not s.dropped]
        return len(game.by_seat()) >= 3 and len(still_in) >= 2 and any(not s.is_computer for s in still_in)

    async def has_begun(self, game: GameRow) -> bool:
        """Whether the game really started: a person's seat has a move in the log (their own, or the computer's for
        them when their time ran out). Until then its creator may cancel it alone."""
        if game.status != "active":
            return False
        players = game.by_seat()
        return any(not players[seat].is_computer for seat in await self.store.moves.move_plies(game.id))

    async def abort_right(self, game: GameRow, user_id: int, *, is_admin: bool) -> str:
        """How ``user_id`` may cancel ``game``: ``alone`` (a server manager; its creator until it really started)
        or by a ``vote`` of everyone still seated (a seated person, once it started); refused otherwise. A league
        game only by a server manager (a cancelled league game counts for nobody: the organisers' call)."""
        if is_admin:
            return "alone"
        if await self.store.leagues.table_of_game(game.id) is not None:
            raise Refusal("league_game_abort")
        begun = await self.has_begun(game)
        if not begun and user_id == game.creator_id:
            return "alone"
        if begun and user_id in self.voters(game):
            return "vote"
        raise Refusal("abort_needs_votes" if begun else "only_creator_aborts")

    async def check_may_abort(self, game: GameRow, user_id: int, *, is_admin: bool) -> None:
        """Refuse unless ``user_id`` may cancel ``game`` alone (see :meth:`abort_right`)."""
        if await self.abort_right(game, user_id, is_admin=is_admin) != "alone":
            raise Refusal("abort_needs_votes")

    async def abort(
        self, channel_id: int, user_id: int, *, is_admin: bool, game_id: int | None = None, version: int | None = None
    ) -> GameRow:
        """Cancel the open game (its creator before it really started, or a server manager). ``game_id`` and
        ``version``: the ones the user confirmed at (a confirmation button's), refused as stale once the game moved
        on or is another one. A quarantined game can still be ended."""
        game = await self.tables.open_in(channel_id, broken_too=True)
        if (game_id is not None and game.id != game_id) or (version is not None and game.version != version):
            raise Refusal("stale")
        await self.check_may_abort(game, user_id, is_admin=is_admin)
        return await self._cancel(game)

    async def cancel(self, game_id: int) -> GameRow | None:
        """Cancel an open game for a reason outside it (its league ended early): no result, no rating. None when it
        was no longer open."""
        game = await self.tables.load(game_id)
        if not game.is_open or not await self.store.games.finish(game.id, "aborted", None):
            return None
        await self.store.timers.clear_abort_votes(game.id)
        return await self.tables.changed(game.id)

    async def _cancel(self, game: GameRow) -> GameRow:
        if not await self.store.games.finish(game.id, "aborted", None):
            raise Refusal("raced")
        await self.store.timers.clear_abort_votes(game.id)
        return await self.tables.changed(game.id)

    @staticmethod
    def voters(game: GameRow) -> list[int]:
        """The people whose agreement cancelling ``game`` takes: everyone seated who has not left it."""
        return [seat.user_id for seat in game.people() if seat.user_id is not None and not seat.dropped]

    async def vote_abort(self, game_id: int, user_id: int, since: datetime | None = None) -> AbortVote:
        """``user_id`` agrees to cancel ``game_id``: a new vote (``since`` None: it begins now), or their agreement
        in the vote that began at ``since`` (refused once :data:`VOTE_HOURS` passed). When everyone still seated
        has agreed, the game is cancelled (no result, no rating)."""
        now = self.clock.now()
        game = await self.tables.load(game_id)
        if not game.is_open:
            raise Refusal("finished" if game.status == "over" else "aborted")
        if user_id not in self.voters(game):
            raise Refusal("abort_vote_not_yours")
        if since is not None and now >= since + timedelta(hours=VOTE_HOURS):
            raise Refusal("abort_vote_expired")
        began = since or now
        await self.store.timers.add_abort_vote(game.id, user_id, iso(now))
        agreed = await self.store.timers.abort_votes(game.id, iso(began))
        if set(self.voters(game)) <= agreed:
            log.info("game %s: cancelled by everyone's agreement", game.id)
            return AbortVote(await self._cancel(game), began, sorted(agreed), cancelled=True)
        return AbortVote(game, began, [user for user in self.voters(game) if user in agreed])

    async def keep_playing(self, game_id: int, user_id: int) -> GameRow:
        """``user_id`` refuses to cancel ``game_id``: the vote is over, and the game goes on."""
        game = await self.tables.load(game_id)
        if not game.is_open:
            raise Refusal("finished" if game.status == "over" else "aborted")
        if user_id not in self.voters(game):
            raise Refusal("abort_vote_not_yours")
        await self.store.timers.clear_abort_votes(game.id)
        return game

    async def close_gone(self, channel_ids: Collection[int] = (), guild_id: int | None = None) -> list[GameRow]:
        """Abort every open game in channels or threads that are gone (deleted, or out of the bot's sight) or in a
        server that removed the bot: nobody can play them any more. Aborted games change no rating; their timers
        go, and they leave everyone's list of games."""
        closed = []
        for game_id in await self.store.games.open_games_in(channel_ids, guild_id):
            if await self.store.games.finish(game_id, "aborted", None):
                closed.append(await self.tables.changed(game_id))
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
