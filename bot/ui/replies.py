"""Answering an interaction: the ephemeral reply, who asked, and the one error path of commands and components.

Handlers contain only their own logic and raise :class:`~bot.app.errors.Refusal` or the engine's errors; the command
tree's ``on_error`` (see :mod:`bot.client`) and every control's callback (see :mod:`bot.ui.controls`) hand them to
:func:`answer_error`, which says why in the user's language and never shows a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands

from bot.app.errors import BoardNotPosted, ChangeSaved, MoveSaved, Refusal, StoreLost, is_store_fault
from bot.app.language import explain, guild_locale, text, user_locale
from bot.infra import logs, metrics
from bot.ui.context import bot_of
from bot.ui.options import transform_refusal
from engine import EngineError

log = logging.getLogger(__name__)


class Deliveries:
    """The ids of the latest interactions this process took up: Discord may deliver one again (a gateway resume),
    and a second answer would be refused by Discord (and a second act could only be a refusal)."""

    def __init__(self, remembered: int = 10_000) -> None:
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._remembered = remembered

    def first(self, interaction_id: int) -> bool:
        """True the first time an id is seen, False after."""
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = None
        if len(self._seen) > self._remembered:
            self._seen.popitem(last=False)
        return True


def is_repeat(interaction: discord.Interaction) -> bool:
    """Whether this interaction was delivered before and taken up then: leave it unanswered."""
    deliveries = getattr(interaction.client, "deliveries", None)
    if not isinstance(deliveries, Deliveries) or deliveries.first(interaction.id):
        return False
    log.info("interaction %s was delivered again; it was taken up already", interaction.id)
    return True


class Outage:
    """Requests refused because the database failed are logged once per outage (an outage: faults less than
    ``QUIET_SECONDS`` apart), with how many were refused, not once per request."""

    QUIET_SECONDS = 60.0

    def __init__(self) -> None:
        self.last: float | None = None
        self.refused = 0

    def note(self, error: BaseException) -> None:
        if isinstance(error, StoreLost):  # the bot is stopping, and says why once (bot.client)
            return
        now = time.monotonic()
        if self.last is None or now - self.last > self.QUIET_SECONDS:
            if self.refused > 1:
                log.warning("the previous database outage refused %d requests", self.refused)
            log.error("the database failed; requests are refused until it works again: %s", error)
            self.refused = 0
        self.last = now
        self.refused += 1


outage = Outage()


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:80]


def is_admin(interaction: discord.Interaction) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def public_locale(interaction: discord.Interaction) -> str:
    """The locale of public posts in the interaction's server."""
    return guild_locale(interaction.guild)


def channel_of(interaction: discord.Interaction) -> discord.abc.Messageable:
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise Refusal("no_channel")
    return channel


async def reply(interaction: discord.Interaction, content: str, *, replace: bool = False, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was deferred already.

    ``replace``: the interaction came from an ephemeral picker, whose message the answer replaces.
    """
    content = content[:2000]  # Discord's limit: a longer answer would not be an answer at all
    if interaction.response.is_done():
        kwargs.setdefault("view", None)  # a refused picker step must not leave its selects behind
        await interaction.edit_original_response(content=content, **kwargs)
    elif replace:
        await interaction.response.edit_message(content=content, view=None)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


def board_missing(reason: str, locale: str) -> str:
    """Why a saved change has no board in the channel (see :class:`bot.ui.posting.BoardNotPosted`)."""
    return text("bot.reply.cannot_post" if reason == "forbidden" else f"bot.reply.board_{reason}", locale)


def unwrap(error: Exception) -> Exception:
    """The error a command raised, out of discord.py's ``CommandInvokeError``."""
    original = getattr(error, "original", None)
    return original if isinstance(original, Exception) else error


async def answer_error(interaction: discord.Interaction, error: Exception, *, replace: bool = False) -> None:
    """The one error policy: a refusal is explained ephemerally; anything unexpected is logged and only a short
    apology is shown."""
    error = unwrap(error)
    logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
    locale = user_locale(interaction)
    if isinstance(error, app_commands.NoPrivateMessage):
        error = Refusal("server_only")
    if isinstance(error, app_commands.TransformerError):  # a value no Discord client sends: out of choices, nobody
        error = transform_refusal(interaction, error)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        error = Refusal("stale_command")  # a client still showing a command tree from before the last sync
    if isinstance(error, BoardNotPosted):  # what was asked is done and saved; only its board is missing
        said = text("bot.reply.saved", locale) + "\n" + board_missing(error.reason, locale)
    elif isinstance(error, MoveSaved):  # a step after the commit failed: the move stands all the same
        log.warning("a step after a saved move failed", exc_info=error.__cause__ or error)
        said = text("bot.reply.move_stands", locale)
    elif isinstance(error, ChangeSaved):  # the same for a resignation, a cancellation, a move taken back
        log.warning("a step after a saved %s failed", error.what, exc_info=error.__cause__ or error)
        said = text(f"bot.reply.stands.{error.what}", locale)
    elif is_store_fault(error):  # nothing was saved: the database is unreachable, full or gone
        outage.note(error)
        said = text("bot.refuse.store_down", locale)
    elif isinstance(error, Refusal | EngineError):
        metrics.refused(error.key)
        said = explain(error, locale)
    else:
        game = await _game_id_here(interaction)
        metrics.unhandled("interaction")
        log.error("unexpected error in channel %s (game %s)", interaction.channel_id, game, exc_info=error)
        said = explain(error, locale)
    try:
        await reply(interaction, said, replace=replace)
    except discord.HTTPException:
        log.warning("could not tell the user in channel %s about the error", interaction.channel_id)


async def _game_id_here(interaction: discord.Interaction) -> int | None:
    try:
        game = await bot_of(interaction).service.tables.latest_in(interaction.channel_id or 0)
    except Exception:
        return None
    return game.id if game else None


@contextlib.asynccontextmanager
async def after_commit(what: str) -> AsyncIterator[None]:
    """The steps after a change was saved (its post, the reply): whatever they raise, the person is told the change
    stands (:class:`ChangeSaved`), never that nothing changed."""
    try:
        yield
    except Exception as error:
        raise ChangeSaved(what) from error


__all__ = [
    "Deliveries",
    "after_commit",
    "answer_error",
    "board_missing",
    "channel_of",
    "display_name",
    "is_admin",
    "is_repeat",
    "public_locale",
    "reply",
    "unwrap",
]
