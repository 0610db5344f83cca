"""Words of the bot: locales of people and servers, translated refusals, and the discord.py command translator."""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands

import engine
from bot.app.errors import Refusal
from bot.games import GameAdapter, adapter_for
from bot.games.base import variant_label
from data.i18n import SUPPORTED, catalogue, has, normalize, t
from engine import EngineError


def user_locale(interaction: discord.Interaction) -> str:
    """Replies follow the Discord locale of the person who asked."""
    return normalize(str(interaction.locale))


def guild_locale(guild: discord.Guild | None) -> str:
    """Public posts follow the server's preferred locale."""
    return normalize(str(guild.preferred_locale)) if guild is not None else "en"


QUOTED = 60
"""The most of what someone typed that a refusal quotes (a 6,000-character option must not make the answer too
long for Discord to take)."""


def quoted(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters of a refusal, each text cut to a short prefix."""
    return {k: v[:QUOTED] + "…" if isinstance(v, str) and len(v) > QUOTED else v for k, v in params.items()}


def explain(error: Exception, locale: str) -> str:
    """A refusal in words: the bot's own (``bot.refuse.*``) or the engine's (``error.*``)."""
    if isinstance(error, Refusal):
        params = quoted(dict(error.params))
        if isinstance(params.get("played"), dict):  # a move the computer made, in each language's words
            played = params["played"].get(locale, params["played"]["en"])  # names in it as typed: made inert
            params["played"] = discord.utils.escape_mentions(discord.utils.escape_markdown(played))
        if "option" in params:
            params["option"] = t(f"bot.option.{params['option']}", locale)
        if "command" in params:  # the name this person's Discord shows for the command
            params["command"] = t(f"bot.name.{params['command']}", locale)
        if "variant" in params:
            params["variant"] = variant_label(params["variant"], locale)
        if "moves" in params:  # a game's move commands, as this person's Discord names them
            group = t("bot.name.azul-move", locale)
            params["moves"] = ", ".join(f"`/{group} {t(f'bot.name.{name}', locale)}`" for name in params["moves"])
        if "players" in params:  # who must move: names as people chose them, made inert in message text
            shown = [discord.utils.escape_mentions(discord.utils.escape_markdown(name)) for name in params["players"]]
            params["players"] = ", ".join(f"**{name}**" for name in shown)
        if "permissions" in params:  # Discord's names of the permissions, as a server manager sees them
            names = [t(f"bot.permission.{name}", locale) for name in params["permissions"]]
            params["permissions"] = ", ".join(f"**{name}**" for name in names)
        return t(f"bot.refuse.{error.key}", locale, **params)
    if isinstance(error, EngineError):
        params = quoted(dict(error.params))
        adapter = _error_adapter(error.key)
        if adapter is not None:  # colours, hexagons and cells as players see them, not the engine's codes
            params = adapter.error_params(params, locale)
        if has(f"bot.option.{params.get('option')}", locale):  # the option as people see it, not the engine's token
            params["option"] = t(f"bot.option.{params['option']}", locale)
        reason = t(f"error.{error.key}", locale, **params)
        return t("bot.refuse.illegal", locale, reason=reason)
    return t("bot.refuse.unexpected", locale)


def _error_adapter(key: str) -> GameAdapter[Any] | None:
    """The game whose refusal ``key`` is: its adapter's short name leads the key (``qg_…``, ``sp_…``); keys with no
    game's prefix are the first game's, whose refusals the engine's core shares."""
    adapters = [adapter_for(game) for game in engine.game_names()]
    for adapter in adapters:
        if adapter.short_name and key.startswith(f"{adapter.short_name}_"):
            return adapter
    return adapters[0] if adapters else None


def text(key: str, locale: str, /, **params: Any) -> str:
    return t(key, locale, **params)


def described(key: str, english: str | None = None) -> app_commands.locale_str:
    """A command or option description: English from the catalogue (or ``english``), translated later by key."""
    return app_commands.locale_str(english or t(key, "en"), key=key)


def named(command: str) -> app_commands.locale_str:
    """A subcommand's name: English as given, Polish and Ukrainian from ``bot.name.<command>`` (texts use the same)."""
    return app_commands.locale_str(command, key=f"bot.name.{command}")


class Translator(app_commands.Translator):
    """Gives Discord the Polish and Ukrainian names and descriptions of commands, and of options and choices."""

    LOCALES: ClassVar[dict[discord.Locale, str]] = {discord.Locale.polish: "pl", discord.Locale.ukrainian: "uk"}
    """The locales we have words in, in ``discord.Locale``'s order."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = self.LOCALES.get(locale)
        return None if lang is None else self.words(string, lang)

    def words(self, string: app_commands.locale_str, lang: str) -> str | None:
        """``string`` in the catalogue ``lang``, or ``None`` when it has no words for it (Discord shows the English)."""
        key = string.extras.get("key")
        if lang not in SUPPORTED or not key:
            return None
        found = catalogue(lang).get(key)
        return str(found) if isinstance(found, str) else None

    def localizations(self, string: app_commands.locale_str) -> dict[str, str]:
        """Every translation :meth:`translate` gives ``string``, by Discord's locale code: what discord.py puts in a
        payload's ``name_localizations`` after asking for each of its 32 locales in turn (:data:`LOCALES` follows
        ``discord.Locale``'s order, so the entries come in the same order)."""
        found = ((locale.value, self.words(string, lang)) for locale, lang in self.LOCALES.items())
        return {code: words for code, words in found if words is not None}
