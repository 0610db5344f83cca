"""Resigning and cancelling a game, each behind one confirming click.

``/azul resign`` and ``/azul abort`` only ask: they answer with an ephemeral question and a button whose custom id
holds the action, the game, its version and the user who asked. The click does it, but only while the game is still
at that version (a move made meanwhile makes the question stale: the table the player decided on is gone) and only
for that user (an id copied into another message is refused).

Resigning with others still playing (three seats or more) leaves the table playing: the strongest computer plays the
seat to the end and the player ranks last (:meth:`bot.app.endings.Endings.resign`); otherwise it ends the game.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.computer import STRONGEST
from bot.app.errors import BoardNotPosted, Refusal
from bot.app.language import text, user_locale
from bot.app.narration import level_label, shown
from bot.app.ports import Games
from bot.games.base import variant_label
from bot.ui.abort_votes import ask_the_table
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.lobby import refresh_lobby
from bot.ui.replies import after_commit, channel_of, display_name, is_admin, public_locale, reply


class EndButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:end:(?P<action>resign|abort):(?P<game>{NUMBER}):(?P<version>{NUMBER}):(?P<user>{NUMBER})",
):
    """Confirms ``action`` for ``user_id`` in ``game_id`` while the game is at ``version``."""

    replaces_message = True

    def __init__(self, action: str, game_id: int, version: int, user_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle.danger,
                custom_id=f"azul:end:{action}:{game_id}:{version}:{user_id}",
            )
        )
        self.action = action
        self.game_id = game_id
        self.version = version
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EndButton:
        game, version, user = bounded(match["game"]), bounded(match["version"]), bounded(match["user"])
        if game is None or version is None or user is None:
            return forged(cls(match["action"], 0, 0, 0))
        return cls(match["action"], game, version, user)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("confirm_not_yours")
        try:
            if self.action == "resign":
                await resign_now(bot, interaction, self.game_id, self.version)
            else:
                await abort_now(bot.service, interaction, self.game_id, self.version)
        except Refusal as refusal:
            if refusal.key == "stale":  # the game moved on since the question: the answer no longer applies
                raise Refusal(f"confirm_expired_{self.action}", command=self.action) from None
            raise


def confirm_view(action: str, game_id: int, version: int, user_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(EndButton(action, game_id, version, user_id, text(f"bot.button.confirm_{action}", locale)))
    return view


async def ask_to_resign(service: Games, interaction: discord.Interaction) -> None:
    """Say what resigning would do in this game, with the button that does it."""
    game = await service.tables.active(interaction.channel_id or 0)
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("not_in_game")
    if game.by_seat()[seat].dropped:
        raise Refusal("already_resigned" if game.by_seat()[seat].resigned else "dropped_for_good")
    locale = user_locale(interaction)
    plays_on = service.endings.plays_on_without(game, seat)
    key = "bot.confirm.resign_plays_on" if plays_on else "bot.confirm.resign_ends"
    said = text(key, locale, game=game.id, variant=variant_label(game.variant, locale))
    await reply(interaction, said, view=confirm_view("resign", game.id, game.version, interaction.user.id, locale))


async def ask_to_abort(service: Games, interaction: discord.Interaction) -> None:
    """Say which game would be cancelled, with the button that does it, to whoever may cancel it alone; a seated
    player of a game under way asks the table instead (:mod:`bot.ui.abort_votes`)."""
    game = await service.tables.open_in(interaction.channel_id or 0, broken_too=True)  # a quarantined game can end
    if await service.endings.abort_right(game, interaction.user.id, is_admin=is_admin(interaction)) == "vote":
        await ask_the_table(service, interaction, game)  # under way: it takes everyone at the table
        return
    locale = user_locale(interaction)
    key = "bot.confirm.abort_lobby" if game.status == "lobby" else "bot.confirm.abort_game"
    said = text(key, locale, game=game.id, variant=variant_label(game.variant, locale))
    await reply(interaction, said, view=confirm_view("abort", game.id, game.version, interaction.user.id, locale))


async def resign_now(bot: BotContext, interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The confirmed resignation: the final board when it ends the game, else one line saying who plays on."""
    await interaction.response.defer()
    resigned = await bot.service.endings.resign(
        interaction.channel_id or 0, interaction.user.id, game_id=game_id, version=version
    )
    async with after_commit("resignation"):  # the resignation is saved: it stands whatever fails now
        public = public_locale(interaction)
        player = shown(display_name(interaction.user))
        locale = user_locale(interaction)
        channel = channel_of(interaction)
        if resigned.ended:
            said = text("bot.reply.resigned", locale)
            headline = text("bot.post.resigned_headline", public, player=player)
            try:
                await bot.poster.post_board(
                    channel, resigned.game, resigned.state, guild=interaction.guild, headline=headline, ending=True
                )
            except BoardNotPosted:  # the game is over either way; the sweep posts the final board later
                said += "\n" + text("bot.reply.saved", locale)
        else:
            said = text("bot.reply.resigned_plays_on", locale)
            level = level_label(STRONGEST, public)
            bot.wake_computer(resigned.game.id)  # the resigned seat may be the one to move now
            await channel.send(
                text("bot.post.resigned_plays_on", public, player=f"**{player}**", level=level, game=resigned.game.id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await interaction.edit_original_response(content=said, view=None)


async def abort_now(service: Games, interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The confirmed cancellation: the game closes without a result, and the channel is told."""
    await interaction.response.defer()
    game = await service.endings.abort(
        interaction.channel_id or 0,
        interaction.user.id,
        is_admin=is_admin(interaction),
        game_id=game_id,
        version=version,
    )
    async with after_commit("abort"):  # the game is cancelled: it stays cancelled whatever fails now
        public = public_locale(interaction)
        await channel_of(interaction).send(
            text("bot.post.aborted", public, user=shown(display_name(interaction.user)), game=game.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await refresh_lobby(interaction, game)
        said = text("bot.reply.aborted", user_locale(interaction))
        await interaction.edit_original_response(content=said, view=None)


__all__ = ["EndButton", "abort_now", "ask_to_abort", "ask_to_resign", "resign_now"]
