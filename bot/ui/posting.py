"""Public posts: the board picture with one line of what happened, the players to act, and their DMs.

Pictures are drawn off the event loop (:mod:`bot.app.pictures`). A picture that fails to draw is logged with the
game id and the post goes out without it, so a renderer bug never blocks a game.

A post mentions only the users it means to ping: ``allowed_mentions`` names exactly them, and player names in the
text are escaped, so a nickname that looks like a mention pings nobody. Each board is recorded with the version it
shows (the store then knows which games still need one: see :meth:`bot.client.AzulBot.post_missing_boards`), and
posting it edits the previous board's Play button away. A board that does not get through after a few bounded
attempts raises :class:`BoardNotPosted`, whose ``reason`` the reply puts into words: the move is saved either way.

Each version's board goes out once, whoever posts it (the mover's reply, the sweep of missing boards, a timeout, the
computer, a restarted process): posting it is claimed in the store (kept alive while the post is under way, however
short the operator's lease), and whoever finds it claimed or already posted leaves it. Every send of it carries the
nonce of its (game, version) with ``enforce_nonce``, so Discord itself drops a retried create whose first attempt did
get through. A board a player asks to see again (``/azul board public``) is another kind of message
(:meth:`Poster.show_board`): it neither stands in for a version's board nor is left out because one is out.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import aiohttp
import discord

from bot.app.claims import Claims
from bot.app.errors import BoardNotPosted
from bot.app.game_summary import summary_lines
from bot.app.language import guild_locale, text
from bot.app.movelog import since_lines
from bot.app.narration import headline, seat_label, shown_names, undo_headline
from bot.app.outcomes import BOARD_LEASE, Known, Opening, Turn, Undone, board_work, waiting
from bot.app.ports import Games, PictureMaker
from bot.app.presence import away_lines, seat_notes, seated_prefs
from bot.app.records import GameRow, UserPrefs
from bot.games import adapter_of
from bot.games.base import variant_label
from bot.infra import metrics
from bot.infra.clock import Clock, SystemClock
from bot.ui.threads import reopen
from data.i18n import has
from engine import Event, GameState

log = logging.getLogger(__name__)

POST_ATTEMPTS = 3
"""Sends of one board; discord.py already retries 500, 502, 504 and 524 itself, with growing pauses."""
POST_BUDGET_SECONDS = 10.0
"""All attempts together: the player's deferred reply waits for them, and a later sweep posts what is missing."""


def board_link(game: GameRow) -> str:
    """A link to the game's newest board (or its channel before the first board)."""
    where = f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}"
    return f"{where}/{game.board_message_id}" if game.board_message_id else where


NONCE_LENGTH = 25
"""Discord's longest ``nonce``."""


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    shown = ""
    while True:
        number, digit = divmod(number, 36)
        shown = digits[digit] + shown
        if not number:
            return shown


def board_nonce(game: GameRow, *, ending: bool = False) -> str:
    """The same for every send of one version's board, whoever sends it (Discord allows 25 characters): a retry is
    dropped. A game ended without a move (``ending``) has a final board after its version's own. The epoch that wrote
    the version is in it (``g…``), so the same version made again after a rollback or a restore is a new board."""
    nonce = f"b{game.id}v{game.version}{'e' if ending else ''}" + (f"g{base36(game.epoch)}" if game.epoch else "")
    if len(nonce) > NONCE_LENGTH:  # ids and versions this long do not occur; kept distinct all the same
        nonce = base36(int.from_bytes(hashlib.sha256(nonce.encode()).digest()))[:NONCE_LENGTH]
    return nonce


@contextlib.asynccontextmanager
async def holding(claims: Claims, work: str, lease: timedelta) -> AsyncIterator[bool]:
    """Claim ``work`` and keep the claim alive until the block ends (then release it); yields False, holding
    nothing, when another process has it."""
    if not await claims.claim(work, lease):
        yield False
        return
    try:
        async with renewing(claims, work, lease):
            yield True
    finally:
        with contextlib.suppress(Exception):
            await claims.release(work)


@contextlib.asynccontextmanager
async def renewing(claims: Claims, work: str, lease: timedelta) -> AsyncIterator[None]:
    """Keep a claim on ``work`` that this process holds alive while the block runs (three renewals per lease), however
    long it takes: a computer's search may outlast the lease many times on a busy host."""
    every = (claims.lease or lease).total_seconds() / 3
    loop = asyncio.get_running_loop()
    renewal: asyncio.Task[None] | None = None
    timer: asyncio.TimerHandle

    def due() -> None:
        nonlocal renewal
        renewal = asyncio.create_task(renew(), name=f"keep {work}")

    async def renew() -> None:
        nonlocal timer
        with contextlib.suppress(Exception):  # a failed renewal: the next one tries again
            await claims.claim(work, lease)
        timer = loop.call_later(every, due)  # the next one after this one: never two at once

    # A timer, not a task waiting out the lease: nearly every post ends before its first renewal, and a task costs
    # the event loop its start, its cancellation and its end on every board.
    timer = loop.call_later(every, due)
    try:
        yield
    finally:
        timer.cancel()
        if renewal is not None and not renewal.done():
            renewal.cancel()
            await asyncio.gather(renewal, return_exceptions=True)  # its last renewal ends before a release


def mentioning(user_ids: Sequence[int | None]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged: never everyone, roles, or anyone a name in the text might name (a
    computer seat has no user, so it is never among them)."""
    users = [discord.Object(id=user) for user in user_ids if user is not None]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


@dataclass(frozen=True, slots=True)
class Controls:
    """The buttons a post carries, built by the Discord-facing handlers and handed to the poster by the composition
    root (:mod:`bot.client`), so the poster imports no view, command or picker: ``board`` builds a live game's Play
    button, ``summary`` a finished game's Replay, Animation and Rematch buttons."""

    board: Callable[[GameRow, str], discord.ui.View]
    summary: Callable[[GameRow, str], discord.ui.View]


class Poster:
    """Posts boards for the bot; holds no game state. ``client`` finds users to DM; ``games`` (the service) knows
    their choices; ``pictures`` draws the boards; ``controls`` builds the buttons under them."""

    def __init__(
        self,
        client: discord.Client,
        games: Games,
        pictures: PictureMaker,
        clock: Clock | None = None,
        claims: Claims | None = None,
        *,
        controls: Controls,
    ) -> None:
        self.client = client
        self.games = games
        self.pictures = pictures
        self.controls = controls
        self.clock = clock or SystemClock()
        self.claims = claims
        self._posting: set[str] = set()
        """The boards this process is posting now (the store's claim is per process: this is per poster)."""

    async def post_board(  # noqa: PLR0913 - what the board tells, and whether its claim is held already
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        *,
        guild: discord.Guild | None,
        headline: str = "",
        events: Sequence[Event] = (),
        ping: Sequence[int] = (),
        ending: bool = False,
        held: str = "",
        known: Known | None = None,
    ) -> discord.Message | None:
        """Post the board of ``game``'s version; mention each seat in ``ping`` exactly once (in the post or by DM),
        but never a seat the computer plays. It is posted once, whoever asks (see the module's docstring): None when
        another poster has it or it is out already. ``ending``: the final board of a game that ended without a move
        (a resignation), posted once after the version's own board. ``held``: the claim on this board that the
        move's own write took for this process (:attr:`bot.app.outcomes.Turn.board`): the poster trusts it and
        reads nothing first; ``known``: what the move read already that the post goes by."""
        if game.board_version >= game.version and not ending:
            return None  # out already (the sweep read the game after the move's own post landed)
        work = board_work(game.id, game.version) + (":end" if ending else "")
        if work in self._posting:
            return None
        self._posting.add(work)
        try:
            with self.games.games.posting_board():  # its record shares a commit with others'
                if held == work and self.claims is not None:  # claimed by the move's own write: nobody else posts it
                    return await self._post_held(
                        channel,
                        game,
                        state,
                        guild=guild,
                        headline=headline,
                        events=events,
                        ping=ping,
                        work=work,
                        known=known,
                    )
                async with self._claimed(work) as mine:
                    fresh = await self.games.tables.game(game.id) if mine else None
                    if fresh is None or (fresh.board_version >= game.version and not ending):
                        return None
                    nonce = board_nonce(game, ending=ending)
                    return await self._post_board(
                        channel, game, state, guild=guild, headline=headline, events=events, ping=ping, nonce=nonce
                    )
        finally:
            self._posting.discard(work)

    async def show_board(
        self, channel: discord.abc.Messageable, game: GameRow, state: GameState, *, guild: discord.Guild | None
    ) -> discord.Message:
        """The board again, at a player's request (``/azul board public``): a message of its own that pings nobody.
        It takes the live Play button (the previous board's is edited away), but never the place of the version's
        own board: one still owed is posted all the same, with its pings."""
        return await self._post_board(channel, game, state, guild=guild, headline="", events=(), ping=(), nonce=None)

    async def _post_held(  # noqa: PLR0913 - what the board tells, and the claim and settings its move holds
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        *,
        guild: discord.Guild | None,
        headline: str,
        events: Sequence[Event],
        ping: Sequence[int],
        work: str,
        known: Known | None,
    ) -> discord.Message:
        """Post a board this process holds the claim on: recording it ends the claim; failing releases it at once,
        so another process may try."""
        claims = self.claims
        if claims is None:
            raise RuntimeError("a held board needs the claims it was held in")
        try:
            async with renewing(claims, work, BOARD_LEASE):
                return await self._post_board(
                    channel,
                    game,
                    state,
                    guild=guild,
                    headline=headline,
                    events=events,
                    ping=ping,
                    nonce=board_nonce(game),
                    known=known,
                )
        except BaseException:
            with contextlib.suppress(Exception):
                await claims.release(work)
            raise

    def _claimed(self, work: str) -> contextlib.AbstractAsyncContextManager[bool]:
        if self.claims is None:  # a poster without a store's claims: this process is the only poster
            return contextlib.nullcontext(True)
        return holding(self.claims, work, BOARD_LEASE)

    async def _post_board(  # noqa: PLR0913 - what the board tells, and the settings its move read
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        *,
        guild: discord.Guild | None,
        headline: str,
        events: Sequence[Event],
        ping: Sequence[int],
        nonce: str | None,
        known: Known | None = None,
    ) -> discord.Message:
        """Post the board: a version's own (its ``nonce``), or shown again (None). ``known``: what its move read."""
        locale = guild_locale(guild)
        # The players' settings, read once for the whole post (or by its move).
        prefs = known.prefs if known is not None else await seated_prefs(self.games.users, game)
        now = self.clock.now()
        notes = (
            await seat_notes(self.games.users, self.games.timers, game, now, locale, prefs=prefs)
            if game.status == "active"
            else []
        )
        png = await self.pictures.draw(game, state, events, locale, notes)
        by_seat = game.by_seat()
        dm_seats, mention_seats = await self._split_by_dm(game, ping, prefs)
        lines = [headline] if headline else []
        if game.status == "over":  # the summary, with its Replay, Animation and Rematch buttons
            lines.append(text("bot.post.game_over", locale))
            lines += ending_reason(events, locale)
            lines += await summary_lines(self.games.move_log, self.games.results, game, state, locale)
        else:
            lines.append(self._to_act_line(game, state, locale, mention_seats))
            if len(mention_seats) == 1:  # the one player pinged hears what happened since their last move
                (seat,) = mention_seats
                if not (headline and known is not None and known.nothing_since(seat, game.version)):
                    lines += await since_lines(self.games.move_log, game, seat, locale, skip_last=bool(headline))
            lines += await away_lines(self.games.users, game, now, locale, prefs)
        content = "\n".join(line for line in lines if line)[:2000]
        if isinstance(channel, discord.Thread) and not await reopen(channel, game, locale):
            metrics.post_failed("forbidden")
            raise BoardNotPosted("forbidden")
        view = self.controls.board(game, locale) if game.status == "active" else discord.utils.MISSING
        if game.status == "over":
            view = self.controls.summary(game, locale)
        mentions = mentioning([by_seat[seat].user_id for seat in sorted(mention_seats)])
        message = await self._send(channel, game, content, png, view=view, mentions=mentions, nonce=nonce)
        try:
            _, stale = await self.games.games.set_board(game.id, message.id, game.version, again=nonce is None)
        except Exception as error:
            log.exception("game %s: board %s posted but not recorded", game.id, message.id)
            metrics.post_failed("unrecorded")
            raise BoardNotPosted("unrecorded") from error
        if stale is not None:
            await self._strip_controls(channel, game, stale)
        for seat in dm_seats:
            await self._dm_turn(channel, game, by_seat[seat].user_id or 0, message, locale)
        return message

    async def _send(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        content: str,
        png: bytes | None,
        *,
        view: discord.ui.View,
        mentions: discord.AllowedMentions,
        nonce: str | None,
    ) -> discord.Message:
        """Send the board, a bounded number of times within a bounded time; :class:`BoardNotPosted` says why not.
        Every attempt carries the same ``nonce`` (discord.py adds ``enforce_nonce``)."""
        reason = "discord"
        try:
            async with asyncio.timeout(POST_BUDGET_SECONDS):
                for attempt in range(1, POST_ATTEMPTS + 1):
                    files = (
                        [discord.File(io.BytesIO(png), filename=f"azul-{game.id}-{game.version}.png")] if png else []
                    )
                    try:
                        fresh = (
                            nonce if nonce is not None else secrets.randbits(63)
                        )  # as discord.py's own: any other post
                        return await channel.send(
                            content, files=files, view=view, allowed_mentions=mentions, nonce=fresh
                        )
                    except discord.Forbidden:
                        reason = "forbidden"
                        break
                    except discord.NotFound:
                        reason = "gone"
                        break
                    except discord.HTTPException as error:
                        if error.status < 500:
                            break
                        log.warning("game %s: Discord failed the board post (%s), attempt %s", game.id, error, attempt)
                    except (aiohttp.ClientError, OSError) as error:
                        log.warning("game %s: the board post failed (%s), attempt %s", game.id, error, attempt)
                    if attempt < POST_ATTEMPTS:
                        await asyncio.sleep(0.5 * attempt)
        except TimeoutError:
            reason = "slow"
        log.warning("game %s: board of version %s not posted (%s)", game.id, game.version, reason)
        metrics.post_failed(reason)
        raise BoardNotPosted(reason)

    async def _strip_controls(self, channel: discord.abc.Messageable, game: GameRow, message_id: int) -> None:
        """Only the newest board offers a live Play button: edit it off an older board."""
        partial = getattr(channel, "get_partial_message", None)
        if partial is None:
            return
        try:
            await partial(message_id).edit(view=None)
        except discord.HTTPException as error:  # deleted by someone, or no longer reachable: nothing to strip
            log.info("game %s: the controls of board %s could not be removed (%s)", game.id, message_id, error)

    async def post_late(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        turn: Turn | Undone | None,
        *,
        guild: discord.Guild | None,
    ) -> discord.Message | None:
        """The board that should have followed ``turn`` (a move, a move taken back, or None: the game's start), as
        it would have been posted then."""
        locale = guild_locale(guild)
        if isinstance(turn, Undone):
            said, events, ping = undo_headline(turn, locale), [], turn.to_ping()
        elif turn is None:
            how = text(f"bot.order.{game.seat_order}", locale)
            said = text("bot.post.started", locale, order=", ".join(shown_names(game)), how=how)
            opening = Opening.of(state)
            events, ping = opening.events, opening.ping
        else:
            said, events, ping = headline(turn, locale), turn.events, turn.to_ping()
        return await self.post_board(channel, game, state, guild=guild, headline=said, events=events, ping=ping)

    async def post_reminder(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        guild: discord.Guild | None,
        seats: Sequence[int] | None = None,
        *,
        key: str = "bot.post.reminder",
        **params: str,
    ) -> None:
        """One nudge for the players (``seats``, else all who must act) keeping the table waiting (by DM for those
        who opted in); ``key`` and ``params``: another text than the plain reminder (a time limit's warning)."""
        locale = guild_locale(guild)
        awaited = sorted(set(waiting(state) if seats is None else seats) - set(game.computer_seats()))
        if not awaited:  # only the computer is to move: it is on its way
            return
        dm_seats, mention_seats = await self._split_by_dm(game, awaited)
        since = int(datetime.fromisoformat(game.turn_since).timestamp())
        people = ", ".join(
            f"<@{seat.user_id}>" if number in mention_seats else f"**{seat_label(game, seat, locale)}**"
            for number, seat in enumerate(game.by_seat())
            if number in awaited
        )
        message = await channel.send(
            text(key, locale, players=people, since=f"<t:{since}:R>", game=game.id, **params),
            allowed_mentions=mentioning([game.by_seat()[seat].user_id for seat in sorted(mention_seats)]),
        )
        for seat in dm_seats:
            await self._dm_turn(channel, game, game.by_seat()[seat].user_id or 0, message, locale)

    async def post_nudge(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        seats: Sequence[int],
        player: str,
        guild: discord.Guild | None,
    ) -> None:
        """One nudge from ``player`` to the awaited ``seats``: a ping in the channel, or a DM for those who take their
        turn notices by DM (a ping after all when their DMs are closed)."""
        locale = guild_locale(guild)
        by_seat = game.by_seat()
        dm_seats, mention_seats = await self._split_by_dm(game, seats)
        variant = variant_label(game.variant, locale)
        for seat in dm_seats:
            user_id = by_seat[seat].user_id or 0
            prefs = await self.games.users.user(user_id)
            lang = prefs.locale or locale
            said = text("bot.nudge.dm", lang, player=player, variant=variant_label(game.variant, lang), game=game.id)
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(f"{said}\n{board_link(game)}")
            except discord.HTTPException:
                log.info("game %s: nudge DM to %s failed; pinging in the channel instead", game.id, user_id)
                mention_seats.add(seat)
        if mention_seats:
            people = ", ".join(f"<@{by_seat[seat].user_id}>" for seat in sorted(mention_seats))
            await channel.send(
                text("bot.nudge.post", locale, player=player, variant=variant, game=game.id, players=people),
                allowed_mentions=mentioning([by_seat[seat].user_id for seat in sorted(mention_seats)]),
            )

    async def _split_by_dm(
        self, game: GameRow, ping: Sequence[int], prefs: Mapping[int, UserPrefs] | None = None
    ) -> tuple[list[int], set[int]]:
        """Seats to reach by DM (opted in, DMs not known closed) and seats to mention in the post; never a seat
        the computer plays (it has no one to ping, or its person handed it over). ``prefs``: the players'
        settings, when read already."""
        by_seat = game.by_seat()
        people = prefs if prefs is not None else await seated_prefs(self.games.users, game)
        dm, mention = [], set()
        for seat in ping:
            user_id = by_seat[seat].user_id
            if user_id is None or by_seat[seat].computer_plays:
                continue
            said = people[user_id]
            if said.notify_dm and not said.dm_closed_told:
                dm.append(seat)
            else:
                mention.add(seat)
        return dm, mention

    def _to_act_line(self, game: GameRow, state: GameState, locale: str, mention: set[int]) -> str:
        by_seat = game.by_seat()
        to_act = waiting(state)
        people = ", ".join(
            f"<@{by_seat[s].user_id}>" if s in mention else f"**{seat_label(game, by_seat[s], locale)}**"
            for s in to_act
        )
        prompt = adapter_of(game.variant).turn_prompt(state, people, locale)
        key = "bot.post.to_act_many" if len(to_act) > 1 else "bot.post.to_act"
        return prompt or text(key, locale, players=people)

    async def _dm_turn(
        self, channel: discord.abc.Messageable, game: GameRow, user_id: int, board: discord.Message, locale: str
    ) -> None:
        """A DM with a link to the board; when DMs are closed, ping in the channel instead and say so once."""
        games = self.games
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            prefs = await games.users.user(user_id)
            lang = prefs.locale or locale
            said = text("bot.post.dm_turn", lang, link=board.jump_url, game=game.id)
            seat = game.seat_of(user_id)
            since = await since_lines(games.move_log, game, seat, lang) if seat is not None else []
            # The player's close-up and a Play button whose picker works right here; the move goes to the channel.
            closeup = None
            if seat is not None and game.state is not None:
                notes = (
                    await seat_notes(games.users, games.timers, game, self.clock.now(), lang)
                    if game.status == "active"
                    else []
                )
                closeup = await self.pictures.draw_closeup(game, games.tables.state_of(game), seat, lang, notes)
            files = [discord.File(io.BytesIO(closeup), filename=f"azul-{game.id}-mine.png")] if closeup else []
            content = "\n".join([said, *since])[:2000]
            await user.send(content, files=files, view=self.controls.board(game, lang))
            return
        except (discord.Forbidden, discord.HTTPException):
            log.info("game %s: DM to %s failed; pinging in the channel instead", game.id, user_id)
        await games.users.set_user(user_id, dm_closed_told=True)
        await channel.send(
            text("bot.post.dm_closed", locale, user=f"<@{user_id}>"),
            allowed_mentions=mentioning([user_id]),
        )


def ending_reason(events: Sequence[Event], locale: str) -> list[str]:
    """Why a game ended where the rules are silent (``bot.post.end.<reason>``); nothing for the rules' own end."""
    reason = next((str(event.data.get("reason", "")) for event in events if event.kind == "game_over"), "")
    key = f"bot.post.end.{reason}"
    return [text(key, locale)] if reason and has(key, locale) else []
