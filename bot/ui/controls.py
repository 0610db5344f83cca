"""The base of every persistent button and select: one error path for components.

discord.py only logs what a ``DynamicItem``'s callback raises, so :class:`Control` owns ``callback``: it runs the
subclass's :meth:`Control.act` with the bot context taken once for the click (:func:`bot.ui.context.bot_of`), so
``act`` contains only its own logic and hands the context down; any error goes to
:func:`bot.ui.replies.answer_error`, exactly as the command tree does for slash commands.

Custom ids come back from Discord as anyone may forge them: templates accept only ASCII digits of bounded length
(:data:`NUMBER`), and :func:`bounded` checks the value, so a forged id gets the polite ``bad_control`` answer
(as does an id that matches no control at all: see :meth:`bot.client.AzulBot.on_interaction`).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

import discord

from bot.app.errors import Refusal
from bot.ui.context import BotContext, bot_of
from bot.ui.replies import answer_error, is_repeat

NUMBER = "[0-9]{1,19}"
"""A number in a custom id: ASCII digits only (``\\d`` would take any Unicode digit), at most 19 of them."""
LARGEST = 2**63 - 1  # SQLite's integers and Discord's snowflakes fit in 63 bits


def bounded(digits: str, most: int = LARGEST) -> int | None:
    """The number ``digits`` (matched by :data:`NUMBER`) stands for, or None when it is beyond ``most``."""
    value = int(digits)
    return value if value <= most else None


class Control:
    """Put it first among the bases: ``class PlayButton(Control, discord.ui.DynamicItem[...], template=...)``."""

    replaces_message: ClassVar[bool] = False
    """True when the control sits on an ephemeral picker: a refusal replaces the picker instead of adding a reply."""
    forged: bool = False
    """Set by ``from_custom_id`` when the id has the right shape but impossible values."""

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        if is_repeat(interaction):
            return
        try:
            if self.forged:
                raise Refusal("bad_control")
            await self.act(interaction, bot_of(interaction))
        except Exception as error:
            await answer_error(interaction, error, replace=self.replaces_message)


C = TypeVar("C", bound=Control)


def forged(control: C) -> C:
    """Mark a control built from a forged id: its click is answered ``bad_control`` and does nothing else."""
    control.forged = True
    return control


__all__ = ["LARGEST", "NUMBER", "Control", "bounded", "forged"]
