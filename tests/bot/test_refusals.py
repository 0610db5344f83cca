"""Every refusal is ephemeral, says why, and saves nothing; autocomplete offers only legal, labelled choices."""

from __future__ import annotations

import discord

import engine
from bot.games.azul import ADAPTER as AZUL
from tests.bot.table import Table


def refused(result, *words: str) -> str:
    """The ephemeral text of a refusal, checked to contain ``words``."""
    assert result.ephemeral, result
    content = result.response.content
    for word in words:
        assert word in content, content
    assert "Traceback" not in content
    return content


async def test_no_game_here(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    refused(await alice.slash(table.channel, "azul-move take", source="1"), "no open game")
    refused(await alice.slash(table.channel, "azul status"), "no open game")
    refused(await alice.slash(table.channel, "azul join"), "no open game")
    assert await alice.autocomplete(table.channel, "azul-move take", "source", "") == []


async def test_lobby_refusals(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    carol = table.guild.add_member(simcord_env.create_user("carol"))
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    lobby = table.channel.last_message
    refused(await alice.slash(table.channel, "azul new", variant="azul", seats=2), "already has an open game")
    refused(await alice.click(lobby, label="Join"), "already in this game")
    refused(await alice.click(lobby, label="Start"), "At least 2 players")
    await bob.click(lobby, label="Join")
    refused(await carol.slash(table.channel, "azul join"), "full")
    refused(await bob.click(lobby, label="Start"), "Only the player who opened the game")
    refused(await carol.slash(table.channel, "azul abort"), "Only the player who opened the game")
    refused(await carol.click(lobby, label="Leave"), "no seat to give up. If a seat is free, press **Join**")
    assert (await table.game()).status == "lobby"
    # The creator leaves and comes back: the lobby passed to bob, who may now start it.
    assert "left" in (await alice.click(lobby, label="Leave")).response.content
    assert (await table.game()).creator_id == bob.id
    await alice.click(lobby, label="Join")
    refused(await alice.click(lobby, label="Start"), "Only the player who opened the game")
    await bob.click(lobby, label="Start")
    assert (await table.game()).status == "active"
    refused(await carol.slash(table.channel, "azul join"), "already started")


async def test_the_last_player_leaving_closes_the_lobby(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    await alice.slash(table.channel, "azul leave")
    assert (await table.game()).status == "aborted"
    assert "cancelled" in table.channel.last_message.content


async def test_manage_server_may_start_and_abort(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    await bob.slash(table.channel, "azul join")
    result = await mod.slash(table.channel, "azul start")
    assert result.ephemeral and "started" in result.response.content
    board = table.channel.last_message
    result = await table.confirmed(mod, "abort")
    assert result.response.ephemeral and "cancelled" in table.channel.last_message.content
    assert (await table.game()).status == "aborted"
    refused(await alice.click(board, label="Play"), "was cancelled")


async def test_move_refusals_save_nothing(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    outsider = table.guild.add_member(simcord_env.create_user("zed"))
    game, state = await table.state()
    seat = min(engine.to_act(state))
    mover, waiting = table.member(game, seat), table.member(game, 1 - seat)
    board = table.channel.last_message

    refused(await waiting.slash(table.channel, "azul-move take", source="1", color="blue", line="1"), "not your turn")
    refused(
        await outsider.slash(table.channel, "azul-move take", source="1", color="blue", line="1"), "not in this game"
    )
    refused(await outsider.click(board, label="Play"), "not in this game")
    refused(await waiting.click(board, label="Play"), "not your turn")
    absent = next(c for i, c in enumerate(engine.azul.COLORS) if not state.factories[0][i])
    refused(
        await mover.slash(table.channel, "azul-move take", source="1", color=absent, line="1"),
        "not allowed",
        f"no {absent} tiles",
    )
    refused(await mover.slash(table.channel, "azul-move take", source="1", color="blue", line="9"), "not allowed")
    refused(await mover.slash(table.channel, "azul-move take", source="1"), "choose the colour")
    refused(await mover.slash(table.channel, "azul-move wall", line="1", column="1"), "not allowed")
    refused(await mover.slash(table.channel, "azul-move place", star="1"), "is not a move in Azul")
    discord_locales[mover.id] = "pl"  # named as a Polish Discord shows the command
    refused(await mover.slash(table.channel, "azul-move place", star="1"), "`/azul-ruch połóż` to nie ruch w grze Azul")
    after = await table.game()
    assert after.version == game.version == 0
    assert after.state == game.state
    assert table.channel.last_message.id == board.id, "a refusal posts nothing in the channel"


async def test_stale_picker_after_the_game_moved_on(simcord_env) -> None:
    """Old boards lose their Play button; a picker opened on one is out of date once its player's turn came back."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    old_board = table.channel.last_message
    member, _, move = await table.choose()
    picker = await member.click(old_board, label="Play")
    await table.play_by_slash(member, move)
    assert not next(m for m in table.channel.history() if m.id == old_board.id).components
    other, _, reply_move = await table.choose()
    await table.play_by_slash(other, reply_move)
    again, _, _ = await table.choose()
    assert again.id == member.id
    stale = await table.picker_step(member, picker.response, move)  # replaces the ephemeral picker
    assert "out of date" in stale.response.content and not stale.response.components
    assert (await table.game()).version == 2


async def test_dependent_autocomplete(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    mover, waiting = table.member(game, seat), table.member(game, 1 - seat)
    channel = table.channel

    sources = await mover.autocomplete(channel, "azul-move take", "source", "")
    assert [c["value"] for c in sources] == [str(i + 1) for i, f in enumerate(state.factories) if any(f)]
    tiles = state.factories[2]
    first = next(i for i, n in enumerate(tiles) if n)
    assert sources[2]["name"].startswith("Factory 3 — ")
    word = AZUL.color_name(first, "en")
    assert f"{tiles[first]}× {word}" in sources[2]["name"]

    colours = await mover.autocomplete(channel, "azul-move take", "color", "", source="3")
    assert [c["value"] for c in colours] == [engine.azul.COLORS[i] for i, n in enumerate(tiles) if n]
    assert colours[0]["name"] == f"Factory 3 — {tiles[first]}× {word}"

    lines = await mover.autocomplete(channel, "azul-move take", "line", "", source="3", color=colours[0]["value"])
    assert [c["value"] for c in lines] == ["1", "2", "3", "4", "5", "floor"]
    assert lines[3]["name"].startswith("Line 4 (4 free)")
    assert lines[-1]["name"] == "Floor"
    typed = await mover.autocomplete(channel, "azul-move take", "line", "flo", source="3", color=colours[0]["value"])
    assert [c["value"] for c in typed] == ["floor"]

    assert await waiting.autocomplete(channel, "azul-move take", "source", "") == []
    assert await mover.autocomplete(channel, "azul-move wall", "column", "") == []
