"""The command tree is derived from the engine's declarations, fits Discord's limits with room to grow, shows each
command only where it works, and every game is complete."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import engine
import render
from bot.app.language import Translator, named
from bot.games import adapter_for, check_adapters, move_commands
from bot.ui.commands import add_commands, needs_server, payload
from data.i18n import catalogue
from engine.agents import RandomAgent
from tests.bot.discord_limits import bot_payload, command_errors, command_size, subcommand_counts

SIZE_BUDGET = 3000
"""Our budget per top-level command: three quarters of Discord's 4,000 combined characters, so commands can grow."""
SUBCOMMAND_BUDGET = 20
"""Our budget of subcommands per command or group (Discord allows 25)."""
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
MANAGE_GUILD = 1 << 5


@pytest.fixture(scope="module")
def synced() -> dict[str, Any]:
    """The payload the bot syncs, by top-level command."""
    return {command["name"]: command for command in asyncio.run(bot_payload())}


async def test_the_synced_payload_is_discord_pys_own_byte_for_byte() -> None:
    """The bot builds the translated payload itself, asking for the two locales it has words in, not all 32
    (:func:`bot.ui.commands.translated`): it must be what discord.py's sync would send, key order included."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
    translator = Translator()
    await bot.tree.set_translator(translator)
    await add_commands(bot)

    async def rename(interaction: discord.Interaction, member: discord.Member) -> None:
        """Never called: a context menu with a translated name, which the bot has none of yet."""

    bot.tree.add_command(app_commands.ContextMenu(name=named("board"), callback=rename))
    ours = await payload(bot.tree)
    theirs = [await command.get_translated_payload(bot.tree, translator) for command in bot.tree._get_all_commands()]
    assert json.dumps(ours) == json.dumps(theirs)
    move = next(command for command in ours if command["name"] == "azul-move")
    assert move["name_localizations"] == {"pl": "azul-ruch", "uk": "azul-хід"}
    assert ours[-1]["name_localizations"] == {code: catalogue(code)["bot.name.board"] for code in ("pl", "uk")}


def by_name(command: dict[str, Any]) -> dict[str, Any]:
    return {option["name"]: option for option in command.get("options") or []}


def test_discord_accepts_the_tree_with_room_to_grow(synced: dict[str, Any]) -> None:
    assert command_errors(list(synced.values())) == {}
    for name, command in synced.items():
        assert command_size(command) <= SIZE_BUDGET, (name, command_size(command))
        assert all(count <= SUBCOMMAND_BUDGET for count in subcommand_counts(command).values()), name


def test_each_command_shows_only_where_it_works(synced: dict[str, Any]) -> None:
    anywhere = {"azul-me", "azul-rules", "azul-help", "azul-stats"}
    assert set(synced) == {"azul", "azul-move", "azul-server", "azul-league"} | anywhere
    for name, command in synced.items():
        expected = [GUILD, BOT_DM, PRIVATE_CHANNEL] if name in anywhere else [GUILD]
        assert command["contexts"] == expected, name
        assert command["integration_types"] == [GUILD], name  # installed to servers only
    for name, command in synced.items():
        expected = MANAGE_GUILD if name == "azul-server" else None
        assert command["default_member_permissions"] == expected, name


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_no_two_commands_are_confusable(synced: dict[str, Any], lang: str) -> None:
    """Undo and abort differ from their first letter, in every language (a typed prefix never offers the other)."""
    table = by_name(synced["azul"])
    undo, abort = (table[name]["name_localizations"][lang] for name in ("undo", "abort"))
    assert undo[0] != abort[0], (undo, abort)
    for command in synced.values():  # and no subcommand's name starts another's (typing one offers only it)
        names = [option.get("name_localizations", {}).get(lang, option["name"]) for option in command["options"]]
        clashes = [(a, b) for a in names for b in names if a != b and a.startswith(b)]
        assert not clashes, (command["name"], clashes)


def test_move_commands_come_from_the_declarations(synced: dict[str, Any]) -> None:
    declared = move_commands()
    assert {"take", "wall", "place", "bonus", "pass", "acquire", "tile", "expansion"} <= set(declared)
    moves = by_name(synced["azul-move"])
    assert set(moves) == set(declared)
    for name, options in declared.items():
        parameters = moves[name]["options"]
        assert [parameter["name"] for parameter in parameters] == list(options), name
        assert all(parameter["autocomplete"] for parameter in parameters), name
        assert [parameter.get("required", False) for parameter in parameters[1:]] == [False] * (len(options) - 1)
        # the first option is required (Discord asks for it first), but for a set (typed item by item)
        assert parameters[0].get("required", False) == (name not in {"pass", "bonus"}), name
    assert declared["take"] == ("source", "color", "line"), "one command carries every game's options, in order"


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_move_commands_keep_their_translated_names(synced: dict[str, Any], lang: str) -> None:
    moves = by_name(synced["azul-move"])
    for name in move_commands():
        assert moves[name]["name_localizations"][lang] == catalogue(lang)[f"bot.name.{name}"], (name, lang)


def test_every_registered_game_has_an_adapter_and_a_renderer() -> None:
    check_adapters()
    render.check_renderers()
    for game in engine.game_names():
        assert adapter_for(game).game == game


def test_a_game_without_an_adapter_or_a_renderer_fails_loudly() -> None:
    with pytest.raises(LookupError, match="no bot adapter"):
        adapter_for("tic-tac-toe")
    with pytest.raises(LookupError, match="no renderer"):
        render.renderer_of("tic-tac-toe")


@pytest.mark.parametrize("variant", engine.variant_names())
def test_moves_follow_their_declaration(variant: str) -> None:
    """Every move a game lists belongs to a declared command and names its options in the declared order."""
    spec = engine.get_variant(variant)
    declared = {command.name: command.options for command in spec.commands}
    assert spec.title and spec.min_players <= spec.max_players
    state = engine.new_game(variant, spec.max_players, seed=5)
    agent = RandomAgent(5)
    for _ in range(60):
        if engine.is_over(state):
            break
        for seat in engine.to_act(state):
            for move in engine.legal_moves(state, seat):
                options = [option for option, _ in move.choices()]
                assert move.command in declared, (variant, str(move))
                order = declared[move.command]
                assert options == [option for option in order if option in options], (variant, str(move))
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, agent.choose(spec, state, seat))


def test_a_server_command_that_reaches_a_dm_anyway_is_answered() -> None:
    """Discord never offers them there (their contexts); should one arrive, the tree's check answers it."""

    async def tree() -> app_commands.CommandTree[Any]:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
        await add_commands(bot)
        return bot.tree

    commands_ = asyncio.run(tree())

    def arriving(name: str, guild_id: int | None) -> Any:
        kind = discord.InteractionType.application_command
        return SimpleNamespace(guild_id=guild_id, type=kind, data={"name": name})

    for name in ("azul", "azul-move", "azul-server"):
        assert needs_server(arriving(name, None), commands_), name
        assert not needs_server(arriving(name, 5), commands_), name
    for name in ("azul-me", "azul-rules", "azul-help", "azul-stats"):
        assert not needs_server(arriving(name, None), commands_), name


def test_the_readme_lists_every_command(synced: dict[str, Any]) -> None:
    """README's command table: a row per command, ``/top sub …`` or ``/top first`` · ``second`` · …"""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    listed: set[str] = set()
    for row in re.findall(r"^\| (`/[^|]+)\|", readme, flags=re.MULTILINE):
        parts = [part.strip(" `") for part in row.split("·")]
        top = parts[0].split()[0]
        listed.add(" ".join(parts[0].split()[:2]))
        listed |= {part if part.startswith("/") else f"{top} {part.split()[0]}" for part in parts[1:]}
    paths = set()
    for name, command in synced.items():
        subs = [option["name"] for option in command["options"] if option["type"] in (1, 2)]
        paths |= {f"/{name} {sub}" for sub in subs} if subs else {f"/{name}"}
    listed = {path.split(" [")[0] for path in listed}
    assert paths <= {" ".join(path.split()[:2]) for path in listed}, sorted(paths - listed)
