"""The bot's own refusals, and the one fault that is not a refusal (a saved change whose board is missing).

Raised anywhere below a handler; the one error path in :mod:`bot.ui.replies` words them."""

from __future__ import annotations

from typing import Any

from bot.infra.db import StoreLost, is_store_fault


class Refusal(Exception):
    """A request the bot turns down; ``key`` names ``bot.refuse.<key>`` in the catalogue.

    Parameters named ``option``, ``command`` and ``variant`` hold identifiers; :func:`bot.app.language.explain` puts
    them
    into the reader's words.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class BoardNotPosted(Exception):
    """What was asked is done and saved, but its board did not get through (or was not recorded). ``reason``:
    ``forbidden`` (no permission), ``gone`` (the channel or thread no longer exists), ``discord`` (Discord failed),
    ``slow`` (out of time) or ``unrecorded`` (posted, but the store could not note it)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MoveSaved(Exception):
    """A move is saved and stands, but a step after the commit failed (reading it back, its board, the reply, the
    picker's next step): the player is told their move stands, never that nothing changed."""


class ChangeSaved(Exception):
    """Like :class:`MoveSaved` for the other commands that change a game (``what``: ``resignation``, ``abort``,
    ``undo``): the change is saved and stands, but a step after its commit failed (a post, the reply)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


__all__ = ["BoardNotPosted", "ChangeSaved", "MoveSaved", "Refusal", "StoreLost", "is_store_fault"]
