"""The base of every persistent button and select: one error path for components.

discord.py only logs what a ``DynamicItem``'s callback raises, so :class:`Control` owns ``callback``: it runs the
subclass's :meth:`Control.act`, which contains only its own logic, and hands any error to
:func:`bot.replies.answer_error`, exactly as the command tree does for slash commands.
"""

from __future__ import annotations

from typing import ClassVar

import discord

from bot.replies import answer_error


class Control:
    """Put it first among the bases: ``class PlayButton(Control, discord.ui.DynamicItem[...], template=...)``."""

    replaces_message: ClassVar[bool] = False
    """True when the control sits on an ephemeral picker: a refusal replaces the picker instead of adding a reply."""

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction)
        except Exception as error:
            await answer_error(interaction, error, replace=self.replaces_message)


__all__ = ["Control"]
