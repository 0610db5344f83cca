"""Leagues through the real bot: a server manager creates one, players sign up with the buttons, rounds open by
themselves in threads when their time comes, results feed the standings, and the league plays to its end (a Swiss
league of 6 with a player who never moves and a restart in round 2; a round robin of 5 with byes)."""

from __future__ import annotations

import itertools
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

import engine
from bot.clock import ManualClock
from bot.league_store import LeagueStore, TableRow
from tests.bot.table import Table, mentions
from tests.bot.test_time_limits import computer_done

pytestmark = pytest.mark.simcord(settle_timeout=120)

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
LIMIT = 12  # hours per move


class League:
    """A server with a league channel, an organiser (Manage Server) and players who signed up in ``NAMES`` order."""

    def __init__(self, env: Any, count: int) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("leagues")
        managers = self.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        self.organiser = self.guild.add_member(env.create_user("olga"), roles=[managers])
        self.players = [self.guild.add_member(env.create_user(name)) for name in NAMES[:count]]
        self.by_name = {player.user.name: player for player in self.players}

    @property
    def store(self) -> LeagueStore:
        return LeagueStore(self.env.bot.service.store)

    def name_of(self, user_id: int | None) -> str:
        return next(player.user.name for player in self.players if player.id == user_id) if user_id else "computer"

    async def create(self, **options: Any) -> Any:
        created = await self.organiser.slash(
            self.channel, "azul-server league create", name="Autumn Cup", variant="azul", time_limit=str(LIMIT), **options
        )
        assert not created.ephemeral, created.response.content
        signup = self.channel.last_message
        for player in self.players:
            joined = await player.click(signup, label="Join")
            assert joined.ephemeral and "You are in **Autumn Cup**" in joined.response.content, joined.response.content
        return signup

    async def tick(self) -> None:
        """What the timer loop does every minute (and what a settled game wakes)."""
        await self.env.bot.run_due()
        await self.env.settle()

    async def tables(self, number: int) -> list[TableRow]:
        league = (await self.store.leagues_in(self.guild.id, finished=True))[0]
        return await self.store.tables(league.id, number)

    async def pairs(self, number: int) -> list[tuple[str, ...]]:
        return [tuple(self.name_of(user) for user in table.players) for table in await self.tables(number)]

    def table_at(self, thread_id: int) -> Table:
        thread = next(thread for thread in self.channel.threads if thread.id == thread_id)
        return Table(self.env, self.guild, thread, self.players)


async def test_sign_up_buttons_keep_the_list_and_a_round_opens_in_threads(simcord_env, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    with pytest.raises(SetupError, match="default-member-permissions"):  # Discord shows it to managers only
        await league.players[0].slash(league.channel, "azul-server league create", name="X", variant="azul", format="swiss")
    signup = await league.create(format="swiss", rounds=2, signup_hours=24, rated=False)
    shown = next(m for m in league.channel.history() if m.id == signup.id)
    assert "**4 players:** **alice**, **bob**, **carol**, **dave**" in shown.content
    again = await league.players[0].click(shown, label="Join")
    assert again.ephemeral and "signed up already" in again.response.content
    left = await league.players[3].click(shown, label="Leave")
    assert "no longer signed up" in left.response.content
    shown = next(m for m in league.channel.history() if m.id == signup.id)
    assert "**3 players:** **alice**, **bob**, **carol**" in shown.content
    await league.players[3].click(shown, label="Join")

    clock.advance(hours=23)
    await league.tick()
    assert not league.channel.threads, "sign-up is still open"
    clock.advance(hours=1, minutes=1)
    await league.tick()
    assert await league.pairs(1) == [("alice", "bob"), ("carol", "dave")]
    threads = league.channel.threads
    assert len(threads) == 2
    for table in await league.tables(1):
        thread = league.table_at(table.channel_id or 0)
        welcome, board = thread.channel.history()[:2]
        assert sorted(mentions(welcome.content)) == sorted(u for u in table.players if u), "each player pinged once"
        assert board.attachments and not mentions(board.content)
        game = await thread.game()
        assert game.status == "active" and game.time_limit_hours == LIMIT and game.id == table.game_id
    posts = [m.content for m in league.channel.history()]
    assert any("round 1 of 2" in post and "**alice** – **bob**" in post for post in posts), posts
    pinned = league.channel.pinned_messages()
    assert len(pinned) == 1 and "standings, round 1 of 2" in pinned[0].content

    mine = await league.players[0].slash(league.channel, "azul-me games" if False else "azul me games")
    assert "🏆 Autumn Cup, round 1" in mine.response.content
