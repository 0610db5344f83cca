"""``/azul-move …``: the move commands (``take``, ``place``...), built from the engine's declarations.

Each move command of every registered variant becomes one slash command whose options are the union of the
options it has in the games that use it (in declared order), each with dependent autocomplete: only tokens that are
legal given the options already filled in, a set completed item by item as it is typed (:mod:`bot.app.move_entry`). The
autocomplete works in a thread, so a big position never holds the event loop. On submit, what was typed is read
as tokens (``Factory 1``, ``turquoise``, ``2 blue, red``) and the command re-validates (autocomplete is only a
suggestion).

Which options are required: the first option of every command is, because every move of it needs one and Discord
then asks for it before anything else — except when it is a set (``pass``: keep or discard; ``bonus``: tiles): the
empty set is a move of its own ("pass, keeping nothing"), and a set is typed item by item with the autocomplete,
so a command holding only a set is sent when the set is complete, not when Discord thinks an option is filled.
The later options stay optional: the command says which one is still missing when several moves fit, and some
games do not have them (``take`` has no ``line`` in Summer Pavilion).

A run (the grey wall's columns) is typed one move per command, ``/azul-move wall line column``, as the engine declares
it, rather than as one option holding every line: each line's columns depend on the lines placed before it, which
the per-option autocomplete already follows, and the Play picker chooses them all at once. The channel still gets
one post per wall tiling (:meth:`bot.app.outcomes.Turn.holds_board`).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app.errors import Refusal
from bot.app.language import described, named, user_locale
from bot.app.move_entry import autocomplete, may_complete
from bot.games import move_commands
from bot.ui.context import bot_of
from bot.ui.picker import offer_next
from bot.ui.play import after_move, play

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
    game = await service.tables.active(interaction.channel_id or 0)
    state = service.tables.state_of(game)
    seat = game.seat_of(interaction.user.id)
    if seat is None or not may_complete(state, seat, command, option):
        return []
    filled = {name: getattr(interaction.namespace, name, None) for name in options}
    given: dict[str, str | None] = {
        name: value for name, value in filled.items() if isinstance(value, str) and value.strip()
    }
    locale = user_locale(interaction)
    shown = await asyncio.to_thread(
        autocomplete,
        (game.id, game.version),
        state,
        seat,
        command=command,
        option=option,
        given=given,
        typed=current,
        locale=locale,
    )
    return [app_commands.Choice(name=label[:100], value=token) for token, label in shown][:CHOICE_LIMIT]


async def submit(interaction: discord.Interaction, command: str, given: dict[str, str | None]) -> None:
    """A move command sent: the move played as typed (the service reads the words), the next step offered if any."""
    bot = bot_of(interaction)
    turn = await play(bot, interaction, command, given, typed_in=user_locale(interaction))
    await after_move(offer_next(bot, interaction, turn))


def first_is_required(command: str, options: tuple[str, ...]) -> bool:
    """Whether ``/azul <command>`` requires its first option (see the module's docstring for why)."""
    sets = {
        option
        for name in engine.variant_names()
        if (declared := engine.get_variant(name).command(command))
        for option in declared.sets
    }
    return bool(options) and options[0] not in sets


def move_command(command: str, options: tuple[str, ...]) -> app_commands.Command[Any, ..., None]:
    """``/azul <command>`` with one text option per declared option (the first one required, but for a set).

    discord.py reads a command's options from its callback's signature, so the callback gets one built from the
    declaration.
    """

    async def callback(interaction: discord.Interaction, **given: str | None) -> None:
        await submit(interaction, command, given)

    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    required = first_is_required(command, options)
    rest = [
        inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, annotation=str)
        if index == 0 and required
        else inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None)
        for index, option in enumerate(options)
    ]
    callback.__signature__ = inspect.Signature([first, *rest])  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"move_{command}"  # a plain function to discord.py, not a method
    app_commands.describe(**{option: described(f"bot.opt.{option}") for option in options})(callback)
    app_commands.autocomplete(**{option: autocomplete_for(command, option, options) for option in options})(callback)
    return app_commands.Command(name=named(command), description=described(f"bot.cmd.{command}"), callback=callback)


def all_move_commands() -> list[app_commands.Command[Any, ..., None]]:
    return [move_command(command, options) for command, options in move_commands().items()]


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class MovesCog(commands.GroupCog, group_name=named("azul-move"), group_description=described("bot.cmd.move")):
    """``/azul-move …``: one subcommand per move command of every registered variant."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        if group is None:
            raise RuntimeError("a GroupCog always has its group")
        for command in all_move_commands():
            group.add_command(command)


__all__ = ["MovesCog", "all_move_commands", "autocomplete_for", "first_is_required", "move_command"]
