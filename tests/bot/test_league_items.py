"""Smaller league matters through the real bot: what a round robin promises for its table size, the imbalance line
only when pairs do meet unequally, confirmations before withdrawing and ending, a league ended early ending its
games, and no winner when nobody earned a point."""

from __future__ import annotations

from typing import Any

import pytest

from bot.infra.clock import ManualClock
from tests.bot.table import confirmed
from tests.bot.test_leagues import League

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def test_a_round_robin_promises_only_what_its_table_size_keeps(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    signup = await league.create(format="round_robin", table_size=4, signup_hours=1)
    assert "pairs meet as evenly as the tables allow" in signup.content and "everyone meets" not in signup.content
    clock.advance(hours=1, minutes=1)
    await league.tick()
    started = next(m.content for m in league.channel.history() if "is closed with 4 players" in m.content)
    assert "not every pair can meet equally often" not in started, "one table of four: every pair meets once"
    duel = League(simcord_env, 2)
    shown = await duel.create(format="round_robin", table_size=2, signup_hours=1)
    assert "everyone meets everyone" in shown.content


async def test_withdrawing_and_ending_ask_first_and_an_ended_league_ends_its_games(
    simcord_env: Any, clock: ManualClock
) -> None:
    league = League(simcord_env, 4)
    alice = league.players[0]
    await league.create(format="swiss", rounds=3, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    asked = await alice.slash(league.channel, "azul-league withdraw")
    assert asked.ephemeral and "Leave **Autumn Cup**?" in asked.response.content and asked.response.components
    cup = (await league.store.leagues.leagues_in(league.guild.id))[0]
    statuses = {p.user_id: p.status for p in await league.store.leagues.players(cup.id)}
    assert statuses[alice.id] == "in", "asking changes nothing"

    asked = await league.organiser.slash(league.channel, "azul-server league end")
    assert "End **Autumn Cup** now?" in asked.response.content and asked.response.components
    assert (await league.store.leagues.leagues_in(league.guild.id))[0].status == "running", "asking ends nothing"
    ended = await league.end()
    assert "**Autumn Cup** is over" in ended.response.content
    for row in await league.tables(1):
        table = league.table_at(row.channel_id or 0)
        game = await table.game()
        assert game.status == "aborted", "its running games end too"
        told = table.channel.last_message.content
        assert told == (
            f"🏁 **Autumn Cup** was ended early by the organisers: game #{game.id} ends here, without a result or a"
            " rating."
        )
        timers = await table.bot.service.store.timers.timers_of(game.id)
        assert all(timer.state != "pending" for timer in timers), "no clocks or pings go on"
    results, _ = await league.store.results.results(limit=10)
    assert results == [], "unrated"
    final = next(m.content for m in league.channel.history() if m.content.startswith("🏁"))
    assert "with no winner: nobody earned a point" in final and "Winner" not in final, final


async def test_a_league_games_rematch_is_left_to_the_league(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 2)
    alice, bob = league.players
    await league.create(format="swiss", rounds=2, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    table = league.table_at((await league.tables(1))[0].channel_id or 0)
    await confirmed(bob, table.channel, "resign")
    refused = await alice.click(table.channel.last_message, label="Rematch")
    assert refused.ephemeral and "was a league game: its league pairs the players again" in refused.response.content
    assert await table.bot.service.store.games.open_game_in(table.channel.id) is None, "no lobby in its thread"


async def test_the_league_service_is_built_once_with_the_bot(simcord_env: Any) -> None:
    bot = simcord_env.bot
    assert bot.leagues is bot.leagues, "every handler and the league runs share one LeagueService"
    assert bot.leagues.games is bot.service
