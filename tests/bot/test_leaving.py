"""Leaving never pays, through the real bot: a league player who withdraws mid-game, or whom the organiser drops,
ranks after everyone who stayed in that game, earns no league points and no rating from the computer's play in
their seat, and ends the league after everyone still in it (the game-level rule for a player who never moves is in
``test_time_limits``: test_a_game_in_which_one_player_never_moves_reaches_its_final_standings)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.app import ratings
from bot.infra.clock import ManualClock
from tests.bot.table import Table
from tests.bot.test_computer import play
from tests.bot.test_leagues import League, one_move
from tests.bot.test_time_limits import computer_done

pytestmark = pytest.mark.simcord(settle_timeout=120)


async def play_against_the_computer(table: Table) -> None:
    """The person still at the table plays (greedily) whenever they must; the computer plays the other seat."""
    for _ in range(400):
        await computer_done(table)
        game, state = await table.state()
        if game.status != "active":
            return
        seat = min(engine.to_act(state) - set(game.computer_seats()))
        await play(table, table.member(game, seat), table.agent.choose(engine.variant_of(state), state, seat))
    raise AssertionError("the game did not end")


@pytest.mark.slow  # two whole games against the hard computer
async def test_a_withdrawn_and_a_dropped_player_rank_last_whatever_the_computer_scores(
    simcord_env: Any, clock: ManualClock
) -> None:
    league = League(simcord_env, 4)
    alice, bob, carol, dave = league.players
    await league.create(format="swiss", rounds=1, signup_hours=1, rated=True)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    assert await league.pairs(1) == [("alice", "bob"), ("carol", "dave")]
    first, second = (league.table_at(row.channel_id or 0) for row in await league.tables(1))
    for table in (first, second):  # both players move once: the games are under way
        await one_move(table, buttons=False)
        await one_move(table, buttons=False)

    await league.withdraw(alice)
    await league.organiser.slash(league.channel, "azul-server league drop", player=carol.user)
    for table, leaver in ((first, alice), (second, carol)):
        game = await table.game()
        assert game.by_seat()[game.seat_of(leaver.id) or 0].dropped, "her seat is the computer's for good"
        taken = await leaver.slash(table.channel, "azul seat")
        assert taken.ephemeral and "cannot take it back" in taken.response.content, taken.response.content
        await play_against_the_computer(table)
    await league.tick()

    for table, stayed, leaver in ((first, bob, alice), (second, dave, carol)):
        game = await table.game()
        (row,), _ = await table.bot.service.store.results.results(channel_id=table.channel.id, limit=1)
        by_user = {seat.user_id: seat for seat in row.seats}
        assert (by_user[stayed.id].place, by_user[stayed.id].outcome) == (1, "played")
        assert (by_user[leaver.id].place, by_user[leaver.id].outcome) == (2, "dropped"), "whatever she scored"
        final = [line for line in table.channel.last_message.content.splitlines() if line[:1].isdigit()]
        assert final[0].startswith(f"1. **{stayed.user.name}**") and "(left the game)" in final[1], final
        for user in (stayed, leaver):  # a rated game: the leaver lost, the one who stayed won
            skill = (await table.bot.service.store.results.ratings_of(user.id))[0]
            gained = ratings.ordinal((skill.mu, skill.sigma)) > ratings.ordinal(ratings.initial())
            assert gained == (user is stayed), (user.user.name, skill)

    posts = [message.content for message in league.channel.history()]
    for stayed, leaver in ((bob, alice), (dave, carol)):
        line = next(post for post in posts if f"**{leaver.user.name}** " in post and "round 1:" in post)
        assert f"1. **{stayed.user.name}**" in line and "(+2 points)" in line, line
        assert f"2. **{leaver.user.name}**" in line and "(left the game) (+0 points)" in line, line
    final = next(post for post in posts if post.startswith("🏁"))
    standings = [line for line in final.splitlines() if line[:1].isdigit()]
    names = [line.split("**")[1] for line in standings]
    assert set(names[:2]) == {"bob", "dave"} and names[2:] == ["alice", "carol"], final
    assert f"Winner: **{names[0]}**!" in final, final  # bob and dave won 2 points each: the higher score wins
    assert "3. **alice**: 0 points" in standings[2] and "(withdrew)" in standings[2]
    assert "3. **carol**: 0 points" in standings[3] and "(dropped)" in standings[3]
