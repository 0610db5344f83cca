"""The end of a game: the Replay, Animation and Rematch buttons under the final board and its summary (the summary's
words are :mod:`bot.app.game_summary`).

The buttons are persistent (``azul:summary:<game>:<what>``): Replay opens the move-by-move viewer and Animation
sends the GIF (both ephemeral, as ``/azul-stats replay`` does); Rematch opens a lobby in the same channel with the
same variant, settings and players, the seat order rotated by one and computer seats at the same levels, and pings
the players once.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.language import text, user_locale
from bot.app.narration import lobby_text
from bot.app.records import GameRow
from bot.games.base import variant_label
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.lobby import lobby_view
from bot.ui.replays import finished_game, open_viewer, send_animation
from bot.ui.replies import channel_of, display_name, public_locale

WHAT = ("replay", "animation", "rematch")


class SummaryButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:summary:(?P<game>{NUMBER}):(?P<what>replay|animation|rematch)",
):
    def __init__(self, game_id: int, what: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if what == "rematch" else discord.ButtonStyle.secondary
        custom_id = f"azul:summary:{game_id}:{what}"
        super().__init__(discord.ui.Button(label=label or what, style=style, custom_id=custom_id))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SummaryButton:
        game = bounded(match["game"])
        return cls(game, match["what"]) if game is not None else forged(cls(0, match["what"]))

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        if self.what == "replay":
            await open_viewer(bot, interaction, self.game_id)
        elif self.what == "animation":
            await send_animation(bot, interaction, await finished_game(bot.service, interaction, self.game_id))
        else:
            await rematch(bot, interaction, self.game_id)


def summary_view(game: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in WHAT:
        view.add_item(SummaryButton(game.id, what, text(f"bot.button.{what}", locale)))
    return view


async def rematch(bot: BotContext, interaction: discord.Interaction, game_id: int) -> None:
    """Open the rematch lobby of ``game_id`` in this channel and invite its other players to join (one ping each)."""
    user = interaction.user
    game, others = await bot.service.seating.rematch(game_id, interaction.channel_id or 0, user.id, display_name(user))
    locale = user_locale(interaction)
    public = public_locale(interaction)
    invited = " ".join(f"<@{u}>" for u in others)
    ping = text(
        "bot.summary.rematch_post" if others else "bot.summary.rematch_open", public, game=game_id, players=invited
    )
    channel = channel_of(interaction)
    if game.channel_id != interaction.channel_id:  # asked in the old game's thread: the lobby goes to its channel
        found = interaction.client.get_channel(game.channel_id) or await interaction.client.fetch_channel(
            game.channel_id
        )
        if isinstance(found, discord.abc.Messageable):
            channel = found
    message = await channel.send(
        f"{lobby_text(game, public)}\n{ping}",
        view=lobby_view(game, public),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in others]),
    )
    await bot.service.games.set_message(game.id, "lobby", message.id)
    said = text("bot.summary.rematch_reply", locale, variant=variant_label(game.variant, locale), link=message.jump_url)
    await interaction.response.send_message(said, ephemeral=True)  # where the lobby is: in a thread, the channel


__all__ = ["SummaryButton", "rematch", "summary_view"]
