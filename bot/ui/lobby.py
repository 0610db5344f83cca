"""The lobby: its message with persistent Join / Leave / Start buttons, and what joining, leaving and starting do.

Slash commands (:mod:`bot.ui.commands.table`) and the buttons both end in :func:`lobby_action`; starting posts the
first board.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.app.computer import LEVELS
from bot.app.language import guild_locale, text, user_locale
from bot.app.narration import ROBOT, level_label, lobby_text, shown_names
from bot.app.outcomes import Opening
from bot.app.records import GameRow
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.replies import channel_of, display_name, is_admin, public_locale, reply
from bot.ui.threads import open_thread
from engine import GameState

log = logging.getLogger(__name__)


def lobby_view(game: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
    ):
        view.add_item(LobbyButton(game.id, action, text(f"bot.button.{action}", locale), style))
    for level in LEVELS:  # a second row: give a seat to a computer of each level
        label = text("bot.button.computer", locale, level=level_label(level, locale))
        view.add_item(LobbyButton(game.id, f"computer-{level}", label, row=1))
    return view


class LobbyButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:lobby:(?P<game>{NUMBER}):(?P<action>join|leave|start|computer-(?:easy|medium|hard))",
):
    def __init__(
        self,
        game_id: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        emoji = ROBOT if action.startswith("computer-") else None
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, emoji=emoji, row=row, custom_id=f"azul:lobby:{game_id}:{action}"
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        game = bounded(match["game"])
        return cls(game, match["action"]) if game is not None else forged(cls(0, match["action"]))

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        await lobby_action(bot, interaction, self.action, game_id=self.game_id)


async def refresh_lobby(interaction: discord.Interaction, game: GameRow) -> None:
    """Bring the lobby message up to date (buttons gone once the game started or closed)."""
    await edit_lobby(interaction.client, game, interaction.channel)


async def edit_lobby(client: discord.Client, game: GameRow, here: Any = None) -> None:
    """Bring ``game``'s lobby message up to date: in ``here`` (the channel the game is played in), or in the
    channel above the thread the game moved to."""
    channel = here
    if game.lobby_channel_id is not None:  # the game moved to its thread: the lobby is in the channel above it
        channel = client.get_channel(game.lobby_channel_id)
    if game.lobby_message_id is None or not isinstance(channel, discord.abc.Messageable):
        return
    locale = guild_locale(getattr(channel, "guild", None))
    view = lobby_view(game, locale) if game.status == "lobby" else None
    message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[attr-defined]  # a text channel or thread
    try:
        await message.edit(content=lobby_text(game, locale), view=view, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("game %s: lobby message could not be updated", game.id)


async def lobby_action(
    bot: BotContext, interaction: discord.Interaction, action: str, *, game_id: int | None = None
) -> None:
    """Join, leave, start or seat a computer (``computer-<level>``), from a slash command or a lobby button."""
    service = bot.service
    channel_id = interaction.channel_id or 0
    user = interaction.user
    locale = user_locale(interaction)
    if action == "join":
        game = await service.seating.join(channel_id, user.id, display_name(user), game_id)
        await reply(interaction, text("bot.reply.joined", locale, seats=len(game.seats), max=game.max_seats))
        await refresh_lobby(interaction, game)
    elif action == "leave":
        game = await service.seating.leave(channel_id, user.id, game_id)
        await reply(interaction, text("bot.reply.left", locale))
        await refresh_lobby(interaction, game)
    elif action.startswith("computer-"):
        level = action.removeprefix("computer-")
        game = await service.seating.add_computer(
            channel_id, user.id, level, is_admin=is_admin(interaction), game_id=game_id
        )
        level_name = level_label(level, locale)
        said = text("bot.reply.computer_added", locale, level=level_name, seats=len(game.seats), max=game.max_seats)
        await reply(interaction, said)
        await refresh_lobby(interaction, game)
    elif action == "start":
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await service.seating.start(channel_id, user.id, is_admin=is_admin(interaction), game_id=game_id)
        game, channel = await open_thread(service, interaction, game)  # a thread of its own, when the game wants one
        await refresh_lobby(interaction, game)
        await post_start(bot, interaction, game, state, channel)
        await reply(interaction, text("bot.reply.started", locale))
        bot.wake_computer(game.id)


async def post_start(
    bot: BotContext,
    interaction: discord.Interaction,
    game: GameRow,
    state: GameState,
    channel: discord.abc.Messageable | None = None,
) -> None:
    channel = channel or channel_of(interaction)
    public = public_locale(interaction)
    order = ", ".join(shown_names(game, public))
    headline = text("bot.post.started", public, order=order, how=text(f"bot.order.{game.seat_order}", public))
    opening = Opening.of(state)
    await bot.poster.post_board(
        channel,
        game,
        state,
        guild=interaction.guild,
        headline=headline,
        events=opening.events,
        ping=opening.ping,
    )


__all__ = ["LobbyButton", "lobby_action", "lobby_view", "post_start", "refresh_lobby"]
