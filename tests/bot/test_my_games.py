"""``/azul-me games``: every open game of the user in every server, those waiting for them first, also in a DM."""

from __future__ import annotations

import re

import engine
from tests.bot.conftest import USER_LOCALES
from tests.bot.table import Table

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


async def test_my_games_lists_every_server_waiting_for_me_first_and_works_in_a_dm(simcord_env) -> None:
    home = Table.create(simcord_env, 2)
    await home.open("azul")
    alice = home.players[0]
    game, state = await home.state()
    if game.seat_of(alice.id) in engine.to_act(state):  # make the home game wait for bob
        member, _, move = await home.choose()
        await home.play_by_slash(member, move)
    home_game = await home.game()

    guild = simcord_env.create_guild()
    away = Table(
        simcord_env,
        guild,
        guild.create_text_channel("azul"),
        [guild.add_member(alice.user), guild.add_member(simcord_env.create_user("carol"))],
    )
    await away.open("summer-pavilion")
    game, state = await away.state()
    if game.seat_of(alice.id) not in engine.to_act(state):  # make the second game wait for alice
        member, _, move = await away.choose()
        await away.play_by_slash(member, move)
    away_game = await away.game()
    lobby_channel = guild.create_text_channel("lobby")
    dave = guild.add_member(simcord_env.create_user("dave"))
    await dave.slash(lobby_channel, "azul new", variant="azul", seats=3)
    await away.players[0].slash(lobby_channel, "azul join")
    lobby = await simcord_env.bot.service.store.games.latest_game_in(lobby_channel.id)

    answer = await alice.user.slash("azul-me games")  # in a DM with the bot
    content = answer.response.content
    lines = content.splitlines()
    assert lines[0].startswith("**Your open games: 3**") and "(your turn in 1)" in lines[0]
    assert f"#{away_game.id}" in lines[1] and "**your turn**" in lines[1], "waiting for alice comes first"
    assert f"#{home_game.id}" in lines[2] and "waiting for **bob**" in lines[2]
    assert f"#{lobby.id}" in lines[3] and "lobby, 2 of 3 seats taken" in lines[3]
    links = [tuple(int(part) for part in found) for found in LINK.findall(content)]
    assert links == [
        (guild.id, away.channel.id, away_game.board_message_id),
        (home.guild.id, home.channel.id, home_game.board_message_id),
        (guild.id, lobby_channel.id, lobby.lobby_message_id),
    ]
    assert away.channel.last_message.id == away_game.board_message_id, "the link is the newest board"

    USER_LOCALES[alice.id] = "pl"
    polish = (await away.players[0].slash(away.channel, "azul-me games")).response.content.splitlines()
    assert polish[0] == "**Twoje otwarte gry: 3** (twoja tura: 1)"
    assert "**twoja tura** (zaczęła się <t:" in polish[1] and "czeka na: **bob** (tura zaczęła się <t:" in polish[2]
    assert "poczekalnia, zajęte miejsca: 2 z 3" in polish[3]


async def test_my_games_says_when_there_are_none(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    answer = await table.players[0].slash(table.channel, "azul-me games")
    assert answer.ephemeral and answer.response.content.startswith("You have no open games.")
