"""Lobbies and seats: a game created, joined, left, filled with computers, started, and its rematch."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import engine
from bot.app.computer import DEFAULT_THINKING, LEVELS
from bot.app.errors import Refusal
from bot.app.settings import Settings, check_limit, check_thinking
from bot.app.tables import Tables
from bot.infra.store import CapReached, Conflict, GameRow, SeatCaps, Store
from engine import GameState
from engine.core import Rng

log = logging.getLogger(__name__)
T = TypeVar("T")


def seat_order(seed: int, players: int) -> list[int]:
    """A random seat order drawn from the game's seed (so it is reproducible from the stored game)."""
    order = list(range(players))
    Rng(seed ^ 0x5EA7).shuffle(order)
    return order


async def capped_by(key: str, write: Awaitable[T]) -> T:
    """The store's ``write``, with a full cap said in words: ``key`` names the member's cap (their own seat, or a
    computer seat counted as its creator's)."""
    try:
        return await write
    except CapReached as full:
        raise Refusal("server_games" if full.cap == "server" else key, limit=full.limit) from None


class Seating:
    """Lobbies and seats."""

    def __init__(self, store: Store, tables: Tables, settings: Settings, seed_source: Callable[[], int]) -> None:
        self.store = store
        self.tables = tables
        self.settings = settings
        self._seed_source = seed_source

    async def _caps(self, guild_id: int | None, user_id: int, *, new_game: bool = False, seats: int = 1) -> SeatCaps:
        """The caps ``seats`` more seats of ``user_id`` must fit under (a new game also under the server's)."""
        caps = await self.settings.game_caps(guild_id)
        return SeatCaps(user_id, caps.member, caps.server if new_game else None, seats)

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        variant: str,
        seats: int,
        order: str = "random",
        hints: bool = False,
        rated: bool | None = None,
        undo: bool = True,
        time_limit_hours: int | None = None,
        on_timeout: str | None = None,
        thread: bool | None = None,
        thinking: int | None = None,
        capped: bool = True,
    ) -> GameRow:
        """Open a lobby; a time limit, timeout action, thread choice or thinking time not given is the server's
        default. A league's game is not ``capped`` (leagues outrank the caps on open games)."""
        spec = engine.get_variant(variant)
        if not spec.min_players <= seats <= spec.max_players:
            raise Refusal("bad_seats", min=spec.min_players, max=spec.max_players)
        if order not in ("random", "joined"):
            raise Refusal("bad_order")
        if rated and hints:
            raise Refusal("rated_hints")  # a hint is the strongest computer's move: no rating can rest on it
        default_limit, default_action = await self.store.servers.server_defaults(guild_id)
        limit = default_limit if time_limit_hours is None else time_limit_hours
        action = on_timeout or default_action
        check_limit(limit, action)
        thinking = thinking or await self.store.servers.server_thinking(guild_id) or DEFAULT_THINKING
        check_thinking(thinking)
        if await self.store.games.open_game_in(channel_id) is not None:
            raise Refusal("channel_busy")
        caps = await self._caps(guild_id, user_id, new_game=True) if capped else None
        created = self.store.games.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            variant=variant,
            options={},
            seed=self._seed_source(),
            max_seats=seats,
            seat_order=order,
            hints=hints,
            rated=rated,
            undo=undo,
            time_limit_hours=limit,
            on_timeout=action,
            thread=await self.store.servers.server_threads(guild_id) if thread is None else thread,
            thinking=thinking,
            caps=caps,
        )
        game_id = await capped_by("member_games", created)
        if game_id is None:
            raise Refusal("channel_busy")
        return await self.tables.load(game_id)

    async def _lobby(self, channel_id: int, game_id: int | None) -> GameRow:
        game = await self.tables.open_in(channel_id)
        if game_id is not None and game.id != game_id:
            raise Refusal("stale_lobby")
        if game.status != "lobby":
            raise Refusal("already_started")
        return game

    async def join(
        self, channel_id: int, user_id: int, name: str, game_id: int | None = None, *, capped: bool = True
    ) -> GameRow:
        """Take a seat in the lobby: the seat count and the caps are checked in the transaction that takes it, so
        simultaneous joins never overfill it."""
        game = await self.tables.lobby(channel_id, game_id)
        if game.has_player(user_id):
            raise Refusal("already_joined")
        if len(game.seats) >= game.max_seats:
            raise Refusal("full")
        caps = await self._caps(game.guild_id, user_id) if capped else None
        try:
            seated = await capped_by(
                "member_games", self.store.games.add_seat(game.id, user_id, name, game.max_seats, caps)
            )
        except Conflict:
            raise Refusal("already_joined") from None
        if not seated:
            raise Refusal("full")
        return await self.tables.load(game.id)

    async def leave(self, channel_id: int, user_id: int, game_id: int | None = None) -> GameRow:
        """Leave a lobby; a leaving creator hands the lobby to the next player, and the last one closes it."""
        game = await self.tables.lobby(channel_id, game_id)
        if not game.has_player(user_id):
            raise Refusal("not_in_lobby")
        await self.store.games.remove_seat(game.id, user_id)
        others = [seat.user_id for seat in game.people() if seat.user_id != user_id]
        if not others:  # computer seats alone do not keep a lobby open
            await self.store.games.finish(game.id, "aborted", None)
        elif user_id == game.creator_id and others[0] is not None:
            await self.store.games.set_creator(game.id, others[0])
        return await self.tables.load(game.id)

    async def add_computer(
        self,
        channel_id: int,
        user_id: int,
        level: str,
        *,
        is_admin: bool,
        game_id: int | None = None,
        capped: bool = True,
    ) -> GameRow:
        """The creator seats a computer player of ``level`` in the lobby (a game may be all computers but one)."""
        game = await self.tables.lobby(channel_id, game_id)
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_adds_computer")
        if level not in LEVELS:
            raise Refusal("bad_level")
        if len(game.seats) >= game.max_seats:
            raise Refusal("full")
        caps = await self._caps(game.guild_id, game.creator_id) if capped else None
        key = "member_games" if user_id == game.creator_id else "creator_games"
        added = self.store.games.add_computer_seat(game.id, f"Computer ({level})", level, game.max_seats, caps)
        if not await capped_by(key, added):
            raise Refusal("full")
        return await self.tables.load(game.id)

    async def start(
        self, channel_id: int, user_id: int, *, is_admin: bool, game_id: int | None = None
    ) -> tuple[GameRow, GameState]:
        game = await self.tables.lobby(channel_id, game_id)
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_starts")
        players = len(game.seats)
        spec = engine.get_variant(game.variant)
        if players < max(2, spec.min_players):
            raise Refusal("too_few_players", min=max(2, spec.min_players))
        order = seat_order(game.seed, players) if game.seat_order == "random" else list(range(players))
        seat_by_joined = {seat.joined: order[index] for index, seat in enumerate(game.seats)}
        state = engine.new_game(game.variant, players, game.seed, game.options or None)
        if not await self.store.games.start_game(game.id, seat_by_joined, engine.to_json(state)):
            raise Refusal("already_started")
        return await self.tables.changed(game.id), state

    async def rematch(self, game_id: int, channel_id: int, user_id: int, name: str) -> tuple[GameRow, list[int]]:
        """A lobby for a rematch of the finished ``game_id``, opened by ``user_id`` (one of its people): the same
        variant, settings and seat count, its opener seated with the computer seats at the same levels, and the other
        people invited rather than seated (each joins if they want to play again; who resigned is not invited). A
        league game has none: its league pairs the players, and a friendly game in its thread would pass for one.
        Returns the lobby and the people invited, for its post to ping."""
        old = await self.store.games.game(game_id)
        if old is None or channel_id not in (old.channel_id, old.lobby_channel_id) or old.status != "over":
            raise Refusal("no_such_game", game=game_id)
        if await self.store.leagues.table_of_game(game_id) is not None:  # its league pairs its players again
            raise Refusal("rematch_league", game=game_id)
        channel_id = old.lobby_channel_id or old.channel_id  # a game played in a thread had its lobby outside
        if old.seat_of(user_id) is None:
            raise Refusal("rematch_not_player", game=game_id)
        if await self.store.games.open_game_in(channel_id) is not None:
            raise Refusal("channel_busy")
        players = old.by_seat()
        computers = [(None, seat.name, seat.level) for seat in players if seat.user_id is None]
        created = self.store.games.create_game(
            guild_id=old.guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            variant=old.variant,
            options=old.options,
            seed=self._seed_source(),
            max_seats=len(players),
            seat_order=old.seat_order,
            hints=old.hints,
            rated=old.rated,
            undo=old.undo,
            time_limit_hours=old.time_limit_hours,
            on_timeout=old.on_timeout,
            thread=old.thread,
            thinking=old.thinking,
            caps=await self._caps(old.guild_id, user_id, new_game=True, seats=1 + len(computers)),
        )
        new_id = await capped_by("member_games", created)
        if new_id is None:
            raise Refusal("channel_busy")
        if computers:
            await self.store.games.seat_lobby(new_id, [(user_id, name, None), *computers])
        left = {*old.resigned_seats(), (old.result or {}).get("resigned")}  # who resigned, the last one too
        invited = [seat.user_id for seat in players if seat.user_id not in (None, user_id) and seat.seat not in left]
        log.info("game %s: rematch of game %s opened by %s, %s invited", new_id, game_id, user_id, len(invited))
        return await self.tables.load(new_id), [user for user in invited if user is not None]

    async def move_to_thread(self, game: GameRow, thread_id: int) -> GameRow:
        """The started ``game`` is played in ``thread_id`` from now on (its lobby stays in the channel)."""
        if not await self.store.games.move_to_thread(game.id, thread_id):
            raise Refusal("raced")
        log.info("game %s: moved to thread %s", game.id, thread_id)
        return await self.tables.changed(game.id)
