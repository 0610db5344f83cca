"""The bot's slash commands: one cog per top-level command, split the way players think, each shown by Discord only
where it works (``contexts``) and to whom (``default_member_permissions``).

Each top-level command is one module of this package (``/azul`` in :mod:`~bot.ui.commands.table`):

| command | module | where | what |
|---|---|---|---|
| ``/azul …`` | ``table`` | servers | the table in this channel: lobby, board, status, undo, resign, abort … |
| ``/azul-move …`` | ``move`` | servers | one subcommand per move command of the registered games |
| ``/azul-me …`` | ``me`` | servers, DMs | my games, settings, away/back, quickplay, profile |
| ``/azul-rules``, ``/azul-help`` | ``guide`` | everywhere | the rules of a game, how to play |
| ``/azul-server …`` | ``server`` | servers, Manage Server | defaults for new games; leagues (``league …``) |
| ``/azul-stats …`` | ``stats`` | servers, DMs | leaderboard, history, replay |
| ``/azul-league …`` | ``league`` | servers | a league's standings, withdrawing, the server's leagues |

Discord refuses a whole sync over one broken limit (``tests/bot/discord_limits.py`` checks them all); we keep each
top-level command within 3,000 of Discord's 4,000 combined characters and 20 of its 25 subcommands, so a new
command fits. The tree is synced only when its payload changed (:func:`payload_hash`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord
from discord import app_commands
from discord.app_commands.transformers import CommandParameter
from discord.ext import commands

from bot.app.language import Translator
from bot.ui.commands.guide import GuideCog
from bot.ui.commands.league import LeagueCog
from bot.ui.commands.me import PersonalCog
from bot.ui.commands.move import MovesCog
from bot.ui.commands.server import ServerCog
from bot.ui.commands.stats import StatsCog
from bot.ui.commands.table import AzulCog
from bot.ui.options import guard_options

COGS: tuple[type[commands.Cog], ...] = (AzulCog, MovesCog, PersonalCog, GuideCog, ServerCog, StatsCog, LeagueCog)


async def add_commands(bot: commands.Bot) -> None:
    for cog in COGS:
        await bot.add_cog(cog(bot))  # every cog takes the bot
    guard_options(bot.tree)  # every option checked by the bot itself, whatever the client sent


async def payload(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None) -> list[Any]:
    """What ``tree.sync`` sends Discord: every top-level command with its translations (the tree's translator)."""
    translator = tree.translator
    commands_ = tree._get_all_commands(guild=guild)  # the list discord.py's own sync sends
    if translator is None:
        return [command.to_dict(tree) for command in commands_]
    if isinstance(translator, Translator):
        return [translated(command, tree, translator) for command in commands_]
    return [await command.get_translated_payload(tree, translator) for command in commands_]


Command = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


def translated(command: Command, tree: app_commands.CommandTree[Any], words: Translator) -> dict[str, Any]:
    """``command.get_translated_payload(tree, words)``, the same dict built as discord.py builds it, but asking
    ``words`` only for the locales it has words in: discord.py asks for each of Discord's 32 locales, every string,
    one coroutine each (9,700 of them, about 8 ms of every start, which fingerprints the tree).
    ``tests/bot/test_commands.py`` holds the two equal, byte for byte."""
    base = command.to_dict(tree)
    if isinstance(command, app_commands.ContextMenu):
        if command._locale_name:
            base["name_localizations"] = words.localizations(command._locale_name)
        return base
    base["name_localizations"] = words.localizations(command._locale_name) if command._locale_name else {}
    described = command._locale_description
    base["description_localizations"] = words.localizations(described) if described else {}
    if isinstance(command, app_commands.Group):
        base["options"] = [translated(child, tree, words) for child in command._children.values()]
    else:
        base["options"] = [translated_option(option, words) for option in command._params.values()]
    return base


def translated_option(option: CommandParameter, words: Translator) -> dict[str, Any]:
    """An option's ``get_translated_payload``, as :func:`translated` builds a command's."""
    base = option.to_dict()
    names = words.localizations(option._rename) if isinstance(option._rename, app_commands.locale_str) else {}
    described = option.description
    descriptions = words.localizations(described) if isinstance(described, app_commands.locale_str) else {}
    if option.choices:
        base["choices"] = [translated_choice(choice, words) for choice in option.choices]
    if names:
        base["name_localizations"] = names
    if descriptions:
        base["description_localizations"] = descriptions
    return base


def translated_choice(choice: app_commands.Choice[Any], words: Translator) -> dict[str, Any]:
    base = choice.to_dict()
    names = words.localizations(choice._locale_name) if choice._locale_name else {}
    if names:
        base["name_localizations"] = names
    return base


async def sync(
    tree: app_commands.CommandTree[Any], commands_: list[Any], guild: discord.abc.Snowflake | None = None
) -> int:
    """Send Discord ``commands_`` (the tree's :func:`payload`) as ``tree.sync`` would, without translating the whole
    tree a second time (a tenth of a first start's CPU); how many commands Discord now has. Raises as ``tree.sync``
    does (``CommandSyncFailure`` for a command Discord refuses)."""
    application = tree.client.application_id
    if application is None:
        raise app_commands.MissingApplicationID
    http = tree.client.http
    try:
        if guild is None:
            synced = await http.bulk_upsert_global_commands(application, payload=commands_)
        else:
            synced = await http.bulk_upsert_guild_commands(application, guild.id, payload=commands_)
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:  # Discord's "invalid form body"
            raise app_commands.CommandSyncFailure(error, tree._get_all_commands(guild=guild)) from None
        raise
    return len(synced)


def payload_hash(commands_: list[Any]) -> str:
    """A fingerprint of a command payload: the same tree (names, options, translations, contexts) gives the same."""
    return hashlib.sha256(json.dumps(commands_, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class CommandSyncRefused(Exception):
    """Discord refused the command tree: the bot would run without commands, so it stops, saying why."""

    def __init__(self, error: discord.HTTPException) -> None:
        super().__init__(f"Discord refused the command tree: {error}")
        self.error = error


def needs_server(interaction: discord.Interaction, tree: app_commands.CommandTree[Any]) -> bool:
    """True for a command that works only in a server, used outside one. Discord does not offer such a command there
    (its ``contexts``); this answers anyway, should one arrive."""
    if interaction.guild_id is not None or interaction.type is not discord.InteractionType.application_command:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    root = tree.get_command(str(data.get("name", "")))
    contexts = root.allowed_contexts if root is not None else None
    return contexts is not None and not (contexts.dm_channel or contexts.private_channel)


__all__ = ["COGS", "CommandSyncRefused", "add_commands", "needs_server", "payload", "payload_hash", "sync"]
