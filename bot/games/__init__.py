"""Per-game adapters: how the bot puts one game of the family into words.

The bot itself is generic over the engine's move contract (``move.command``, ``move.choices()``,
``variant.move_from_choices``); everything game-specific that a player reads comes from an adapter found here by
``variant.game``. To add a game:

1. Create ``bot/games/<game>.py`` with a module-level ``ADAPTER``, an instance of a :class:`GameAdapter` subclass,
   and add the module name to ``ADAPTER_MODULES`` below (a missing module is skipped, so the order of landing does
   not matter).
2. Set ``game`` (equal to ``Variant.game``) and ``commands`` (every move command the game ever uses, e.g.
   ``("take", "place", "bonus", "pass")``; the bot's slash commands of the ``/azul`` group that are not listed
   answer that they do not apply to this game). The bot already registers ``take wall place bonus pass acquire
   tile expansion`` with these options: take(source, color, line), wall(line, column), place(star, space, wilds),
   bonus(tiles), pass(keep, discard), acquire(by, which), tile(tile, payment, cell),
   expansion(expansion, payment, area, rotation).
3. Put your texts in ``data/locale/<en|pl|uk>/bot_<game>.json`` (keys must be unique across all files). The
   default methods look up these keys, so often only catalogue entries are needed:

   - ``bot.variant.<variant>``: the variant's name in ``/azul new`` and posts (e.g. "Summer Pavilion");
   - ``bot.rules.<variant>``: the short rules summary ``/azul rules`` shows (Markdown, under 2000 characters);
   - ``bot.event.<game>.<kind>``: one short phrase per engine event kind, filled with the event's ``data`` plus
     ``player`` (the acting seat's name) and whatever :meth:`GameAdapter.event_params` adds; events whose kind
     has no text are not described;
   - ``bot.token.<game>.<option>.<token>``: a label for a token when it needs no state (e.g. ``pass.keep.none``).

Override :meth:`GameAdapter.turn_prompt` to word a phase in which players act at once (the grey wall's column
choice), and :meth:`GameAdapter.label` to label tokens from the state in words ("Factory 3 — 2× blue", "Line 4 (3
free)"), and :meth:`GameAdapter.event_params` to turn raw event data (colour numbers...) into words. Labels must be
at most 100 characters (Discord's limit for a choice); the bot trims longer ones. Adapters hold no state and never
change the game: they only read ``state`` (the engine's state value) and return text.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from data.i18n import has, t
from engine import Event

log = logging.getLogger(__name__)

ADAPTER_MODULES = ("bot.games.azul", "bot.games.summer_pavilion", "bot.games.queens_garden")

MOVE_COMMANDS: dict[str, tuple[str, ...]] = {
    "take": ("source", "color", "line"),
    "wall": ("line", "column"),
    "place": ("star", "space", "wilds"),
    "bonus": ("tiles",),
    "pass": ("keep", "discard"),
    "acquire": ("by", "which"),
    "tile": ("tile", "payment", "cell"),
    "expansion": ("expansion", "payment", "area", "rotation"),
}
"""Every move command the bot registers, with its options in order (fixed by the shared move contract)."""


class GameAdapter:
    """The words of one game. Subclass it; every method has a catalogue-driven default."""

    game: str = ""
    commands: tuple[str, ...] = ()

    def variant_label(self, variant: str, locale: str | None) -> str:
        key = f"bot.variant.{variant}"
        return t(key, locale) if has(key, locale) else variant

    def rules(self, variant: str, locale: str | None) -> str:
        return t(f"bot.rules.{variant}", locale)

    def command_label(self, command: str, locale: str | None) -> str:
        """What a move command does, for the picker's first step ("Take tiles", "Place a tile on the wall")."""
        return t(f"bot.command.{command}", locale)

    def option_label(self, option: str, locale: str | None) -> str:
        """The name of an option in the picker's prompt ("source", "line")."""
        key = f"bot.option.{option}"
        return t(key, locale) if has(key, locale) else option

    def label(
        self, state: Any, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        """``token`` of ``option`` in words for ``seat``, given the options ``chosen`` so far."""
        key = f"bot.token.{self.game}.{option}.{token}"
        return t(key, locale) if has(key, locale) else token

    def event_params(self, event: Event, names: Sequence[str], locale: str | None) -> dict[str, Any]:
        """The parameters of an event's text: its data plus ``player``; override to put raw values into words."""
        params: dict[str, Any] = dict(event.data)
        if event.seat is not None and 0 <= event.seat < len(names):
            params["player"] = names[event.seat]
        return params

    def turn_prompt(self, state: Any, players: str, locale: str | None) -> str | None:
        """Who must act now, when the game has its own words for the phase (``players``: the formatted names or
        mentions); None for the bot's plain "Your turn: ..."."""
        return None

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        """The events of one move as one line of words (empty when none has a text)."""
        phrases = []
        for event in events:
            key = f"bot.event.{self.game}.{event.kind}"
            if has(key, locale):
                phrases.append(t(key, locale, **self.event_params(event, names, locale)))
        return " · ".join(phrase for phrase in phrases if phrase)


class FallbackAdapter(GameAdapter):
    """For a registered game whose adapter has not landed: tokens as they are, every move command allowed."""

    commands = tuple(MOVE_COMMANDS)

    def __init__(self, game: str) -> None:
        self.game = game


_adapters: dict[str, GameAdapter] = {}


def _load() -> dict[str, GameAdapter]:
    if not _adapters:
        for module_name in ADAPTER_MODULES:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as error:
                if error.name != module_name:
                    raise
                continue
            adapter: GameAdapter = module.ADAPTER
            _adapters[adapter.game] = adapter
    return _adapters


def adapter_of(variant: str) -> GameAdapter:
    """The adapter of the game that ``variant`` (a registered variant name) belongs to."""
    import engine

    return adapter_for(engine.get_variant(variant).game)


def adapter_for(game: str) -> GameAdapter:
    """The adapter of ``game`` (``variant.game``); a plain fallback when that game has none yet."""
    adapters = _load()
    if game not in adapters:
        log.warning("no bot adapter for game %r; labels will be raw tokens", game)
        adapters[game] = FallbackAdapter(game)
    return adapters[game]
