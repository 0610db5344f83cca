"""The Whole table button under every board: the posted picture is made for a phone (the shared area, the board of
whoever acts next, a row for each other player), so every board at full size is one tap away. The answer is
ephemeral, just for the one who asks; it shows the table as it stands when they ask, with the same notes as the
board (computer, away, time left). The custom id holds only the game id, so the button keeps working after a
restart and on a board that a newer one has replaced in a DM.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.narration import status_text
from bot.app.presence import seat_notes
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged


class TableButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:table:(?P<game>{NUMBER})",
):
    def __init__(self, game_id: int, label: str = "Whole table") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, emoji="🔍", custom_id=f"azul:table:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        game = bounded(match["game"])
        return forged(cls(0)) if game is None else cls(game)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        await show_whole_table(bot, interaction, self.game_id)


async def show_whole_table(context: BotContext, interaction: discord.Interaction, game_id: int) -> None:
    """Answer ``interaction``, for its user alone, with the whole table of game ``game_id`` as it stands now."""
    service = context.service
    game = await service.tables.game(game_id)
    if game is None or game.state is None or game.broken or game.status == "aborted":
        raise Refusal("stale")
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = user_locale(interaction)
    state = service.tables.state_of(game)
    notes = (
        await seat_notes(service.users, service.timers, game, service.clock.now(), locale)
        if game.status == "active"
        else []
    )
    png = await context.pictures.draw_table(game, state, locale, notes)
    files = [discord.File(io.BytesIO(png), filename=f"azul-{game.id}-table.png")] if png else []
    said = text("bot.table.whole", locale)
    await interaction.edit_original_response(content=f"{said}\n{status_text(game, state, locale)}", attachments=files)


def table_button(game_id: int, locale: str) -> TableButton:
    return TableButton(game_id, text("bot.button.table", locale))


__all__ = ["TableButton", "show_whole_table", "table_button"]
