"""The league's own work in the timer loop (:class:`LeagueRuns`): closing sign-ups, opening rounds (a thread and a
game per table), recording results and keeping the pinned standings current."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import Any, Protocol

import discord

from bot.app.errors import Refusal
from bot.app.language import explain, guild_locale, text
from bot.app.leagues import ROUND_LEASE, Recorded
from bot.app.narration import shown
from bot.app.outcomes import Opening
from bot.app.ports import Games, Leagues, PictureMaker
from bot.app.records import GameRow, LeaguePlayer, LeagueRow, TableRow
from bot.ui.context import BoardPoster
from bot.ui.league_posts import (
    LIST_LIMIT,
    NO_MENTIONS,
    THREAD_NAME,
    imbalance_line,
    result_line,
    round_text,
    settings_lines,
    signup_text,
    signup_view,
    standings_lines,
    standings_rows,
    standings_text,
    standings_title,
)

log = logging.getLogger(__name__)

THREAD_NEEDS = ("create_public_threads", "send_messages_in_threads", "attach_files")
"""What a league needs in its channel: a thread per table, and boards posted in it."""


def thread_permissions_missing(channel: Any) -> list[str]:
    """The permissions the bot lacks in the league's channel to open a round's threads and post in them."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None or not hasattr(channel, "permissions_for"):
        return []
    allowed = channel.permissions_for(guild.me)
    return [name for name in THREAD_NEEDS if not getattr(allowed, name)]


# --- the league's own work in the timer loop -------------------------------------------------------------------------
class Host(Protocol):
    """What the league's work needs from the client."""

    @property
    def service(self) -> Games: ...

    @property
    def poster(self) -> BoardPoster: ...

    @property
    def leagues(self) -> Leagues: ...

    @property
    def pictures(self) -> PictureMaker: ...

    def wake_computer(self, game_id: int) -> None: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...


class LeagueRuns:
    """Closes sign-ups, opens rounds, records results and keeps the standings current: :meth:`tick`, run by the
    timer loop and whenever a game was settled. Every step is claimed in the store and guarded by the rows' states,
    so any number of processes may run it, and one that dies leaves its step to the next."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._lock = asyncio.Lock()
        self._woken: set[asyncio.Task[None]] = set()

    @property
    def leagues(self) -> Leagues:
        return self.host.leagues

    def wake(self) -> None:
        """Run a tick soon (a game was just settled: it may finish a round)."""
        task = asyncio.create_task(self.tick(), name="league tick")
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def settled(self) -> None:
        """Wait for the ticks woken so far (tests, and a clean shutdown)."""
        while self._woken:
            await asyncio.gather(*self._woken, return_exceptions=True)

    async def tick(self) -> None:
        async with self._lock:
            for step in (self._close_signups, self._record, self._finish_rounds, self._open_rounds):
                try:
                    await step()
                except Exception:
                    log.exception("a league step failed (%s); the next tick tries again", step.__name__)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.host.get_channel(channel_id) or await self.host.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise Refusal("no_channel")
        return channel

    async def post(self, league: LeagueRow, key_or_text: str) -> None:
        channel = await self._channel(league.channel_id)
        await channel.send(key_or_text[:LIST_LIMIT], allowed_mentions=NO_MENTIONS)

    async def _claimed(self, work: str) -> bool:
        return await self.host.service.claims.claim(work, ROUND_LEASE)

    # sign-up
    async def _safely(self, what: str, work: Awaitable[None]) -> None:
        """Run one league's piece of work; a failure (Discord refusing a post, a channel gone) is logged and the
        other leagues' work goes on. A round or a sign-up not yet opened or closed stays due in the store and is tried
        again at the next tick; a result line that Discord refused is not posted again (the standings, edited after
        every result, still show it)."""
        try:
            await work
        except Exception:
            log.exception("league work failed: %s", what)

    async def _close_signups(self) -> None:
        now = self.host.service.clock.now()
        for due in await self.leagues.leagues_with("signup"):
            if datetime.fromisoformat(due.signup_closes) <= now:
                await self._safely(f"closing the sign-up of league {due.id}", self._close_signup(due))

    async def _close_signup(self, due: LeagueRow) -> None:
        work = f"league-signup:{due.id}"
        if not await self._claimed(work):
            return
        try:
            league, started = await self.leagues.close_signup(due)
        except Refusal:
            return  # another process closed it first
        finally:
            await self.host.service.claims.release(work)
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        players = await self.leagues.players(league)
        await self.refresh_signup(league, players)
        if not started:
            await self.post(league, text("bot.league.cancelled", locale, name=shown(league.name), count=len(players)))
            return
        said = [text("bot.league.started", locale, name=shown(league.name), count=len(players))]
        said.append(imbalance_line(league, players, locale))
        await self.post(league, "\n".join(line for line in said if line))
        await self.refresh_standings(league)

    async def refresh_signup(self, league: LeagueRow, players: Sequence[LeaguePlayer]) -> None:
        if league.signup_message_id is None:
            return
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        try:
            await channel.get_partial_message(league.signup_message_id).edit(
                content=signup_text(league, players, locale),
                view=signup_view(league, locale),
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException:
            log.info("league %s: the sign-up message could not be updated", league.id)

    # results and standings
    async def _record(self) -> None:
        touched: dict[int, LeagueRow] = {}
        for recorded in await self.leagues.record_results():
            await self._safely(f"announcing table {recorded.table.id}", self._announce_result(recorded))
            touched[recorded.league.id] = recorded.league
        for league in touched.values():
            await self._safely(f"the standings of league {league.id}", self._refresh_standings_of(league.id))

    async def _refresh_standings_of(self, league_id: int) -> None:
        await self.refresh_standings(await self.leagues.league(league_id))

    async def _announce_result(self, recorded: Recorded) -> None:
        league = recorded.league
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        players = await self.leagues.players(league)
        await self.post(league, result_line(league, recorded.table, players, locale))

    async def refresh_standings(self, league: LeagueRow) -> None:
        """Edit the league's pinned standings (post and pin them the first time)."""
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        lines, players = await self.leagues.standings(league)
        content = standings_text(league, lines, players, locale)
        subtitle = settings_lines(league, locale)[0]  # game · format · table size · rounds
        rows = standings_rows(lines, players)
        png = await self.host.pictures.league_standings(
            standings_title(league, locale, league.name), subtitle, rows, league.swiss, locale
        )
        file = discord.File(io.BytesIO(png), filename=f"league-{league.id}-standings.png")
        if league.standings_message_id is not None:
            try:
                await channel.get_partial_message(league.standings_message_id).edit(
                    content=content, attachments=[file], allowed_mentions=NO_MENTIONS
                )
                return
            except discord.NotFound:
                log.info("league %s: the standings message is gone; posting it again", league.id)
        message = await channel.send(content, file=file, allowed_mentions=NO_MENTIONS)
        await self.leagues.set_message(league.id, "standings", message.id)
        try:
            await message.pin()
        except discord.HTTPException:
            log.info("league %s: the standings could not be pinned", league.id)

    async def _finish_rounds(self) -> None:
        for league_id, number in await self.leagues.open_rounds():
            await self._safely(f"closing round {number} of league {league_id}", self._finish_round(league_id, number))

    async def _finish_round(self, league_id: int, number: int) -> None:
        if await self.leagues.finish_round(await self.leagues.league(league_id), number) == "final":
            await self.announce_final(await self.leagues.league(league_id))

    async def tell_game_ended(self, league: LeagueRow, game: GameRow) -> None:
        """A running game of a league that ended early is cancelled: said in its thread."""
        try:
            channel = await self._channel(game.channel_id)
            locale = guild_locale(getattr(channel, "guild", None))
            said = text("bot.league.game_ended_early", locale, name=shown(league.name), game=game.id)
            await channel.send(said, allowed_mentions=NO_MENTIONS)
        except (discord.HTTPException, Refusal):
            log.info("league %s: game %s ended, but its thread could not be told", league.id, game.id)

    async def announce_final(self, league: LeagueRow, *, early: bool = False) -> None:
        channel = await self._channel(league.channel_id)
        locale = guild_locale(getattr(channel, "guild", None))
        lines, players = await self.leagues.standings(league)
        still_in = {p.user_id: shown(p.name) for p in players if p.status == "in"}
        # a winner earned points and stayed in the league (nobody wins a league ended before any game counted)
        winners = [
            still_in[line.user_id] for line in lines if line.rank == 1 and line.points and line.user_id in still_in
        ]
        key = "bot.league.ended_early" if early else "bot.league.over"
        key += "" if winners else "_no_winner"
        said = [text(key, locale, name=shown(league.name), winner=", ".join(f"**{w}**" for w in winners))]
        said += standings_lines(league, lines, players, locale)
        await self.post(league, "\n".join(said))
        await self.refresh_standings(league)

    # rounds
    async def _open_rounds(self) -> None:
        for league_id, number in await self.leagues.due_rounds():
            work = f"league-round:{league_id}:{number}"
            if not await self._claimed(work):
                continue
            try:
                league = await self.leagues.league(league_id)
                await self._safely(f"opening round {number} of league {league_id}", self._open_round(league, number))
            finally:
                await self.host.service.claims.release(work)

    async def _open_round(self, league: LeagueRow, number: int) -> None:
        if not await self.leagues.tables(league.id, number) and not await self.leagues.enough_players(league):
            await self.announce_final(await self.leagues.end(league))  # one player left (or none): nobody to play
            return
        tables = await self.leagues.pair(league, number)
        channel = await self._channel(league.channel_id)
        guild = getattr(channel, "guild", None)
        locale = guild_locale(guild)
        missing = thread_permissions_missing(channel)
        if missing:  # said before any thread or game is made
            await self._blocked(
                league, number, explain(Refusal("league_permissions", permissions=missing), locale), locale
            )
            return
        players = await self.leagues.players(league)
        names = {player.user_id: player.name for player in players}
        for table in tables:
            if table.bye:
                continue
            try:
                thread = await self._thread(league, table, channel, names, locale)
                opened = await self.leagues.open_game(league, table, thread.id)
            except discord.Forbidden:
                why = explain(Refusal("league_permissions", permissions=list(THREAD_NEEDS)), locale)
                await self._blocked(league, number, why, locale)
                return
            except Refusal as refusal:
                await self._blocked(league, number, explain(refusal, locale), locale)
                return
            if opened.game.board_message_id is None:
                people = [user for user in table.players if user is not None]
                welcome = text("bot.league.game_begins", locale, name=shown(league.name), round=number)
                await thread.send(
                    " ".join(f"<@{user}>" for user in people) + " " + welcome,
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user) for user in people]),
                )
                await self.host.poster.post_board(
                    thread, opened.game, opened.state, guild=guild, events=Opening.of(opened.state).events
                )
            self.host.wake_computer(opened.game.id)
        if await self.leagues.mark_round_open(league.id, number):
            tables = await self.leagues.tables(league.id, number)
            await self.post(league, round_text(league, number, tables, players, locale))

    async def _blocked(self, league: LeagueRow, number: int, why: str, locale: str) -> None:
        """A round that cannot open until someone acts: the league is paused (so it is said once, not at every
        tick), and its channel and its organiser are told why and how to go on."""
        log.info("league %s: round %s cannot open (%s); the league is paused", league.id, number, why)
        try:
            league = await self.leagues.set_paused(league, True)
        except Refusal:
            return  # paused or ended meanwhile: whoever did it was told
        said = text("bot.league.blocked", locale, name=shown(league.name), round=number, why=why)
        with contextlib.suppress(discord.HTTPException, Refusal):
            await self.post(league, said)
        if league.creator_id:  # 0: the organiser asked to be forgotten
            with contextlib.suppress(discord.HTTPException):
                await (await self.host.fetch_user(league.creator_id)).send(
                    said[:LIST_LIMIT], allowed_mentions=NO_MENTIONS
                )

    async def _thread(
        self, league: LeagueRow, table: TableRow, channel: Any, names: dict[int, str], locale: str
    ) -> Any:
        """The table's thread: the one made before (a restart mid-round), else a new public thread."""
        if table.channel_id is not None:
            try:
                return await self._channel(table.channel_id)
            except (discord.HTTPException, Refusal):
                log.info("league %s: the thread of table %s is gone; opening another", league.id, table.id)
        people = [
            names.get(user, "?") if user is not None else text("bot.league.computer", locale) for user in table.players
        ]
        title = text("bot.league.thread", locale, name=league.name, round=table.round, players=" – ".join(people))
        thread = await channel.create_thread(
            name=title[:THREAD_NAME], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
        await self.leagues.set_thread(table.id, thread.id)
        return thread


__all__ = ["Host", "LeagueRuns"]
