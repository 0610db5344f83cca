"""Discord's documented limits, in one place: the fakes refuse what breaks them (as Discord does, with a 400 and
its error shape, code 50035), and the tests measure our real payloads against them.

Application commands (Discord's "Application Commands" reference): a name of 1–32 characters matching
``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where the letter has a lowercase form (every
localization too); a chat-input description of 1–100 characters; at most 25 options, subcommands and choices;
required options before optional ones; names unique among siblings in every language; at most 4,000 combined
characters per top-level command (:func:`command_size`).

Messages and components (the "Message" and "Components" references): content up to 2,000 characters; up to 5 action
rows, each with up to 5 buttons or one select; custom ids of 1–100 characters, unique in a message; button labels up
to 80; selects with 1–25 options whose labels, values and descriptions are at most 100; placeholders at most 150;
embeds at most 10, 6,000 characters in all. Autocomplete answers: at most 25 choices, names of 1–100 characters and
string values of at most 100.

``python -m tests.bot.discord_limits`` prints the size of each of the bot's top-level commands.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

COMMAND_SIZE_LIMIT = 4000
OPTION_LIMIT = 25  # options of a command, subcommands of a command or group, choices of an option
NAME_LENGTH = 32
DESCRIPTION_LENGTH = 100
CHOICE_LENGTH = 100
CONTENT_LENGTH = 2000
ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_LENGTH = 100
LABEL_LENGTH = 80
SELECT_OPTIONS = 25
SELECT_TEXT = 100
PLACEHOLDER_LENGTH = 150
EMBEDS = 10
EMBED_TOTAL = 6000
SUBCOMMAND, GROUP = 1, 2
ACTION_ROW, BUTTON = 1, 2
SELECTS = {3, 5, 6, 7, 8}
CONTEXTS = {0, 1, 2}
INSTALLS = {0, 1}

Errors = dict[str, Any]


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    """Discord's answer to a request that breaks a limit (HTTP 400)."""
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def flat(errors: Errors, path: str = "") -> Iterator[str]:
    """``0.options.3.name: …`` lines, as discord.py shows an error."""
    for key, value in errors.items():
        if key == "_errors":
            yield from (f"{path}: {error['message']}" for error in value)
        else:
            yield from flat(value, f"{path}.{key}" if path else key)


def _add(errors: Errors, path: tuple[str | int, ...], code: str, message: str) -> None:
    node = errors
    for part in path:
        node = node.setdefault(str(part), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


# --- application commands ---------------------------------------------------------------------------------------
def is_name(name: object) -> bool:
    """Discord's name pattern: letters and digits of any script, ``-``, ``_`` and ``'``; lowercase."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_LENGTH or name != name.lower():
        return False
    return all(char in "-_'" or unicodedata.category(char)[0] in "LN" or _indic(char) for char in name)


def _indic(char: str) -> bool:
    """Devanagari and Thai (whose vowel signs are marks, not letters) are allowed as whole scripts."""
    return 0x0900 <= ord(char) <= 0x097F or 0x0E00 <= ord(char) <= 0x0E7F


def _longest(item: Mapping[str, Any], field: str) -> int:
    texts = [item.get(field) or "", *(item.get(f"{field}_localizations") or {}).values()]
    return max(len(str(text)) for text in texts)


def command_size(item: Mapping[str, Any]) -> int:
    """Discord's combined characters of a command: its name and description, every subcommand's, group's and option's
    name and description, every choice's name and string value, each field at its longest localization."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        size += _longest(choice, "name") + (len(choice["value"]) if isinstance(choice.get("value"), str) else 0)
    return size + sum(command_size(option) for option in item.get("options") or [])


def subcommand_counts(command: Mapping[str, Any]) -> dict[str, int]:
    """How many subcommands (and groups) the command and each of its groups holds, by path."""
    counts: dict[str, int] = {}

    def walk(item: Mapping[str, Any], path: str) -> None:
        subs = [option for option in item.get("options") or [] if option.get("type") in (SUBCOMMAND, GROUP)]
        if subs:
            counts[path] = len(subs)
        for sub in subs:
            if sub.get("type") == GROUP:
                walk(sub, f"{path} {sub['name']}")

    walk(command, command["name"])
    return counts


def _check_names(errors: Errors, path: tuple[str | int, ...], item: Mapping[str, Any]) -> None:
    for where, name in [("name", item.get("name")), *_localized(item, "name")]:
        if not is_name(name):
            _add(errors, (*path, *where.split(".")), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")


def _localized(item: Mapping[str, Any], field: str) -> list[tuple[str, object]]:
    return [
        (f"{field}_localizations.{locale}", text) for locale, text in (item.get(f"{field}_localizations") or {}).items()
    ]


def _check_description(errors: Errors, path: tuple[str | int, ...], item: Mapping[str, Any]) -> None:
    for where, text in [("description", item.get("description")), *_localized(item, "description")]:
        if not isinstance(text, str) or not 1 <= len(text) <= DESCRIPTION_LENGTH:
            _add(errors, (*path, *where.split(".")), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _check_unique(errors: Errors, path: tuple[str | int, ...], items: list[Mapping[str, Any]]) -> None:
    locales = {locale for item in items for locale in item.get("name_localizations") or {}}
    for locale in [None, *sorted(locales)]:
        names = [
            (item.get("name_localizations") or {}).get(locale, item.get("name")) if locale else item.get("name")
            for item in items
        ]
        if len(set(names)) != len(names):
            where = "name" if locale is None else f"name_localizations.{locale}"
            _add(
                errors, path, "APPLICATION_COMMAND_DUPLICATE_NAME", f"Names repeat ({where}): {sorted(map(str, names))}"
            )


def _check_options(errors: Errors, path: tuple[str | int, ...], item: Mapping[str, Any], depth: int) -> None:
    options = list(item.get("options") or [])
    if len(options) > OPTION_LIMIT:
        _add(errors, (*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    _check_unique(errors, (*path, "options"), options)
    subs = [option.get("type") in (SUBCOMMAND, GROUP) for option in options]
    if any(subs) and not all(subs):
        _add(errors, (*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands mix with options.")
    seen_optional = False
    for index, option in enumerate(options):
        where = (*path, "options", index)
        _check_names(errors, where, option)
        _check_description(errors, where, option)
        kind = option.get("type")
        if (kind == GROUP and depth > 0) or (kind == SUBCOMMAND and depth > 1):
            _add(errors, where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands nest too deep.")
        if kind == GROUP and not all(sub.get("type") == SUBCOMMAND for sub in option.get("options") or []):
            _add(errors, where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "A group holds only subcommands.")
        if kind in (SUBCOMMAND, GROUP):
            _check_options(errors, where, option, depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                _add(errors, where, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be first.")
        else:
            seen_optional = True
        _check_choices(errors, where, option)


def _check_choices(errors: Errors, path: tuple[str | int, ...], option: Mapping[str, Any]) -> None:
    choices = list(option.get("choices") or [])
    if len(choices) > OPTION_LIMIT:
        _add(errors, (*path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        for where, text in [("name", choice.get("name")), *_localized(choice, "name")]:
            if not isinstance(text, str) or not 1 <= len(text) <= CHOICE_LENGTH:
                _add(errors, (*path, "choices", index, *where.split(".")), "BASE_TYPE_BAD_LENGTH", "Bad length.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_LENGTH:
            _add(errors, (*path, "choices", index, "value"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer.")


def command_errors(commands: Sequence[Mapping[str, Any]]) -> Errors:
    """What Discord finds wrong with a bulk overwrite of commands (empty: it accepts them)."""
    errors: Errors = {}
    chat = [command for command in commands if command.get("type", 1) == 1]
    _check_unique(errors, (), chat)
    for index, command in enumerate(commands):
        _check_names(errors, (index,), command)
        if command.get("type", 1) == 1:
            _check_description(errors, (index,), command)
            _check_options(errors, (index,), command, 0)
        if command_size(command) > COMMAND_SIZE_LIMIT:
            _add(
                errors,
                (index,),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({COMMAND_SIZE_LIMIT})",
            )
        if not set(command.get("contexts") or []) <= CONTEXTS:
            _add(errors, (index, "contexts"), "ENUM_TYPE_COERCE", "Not a valid interaction context type.")
        if not set(command.get("integration_types") or []) <= INSTALLS:
            _add(errors, (index, "integration_types"), "ENUM_TYPE_COERCE", "Not a valid integration type.")
    return errors


# --- messages, components, autocomplete ---------------------------------------------------------------------------
def message_errors(body: Mapping[str, Any]) -> Errors:
    """What Discord finds wrong with a message (a post, an edit or an interaction's message answer)."""
    errors: Errors = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LENGTH:
        _add(errors, ("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    _component_errors(errors, list(body.get("components") or []))
    embeds = list(body.get("embeds") or [])
    if len(embeds) > EMBEDS:
        _add(errors, ("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    if sum(len(str(value)) for embed in embeds for value in _embed_texts(embed)) > EMBED_TOTAL:
        _add(errors, ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    return errors


def _embed_texts(embed: Mapping[str, Any]) -> Iterator[object]:
    yield from (embed.get(key) or "" for key in ("title", "description"))
    yield from ((embed.get(part) or {}).get(key) or "" for part, key in (("footer", "text"), ("author", "name")))
    for field in embed.get("fields") or []:
        yield from (field.get("name") or "", field.get("value") or "")


def _component_errors(errors: Errors, rows: list[Mapping[str, Any]]) -> None:
    if len(rows) > ROWS:
        _add(errors, ("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    ids: set[str] = set()
    for index, row in enumerate(rows):
        path: tuple[str | int, ...] = ("components", index)
        children = list(row.get("components") or [])
        selects = [child for child in children if child.get("type") in SELECTS]
        if (
            row.get("type") != ACTION_ROW
            or not 1 <= len(children) <= BUTTONS_PER_ROW
            or (selects and len(children) > 1)
        ):
            _add(errors, path, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A row holds 1-5 buttons or one select.")
        for number, child in enumerate(children):
            _child_errors(errors, (*path, "components", number), child, ids)


def _child_errors(errors: Errors, path: tuple[str | int, ...], child: Mapping[str, Any], ids: set[str]) -> None:
    custom_id = child.get("custom_id")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_LENGTH:
            _add(errors, (*path, "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        elif custom_id in ids:
            _add(errors, (*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id repeats.")
        ids.add(str(custom_id))
    if child.get("type") == BUTTON and len(str(child.get("label") or "")) > LABEL_LENGTH:
        _add(errors, (*path, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
    if len(str(child.get("placeholder") or "")) > PLACEHOLDER_LENGTH:
        _add(errors, (*path, "placeholder"), "BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length.")
    if child.get("type") == 3:  # a string select
        options = list(child.get("options") or [])
        if not 1 <= len(options) <= SELECT_OPTIONS:
            _add(errors, (*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
        for number, option in enumerate(options):
            for key in ("label", "value", "description"):
                if len(str(option.get(key) or "")) > SELECT_TEXT:
                    _add(errors, (*path, "options", number, key), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer.")


def autocomplete_errors(choices: Sequence[Mapping[str, Any]]) -> Errors:
    """What Discord finds wrong with an autocomplete answer."""
    errors: Errors = {}
    if len(choices) > OPTION_LIMIT:
        _add(errors, ("choices",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= CHOICE_LENGTH:
            _add(errors, ("choices", index, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_LENGTH:
            _add(errors, ("choices", index, "value"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    return errors


# --- the bot's own tree -----------------------------------------------------------------------------------------
async def bot_payload() -> list[dict[str, Any]]:
    """The command payload the bot syncs (with its translations), built without Discord."""
    import discord
    from discord.ext import commands

    from bot.app.language import Translator
    from bot.ui.commands import add_commands, payload

    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
    await bot.tree.set_translator(Translator())
    await add_commands(bot)
    return await payload(bot.tree)


def report(commands: Sequence[Mapping[str, Any]]) -> str:
    lines = [f"{'command':<16} {'size':>5} {'of':>5}  subcommands (per command or group)"]
    for command in commands:
        counts = ", ".join(f"{path}: {count}" for path, count in subcommand_counts(command).items()) or "-"
        lines.append(f"/{command['name']:<15} {command_size(command):>5} {COMMAND_SIZE_LIMIT:>5}  {counts}")
    return "\n".join(lines)


if __name__ == "__main__":
    import asyncio

    print(report(asyncio.run(bot_payload())))
