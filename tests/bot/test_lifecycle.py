"""Restarts, races, repeated interactions, DM opt-in, languages, resigning and the informational commands."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import engine
from bot.app.errors import Refusal
from tests.bot.table import Table, mentions


async def test_restart_in_the_middle_of_a_game(simcord_env, make_bot) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    for _ in range(3):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    before = await table.game()
    board = table.channel.last_message
    member, _, move = await table.choose()
    halfway = await table.picker_step(member, (await member.click(board, label="Play")).response, move)

    await simcord_env.restart_bot(make_bot())

    after = await table.game()
    assert (after.version, after.state) == (before.version, before.state)
    assert table.channel.last_message.id == board.id
    await table.finish_picker(member, halfway, move)  # the picker opened before the restart still works
    assert (await table.game()).version == before.version + 1
    member, _, move = await table.choose()
    await table.play_by_buttons(member, move)  # and so does the newest board's Play button
    assert (await table.game()).version == before.version + 2


@pytest.mark.parametrize("at_once", [True, False], ids=["at once", "one after the other"])
async def test_two_racing_moves_for_the_same_turn_apply_once(simcord_env, at_once: bool) -> None:
    """Two devices send a move from the same board at once: one lands and the other is told it already played,
    whether it read the game before the first was saved (and lost the race) or after (and found the seat moved)."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, seat, move = await table.choose()
    other_move = next(m for m in engine.legal_moves((await table.state())[1], seat) if m != move)
    service = table.bot.service
    channel = table.channel.id
    seen = (await table.game()).version

    async def attempt(chosen: engine.Move, interaction_id: int) -> object:
        try:
            return await service.turns.move(
                channel, member.id, "take", dict(chosen.choices()), interaction_id=interaction_id, version=seen
            )
        except Refusal as refusal:
            return refusal.key

    if at_once:
        outcomes = await asyncio.gather(attempt(move, 101), attempt(other_move, 102))
    else:
        outcomes = [await attempt(move, 101), await attempt(other_move, 102)]
    keys = [outcome for outcome in outcomes if isinstance(outcome, str)]
    assert keys == ["already_played"], outcomes
    game = await table.game()
    assert game.version == 1 and len(await service.store.moves.moves(game.id)) == 1


async def test_two_pickers_for_one_turn_play_once(simcord_env) -> None:
    """The same player opens the picker twice (two devices) and finishes both: the second is told it already played."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    board = table.channel.last_message
    first = await member.click(board, label="Play")
    second = await member.click(board, label="Play")
    await table.finish_picker(member, first, move)
    assert (await table.game()).version == 1
    stale = await table.picker_step(member, second.response, move)
    assert "already played" in stale.response.content
    assert stale.response.id == second.response.id and not stale.response.components, "the old picker is replaced"
    assert (await table.game()).version == 1


async def test_a_repeated_interaction_is_applied_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    service = table.bot.service
    member, _, move = await table.choose()
    await service.turns.move(table.channel.id, member.id, "take", dict(move.choices()), interaction_id=555)
    member, _, move = await table.choose()
    try:
        await service.turns.move(table.channel.id, member.id, "take", dict(move.choices()), interaction_id=555)
    except Refusal as refusal:
        assert refusal.key == "duplicate"
    else:
        raise AssertionError("the repeated interaction was applied twice")
    assert (await table.game()).version == 1


async def play_until_turn_of(table: Table, player) -> None:
    """Play moves until someone else's move makes it ``player``'s turn."""
    for _ in range(100):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
        game, state = await table.state()
        if member.id != player.id and game.seat_of(player.id) in engine.to_act(state):
            return
    raise AssertionError("it never became their turn")


async def test_dm_opt_in_and_closed_dms(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    waiting = table.member(game, 1 - min(engine.to_act(state)))
    discord_locales[waiting.id] = "uk"
    result = await waiting.slash(table.channel, "azul-me settings", notice="dm")
    assert result.ephemeral and "особисте повідомлення" in result.response.content

    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    post = table.channel.last_message
    assert waiting.id not in mentions(post.content), "an opted-in player is told by DM, not pinged"
    dm = waiting.user.dm_channel.last_message
    assert dm is not None and post.jump_url in dm.content
    assert dm.content.startswith("Твій хід"), "the DM speaks the language the player opted in with"

    # Their DMs close: the bot falls back to a channel ping and says so, once.
    simcord_env.inject_error(
        "POST", f"/channels/{waiting.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    for round_trip in range(2):
        await play_until_turn_of(table, waiting)
        notes = [m.content for m in table.channel.history()[-2:]]
        pinged = [c for c in notes if waiting.mention in c]
        assert len(pinged) == 1, notes
        said_so = "could not send you a direct message" in pinged[0]
        assert said_so == (round_trip == 0), notes
    simcord_env.errors.clear()


async def test_replies_follow_the_user_and_posts_follow_the_server(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2, preferred_locale="pl")
    bob = table.players[1]
    discord_locales[bob.id] = "uk"
    await table.open("azul")
    board = table.channel.last_message
    assert "Twoja tura" in board.content, board.content  # the server speaks Polish
    game, state = await table.state()
    waiting = table.member(game, 1 - min(engine.to_act(state)))
    result = await waiting.slash(table.channel, "azul-move take", source="1")
    expected = "Зараз не твій хід" if waiting.id == bob.id else "It is not your turn"
    assert expected in result.response.content
    rules = await bob.slash(table.channel, "azul-rules")
    assert "Азул" in rules.response.content or "Azul" in rules.response.content
    assert rules.ephemeral


async def test_resign_ends_the_game_with_the_resigner_last(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice = table.players[0]
    board = table.channel.last_message
    game, state = await table.state()
    seat = min(engine.to_act(state))
    to_act = table.member(game, seat)
    picker = await to_act.click(board, label="Play")
    result = await table.confirmed(alice, "resign")
    assert result.response.ephemeral
    game = await table.game()
    assert game.status == "over" and game.result is not None
    assert game.result["standings"][-1] == [game.seat_of(alice.id)]
    final = table.channel.last_message
    assert "alice resigned" in final.content and "Game over" in final.content
    assert [button.label for row in final.components for button in row.children] == ["Replay", "Animation", "Rematch"]
    assert not next(m for m in table.channel.history() if m.id == board.id).components, (
        "the board before the final one offers no Play button"
    )
    late = await table.picker_step(to_act, picker.response, table.agent.choose(engine.variant_of(state), state, seat))
    assert "This game is over" in late.response.content
    status = await table.players[1].slash(table.channel, "azul status")
    assert "Game over" in status.response.content and "1. bob" in status.response.content
    shown = await table.players[1].slash(table.channel, "azul board")
    assert shown.response.attachments


async def test_board_status_rules_help(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice = table.players[0]
    shown = await alice.slash(table.channel, "azul board")
    assert shown.ephemeral and shown.response.attachments
    status = await alice.slash(table.channel, "azul status")
    assert (
        status.ephemeral
        and "To move" in status.response.content
        and "Seat order (as joined)" in status.response.content
    )
    before = table.channel.last_message.id
    await alice.slash(table.channel, "azul board", public=True)
    assert table.channel.last_message.id != before and table.channel.last_message.components
    rules = await alice.slash(table.channel, "azul-rules", variant="azul-grey")
    assert "column" in rules.response.content
    helped = await alice.slash(table.channel, "azul-help")
    assert "/azul new" in (helped.response.embeds[0].description or "")


async def test_unexpected_errors_are_logged_never_shown(simcord_env, monkeypatch, caplog) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()

    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(table.bot.service.turns, "move", broken)
    result = await member.slash(table.channel, "azul-move take", **dict(move.choices()))
    assert result.ephemeral and "something went wrong" in result.response.content
    assert "database on fire" not in result.response.content
    game = await table.game()
    assert any(f"(game {game.id})" in record.getMessage() for record in caplog.records)
    assert any("database on fire" in str(error) for error in simcord_env.errors), "the error reached the one handler"


async def test_a_picture_that_fails_to_draw_does_not_stop_the_game(simcord_env, monkeypatch) -> None:
    import render

    table = Table.create(simcord_env, 2)
    await table.open("azul")

    def broken(*args, **kwargs):
        raise ValueError("no picture today")

    monkeypatch.setattr(render, "render_post_png", broken)
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    post = table.channel.last_message
    assert not post.attachments and post.components and mentions(post.content)


async def test_a_channel_where_the_bot_cannot_post(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    simcord_env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=403, code=50013)
    member, _, move = await table.choose()
    result = await member.slash(table.channel, "azul-move take", **dict(move.choices()))
    assert (
        result.ephemeral
        and "Played" in result.response.content
        and "could not post the board" in result.response.content
    )
    assert (await table.game()).version == 1


async def test_a_thread_holds_its_own_game(simcord_env) -> None:
    from simcord.builders import ChannelHandle

    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice, bob = table.players
    thread = simcord_env.backend.create_thread(table.channel.id, "second table", alice.id)
    await simcord_env.settle()
    in_thread = Table(simcord_env, table.guild, ChannelHandle(simcord_env, table.guild, thread), [bob, alice])
    await in_thread.open("azul-grey")
    first, second = await table.game(), await in_thread.game()
    assert first.id != second.id and first.status == second.status == "active"
    member, _, move = await in_thread.choose()
    await in_thread.play_by_buttons(member, move)
    assert (await in_thread.game()).version == 1 and (await table.game()).version == 0


async def exported_transcript(result: Any) -> dict[str, Any]:
    assert result.ephemeral, result
    attachment, listed = result.response.attachments  # the JSON transcript and the moves in the game's notation
    assert attachment.filename.endswith(".json") and listed.filename.endswith(".txt")
    document: dict[str, Any] = json.loads(await attachment.read())
    moves = [
        line.split(": ", 1)[1]
        for line in (await listed.read()).decode().splitlines()
        if line[:5].strip()[:-1].isdigit()
    ]
    assert moves == [entry["notation"] for entry in document["log"]]
    return document


async def test_export_attaches_the_transcript_of_the_logged_moves(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    watcher = table.guild.add_member(simcord_env.create_user("watcher"))  # not playing: may export all the same
    nothing = await watcher.slash(table.channel, "azul export")
    assert nothing.ephemeral and "no open game" in nothing.response.content
    await table.players[0].slash(table.channel, "azul new", variant="azul", seats=2)
    lobby = await watcher.slash(table.channel, "azul export")
    assert lobby.ephemeral and "not started" in lobby.response.content and not lobby.response.attachments
    await table.players[1].slash(table.channel, "azul join")
    await table.players[0].click(table.channel.last_message, label="Start")
    for _ in range(4):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    game = await table.game()
    logged = await table.bot.service.store.moves.moves(game.id)

    exported = await watcher.slash(table.channel, "azul export")
    assert "moves played: 4" in exported.response.content
    document = await exported_transcript(exported)
    assert [(m["seat"], m["notation"]) for r in document["rounds"] for m in r["moves"]] == logged
    assert len(logged) == document["moves"] == 4
    assert (document["variant"], document["players"]) == ("azul", 2) and "seed" not in document  # still hidden
    assert document["names"] == [seat.name for seat in game.by_seat()] and document["status"] == "active"
    assert not document["finished"] and document["resigned"] is None
    assert document["state"] == engine.public_json(engine.from_json(game.state or {}))  # the table as it is

    await table.confirmed(table.players[0], "resign")
    finished = await exported_transcript(await watcher.slash(table.channel, "azul export"))
    assert finished["status"] == "over" and finished["resigned"] == game.seat_of(table.players[0].id)
    assert finished["moves"] == 4
    assert engine.to_json(engine.replay("azul", 2, finished["seed"], logged)) == game.state  # enough to replay


async def test_only_the_newest_board_offers_a_play_button(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    first = table.channel.last_message
    assert first.components, "the board offers Play"
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    await simcord_env.settle()
    newest = table.channel.last_message
    assert newest.id != first.id and newest.components
    (old,) = [message for message in table.channel.history() if message.id == first.id]
    assert not old.components, "the previous board's Play button is gone"
    assert old.attachments, "its picture stays"
