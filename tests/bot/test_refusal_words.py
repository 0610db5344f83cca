"""Refusals say what to do next, through the real bot: whose turn it is and since when, how full a lobby is and who
starts it, in en, pl and uk."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.bot.table import Table

LANGUAGES = [("en", "en-US"), ("pl", "pl"), ("uk", "uk")]
WAITING = {"en": "To move: **{name}**", "pl": "Teraz ruch: **{name}**", "uk": "Зараз черга: **{name}**"}
TOLD = {"en": "I'll let you know", "pl": "Dam ci znać", "uk": "Я повідомлю тебе"}  # by mention or by DM
LOBBY = {"en": "lobby 1/3", "pl": "w poczekalni 1/3", "uk": "у лобі 1/3"}
START = {"en": "presses **Start**", "pl": "naciska **Start**", "uk": "натискає **Почати**"}


@pytest.mark.parametrize(("lang", "discord_locale"), LANGUAGES)
async def test_out_of_turn_says_whose_turn_since_when_and_that_you_will_be_told(
    simcord_env: Any, discord_locales: dict[int, str], lang: str, discord_locale: str
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    mover, waiting = table.member(game, seat), table.member(game, 1 - seat)
    discord_locales[waiting.id] = discord_locale
    version = game.version
    for refused in (
        await waiting.click(table.channel.last_message, label="Play"),
        await waiting.slash(table.channel, "azul-move take", source="1", color="blue", line="1"),
    ):
        said = refused.response.content
        assert refused.ephemeral, said
        assert WAITING[lang].format(name=mover.name) in said, said
        assert "<t:" in said and ":R>" in said, "since when, in the reader's own time"
        assert TOLD[lang] in said, said
    assert (await table.game()).version == version


@pytest.mark.parametrize(("lang", "discord_locale"), LANGUAGES)
async def test_a_move_in_a_lobby_says_how_full_it_is_and_who_starts_it(
    simcord_env: Any, discord_locales: dict[int, str], lang: str, discord_locale: str
) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    opened = await alice.slash(table.channel, "azul new", variant="azul", seats=3, order="joined")
    assert not opened.ephemeral
    discord_locales[bob.id] = discord_locale
    refused = await bob.slash(table.channel, "azul-move take", source="1", color="blue", line="1")
    said = refused.response.content
    assert refused.ephemeral and LOBBY[lang] in said and START[lang] in said, said
    assert f"<@{alice.id}>" in said, "names who starts it"
