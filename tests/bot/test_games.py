"""Whole games through the real bot and discord.py against SimCord: slash commands, buttons, pings, final standings."""

from __future__ import annotations

import pytest

import engine
from tests.bot.table import Table, mentions

MAX_TURNS = 400


async def check_replay(table: Table) -> None:
    game, state = await table.state()
    replayed = await table.bot.service.tables.replayed(game)
    assert engine.to_json(replayed) == engine.to_json(state)
    assert game.version == len(await table.bot.service.store.moves.moves(game.id))


@pytest.mark.slow  # a whole game through the bot
async def test_two_player_game_from_new_to_final_standings(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    first_board = table.channel.last_message
    game, state = await table.state()
    assert first_board.attachments and first_board.attachments[0].filename.endswith(".png")
    assert mentions(first_board.content) == [table.member(game, min(engine.to_act(state))).id]

    turns = 0
    while (await table.game()).status == "active":
        member, _seat, move = await table.choose()
        before = table.channel.last_message.id
        if turns % 2:
            await table.play_by_buttons(member, move)
        else:
            await table.play_by_slash(member, move)
        post = table.channel.last_message
        assert post.id != before and post.attachments, "every turn posts one new board with its picture"
        game, state = await table.state()
        pinged = mentions(post.content)
        assert member.id not in pinged, "never ping the player who just moved"
        assert len(pinged) == len(set(pinged)), "at most one mention per player"
        if game.status == "active":
            expected = {table.member(game, s).id for s in engine.to_act(state)} - {member.id}
            assert set(pinged) == expected
            assert post.components, "the board carries the Play button"
        turns += 1
        assert turns < MAX_TURNS
    final = table.channel.last_message
    assert "Game over" in final.content
    names = [seat.name for seat in game.by_seat()]
    winner = names[game.result["standings"][0][0]] if game.result else ""
    assert f"1. **{winner}**" in final.content
    assert all(b.label != "Play" for row in final.components for b in row.children), "no Play button"
    await check_replay(table)


@pytest.mark.slow  # a whole game through the bot
async def test_three_player_grey_wall_game_to_its_end(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("azul-grey")
    turns = 0
    saw_wall_phase = saw_held = False
    waiting_at_post = engine.to_act((await table.state())[1])
    while (await table.game()).status == "active":
        _, before_state = await table.state()
        member, seat, move = await table.choose()
        posts = len(table.channel.history())
        if turns % 3 == 1:
            await table.play_by_buttons(member, move)
        else:
            await table.play_by_slash(member, move)
        post = table.channel.last_message
        game, state = await table.state()
        turns += 1
        assert turns < MAX_TURNS
        if len(table.channel.history()) == posts:
            # A wall line typed alone waits for the mover's other lines: one post per wall tiling.
            assert move.command == "wall" and seat in engine.to_act(state), post.content
            assert engine.to_act(state) - {seat} <= waiting_at_post, "nobody new must act"
            saw_held = True
            continue
        assert len(table.channel.history()) == posts + 1
        pinged = mentions(post.content)
        if before_state.phase == "wall" and state.phase != "wall":
            assert f"round {before_state.round} scored" in post.content, "scored once the last column is chosen"
        if game.status == "active":
            to_act = engine.to_act(state)
            if state.phase == "wall":
                saw_wall_phase = True
                assert "choose your columns" in post.content
            # everyone newly asked to act since the last post is pinged once; nobody already waiting is pinged again
            expected = {table.member(game, s).id for s in to_act - (waiting_at_post - {seat}) - {seat}}
            assert set(pinged) == expected
            assert len(pinged) == len(set(pinged))
            waiting_at_post = to_act
    assert saw_held, "a wall line typed alone held the board back"
    assert saw_wall_phase, "the grey wall asks players to choose columns"
    assert "Game over" in table.channel.last_message.content
    await check_replay(table)
