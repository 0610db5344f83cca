"""The grey wall's columns through the real bot: every full line chosen in one picker step, played together, one
post; the player who must choose is told in their reply and pinged only when someone else acted."""

from __future__ import annotations

from typing import Any

import engine
from bot.entry import run_ways
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
    assert "Play it?" in step.response.content and " → Column " in step.response.content
    played = await member.click(step.response, label="Play this move")
    assert played.response.content.startswith("Played:")
    after = await table.game()
    moves = (await table.bot.service.store.moves(after.id))[game.version :]
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
