"""Whole Summer Pavilion games (front and monochrome side) through the real bot and discord.py against SimCord:
`/azul new` to the final standings, by slash commands and by the Play button's picker."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.ui.picker import SELECT_LIMIT
from engine.summer_pavilion import Pass
from tests.bot.table import Table, mentions

MAX_TURNS = 600


async def next_move(table: Table, turns: int) -> tuple[Any, engine.Move]:
    """The greedy agent's move, except that now and then a player with tiles to choose from passes: so passes
    with a choice of tiles to keep go through the bot too."""
    member, seat, move = await table.choose()
    _, state = await table.state()
    passes = [m for m in engine.legal_moves(state, seat) if isinstance(m, Pass)]
    if state.phase == "play" and len(passes) > 1 and turns % 4 == 0:
        move = passes[turns % len(passes)]
    return member, move


async def picker_reaches(table: Table, move: engine.Move) -> bool:
    """Whether the picker lists ``move``: it shows at most 5 selects of 25 choices, and a keep choice of many tiles
    has more (the picker is to offer sets instead of every combination; until then such a pass goes by command)."""
    if not isinstance(move, Pass):
        return True
    _, state = await table.state()
    (seat,) = engine.to_act(state)
    passes = [m for m in engine.legal_moves(state, seat) if isinstance(m, Pass)]
    return passes.index(move) < 5 * SELECT_LIMIT


async def play_to_the_end(table: Table, *, buttons_every: int) -> set[str]:
    """Play greedy moves, every ``buttons_every``-th through the picker; return the move commands used."""
    commands: set[str] = set()
    turns = 0
    while (await table.game()).status == "active":
        member, move = await next_move(table, turns)
        before = table.channel.last_message.id
        if turns % buttons_every == buttons_every - 1 and await picker_reaches(table, move):
            await table.play_by_buttons(member, move)
        else:
            await table.play_by_slash(member, move)
        commands.add(move.command)
        post = table.channel.last_message
        assert post.id != before and post.attachments, "every turn posts one new board with its picture"
        game, state = await table.state()
        pinged = mentions(post.content)
        assert len(pinged) == len(set(pinged)), "at most one mention per player"
        if game.status == "active":
            (to_act,) = engine.to_act(state)
            acting = table.member(game, to_act).id
            assert set(pinged) == ({acting} - {member.id}), "ping whoever acts next, never the mover again"
            assert post.components, "the board carries the Play button"
        turns += 1
        assert turns < MAX_TURNS
    return commands


async def check_end(table: Table) -> None:
    final = table.channel.last_message
    game, state = await table.state()
    assert "Game over" in final.content
    names = [seat.name for seat in game.by_seat()]
    assert game.result is not None
    winner = names[game.result["standings"][0][0]]
    assert f"1. **{winner}**" in final.content
    assert all(b.label != "Play" for row in final.components for b in row.children), "no Play button"
    assert engine.is_over(state) and state.round == 6
    replayed = await table.bot.service.tables.replayed(game)
    assert engine.to_json(replayed) == engine.to_json(state)
    assert game.version == len(await table.bot.service.store.moves.moves(game.id))


@pytest.mark.slow  # a whole game through the bot
async def test_front_side_game_from_new_to_final_standings(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    first_board = table.channel.last_message
    game, state = await table.state()
    assert game.variant == "summer-pavilion"
    assert first_board.attachments and first_board.attachments[0].filename.endswith(".png")
    assert mentions(first_board.content) == [table.member(game, min(engine.to_act(state))).id]
    commands = await play_to_the_end(table, buttons_every=3)
    assert commands == {"take", "place", "bonus", "pass"}
    await check_end(table)


@pytest.mark.slow  # a whole game through the bot
async def test_monochrome_side_game_from_new_to_final_standings(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("summer-pavilion-mono")
    game, _ = await table.state()
    assert game.variant == "summer-pavilion-mono"
    commands = await play_to_the_end(table, buttons_every=4)
    assert {"take", "place", "pass"} <= commands
    await check_end(table)


async def until_phase_two(table: Table) -> tuple[Any, int, Any]:
    """Play greedy takes until the first placing turn; the member to act, their seat and the state."""
    while True:
        member, seat, move = await table.choose()
        _, state = await table.state()
        if state.phase == "play":
            return member, seat, state
        await table.play_by_slash(member, move)


async def test_place_autocomplete_offers_affordable_spaces_with_cost_points_and_bonus(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    member, seat, state = await until_phase_two(table)
    channel = table.channel
    places = [m for m in engine.legal_moves(state, seat) if m.command == "place"]
    assert places, "the greedy draft leaves something to place"
    stars = await member.autocomplete(channel, "azul-move place", "star", "")
    assert [c["value"] for c in stars] == list(dict.fromkeys(dict(m.choices())["star"] for m in places))
    assert all("star" in c["name"].lower() for c in stars)
    star = stars[0]["value"]
    spaces = await member.autocomplete(channel, "azul-move place", "space", "", star=star)
    expected = list(dict.fromkeys(dict(m.choices())["space"] for m in places if dict(m.choices())["star"] == star))
    assert [c["value"] for c in spaces] == expected
    assert all("cost" in c["name"] and " pt" in c["name"] for c in spaces)
    wilds = await member.autocomplete(channel, "azul-move place", "wilds", "", star=star, space=spaces[0]["value"])
    assert wilds and all("pay" in c["name"] for c in wilds)
    other = table.member(await table.game(), 1 - seat)
    assert await other.autocomplete(channel, "azul-move place", "star", "") == []


async def test_refusals_say_why_and_change_nothing(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    member, _seat, _state = await until_phase_two(table)
    version = (await table.game()).version
    result = await member.slash(table.channel, "azul-move place", star="purple", space="6", wilds="5")
    assert result.ephemeral
    assert "wild" in result.response.content or "cost" in result.response.content, result.response.content
    result = await member.slash(table.channel, "azul-move bonus", tiles="2r")
    assert result.ephemeral and "place or pass" in result.response.content, result.response.content
    result = await member.slash(table.channel, "azul-move wall", line="1", column="1")
    assert result.ephemeral and "Summer Pavilion" in result.response.content, result.response.content
    assert (await table.game()).version == version


async def test_rules_and_refusals_in_the_players_language(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    member, _seat, _state = await until_phase_two(table)
    rules = await member.slash(table.channel, "azul-rules", variant="summer-pavilion-mono")
    assert rules.ephemeral and "monochrome" in rules.response.content
    discord_locales[member.id] = "pl"
    rules = await member.slash(table.channel, "azul-rules", variant="summer-pavilion")
    assert "Letni Pawilon" in rules.response.content
    refused = await member.slash(table.channel, "azul-move pass", keep="9r")
    assert refused.ephemeral and "najwyżej 4" in refused.response.content, refused.response.content
