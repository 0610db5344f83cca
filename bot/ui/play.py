"""Playing a move for the user of an interaction: where slash commands and the Play picker meet.

Parse (the command and its options) → service (check, apply, save) → words and picture (the poster) → reply.
Refusals are raised to the one error path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.app.errors import BoardNotPosted, MoveSaved, Refusal
from bot.app.language import guild_locale, text, user_locale
from bot.app.narration import headline
from bot.app.outcomes import Turn
from bot.app.ports import Games
from bot.infra import logs, metrics
from bot.ui.answering import Answer, answering
from bot.ui.context import BotContext
from bot.ui.replies import board_missing, channel_of, display_name
from bot.ui.undo import offer_undo

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameChannel:
    """Where a game is played: its channel's id, the channel to post in, and its server. For an interaction in the
    channel these are the interaction's own; for a Play button in a DM notice they are the game's."""

    channel_id: int
    channel: discord.abc.Messageable
    guild: discord.Guild | None


async def game_channel(games: Games, interaction: discord.Interaction, game_id: int | None) -> GameChannel:
    """The channel of ``game_id`` for this interaction: its own channel in a server, the game's channel from a DM
    (only for a player of the game: anyone else has nothing to play there)."""
    if interaction.guild_id is not None or game_id is None:
        return GameChannel(interaction.channel_id or 0, channel_of(interaction), interaction.guild)
    game = await games.tables.game(game_id)
    if game is None or not game.has_player(interaction.user.id):
        raise Refusal("not_in_game")
    client = interaction.client
    try:
        channel = client.get_channel(game.channel_id) or await client.fetch_channel(game.channel_id)
    except discord.HTTPException:
        raise Refusal("no_channel") from None
    if not isinstance(channel, discord.abc.Messageable):
        raise Refusal("no_channel")
    return GameChannel(game.channel_id, channel, getattr(channel, "guild", None))


async def play(  # noqa: PLR0913 - the move, and where and how it was entered
    bot: BotContext,
    interaction: discord.Interaction,
    command: str,
    given: Mapping[str, str | None],
    *,
    game_id: int | None = None,
    version: int | None = None,
    update: bool = False,
    then: Sequence[Mapping[str, str | None]] = (),
    typed_in: str | None = None,
) -> Turn:
    """Apply a move for the interaction's user and post the new board, unless the mover is in the middle of a run
    typed move by move (the grey wall's lines) and nobody else must act: the run's last move posts it, telling all
    (:meth:`bot.app.outcomes.Turn.holds_board`).

    ``update``: the interaction is a picker step, whose message the answer replaces. ``then``: more moves of the
    same command played with it (a run, :meth:`bot.app.turns.Turns.move`), told in one post. ``typed_in``: the options
    are words typed in this locale (a slash command's).
    """
    logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
    async with answering(interaction, update=update) as answer:
        place = await game_channel(bot.service, interaction, game_id)
        turn = await bot.service.turns.move(
            place.channel_id,
            interaction.user.id,
            command,
            given,
            interaction_id=interaction.id,
            game_id=game_id,
            version=version,
            name=display_name(interaction.user),
            then=then,
            typed_in=typed_in,
        )
        logs.bind(game=turn.game.id, variant=turn.game.variant)
        metrics.moved(turn.game.variant)
        try:
            await _tell(bot, interaction, answer, place, turn)
        except Exception as error:  # the move is saved: whatever failed, the player must hear that it stands
            raise MoveSaved() from error
        finally:
            bot.wake_computer(turn.game.id, turn)
    answered_after = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.answered(answered_after)
    log.info("move %s by seat %s saved", turn.move, turn.seat, extra={"latency_ms": round(answered_after * 1000)})
    return turn


async def _tell(
    bot: BotContext, interaction: discord.Interaction, answer: Answer, place: GameChannel, turn: Turn
) -> None:
    """After the commit: the board in the game's channel (or thread) and the mover's reply (there, or in a DM)."""
    locale, public = user_locale(interaction), guild_locale(place.guild)
    told = headline(turn, locale)
    said = text("bot.reply.played", locale, what=told)
    if turn.held:  # the run's last move posts the board, telling all of it
        said += "\n" + text("bot.reply.board_held", locale)
    else:
        try:
            await bot.poster.post_board(
                place.channel,
                turn.game,
                turn.state,
                guild=place.guild,
                headline=told if public == locale else headline(turn, public),
                events=turn.events,
                ping=turn.to_ping(),
                held=turn.board,
                known=turn.known,
            )
        except BoardNotPosted as missing:
            # The move is saved; only the post failed. Say so, and why, rather than pretend nothing happened.
            said += "\n" + board_missing(missing.reason, locale)
    # The mover may take the move back from here (while it may be: see bot/ui/undo.py); the button goes stale by itself.
    undo = offer_undo(turn, None, locale) if interaction.guild_id is not None else None  # undo is the channel's
    await answer.give(said, undo)


async def after_move(step: Awaitable[None]) -> None:
    """A step that follows a saved move (the picker's next step): whatever it raises, the move stands."""
    try:
        await step
    except Exception as error:
        raise MoveSaved() from error


__all__ = ["GameChannel", "after_move", "game_channel", "play"]
