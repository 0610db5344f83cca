"""Abort is for games that never really started, through the real bot: before anyone's first move the creator
cancels alone; once a person has moved, cancelling takes every seated person's agreement (a vote with buttons that
expires) or a member with Manage Server; either way the game is unrated and the channel is told who ended it."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.infra.clock import ManualClock
from tests.bot.table import Table, confirmed, mentions

pytestmark = pytest.mark.simcord(settle_timeout=60)


def button(message: Any, choice: str) -> str:
    ids = [b.custom_id or "" for row in message.components for b in row.children]
    return next(custom_id for custom_id in ids if custom_id.startswith(f"azul:abortvote:{choice}:"))


def fresh(table: Table, message: Any) -> Any:
    """``message`` as the channel shows it now (edited since)."""
    return next(m for m in table.channel.history() if m.id == message.id)


async def under_way(env: Any, count: int = 3) -> Table:
    """A table of ``count`` whose first player has moved (the game really started)."""
    table = Table.create(env, count)
    await table.open("azul")
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    return table


async def test_before_the_first_move_the_creator_cancels_alone(simcord_env: Any) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    done = await table.confirmed(table.players[0], "abort")
    assert done.response.ephemeral and (await table.game()).status == "aborted"
    assert table.channel.last_message.content.startswith("alice cancelled game #")


async def test_a_game_under_way_is_cancelled_only_when_everyone_at_the_table_agrees(simcord_env: Any) -> None:
    table = await under_way(simcord_env)
    alice, bob, carol = table.players
    stranger = table.guild.add_member(simcord_env.create_user("zoe"))
    refused = await stranger.slash(table.channel, "azul abort")
    assert refused.ephemeral and "takes everyone at the table" in refused.response.content, refused.response.content

    asked = await bob.slash(table.channel, "azul abort")  # not the creator: any player may ask
    assert asked.ephemeral and "The others at the table are asked" in asked.response.content
    vote = table.channel.last_message
    assert "**bob** asks to cancel Azul #" in vote.content and "Agreed so far: **bob**." in vote.content
    assert sorted(mentions(vote.content)) == sorted([alice.id, carol.id]), "pings whoever still must agree"
    refused = await stranger.click(vote, custom_id=button(vote, "agree"))
    assert "Only the players still at this table" in refused.response.content
    await alice.click(vote, custom_id=button(vote, "agree"))
    vote = fresh(table, vote)
    assert "Agreed so far: **alice**, **bob**." in vote.content and (await table.game()).status == "active"

    kept = await carol.click(vote, custom_id=button(vote, "keep"))
    assert not kept.ephemeral
    vote = fresh(table, vote)
    assert "**carol** wants to play on" in vote.content and not vote.components
    assert (await table.game()).status == "active", "one refusal keeps the game"

    await bob.slash(table.channel, "azul abort")  # a new vote: the agreements of the last one do not count
    vote = table.channel.last_message
    await alice.click(vote, custom_id=button(vote, "agree"))
    assert (await table.game()).status == "active"
    await carol.click(vote, custom_id=button(vote, "agree"))
    vote = fresh(table, vote)
    game = await table.game()
    assert game.status == "aborted" and not vote.components
    assert f"Azul #{game.id} is cancelled: everyone at the table agreed (**alice**, **bob**, **carol**)" in vote.content
    results, _ = await table.bot.service.store.results.results(channel_id=table.channel.id, limit=5)
    assert results == [], "unrated: no result at all"


async def test_a_vote_expires(simcord_env: Any, clock: ManualClock) -> None:
    table = await under_way(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul abort")
    vote = table.channel.last_message
    clock.advance(hours=24, minutes=1)
    late = await bob.click(vote, custom_id=button(vote, "agree"))
    assert late.ephemeral and "This vote has expired" in late.response.content
    assert (await table.game()).status == "active"


async def test_a_server_manager_cancels_a_game_under_way_and_the_channel_is_told(simcord_env: Any) -> None:
    table = await under_way(simcord_env, 2)
    alice, _ = table.players
    refused = await alice.slash(table.channel, "azul abort")  # the creator alone, once it started: a vote
    assert "The others at the table are asked" in refused.response.content
    managers = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(simcord_env.create_user("mod"), roles=[managers])
    done = await confirmed(mod, table.channel, "abort")
    game = await table.game()
    assert done.response.ephemeral and game.status == "aborted"
    assert table.channel.last_message.content == f"mod cancelled game #{game.id}."
