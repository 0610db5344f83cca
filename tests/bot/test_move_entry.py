"""Move entry through the real bot: sets picked in one multi-select and typed in words (en, pl, uk), the confirm
step and quick play, the words people type (``Factory 1``, ``turquoise``, ``center``, ``2x``), and autocomplete
that completes a set being typed."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.games import adapter_of
from tests.bot.table import Table

QG_MAX_TURNS = 200


async def until_storage(table: Table, items: int) -> tuple[Any, int, Any]:
    """Play greedy moves by slash command until the Queen's Garden player to act holds ``items`` hexagons."""
    for _ in range(QG_MAX_TURNS):
        game, state = await table.state()
        seat = min(engine.to_act(state))
        if sum(state.players[seat].tiles) >= items:
            return table.member(game, seat), seat, state
        member, _, move = await table.choose()
        if move.command == "pass":
            move = next(m for m in engine.legal_moves(state, seat) if m.command != "pass")
        await table.play_by_slash(member, move)
    raise AssertionError("no storage filled up")


def two_hexagons(state: Any, seat: int) -> list[str]:
    variant = engine.variant_of(state)
    pool = variant.set_pool(state, seat, "pass", "discard", {})
    return [item for item in pool if not item.startswith("x")][:2]


async def last_notation(table: Table) -> str:
    game = await table.game()
    return (await table.bot.service.store.moves.moves(game.id))[-1][1]


async def test_queens_garden_discards_are_ticked_in_one_multi_select_then_confirmed(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    member, seat, state = await until_storage(table, 3)
    version = (await table.game()).version
    opened = await member.click(table.channel.last_message, label="Play")
    commands = opened.response.components[0]["components"][0]
    assert commands["placeholder"] == "Choose what to do…", "a placeholder says what to choose"
    step = await member.select(opened.response, ["pass"], custom_id=commands["custom_id"])
    rows = step.response.components
    assert len(rows) == 1, "one multi-select, not pages of combinations"
    select = rows[0]["components"][0]
    assert select["min_values"] == 0 and select["max_values"] == len(select["options"]) >= 3
    assert "Tick the tiles to discard" in select["placeholder"]
    items = two_hexagons(state, seat)
    confirm = await member.select(step.response, [f"{item}:1" for item in items], custom_id=select["custom_id"])
    assert (await table.game()).version == version, "the last choice does not play at once"
    assert confirm.response.content.startswith("Pass, discarding ") and confirm.response.content.endswith("?")
    played = await member.click(confirm.response, label="Play this move")
    assert played.response.content.startswith("Played:")
    expected = engine.variant_of(state).join_set("pass", "discard", dict.fromkeys(items, 1))
    assert await last_notation(table) == f"pass {expected}"


async def test_quick_play_plays_at_the_last_choice(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    answer = await member.slash(table.channel, "azul-me quickplay", enabled=True)
    assert answer.ephemeral and "Quick play is on" in answer.response.content
    version = (await table.game()).version
    await table.play_by_buttons(member, move)
    assert (await table.game()).version == version + 1
    assert await last_notation(table) == str(move)


@pytest.mark.parametrize(("lang", "discord_locale"), [("en", "en-US"), ("pl", "pl"), ("uk", "uk")])
async def test_a_set_typed_in_words_in_the_players_language(simcord_env, discord_locales, lang, discord_locale):
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    member, seat, state = await until_storage(table, 3)
    discord_locales[member.id] = discord_locale
    adapter = adapter_of("queens-garden")
    items = two_hexagons(state, seat)
    typed = " + ".join(adapter.hexagon(item, lang) for item in items)
    offered = await member.autocomplete(table.channel, "azul-move pass", "discard", typed)
    expected = engine.variant_of(state).join_set("pass", "discard", dict.fromkeys(items, 1))
    assert offered and offered[0]["value"] == expected, (typed, offered)
    result = await member.slash(table.channel, "azul-move pass", discard=typed)
    assert result.ephemeral, result.response.content
    assert await last_notation(table) == f"pass {expected}"


async def test_an_unreadable_set_is_refused_in_words_and_changes_nothing(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    member, _, _ = await until_storage(table, 3)
    discord_locales[member.id] = "pl"
    version = (await table.game()).version
    result = await member.slash(table.channel, "azul-move pass", discard="zzz9")
    assert result.ephemeral and result.response.content
    assert "zzz9" in result.response.content
    assert (await table.game()).version == version


async def test_the_words_people_type_for_azul(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    member = table.member(game, seat)
    colours = [engine.azul.COLORS[c] for c, n in enumerate(state.factories[0]) if n]
    word = "turquoise" if "white" in colours else adapter_of("azul").color_name(colours[0], "en")
    token = "white" if word == "turquoise" else colours[0]
    offered = await member.autocomplete(table.channel, "azul-move take", "color", word, source="Factory 1")
    assert [choice["value"] for choice in offered] == [token]
    result = await member.slash(table.channel, "azul-move take", source="Factory 1", color=word, line="floor")
    assert result.ephemeral and (await table.game()).version == game.version + 1, result.response.content
    assert (await last_notation(table)).startswith("1")
    _, state = await table.state()
    other = table.member(game, min(engine.to_act(state)))
    centre = await other.autocomplete(table.channel, "azul-move take", "source", "center")
    assert [choice["value"] for choice in centre] == ["centre"]


async def test_summer_pavilion_keep_completes_counts_typed_as_2x(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    for _ in range(200):
        game, state = await table.state()
        seat = min(engine.to_act(state))
        variant = engine.variant_of(state)
        if state.phase == "play" and any(count >= 2 for count in state.boards[seat].hand):
            pool = variant.set_pool(state, seat, "pass", "keep", {})
            letter = next(item for item, most in pool.items() if most >= 2)
            break
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    else:
        raise AssertionError("no hand with two tiles of a colour")
    member = table.member(game, seat)
    colour = (
        adapter_of("summer-pavilion")
        .label(
            state,
            seat,
            "color",
            engine.summer_pavilion.COLORS[engine.summer_pavilion.LETTERS.index(letter)],
            chosen={},
            locale="en",
        )
        .split(" ")[0]
    )
    for typed in (f"2x {colour}", f"2× {colour}", f"2{letter}"):
        offered = await member.autocomplete(table.channel, "azul-move pass", "keep", typed)
        assert f"2{letter}" in [choice["value"] for choice in offered], (typed, offered)


async def test_summer_pavilion_keep_menu_caps_the_ticks_at_four(simcord_env) -> None:
    """Ticking more tiles than may be kept would throw the picker away: the menu itself stops at 4."""
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")
    for _ in range(300):
        game, state = await table.state()
        seat = min(engine.to_act(state))
        if state.phase == "play" and state.round < 6 and sum(state.boards[seat].hand) > 5:
            break
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    else:
        raise AssertionError("no hand of more than five tiles")
    member = table.member(game, seat)
    opened = await member.click(table.channel.last_message, label="Play")
    commands = opened.response.components[0]["components"][0]
    step = await member.select(opened.response, ["pass"], custom_id=commands["custom_id"])
    select = step.response.components[0]["components"][0]
    assert len(select["options"]) > 4 and select["max_values"] == 4, select["max_values"]
