"""Limits under simultaneous clicks, on the wire-level fake Discord against the real bot in this process (SQLite, and
PostgreSQL with AZUL_TEST_PG): the caps on open games are checked and taken in one transaction, simultaneous joins
never overfill a lobby, and simultaneous hint requests run one search."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app.computer import Computer
from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.conftest import COMPUTER_BUDGET
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_concurrency import answers, running, stopped

pytestmark = pytest.mark.slow

GUILD, CHANNEL, ALICE = wire.GUILD, wire.FIRST_CHANNEL, wire.FIRST_USER


async def set_caps(db: str, member: int | None = None, server: int | None = None) -> None:
    store = await Store.open(db)
    try:
        await store.servers.set_game_caps(GUILD, member, server)
    finally:
        await store.close()


async def open_new(server: FakeDiscord, channel: int, user: int) -> str:
    return await server.slash(
        guild_id=GUILD,
        channel_id=channel,
        user_id=user,
        command="azul",
        sub="new",
        options={"variant": "azul"},
        locale="en-US",
    )


def lobby_message(server: FakeDiscord, game_id: int) -> str:
    wanted = f"azul:lobby:{game_id}:join"
    for message_id, message in server.messages.items():
        for row in message.get("components") or []:
            if any(item.get("custom_id") == wanted for item in row.get("components", [])):
                return message_id
    raise AssertionError(f"no lobby message for game {game_id}")


async def join_clicks(server: FakeDiscord, clicks: list[tuple[int, int]]) -> list[str | None]:
    """Every ``(user, game)`` clicks the game's Join button at once; the answers, in that order."""
    sent = [
        await server.click(
            guild_id=GUILD, user_id=user, message_id=lobby_message(server, game), custom_id=f"azul:lobby:{game}:join"
        )
        for user, game in clicks
    ]
    return await answers(server, sent)


async def open_games(db: str) -> list[wire.Seen]:
    return [game for game in wire.read_games(db) if game.status in ("lobby", "active")]


async def test_eight_simultaneous_new_games_with_a_cap_of_two_make_two(
    discord_server: FakeDiscord, db_path: str
) -> None:
    await set_caps(db_path, member=2)
    bot, task = await running(db_path, discord_server)
    try:
        sent = [await open_new(discord_server, CHANNEL + n, ALICE) for n in range(8)]
        said = await answers(discord_server, sent)
    finally:
        await stopped(bot, task)
    refused = [s for s in said if s and "its limit per member allows (2)" in s]
    assert len(await open_games(db_path)) == 2 and len(refused) == 6, said


async def test_simultaneous_new_games_never_pass_the_server_cap(discord_server: FakeDiscord, db_path: str) -> None:
    await set_caps(db_path, server=3)
    bot, task = await running(db_path, discord_server)
    try:
        sent = [await open_new(discord_server, CHANNEL + n, ALICE + n) for n in range(6)]
        said = await answers(discord_server, sent)
    finally:
        await stopped(bot, task)
    refused = [s for s in said if s and "as many open games as its limit allows (3)" in s]
    assert len(await open_games(db_path)) == 3 and len(refused) == 3, said


async def opened_lobbies(server: FakeDiscord, store: Store, hosts: list[int]) -> list[int]:
    """Each host opens a two-seat lobby in a channel of its own (one after the other); their game ids."""
    for n, host in enumerate(hosts):
        await answers(server, [await open_new(server, CHANNEL + n, host)])
    return [(await seated(store, CHANNEL + n))[0] for n in range(len(hosts))]


async def seated(store: Store, channel: int) -> tuple[int, list[int | None]]:
    """The channel's open game: its id and who sits in it, in joining order."""
    game = await store.games.open_game_in(channel)
    assert game is not None
    return game.id, [seat.user_id for seat in game.seats]


async def test_six_simultaneous_joins_for_one_free_seat_seat_one_person(
    discord_server: FakeDiscord, db_path: str
) -> None:
    bot, task = await running(db_path, discord_server)
    try:
        (game,) = await opened_lobbies(discord_server, bot.service.store, [ALICE])
        said = await join_clicks(discord_server, [(ALICE + 1 + n, game) for n in range(6)])
        _, users = await seated(bot.service.store, CHANNEL)
    finally:
        await stopped(bot, task)
    assert len(users) == 2, said
    assert sum(bool(s and "This game is full" in s) for s in said) == 5, said


async def test_one_person_clicking_join_three_times_at_once_is_seated_once(
    discord_server: FakeDiscord, db_path: str
) -> None:
    bot, task = await running(db_path, discord_server)
    try:
        (game,) = await opened_lobbies(discord_server, bot.service.store, [ALICE])
        said = await join_clicks(discord_server, [(ALICE + 1, game)] * 3)
        _, users = await seated(bot.service.store, CHANNEL)
    finally:
        await stopped(bot, task)
    assert users == [ALICE, ALICE + 1], said
    assert sum(bool(s and "You are already in this game" in s) for s in said) == 2, said


async def test_simultaneous_joins_never_pass_a_members_cap(discord_server: FakeDiscord, db_path: str) -> None:
    await set_caps(db_path, member=2)
    bot, task = await running(db_path, discord_server)
    try:
        games = await opened_lobbies(discord_server, bot.service.store, [ALICE + 1 + n for n in range(4)])
        said = await join_clicks(discord_server, [(ALICE, game) for game in games])
        tables = [await seated(bot.service.store, CHANNEL + n) for n in range(4)]
    finally:
        await stopped(bot, task)
    refused = [s for s in said if s and "its limit per member allows (2)" in s]
    assert sum(ALICE in users for _, users in tables) == 2 and len(refused) == 2, said


async def hint_game(db: str) -> None:
    store = await Store.open(db)
    service = GameService(store, lambda: 11)
    try:
        await service.seating.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            name="alice",
            variant="azul",
            seats=2,
            order="joined",
            hints=True,
        )
        await service.seating.join(CHANNEL, ALICE + 1, "bob")
        await service.seating.start(CHANNEL, ALICE, is_admin=False)
    finally:
        await store.close()


async def test_five_simultaneous_hints_run_one_search(discord_server: FakeDiscord, db_path: str) -> None:
    await hint_game(db_path)
    bot, task = await running(db_path, discord_server, computer=Computer(1, COMPUTER_BUDGET))
    computer = bot.service.computer
    assert computer is not None
    searches: list[Any] = []
    original = computer.hint

    async def counted(*args: Any, **kwargs: Any) -> Any:
        searches.append(args)
        await asyncio.sleep(0.2)  # a search takes a while: the other requests arrive meanwhile
        return await original(*args, **kwargs)

    computer.hint = counted  # type: ignore[method-assign]
    try:
        sent = [
            await discord_server.slash(
                guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, command="azul", sub="hint", locale="en-US"
            )
            for _ in range(5)
        ]
        said = await answers(discord_server, sent)
    finally:
        await stopped(bot, task)
    assert len(searches) == 1, said
    assert all(s is not None and s == said[0] for s in said), said
    assert said[0] is not None and said[0].startswith("The strongest computer player would play"), said
