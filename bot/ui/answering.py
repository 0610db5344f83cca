"""A move's one answer to its interaction: given whole when the move is told quickly, after a deferral when not.

Discord wants a first answer to an interaction within 3 s. A move is saved and its board posted in a fraction of
that, so deferring first ("thinking…") and editing the answer in later costs one request to Discord per move, and a
turn of the event loop, for nothing. :class:`Answer` defers only when the move has not been answered
:data:`DEFER_AFTER` seconds after the interaction was created (a slow store, a slow upload): the answer then edits
the deferral in, as before. Leaving its block, a deferral still under way is awaited, so an error's answer (the one
error path, :func:`bot.ui.replies.answer_error`) sees whether the interaction was answered already.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

DEFER_AFTER = 1.0  # seconds after the interaction's creation; well inside Discord's 3, network and a busy loop included


class Answer:
    """The answer of one interaction: ``update`` answers by replacing the message its component is on (a picker's
    step), else with an ephemeral reply."""

    def __init__(self, interaction: discord.Interaction, *, update: bool) -> None:
        self._interaction = interaction
        self._update = update
        self._deferral: asyncio.Task[None] | None = None
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        delay = min(max(DEFER_AFTER - age, 0.0), DEFER_AFTER)
        self._timer = asyncio.get_running_loop().call_later(delay, self._defer)

    def _defer(self) -> None:
        self._deferral = asyncio.create_task(self._deferred(), name=f"defer-{self._interaction.id}")

    async def _deferred(self) -> None:
        response = self._interaction.response
        if response.is_done():
            return
        if self._update:
            await response.defer()
        else:
            await response.defer(ephemeral=True, thinking=True)

    async def settle(self) -> None:
        """No deferral from now on; one under way has finished."""
        self._timer.cancel()
        if self._deferral is not None:
            await self._deferral

    async def give(self, content: str, view: discord.ui.View | None) -> None:
        """The answer: ``content`` with ``view`` (None: no components)."""
        await self.settle()
        response = self._interaction.response
        if response.is_done():
            await self._interaction.edit_original_response(content=content, view=view)
        elif self._update:
            await response.edit_message(content=content, view=view)
        elif view is None:
            await response.send_message(content, ephemeral=True)
        else:
            await response.send_message(content, view=view, ephemeral=True)


@asynccontextmanager
async def answering(interaction: discord.Interaction, *, update: bool) -> AsyncIterator[Answer]:
    """An :class:`Answer` for the block's work; leaving it (an error included), no deferral is pending."""
    answer = Answer(interaction, update=update)
    try:
        yield answer
    except BaseException:
        with contextlib.suppress(Exception):  # the block's own error is the one to answer, not a failed deferral's
            await answer.settle()
        raise
    await answer.settle()


__all__ = ["DEFER_AFTER", "Answer", "answering"]
