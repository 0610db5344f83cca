"""Leagues outrank the caps on open games, through the real bot: a round opens for players at their member cap (its
games neither take nor fill the caps), and a round that cannot open is said in words to the league's channel and its
organiser, with nothing of it made and the league paused until a server manager lets it go on."""

from __future__ import annotations

from typing import Any

import pytest

from bot.infra.clock import ManualClock
from tests.bot.test_leagues import League

pytestmark = pytest.mark.simcord(settle_timeout=120)


async def test_a_league_round_opens_for_players_at_their_member_cap(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    await league.organiser.slash(league.channel, "azul-server settings", member_games=1)
    casual = []
    for player in league.players:  # each fills their one seat
        channel = league.guild.create_text_channel(f"casual-{player.user.name}")
        opened = await player.slash(channel, "azul new", variant="azul", seats=2)
        assert not opened.ephemeral, opened.response.content
        casual.append(channel)
    await league.create(format="swiss", rounds=2, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()

    tables = await league.tables(1)
    assert len(tables) == 2 and len(league.channel.threads) == 2
    games = [await league.table_at(row.channel_id or 0).game() for row in tables]
    assert all(game.status == "active" for game in games)
    assert sum("round 1 of 2" in m.content and "•" in m.content for m in league.channel.history()) == 1

    alice = league.players[0]  # her league game is counted apart: leaving her lobby frees her one seat
    await alice.click(casual[0].last_message, label="Leave")
    spare = league.guild.create_text_channel("spare")
    again = await alice.slash(spare, "azul new", variant="azul", seats=2)
    assert not again.ephemeral, again.response.content


async def test_a_round_the_bot_may_not_open_is_told_and_pauses_the_league(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    await league.create(format="swiss", rounds=2, signup_hours=1)
    simcord_env.inject_error("POST", f"/channels/{league.channel.id}/threads", status=403, code=50013, times=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()

    assert not league.channel.threads
    said = league.channel.last_message.content
    assert "Round 1 of **Autumn Cup** could not open" in said and "**Create Public Threads**" in said, said
    assert "`/azul-server league pause` lets it go on" in said
    assert league.organiser.user.dm_channel.last_message.content == said, "the organiser is told too"
    (found,) = await league.store.leagues.leagues_in(league.guild.id)
    assert found.status == "paused"
    assert await league.store.games.open_game_ids() == [], "no game was made"
    clock.advance(minutes=5)
    await league.tick()
    assert not league.channel.threads and league.channel.last_message.content == said, "said once"

    resumed = await league.organiser.slash(league.channel, "azul-server league pause")
    assert not resumed.ephemeral or "goes on" in resumed.response.content, resumed.response.content
    await league.tick()
    assert len(league.channel.threads) == 2
    games = [await league.table_at(row.channel_id or 0).game() for row in await league.tables(1)]
    assert all(game.status == "active" for game in games)
