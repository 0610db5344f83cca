"""A thread per game: a game opened with ``thread`` (``/azul new``, or the server's default from ``/azul server``)
moves into a thread of its channel when it starts, named after it ("Azul #42 — alice, bob"). Its lobby message
stays in the channel, with a link; boards, pings and the summary go to the thread, so one channel holds many games.

Without the permission to create threads the bot says so in the channel and the game is played there. A thread
that was archived or locked meanwhile is reopened before a board is posted (see :class:`bot.ui.posting.Poster`).
"""

from __future__ import annotations

import logging

import discord

from bot.app.language import text
from bot.app.narration import seat_label
from bot.app.ports import Games
from bot.app.records import GameRow
from bot.games.base import variant_label
from bot.ui.replies import channel_of, public_locale

log = logging.getLogger(__name__)

NAME_LIMIT = 100  # Discord's longest channel name


def thread_name(game: GameRow, locale: str) -> str:
    names = ", ".join(seat_label(game, seat, locale, escape=False) for seat in game.by_seat())
    return f"{variant_label(game.variant, locale)} #{game.id} — {names}"[:NAME_LIMIT]


async def open_thread(
    games: Games, interaction: discord.Interaction, game: GameRow
) -> tuple[GameRow, discord.abc.Messageable]:
    """Where the started ``game`` is played: its new thread (started from the lobby message), or this channel when
    the game wants none, is in a thread already, or the bot may not create one (then it says so)."""
    channel = channel_of(interaction)
    if not game.thread or not isinstance(channel, discord.TextChannel):
        return game, channel
    locale = public_locale(interaction)
    name = thread_name(game, locale)
    try:
        if game.lobby_message_id is not None:
            thread = await channel.get_partial_message(game.lobby_message_id).create_thread(name=name)
        else:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    except discord.HTTPException as error:
        log.info("game %s: no thread (%s); played in the channel", game.id, error)
        await channel.send(
            text("bot.thread.cannot", locale, game=game.id), allowed_mentions=discord.AllowedMentions.none()
        )
        return game, channel
    return await games.seating.move_to_thread(game, thread.id), thread


async def reopen(thread: discord.Thread, game: GameRow, locale: str) -> bool:
    """Unarchive (and unlock) ``thread`` before posting in it; False, after telling its channel, when that fails."""
    if not (thread.archived or thread.locked):
        return True
    try:
        await thread.edit(archived=False, locked=False)
        return True
    except discord.HTTPException as error:
        log.warning("game %s: thread %s could not be reopened (%s)", game.id, thread.id, error)
    parent = thread.parent
    if isinstance(parent, discord.abc.Messageable):
        try:
            await parent.send(
                text("bot.thread.closed", locale, game=game.id, thread=thread.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("game %s: nor could its channel be told", game.id)
    return False


__all__ = ["open_thread", "reopen", "thread_name"]
