"""Leagues: sign up once, get paired every round, watch the standings. The league service (no Discord here).

Design
------
Tables (migration 17, :mod:`bot.infra.store.leagues`): ``leagues`` (settings, status ``signup`` → ``running`` ⇄
``paused``
→ ``over``, the current round, the sign-up and standings messages), ``league_players`` (``in`` until they withdraw
or are dropped), ``league_rounds`` (one row per round with the time it starts and its state ``pending`` → ``open`` →
``over``) and ``league_tables`` (each table's players, the thread and game opened for it, its result).

Round starts are timers: a ``league_rounds`` row is due at its ``due_at`` (a row of its own rather than a kind in
``timers``, whose rows belong to a game and a seat: a round has neither until it opens). The bot's timer loop
(``LeagueRuns.tick`` in :mod:`bot.ui.commands.league`, run with every timer pass) claims a due round in the store's
``claims`` (``league-round:<league>:<round>``, leased, so a process that dies mid-way leaves it to another after
the lease), stores its tables once, opens a thread and a game per table (each step idempotent: a table remembers
its thread, and the thread's open game is reused), and marks the round ``open`` with one guarded write, so the
announcement is posted once. Sign-up closing works the same way (the league's ``signup_closes``).

Results: a finished game is settled by :mod:`bot.app.ratings` (results and ratings are written by
``Settlement.settle``); the league reads the game's stored result (``result_seats``: score and place per seat)
into its table (:meth:`LeagueService.record_results`, guarded: once per table). ``Settlement`` tells listeners
that a game was settled, and the bot then runs the league's tick at once; the timer loop runs it every minute as
well, so a result missed by a crash is recorded after the restart. When a round's last table has its result, the
round closes and the next one is scheduled (at once, or ``round_days`` after the previous round began), or the
league ends with its final standings. An aborted game counts for nobody (no points either way).

Pairing and standings are pure functions (:mod:`bot.app.league_rules`): Swiss by points, then OpenSkill rating (the
conservative estimate of the game's family), with no repeat while another pairing exists; round robin by the
circle method (2-player tables) or a greedy schedule with its imbalance stated (3–4). Byes are worth an average
result, or the leftover players get computer seats (the organiser's choice). Tie-breaks: points, Buchholz (Swiss),
total game score, head-to-head, sign-up order.

Withdrawing (or being dropped) drops the player's seats in their running league games (the strongest computer plays
them to the end, and they rank last there whatever it scores) and leaves them out of later pairings; they stay in
the standings, after everyone still in. Pausing keeps running games going but starts no new round until
resumed; ending early closes the league with the standings as they are, and its running games end unrated.
League games open in a thread of the league's channel each (a channel holds one open game).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import engine
from bot.app import league_rules, ratings
from bot.app.computer import STRONGEST
from bot.app.errors import Refusal
from bot.app.league_rules import BYE, LEFTOVERS, Entrant, Line, Played, Round
from bot.app.outcomes import Opened, Recorded
from bot.app.service import GameService
from bot.app.timers import LIMIT_HOURS, ON_TIMEOUT
from bot.infra.clock import Clock, iso
from bot.infra.store import GameRow
from bot.infra.store.leagues import LeaguePlayer, LeagueRow, TableRow

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round_robin")
NAME_LENGTH = 40
MAX_ROUNDS = 15
ROUND_LEASE = timedelta(minutes=5)
"""How long opening a round stays with one bot process (another takes it over if that process dies)."""


def played_at(league: LeagueRow, table: TableRow) -> Played | None:
    """What a table's recorded result counts for in the standings (None while unplayed, or when it was void)."""
    result = table.result
    if result is None or result.get("void"):
        return None
    if table.bye:
        return Played(table.round, table.players, bye=True, table_size=league.table_size)
    return Played(
        table.round,
        table.players,
        tuple(result["scores"]),
        tuple(result["places"]),
        table_size=league.table_size,
        left=tuple(outcome != "played" for outcome in result.get("outcomes", ())),
    )


class LeagueService:
    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store

    @property
    def clock(self) -> Clock:
        return self.games.clock

    # --- organisers ------------------------------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        variant: str,
        format: str,
        table_size: int = 2,
        rounds: int = 3,
        time_limit_hours: int = 24,
        on_timeout: str = "computer",
        rated: bool = True,
        leftover: str = BYE,
        signup_hours: int = 48,
        round_days: int = 0,
    ) -> LeagueRow:
        name = " ".join(name.split())[:NAME_LENGTH]
        if not name:
            raise Refusal("league_no_name")
        spec = engine.get_variant(variant)
        if format not in FORMATS:
            raise Refusal("league_bad_format")
        if not spec.min_players <= table_size <= spec.max_players:
            raise Refusal("bad_seats", min=spec.min_players, max=spec.max_players)
        if format == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
            raise Refusal("league_bad_rounds", max=MAX_ROUNDS)
        if time_limit_hours not in LIMIT_HOURS or not time_limit_hours:
            raise Refusal("league_needs_limit")  # time limits are what guarantee that every round ends
        if on_timeout not in ON_TIMEOUT or leftover not in LEFTOVERS:
            raise Refusal("bad_on_timeout")
        for other in await self.store.leagues.leagues_in(guild_id):  # names differ in more than case
            if other.name.casefold() == name.casefold():
                raise Refusal("league_name_taken", name=other.name)
        closes = self.clock.now() + timedelta(hours=signup_hours)
        league_id = await self.store.leagues.create(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            name=name,
            variant=variant,
            format=format,
            table_size=table_size,
            rounds=rounds if format == "swiss" else 0,
            time_limit_hours=time_limit_hours,
            on_timeout=on_timeout,
            rated=rated,
            leftover=leftover,
            signup_closes=iso(closes),
            round_days=round_days,
        )
        if league_id is None:
            raise Refusal("league_name_taken", name=name)
        log.info("league %s (%s) created in server %s", league_id, name, guild_id)
        return await self.league(league_id)

    async def league(self, league_id: int) -> LeagueRow:
        league = await self.store.leagues.league(league_id)
        if league is None:
            raise Refusal("league_unknown")
        return league

    async def find(self, league_id: int) -> LeagueRow | None:
        """The league with this id, or None (:meth:`league` refuses instead)."""
        return await self.store.leagues.league(league_id)

    async def leagues_in(self, guild_id: int, *, finished: bool = False) -> list[LeagueRow]:
        """The server's leagues, newest first: those not over (or, with ``finished``, every one)."""
        return await self.store.leagues.leagues_in(guild_id, finished=finished)

    async def leagues_with(self, status: str) -> list[LeagueRow]:
        return await self.store.leagues.leagues_with(status)

    async def set_message(self, league_id: int, kind: str, message_id: int) -> None:
        """Remember the league's ``signup`` or ``standings`` message, to edit it later."""
        await self.store.leagues.set_league_message(league_id, kind, message_id)

    async def tables(self, league_id: int, number: int | None = None) -> list[TableRow]:
        """The tables of one round, or of every round, in order."""
        return await self.store.leagues.tables(league_id, number)

    async def due_rounds(self) -> list[tuple[int, int]]:
        """Rounds whose start is due now, of running leagues: (league, round), earliest first."""
        return await self.store.leagues.due_rounds(iso(self.clock.now()))

    async def open_rounds(self) -> list[tuple[int, int]]:
        return await self.store.leagues.open_rounds()

    async def mark_round_open(self, league_id: int, number: int) -> bool:
        """The round's tables are all opened; False when another process marked it first."""
        return await self.store.leagues.set_round_state(league_id, number, "pending", "open")

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """Record the thread opened for a table."""
        await self.store.leagues.set_table(table_id, "channel_id", thread_id)

    async def named(self, guild_id: int, name: str) -> LeagueRow:
        """The server's league of that name (any case; the newest, finished ones too)."""
        wanted = " ".join(name.split()).casefold()
        for league in await self.store.leagues.leagues_in(guild_id, finished=True):
            if league.name.casefold() == wanted:
                return league
        raise Refusal("league_unknown")

    async def set_paused(self, league: LeagueRow, paused: bool) -> LeagueRow:
        was, status = (("running",), "paused") if paused else (("paused",), "running")
        if not await self.store.leagues.set_status(league.id, was, status):
            raise Refusal("league_not_running" if paused else "league_not_paused")
        return await self.league(league.id)

    async def end_games(self, league: LeagueRow) -> list[GameRow]:
        """The running games of a league that ended early end too, unrated (its standings are final: a result
        coming later would change nothing, and their clocks and pings would go on for nothing)."""
        ended = []
        for table in await self.store.leagues.tables(league.id):
            if table.game_id is not None and (game := await self.games.endings.cancel(table.game_id)) is not None:
                ended.append(game)
        if ended:
            log.info("league %s: ended early; %d running games cancelled", league.id, len(ended))
        return ended

    async def end(self, league: LeagueRow) -> LeagueRow:
        if not await self.store.leagues.set_status(league.id, ("signup", "running", "paused"), "over"):
            raise Refusal("league_over")
        return await self.league(league.id)

    # --- players ---------------------------------------------------------------------------------------------------
    async def join(self, league_id: int, user_id: int, name: str) -> tuple[LeagueRow, list[LeaguePlayer]]:
        league = await self.league(league_id)
        if league.status != "signup":
            raise Refusal("league_signup_closed")
        if not await self.store.leagues.add_player(league.id, user_id, name):
            players = await self.store.leagues.players(league.id)
            raise Refusal("league_joined_already" if any(p.user_id == user_id for p in players) else "league_raced")
        return league, await self.store.leagues.players(league.id)

    async def leave(self, league_id: int, user_id: int) -> tuple[LeagueRow, list[LeaguePlayer]]:
        league = await self.league(league_id)
        if league.status != "signup":
            raise Refusal("league_signup_closed_withdraw")
        if not await self.store.leagues.remove_player(league.id, user_id):
            raise Refusal("league_not_in")
        return league, await self.store.leagues.players(league.id)

    async def withdraw(self, league: LeagueRow, user_id: int, *, status: str = "withdrew") -> list[GameRow]:
        """The player leaves a running league (``dropped``: the organiser drops them): no more pairings, and the
        strongest computer plays on in their running games (returned, to be announced there)."""
        if league.status == "signup":
            await self.leave(league.id, user_id)
            return []
        if league.status == "over":
            raise Refusal("league_over")
        if not await self.store.leagues.set_player_status(league.id, user_id, status):
            raise Refusal("league_not_in")
        handed: list[GameRow] = []
        for table in await self.store.leagues.tables(league.id):
            if table.game_id is None or user_id not in table.players:
                continue
            game = await self.games.tables.game(table.game_id)
            seat = game.seat_of(user_id) if game is not None else None
            if game is None or seat is None or game.status != "active" or game.by_seat()[seat].dropped:
                continue
            handed.append(await self.games.stand_ins.drop(game.id, seat))
        log.info("league %s: player %s %s", league.id, user_id, status)
        return handed

    async def players(self, league: LeagueRow) -> list[LeaguePlayer]:
        return await self.store.leagues.players(league.id)

    # --- standings -------------------------------------------------------------------------------------------------
    async def entrants(self, league: LeagueRow, players: list[LeaguePlayer]) -> list[Entrant]:
        """Players as the pairing sees them: with their OpenSkill rating in the league's game (the conservative
        estimate; a newcomer's is the starting one)."""
        family = ratings.family_of(league.variant)
        entrants = []
        for player in players:
            known = [row for row in await self.games.store.results.ratings_of(player.user_id) if row.family == family]
            skill = (known[0].mu, known[0].sigma) if known else ratings.initial()
            entrants.append(Entrant(player.user_id, ratings.ordinal(skill), player.joined))
        return entrants

    async def history(self, league: LeagueRow) -> list[Played]:
        """Every table with a result, as the rules read it (a void game counts for nobody)."""
        return [played for table in await self.store.leagues.tables(league.id) if (played := played_at(league, table))]

    async def standings(self, league: LeagueRow) -> tuple[list[Line], list[LeaguePlayer]]:
        players = await self.store.leagues.players(league.id)
        entrants = [Entrant(p.user_id, 0.0, p.joined) for p in players]
        out = [p.user_id for p in players if p.status != "in"]
        return league_rules.standings(entrants, await self.history(league), swiss=league.swiss, out=out), players

    # --- rounds ----------------------------------------------------------------------------------------------------
    async def close_signup(self, league: LeagueRow) -> tuple[LeagueRow, bool]:
        """Sign-up is over: the league starts with round 1 due now, or (fewer players than a table needs) is
        cancelled. Returns the league and whether it started; raises ``raced`` when another process did it."""
        players = await self.store.leagues.players(league.id)
        needed = max(2, engine.get_variant(league.variant).min_players)
        if len(players) < needed:
            if not await self.store.leagues.set_status(league.id, ("signup",), "over"):
                raise Refusal("raced")
            return await self.league(league.id), False
        rounds = league.rounds if league.swiss else league_rules.round_robin_rounds(len(players), league.table_size)
        if not await self.store.leagues.start(league.id, rounds, iso(self.clock.now())):
            raise Refusal("raced")
        return await self.league(league.id), True

    async def enough_players(self, league: LeagueRow) -> bool:
        """Whether at least two players are still in (else no round can be played)."""
        return sum(player.status == "in" for player in await self.store.leagues.players(league.id)) >= 2

    async def pair(self, league: LeagueRow, number: int) -> list[TableRow]:
        """The round's tables: stored once (the first call pairs them, later calls read them back)."""
        existing = await self.store.leagues.tables(league.id, number)
        if existing:
            return existing
        players = await self.store.leagues.players(league.id)
        still_in = [p for p in players if p.status == "in"]
        history = await self.history(league)
        if league.swiss:
            chosen = league_rules.swiss_round(
                await self.entrants(league, still_in), history, size=league.table_size, leftover=league.leftover
            )
        else:
            chosen = league_rules.round_robin_round(
                [p.user_id for p in players],
                number,
                history,
                size=league.table_size,
                leftover=league.leftover,
                still_in=[p.user_id for p in still_in],
            )
        await self._store_round(league, number, chosen)
        return await self.store.leagues.tables(league.id, number)

    async def _store_round(self, league: LeagueRow, number: int, chosen: Round) -> None:
        tables: list[tuple[tuple[int | None, ...], bool]] = [(table, False) for table in chosen.tables]
        tables += [((user,), True) for user in chosen.byes]
        await self.store.leagues.add_tables(league.id, number, tables)
        if chosen.repeats:
            log.info(
                "league %s round %s: %s pairs meet again (no other pairing existed)", league.id, number, chosen.repeats
            )

    async def open_game(self, league: LeagueRow, table: TableRow, channel_id: int) -> Opened:
        """Open and start the table's game in ``channel_id`` (its thread); done again after a crash, it finishes
        what was left: the lobby already open there is reused and only the missing seats are filled."""
        await self.store.leagues.set_table(table.id, "channel_id", channel_id)
        players = await self.store.leagues.players(league.id)
        names = {p.user_id: p.name for p in players}
        people = [user for user in table.players if user is not None]
        first = people[0]
        game = await self.games.store.games.open_game_in(channel_id)
        if game is None:
            game = await self.games.seating.create(
                guild_id=league.guild_id,
                channel_id=channel_id,
                user_id=first,
                name=names.get(first, str(first)),
                variant=league.variant,
                seats=len(table.players),
                rated=league.rated,
                time_limit_hours=league.time_limit_hours,
                on_timeout=league.on_timeout,
                capped=False,  # leagues outrank the caps on open games: their games neither take nor fill them
            )
        if game.status == "lobby":
            for user in people:
                if not game.has_player(user):
                    game = await self.games.seating.join(
                        channel_id, user, names.get(user, str(user)), game.id, capped=False
                    )
            while len(game.seats) < len(table.players):
                game = await self.games.seating.add_computer(
                    channel_id, first, STRONGEST, is_admin=True, game_id=game.id, capped=False
                )
            game, _ = await self.games.seating.start(channel_id, first, is_admin=True, game_id=game.id)
        await self.store.leagues.set_table(table.id, "game_id", game.id)
        for user in people:  # a player who left meanwhile: the computer plays the seat from the start, for nobody
            if next((p.status for p in players if p.user_id == user), "in") != "in":
                seat = game.seat_of(user)
                if seat is not None and not game.by_seat()[seat].dropped:
                    game = await self.games.stand_ins.drop(game.id, seat)
        return Opened(table, game, self.games.tables.state_of(game))

    async def record_results(self) -> list[Recorded]:
        """Record the result of every open round's finished games (once each); returns those just recorded."""
        recorded = []
        for league_id, number in await self.store.leagues.open_rounds():
            league = await self.league(league_id)
            for table in await self.store.leagues.tables(league_id, number):
                if table.result is not None or table.game_id is None:
                    continue
                result = await self._result_of(table)
                if result is not None and await self.store.leagues.record_result(table.id, result):
                    recorded.append(
                        Recorded(league, (await self.store.leagues.tables(league_id, number))[table.number - 1])
                    )
        return recorded

    async def _result_of(self, table: TableRow) -> dict[str, Any] | None:
        """The table's scores and places (in the order of its players) from the game's stored result; a void
        result for an aborted game; None while the game runs (or is not settled yet)."""
        game = await self.games.tables.game(table.game_id or 0)
        if game is None or game.status == "aborted":
            return {"void": True}
        if game.status != "over":
            return None
        recorded = await self.store.results.seats_of(game.id)
        if not recorded:
            return None  # settled later (settle_pending at start-up)
        people = {seat.user_id: seat for seat in recorded if seat.user_id is not None}
        computers = [seat for seat in recorded if seat.user_id is None]
        seats = [people[user] if user is not None else computers.pop(0) for user in table.players]
        return {
            "scores": [seat.score for seat in seats],
            "places": [seat.place for seat in seats],
            "outcomes": [seat.outcome for seat in seats],
        }

    async def finish_round(self, league: LeagueRow, number: int) -> str | None:
        """Close the round if every table has its result: ``next`` (the next round is scheduled), ``final`` (the
        league is over) or None (games still running, or another process closed it)."""
        tables = await self.store.leagues.tables(league.id, number)
        if any(table.result is None for table in tables):
            return None
        if number >= league.rounds:
            return "final" if await self.store.leagues.close_round(league.id, number, None) else None
        state = await self.store.leagues.round_state(league.id, number)
        began = datetime.fromisoformat(state[1]) if state else self.clock.now()
        due = max(self.clock.now(), began + timedelta(days=league.round_days))
        return "next" if await self.store.leagues.close_round(league.id, number, iso(due)) else None

    async def league_of_game(self, game_id: int) -> tuple[LeagueRow, int] | None:
        """The league and round a game was opened for."""
        found = await self.store.leagues.table_of_game(game_id)
        return (found[1], found[0].round) if found else None


__all__ = ["FORMATS", "LeagueService", "Opened", "Recorded", "played_at"]
