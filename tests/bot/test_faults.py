"""Faults of issue 10 through the real bot in SimCord: truthful replies when a board cannot be posted, mentions
only of the seats a post names, forged component ids, commands that need a server, and racing moves."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest
import simcord.actors
from simcord.backend.errors import SetupError

import engine
from bot.app.errors import Refusal
from tests.bot.table import Table, mentions


async def saved_but_not_posted(table: Table, member: Any, move: engine.Move) -> str:
    version = (await table.game()).version
    result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    assert result.ephemeral, result
    assert (await table.game()).version == version + 1, "the move stands"
    content: str = result.response.content
    assert content.startswith("Played") and "Nothing was changed" not in content, content
    return content


@pytest.mark.parametrize(
    ("status", "code", "why"),
    [
        (403, 50013, "permissions"),
        (404, 10003, "no longer exists"),
        (503, 0, "an error on Discord's side"),
        (400, 50035, "an error on Discord's side"),
    ],
)
async def test_a_saved_move_whose_board_fails_says_so_and_why(simcord_env, status, code, why) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    simcord_env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=status, code=code, times=None)
    member, _, move = await table.choose()
    said = await saved_but_not_posted(table, member, move)
    assert why in said, said
    game = await table.game()
    assert game.board_version == 0 < game.version, "the store knows this version has no board yet"


async def test_a_failing_message_id_write_says_the_move_stands(simcord_env, monkeypatch) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    store = table.bot.service.store

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store.games, "set_board", broken)
    member, _, move = await table.choose()
    said = await saved_but_not_posted(table, member, move)
    assert "board is posted" in said and "database" in said, said
    assert mentions(table.channel.last_message.content), "the board went out"


async def test_a_board_retried_after_a_discord_error_goes_out_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    before = len(table.channel.history())
    simcord_env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=503, times=1)
    member, _, move = await table.choose()
    result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    assert result.response.content.startswith("Played") and "⚠️" not in result.response.content
    assert len(table.channel.history()) == before + 1
    game = await table.game()
    assert game.board_version == game.version == 1


async def test_a_nickname_that_looks_like_a_mention_pings_nobody(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("azul")
    bystander = guild.add_member(simcord_env.create_user("bystander"))
    forged = f"<@{bystander.id}> @everyone **bold**"
    alice = guild.add_member(simcord_env.create_user("alice"), nick=forged)
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = Table(simcord_env, guild, channel, [alice, bob])
    await table.open("azul")
    seen = []
    for _ in range(4):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        post = table.channel.last_message
        seen.append(post.content)
        game, state = await table.state()
        waiting = {game.by_seat()[seat].user_id for seat in engine.to_act(state)}
        assert {user.id for user in post.mentions} <= waiting, post.content
        assert bystander.id not in mentions(post.content) and not post.mention_everyone, post.content
    assert any("\\*\\*bold" in content for content in seen), seen  # the name is shown, escaped


async def forged_click(member: Any, message: Any, custom_id: str, values: list[str] | None = None) -> Any:
    """A component interaction with any custom id, as a modified client could send it."""
    stored = simcord.actors._visible_message(member, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return await simcord.actors._component_interaction(member, stored, data)


async def test_forged_and_unknown_component_ids_get_a_polite_answer(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game = await table.game()
    member, _, move = await table.choose()
    board = table.channel.last_message
    picker = (await member.click(board, label="Play")).response
    picker_id = picker.components[0]["components"][0]["custom_id"].split(":")[2]
    forged = [
        ("azul:play:-1:0", None),
        (f"azul:play:{game.id}:-0", None),
        ("azul:play:" + "1" * 20 + ":0", None),  # over 19 digits
        ("azul:play:9999999999999999999:0", None),  # 19 digits, past 2**63 - 1
        (f"azul:play:{game.id}:\u0660", None),  # an Arabic-Indic zero
        ("azul:play:\uff11:0", None),  # a full-width one
        (f"azul:lobby:{game.id}:explode", None),
        ("azul:resign:1", None),
        ("", None),
        (f"azul:pick:{picker_id}:source:0", []),  # a picker select with no value
        (f"azul:pick:{picker_id}:source:0", ["1", "2"]),
    ]
    for custom_id, values in forged:
        result = await forged_click(member, board, custom_id, values)
        assert result.ephemeral, custom_id
        assert "don't recognise" in result.response.content, (custom_id, result.response.content)
    assert (await table.game()).version == game.version, "nothing changed"
    # The real controls still work.
    await table.finish_picker(member, (await member.click(board, label="Play")), move)
    assert (await table.game()).version == game.version + 1


async def test_forged_ids_are_answered_in_the_users_language(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice = table.players[0]
    discord_locales[alice.id] = "uk"
    result = await forged_click(alice, table.channel.last_message, "azul:play:-5:1")
    assert "не розпізнаю" in result.response.content


async def test_a_direct_message_offers_only_the_commands_that_work_there(simcord_env) -> None:
    """Discord shows a command only where its ``contexts`` allow: in a DM, no table, move or server command."""
    user = simcord_env.create_user("loner")
    offered = user.available_commands()
    assert {"azul-me games", "azul-me settings", "azul-help", "azul-rules", "azul-stats leaderboard"} <= set(offered)
    assert not [command for command in offered if command.split()[0] in {"azul", "azul-move", "azul-server"}], offered
    with pytest.raises(SetupError, match="not visible"):
        await user.slash("azul new", variant="azul", seats=2)
    assert await simcord_env.bot.service.store.games.latest_game_in(user.dm_channel.id) is None, "no lobby was opened"
    assert "/azul" in ((await user.slash("azul-help")).response.embeds[0].description or ""), "help works in a DM"


async def simultaneous_phase(table: Table) -> tuple[Any, engine.GameState]:
    """Play greedy moves in a grey-wall game until several players may act at once (wall tiling)."""
    await table.open("azul-grey")
    for _ in range(200):
        game, state = await table.state()
        if len(engine.to_act(state)) > 1:
            return game, state
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    raise AssertionError("no simultaneous phase was reached")


async def test_simultaneous_moves_by_different_players_both_land(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    game, state = await simultaneous_phase(table)
    service = table.bot.service
    seats = sorted(engine.to_act(state))
    chosen = {seat: table.agent.choose(engine.variant_of(state), state, seat) for seat in seats}

    async def attempt(seat: int, interaction_id: int) -> object:
        move = chosen[seat]
        try:
            return await service.turns.move(
                table.channel.id,
                table.member(game, seat).id,
                move.command,
                dict(move.choices()),
                interaction_id=interaction_id,
                version=game.version,
            )
        except Exception as error:
            return error

    outcomes = await asyncio.gather(*(attempt(seat, 9000 + seat) for seat in seats))
    assert all(not isinstance(outcome, Exception) for outcome in outcomes), outcomes
    after = await table.game()
    assert after.version == game.version + len(seats)
    logged = await service.store.moves.moves(game.id)
    assert sorted(seat for seat, _ in logged[game.version :]) == seats
    assert await service.tables.replayed(after) == engine.from_json(after.state or {}), "snapshot equals replay"


async def test_a_picker_finished_after_another_players_simultaneous_move_still_lands(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    game, state = await simultaneous_phase(table)
    board = table.channel.last_message
    first, second = sorted(engine.to_act(state))
    pickers = {}
    for seat in (first, second):
        member = table.member(game, seat)
        pickers[seat] = (member, await member.click(board, label="Play"))
    for seat in (first, second):
        member, opened = pickers[seat]
        move = table.agent.choose(engine.variant_of(state), state, seat)
        result = await table.finish_picker(member, opened, move)
        assert "Played" in result.response.content, result.response.content
    logged = (await table.bot.service.store.moves.moves(game.id))[game.version :]
    assert {seat for seat, _ in logged} == {first, second}, "both players' columns landed, each run whole"
    assert (await table.game()).version == game.version + len(logged)


async def test_a_double_click_is_told_already_played(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    service = table.bot.service
    game = await table.game()

    async def attempt(interaction_id: int) -> object:
        try:
            return await service.turns.move(
                table.channel.id,
                member.id,
                move.command,
                dict(move.choices()),
                interaction_id=interaction_id,
                version=game.version,
            )
        except Exception as error:
            return error

    outcomes = await asyncio.gather(attempt(7001), attempt(7002))
    refusals = [outcome.key for outcome in outcomes if isinstance(outcome, Refusal)]
    assert refusals == ["already_played"], outcomes
    assert (await table.game()).version == 1
    # And through Discord: a second Play on the same board after the move landed.
    board = table.channel.last_message
    result = await member.click(board, label="Play")
    assert result.ephemeral and "already played" in result.response.content, result.response.content


async def test_after_a_crash_between_saving_and_posting_the_board_is_posted_once(simcord_env, make_bot) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    old_board = table.channel.last_message
    # The process saves the next move and dies before posting its board.
    member, _, move = await table.choose()
    turn = await table.bot.service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()))
    assert (await table.game()).board_version == turn.game.version - 1
    posts_before = len(table.channel.history())

    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()  # the start-up sweep has run
    assert table.bot.boards_loop.passes == 1
    game = await table.game()
    assert game.board_version == game.version == 2, "the newest version has its board"
    history = table.channel.history()
    assert len(history) == posts_before + 1, "posted once"
    board = table.channel.last_message
    waiting = [table.member(game, seat).id for seat in turn.to_ping()]
    assert mentions(board.content) == waiting and board.attachments and board.components
    assert not next(m for m in history if m.id == old_board.id).components, "the older board lost its Play button"
    assert "took" in board.content, "it says what the last move did"
    # A second restart posts nothing more, and the new board's Play button works.
    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()
    assert table.bot.boards_loop.passes == 1, "its start-up sweep has run"
    assert len(table.channel.history()) == posts_before + 1
    member, _, move = await table.choose()
    await table.play_by_buttons(member, move)
    assert (await table.game()).version == 3


async def test_a_game_started_but_never_posted_gets_its_first_board(simcord_env, make_bot) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    await bob.slash(table.channel, "azul join")
    await table.bot.service.seating.start(table.channel.id, alice.id, is_admin=False)  # and the process dies
    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()  # the start-up sweep has run
    board = table.channel.last_message
    assert "The game begins" in board.content and board.components
    game, state = await table.state()
    assert mentions(board.content) == [table.member(game, seat).id for seat in sorted(engine.to_act(state))]
