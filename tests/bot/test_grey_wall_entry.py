"""The grey wall's columns through the real bot: every full line chosen in one picker step, played together, one
post; the player who must choose is told in their reply and pinged only when someone else acted."""

from __future__ import annotations

from typing import Any

import engine
from bot.app.move_entry import run_ways
from tests.bot.table import Table, mentions

MAX_TURNS = 300


def run_selects(response: Any) -> list[dict[str, Any]]:
    # Select menus only: the reply may also offer the Undo button on a row of its own.
    selects = [item for row in response.components for item in row["components"] if item["type"] == 3]
    assert selects and all(":run:" in select["custom_id"] for select in selects), response.content
    return selects


async def tile_by_picker(table: Table, member: Any, seat: int, step: Any) -> int:
    """Choose every column of ``seat``'s run in the step ``step`` shows, confirm, and check it was played at once
    in one post. Returns the number of selects the step first showed."""
    game, state = await table.state()
    ways = run_ways(state, seat, "wall")
    selects = run_selects(step.response)
    shown = len(selects)
    assert "Choose a column for each full line" in step.response.content
    for select in selects:
        line = select["options"][0]["value"][1]
        assert select["placeholder"].startswith(f"Line {line} (")
        for option in select["options"]:
            assert option["label"].startswith(f"Line {line} (") and " → Column " in option["label"]
    posts = len(table.channel.history())
    for _ in range(6):
        if step.response.components[0]["components"][0]["type"] != 3:  # a select; else the confirm button
            break
        open_select = next(s for s in run_selects(step.response) if not any(o.get("default") for o in s["options"]))
        step = await member.select(
            step.response, [open_select["options"][-1]["value"]], custom_id=open_select["custom_id"]
        )
        assert (await table.game()).version == game.version, "nothing is played before every line has its column"
    said = step.response.content
    assert said.startswith("Place the ") and " in column " in said and said.endswith("?"), said
    played = await member.click(step.response, label="Play this move")
    assert played.response.content.startswith("Played:")
    after = await table.game()
    moves = (await table.bot.service.store.moves.moves(after.id))[game.version :]
    run = tuple(str(move) for move in next(w for w in ways if tuple(map(str, w)) == tuple(n for _, n in moves)))
    assert [seat] * len(run) == [s for s, _ in moves] and after.version == game.version + len(run)
    assert len(table.channel.history()) == posts + 1, "one post for the whole wall tiling, not one per column"
    post = table.channel.last_message.content
    assert post.count("placed a") >= len(run), post
    return shown


async def test_grey_wall_columns_chosen_at_once_and_told_to_the_right_players(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul-grey")
    told, pinged, several = False, False, False
    for _ in range(MAX_TURNS):
        if told and pinged and several:
            return
        game, state = await table.state()
        assert game.status == "active", "the game ended before every case was seen"
        member, seat, move = await table.choose()
        result = await table.play_by_slash(member, move)
        game, state = await table.state()
        if state.phase != "wall":
            continue
        choosing = engine.to_act(state)
        post = table.channel.last_message.content
        assert set(mentions(post)) == {table.member(game, s).id for s in choosing - {seat}}
        assert "choose your columns" in post
        pinged = pinged or bool(choosing - {seat})
        for chooser in sorted(choosing):
            player = table.member(game, chooser)
            if chooser == seat:
                assert "It is your turn again:" in result.response.content, "the mover is told in their reply"
                step = result
                told = True
            else:
                step = await player.click(table.channel.last_message, label="Play")
            if chooser in engine.to_act((await table.state())[1]):
                several = await tile_by_picker(table, player, chooser, step) > 1 or several
    raise AssertionError("no wall tiling showed every case")


def next_round_starts(table: Table, state: Any) -> frozenset[int]:
    """Who must act once every wall is tiled (the marker decides it, not the columns chosen)."""
    while state.phase == "wall":
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, table.agent.choose(engine.variant_of(state), state, seat))
    return engine.to_act(state)


async def wall_with_lines(table: Table, lines: int) -> int:
    """Greedy moves by slash command until a wall tiling where a seat has ``lines`` full lines or more to choose
    columns for and someone else starts the next round; the others tile theirs first, by slash command too (one
    post each). Returns that seat."""
    for _ in range(MAX_TURNS):
        game, state = await table.state()
        assert game.status == "active", "the game ended before a wall with that many lines"
        if state.phase == "wall":
            starts = next_round_starts(table, state)
            fits = [
                seat
                for seat in sorted(engine.to_act(state))
                if min(len(way) for way in run_ways(state, seat, "wall")) >= lines and starts - {seat}
            ]
            if fits:
                for other in sorted(engine.to_act(state) - {fits[0]}):
                    posts = len(table.channel.history())
                    while other in engine.to_act(state):
                        move = table.agent.choose(engine.variant_of(state), state, other)
                        await table.play_by_slash(table.member(game, other), move)
                        game, state = await table.state()
                    assert len(table.channel.history()) == posts + 1, "one post per wall tiling"
                return fits[0]
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    raise AssertionError("no wall tiling with that many lines")


async def test_a_wall_typed_line_by_line_is_posted_once_across_a_restart(simcord_env, make_bot) -> None:
    """One ``/azul-move wall`` per line: nothing is posted until the last line, which posts once, telling every line
    and pinging whoever starts the next round, once; a restart in between neither posts nor loses the held board,
    and taking a held line back posts nothing."""
    table = Table.create(simcord_env, 3)
    await table.open("azul-grey")
    seat = await wall_with_lines(table, 3)
    game, state = await table.state()
    posted = table.channel.last_message
    waiting = engine.to_act(state)
    player = table.member(game, seat)
    posts = len(table.channel.history())
    lines, undone = 0, False
    while state.phase == "wall" and seat in engine.to_act(state):
        move = table.agent.choose(engine.variant_of(state), state, seat)
        result = await table.play_by_slash(player, move)
        lines += 1
        game, state = await table.state()
        held = state.phase == "wall" and seat in engine.to_act(state)
        if held:
            assert len(table.channel.history()) == posts, "no post while the mover has lines left"
            reply = result.response.content
            assert reply.startswith("Played:") and "placed a" in reply, reply
            assert "The channel sees your wall in one post" in reply and "It is your turn again:" in reply, reply
            assert run_selects(result.response), "the reply offers the remaining lines at once"
            assert game.board_version < game.version
        if lines == 1:  # the process stops mid-tiling: the start-up sweep leaves the held board alone
            await simcord_env.restart_bot(make_bot())
            await simcord_env.settle()
            assert await table.bot.post_missing_boards() == 0
            assert len(table.channel.history()) == posts
            again = await player.click(posted, label="Play")
            assert again.ephemeral and run_selects(again.response), "the newest board's Play still works"
        elif held and not undone:  # taking a held line back posts nothing either: no board ever showed it
            taken = await player.slash(table.channel, "azul undo")
            assert taken.ephemeral and "placed a" in taken.response.content, taken.response.content
            assert len(table.channel.history()) == posts
            assert await table.bot.post_missing_boards() == 0
            game, state = await table.state()
            lines, undone = lines - 1, True
    assert lines >= 3 and undone
    history = table.channel.history()
    assert len(history) == posts + 1, "one post for the whole wall tiling"
    post = table.channel.last_message
    assert post.content.count(game.by_seat()[seat].name + " placed a") >= lines, post.content
    to_act = engine.to_act(state) if game.status == "active" else frozenset()
    newly = to_act - waiting - {seat}
    assert newly, "someone else starts the next round"
    assert sorted(mentions(post.content)) == sorted(table.member(game, s).id for s in newly), post.content
    assert not next(m for m in history if m.id == posted.id).components, "the older board lost its Play button"
    assert game.board_version == game.version
