"""The game service: the only code that touches both the engine and the store.

Every public method either returns what happened or raises :class:`Refusal` (the bot's own reasons, catalogue key
``bot.refuse.<key>``) or an :class:`engine.EngineError` (the rules' reasons, ``error.<key>``); on a refusal nothing
is saved. A move loads the snapshot, lets the engine validate and apply it, and saves the new snapshot together with
the move in one transaction guarded by the game's version, so racing or repeated interactions apply at most once.

When the game moved on between loading and saving (or since the board a button belongs to), the move is checked
again on the newest version: in a simultaneous phase (several players placing at once) moves by different players
all land while they stay legal, and a player whose own move landed meanwhile is told ``already_played``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import engine
from bot.app import quarantine, ratings
from bot.app.computer import DEFAULT_THINKING, LEVELS, STRONGEST, THINKING_SECONDS, Computer, move_seed
from bot.app.errors import Refusal
from bot.app.quotas import MEMBER_GAMES, MEMBER_GAMES_MAX, SERVER_GAMES, SERVER_GAMES_MAX, GameCaps, Hints
from bot.app.timers import LIMIT_HOURS, ON_TIMEOUT, TIMEOUTS_IN_A_ROW, Timers
from bot.games import adapter_of
from bot.infra.clock import Clock, SystemClock, iso, quiet_until
from bot.infra.league_store import LeagueStore
from bot.infra.store import Conflict, GameRow, MoveRow, Store, UndoneRow
from data.i18n import SUPPORTED
from engine import Event, GameState, Move
from engine.core import Rng
from engine.transcript import export

log = logging.getLogger(__name__)

NUDGE_EVERY = timedelta(hours=12)
"""How often one seated player may nudge the awaited players of one game."""
RACE_RETRIES = 8
"""Times a move is checked again on a newer version before it is refused as ``raced`` (each retry means another
player's move landed meanwhile, so this bounds the work per move, not the number of players)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What one applied move did: everything the bot needs to post the board and ping the next players."""

    game: GameRow
    state: GameState
    before_to_act: frozenset[int]
    to_act: frozenset[int]
    seat: int
    move: Move
    events: list[Event] = field(default_factory=list)
    cause: str = ""
    """Why the computer made this move (``computer_seat``, ``stand_in``, ``time_limit``); empty for a person's."""
    undoable: bool = False
    """The mover may take this move back now (the game allows it, the move revealed nothing, the game goes on)."""
    plies: int = 1
    """How many moves the turn tells (a run played at once, or a run's moves whose board was held back: all of
    them); ``move`` is the last, ``events`` are all of theirs and ``before_to_act`` is who waited before the first."""

    @property
    def over(self) -> bool:
        return self.game.status == "over"

    def to_ping(self) -> list[int]:
        """Seats to mention now: those who must act and were not already waiting; never a seat the computer plays,
        and never the mover, unless the computer moved for them because their time ran out: a turn that comes
        straight back to them (a round ends and they start it, the grey wall leaves them a column) is a new turn
        they have not heard of."""
        waiting_before = self.before_to_act - {self.seat}
        mover = set() if self.cause == "time_limit" else {self.seat}
        return sorted(self.to_act - waiting_before - mover - set(self.game.computer_seats()))


@dataclass(frozen=True, slots=True)
class Undone:
    """A move taken back: the game as saved after it, the restored state, and who waited before and after."""

    game: GameRow
    state: GameState
    before_to_act: frozenset[int]
    to_act: frozenset[int]
    seat: int
    move: Move
    events: list[Event] = field(default_factory=list)
    """What the move taken back had done (to say which move it was in the same words as its own post)."""
    shown: bool = True
    """A board showed the move taken back; else its board was held back (a run's move): the board on show is
    already without it, so taking it back posts nothing."""

    def to_ping(self) -> list[int]:
        """Seats that must act now and were not waiting already: never the one who took the move back (they are
        here), so usually nobody; nobody is pinged for the turn that no longer exists."""
        return sorted(self.to_act - self.before_to_act - {self.seat} - set(self.game.computer_seats()))


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A seat's time ran out: the computer's move for it (``turn``), and what became of the seat."""

    turn: Turn
    timeouts: int  # in a row, counting this one
    handed_over: bool  # the computer plays the seat from now on (until its player takes it back)
    dropped: bool  # the player is out: ranked last, the computer plays the rest


@dataclass(frozen=True, slots=True)
class Resigned:
    """A player resigned: the game as saved after it, the state it was in, and whether that ended the game (else
    the computer plays the seat to the end)."""

    game: GameRow
    state: GameState
    seat: int
    ended: bool


@dataclass(frozen=True, slots=True)
class Nudged:
    """A nudge that goes out: to the ``seats`` it reaches now (``resting``: how many awaited players it skipped,
    being away or in their quiet hours)."""

    game: GameRow
    state: GameState
    seat: int
    seats: list[int]
    resting: int


@dataclass(frozen=True, slots=True)
class Needed:
    """Several legal moves match what was given: ``option`` is the first choice still needed."""

    option: str
    tokens: list[str]


def _norm(token: str | None) -> str:
    return (token or "").strip().casefold()


def matching(moves: list[Move], command: str, given: Mapping[str, str | None]) -> list[Move]:
    """The moves of ``command`` that agree with every non-empty option in ``given``."""
    wanted = {option: _norm(value) for option, value in given.items() if _norm(value)}
    found = []
    for move in moves:
        if move.command != command:
            continue
        choices = {option: _norm(token) for option, token in move.choices()}
        if all(choices.get(option) == value for option, value in wanted.items()):
            found.append(move)
    return found


def tokens_for(moves: list[Move], command: str, option: str, given: Mapping[str, str | None]) -> list[str]:
    """Distinct tokens of ``option`` among legal moves that agree with the *other* options given (legal order)."""
    others = {name: value for name, value in given.items() if name != option}
    seen: dict[str, None] = {}
    for move in matching(moves, command, others):
        for name, token in move.choices():
            if name == option:
                seen.setdefault(token, None)
    return list(seen)


def first_open_option(candidates: list[Move]) -> Needed:
    """The first option (in choice order) on which several candidate moves still differ."""
    order = [option for option, _ in candidates[0].choices()]
    for option in order:
        tokens = list(dict.fromkeys(dict(move.choices()).get(option, "") for move in candidates))
        if len(tokens) > 1:
            return Needed(option, tokens)
    return Needed(order[-1] if order else "", [])


def seat_order(seed: int, players: int) -> list[int]:
    """A random seat order drawn from the game's seed (so it is reproducible from the stored game)."""
    order = list(range(players))
    Rng(seed ^ 0x5EA7).shuffle(order)
    return order


COMPUTER_CAUSES = ("computer_seat", "stand_in", "time_limit")


def check_thinking(seconds: int) -> None:
    if seconds not in THINKING_SECONDS:
        raise Refusal("bad_thinking")


def check_limit(time_limit_hours: int, on_timeout: str) -> None:
    if time_limit_hours not in LIMIT_HOURS:
        raise Refusal("bad_time_limit", choices=", ".join(f"{hours} h" for hours in LIMIT_HOURS if hours))
    if on_timeout not in ON_TIMEOUT:
        raise Refusal("bad_on_timeout")


class GameService:
    def __init__(
        self,
        store: Store,
        seed_source: Callable[[], int] | None = None,
        computer: Computer | None = None,
        *,
        clock: Clock | None = None,
        remind_after: timedelta | None = None,
        lease: timedelta | None = None,
        identity: str | None = None,
    ) -> None:
        self.store = store
        self.lease = lease
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self.computer = computer
        self.clock = clock or SystemClock()
        self.timers = Timers(store, self.clock, remind_after, lease)
        self.hints = Hints()
        # Who holds a claim: this process's durable identity (its shards) and this life of it (a generation), so a
        # restarted process takes its own claims back at once (:meth:`take_over_own`) and waits only for others'.
        self.identity = identity or f"{socket.gethostname()}:{os.getpid()}"
        self.worker = f"{self.identity}#{time.time_ns():x}{secrets.token_hex(2)}"
        self.timers.owner = self.worker
        self.on_settled: list[Callable[[GameRow], None]] = []
        """Called with every game whose result was just recorded (leagues record theirs from it)."""

    # --- background work shared by several bot processes --------------------------------------------------------
    async def claim(self, work: str, lease: timedelta) -> bool:
        """Take ``work`` for this process for ``lease`` (or extend it); False when another process holds it. A
        process that dies keeps it until the lease runs out; then another one takes it. The operator's lease
        (``AZUL_LEASE_SECONDS``), when set, replaces every kind's own."""
        now = self.clock.now()
        return await self.store.claim(work, self.worker, iso(now), iso(now + (self.lease or lease)))

    async def release(self, work: str) -> None:
        await self.store.release(work, self.worker)

    async def take_over_own(self) -> int:
        """At start-up: take back the claims this process's previous life held (it died holding them)."""
        return await self.store.take_over(self.identity, self.worker, iso(self.clock.now()))

    # --- loading -------------------------------------------------------------------------------------------------
    async def open_game(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The channel's open game; a quarantined one only for ``broken_too`` (abort and export), else refused."""
        game = await self.store.open_game_in(channel_id)
        if game is None:
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def shown_game(self, channel_id: int, *, broken_too: bool = False) -> GameRow:
        """The game ``/azul board`` and ``status`` describe: the open one, else the last one that was played out."""
        game = await self.store.open_game_in(channel_id) or await self.store.latest_game_in(channel_id)
        if game is None or game.status == "aborted":
            raise Refusal("no_game")
        if not broken_too:
            await self.refuse_broken(game)
        return game

    async def refuse_broken(self, game: GameRow) -> None:
        """Refuse to act on a quarantined game (:mod:`bot.app.quarantine`), quarantining it if it has just turned out to
        be broken."""
        why = quarantine.diagnose(game)
        if why is None:
            return
        if not game.broken:
            await quarantine.quarantine(self.store, game, why)
        raise Refusal("game_broken", game=game.id)

    async def game(self, game_id: int) -> GameRow | None:
        return await self.store.game(game_id)

    @staticmethod
    def state_of(game: GameRow) -> GameState:
        if game.state is None:
            raise Refusal("not_started")
        return engine.from_json(game.state)

    async def replayed(self, game: GameRow) -> GameState:
        """The state reached by replaying the whole move log: must equal the snapshot."""
        moves = await self.store.moves(game.id)
        return engine.replay(game.variant, len(game.by_seat()), game.seed, moves, game.options or None)

    async def raw_record(self, game: GameRow, user_id: int, *, is_admin: bool) -> dict[str, Any]:
        """A quarantined game's row exactly as stored, with its seats and move log: for its creator or an admin."""
        if user_id != game.creator_id and not is_admin:
            raise Refusal("broken_export_creator")
        return {
            "game": game.id,
            "broken": game.broken,
            "row": await self.store.raw_game(game.id),
            "seats": [{"user_id": s.user_id, "name": s.name, "seat": s.seat, "level": s.level} for s in game.seats],
            "log": [{"seat": seat, "notation": notation} for seat, notation in await self.store.moves(game.id)],
        }

    async def transcript(self, channel_id: int) -> tuple[GameRow, dict[str, Any]]:
        """The JSON transcript of the game ``/azul board`` shows (running or the last finished one), from its log.

        A finished game's replays from its seed. A running game's holds only what the table has seen (the log, the
        deals as they came, the table now): its seed and generator state would let anyone replay the log a move
        further and read the next deal, and its face-down expansions are face down."""
        game = await self.shown_game(channel_id)
        if game.state is None:
            raise Refusal("not_started")
        moves = await self.store.moves(game.id)
        players = game.by_seat()
        document = await asyncio.to_thread(
            export, game.variant, len(players), game.seed, moves, game.options or None
        )  # replaying a long game takes a moment: keep the event loop free
        if game.status != "over":
            del document["seed"]
            document["state"] = engine.public_json(self.state_of(game))
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

    # --- lobby ---------------------------------------------------------------------------------------------------
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
    ) -> GameRow:
        """Open a lobby; a time limit, timeout action, thread choice or thinking time not given is the server's
        default."""
        spec = engine.get_variant(variant)
        if not spec.min_players <= seats <= spec.max_players:
            raise Refusal("bad_seats", min=spec.min_players, max=spec.max_players)
        if order not in ("random", "joined"):
            raise Refusal("bad_order")
        if rated and hints:
            raise Refusal("rated_hints")  # a hint is the strongest computer's move: no rating can rest on it
        default_limit, default_action = await self.store.server_defaults(guild_id)
        limit = default_limit if time_limit_hours is None else time_limit_hours
        action = on_timeout or default_action
        check_limit(limit, action)
        thinking = thinking or await self.store.server_thinking(guild_id) or DEFAULT_THINKING
        check_thinking(thinking)
        if await self.store.open_game_in(channel_id) is not None:
            raise Refusal("channel_busy")
        caps = await self.game_caps(guild_id)
        # Games outside a server (direct messages) have no server to fill: only the member's own cap holds.
        if guild_id is not None and await self.store.open_games_count(guild_id) >= caps.server:
            raise Refusal("server_games", limit=caps.server)
        await self._check_seats(guild_id, user_id, caps, key="member_games")
        game_id = await self.store.create_game(
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
            thread=await self.store.server_threads(guild_id) if thread is None else thread,
            thinking=thinking,
        )
        if game_id is None:
            raise Refusal("channel_busy")
        return await self._reload(game_id)

    async def game_caps(self, guild_id: int | None) -> GameCaps:
        """A server's caps on open games (see :mod:`bot.app.quotas`)."""
        member, server = await self.store.game_caps(guild_id)
        return GameCaps(member or MEMBER_GAMES, server or SERVER_GAMES)

    async def set_game_caps(self, guild_id: int, member: int | None, server: int | None) -> GameCaps:
        if member is not None and not 1 <= member <= MEMBER_GAMES_MAX:
            raise Refusal("bad_member_games", max=MEMBER_GAMES_MAX)
        if server is not None and not 1 <= server <= SERVER_GAMES_MAX:
            raise Refusal("bad_server_games", max=SERVER_GAMES_MAX)
        await self.store.set_game_caps(guild_id, member, server)
        return await self.game_caps(guild_id)

    async def _check_seats(self, guild_id: int | None, user_id: int, caps: GameCaps | None = None, *, key: str) -> None:
        """Refuse one more seat for ``user_id`` (their own, or a computer in their game) at their server's cap."""
        caps = caps or await self.game_caps(guild_id)
        if await self.store.open_seats_of(guild_id, user_id) >= caps.member:
            raise Refusal(key, limit=caps.member)

    async def _reload(self, game_id: int) -> GameRow:
        game = await self.store.game(game_id)
        if game is None:
            raise Refusal("no_game")
        return game

    async def _changed(self, game_id: int) -> GameRow:
        """The game as saved after a change, with its timers made to match who is waiting now."""
        game = await self._reload(game_id)
        await self.timers.sync(game)
        return game

    async def _lobby(self, channel_id: int, game_id: int | None) -> GameRow:
        game = await self.open_game(channel_id)
        if game_id is not None and game.id != game_id:
            raise Refusal("stale_lobby")
        if game.status != "lobby":
            raise Refusal("already_started")
        return game

    async def join(self, channel_id: int, user_id: int, name: str, game_id: int | None = None) -> GameRow:
        game = await self._lobby(channel_id, game_id)
        if game.has_player(user_id):
            raise Refusal("already_joined")
        if len(game.seats) >= game.max_seats:
            raise Refusal("full")
        await self._check_seats(game.guild_id, user_id, key="member_games")
        if not await self.store.add_seat(game.id, user_id, name, game.max_seats):
            raise Refusal("full")
        return await self._reload(game.id)

    async def leave(self, channel_id: int, user_id: int, game_id: int | None = None) -> GameRow:
        """Leave a lobby; a leaving creator hands the lobby to the next player, and the last one closes it."""
        game = await self._lobby(channel_id, game_id)
        if not game.has_player(user_id):
            raise Refusal("not_in_game")
        await self.store.remove_seat(game.id, user_id)
        others = [seat.user_id for seat in game.people() if seat.user_id != user_id]
        if not others:  # computer seats alone do not keep a lobby open
            await self.store.finish(game.id, "aborted", None)
        elif user_id == game.creator_id and others[0] is not None:
            await self.store.set_creator(game.id, others[0])
        return await self._reload(game.id)

    async def add_computer(
        self, channel_id: int, user_id: int, level: str, *, is_admin: bool, game_id: int | None = None
    ) -> GameRow:
        """The creator seats a computer player of ``level`` in the lobby (a game may be all computers but one)."""
        game = await self._lobby(channel_id, game_id)
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_adds_computer")
        if level not in LEVELS:
            raise Refusal("bad_level")
        if len(game.seats) >= game.max_seats:
            raise Refusal("full")
        await self._check_seats(
            game.guild_id, game.creator_id, key="member_games" if user_id == game.creator_id else "creator_games"
        )
        if not await self.store.add_computer_seat(game.id, f"Computer ({level})", level, game.max_seats):
            raise Refusal("full")
        return await self._reload(game.id)

    async def start(
        self, channel_id: int, user_id: int, *, is_admin: bool, game_id: int | None = None
    ) -> tuple[GameRow, GameState]:
        game = await self._lobby(channel_id, game_id)
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_starts")
        players = len(game.seats)
        spec = engine.get_variant(game.variant)
        if players < max(2, spec.min_players):
            raise Refusal("too_few_players", min=max(2, spec.min_players))
        order = seat_order(game.seed, players) if game.seat_order == "random" else list(range(players))
        seat_by_joined = {seat.joined: order[index] for index, seat in enumerate(game.seats)}
        state = engine.new_game(game.variant, players, game.seed, game.options or None)
        if not await self.store.start_game(game.id, seat_by_joined, engine.to_json(state)):
            raise Refusal("already_started")
        return await self._changed(game.id), state

    # --- play ----------------------------------------------------------------------------------------------------
    async def active_game(self, channel_id: int, game_id: int | None = None, version: int | None = None) -> GameRow:
        if game_id is not None:  # a button names its game: say so when that game is over
            named = await self.store.game(game_id)
            if named is not None and named.channel_id == channel_id and not named.is_open:
                raise Refusal("finished" if named.status == "over" else "aborted")
        game = await self.open_game(channel_id)
        if game_id is not None and game.id != game_id:
            raise Refusal("stale")
        if game.status != "active":
            raise Refusal("not_started")
        if version is not None and game.version != version:
            raise Refusal("stale")
        return game

    @staticmethod
    def check_command(game: GameRow, command: str) -> None:
        """Refuse a move command that the game's variant does not declare (``/azul-move place`` in a game of Azul)."""
        if command not in {declared.name for declared in engine.get_variant(game.variant).commands}:
            raise Refusal("command_not_in_game", command=command, variant=game.variant)

    def seat_to_act(self, game: GameRow, state: GameState, user_id: int) -> int:
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if seat not in engine.to_act(state):
            raise Refusal("not_your_turn")
        return seat

    def resolve(
        self, game: GameRow, state: GameState, seat: int, command: str, given: Mapping[str, str | None]
    ) -> Move:
        """The one legal move ``given`` describes, or why not (:class:`Refusal` or the engine's error)."""
        legal = engine.legal_moves(state, seat)
        candidates = matching(legal, command, given)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            needed = first_open_option(candidates)
            raise Refusal("need_option", option=needed.option)
        filled = {option: value.strip() for option, value in given.items() if value and value.strip()}
        variant = engine.get_variant(game.variant)
        move = variant.move_from_choices(command, filled)
        engine.apply(state, seat, move)  # raises the rules' reason; a legal move would have matched above
        return move

    def resolve_run(
        self, game: GameRow, state: GameState, seat: int, command: str, run: Sequence[Mapping[str, str | None]]
    ) -> list[Move]:
        """The legal moves a run of options describes, each read in the position the ones before it leave."""
        moves: list[Move] = []
        for given in run:
            if moves:
                state, _ = engine.apply(state, seat, moves[-1])
                if seat not in engine.to_act(state):
                    raise Refusal("stale")  # the run ended sooner than the player was shown
            moves.append(self.resolve(game, state, seat, command, given))
        return moves

    async def check_moved_on(self, game: GameRow, user_id: int, seen: int) -> None:
        """The game is at a newer version than the one the player saw: refuse only when that matters.

        Their own move landed meanwhile (a double click, two devices) → ``already_played``; a board they are behind on
        while it is their turn again → ``stale``. Other players' moves in a simultaneous phase are no reason to refuse:
        the move is then checked against the newest state like any other.
        """
        if game.version == seen:
            return
        seat = game.seat_of(user_id)
        if seat is None or seat not in await self.store.seats_moved_since(game.id, seen):
            return
        if game.state is not None and seat in engine.to_act(self.state_of(game)):
            if seen >= game.board_version:
                return  # they saw the newest board there is: their own moves since are held back (a run)
            raise Refusal("stale")
        raise await self.lost_to_the_deadline(game, user_id) or Refusal("already_played")

    async def move(
        self,
        channel_id: int,
        user_id: int,
        command: str,
        given: Mapping[str, str | None],
        *,
        interaction_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
        name: str | None = None,
        then: Sequence[Mapping[str, str | None]] = (),
    ) -> Turn:
        """Play ``command`` with the options ``given`` for ``user_id``; ``version``: the one the player saw.

        ``then``: the options of more moves of the same command the same seat plays right after it (a run: the
        grey wall's columns, line by line), saved with it in one transaction or not at all; the turn tells of all.
        """
        if interaction_id is not None and await self.store.move_count_by_interaction(interaction_id):
            raise Refusal("duplicate")
        seen = version
        for _ in range(RACE_RETRIES):
            game = await self.active_game(channel_id, game_id)
            seen = game.version if seen is None else seen
            await self.check_moved_on(game, user_id, seen)
            self.check_command(game, command)
            state = self.state_of(game)
            try:
                seat = self.seat_to_act(game, state, user_id)
            except Refusal as refusal:
                if refusal.key != "not_your_turn":
                    raise
                raise await self.lost_to_the_deadline(game, user_id) or refusal from None
            if seat in game.computer_seats():
                raise Refusal("computer_plays_your_seat")
            moves = self.resolve_run(game, state, seat, command, [given, *then])
            try:
                turn = await self._record(game, state, seat, moves, interaction_id=interaction_id)
            except Refusal as refusal:
                if refusal.key != "raced":
                    raise
                # Another move landed first (a simultaneous phase): check this one again against the newest state.
                log.info("game %s: version %s moved on before seat %s's move was saved", game.id, game.version, seat)
                continue
            break
        else:
            raise Refusal("raced")
        if name:
            await self.store.rename_seat(game.id, user_id, name)
            return replace(turn, game=await self._reload(game.id))
        return turn

    async def lost_to_the_deadline(self, game: GameRow, user_id: int) -> Refusal | None:
        """Why a move arrived too late, when the time limit's stand-in made the seat's newest move: the player is
        told their time ran out and what the computer played for them, not merely that it is not their turn."""
        seat = game.seat_of(user_id)
        rows = await self.store.move_rows(game.id)
        own = [row for row in rows if row.seat == seat]
        if seat is None or not own or own[-1].cause != "time_limit":
            return None
        before = [(row.seat, row.notation) for row in rows if row.ply < own[-1].ply]
        state = engine.replay(game.variant, len(game.by_seat()), game.seed, before, game.options or None)
        _, events = engine.apply(state, seat, own[-1].notation)
        describe, names = adapter_of(game.variant).describe, [seat.name for seat in game.by_seat()]
        played = {locale: describe(events, names, locale).split("\n")[0] for locale in SUPPORTED}
        return Refusal("time_ran_out", played=played)

    async def play_for(self, game_id: int, seat: int, *, level: str, cause: str) -> Turn:
        """The computer at ``level`` moves for ``seat``: searched in the pool, then saved exactly like a person's
        move (the same log, no interaction id) and guarded by the version, so a move made meanwhile wins the race
        (:class:`Refusal` ``raced``) and nothing is saved twice. ``cause`` says why, for the post."""
        if self.computer is None:
            raise RuntimeError("this service has no computer players")
        if cause not in COMPUTER_CAUSES:
            raise ValueError(f"unknown cause {cause!r}")
        game = await self._reload(game_id)
        if game.status != "active":
            raise Refusal("finished" if game.status == "over" else "not_started")
        state = self.state_of(game)
        if seat not in engine.to_act(state):
            raise Refusal("not_your_turn")
        seed = move_seed(game.seed, game.version, seat)
        # Its own seats and stand-ins for absent players alike think for the game's time.
        move = await self.computer.choose(
            state, seat, level, seed, game=game.id, creator=game.creator_id, seconds=game.thinking
        )
        return await self._record(game, state, seat, [move], interaction_id=None, cause=cause)

    async def hint(self, channel_id: int, user_id: int) -> tuple[GameRow, Move, list[tuple[str, dict[str, Any]]]]:
        """The move the strongest level would make for the asking player now, and why: only where the game's
        creator allowed hints, and only on the player's own turn."""
        if self.computer is None:
            raise RuntimeError("this service has no computer players")
        game = await self.active_game(channel_id)
        # Rated games never allow hints (``create`` refuses both, and hints make a game casual by default).
        if not game.hints or ratings.is_rated(game):
            raise Refusal("hints_off")
        state = self.state_of(game)
        seat = self.seat_to_act(game, state, user_id)
        if seat in game.computer_seats():
            raise Refusal("computer_plays_your_seat")
        key = (game.id, game.version, seat)
        found = self.hints.cached(key)
        if found is None:
            now = self.clock.now()
            ready = self.hints.ready_at(user_id, now)
            if ready is not None:
                raise Refusal("hint_cooldown", when=f"<t:{int(ready.timestamp()) + 1}:R>")
            seed = move_seed(game.seed, game.version, seat)
            # The search sees one possible world of what is hidden, never the real bag or stacks: a hint's reasons
            # (what the next deal gives, say) must not tell the player what the rules hide.
            world = engine.variant_of(state).redeterminize(state, Rng(seed))
            found = await self.computer.hint(world, seat, seed, game=game.id, creator=game.creator_id)
            self.hints.searched(key, user_id, now, found)
        move, reasons = found
        return game, move, reasons

    async def computer_to_act(self, game_id: int) -> list[tuple[int, str]]:
        """The seats the computer plays that must act now in ``game_id``, with their levels (seat order)."""
        game = await self.store.game(game_id)
        if game is None or game.status != "active" or game.state is None:
            return []
        to_act = engine.to_act(self.state_of(game))
        by_seat = game.by_seat()
        return [(seat, by_seat[seat].level or "") for seat in game.computer_seats() if seat in to_act]

    async def set_controller(self, game_id: int, seat: int, level: str | None) -> GameRow:
        """Hand a person's seat to the computer at ``level`` (a stand-in), or back to them with ``None``."""
        if level is not None and level not in LEVELS:
            raise Refusal("bad_level")
        if not await self.store.set_controller(game_id, seat, level):
            raise Refusal("raced")
        return await self._changed(game_id)  # a seat the computer plays has no reminders

    # --- time limits -------------------------------------------------------------------------------------------
    async def time_out(self, game_id: int, seat: int, since: int) -> TimedOut | None:
        """The seat's time, running since version ``since``, ran out: the strongest computer plays that move for
        it, or (the game's choice) the player is dropped first and the computer plays the seat from now on. After
        :data:`TIMEOUTS_IN_A_ROW` timeouts in a row the seat is the computer's until its player takes it back.
        None when the seat no longer waits (it moved, or the computer plays it already)."""
        if not await self._still_late(game_id, seat, since, dropped=False):
            return None
        game = await self._reload(game_id)
        dropped = game.on_timeout == "drop" and await self.store.drop_seat(game.id, seat, STRONGEST)
        for _ in range(RACE_RETRIES):
            try:
                turn = await self.play_for(game.id, seat, level=STRONGEST, cause="time_limit")
                break
            except Refusal as refusal:  # another player's move landed first (a simultaneous phase): look again
                if refusal.key != "raced" or not await self._still_late(game_id, seat, since, dropped=dropped):
                    raise
        else:
            raise Refusal("raced")
        timeouts = await self.store.count_timeout(game.id, seat)
        handed = not dropped and not turn.over and timeouts >= TIMEOUTS_IN_A_ROW
        if handed:
            game = await self.set_controller(game.id, seat, STRONGEST)
            turn = replace(turn, game=game)
        log.info(
            "game %s: seat %s ran out of time (%s in a row)%s", game.id, seat, timeouts, " and was dropped" * dropped
        )
        return TimedOut(turn, timeouts, handed, dropped)

    async def _still_late(self, game_id: int, seat: int, since: int, *, dropped: bool) -> bool:
        """The seat still owes the move it has waited for since version ``since`` (a dropped seat is the computer's
        but still owes it)."""
        game = await self._reload(game_id)
        if game.status != "active" or game.state is None or (seat in game.computer_seats() and not dropped):
            return False
        moved = (await self.store.last_plies(game.id)).get(seat, -1) >= since
        return seat in engine.to_act(self.state_of(game)) and not moved

    async def take_back(self, channel_id: int, user_id: int) -> GameRow:
        """A player takes back the seat the computer plays for them (never one dropped for their time)."""
        game = await self.active_game(channel_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:
            raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
        if seat not in game.computer_seats():
            raise Refusal("seat_is_yours")
        if not await self.store.take_back(game.id, seat):
            raise Refusal("raced")
        return await self._changed(game.id)

    # --- personal data --------------------------------------------------------------------------------------------
    async def check_forgettable(self, user_id: int) -> None:
        """Refuse to forget a person who sits in an open game: those games still need their seat."""
        if await self.store.open_games_of(user_id):
            raise Refusal("forget_open_games")

    async def forget(self, user_id: int, shown_as: str) -> int:
        """Erase what the bot keeps about ``user_id`` (see :meth:`Store.forget_user`); how many games they played."""
        played = await self.store.forget_user(user_id, shown_as)
        if played is None:
            raise Refusal("forget_open_games")
        self.hints.forget(user_id)
        log.info("erased a person's data on their request (%d finished games anonymised)", played)
        return played

    async def move_to_thread(self, game: GameRow, thread_id: int) -> GameRow:
        """The started ``game`` is played in ``thread_id`` from now on (its lobby stays in the channel)."""
        if not await self.store.move_to_thread(game.id, thread_id):
            raise Refusal("raced")
        log.info("game %s: moved to thread %s", game.id, thread_id)
        return await self._changed(game.id)

    async def set_server_defaults(self, guild_id: int, time_limit_hours: int, on_timeout: str) -> None:
        check_limit(time_limit_hours, on_timeout)
        await self.store.set_server_defaults(guild_id, time_limit_hours, on_timeout)

    async def server_thinking(self, guild_id: int | None) -> int:
        """How long computer players think per move in a server's new games."""
        return await self.store.server_thinking(guild_id) or DEFAULT_THINKING

    async def set_server_thinking(self, guild_id: int, seconds: int) -> None:
        check_thinking(seconds)
        await self.store.set_server_thinking(guild_id, seconds)

    async def _record(
        self,
        game: GameRow,
        state: GameState,
        seat: int,
        moves: Sequence[Move],
        *,
        interaction_id: int | None,
        cause: str = "",
    ) -> Turn:
        """Apply ``moves`` in order (each validated by the engine) and save them with the new state in one
        transaction, guarded by the game's version."""
        before = engine.to_act(state)
        new_state, events = state, []
        for move in moves:
            new_state, more = engine.apply(new_state, seat, move)
            events.extend(more)
        finished = (
            self._result(new_state, resigned=game.resigned_seats(), dropped=game.dropped_seats())
            if engine.is_over(new_state)
            else None
        )
        notations = [str(move) for move in moves]
        try:
            await self.store.record_moves(
                game.id,
                version=game.version,
                seat=seat,
                notations=notations,
                state=engine.to_json(new_state),
                interaction_id=interaction_id,
                finished=finished,
                cause=cause,
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "raced") from None
        played = " ".join(notations)
        log.info(
            "game %s: ply %s seat %s played %s%s", game.id, game.version, seat, played, f" ({cause})" * bool(cause)
        )
        if not cause and game.by_seat()[seat].timeouts:  # the player's own move: their timeouts start over
            await self.store.reset_timeouts(game.id, seat)
        saved = await self._changed(game.id)
        if finished:
            await self.settle(saved)
        to_act = frozenset() if finished else engine.to_act(new_state)
        undoable = game.undo and not finished and not cause and not engine.reveals(state, new_state)
        return Turn(saved, new_state, before, to_act, seat, moves[-1], events, cause, undoable, plies=len(moves))

    @staticmethod
    def _result(state: GameState, resigned: Sequence[int] = (), dropped: Sequence[int] = ()) -> dict[str, Any]:
        """Scores and standings: those who played to the end by the rules' standings, then the players dropped for
        their time (sharing a place), then those who resigned, last. ``resigned`` may also be among ``dropped`` (a
        player who resigned while the others played on was dropped too)."""
        quit_ = list(dict.fromkeys(resigned))  # in the order they resigned: the last one ended the game
        timed_out = sorted(set(dropped) - set(quit_))
        gone = {*timed_out, *quit_}
        standings = [[s for s in group if s not in gone] for group in engine.standings(state)]
        standings = [group for group in standings if group]
        standings += [timed_out] if timed_out else []
        standings += [sorted(quit_)] if quit_ else []
        result: dict[str, Any] = {
            "scores": engine.scores(state),
            "standings": standings,
            "resigned": quit_[-1] if quit_ else None,
        }
        if timed_out or len(quit_) > 1:
            outcomes = ["played"] * len(result["scores"])
            for seat in timed_out:
                outcomes[seat] = "dropped"
            for seat in quit_:
                outcomes[seat] = "resigned"
            result["outcomes"] = outcomes
        return result

    # --- taking a move back -------------------------------------------------------------------------------------
    async def undo_move(
        self,
        channel_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Undone:
        """Take back ``user_id``'s last move: only their own, only while nobody has acted since, only when it showed
        nothing hidden, and only in a game whose creator left undo on. ``version``: the version the move made (an
        Undo button's), refused as moved on when the game is past it.

        The move leaves the log and the snapshot becomes the replay of the rest, in one write guarded by the version
        (which still moves forward), so the log replays to the snapshot and a retried undo applies once."""
        if interaction_id is not None and await self.store.move_count_by_interaction(interaction_id):
            raise Refusal("duplicate")
        game = await self._undo_game(channel_id, game_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if not game.undo:
            raise Refusal("undo_off")
        if version is not None and game.version != version:
            raise Refusal("undo_moved_on")
        if seat in game.computer_seats():
            raise Refusal("computer_plays_your_seat")
        last = await self.store.last_move(game.id)
        moves = await self.store.moves(game.id)
        if last is None or last.seat != seat:
            # Nothing of theirs to take back, or someone (a person or the computer) has moved since.
            raise Refusal("undo_others_moved" if any(mover == seat for mover, _ in moves) else "undo_no_move")
        if last.cause:
            raise Refusal("undo_computer_move")
        after = self.state_of(game)
        before = await asyncio.to_thread(self._replay, game, moves[:-1])  # a replay takes a moment
        if engine.reveals(before, after):
            raise Refusal("undo_revealed")
        try:
            await self.store.undo_move(
                game.id, version=game.version, ply=last.ply, state=engine.to_json(before), interaction_id=interaction_id
            )
        except Conflict as conflict:
            raise Refusal("duplicate" if conflict.reason == "duplicate" else "undo_moved_on") from None
        log.info("game %s: seat %s took back ply %s (%s)", game.id, seat, last.ply, last.notation)
        saved = await self._changed(game.id)  # timers follow who waits now
        move = engine.parse_move(game.variant, last.notation)
        _, events = engine.apply(before, seat, move)
        shown = last.ply < game.board_version
        return Undone(saved, before, engine.to_act(after), engine.to_act(before), seat, move, events, shown)

    async def _undo_game(self, channel_id: int, game_id: int | None) -> GameRow:
        """The running game a move would be taken back in; a finished one is refused as such."""
        game = await self.store.open_game_in(channel_id)
        if game is None or (game_id is not None and game.id != game_id):
            latest = (
                await self.store.game(game_id) if game_id is not None else await self.store.latest_game_in(channel_id)
            )
            if latest is not None and latest.channel_id == channel_id and latest.status == "over":
                raise Refusal("undo_game_over")
            raise Refusal("no_game" if game is None else "undo_moved_on")
        if game.status != "active":
            raise Refusal("not_started")
        return game

    @staticmethod
    def _replay(game: GameRow, moves: list[tuple[int, str]]) -> GameState:
        return engine.replay(game.variant, len(game.by_seat()), game.seed, moves, game.options or None)

    # --- boards ------------------------------------------------------------------------------------------------
    def holds_board(self, turn: Turn) -> bool:
        """Whether the board after ``turn`` waits: its mover is in the middle of a run (the grey wall's lines typed
        one command at a time: they may play the same command again) and nobody else newly must act. The channel
        then gets one post when the run is over, telling all of it (:meth:`told`), and pings go out then."""
        if turn.over or turn.seat not in turn.to_act or turn.to_ping():
            return False
        if not self._repeats(turn.game.variant, turn.move.command):
            return False
        return any(move.command == turn.move.command for move in engine.legal_moves(turn.state, turn.seat))

    async def told(self, turn: Turn) -> Turn:
        """What the board after ``turn`` tells: ``turn`` itself, or all the moves of a run since the last posted
        board when earlier ones were held back (:meth:`holds_board`), with who waited before the first of them."""
        game = turn.game
        if game.version - game.board_version <= turn.plies:
            return turn
        rows = await self.store.move_rows(game.id)
        told = await asyncio.to_thread(self._since_board, game, rows)  # a replay takes a moment
        if told is None or told.plies <= turn.plies:
            return turn
        return replace(turn, before_to_act=told.before_to_act, events=told.events, plies=told.plies)

    async def boards_to_post(self) -> list[tuple[GameRow, GameState, Turn | Undone | None]]:
        """Games whose newest version has no board (the process died before posting it, or the post failed), each
        with the moves that made that version (None for the opening board), so the board says what happened. A
        board held back in the middle of a run is not one of them: the run's next move posts it."""
        missing = []
        for game_id in await self.store.without_board():
            game = await self.store.game(game_id)
            if game is None or game.state is None:
                continue
            try:
                found = await self._board_to_post(game)
            except Exception as error:
                await quarantine.after_fault(self.store, game.id, error)
                continue
            if found is not None:
                missing.append(found)
        return missing

    async def _board_to_post(self, game: GameRow) -> tuple[GameRow, GameState, Turn | Undone | None] | None:
        undone = await self.store.undone(game.id, game.version - 1)
        rows = await self.store.move_rows(game.id)
        if undone is not None and undone.ply < game.board_version:  # a move on a board was taken back: say so
            moves = [(row.seat, row.notation) for row in rows]
            turn: Turn | Undone | None = await asyncio.to_thread(self._last_undo, game, moves, undone)
        else:
            if undone is not None and all(row.ply < game.board_version for row in rows):
                return None  # a held move was taken back: the board on show is this position
            turn = await asyncio.to_thread(self._since_board, game, rows)  # a replay takes a moment
            if turn is not None and self.holds_board(turn):
                return None
        return game, self.state_of(game), turn

    @classmethod
    def _since_board(cls, game: GameRow, rows: list[MoveRow]) -> Turn | None:
        """The turn the board of ``game``'s version tells: its last move, or every move since the last posted board
        when they are all of a run's command (its board held back); None before the first move."""
        moves = [(row.seat, row.notation) for row in rows if row.ply < game.version]
        if not moves:
            return None
        unposted = [row for row in rows if game.board_version <= row.ply < game.version]
        run = bool(unposted) and all(
            cls._repeats(game.variant, engine.parse_move(game.variant, row.notation).command) for row in unposted
        )
        count = len(unposted) if run else 1
        before = cls._replay(game, moves[:-count])
        state, events = before, []
        for seat, notation in moves[-count:]:
            state, more = engine.apply(state, seat, notation)
            events.extend(more)
        seat, notation = moves[-1]
        to_act = frozenset() if game.status == "over" else engine.to_act(state)
        move = engine.parse_move(game.variant, notation)
        return Turn(game, state, engine.to_act(before), to_act, seat, move, events, plies=count)

    @staticmethod
    def _repeats(variant: str, command: str) -> bool:
        """Whether ``command`` is played as a run (``MoveCommand.repeats``: the grey wall's columns)."""
        return any(each.name == command and each.repeats for each in engine.get_variant(variant).commands)

    @classmethod
    def _last_undo(cls, game: GameRow, moves: list[tuple[int, str]], undone: UndoneRow) -> Undone:
        restored = cls._replay(game, moves)
        after, events = engine.apply(restored, undone.seat, undone.notation)
        move = engine.parse_move(game.variant, undone.notation)
        return Undone(game, restored, engine.to_act(after), engine.to_act(restored), undone.seat, move, events)

    # --- ending --------------------------------------------------------------------------------------------------
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
            if not await self.store.resign_seat(game.id, seat, STRONGEST, game.version):
                raise Refusal("stale" if version is not None else "raced")
            log.info("game %s: seat %s resigned; the computer plays it to the end", game.id, seat)
            return Resigned(await self._changed(game.id), state, seat, ended=False)
        result = self._result(state, resigned=[*game.resigned_seats(), seat], dropped=game.dropped_seats())
        if not await self.store.finish(game.id, "over", result):
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
        if not is_admin and await LeagueStore(self.store).table_of_game(game.id) is not None:
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
        if not await self.store.finish(game.id, "aborted", None):
            raise Refusal("raced")
        return await self._changed(game.id)

    async def open_game_channels(self) -> list[int]:
        """Every server channel or thread that holds an open game."""
        return await self.store.open_game_channels()

    async def close_gone(self, channel_ids: Collection[int] = (), guild_id: int | None = None) -> list[GameRow]:
        """Abort every open game in channels or threads that are gone (deleted, or out of the bot's sight) or in a
        server that removed the bot: nobody can play them any more. Aborted games change no rating; their timers
        go, and they leave everyone's list of games."""
        closed = []
        for game_id in await self.store.open_games_in(channel_ids, guild_id):
            if await self.store.finish(game_id, "aborted", None):
                closed.append(await self._changed(game_id))
        return closed

    async def rematch(self, game_id: int, channel_id: int, user_id: int, name: str) -> GameRow:
        """A lobby for a rematch of the finished ``game_id``, opened by ``user_id`` (one of its people): the same
        variant, settings and players, the seat order rotated by one (the second player starts the join order, the
        first comes last) and kept as joined, computer seats at the same levels."""
        old = await self.store.game(game_id)
        if old is None or channel_id not in (old.channel_id, old.lobby_channel_id) or old.status != "over":
            raise Refusal("no_such_game", game=game_id)
        channel_id = old.lobby_channel_id or old.channel_id  # a game played in a thread had its lobby outside
        if old.seat_of(user_id) is None:
            raise Refusal("rematch_not_player", game=game_id)
        if await self.store.open_game_in(channel_id) is not None:
            raise Refusal("channel_busy")
        players = old.by_seat()
        rotated = [*players[1:], *players[:1]]
        new_id = await self.store.create_game(
            guild_id=old.guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            variant=old.variant,
            options=old.options,
            seed=self._seed_source(),
            max_seats=len(players),
            seat_order="joined",
            hints=old.hints,
            rated=old.rated,
            undo=old.undo,
            time_limit_hours=old.time_limit_hours,
            on_timeout=old.on_timeout,
            thread=old.thread,
            thinking=old.thinking,
        )
        if new_id is None:
            raise Refusal("channel_busy")
        seats = [(seat.user_id, name if seat.user_id == user_id else seat.name, seat.level) for seat in rotated]
        await self.store.seat_lobby(new_id, [(u, n, level if u is None else None) for u, n, level in seats])
        log.info("game %s: rematch of game %s opened by %s", new_id, game_id, user_id)
        return await self._reload(new_id)

    async def nudge(self, channel_id: int, user_id: int) -> Nudged:
        """A seated player nudges the people the game waits for: once per :data:`NUDGE_EVERY` per game and player,
        never someone away or in their quiet hours (refused, with when they can be nudged, when nobody is left)."""
        game = await self.active_game(channel_id)
        seat = game.seat_of(user_id)
        if seat is None or game.by_seat()[seat].dropped:
            raise Refusal("nudge_not_seated")
        state = self.state_of(game)
        awaited = sorted(engine.to_act(state) - set(game.computer_seats()) - {seat})
        if not awaited:
            raise Refusal("nudge_your_turn" if seat in engine.to_act(state) else "nudge_computer")
        now = self.clock.now()
        last = await self.store.last_nudge(game.id, user_id)
        if last is not None and datetime.fromisoformat(last) + NUDGE_EVERY > now:
            raise Refusal("nudge_too_soon", at=f"<t:{int((datetime.fromisoformat(last) + NUDGE_EVERY).timestamp())}:R>")
        reachable, later = [], []
        for waiting in awaited:
            prefs = await self.store.user(game.by_seat()[waiting].user_id or 0)
            if prefs.away_until and prefs.away_until > iso(now):
                later.append(datetime.fromisoformat(prefs.away_until))
                continue
            quiet = quiet_until(now, prefs.timezone, prefs.quiet_start, prefs.quiet_end)
            if quiet is not None:
                later.append(quiet)
                continue
            reachable.append(waiting)
        if not reachable:
            raise Refusal("nudge_resting", at=f"<t:{int(min(later).timestamp())}:R>")
        if not await self.store.record_nudge(game.id, user_id, iso(now), iso(now - NUDGE_EVERY)):
            raise Refusal("raced")
        return Nudged(game, state, seat, reachable, len(later))

    # --- results and ratings -----------------------------------------------------------------------------------
    async def settle(self, game: GameRow) -> None:
        """Record a finished game's result and ratings. A failure here must not undo the finished game: it is
        logged, and :meth:`settle_pending` (run at start-up) records the result later."""
        try:
            await ratings.settle(self.store, game)
        except Exception:
            log.exception("game %s: its result could not be recorded", game.id)
            return
        for listener in self.on_settled:
            listener(game)

    async def settle_pending(self) -> int:
        return await ratings.settle_pending(self.store)

    # --- preferences ---------------------------------------------------------------------------------------------
    async def set_notify(self, user_id: int, enabled: bool, locale: str | None = None) -> None:
        """Opt in or out of turn DMs (written in ``locale``); opting in again retries closed DMs."""
        await self.store.set_user(user_id, notify_dm=enabled, dm_closed_told=False, locale=locale)


__all__ = [
    "GameService",
    "Needed",
    "Nudged",
    "Refusal",
    "Resigned",
    "TimedOut",
    "Turn",
    "Undone",
    "first_open_option",
    "matching",
    "seat_order",
    "tokens_for",
]
