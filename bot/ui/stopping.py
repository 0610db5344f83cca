"""A graceful stop (SIGTERM, ``docker stop``) finishes what it took: from the moment it begins, a new interaction is
told the bot is restarting and nothing was done; the commands and clicks already under way get a grace period to
finish; one still running after it is cut off, and its person is told truthfully whether their move was saved (the
store keeps the interaction that made each move). Only then may the HTTP session and the store close, so no handler
runs after them.

Interactions arrive through the gateway's ``INTERACTION_CREATE``; :meth:`Stopping.install` wraps its parser, so each
handler task discord.py starts for one is known with the interaction it serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.app.language import text, user_locale

log = logging.getLogger(__name__)

HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-modal")
"""The names discord.py gives the task of a command (or autocomplete), a click and a modal's submission."""
AUTOCOMPLETE = 4


def handler_tasks_of(handle: Callable[[], None]) -> list[asyncio.Task[Any]]:
    """Run ``handle`` (discord.py parsing an interaction) and return the handler tasks it started: the tasks
    created meanwhile are caught by the loop's task factory, not found among every task running (twice per
    interaction, under load a few hundred)."""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    created: list[asyncio.Future[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Future[Any]:
        task = previous(loop, coro, **options) if previous is not None else asyncio.Task(coro, loop=loop, **options)
        created.append(task)
        return task

    loop.set_task_factory(factory)
    try:
        handle()
    finally:
        loop.set_task_factory(previous)
    return [t for t in created if isinstance(t, asyncio.Task) and t.get_name().startswith(HANDLER_TASKS)]


class Stopping:
    """The interactions under way, and the stop that lets them finish. ``saved(interaction_id)``: whether that
    interaction's move (or undo) is in the store."""

    def __init__(self, client: discord.Client, saved: Callable[[int], Awaitable[bool]]) -> None:
        self.client = client
        self.saved = saved
        self.closing = False
        self._in_flight: dict[asyncio.Task[Any], dict[str, Any]] = {}
        self._answers: set[asyncio.Task[None]] = set()

    def install(self) -> None:
        """Handle the gateway's interactions through :meth:`_arrived` (discord.py's parser does the rest)."""
        state = self.client._connection
        original = state.parsers["INTERACTION_CREATE"]

        def parse(data: dict[str, Any]) -> None:
            self._arrived(data, original)

        state.parsers["INTERACTION_CREATE"] = parse

    def _arrived(self, data: dict[str, Any], handle: Callable[[dict[str, Any]], None]) -> None:
        if self.closing:
            self._answer(self._refuse(data))
            return
        for task in handler_tasks_of(lambda: handle(data)):
            self._in_flight[task] = data
            task.add_done_callback(lambda done: self._in_flight.pop(done, None))

    async def drain(self, grace: float) -> None:
        """Take no new interactions; let those under way finish within ``grace`` seconds, cut off the rest and tell
        their people what became of them."""
        self.closing = True
        running = set(self._in_flight)
        if running:
            await asyncio.wait(running, timeout=grace)
        cut = {task: data for task, data in self._in_flight.items() if not task.done()}
        for task in cut:
            task.cancel()
        await asyncio.gather(*cut, return_exceptions=True)
        if cut:
            log.warning("stopping: %d interactions were cut off after %.0f s", len(cut), grace)
        for data in cut.values():
            self._answer(self._tell_cut(data))
        await asyncio.gather(*self._answers, return_exceptions=True)

    def _answer(self, answering: Awaitable[None]) -> None:
        task = asyncio.ensure_future(answering)
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    async def _refuse(self, data: dict[str, Any]) -> None:
        """An interaction that arrived during the stop: handled by nobody, so told at once."""
        if data.get("type") == AUTOCOMPLETE:
            return
        interaction = discord.Interaction(data=data, state=self.client._connection)  # type: ignore[arg-type]
        await self._say(interaction, "bot.stop.not_taken")

    async def _tell_cut(self, data: dict[str, Any]) -> None:
        if data.get("type") == AUTOCOMPLETE:
            return
        try:
            saved = await self.saved(int(data["id"]))
        except Exception:
            log.warning("stopping: could not check whether interaction %s saved a move", data.get("id"))
            key = "bot.stop.cut_unknown"
        else:
            key = "bot.stop.cut_saved" if saved else "bot.stop.cut_not_saved"
        interaction = discord.Interaction(data=data, state=self.client._connection)  # type: ignore[arg-type]
        await self._say(interaction, key)

    @staticmethod
    async def _say(interaction: discord.Interaction, key: str) -> None:
        """The first answer, or (the handler had answered or deferred) its reply replaced: whichever Discord takes."""
        said = text(key, user_locale(interaction))
        try:
            await interaction.response.send_message(said, ephemeral=True)
            return
        except discord.HTTPException:
            pass
        except Exception as error:  # the session is closing: nothing more can be said
            log.info("stopping: interaction %s could not be told (%s)", interaction.id, error)
            return
        with contextlib.suppress(Exception):
            await interaction.edit_original_response(content=said, view=None, attachments=[])


__all__ = ["Stopping"]
