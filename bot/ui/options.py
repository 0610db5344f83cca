"""Every option of every slash command is checked by the bot itself before its command runs.

Discord's own clients keep a value within the option's declared range, length and type, but Discord does not
promise that for every client: a value it did not check (a quiet hour of 99, 2.5 seats, a 6,000-character name) would
otherwise be stored. :func:`guard_options` adds one check to every command of the tree; it reads each option's
declaration (``app_commands.Range``, the parameter's type), so a new option is checked without more code.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app.errors import Refusal

TEXT_MAX = 100
"""The longest text an option without its own limit takes: Discord's limit for a choice's or suggestion's value, and
more than any time zone, league or move option needs."""

NUMBER_MAX = 2**53
"""Discord's own bound on an integer option, kept for options that declare none (a game number)."""

KINDS: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}
"""The Python type of each plain option kind's value, as discord.py hands it over (users, channels: resolved)."""


class BadOption(app_commands.CheckFailure):
    """An option outside its declaration; ``original`` is the refusal the one error path words."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.key)
        self.original = refusal


def checked(parameter: app_commands.Parameter, value: Any) -> Refusal | None:
    """Why ``value`` does not fit ``parameter``'s declaration, or None when it fits."""
    if parameter.type is discord.AppCommandOptionType.user and not isinstance(value, discord.User | discord.Member):
        return Refusal("option_user", field=parameter.display_name)  # an id Discord resolved to nobody (an Object)
    kinds = KINDS.get(parameter.type)
    if kinds is None:
        return None  # roles, channels: Discord resolves them, or the value never reaches the command
    whole = parameter.type is discord.AppCommandOptionType.integer
    if whole and isinstance(value, float):
        return out_of_range(parameter)  # 2.5 seats: said as the range of whole numbers it missed
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        return Refusal("option_kind", field=parameter.display_name)
    if isinstance(value, str):
        return text_refusal(parameter, value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        least = parameter.min_value if parameter.min_value is not None else -NUMBER_MAX
        most = parameter.max_value if parameter.max_value is not None else NUMBER_MAX
        if not least <= value <= most:  # NaN is never within
            return out_of_range(parameter)
    return None


def text_refusal(parameter: app_commands.Parameter, value: str) -> Refusal | None:
    """A text longer than declared (or than :data:`TEXT_MAX`), or blank where the option needs some text."""
    most = int(parameter.max_value or TEXT_MAX)
    if len(value) > most:
        return Refusal("option_length", field=parameter.display_name, max=most)
    if parameter.min_value and (len(value) < parameter.min_value or not value.strip()):
        return Refusal("option_empty", field=parameter.display_name)
    return None


def out_of_range(parameter: app_commands.Parameter) -> Refusal:
    """The range a number option takes, in words: from … to …, or at least … when only a minimum is declared."""
    if parameter.max_value is None:
        return Refusal("option_at_least", field=parameter.display_name, min=parameter.min_value or 0)
    return Refusal("option_range", field=parameter.display_name, min=parameter.min_value or 0, max=parameter.max_value)


async def options_fit(interaction: discord.Interaction) -> bool:
    """The check every command gets: each given option fits its declaration, else a refusal that quotes none of it."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    given = interaction.namespace.__dict__
    for parameter in command.parameters:
        if parameter.display_name in given:
            refusal = checked(parameter, given[parameter.display_name])
            if refusal is not None:
                raise BadOption(refusal)
    return True


def transform_refusal(interaction: discord.Interaction, error: app_commands.TransformerError) -> Refusal:
    """discord.py could not turn a value into its option's type, before the command ran: a value outside the option's
    choices, or a user id Discord resolved to nobody. Named by the option that holds the value."""
    command = interaction.command
    given = interaction.namespace.__dict__
    parameters = command.parameters if isinstance(command, app_commands.Command) else []
    holding = [p for p in parameters if p.display_name in given and given[p.display_name] is error.value]
    holding = holding or [p for p in parameters if p.display_name in given and given[p.display_name] == error.value]
    field = holding[0].display_name if holding else "?"
    if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return Refusal("option_user", field=field)
    if error.transformer.choices or (holding and holding[0].choices):
        return Refusal("option_choice", field=field)
    return Refusal("option_kind", field=field)


def guard_options(tree: app_commands.CommandTree[Any]) -> None:
    """Adds :func:`options_fit` to every command with options."""
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and command.parameters:
            command.add_check(options_fit)


__all__ = ["NUMBER_MAX", "TEXT_MAX", "BadOption", "checked", "guard_options", "options_fit", "transform_refusal"]
