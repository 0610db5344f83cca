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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import engine
from bot import quarantine, ratings
from bot.clock import Clock, SystemClock, iso
from bot.computer import LEVELS, STRONGEST, Computer, move_seed
from bot.errors import Refusal
from bot.store import Conflict, GameRow, MoveRow, Store, UndoneRow
from bot.timers import LIMIT_HOURS, ON_TIMEOUT, TIMEOUTS_IN_A_ROW, Timers
from engine import Event, GameState, Move
from engine.core import Rng
from engine.transcript import export

log = logging.getLogger(__name__)

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
        """Seats to mention now: those who must act and were not already waiting; never the mover, and never a
        seat the computer plays."""
        waiting_before = self.before_to_act - {self.seat}
        return sorted(self.to_act - waiting_before - {self.seat} - set(self.game.computer_seats()))


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
        # Who holds a claim: this process's durable identity (its shards) and this life of it (a generation), so a
        # restarted process takes its own claims back at once (:meth:`take_over_own`) and waits only for others'.
        self.identity = identity or f"{socket.gethostname()}:{os.getpid()}"
        self.worker = f"{self.identity}#{time.time_ns():x}{secrets.token_hex(2)}"

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
        return await self.store.take_over(self.identity, self.worker)

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
        """Refuse to act on a quarantined game (:mod:`bot.quarantine`), quarantining it if it has just turned out to
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
        """The JSON transcript of the game ``/azul board`` shows (running or the last finished one), from its log."""
        game = await self.shown_game(channel_id)
        if game.state is None:
            raise Refusal("not_started")
        moves = await self.store.moves(game.id)
        players = game.by_seat()
        document = await asyncio.to_thread(
            export, game.variant, len(players), game.seed, moves, game.options or None
        )  # replaying a long game takes a moment: keep the event loop free
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
    ) -> GameRow:
        """Open a lobby; a time limit or timeout action not given is the server's default."""
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
        if await self.store.open_game_in(channel_id) is not None:
            raise Refusal("channel_busy")
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
        )
        if game_id is None:
            raise Refusal("channel_busy")
        return await self._reload(game_id)

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
        """Refuse a move command that the game's variant does not declare (``/azul place`` in a game of Azul)."""
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
        raise Refusal("already_played")

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
            seat = self.seat_to_act(game, state, user_id)
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
        move = await self.computer.choose(state, seat, level, move_seed(game.seed, game.version, seat))
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
        move, reasons = await self.computer.hint(state, seat, move_seed(game.seed, game.version, seat))
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
            raise Refusal("dropped_for_good")
        if seat not in game.computer_seats():
            raise Refusal("seat_is_yours")
        if not await self.store.take_back(game.id, seat):
            raise Refusal("raced")
        return await self._changed(game.id)

    async def set_server_defaults(self, guild_id: int, time_limit_hours: int, on_timeout: str) -> None:
        check_limit(time_limit_hours, on_timeout)
        await self.store.set_server_defaults(guild_id, time_limit_hours, on_timeout)

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
        finished = self._result(new_state, dropped=game.dropped_seats()) if engine.is_over(new_state) else None
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
    def _result(state: GameState, resigned: int | None = None, dropped: Sequence[int] = ()) -> dict[str, Any]:
        """Scores and standings; players dropped for their time share the place after those who stayed, and one
        who resigned comes last."""
        gone = {*dropped, *([resigned] if resigned is not None else [])}
        standings = [[s for s in group if s not in gone] for group in engine.standings(state)]
        standings = [group for group in standings if group]
        standings += [sorted(set(dropped) - {resigned})] if set(dropped) - {resigned} else []
        standings += [[resigned]] if resigned is not None else []
        result: dict[str, Any] = {"scores": engine.scores(state), "standings": standings, "resigned": resigned}
        if dropped:
            outcomes = ["dropped" if seat in dropped else "played" for seat in range(len(result["scores"]))]
            if resigned is not None and resigned not in dropped:
                outcomes[resigned] = "resigned"
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
    async def resign(self, channel_id: int, user_id: int) -> tuple[GameRow, GameState]:
        """A player gives up: the game ends, the others ranked by score and the resigning player last."""
        game = await self.active_game(channel_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        if game.by_seat()[seat].dropped:  # already out: the others play on
            raise Refusal("dropped_for_good")
        state = self.state_of(game)
        if not await self.store.finish(game.id, "over", self._result(state, seat, game.dropped_seats())):
            raise Refusal("raced")
        finished = await self._changed(game.id)
        await self.settle(finished)
        return finished, state

    async def abort(self, channel_id: int, user_id: int, *, is_admin: bool) -> GameRow:
        game = await self.open_game(channel_id, broken_too=True)  # a quarantined game can still be ended
        if user_id != game.creator_id and not is_admin:
            raise Refusal("only_creator_aborts")
        if not await self.store.finish(game.id, "aborted", None):
            raise Refusal("raced")
        return await self._changed(game.id)

    # --- results and ratings -----------------------------------------------------------------------------------
    async def settle(self, game: GameRow) -> None:
        """Record a finished game's result and ratings. A failure here must not undo the finished game: it is
        logged, and :meth:`settle_pending` (run at start-up) records the result later."""
        try:
            await ratings.settle(self.store, game)
        except Exception:
            log.exception("game %s: its result could not be recorded", game.id)

    async def settle_pending(self) -> int:
        return await ratings.settle_pending(self.store)

    # --- preferences ---------------------------------------------------------------------------------------------
    async def set_notify(self, user_id: int, enabled: bool, locale: str | None = None) -> None:
        """Opt in or out of turn DMs (written in ``locale``); opting in again retries closed DMs."""
        await self.store.set_user(user_id, notify_dm=enabled, dm_closed_told=False, locale=locale)


__all__ = [
    "GameService",
    "Needed",
    "Refusal",
    "TimedOut",
    "Turn",
    "Undone",
    "first_open_option",
    "matching",
    "seat_order",
    "tokens_for",
]
