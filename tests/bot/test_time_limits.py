"""Time limits per move through the real bot: the limit in the lobby, ``status`` and on the board; warnings at half
time and an hour before; at the deadline the strongest computer plays the move, or the player is dropped; three
timeouts in a row hand the seat to the computer until ``/azul seat`` gives it back; each waiting player's own clock
in a simultaneous phase; clocks that stand still while a player is away; a deadline that passes while the bot is
down; a server's defaults; and a game in which one player never moves that still reaches its end."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord
import pytest

import engine
from bot.app.results import standings_result
from bot.infra.clock import ManualClock
from tests.bot.table import Table, mentions
from tests.bot.test_computer import play

pytestmark = pytest.mark.simcord(settle_timeout=120)

LIMIT = 12  # hours


async def open_limited(table: Table, variant: str = "azul", **options: Any) -> Any:
    """Alice opens a game with a time limit (12 h unless ``options`` say otherwise), the others join, it starts.
    Returns the lobby message."""
    creator, *others = table.players
    chosen = {"time_limit": str(LIMIT), **options}
    opened = await creator.slash(
        table.channel, "azul new", variant=variant, seats=len(table.players), order="joined", **chosen
    )
    assert not opened.ephemeral, opened
    lobby = table.channel.last_message
    for player in others:
        await player.slash(table.channel, "azul join")
    game = await table.game()
    # by its id: the label is in the server's language
    started = await creator.click(lobby, custom_id=f"azul:lobby:{game.id}:start")
    assert started.ephemeral, started
    return lobby


async def computer_done(table: Table) -> None:
    """Wait for the computer's turns now due and their boards: those a timer woke run outside any interaction,
    where SimCord's settle does not wait for them, and a move is saved before its board is posted."""
    game = await table.game()
    service = table.bot.service
    for _ in range(1200):
        if game.id not in await service.store.games.without_board() and not await service.turns.computer_to_act(
            game.id
        ):
            break
        await asyncio.sleep(0.05)
    await table.env.settle()


async def waiting(table: Table) -> tuple[Any, int]:
    """The member who must act first now (once the computer's turns are played), and their seat."""
    await computer_done(table)
    game, state = await table.state()
    seat = min(engine.to_act(state) - set(game.computer_seats()))
    return table.member(game, seat), seat


async def run(table: Table, clock: ManualClock, **forward: float) -> int:
    """Move the clock, run what is due (as the bot's timer loop does), and let the computer's turns it woke end."""
    clock.advance(**forward)
    fired = await table.bot.run_due()
    await table.env.settle()
    await computer_done(table)
    return fired


def spy_pictures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import bot.infra.picture_worker

    drawn: list[Any] = []
    original = bot.infra.picture_worker.render_png

    def spy(state: Any, names: Any, events: Any, locale: str, info: Any = (), caption: str = "") -> bytes:  # noqa: PLR0917
        drawn.append(list(info))
        return original(state, names, events, locale, info, caption)

    monkeypatch.setattr(bot.infra.picture_worker, "render_png", spy)
    whole = bot.infra.picture_worker.render_whole

    def whole_spy(state: Any, names: Any, locale: str, info: Any = ()) -> bytes:
        drawn.append(list(info))  # `/azul board` shows the whole table
        return whole(state, names, locale, info)

    monkeypatch.setattr(bot.infra.picture_worker, "render_whole", whole_spy)
    return drawn


async def test_the_limit_shows_in_the_lobby_in_status_and_on_the_board(
    simcord_env, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = spy_pictures(monkeypatch)
    table = Table.create(simcord_env, 2)
    creator = table.players[0]
    await creator.slash(table.channel, "azul new", variant="azul", seats=2, time_limit="24", on_timeout="drop")
    lobby = table.channel.last_message
    assert "Time limit: 24 h per move; when it runs out, the player is dropped" in lobby.content
    await table.players[1].slash(table.channel, "azul join")
    await creator.click(lobby, label="Start")
    member, seat = await waiting(table)
    assert [note.clock if note else None for note in drawn[-1]] == [
        "24 h left" if number == seat else None for number in range(2)
    ], "the opening board shows the clock of whoever must act"

    clock.advance(hours=23, minutes=20)
    status = await table.players[1].slash(table.channel, "azul status")
    assert "⏳ Time limit: 24 h per move" in status.response.content
    assert f"⏳ **{member.user.name}** must move by <t:" in status.response.content
    mine = await member.slash(table.channel, "azul-me games")
    assert "**your turn** (started <t:" in mine.response.content and "· ⏳ time runs out <t:" in mine.response.content
    await table.players[1].slash(table.channel, "azul board")
    note = drawn[-1][seat]
    assert note.clock == "40 min left" and note.urgent, "the last hour is red"
    assert note.clock_short == "40 min", "and the short form for a crowded header"


async def test_warnings_at_half_time_and_an_hour_before_then_the_computer_plays_the_move(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    late, seat = await waiting(table)
    other = next(player for player in table.players if player.id != late.id)
    board = table.channel.last_message

    assert await run(table, clock, hours=5) == 0
    assert await run(table, clock, hours=1, minutes=1) == 1, "half time"
    warning = table.channel.last_message
    assert mentions(warning.content) == [late.id] and "Time runs out <t:" in warning.content
    assert "the computer plays the move for you" in warning.content
    assert await run(table, clock, hours=4) == 0, "once each"
    assert await run(table, clock, hours=1) == 1, "an hour before"
    assert table.channel.last_message.id != warning.id and mentions(table.channel.last_message.content) == [late.id]
    assert (await table.game()).version == 0

    assert await run(table, clock, hours=1) == 1, "the deadline"
    game = await table.game()
    assert game.version == 1 and (await table.bot.service.store.moves.moves(game.id))[0][0] == seat
    post = table.channel.last_message
    assert post.id != board.id and post.attachments, "a board with the computer's move"
    assert f"⏰ **{late.user.name}** did not move within 12 h, so the computer (hard) made this move." in post.content
    assert mentions(post.content) == [other.id], "the next player is pinged, nobody else"
    assert game.by_seat()[seat].timeouts == 1 and not game.by_seat()[seat].computer_plays
    assert await run(table, clock, minutes=30) == 0, "the deadline ran once"


async def test_three_timeouts_in_a_row_hand_the_seat_to_the_computer_until_taken_back(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    alice, bob = table.players

    async def until_bob_waits() -> int:
        for _ in range(10):
            member, seat = await waiting(table)
            if member.id == bob.id:
                return seat
            _, state = await table.state()
            await play(table, member, table.agent.choose(engine.variant_of(state), state, seat))
        raise AssertionError("Bob never had to move")

    seat = await until_bob_waits()
    assert await run(table, clock, hours=LIMIT, minutes=1) == 1
    await until_bob_waits()
    game, state = await table.state()
    await play(table, bob, table.agent.choose(engine.variant_of(state), state, seat))
    assert (await table.game()).by_seat()[seat].timeouts == 0, "his own move starts the count over"

    for count in (1, 2, 3):
        await until_bob_waits()
        assert await run(table, clock, hours=LIMIT, minutes=1) == 1
        assert (await table.game()).by_seat()[seat].timeouts == count
        if count == 2:
            assert "one more timeout in a row and the computer takes over" in table.channel.last_message.content
    game = await table.game()
    assert game.by_seat()[seat].computer_plays and seat in game.computer_seats()
    posts = [message.content for message in table.channel.history()[-3:]]
    assert any("time ran out 3 times in a row: the computer plays this seat from now on" in p for p in posts)
    assert not [
        t for t in await table.bot.service.store.timers.timers_of(game.id) if t.state == "pending" and t.seat == seat
    ]

    # The computer answers for Bob after Alice's moves; no clock runs for his seat.
    for _ in range(2):
        member, alice_seat = await waiting(table)
        assert member.id == alice.id, "the computer never leaves Bob's seat waiting"
        game, state = await table.state()
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, alice_seat))
    await computer_done(table)  # its answer to Alice is posted before Bob takes the seat back

    refused = await alice.slash(table.channel, "azul seat")
    assert refused.ephemeral and "it is yours already" in refused.response.content
    back = await bob.slash(table.channel, "azul seat")
    assert back.ephemeral and back.response.content.startswith("Your seat is yours again")
    assert f"🙋 **{bob.user.name}** takes the seat back" in table.channel.last_message.content
    game = await table.game()
    assert not game.by_seat()[seat].computer_plays and game.by_seat()[seat].timeouts == 0
    again = await bob.slash(table.channel, "azul seat")
    assert "it is yours already" in again.response.content
    await until_bob_waits()
    assert [t.seat for t in await table.bot.service.store.timers.timers_of(game.id) if t.state == "pending"] == [
        seat
    ] * 3


async def test_a_dropped_player_is_out_for_good_and_ranked_last(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 3)
    await open_limited(table, on_timeout="drop")
    late, seat = await waiting(table)
    assert await run(table, clock, hours=LIMIT, minutes=1) == 1
    game = await table.game()
    assert game.by_seat()[seat].dropped and game.by_seat()[seat].computer_plays
    post = table.channel.last_message.content
    assert f"**{late.user.name}** did not move within 12 h and is out of the game (ranked last)" in post
    for command in ("azul seat", "azul resign"):
        refused = await late.slash(table.channel, command)
        assert refused.ephemeral and "You are out of this game" in refused.response.content, command
    assert (await table.game()).status == "active"

    result = standings_result(engine.from_json(game.state or {}), dropped=[seat])
    assert result["standings"][-1] == [seat] and result["outcomes"][seat] == "dropped"


@pytest.mark.slow  # a game played into a simultaneous phase
async def test_each_waiting_player_has_their_own_clock_in_a_simultaneous_phase(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 3, preferred_locale="pl")
    await open_limited(table, variant="azul-grey")
    game, state = await table.state()
    while len(engine.to_act(state)) < 2:  # the drafting, until the grey-wall tiling where all act at once
        member, seat, move = await table.choose()
        await table.play_by_slash(member, move)
        game, state = await table.state()
    clock.advance(hours=LIMIT - 1)
    waiting_seats = sorted(engine.to_act(state))
    member, mover, move = await table.choose()
    await table.play_by_slash(member, move)  # one of them tiles in time; their next clock starts now
    game, state = await table.state()
    others = [seat for seat in waiting_seats if seat != mover]

    versions = game.version
    assert await run(table, clock, hours=1, minutes=1) == 1
    game, state = await table.state()
    assert game.version == versions + len(others), "each late player's move is made, each on their own clock"
    logged = await table.bot.service.store.moves.moves(game.id)
    assert sorted(seat for seat, _ in logged[versions:]) == others
    posts = [message.content for message in table.channel.history()[-len(others) :]]
    for seat, post in zip(others, posts, strict=True):
        name = table.member(game, seat).user.name
        assert f"⏰ **{name}**: minął czas na ruch (12 h), więc ten ruch wykonał komputer" in post
    if mover in engine.to_act(state):  # still tiling: their fresh clock began at their move, 11 h in
        versions = game.version
        await run(table, clock, hours=LIMIT - 2)
        assert (await table.game()).version == versions, "the one who moved in time has a fresh clock"
        await run(table, clock, hours=1)
        assert (await table.game()).version == versions + 1


async def test_a_deadline_that_passes_while_the_bot_is_down_is_handled_once_at_start_up(
    simcord_env, clock: ManualClock, make_bot: Any
) -> None:
    table = Table.create(simcord_env, 2, preferred_locale="uk")
    await open_limited(table)
    late, seat = await waiting(table)
    board = table.channel.last_message
    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()
    assert table.channel.last_message.id == board.id

    clock.advance(hours=LIMIT + 5)  # the deadline passes while the bot is down
    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()
    game = await table.game()
    assert game.version == 1 and (await table.bot.service.store.moves.moves(game.id)) == [
        (seat, (await table.bot.service.store.moves.moves(game.id))[0][1])
    ]
    posts = [message.content for message in table.channel.history() if message.id > board.id]
    assert len(posts) == 1, "no stale warnings: only the timeout's board"
    assert f"⏰ **{late.user.name}**: час на хід (12 год) вичерпано, тож цей хід зробив комп'ютер" in posts[0]
    assert await table.bot.run_due() == 0 and (await table.game()).version == 1, "handled once"


async def test_a_deadline_claimed_by_a_runner_that_died_runs_again_when_its_lease_ends(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    clock.advance(hours=LIMIT, minutes=1)
    claimed = await table.bot.service.timers.run_due()  # claims the deadline, then "dies" before the move
    assert [due.kind for due in claimed] == ["deadline"]
    assert await run(table, clock, minutes=5) == 0 and (await table.game()).version == 0, "the lease holds"
    assert await run(table, clock, minutes=6) == 1, "the lease ended: the deadline runs again"
    assert (await table.game()).version == 1
    assert await run(table, clock, minutes=30) == 0 and (await table.game()).version == 1, "once"


async def test_an_away_player_never_times_out_and_coming_back_restarts_the_clock(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    late, _ = await waiting(table)
    clock.advance(hours=2)
    await late.slash(table.channel, "azul-me away", days=2)  # 10 h of the clock left, standing still for 48 h
    assert await run(table, clock, hours=38) == 0, "away: no warning, no timeout"
    assert (await table.game()).version == 0
    await late.slash(table.channel, "azul-me back")  # back 38 h into the 48: the clock runs on with its 10 h left
    assert await run(table, clock, hours=3, minutes=59) == 0
    assert await run(table, clock, minutes=2) == 1, "half time: 4 h after coming back"
    assert await run(table, clock, hours=5) == 1, "an hour before"
    assert await run(table, clock, minutes=58) == 0 and (await table.game()).version == 0
    assert await run(table, clock, minutes=2) == 1
    assert (await table.game()).version == 1, "the deadline came 10 h after coming back"


async def test_a_players_clock_starts_after_their_vacation(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    away = table.players[1]
    await away.slash(table.channel, "azul-me away", days=1)
    await open_limited(table)
    game, state = await table.state()
    if game.seat_of(away.id) not in engine.to_act(state):  # Bob waits once Alice has moved
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    game = await table.game()
    (deadline,) = [
        t
        for t in await table.bot.service.store.timers.timers_of(game.id)
        if t.state == "pending" and t.kind == "deadline"
    ]
    assert deadline.seat == game.seat_of(away.id)
    assert deadline.due_at == (clock.now() + timedelta(hours=24 + LIMIT)).isoformat(timespec="seconds")
    status = await table.players[0].slash(table.channel, "azul status")
    assert "is away until" in status.response.content and "must move by" in status.response.content


async def test_a_server_default_for_new_games(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    assert "azul new" in bob.available_commands(table.channel)
    assert "azul-server settings" not in bob.available_commands(table.channel), "Discord shows it to managers only"
    managers = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(simcord_env.create_user("mod"), roles=[managers])
    shown = await mod.slash(table.channel, "azul-server settings")
    assert "No time limit per move." in shown.response.content
    saved = await mod.slash(table.channel, "azul-server settings", time_limit="48", on_timeout="drop")
    assert saved.ephemeral and "Time limit: 48 h per move; when it runs out, the player is dropped" in (
        saved.response.content
    )
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    game = await table.game()
    assert (game.time_limit_hours, game.on_timeout) == (48, "drop")
    assert "Time limit: 48 h per move" in table.channel.last_message.content
    await table.confirmed(alice, "abort")
    await alice.slash(table.channel, "azul new", variant="azul", seats=2, time_limit="0")
    game = await table.game()
    assert (game.time_limit_hours, game.on_timeout) == (0, "drop")
    assert "No time limit per move." in table.channel.last_message.content


async def play_out(table: Table, clock: ManualClock, absent: Any) -> int:
    """The others play greedily whenever they must; ``absent`` never moves (the clock runs out instead). Returns
    how many times the deadline ran for them."""
    timeouts = 0
    for _ in range(600):
        game, state = await table.state()
        if game.status != "active":
            return timeouts
        member, seat = await waiting(table)
        if member.id == absent.id:
            assert await run(table, clock, hours=LIMIT, minutes=1) == 1
            timeouts += 1
            continue
        await play(table, member, table.agent.choose(engine.variant_of(state), state, seat))
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_a_game_in_which_one_player_never_moves_reaches_its_final_standings(
    simcord_env, clock: ManualClock
) -> None:
    """Done when: Carol never moves; only Alice's and Bob's moves are sent, and the clock moves forward."""
    table = Table.create(simcord_env, 3)
    await open_limited(table)
    carol = table.players[2]
    timeouts = await play_out(table, clock, carol)
    game = await table.game()
    assert game.status == "over", "the game reached its end"
    carol_seat = game.seat_of(carol.id)
    assert carol_seat is not None
    assert timeouts == 3 and game.by_seat()[carol_seat].computer_plays, "three timeouts, then the computer kept it"
    final = table.channel.last_message.content
    assert "Game over" in final and final.count("\n") >= 3, "the final standings are posted"
    result = game.result or {}
    assert len(result.get("scores", [])) == 3
    # Leaving never pays: whatever the computer scored in her seat, carol ranks after both who stayed.
    assert result["standings"][-1] == [carol_seat] and result["outcomes"][carol_seat] == "timed_out"
    places = [line for line in final.splitlines() if line[:1].isdigit()]
    assert places[-1].startswith(f"3. **{carol.user.name}") and "(out of time)" in places[-1], final
    (row,), _ = await table.bot.service.store.results.results(channel_id=table.channel.id, limit=1)
    assert [(s.place, s.outcome) for s in row.seats if s.seat == carol_seat] == [(3, "timed_out")]


@pytest.mark.slow
async def test_a_dropped_player_finishes_last_whatever_the_score(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 3)
    await open_limited(table, on_timeout="drop")
    carol = table.players[2]
    assert await play_out(table, clock, carol) == 1, "dropped at the first timeout: the computer plays the rest"
    game = await table.game()
    seat = game.seat_of(carol.id)
    result = game.result or {}
    assert game.status == "over" and result["standings"][-1] == [seat]
    assert result["outcomes"][seat] == "dropped"
    final = table.channel.last_message.content
    assert "(left the game)" in final.splitlines()[-2] and carol.user.name in final.splitlines()[-2]
    (row,), _ = await table.bot.service.store.results.results(channel_id=table.channel.id, limit=1)
    assert [s.outcome for s in row.seats if s.seat == seat] == ["dropped"]


async def test_bad_limits_and_seat_without_a_level_in_a_lobby_are_refused(simcord_env) -> None:
    from bot.app.errors import Refusal
    from data.i18n import t

    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    service = table.bot.service
    for hours, action, key in ((5, "computer", "bad_time_limit"), (12, "vanish", "bad_on_timeout")):
        with pytest.raises(Refusal) as refused:
            await service.seating.create(
                guild_id=table.guild.id,
                channel_id=table.channel.id,
                user_id=alice.id,
                name="alice",
                variant="azul",
                seats=2,
                time_limit_hours=hours,
                on_timeout=action,
            )
        assert refused.value.key == key
        assert all(t(f"bot.refuse.{key}", lang) for lang in ("en", "pl", "uk"))
    with pytest.raises(Refusal):
        await service.settings.set_server_defaults(table.guild.id, 7, "computer")
    assert await service.store.servers.server_defaults(table.guild.id) == (0, "computer"), "nothing saved"
    assert await service.store.games.open_game_in(table.channel.id) is None, "no lobby opened"

    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    answer = await alice.slash(table.channel, "azul seat")
    assert answer.ephemeral and answer.response.content == "Choose a level: easy, medium or hard."
    assert len((await table.game()).seats) == 1


async def test_a_turn_that_comes_straight_back_after_a_timeout_pings_its_player(
    simcord_env, clock: ManualClock
) -> None:
    """On the grey wall a player with two full lines chooses two columns: when their time runs out, the computer
    chooses one, and the other is their turn again at once. They are pinged, as anyone whose turn starts."""
    table = Table.create(simcord_env, 2)
    await open_limited(table, variant="azul-grey")
    for _ in range(60):  # round 1, until someone must choose columns for two full lines or more
        game, state = await table.state()
        full = {
            seat: sum(1 for line in range(5) if board.line_count[line] == line + 1)
            for seat, board in enumerate(state.boards)
        }
        choosing = [seat for seat in sorted(engine.to_act(state)) if state.phase == "wall" and full[seat] >= 2]
        if choosing:
            break
        seat = min(engine.to_act(state))
        await play(table, table.member(game, seat), table.agent.choose(engine.variant_of(state), state, seat))
    else:
        pytest.skip("no seat had two full lines to tile in this deal")
    late_seat = choosing[0]
    late = table.member(game, late_seat)
    for _ in range(10):  # whoever else chooses columns now does so; only the late player still owes a move
        game, state = await table.state()
        others = sorted(engine.to_act(state) - {late_seat})
        if not others:
            break
        seat = others[0]
        await play(table, table.member(game, seat), table.agent.choose(engine.variant_of(state), state, seat))
    version = (await table.game()).version
    await run(table, clock, hours=LIMIT, minutes=1)
    game, state = await table.state()
    assert game.version == version + 1 and late_seat in engine.to_act(state), "one column played, one still owed"
    post = next(m for m in reversed(table.channel.history()) if "did not move within" in m.content)
    assert late.id in mentions(post.content), post.content


async def test_a_warning_claimed_by_a_runner_that_died_before_its_post_is_posted_later(
    simcord_env, clock: ManualClock
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    before = len(table.channel.history())
    clock.advance(hours=LIMIT / 2, minutes=1)
    claimed = await table.bot.service.timers.run_due()  # claims the half-time warning, then "dies" before posting
    assert [due.kind for due in claimed] == ["limit_half"]
    assert len(table.channel.history()) == before
    assert await run(table, clock, minutes=1) == 0, "the lease holds"
    assert await run(table, clock, minutes=5) == 1, "the lease ended: the warning runs again"
    assert len(table.channel.history()) == before + 1
    assert await run(table, clock, minutes=10) == 0 and len(table.channel.history()) == before + 1, "once"
