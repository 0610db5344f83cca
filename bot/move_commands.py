"""The move commands (``/azul take``, ``/azul place``...), built from the engine's declarations.

Each move command of every registered variant becomes one slash command whose options are the union of the
options it has in the games that use it (in declared order), each with dependent autocomplete: only tokens that are
legal given the options already filled in. The command re-validates on submit (autocomplete is only a suggestion).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

import engine
from bot.context import bot_of
from bot.errors import Refusal
from bot.games import adapter_of, move_commands
from bot.moves import play
from bot.service import tokens_for
from bot.texts import described, named, user_locale

log = logging.getLogger(__name__)

CHOICE_LIMIT = 25

Complete = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def autocomplete_for(command: str, option: str, options: tuple[str, ...]) -> Complete:
    """The autocomplete of one option: legal tokens given the other options already filled in, labelled in words."""

    async def complete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        try:
            return await _complete(interaction, command, option, options, current)
        except (Refusal, engine.EngineError):
            return []
        except Exception:
            log.exception("autocomplete %s/%s failed in channel %s", command, option, interaction.channel_id)
            return []

    return complete


async def _complete(
    interaction: discord.Interaction, command: str, option: str, options: tuple[str, ...], current: str
) -> list[app_commands.Choice[str]]:
    service = bot_of(interaction).service
    game = await service.active_game(interaction.channel_id or 0)
    state = service.state_of(game)
    seat = game.seat_of(interaction.user.id)
    if seat is None or seat not in engine.to_act(state):
        return []
    filled = {name: getattr(interaction.namespace, name, None) for name in options}
    given: dict[str, str] = {name: value for name, value in filled.items() if isinstance(value, str) and value.strip()}
    tokens = tokens_for(engine.legal_moves(state, seat), command, option, given)
    adapter = adapter_of(game.variant)
    locale = user_locale(interaction)
    typed = current.strip().casefold()
    chosen = {name: value for name, value in given.items() if name != option}
    choices = []
    for token in tokens:
        label = adapter.label(state, seat, option, token, chosen=chosen, locale=locale)[:100]
        if not typed or typed in label.casefold() or token.casefold().startswith(typed):
            choices.append(app_commands.Choice(name=label, value=token))
    return choices[:CHOICE_LIMIT]


def move_command(command: str, options: tuple[str, ...]) -> app_commands.Command[Any, ..., None]:
    """``/azul <command>`` with one optional text option per declared option.

    discord.py reads a command's options from its callback's signature, so the callback gets one built from the
    declaration.
    """

    async def callback(interaction: discord.Interaction, **given: str | None) -> None:
        await play(interaction, command, given)

    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    rest = [
        inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None)
        for option in options
    ]
    callback.__signature__ = inspect.Signature([first, *rest])  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"move_{command}"  # a plain function to discord.py, not a method
    app_commands.describe(**{option: described(f"bot.opt.{option}") for option in options})(callback)
    app_commands.autocomplete(**{option: autocomplete_for(command, option, options) for option in options})(callback)
    return app_commands.Command(name=named(command), description=described(f"bot.cmd.{command}"), callback=callback)


def all_move_commands() -> list[app_commands.Command[Any, ..., None]]:
    return [move_command(command, options) for command, options in move_commands().items()]


__all__ = ["all_move_commands", "autocomplete_for", "move_command"]
