"""Playing a move for the user of an interaction: where slash commands and the Play picker meet.

Parse (the command and its options) → service (check, apply, save) → words and picture (the poster) → reply.
Refusals are raised to the one error path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping, Sequence

import discord

from bot import logs, metrics
from bot.context import bot_of
from bot.errors import BoardNotPosted, MoveSaved
from bot.replies import board_missing, channel_of, display_name, public_locale
from bot.service import Turn
from bot.texts import text, user_locale
from bot.undo import offer_undo
from bot.words import headline

log = logging.getLogger(__name__)


async def play(
    interaction: discord.Interaction,
    command: str,
    given: Mapping[str, str | None],
    *,
    game_id: int | None = None,
    version: int | None = None,
    update: bool = False,
    then: Sequence[Mapping[str, str | None]] = (),
) -> Turn:
    """Apply a move for the interaction's user and post the new board, unless the mover is in the middle of a run
    typed move by move (the grey wall's lines) and nobody else must act: the run's last move posts it, telling all
    (:meth:`GameService.holds_board`).

    ``update``: the interaction is a picker step, whose message the answer replaces. ``then``: more moves of the
    same command played with it (a run, :meth:`GameService.move`), told in one post.
    """
    bot = bot_of(interaction)
    logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
    channel_of(interaction)  # a move where no board can go is refused before it is saved
    if update:
        await interaction.response.defer()
    elif not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    turn = await bot.service.move(
        interaction.channel_id or 0,
        interaction.user.id,
        command,
        given,
        interaction_id=interaction.id,
        game_id=game_id,
        version=version,
        name=display_name(interaction.user),
        then=then,
    )
    logs.bind(game=turn.game.id, variant=turn.game.variant)
    metrics.moved(turn.game.variant)
    try:
        await _tell(interaction, turn)
    except Exception as error:  # the move is saved: whatever failed, the player must hear that it stands
        raise MoveSaved() from error
    finally:
        bot.wake_computer(turn.game.id)
    answered_after = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.answered(answered_after)
    log.info("move %s by seat %s saved", turn.move, turn.seat, extra={"latency_ms": round(answered_after * 1000)})
    return turn


async def _tell(interaction: discord.Interaction, turn: Turn) -> None:
    """After the commit: the board in the channel and the mover's reply."""
    bot = bot_of(interaction)
    channel = channel_of(interaction)
    locale = user_locale(interaction)
    said = text("bot.reply.played", locale, what=headline(turn, locale))
    told = await bot.service.told(turn)
    if bot.service.holds_board(told):
        said += "\n" + text("bot.reply.board_held", locale)
    else:
        try:
            await bot.poster.post_board(
                channel,
                told.game,
                told.state,
                guild=interaction.guild,
                headline=headline(told, public_locale(interaction)),
                events=told.events,
                ping=told.to_ping(),
            )
        except BoardNotPosted as missing:
            # The move is saved; only the post failed. Say so, and why, rather than pretend nothing happened.
            said += "\n" + board_missing(missing.reason, locale)
    # The mover may take the move back from here (while it may be: see bot/undo.py); the button goes stale by itself.
    undo = offer_undo(turn, None, locale)
    await interaction.edit_original_response(content=said, view=undo)


async def after_move(step: Awaitable[None]) -> None:
    """A step that follows a saved move (the picker's next step): whatever it raises, the move stands."""
    try:
        await step
    except Exception as error:
        raise MoveSaved() from error


__all__ = ["after_move", "play"]
