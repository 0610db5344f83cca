"""The command tree is derived from the engine's declarations, fits Discord's limits, and every game is complete."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import engine
import render
from bot.cog import AzulCog
from bot.games import adapter_for, check_adapters, move_commands
from bot.texts import Translator
from data.i18n import catalogue
from engine.agents import RandomAgent

SUBCOMMAND_LIMIT = 25  # Discord's limit of subcommands (and subgroups) in one command


@pytest.fixture
def bot() -> commands.Bot:
    return commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))


@pytest.fixture
def group(bot: commands.Bot) -> app_commands.Group:
    cog = AzulCog(bot)
    assert cog.app_command is not None
    return cog.app_command


def test_the_azul_command_fits_discords_limit(group: app_commands.Group) -> None:
    assert len(group.commands) <= SUBCOMMAND_LIMIT, [command.name for command in group.commands]


def test_move_commands_come_from_the_declarations(group: app_commands.Group) -> None:
    declared = move_commands()
    assert {"take", "wall", "place", "bonus", "pass", "acquire", "tile", "expansion"} <= set(declared)
    by_name = {command.name: command for command in group.commands}
    for name, options in declared.items():
        command = by_name[name]
        assert isinstance(command, app_commands.Command)
        assert [parameter.name for parameter in command.parameters] == list(options), name
        assert all(parameter.autocomplete for parameter in command.parameters), name
        assert [parameter.required for parameter in command.parameters[1:]] == [False] * (len(options) - 1), name
        # the first option is required (Discord asks for it first), but for a set (typed item by item)
        assert command.parameters[0].required == (name not in {"pass", "bonus"}), name
    assert declared["take"] == ("source", "color", "line"), "one command carries every game's options, in order"


@pytest.mark.parametrize("lang", ["pl", "uk"])
async def test_move_commands_keep_their_translated_names(
    bot: commands.Bot, group: app_commands.Group, lang: str
) -> None:
    locale = discord.Locale.polish if lang == "pl" else discord.Locale.ukrainian
    payload = await group.get_translated_payload(bot.tree, Translator())
    options = {option["name"]: option for option in payload["options"]}
    for name in move_commands():
        localized = options[name].get("name_localizations", {})
        assert localized.get(locale.value) == catalogue(lang)[f"bot.name.{name}"], (name, lang)


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
