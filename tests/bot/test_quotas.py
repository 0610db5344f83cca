"""Limits that keep the bot fair, through the real bot: open games per member (computer seats count with their
creator) and per server, a server's own caps in ``/azul server``, and hints searched once per game version with a
cooldown per player. Every refusal names the limit and says when it frees up, and changes nothing."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import engine
from bot.app.quotas import MEMBER_GAMES
from bot.infra.clock import ManualClock
from tests.bot.table import Table, confirmed

pytestmark = pytest.mark.simcord(settle_timeout=120)


def manager(env: Any, table: Table) -> Any:
    managers = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(env.create_user("mod"), roles=[managers])


async def open_lobbies(table: Table, member: Any, count: int, seats: int = 2) -> list[Any]:
    """``member`` opens ``count`` lobbies of ``seats``, each in a channel of its own; the channels."""
    channels = []
    for _ in range(count):
        channel = table.guild.create_text_channel(f"table-{len(table.guild.channels)}")
        opened = await member.slash(channel, "azul new", variant="azul", seats=seats)
        assert not opened.ephemeral, opened.response.content
        channels.append(channel)
    return channels


async def open_games(table: Table) -> int:
    return await table.bot.service.store.servers.open_games_count(table.guild.id)


async def test_the_26th_game_of_a_member_is_refused_with_the_limit_named(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    channels = await open_lobbies(table, alice, MEMBER_GAMES)
    spare = table.guild.create_text_channel("spare")
    refused = await alice.slash(spare, "azul new", variant="azul", seats=2)
    said = refused.response.content
    assert refused.ephemeral and f"its limit per member allows ({MEMBER_GAMES})" in said, said
    assert "A seat frees up when one of those games ends" in said
    assert await open_games(table) == MEMBER_GAMES, "the refusal opened nothing"

    mod = manager(simcord_env, table)
    saved = await mod.slash(table.channel, "azul-server settings", member_games=25)
    assert "at most 25 per member" in saved.response.content and "200 in this server" in saved.response.content
    await open_lobbies(table, alice, 25 - MEMBER_GAMES)
    refused = await alice.slash(spare, "azul new", variant="azul", seats=2)
    assert "its limit per member allows (25)" in refused.response.content, refused.response.content
    assert await open_games(table) == 25

    await confirmed(alice, channels[0], "abort")  # a game that ends frees a seat
    assert not (await alice.slash(spare, "azul new", variant="azul", seats=2)).ephemeral


async def test_computer_seats_count_with_their_creator(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    alice, bob, carol = table.players
    mod = manager(simcord_env, table)
    await mod.slash(table.channel, "azul-server settings", member_games=4)
    await alice.slash(table.channel, "azul new", variant="azul", seats=4)
    for _ in range(3):
        added = await alice.slash(table.channel, "azul seat", level="easy")
        assert "limit" not in added.response.content, added.response.content
    (second,) = await open_lobbies(table, bob, 1)
    refused = await alice.slash(second, "azul join")  # her 5th seat
    assert "its limit per member allows (4)" in refused.response.content, refused.response.content
    game = await table.bot.service.store.games.open_game_in(second.id)
    assert game is not None and not game.has_player(alice.id)

    (third,) = await open_lobbies(table, carol, 1, seats=3)
    await carol.slash(third, "azul seat", level="easy")
    await carol.slash(third, "azul seat", level="easy")  # 3 seats of hers
    (fourth,) = await open_lobbies(table, carol, 1)
    refused = await carol.slash(fourth, "azul seat", level="hard")  # her 5th
    assert "each computer seat in a game you created counts as yours" in refused.response.content
    game = await table.bot.service.store.games.open_game_in(fourth.id)
    assert game is not None and len(game.seats) == 1


async def test_a_server_cap_on_open_games(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    mod = manager(simcord_env, table)
    await mod.slash(table.channel, "azul-server settings", server_games=2)
    await open_lobbies(table, alice, 1)
    await open_lobbies(table, bob, 1)
    spare = table.guild.create_text_channel("spare")
    refused = await bob.slash(spare, "azul new", variant="azul", seats=2)
    said = refused.response.content
    assert "as many open games as its limit allows (2)" in said and "as soon as one of them ends" in said, said
    assert await open_games(table) == 2
    shown = await mod.slash(table.channel, "azul-server settings")
    assert f"at most {MEMBER_GAMES} per member" in shown.response.content and "2 in this server" in (
        shown.response.content
    )


async def test_a_hint_is_searched_once_per_version_and_a_player_waits_between_two(
    simcord_env, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=2, order="joined", hints=True)
    await bob.slash(table.channel, "azul join")
    await alice.click(table.channel.last_message, label="Start")
    computer = table.bot.service.computer
    searches: list[Any] = []
    original = computer.hint

    async def counted(state: Any, seat: int, seed: int, **options: Any) -> Any:
        searches.append(engine.to_json(state))
        return await original(state, seat, seed, **options)

    monkeypatch.setattr(computer, "hint", counted)
    _, state = await table.state()
    first = await alice.slash(table.channel, "azul hint")
    again = await alice.slash(table.channel, "azul hint")
    assert first.response.content == again.response.content and len(searches) == 1, "searched once"
    assert searches[0]["rng"] != engine.to_json(state)["rng"], "the search never sees the real bag"

    for _ in range(2):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    refused = await alice.slash(table.channel, "azul hint")
    assert "One hint a minute: your next one will be ready <t:" in refused.response.content
    assert len(searches) == 1
    clock.advance(seconds=61)
    later = await alice.slash(table.channel, "azul hint")
    assert later.response.content.startswith("The strongest computer player would play"), later.response.content
    assert len(searches) == 2
