"""After a resignation, a cancellation, a move taken back, a nudge or a league's change is saved, whatever fails next
(the board's post, the lobby's edit, the league's announcement) the person is told the change stands, never "nothing
was changed"."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import bot.ui.commands.league
import bot.ui.ending
from bot.app.errors import ChangeSaved
from bot.infra.clock import ManualClock
from bot.ui.league_runs import LeagueRuns
from tests.bot.table import Table
from tests.bot.test_leagues import League, confirmed_league


class Boom(Exception):
    """The injected failure of a step after the commit."""


def fail(*_args: Any, **_kwargs: Any) -> Any:
    raise Boom("a step after the commit failed")


@pytest.mark.parametrize(
    ("command", "words", "status"),
    [
        ("resign", "Your resignation stands", "over"),
        ("abort", "The game is cancelled and stays cancelled", "aborted"),
        ("undo", "Your move is taken back and stays taken back", "active"),
    ],
)
async def test_a_failure_after_the_commit_says_the_change_stands(
    simcord_env, monkeypatch: pytest.MonkeyPatch, command: str, words: str, status: str
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open()
    member, _, move = await table.choose()
    if command == "undo":
        await table.play_by_slash(member, move)
    played = (await table.game()).version
    monkeypatch.setattr(table.bot.poster, "post_board", fail)  # the final board, the restored board
    monkeypatch.setattr(bot.ui.ending, "refresh_lobby", fail)  # the cancelled game's lobby message
    if command == "undo":
        result = await member.slash(table.channel, "azul undo")
    else:
        result = await table.confirmed(member, command)
    said = result.response.content
    print(said)
    assert words in said and "Nothing" not in said, said
    game = await table.game()
    assert game.status == status
    if command == "undo":
        assert game.version == played + 1 and not await table.bot.service.store.moves.moves(game.id)
    errors = simcord_env.errors  # the injected failure reaches the tree's handler from a slash command: expected
    assert all(isinstance(error.__cause__ or error, Boom | ChangeSaved) for error in errors), errors


async def test_a_nudge_whose_post_failed_is_told_it_is_noted(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.create(simcord_env, 2)
    await table.open()
    _, seat, _ = await table.choose()
    other = table.member(await table.game(), 1 - seat)
    monkeypatch.setattr(table.bot.poster, "post_nudge", fail)
    result = await other.slash(table.channel, "azul nudge")
    said = result.response.content
    assert "Your nudge is noted" in said and "Nothing" not in said, said
    again = await other.slash(table.channel, "azul nudge")
    assert "Your nudge is noted" not in again.response.content, "noted: the next nudge waits its 12 hours"
    simcord_env.errors  # the injected failure, expected  # noqa: B018


async def test_a_league_whose_signup_post_failed_is_told_it_exists(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(simcord_env, 2)
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    monkeypatch.setattr(bot.ui.commands.league, "signup_text", fail)
    result = await admin.slash(
        table.channel, "azul-server league create", name="Spring", variant="azul", format="swiss"
    )
    said = result.response.content
    assert "The league is created" in said and "Nothing" not in said, said
    assert "Spring" in (await admin.slash(table.channel, "azul-league list")).response.content
    simcord_env.errors  # noqa: B018


@pytest.mark.simcord(settle_timeout=120)
async def test_league_changes_whose_posts_failed_are_told_they_stand(
    simcord_env, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = League(simcord_env, 6)  # three play on after three leave: the league runs to its end
    alice, bob, carol, *_ = league.players
    await league.create(format="swiss", rounds=3, signup_hours=2)
    for step in ("post", "refresh_signup", "refresh_standings", "announce_final"):
        monkeypatch.setattr(LeagueRuns, step, fail)  # every post about the league fails from here on

    left = await confirmed_league(alice, league.channel, "azul-league withdraw")  # during sign-up
    assert "You are out of the league, and that stands" in left.response.content, left.response.content
    monkeypatch.undo()
    clock.advance(hours=2, minutes=1)
    await league.tick()  # sign-up closes: the five others play round 1
    assert (await autumn_cup(league)).status == "running"
    for step in ("post", "refresh_signup", "refresh_standings", "announce_final"):
        monkeypatch.setattr(LeagueRuns, step, fail)

    steps = [
        (bob, "azul-league withdraw", {}, "You are out of the league, and that stands"),
        (league.organiser, "azul-server league drop", {"player": carol.user}, "The player is out of the league"),
        (league.organiser, "azul-server league pause", {}, "The league is paused"),
        (league.organiser, "azul-server league pause", {}, "The league goes on"),
        (league.organiser, "azul-server league end", {}, "The league is over, and that stands"),
    ]
    for member, command, options, words in steps:
        send = confirmed_league if command.endswith(("withdraw", "end")) else slash  # they ask first
        said = (await send(member, league.channel, command, **options)).response.content
        assert words in said and "Nothing" not in said, (command, said)
    cup = await autumn_cup(league)
    players = {player.user_id: player.status for player in await league.store.leagues.players(cup.id)}
    assert (players.get(alice.id), players[bob.id], players[carol.id]) == (None, "withdrew", "dropped")
    assert (await autumn_cup(league)).status == "over"
    simcord_env.errors  # the injected failures, expected  # noqa: B018


async def slash(member: Any, channel: Any, command: str, **options: Any) -> Any:
    return await member.slash(channel, command, **options)


async def autumn_cup(league: League) -> Any:
    found = await league.store.leagues.leagues_in(league.guild.id, finished=True)
    return next(row for row in found if row.name == "Autumn Cup")
