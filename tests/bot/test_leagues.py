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
from bot.infra.clock import ManualClock
from bot.infra.store import Store
from bot.infra.store.leagues import TableRow
from tests.bot.discord_limits import command_size
from tests.bot.table import Table, confirmed, mentions
from tests.bot.test_time_limits import computer_done

pytestmark = pytest.mark.simcord(settle_timeout=120)

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
LIMIT = 12  # hours per move


async def confirmed_league(member: Any, channel: Any, command: str, **options: Any) -> Any:
    """A league command that asks first, and its one confirming click; the click's result."""
    asked = await member.slash(channel, command, **options)
    assert asked.ephemeral and asked.response.components, asked.response.content
    button = asked.response.components[0]["components"][0]
    return await member.click(asked.response, custom_id=button["custom_id"])


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
    def store(self) -> Store:
        store: Store = self.env.bot.service.store
        return store

    def name_of(self, user_id: int | None) -> str:
        return next(player.user.name for player in self.players if player.id == user_id) if user_id else "computer"

    async def create(self, **options: Any) -> Any:
        created = await self.organiser.slash(
            self.channel,
            "azul-server league create",
            name="Autumn Cup",
            variant="azul",
            time_limit=str(LIMIT),
            **options,
        )
        assert not created.ephemeral, created.response.content
        signup = self.channel.last_message
        buttons = [button.custom_id or "" for row in signup.components for button in row.children]
        join = next(custom_id for custom_id in buttons if custom_id.endswith(":join"))
        for player in self.players:
            joined = await player.click(signup, custom_id=join)  # by its id: the label is in the server's language
            assert joined.ephemeral and "**Autumn Cup**" in joined.response.content, joined.response.content
        return signup

    async def tick(self) -> None:
        """What the timer loop does every minute (and what a settled game wakes)."""
        await self.env.bot.run_due()
        await self.env.settle()

    async def tables(self, number: int, name: str = "Autumn Cup") -> list[TableRow]:
        found = await self.store.leagues.leagues_in(self.guild.id, finished=True)
        league = next(league for league in found if league.name == name)
        return await self.store.leagues.tables(league.id, number)

    async def pairs(self, number: int, name: str = "Autumn Cup") -> list[tuple[str, ...]]:
        return [tuple(self.name_of(user) for user in table.players) for table in await self.tables(number, name)]

    async def withdraw(self, member: Any) -> Any:
        """``member`` leaves the league with ``/azul-league withdraw`` and its confirming click (its result)."""
        return await confirmed_league(member, self.channel, "azul-league withdraw")

    async def end(self) -> Any:
        """The organiser ends the league with ``/azul-server league end`` and its confirming click (its result)."""
        return await confirmed_league(self.organiser, self.channel, "azul-server league end")

    def table_at(self, thread_id: int) -> Table:
        thread = next(thread for thread in self.channel.threads if thread.id == thread_id)
        return Table(self.env, self.guild, thread, self.players)


async def test_sign_up_buttons_keep_the_list_and_a_round_opens_in_threads(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    with pytest.raises(SetupError, match="default-member-permissions"):  # Discord shows it to managers only
        await league.players[0].slash(
            league.channel, "azul-server league create", name="X", variant="azul", format="swiss"
        )
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

    mine = await league.players[0].slash(league.channel, "azul-me games")
    assert "🏆 Autumn Cup, round 1" in mine.response.content


async def one_move(table: Table, *, buttons: bool) -> None:
    """Whoever must move plays the greedy agent's move, by the Play picker or by slash command."""
    member, _, move = await table.choose()
    if buttons:
        await table.play_by_buttons(member, move)
    else:
        await table.play_by_slash(member, move)


async def resign(league: League, table: Table, loser: str) -> None:
    """``loser`` resigns; at a table of three or more that plays on (the computer takes the seat), the others play
    the game out."""
    await confirmed(league.by_name[loser], table.channel, "resign")
    while (await table.game()).status == "active":
        await computer_done(table)
        if (await table.game()).status == "active":
            member, _, move = await table.choose()  # the computer answers at once: the version moves on by more
            await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    await league.tick()  # the settled game woke the league's tick already; this one waits for it


async def decided(league: League, row: TableRow, loser: str) -> None:
    """Both players move (one by buttons, one by slash command), then ``loser`` resigns."""
    table = league.table_at(row.channel_id or 0)
    await one_move(table, buttons=True)
    await one_move(table, buttons=False)
    await resign(league, table, loser)


async def absent(league: League, clock: ManualClock, row: TableRow, timeouts: int, loser: str) -> None:
    """Frank never moves: his time runs out ``timeouts`` times (the computer moves for him) while his opponent
    plays; then ``loser`` (his opponent) resigns."""
    table = league.table_at(row.channel_id or 0)
    frank = league.by_name["frank"]
    count = 0
    while count < timeouts:
        await computer_done(table)
        game, state = await table.state()
        seat = min(engine.to_act(state))
        if table.member(game, seat).id == frank.id:
            clock.advance(hours=LIMIT, minutes=1)
            await league.tick()
            await computer_done(table)
            count += 1
        else:
            await one_move(table, buttons=False)
    game = await table.game()
    assert game.by_seat()[game.seat_of(frank.id) or 0].timeouts == timeouts
    await resign(league, table, loser)


@pytest.mark.slow  # a whole league played through the bot
async def test_a_swiss_league_of_six_plays_to_its_final_standings(
    simcord_env: Any, clock: ManualClock, make_bot: Any
) -> None:
    league = League(simcord_env, 6)
    await league.create(format="swiss", rounds=3, signup_hours=24, rated=False)
    clock.advance(hours=24, minutes=1)
    await league.tick()

    # Round 1: everyone has 0 points and the same rating: sign-up order, neighbours meet.
    assert await league.pairs(1) == [("alice", "bob"), ("carol", "dave"), ("erin", "frank")]
    one = await league.tables(1)
    await decided(league, one[0], loser="bob")
    await decided(league, one[1], loser="carol")
    # Two timeouts in a row leave frank his seat (a third would hand it to the computer, and he would rank last:
    # test_leaving_never_pays); erin resigning loses to him.
    await absent(league, clock, one[2], timeouts=2, loser="erin")
    frank_game = await league.table_at(one[2].channel_id or 0).game()
    assert not frank_game.by_seat()[frank_game.seat_of(league.by_name["frank"].id) or 0].computer_plays

    # Round 2: alice, dave, frank have 2 points, the others 0 (then sign-up order): alice–dave, frank–bob,
    # carol–erin; none has met before.
    assert await league.pairs(2) == [("alice", "dave"), ("frank", "bob"), ("carol", "erin")]
    two = await league.tables(2)
    first = league.table_at(two[0].channel_id or 0)
    await one_move(first, buttons=True)
    await simcord_env.restart_bot(make_bot())  # in the middle of round 2
    await simcord_env.settle()
    await one_move(first, buttons=True)  # the board posted before the restart still plays
    await resign(league, first, "alice")
    await decided(league, two[2], loser="erin")
    await absent(league, clock, two[1], timeouts=1, loser="bob")

    # Round 3: dave and frank have 4, alice and carol 2, bob and erin 0. dave–frank, alice–carol, bob–erin: no
    # repeat was needed.
    assert await league.pairs(3) == [("dave", "frank"), ("alice", "carol"), ("bob", "erin")]
    three = await league.tables(3)
    await decided(league, three[1], loser="carol")
    await decided(league, three[2], loser="erin")
    await absent(league, clock, three[0], timeouts=1, loser="dave")

    posts = [message.content for message in league.channel.history()]
    line = "🏆 **Autumn Cup**, round 1: 1. **alice** 0 (+2 points) · 2. **bob** 0 (resigned) (+0 points)"
    assert line in posts, "a short line per result"
    met = [frozenset(pair) for number in (1, 2, 3) for pair in await league.pairs(number)]
    assert len(met) == len(set(met)) == 9, "no pairing repeats"

    # By hand: points frank 6, dave 4, alice 4, bob 2, carol 2, erin 0. Buchholz (the points of everyone met):
    # frank: erin 0 + bob 2 + dave 4 = 6; dave: carol 2 + alice 4 + frank 6 = 12; alice: bob 2 + dave 4 + carol 2
    # = 8; bob: alice 4 + frank 6 + erin 0 = 10; carol: dave 4 + erin 0 + alice 4 = 8; erin: frank 6 + carol 2 +
    # bob 2 = 10. So dave is ahead of alice, and bob of carol, on Buchholz.
    expected = [
        ("frank", 6, 6),
        ("dave", 4, 12),
        ("alice", 4, 8),
        ("bob", 2, 10),
        ("carol", 2, 8),
        ("erin", 0, 10),
    ]
    lines = [
        f"{rank}. **{name}**: {points} points · Buchholz {buchholz}"
        for rank, (name, points, buchholz) in enumerate(expected, start=1)
    ]
    answer = await league.players[0].slash(league.channel, "azul-league standings")
    said = answer.response.content
    assert "Autumn Cup: final standings" in said
    assert [line for line in said.splitlines() if line[:1].isdigit()] == [
        line + f" · score {score} · games: 3" for line, score in zip(lines, await scores(league), strict=True)
    ], said
    posts = [message.content for message in league.channel.history()]
    final = next(post for post in posts if post.startswith("🏁"))
    assert "Winner: **frank**" in final and final.count("\n") == 6
    assert [p for p in posts if "round 3 of 3" in p and "**dave** – **frank**" in p], "round 3 announced"
    assert sum("round 2 of 3" in post and "•" in post for post in posts) == 1, "each round announced once"
    pinned = league.channel.pinned_messages()
    assert len(pinned) == 1 and "final standings" in pinned[0].content and pinned[0].attachments
    league_row = (await league.store.leagues.leagues_in(league.guild.id, finished=True))[0]
    assert league_row.status == "over"


async def scores(league: League) -> list[int]:
    """Each player's total game score over the league (in the expected order), from the games' results."""
    order = ["frank", "dave", "alice", "bob", "carol", "erin"]
    totals = dict.fromkeys(order, 0)
    for number in (1, 2, 3):
        for row in await league.tables(number):
            for user, score in zip(row.players, (row.result or {}).get("scores", []), strict=False):
                totals[league.name_of(user)] += score
    return [totals[name] for name in order]


@pytest.mark.slow  # a whole league played through the bot
async def test_a_round_robin_of_five_gives_everyone_four_games_and_a_bye(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 5)
    await league.create(format="round_robin", signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    started = [m.content for m in league.channel.history() if "Sign-up for **Autumn Cup** is closed" in m.content]
    assert started == ["🏆 Sign-up for **Autumn Cup** is closed with 5 players. Round 1 begins now."]

    names = NAMES[:5]
    games = dict.fromkeys(names, 0)
    byes = dict.fromkeys(names, 0)
    pairs: list[frozenset[str]] = []
    for number in range(1, 6):
        rows = await league.tables(number)
        assert len(rows) == 3, f"round {number}: two tables and a bye"
        for row in rows:
            players = [league.name_of(user) for user in row.players]
            if row.bye:
                byes[players[0]] += 1
                continue
            pairs.append(frozenset(players))
            for name in players:
                games[name] += 1
        bye = next(row for row in rows if row.bye)
        post = next(m.content for m in reversed(league.channel.history()) if f"round {number} of 5" in m.content)
        assert f"• **{league.name_of(bye.players[0])}** has a bye this round (1 point)." in post
        for row in rows:
            if not row.bye:  # the first player listed loses, so results differ from round to round
                await decided(league, row, loser=league.name_of(row.players[0]))
    assert games == dict.fromkeys(names, 4) and byes == dict.fromkeys(names, 1)
    # By hand, the circle method (alice fixed, the others and an empty place turning):
    assert [await league.pairs(number) for number in range(1, 6)] == [
        [("bob", "erin"), ("carol", "dave"), ("alice",)],
        [("alice", "erin"), ("bob", "carol"), ("dave",)],
        [("alice", "dave"), ("erin", "carol"), ("bob",)],
        [("alice", "carol"), ("dave", "bob"), ("erin",)],
        [("alice", "bob"), ("dave", "erin"), ("carol",)],
    ]
    # The first listed lost each game: carol and erin won 3 (6 points + a bye's 1), bob and dave 2 (5), alice none
    # (1). No game got past its first moves, so every score is 0; head-to-head: carol beat erin, bob beat dave.
    said = (await league.players[0].slash(league.channel, "azul-league standings")).response.content
    assert [line for line in said.splitlines() if line[:1].isdigit()] == [
        "1. **carol**: 7 points · score 0 · games: 4",
        "2. **erin**: 7 points · score 0 · games: 4",
        "3. **bob**: 5 points · score 0 · games: 4",
        "4. **dave**: 5 points · score 0 · games: 4",
        "5. **alice**: 1 point · score 0 · games: 4",
    ], said
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(names, 2))))
    league_row = (await league.store.leagues.leagues_in(league.guild.id, finished=True))[0]
    assert league_row.status == "over" and league_row.rounds == 5
    assert await league.tables(6) == []


async def test_the_league_commands_fit_their_budget() -> None:
    from discord.ext import commands

    from bot.app.language import Translator
    from bot.ui.commands.league import LeagueCog
    from bot.ui.commands.server import ServerCog

    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
    for cog in (LeagueCog(bot), ServerCog(bot)):
        await bot.add_cog(cog)
    sizes = {}
    for command in bot.tree.get_commands():
        payload = await command.get_translated_payload(bot.tree, Translator())
        sizes[payload["name"]] = command_size(payload)
        assert payload["name_localizations"] and payload["contexts"] == [0], payload["name"]
    assert set(sizes) == {"azul-league", "azul-server"}
    assert all(size <= 3000 for size in sizes.values()), sizes
    server = await bot.tree.get_command("azul-server").get_translated_payload(bot.tree, Translator())  # type: ignore[union-attr]
    assert int(server["default_member_permissions"]) == discord.Permissions(manage_guild=True).value


@pytest.mark.slow  # a league's life through the bot
async def test_withdrawing_dropping_pausing_and_ending_are_announced_once(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    alice, bob, carol, _ = league.players
    signup = await league.create(format="swiss", rounds=3, signup_hours=2)
    taken = await league.organiser.slash(
        league.channel, "azul-server league create", name="autumn  cup", variant="azul", format="swiss"
    )
    assert taken.ephemeral and "already has a league called **Autumn Cup**" in taken.response.content
    clock.advance(hours=2, minutes=1)
    await league.tick()
    closed = next(m for m in league.channel.history() if m.id == signup.id)
    assert "Sign-up is closed." in closed.content and not closed.components, "no Join or Leave any more"
    assert await league.pairs(1) == [("alice", "bob"), ("carol", "dave")]

    alices = league.table_at((await league.tables(1))[0].channel_id or 0)
    member, _, _ = await alices.choose()
    if member.id != alice.id:
        await one_move(alices, buttons=False)  # bob's move: now alice must move
    said = await league.withdraw(alice)
    assert said.ephemeral and "You have left **Autumn Cup**" in said.response.content
    posts = [m.content for m in league.channel.history() if "withdrew from" in m.content]
    assert posts == ["🏆 **alice** withdrew from **Autumn Cup**. The computer plays their running game to the end."]
    one = await league.tables(1)
    game = await alices.game()
    assert game.by_seat()[game.seat_of(alice.id) or 0].computer_plays
    await computer_done(alices)
    game, state = await alices.state()
    assert engine.to_act(state) == {game.seat_of(bob.id)}, "the computer moved for her at once where she had to"
    again = await alice.slash(league.channel, "azul-league withdraw")
    assert "not (or no longer) in this league" in again.response.content

    paused = await league.organiser.slash(league.channel, "azul-server league pause")
    assert paused.ephemeral and "is paused" in paused.response.content
    await resign(league, league.table_at(one[0].channel_id or 0), "bob")
    await decided(league, one[1], loser="dave")
    assert await league.tables(2) == [], "a paused league starts no round"
    resumed = await league.organiser.slash(league.channel, "azul-server league pause")
    assert "goes on" in resumed.response.content
    # alice is out (bob resigned against the computer in her seat: both left, neither earned a point); carol 2,
    # then bob and dave 0 (sign-up order): carol–bob, and dave has the bye.
    assert await league.pairs(2) == [("carol", "bob"), ("dave",)]

    dropped = await league.organiser.slash(league.channel, "azul-server league drop", player=carol.user)
    assert dropped.ephemeral and "**carol** is out of the league" in dropped.response.content
    assert sum("was dropped from **Autumn Cup**" in m.content for m in league.channel.history()) == 1
    thread = league.table_at((await league.tables(2))[0].channel_id or 0)
    refused = await carol.slash(thread.channel, "azul abort")  # she opened it (first at the table)
    assert refused.ephemeral
    assert "This is a league game: only a server manager may cancel it" in refused.response.content
    await confirmed(league.organiser, thread.channel, "abort")
    await league.tick()
    void = f"🏆 **Autumn Cup**, round 2: game #{(await thread.game()).id} was cancelled and counts for nobody."
    assert [m.content for m in league.channel.history()].count(void) == 1
    ended = await league.end()
    assert ended.ephemeral and "**Autumn Cup** is over" in ended.response.content
    final = [m.content for m in league.channel.history() if m.content.startswith("🏁")]
    assert len(final) == 1 and "ended early by the organisers" in final[0]
    assert "4. **alice**: 0 points" in final[0] and "(withdrew)" in final[0] and "(dropped)" in final[0]
    refused = await league.organiser.slash(league.channel, "azul-server league end", league="Autumn Cup")
    assert refused.ephemeral and "over already" in refused.response.content
    listed = await bob.slash(league.channel, "azul-league list")
    assert "**Autumn Cup**: Azul · Swiss · Over · 👥 4" in listed.response.content


@pytest.mark.slow  # a league's games played out by computer seats
async def test_computer_seats_fill_tables_of_three_and_the_imbalance_is_stated(
    simcord_env: Any, clock: ManualClock
) -> None:
    league = League(simcord_env, 4)
    await league.create(format="round_robin", table_size=3, leftover="computer", signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    started = next(m.content for m in league.channel.history() if "is closed with 4 players" in m.content)
    # Two rounds of two tables (2 people and a computer each): alice–bob and carol–dave, then alice–carol and
    # bob–dave; alice and dave never meet, nor do bob and carol.
    assert "two players meet between 0 and 1 times" in started
    assert await league.pairs(1) == [("alice", "bob", "computer"), ("carol", "dave", "computer")]
    row = (await league.tables(1))[0]
    table = league.table_at(row.channel_id or 0)
    game = await table.game()
    assert len(game.seats) == 3 and len(game.computer_seats()) == 1
    await one_move(table, buttons=False)
    await computer_done(table)
    await resign(league, table, "bob")
    heading = "🏆 **Autumn Cup**, round 1"
    result = next(m.content for m in reversed(league.channel.history()) if m.content.startswith(heading))
    # bob resigned early: the computer played his seat to the end, and he ranks last whatever his seat scored (even
    # level with alice); alice gets 2 points for each player below her.
    assert result == (
        "🏆 **Autumn Cup**, round 1: 1. **alice** 58 (+4 points) · 2. **Computer** 48"
        " · 3. **bob** 58 (resigned) (+0 points)"
    )
    for other in (await league.tables(1))[1:]:
        await resign(league, league.table_at(other.channel_id or 0), "dave")
    assert await league.pairs(2) == [("alice", "carol", "computer"), ("bob", "dave", "computer")]


async def test_a_scheduled_round_waits_for_its_day_and_two_players_meet_again(
    simcord_env: Any, clock: ManualClock
) -> None:
    league = League(simcord_env, 2)
    await league.create(format="swiss", rounds=2, round_days=1, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    await decided(league, (await league.tables(1))[0], loser="alice")
    clock.advance(hours=23, minutes=59)
    await league.tick()
    assert await league.tables(2) == [], "round 2 starts a day after round 1 began"
    clock.advance(minutes=1)
    await league.tick()
    assert await league.pairs(2) == [("bob", "alice")], "no other pairing exists, so they meet again"


async def test_opening_a_table_again_after_a_crash_finishes_what_was_left(db_path: str) -> None:
    """A process that died while opening a table left a lobby with only its first player: the next one reuses it,
    seats the rest and starts it; opening it once more changes nothing."""
    from itertools import count

    from bot.app.leagues import LeagueService
    from bot.app.service import GameService
    from bot.infra.store import Store

    store = await Store.open(db_path)
    seeds = count(7)
    try:
        leagues = LeagueService(GameService(store, lambda: next(seeds), clock=ManualClock()))
        league = await leagues.create(guild_id=1, channel_id=10, user_id=99, name="Cup", variant="azul", format="swiss")
        for user in (1, 2):
            await leagues.join(league.id, user, f"p{user}")
        league, started = await leagues.close_signup(league)
        assert started and league.status == "running"
        (table,) = await leagues.pair(league, 1)
        assert await leagues.pair(league, 1) == [table], "a round's tables are stored once"
        await leagues.games.seating.create(guild_id=1, channel_id=500, user_id=1, name="p1", variant="azul", seats=2)
        opened = await leagues.open_game(league, table, 500)
        assert opened.game.status == "active" and sorted(s.user_id or 0 for s in opened.game.seats) == [1, 2]
        again = await leagues.open_game(league, (await leagues.store.leagues.tables(league.id, 1))[0], 500)
        assert again.game.id == opened.game.id and again.game.version == opened.game.version
        assert (await leagues.league_of_game(opened.game.id)) == (league, 1)
    finally:
        await store.close()


async def test_two_leagues_in_one_server_and_a_player_in_both(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    alice, bob, carol, _ = league.players
    await league.create(format="swiss", rounds=2, signup_hours=1)
    second = await league.organiser.slash(
        league.channel, "azul-server league create", name="Grey Wall Open", variant="azul-grey", format="round_robin"
    )
    assert not second.ephemeral
    await alice.click(league.channel.last_message, label="Join")
    await bob.click(league.channel.last_message, label="Join")
    which = await carol.slash(league.channel, "azul-league standings")
    assert which.ephemeral and "several leagues: choose one" in which.response.content
    offered = await carol.autocomplete(league.channel, "azul-league standings", "league", "grey")
    assert [choice["name"] for choice in offered] == ["Grey Wall Open"]
    chosen = await carol.slash(league.channel, "azul-league standings", league=offered[0]["value"])
    assert "Grey Wall Open: sign-up is open" in chosen.response.content
    assert "1. **alice**: 0 points" in chosen.response.content and "carol" not in chosen.response.content
    by_name = await carol.slash(league.channel, "azul-league standings", league="autumn cup")
    assert "Autumn Cup: sign-up is open" in by_name.response.content
    listed = await carol.slash(league.channel, "azul-league list")
    assert "**Grey Wall Open**: Azul — grey wall · Round robin · Sign-up open · 👥 2" in listed.response.content

    clock.advance(hours=48, minutes=1)
    await league.tick()
    assert await league.pairs(1) == [("alice", "bob"), ("carol", "dave")]
    assert await league.pairs(1, "Grey Wall Open") == [("alice", "bob")]
    assert len(league.channel.threads) == 3, "alice and bob play a game in each league at once"
    mine = (await alice.slash(league.channel, "azul-me games")).response.content
    assert "🏆 Autumn Cup, round 1" in mine and "🏆 Grey Wall Open, round 1" in mine


async def test_a_round_that_discord_failed_to_open_opens_at_the_next_tick(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    await league.create(format="swiss", rounds=2, signup_hours=1)
    simcord_env.inject_error("POST", f"/channels/{league.channel.id}/threads", status=500, times=1)  # Discord's fault
    clock.advance(hours=1, minutes=1)
    await league.tick()
    assert not league.channel.threads and await league.tables(1), "paired, but no thread yet"
    clock.advance(minutes=1)
    await league.tick()
    assert len(league.channel.threads) == 2
    assert sum("round 1 of 2" in m.content and "•" in m.content for m in league.channel.history()) == 1
    games = [await league.table_at(row.channel_id or 0).game() for row in await league.tables(1)]
    assert all(game.status == "active" for game in games) and len({game.id for game in games}) == 2


async def test_a_league_with_one_player_left_ends_instead_of_pairing(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 2)
    _, bob = league.players
    await league.create(format="swiss", rounds=3, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    await league.withdraw(bob)
    await resign(league, league.table_at((await league.tables(1))[0].channel_id or 0), "alice")
    assert await league.tables(2) == []
    final = [m.content for m in league.channel.history() if m.content.startswith("🏁")]
    # bob withdrew and alice resigned against the computer playing his seat: both left the game, so neither
    # earned a point from it (before, bob won the league on the computer's play).
    assert len(final) == 1 and "with no winner: nobody earned a point" in final[0], final
    assert (await league.store.leagues.leagues_in(league.guild.id, finished=True))[0].status == "over"


async def test_swiss_pairs_equal_points_by_rating(simcord_env: Any, clock: ManualClock) -> None:
    league = League(simcord_env, 4)
    _, _, carol, dave = league.players
    elsewhere = Table(simcord_env, league.guild, league.guild.create_text_channel("casual"), [carol, dave])
    await elsewhere.open()
    await confirmed(dave, elsewhere.channel, "resign")  # a rated game: carol's rating rises, dave's falls
    assert (await elsewhere.game()).status == "over"
    await league.create(format="swiss", rounds=2, signup_hours=1)
    clock.advance(hours=1, minutes=1)
    await league.tick()
    # Everyone has 0 points: by rating, carol first, alice and bob (new: the same rating, so sign-up order), dave.
    assert await league.pairs(1) == [("carol", "alice"), ("bob", "dave")]
