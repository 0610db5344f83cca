"""The bot's own refusals. Raised anywhere below a handler; the one error path in :mod:`bot.replies` words them."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A request the bot turns down; ``key`` names ``bot.refuse.<key>`` in the catalogue.

    Parameters named ``option``, ``command`` and ``variant`` hold identifiers; :func:`bot.texts.explain` puts them
    into the reader's words.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


__all__ = ["Refusal"]
