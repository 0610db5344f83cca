"""Per-game adapters, found by the game's name: the words of each game the engine registers.

The bot itself is generic over the engine's declarations (``Variant.commands``: each move command with its options
in order) and its move contract (``move.command``, ``move.choices()``, ``variant.move_from_choices``); what a player
reads about one game comes from that game's adapter, the module ``bot.games.<game>`` (``Variant.game`` with ``-``
written ``_``) holding ``ADAPTER``, an instance of a :class:`~bot.games.base.GameAdapter` subclass. Nothing lists
the adapters: :func:`check_adapters` (run at start-up and by the tests) fails loudly for a registered game without
one. To add a game:

1. Declare its variants in its engine module (``engine/<game>.py``: ``VARIANTS``, each with ``game``, ``title``,
   player counts and ``commands``: every move command with its options in order, which of them are sets, and
   which words cannot show, ``previews``). The bot's slash commands, their options and autocomplete, and the
   picker's steps come from these declarations.
2. Create ``bot/games/<game>.py`` with ``ADAPTER`` (set ``game`` equal to ``Variant.game``).
3. Draw it in ``render/<game>.py``, ending with ``RENDERER`` (:class:`render.base.Renderer`: ``draw_table``,
   ``closeup_regions`` and, for a command with ``previews``, ``draw_preview``).
4. Put its texts in ``data/locale/<en|pl|uk>/bot_<game>.json`` (keys must be unique across all files):

   - ``bot.variant.<variant>``: the variant's name in ``/azul new`` and posts (e.g. "Summer Pavilion");
   - ``bot.rules.<variant>``: the short rules summary ``/azul-rules`` shows (Markdown, under 2000 characters);
   - ``bot.event.<game>.<kind>``: one short phrase per engine event kind, filled with the event's ``data`` plus
     ``player`` (the acting seat's name) and whatever :meth:`GameAdapter.event_params` adds; events whose kind
     has no text are not described;
   - ``bot.token.<game>.<option>.<token>``: a label for a token when it needs no state (e.g. ``pass.keep.none``);
   - ``bot.preview.<command>``: for a command with ``previews``, the line saying what its step's picture shows;
   - for a move command or option no other game has: ``bot.cmd.<command>``, ``bot.command.<command>``,
     ``bot.name.<command>``, ``bot.opt.<option>``, ``bot.option.<option>``.

Override :meth:`GameAdapter.turn_prompt` to word a phase in which players act at once (the grey wall's column
choice), and :meth:`GameAdapter.label` to label tokens from the state in words ("Factory 3 — 2× blue", "Line 4 (3
free)"), and :meth:`GameAdapter.event_params` to turn raw event data (colour numbers...) into words. Labels must be
at most 100 characters (Discord's limit for a choice); the bot trims longer ones. Override
:meth:`GameAdapter.preview_candidate` when a previewed step's moves need options chosen after it, and
:meth:`GameAdapter.phrase_samples` to show the game's event lines in the phrase table. Adapters hold no state and
never change the game: they only read ``state`` (the engine's state value) and return text.

A game kept outside these packages (a plug-in, a test's own game) registers itself instead of being found by name:
``engine.register(*VARIANTS)``, :func:`register` with its adapter and ``render.register`` with its renderer.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.games.base import GameAdapter
from engine.core import PerGame

_adapters: PerGame[GameAdapter[Any]] = PerGame(
    __name__, "ADAPTER", GameAdapter, "game {game} has no bot adapter: add {module} with ADAPTER"
)
"""Each game's adapter, by ``Variant.game``; the bot holds states as ``GameState``, so the state type is known only
to the adapter."""


def register(adapter: GameAdapter[Any]) -> None:
    """Use ``adapter`` for ``adapter.game`` (a game declared outside this package, or a test's own game)."""
    _adapters.register(adapter)


def unregister(game: str) -> None:
    """Forget an adapter added by :func:`register`."""
    _adapters.unregister(game)


def adapter_for(game: str) -> GameAdapter[Any]:
    """The adapter of ``game`` (``Variant.game``); ``LookupError`` when the game has none."""
    return _adapters.of(game)


def adapter_of(variant: str) -> GameAdapter[Any]:
    """The adapter of the game that ``variant`` (a registered variant name) belongs to."""
    return adapter_for(engine.get_variant(variant).game)


def check_adapters() -> None:
    """Fail loudly when a registered game has no adapter."""
    for game in engine.game_names():
        adapter_for(game)


def move_commands() -> dict[str, tuple[str, ...]]:
    """Every move command of every registered variant with the options it takes in any of them, in declared order.

    One slash command serves every game that has the move (``/azul-move take`` in Azul and Summer Pavilion), so it
    carries the union of their options; each game's autocomplete offers only its own.
    """
    commands: dict[str, dict[str, None]] = {}
    for name in engine.variant_names():
        for declared in engine.get_variant(name).commands:
            commands.setdefault(declared.name, {}).update(dict.fromkeys(declared.options))
    return {command: tuple(options) for command, options in commands.items()}


__all__ = ["GameAdapter", "adapter_for", "adapter_of", "check_adapters", "move_commands", "register", "unregister"]
