"""What commands and buttons have in common: replying, the single error path, and playing a move.

Slash commands and the Play picker both end in :func:`play`, so a move made either way is checked, saved and
posted the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot import logs, metrics
from bot.games import adapter_of
from bot.posting import names_by_seat
from bot.service import Refusal, Turn
from bot.texts import explain, guild_locale, text, user_locale
from engine import EngineError

if TYPE_CHECKING:
    from bot.client import AzulBot

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> AzulBot:
    from bot.client import AzulBot

    client = interaction.client
    if not isinstance(client, AzulBot):
        raise TypeError("interaction from a client that is not the Azul bot")
    return client


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:80]


def is_admin(interaction: discord.Interaction) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


async def reply(interaction: discord.Interaction, content: str, *, replace: bool = False, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was deferred already.

    ``replace``: the interaction came from an ephemeral picker, whose message the answer replaces.
    """
    if interaction.response.is_done():
        kwargs.setdefault("view", None)  # a refused picker step must not leave its selects behind
        await interaction.edit_original_response(content=content, **kwargs)
    elif replace:
        await interaction.response.edit_message(content=content, view=None)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


async def guarded(
    interaction: discord.Interaction, action: Callable[[], Awaitable[None]], *, replace: bool = False
) -> None:
    """Run ``action``; any refusal becomes an ephemeral explanation, anything unexpected is logged, never shown."""
    logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
    try:
        await action()
    except (Refusal, EngineError) as error:
        metrics.refused(error.key)
        await reply(interaction, explain(error, user_locale(interaction)), replace=replace)
    except Exception as error:
        game = await _game_id_here(interaction)
        log.exception("unexpected error in channel %s (game %s)", interaction.channel_id, game)
        try:
            await reply(interaction, explain(error, user_locale(interaction)), replace=replace)
        except discord.HTTPException:
            log.warning("could not tell the user about the error (game %s)", game)


async def _game_id_here(interaction: discord.Interaction) -> int | None:
    try:
        game = await bot_of(interaction).service.store.latest_game_in(interaction.channel_id or 0)
    except Exception:
        return None
    return game.id if game else None


def headline(turn: Turn, locale: str) -> str:
    """What the move did, in one line: the adapter's words for its events, or the move's notation."""
    names = names_by_seat(turn.game)
    adapter = adapter_of(turn.game.variant)
    said = adapter.describe(turn.events, names, locale)
    return said or text("bot.post.moved", locale, player=names[turn.seat], move=str(turn.move))


async def play(
    interaction: discord.Interaction,
    command: str,
    given: Mapping[str, str | None],
    *,
    game_id: int | None = None,
    version: int | None = None,
    update: bool = False,
) -> None:
    """Apply a move for the interaction's user and post the new board; refusals are raised to :func:`guarded`."""
    bot = bot_of(interaction)
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise Refusal("no_channel")
    if update:  # a picker step: the answer replaces the picker
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
    )
    logs.bind(game=turn.game.id, variant=turn.game.variant)
    metrics.moved(turn.game.variant)
    public = headline(turn, text_locale(interaction))
    locale = user_locale(interaction)
    said = text("bot.reply.played", locale, what=headline(turn, locale))
    try:
        await bot.poster.post_board(
            channel,
            turn.game,
            turn.state,
            guild=interaction.guild,
            headline=public,
            events=turn.events,
            ping=turn.to_ping(),
        )
    except discord.Forbidden:
        # The move is saved; only the post failed. Say so rather than pretend nothing happened.
        log.warning("game %s: no permission to post the board in channel %s", turn.game.id, interaction.channel_id)
        metrics.post_failed("forbidden")
        said += "\n" + text("bot.reply.cannot_post", locale)
    await interaction.edit_original_response(content=said, view=None)
    answered_after = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.answered(answered_after)
    log.info("move %s by seat %s saved", turn.move, turn.seat, extra={"latency_ms": round(answered_after * 1000)})


def text_locale(interaction: discord.Interaction) -> str:
    """The locale of public posts in the interaction's server."""
    return guild_locale(interaction.guild)
