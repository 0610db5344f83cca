"""Where the bot can play: ``/azul new`` checks the bot's permissions in the channel or thread, and games in places
that are gone (a deleted channel or thread, a server that removed the bot, a channel the bot no longer sees) end as
aborted, lose their timers and leave ``/azul-me games`` — from the gateway's events, and again at start-up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import discord
import pytest
from simcord.builders import ChannelHandle

from bot.client import AzulBot, create_bot
from bot.ui.places import GonePlaces
from tests.bot import wire_games as wire
from tests.bot.conftest import USER_LOCALES
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord
from tests.bot.table import Table
from tests.bot.test_concurrency import stopped


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AzulBot]) -> AzulBot:
    return make_bot(remind_after=timedelta(hours=24))  # every waiting game has a timer


async def pending_timers(table: Table, game_id: int) -> list[str]:
    timers = await table.bot.service.store.timers.timers_of(game_id)
    return [timer.kind for timer in timers if timer.state == "pending"]


async def my_games(table: Table) -> str:
    elsewhere = table.guild.create_text_channel("elsewhere")
    return str((await table.players[0].slash(elsewhere, "azul-me games")).response.content)


async def test_a_deleted_channel_aborts_its_game(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    kept = Table(simcord_env, table.guild, table.guild.create_text_channel("kept"), table.players)
    await kept.open("azul")
    game = await table.game()
    assert await pending_timers(table, game.id)
    assert f"#{game.id}" in await my_games(table)

    simcord_env.backend.delete_channel(table.channel.id)
    await simcord_env.settle()

    game = await table.game()
    assert game.status == "aborted"
    assert not await pending_timers(table, game.id), "its reminders and deadlines are gone"
    listed = await my_games(table)
    assert f"#{game.id}" not in listed and f"#{(await kept.game()).id}" in listed
    assert (await kept.game()).status == "active", "games elsewhere go on"
    assert not await table.bot.service.store.results.ratings_of(table.players[0].id), (
        "an aborted game changes no rating"
    )


async def test_a_deleted_thread_aborts_its_game(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    thread = simcord_env.backend.create_thread(table.channel.id, "second table", alice.id)
    await simcord_env.settle()
    in_thread = Table(simcord_env, table.guild, ChannelHandle(simcord_env, table.guild, thread), [bob, alice])
    await in_thread.open("azul")
    simcord_env.backend.delete_channel(thread.id)
    await simcord_env.settle()
    assert (await in_thread.game()).status == "aborted"


async def test_a_server_that_removes_the_bot_aborts_its_games(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    other = Table.create(simcord_env, 2)
    await other.open("azul")
    simcord_env.backend.remove_guild(table.guild.id)
    await simcord_env.settle()
    assert (await table.game()).status == "aborted"
    assert (await other.game()).status == "active"


async def test_start_up_aborts_games_whose_channel_went_while_the_bot_was_away(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    kept = Table(simcord_env, table.guild, table.guild.create_text_channel("kept"), table.players)
    await kept.open("azul")
    game = await table.game()
    # The channel disappears without the bot hearing of it (it was offline): its cache forgets the channel too.
    del simcord_env.backend.channels[table.channel.id]
    guild = table.bot.get_guild(table.guild.id)
    cached = table.bot.get_channel(table.channel.id)
    assert guild is not None and isinstance(cached, discord.TextChannel)
    guild._remove_channel(cached)
    places = table.bot.get_cog("GonePlaces")
    assert isinstance(places, GonePlaces)
    assert await places.recheck() == 1
    assert (await table.game()).status == "aborted" and game.status == "active"
    assert (await kept.game()).status == "active"


@pytest.mark.parametrize(
    ("lang", "denied", "words"),
    [
        ("en", {"attach_files": False}, ["Attach Files"]),
        ("pl", {"send_messages": False, "attach_files": False}, ["Wysyłanie wiadomości", "Załączanie plików"]),
        ("uk", {"attach_files": False}, ["Прикріплювати файли"]),
    ],
)
async def test_new_refuses_a_channel_where_the_bot_cannot_post_the_board(
    simcord_env, lang: str, denied: dict[str, bool], words: list[str]
) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    USER_LOCALES[alice.id] = lang
    bot_user = table.bot.user
    assert bot_user is not None
    closed = table.guild.create_text_channel("closed", overwrites={bot_user: discord.PermissionOverwrite(**denied)})
    result = await alice.slash(closed, "azul new", variant="azul", seats=2)
    assert result.ephemeral, result
    for word in words:
        assert word in result.response.content, result.response.content
    assert "View Channel" not in result.response.content, "only what is missing is named"
    assert await table.bot.service.store.games.latest_game_in(closed.id) is None, "no lobby was opened"
    opened = await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    assert not opened.ephemeral, "where the bot may post, the lobby opens"


async def test_new_in_a_thread_needs_send_messages_in_threads(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    bot_user = table.bot.user
    assert bot_user is not None
    no_threads = discord.PermissionOverwrite(send_messages_in_threads=False)
    parent = table.guild.create_text_channel("parent", overwrites={bot_user: no_threads})
    thread = simcord_env.backend.create_thread(parent.id, "a table", alice.id)
    await simcord_env.settle()
    in_thread = ChannelHandle(simcord_env, table.guild, thread)
    refused = await alice.slash(in_thread, "azul new", variant="azul", seats=2)
    assert refused.ephemeral and "Send Messages in Threads" in refused.response.content, refused.response.content
    assert await table.bot.service.store.games.latest_game_in(thread.id) is None
    opened = await alice.slash(parent, "azul new", variant="azul", seats=2)
    assert not opened.ephemeral, "the channel itself is fine: Send Messages is allowed there"


async def test_over_the_wire_a_channel_deleted_while_the_bot_was_away_ends_its_game(
    discord_server: FakeDiscord, db_path: str
) -> None:
    """At READY the bot asks Discord for each open game's channel it does not know; a 404 ends that game."""
    await wire.prepare_games(db_path, 2)
    gone, kept = wire.FIRST_CHANNEL, wire.FIRST_CHANNEL + 1
    discord_server.deleted.add(str(gone))
    bot = create_bot(db_path)
    task = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        for _ in range(100):
            if {game.channel: game.status for game in wire.read_games(db_path)}[gone] == "aborted":
                break
            await asyncio.sleep(0.05)
        statuses = {game.channel: game.status for game in wire.read_games(db_path)}
        assert statuses == {gone: "aborted", kept: "active"}, statuses
    finally:
        await stopped(bot, task)
