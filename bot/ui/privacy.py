"""``/azul-me forget``: a person erases what the bot keeps about them, after one confirm click.

The command explains what goes and what stays and offers the **Delete my data** button (a persistent control whose
custom id holds the person's id, so only they can press it, and it works after a restart). The click erases their
settings, profile, ratings and half-made picks, and anonymises their seats in finished games (the others' games and
results stay whole: see :meth:`bot.app.endings.Endings.forget`). While they sit in an open game (a lobby or a
game in progress) it is refused, with the reason: those games still need them.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.app.errors import Refusal
from bot.app.language import described, named, text, user_locale
from bot.ui.context import BotContext, bot_of
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.replies import reply

FORGOTTEN_NAME = "—"
"""The name an anonymised seat shows in every language: no name at all."""


class ForgetButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:forget:(?P<user>{NUMBER})",
):
    """Erases the data of the person whose id it holds; nobody else may press it."""

    replaces_message = True

    def __init__(self, user_id: int, label: str = "Delete my data") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"azul:forget:{user_id}")
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ForgetButton:
        user = bounded(match["user"])
        return forged(cls(0)) if user is None else cls(user)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("forget_not_yours")
        games = await bot.service.endings.forget(self.user_id, FORGOTTEN_NAME)
        said = text("bot.forget.done", user_locale(interaction), games=games)
        await interaction.response.edit_message(content=said, view=None)


@app_commands.command(name=named("forget"), description=described("bot.cmd.forget"))
async def forget(interaction: discord.Interaction) -> None:
    await bot_of(interaction).service.endings.check_forgettable(interaction.user.id)
    locale = user_locale(interaction)
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(interaction.user.id, text("bot.button.forget", locale)))
    await reply(interaction, text("bot.forget.ask", locale), view=view)


__all__ = ["FORGOTTEN_NAME", "ForgetButton", "forget"]
