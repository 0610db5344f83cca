"""Games that keep going: resigning leaves a table of three or more playing, and resign and abort ask first."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import engine
from bot.app.game_summary import points_by_category
from bot.games import adapter_of
from bot.infra.clock import ManualClock
from engine.agents import GreedyAgent
from tests.bot.table import Table, mentions
from tests.bot.test_faults import forged_click

# The computer plays a resigned seat between the others' moves: a chain of searches and pictures outlasts
# SimCord's default five seconds on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=120)


async def play_people_to_the_end(table: Table) -> None:
    """The people still seated play greedily by slash command; the computer plays the resigned seat on its own."""
    for _ in range(600):
        game, state = await table.state()
        if game.status != "active":
            return
        to_act = sorted(engine.to_act(state) - set(game.computer_seats()))
        assert to_act, "the computer's seat was left waiting"
        seat = to_act[0]
        member = table.member(game, seat)
        move = table.agent.choose(engine.variant_of(state), state, seat)
        result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
        assert result.ephemeral and (await table.game()).version > game.version, result.response.content
    raise AssertionError("the game did not end")


@pytest.mark.slow  # a four-player game played to its end
async def test_resigning_in_a_four_player_game_leaves_the_table_playing(simcord_env) -> None:
    table = Table.create(simcord_env, 4)
    alice, bob, carol, dave = table.players
    await table.open("azul")
    asked = await alice.slash(table.channel, "azul resign")
    assert asked.ephemeral and "You will rank last" in asked.response.content, asked.response.content
    assert (await table.game()).status == "active", "asking changes nothing"

    resigned = await table.confirmed(alice, "resign")
    assert "computer plays your seat" in resigned.response.content, resigned.response.content
    game = await table.game()
    seat = game.seat_of(alice.id)
    assert seat is not None and game.status == "active"
    assert seat in game.computer_seats() and seat in game.resigned_seats()
    posts = [m.content for m in table.channel.history() if "resigned from game" in m.content]
    assert posts and "**alice** resigned" in posts[-1] and "computer (hard)" in posts[-1], posts
    again = await alice.slash(table.channel, "azul resign")
    assert "You resigned from this game" in again.response.content, again.response.content
    back = await alice.slash(table.channel, "azul seat")
    assert "You resigned from this game" in back.response.content, "a resigned seat is not taken back"

    await play_people_to_the_end(table)
    game = await table.game()
    assert game.status == "over" and game.result is not None
    standings, scores = game.result["standings"], game.result["scores"]
    assert standings[-1] == [seat], "the resigning player ranks last"
    others = [s for group in standings[:-1] for s in group]
    assert sorted(others) == sorted({0, 1, 2, 3} - {seat})
    assert [scores[s] for s in others] == sorted((scores[s] for s in others), reverse=True), "ranked by score"
    moves = await table.bot.service.store.moves.moves(game.id)
    assert any(mover == seat for mover, _ in moves[game.version // 2 :]), "the computer played the seat on"
    assert await table.bot.service.tables.replayed(game) == engine.from_json(game.state or {})
    final = table.channel.last_message.content
    last = next(line for line in final.splitlines() if line.startswith("4. "))
    assert "Game over" in final and last.startswith("4. **alice 🤖** — ") and "(resigned)" in last, final
    result = (await table.bot.service.store.results.results(channel_id=table.channel.id))[0][0]
    places = {row.user_id: (row.place, row.outcome) for row in result.seats}
    assert places[alice.id] == (4, "resigned") and {places[p.id][1] for p in (bob, carol, dave)} == {"played"}

    await bob.click(table.channel.last_message, label="Rematch")  # who resigned is neither seated nor invited
    lobby = table.channel.last_message
    assert sorted(simcord_env.backend.get_message(table.channel.id, lobby.id).ping_user_ids) == sorted(
        [carol.id, dave.id]
    )
    assert [seat.user_id for seat in (await table.game()).seats] == [bob.id]


async def test_the_last_person_to_resign_ends_the_game(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    alice, bob, carol = table.players
    await table.open("azul")
    await table.confirmed(carol, "resign")
    assert (await table.game()).status == "active"
    asked = await bob.slash(table.channel, "azul resign")
    assert "The game ends now" in asked.response.content, asked.response.content
    await table.confirmed(bob, "resign")
    game = await table.game()
    assert game.status == "over" and game.result is not None
    assert game.result["standings"] == [
        [game.seat_of(alice.id)],
        sorted([*game.resigned_seats(), game.seat_of(bob.id) or 0]),
    ]
    final = table.channel.last_message.content
    assert "bob resigned; the game ends." in final and final.count("(resigned)") == 2, final


async def test_a_question_expires_when_the_game_moves_and_is_only_for_its_asker(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await table.open("azul")
    asked = await alice.slash(table.channel, "azul resign")
    button = asked.response.components[0]["components"][0]
    assert button["label"] == "Yes, resign"
    # Someone else sends the id of Alice's button from another message (as a modified client could): refused.
    foreign = await forged_click(bob, table.channel.last_message, button["custom_id"])
    assert foreign.ephemeral and "don't recognise" in foreign.response.content, foreign.response.content
    assert (await table.game()).status == "active"
    # A move is made: the question was about a table that no longer exists.
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    late = await alice.click(asked.response, custom_id=button["custom_id"])
    assert "This question has expired" in late.response.content and "`/azul resign`" in late.response.content
    assert (await table.game()).status == "active"
    # Asked again, it works, and in a 2-player game it ends the game.
    ended = await table.confirmed(alice, "resign")
    assert ended.response.content.startswith("You resigned"), ended.response.content
    assert (await table.game()).status == "over"


@pytest.mark.parametrize(
    ("lang", "asked", "expired"),
    [
        ("en", "Cancel Azul #", "`/azul abort`"),
        ("pl", "Przerwać grę Azul #", "`/azul przerwij`"),
        ("uk", "Припинити гру Азул #", "`/azul припинити`"),
    ],
)
async def test_abort_asks_first_in_the_users_language(
    simcord_env, discord_locales, lang: str, asked: str, expired: str
) -> None:
    table = Table.create(simcord_env, 2)
    alice, _ = table.players
    discord_locales[alice.id] = lang
    await table.open("azul")
    question = await alice.slash(table.channel, "azul abort")
    assert question.response.content.startswith(asked), question.response.content
    assert (await table.game()).status == "active", "asking changes nothing"
    button = question.response.components[0]["components"][0]
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    late: Any = await alice.click(question.response, custom_id=button["custom_id"])
    assert expired in late.response.content, late.response.content
    assert (await table.game()).status == "active"
    # Under way now: cancelling takes both players (tests/bot/test_abort_votes.py).
    asked_again = await alice.slash(table.channel, "azul abort")
    assert asked_again.ephemeral and not asked_again.response.components
    vote = table.channel.last_message
    agree = next(b.custom_id for row in vote.components for b in row.children if ":agree:" in (b.custom_id or ""))
    await table.players[1].click(vote, custom_id=agree)
    assert (await table.game()).status == "aborted"


async def test_the_summary_tells_points_by_category_and_ratings_and_its_rematch_invites_the_players(
    simcord_env,
) -> None:
    table = Table.create(simcord_env, 3)
    alice, bob, carol = table.players
    await table.open("azul")
    await play_people_to_the_end(table)
    game, state = await table.state()
    final = table.channel.last_message
    lines = final.content.splitlines()
    assert any(line.startswith(f"Moves: {game.version} · length: ") for line in lines), final.content
    names = {seat: table.member(game, seat).user.name for seat in range(3)}
    for seat, score in enumerate(engine.scores(state)):
        line = next(i for i, line in enumerate(lines) if f"**{names[seat]}** — {score}" in line)
        parts = dict(part.rsplit(" ", 1) for part in lines[line + 1].removeprefix("-# ").split(" · "))
        assert list(parts) == ["wall", "floor", "rows", "columns", "colours"], lines[line + 1]
        assert sum(int(points.replace("−", "-")) for points in parts.values()) == score, (parts, score)
        assert int(parts["wall"]) > 0 and (parts["floor"] == "0" or parts["floor"].startswith("−"))
        # The rating change ends at the leaderboard's figure.
        board = await alice.slash(table.channel, "azul-stats leaderboard", game="azul")
        shown = next(row for row in board.response.content.splitlines() if f"**{names[seat]}**" in row)
        after = shown.split("— ", 1)[1].split(" ", 1)[0]
        assert f"rating 0.0 → {after}" in lines[line], (lines[line], shown)
    labels = [button.label for row in final.components for button in row.children]
    assert labels == ["Replay", "Animation", "Rematch"], labels
    replay = await bob.click(final, label="Replay")
    assert replay.ephemeral and replay.response.attachments, replay

    rematch = await carol.click(final, label="Rematch")
    assert rematch.ephemeral and "Start" in rematch.response.content, rematch.response.content
    lobby = table.channel.last_message
    assert lobby.components and "Rematch of game #" in lobby.content, lobby.content
    pinged = simcord_env.backend.get_message(table.channel.id, lobby.id).ping_user_ids
    assert sorted(pinged) == sorted([alice.id, bob.id]), "the others are invited once; carol asked for it"
    assert "Whoever wants to play again presses **Join**" in lobby.content, lobby.content
    again = await bob.click(final, label="Rematch")
    assert "already has an open game" in again.response.content, again.response.content
    new = await table.game()
    assert new.id != game.id and new.creator_id == carol.id and new.seat_order == "joined"
    assert [seat.user_id for seat in new.seats] == [carol.id], "nobody is seated unasked"
    for player in (bob, alice):
        joined = await player.click(lobby, label="Join")
        assert joined.ephemeral and "You joined" in joined.response.content, joined.response.content
    started = await carol.click(lobby, label="Start")
    assert started.ephemeral, started
    new = await table.game()
    assert new.status == "active" and [seat.user_id for seat in new.by_seat()] == [carol.id, bob.id, alice.id]


@pytest.mark.parametrize("variant", engine.variant_names())
@pytest.mark.parametrize("players", [2, 4])
def test_points_by_category_add_up_to_the_final_scores(variant: str, players: int) -> None:
    state = engine.new_game(variant, players, 11)
    start, events = engine.scores(state), list(engine.opening_events(state))
    agent = GreedyAgent(11)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, more = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))
        events.extend(more)
    final = engine.scores(state)
    parts = points_by_category(variant, events, start, final)
    assert list(parts) == list(adapter_of(variant).score_parts)
    assert [sum(points[seat] for points in parts.values()) for seat in range(players)] == final, parts
    main = {"azul": "wall", "summer-pavilion": "placed", "queens-garden": "rounds"}[engine.get_variant(variant).game]
    assert all(points > 0 for points in parts[main]), parts


def test_each_game_words_its_own_tie_break() -> None:
    """Azul ranks equal points by complete rows (the rulebook's tie-break); the others only share a place."""
    from engine.azul import complete_rows

    state = engine.new_game("azul", 2, 3)
    agent = GreedyAgent(3)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, agent.choose(engine.variant_of(state), state, seat))[0]
    rows = [complete_rows(board.wall) for board in state.boards]  # type: ignore[attr-defined]
    why = adapter_of("azul").tie_break(state, [0], [1], ["ala", "bob"], "en")
    assert why is not None and "**ala**" in why and "**bob**" in why
    assert f"({rows[0]} to {rows[1]})" in why
    assert "complete rows" in adapter_of("azul").shared_place("**ala**, **bob**", "en")
    for variant in ("summer-pavilion", "queens-garden"):
        other = engine.new_game(variant, 2, 3)
        assert adapter_of(variant).tie_break(other, [0], [1], ["ala", "bob"], "en") is None
        assert (
            adapter_of(variant).shared_place("**ala**, **bob**", "en")
            == "**ala**, **bob** share the place: equal points."
        )


LOG = "azul log"
NUDGE = "azul nudge"


def headline_of(post: Any) -> str:
    """The first line of a board post: what its move did."""
    return str(post.content.splitlines()[0])


async def test_the_log_tells_the_last_twenty_moves_in_words_to_spectators_too(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    sam = table.guild.add_member(simcord_env.create_user("sam"))
    await table.open("azul")
    empty = await sam.slash(table.channel, LOG)
    assert empty.ephemeral and "Nobody has moved in game #" in empty.response.content
    said = []
    for _ in range(24):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        said.append(headline_of(table.channel.last_message))
    log = await sam.slash(table.channel, LOG)
    assert log.ephemeral, log
    lines = log.response.content.splitlines()
    assert lines[0].endswith("the last 20 moves:"), lines[0]
    moves = [line for line in lines[1:] if not line.startswith("**Round")]
    assert moves == said[-len(moves) :] and len(moves) >= 12, "the newest moves, in their posts' words"
    assert any(line.startswith("**Round ") for line in lines[1:]), "round separators"
    assert len(log.response.content) <= 2000


async def test_a_turn_notice_tells_what_happened_since_the_players_last_move(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("azul")
    said = []
    for _ in range(3):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        said.append(headline_of(table.channel.last_message))
    post = table.channel.last_message.content
    # The third move's post pings the first mover: it tells the second move (its own headline tells the third).
    assert "Since your last turn:" in post and f"• {said[1]}" in post, post
    assert f"• {said[2]}" not in post and f"• {said[0]}" not in post, post

    # A player who takes notices by DM gets them all there, their own move excluded.
    game, state = await table.state()
    waiting = table.member(game, (min(engine.to_act(state)) + 2) % 3)  # the one who moves after the next player
    await waiting.slash(table.channel, "azul-me settings", notice="dm")
    for _ in range(2):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        said.append(headline_of(table.channel.last_message))
    dm = waiting.user.dm_channel.last_message
    assert dm is not None and "Since your last turn:" in dm.content, dm
    assert f"• {said[-1]}" in dm.content and f"• {said[-2]}" in dm.content, dm.content


async def test_nudge_once_per_twelve_hours_and_never_in_quiet_hours(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("azul")
    game, state = await table.state()
    awaited = table.member(game, min(engine.to_act(state)))
    others = [player for player in table.players if player.id != awaited.id]
    refused = await awaited.slash(table.channel, NUDGE)
    assert "it is your turn" in refused.response.content, refused.response.content
    stranger = table.guild.add_member(simcord_env.create_user("sam"))
    refused = await stranger.slash(table.channel, NUDGE)
    assert "Only players still seated" in refused.response.content

    nudged = await others[0].slash(table.channel, NUDGE)
    assert nudged.ephemeral and f"Nudged: **{awaited.user.name}**" in nudged.response.content, nudged.response.content
    post = table.channel.last_message
    assert post.content.startswith(f"👋 **{others[0].user.name}** is waiting for your move in Azul #{game.id}")
    assert simcord_env.backend.get_message(table.channel.id, post.id).ping_user_ids == [awaited.id]
    again = await others[0].slash(table.channel, NUDGE)
    assert "less than 12 hours ago" in again.response.content and "<t:" in again.response.content
    assert table.channel.last_message.id == post.id, "nothing was sent"

    # The awaited player has quiet hours now: the next nudge waits for their end.
    hour = clock.now().hour
    await awaited.slash(table.channel, "azul-me settings", quiet_from=hour, quiet_to=(hour + 2) % 24)
    resting = await others[1].slash(table.channel, NUDGE)
    assert "quiet hours" in resting.response.content and "<t:" in resting.response.content, resting.response.content
    clock.advance(hours=12, minutes=1)
    later = await others[0].slash(table.channel, NUDGE)
    assert later.response.content.startswith("Nudged:"), later.response.content


async def test_a_player_plays_a_whole_game_from_the_play_button_of_their_dm_notices(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await bob.slash(table.channel, "azul-me settings", notice="dm")
    await table.open("azul")
    seen: set[int] = set()
    old_dm, reply = None, None
    for _ in range(200):
        game, state = await table.state()
        if game.status != "active":
            break
        seat = min(engine.to_act(state))
        move = table.agent.choose(engine.variant_of(state), state, seat)
        if table.member(game, seat).id == alice.id:
            await table.play_by_slash(alice, move)
            continue
        last = await table.bot.service.store.moves.last_move(game.id)
        if last is not None and last.seat == seat:  # his turn goes on: the reply to his move offers the next step
            assert reply is not None and reply.response.components, "the next step is offered in the DM"
            reply = await table.finish_picker(bob.user, reply, move)
            continue
        dm = bob.user.dm_channel.last_message
        assert dm is not None and dm.id not in seen, "every turn of bob's has its own notice"
        seen.add(dm.id)
        assert dm.attachments and dm.attachments[0].filename.endswith("-mine.png"), "the close-up comes with it"
        picker = await bob.user.click(dm, label="Play")  # in the DM: as the user, not as a server member
        assert picker.ephemeral, picker.response.content
        reply = await table.finish_picker(bob.user, picker, move)
        assert (await table.game()).version == game.version + 1
        assert bob.id not in mentions(table.channel.last_message.content), "bob's move is posted in the channel"
        if old_dm is not None:  # a notice of an earlier turn no longer plays
            stale = await bob.user.click(old_dm, label="Play")
            said = stale.response.content
            assert stale.ephemeral and any(why in said for why in ("out of date", "already", "is over")), said
        old_dm = dm
    game = await table.game()
    assert game.status == "over" and len(seen) >= 5
    moves = await table.bot.service.store.moves.moves(game.id)
    assert sum(1 for seat, _ in moves if seat == game.seat_of(bob.id)) >= len(seen)


async def test_a_game_with_a_thread_posts_every_board_there_and_the_channel_keeps_only_its_lobby(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    channel = table.channel
    await alice.slash(channel, "azul new", variant="azul", seats=2, order="joined", thread=True)
    await bob.slash(channel, "azul join")
    lobby = channel.last_message
    started = await alice.click(lobby, label="Start")
    assert started.ephemeral, started
    (thread,) = channel.threads
    game = await table.bot.service.store.games.latest_game_in(thread.id)
    assert game is not None and game.channel_id == thread.id and game.lobby_channel_id == channel.id
    assert thread.name == f"Azul #{game.id} — alice, bob"
    history = [m for m in channel.history() if m.type is not discord.MessageType.thread_created]  # Discord's own
    assert [m.id for m in history] == [lobby.id], [(m.type, m.content) for m in history]
    assert f"🧵 The game is played in <#{thread.id}>." in history[0].content, history[0].content
    assert alice.id in mentions(thread.last_message.content), "the first board and its ping are in the thread"

    # Played in the thread; another game can open in the channel meanwhile.
    table.channel = thread
    for _ in range(3):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        assert "Your turn" in thread.last_message.content
    other = await bob.slash(channel, "azul new", variant="azul", seats=2)
    assert not other.ephemeral, "the channel is free for another game"
    assert next(m.id for m in channel.history()) == lobby.id

    # An archived thread is reopened before the next board.
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    assert not simcord_env.backend.get_channel(thread.id).thread_metadata.archived
    assert "Your turn" in thread.last_message.content


async def test_without_the_thread_permission_the_game_is_played_in_the_channel(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    shown = await mod.slash(table.channel, "azul-server settings", threads=True)
    assert "New games get a thread each." in shown.response.content, shown.response.content
    closed = table.guild.create_text_channel(
        "closed", overwrites={table.bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    table.channel = closed
    await table.open("azul")
    game = await table.game()
    assert game.thread and game.channel_id == closed.id and not closed.threads
    said = [m.content for m in closed.history()]
    assert any(f"so game #{game.id} is played right here" in line for line in said), said
    assert "Your turn" in closed.last_message.content


async def test_a_rematch_brings_computer_seats_back_at_their_levels(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=3, order="joined", undo=False)
    lobby = table.channel.last_message
    await bob.slash(table.channel, "azul join")
    await alice.slash(table.channel, "azul seat", level="easy")
    await alice.click(lobby, label="Start")
    await table.confirmed(bob, "resign")
    await table.confirmed(alice, "resign")  # only the computer is left: the game ends
    old = await table.game()
    assert old.status == "over"
    final = table.channel.last_message
    refused = await table.guild.add_member(simcord_env.create_user("sam")).click(final, label="Rematch")
    assert "Only the players of game" in refused.response.content, refused.response.content
    await bob.click(final, label="Rematch")
    new = await table.game()
    assert [(seat.user_id, seat.level) for seat in new.seats] == [(bob.id, None), (None, "easy")]
    assert (new.undo, new.max_seats, new.creator_id) == (False, 3, bob.id)
    lobby = table.channel.last_message  # alice resigned: she is neither seated nor invited
    assert simcord_env.backend.get_message(table.channel.id, lobby.id).ping_user_ids == [], lobby.content


async def test_a_thread_that_cannot_be_reopened_is_explained_in_its_channel(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    channel = table.guild.create_text_channel(
        "no-manage",
        overwrites={table.bot.user: discord.PermissionOverwrite(manage_channels=False, manage_threads=False)},
    )
    await alice.slash(channel, "azul new", variant="azul", seats=2, order="joined", thread=True)
    await bob.slash(channel, "azul join")
    await alice.click(channel.last_message, label="Start")
    (thread,) = channel.threads
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True, "locked": True})
    table.channel = thread
    member, _, move = await table.choose()
    played = await member.slash(thread, f"azul-move {move.command}", **dict(move.choices()))
    assert played.response.content.startswith("Played"), played.response.content
    assert "I could not post the board" in played.response.content, played.response.content
    told = channel.last_message.content
    assert "is archived or locked and I could not reopen it" in told and f"<#{thread.id}>" in told, told
