"""Public posts: the board picture with one line of what happened, the players to act, and their DMs.

Pictures are drawn in a worker thread, never on the event loop. A picture that fails to draw is logged with the
game id and the post goes out without it, so a renderer bug never blocks a game.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from datetime import datetime

import discord

import engine
from bot.clock import Clock, SystemClock
from bot.games import adapter_of
from bot.personal import away_lines, seat_notes
from bot.picker import board_view
from bot.pictures import draw
from bot.store import GameRow, Store
from bot.texts import guild_locale, text
from bot.words import standings_text
from engine import Event, GameState

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class Poster:
    """Posts boards for the bot; holds no game state. ``client`` finds users to DM; ``store`` keeps their choices."""

    def __init__(self, client: discord.Client, store: Store, clock: Clock | None = None) -> None:
        self.client = client
        self.store = store
        self.clock = clock or SystemClock()

    async def post_board(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        *,
        guild: discord.Guild | None,
        headline: str = "",
        events: Sequence[Event] = (),
        ping: Sequence[int] = (),
    ) -> discord.Message:
        """Post the board; mention each seat in ``ping`` exactly once (in the post or by DM)."""
        locale = guild_locale(guild)
        notes = await seat_notes(self.store, game, self.clock.now(), locale) if game.status == "active" else []
        png = await draw(game, state, events, locale, notes)
        by_seat = game.by_seat()
        dm_seats, mention_seats = await self._split_by_dm(game, ping)
        lines = [headline] if headline else []
        if game.status == "over":
            lines.append(text("bot.post.game_over", locale))
            lines.append(standings_text(game, locale))
        else:
            lines.append(self._to_act_line(game, state, locale, mention_seats))
            lines += await away_lines(self.store, game, self.clock.now(), locale)
        content = "\n".join(line for line in lines if line)[:2000]
        files = [discord.File(io.BytesIO(png), filename=f"azul-{game.id}-{game.version}.png")] if png else []
        view = board_view(game, locale) if game.status == "active" else discord.utils.MISSING
        message = await channel.send(content, files=files, view=view, allowed_mentions=MENTION_USERS)
        await self.store.set_message(game.id, "board", message.id)
        if game.board_message_id and game.board_message_id != message.id:
            await self._retire_board(channel, game.board_message_id)
        for seat in dm_seats:
            await self._dm_turn(channel, game, by_seat[seat].user_id, message, locale)
        return message

    @staticmethod
    async def _retire_board(channel: discord.abc.Messageable, message_id: int) -> None:
        """Take the Play button off the previous board, so only the newest board offers a live one."""
        get = getattr(channel, "get_partial_message", None)
        if get is None:
            return
        try:
            await get(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("the previous board %s could not be edited (deleted?)", message_id)

    async def post_reminder(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        guild: discord.Guild | None,
        seats: Sequence[int] | None = None,
    ) -> None:
        """One nudge for the players (``seats``, else all who must act) keeping the table waiting (by DM for those
        who opted in)."""
        locale = guild_locale(guild)
        waiting = sorted(engine.to_act(state) if seats is None else seats)
        dm_seats, mention_seats = await self._split_by_dm(game, waiting)
        since = int(datetime.fromisoformat(game.turn_since).timestamp())
        people = ", ".join(
            f"<@{seat.user_id}>" if number in mention_seats else f"**{seat.name}**"
            for number, seat in enumerate(game.by_seat())
            if number in waiting
        )
        message = await channel.send(
            text("bot.post.reminder", locale, players=people, since=f"<t:{since}:R>", game=game.id),
            allowed_mentions=MENTION_USERS,
        )
        for seat in dm_seats:
            await self._dm_turn(channel, game, game.by_seat()[seat].user_id, message, locale)

    async def _split_by_dm(self, game: GameRow, ping: Sequence[int]) -> tuple[list[int], set[int]]:
        """Seats to reach by DM (opted in, DMs not known closed) and seats to mention in the post."""
        by_seat = game.by_seat()
        dm, mention = [], set()
        for seat in ping:
            prefs = await self.store.user(by_seat[seat].user_id)
            if prefs.notify_dm and not prefs.dm_closed_told:
                dm.append(seat)
            else:
                mention.add(seat)
        return dm, mention

    def _to_act_line(self, game: GameRow, state: GameState, locale: str, mention: set[int]) -> str:
        by_seat = game.by_seat()
        to_act = sorted(engine.to_act(state))
        people = ", ".join(f"<@{by_seat[s].user_id}>" if s in mention else f"**{by_seat[s].name}**" for s in to_act)
        prompt = adapter_of(game.variant).turn_prompt(state, people, locale)
        key = "bot.post.to_act_many" if len(to_act) > 1 else "bot.post.to_act"
        return prompt or text(key, locale, players=people)

    async def _dm_turn(
        self, channel: discord.abc.Messageable, game: GameRow, user_id: int, board: discord.Message, locale: str
    ) -> None:
        """A DM with a link to the board; when DMs are closed, ping in the channel instead and say so once."""
        store = self.store
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            prefs = await store.user(user_id)
            await user.send(text("bot.post.dm_turn", prefs.locale or locale, link=board.jump_url, game=game.id))
            return
        except (discord.Forbidden, discord.HTTPException):
            log.info("game %s: DM to %s failed; pinging in the channel instead", game.id, user_id)
        await store.set_user(user_id, dm_closed_told=True)
        await channel.send(
            text("bot.post.dm_closed", locale, user=f"<@{user_id}>"),
            allowed_mentions=MENTION_USERS,
        )
