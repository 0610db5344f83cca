"""Queen's Garden through the real bot and discord.py against SimCord, plus the adapter's words."""

from __future__ import annotations

import json

import pytest

import engine
from bot.games import adapter_of
from data import path
from data.i18n import t
from tests.bot.table import Table, mentions

MAX_TURNS = 400


async def check_replay(table: Table) -> None:
    game, state = await table.state()
    replayed = await table.bot.service.tables.replayed(game)
    assert engine.to_json(replayed) == engine.to_json(state)
    assert game.version == len(await table.bot.service.store.moves.moves(game.id))


@pytest.mark.slow  # a whole game through the bot
@pytest.mark.parametrize("variant", ["queens-garden", "queens-garden-variant"])
async def test_game_from_new_to_final_standings(simcord_env, variant: str) -> None:
    table = Table.create(simcord_env, 2)
    await table.open(variant)
    first = table.channel.last_message
    game, state = await table.state()
    assert game.variant == variant and first.attachments
    assert mentions(first.content) == [table.member(game, min(engine.to_act(state))).id]
    turns = 0
    commands = set()
    while (await table.game()).status == "active":
        member, _, move = await table.choose()
        commands.add(move.command)
        before = table.channel.last_message.id
        if turns % 3 == 1:  # every legal move fits the picker
            await table.play_by_buttons(member, move)
        else:
            await table.play_by_slash(member, move)
        post = table.channel.last_message
        assert post.id != before and post.attachments
        game, state = await table.state()
        pinged = mentions(post.content)
        assert member.id not in pinged and len(pinged) == len(set(pinged))
        if game.status == "active":
            assert set(pinged) == {table.member(game, s).id for s in engine.to_act(state)} - {member.id}
        turns += 1
        assert turns < MAX_TURNS
    assert {"acquire", "tile", "pass"} <= commands
    final = table.channel.last_message
    assert "Game over" in final.content
    assert all(b.label != "Play" for row in final.components for b in row.children), "no Play button"
    names = [seat.name for seat in game.by_seat()]
    assert f"1. **{names[game.result['standings'][0][0]]}**" in final.content
    await check_replay(table)


async def test_a_refused_move_says_why_and_changes_nothing(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    game, state = await table.state()
    member = table.member(game, min(engine.to_act(state)))
    result = await member.slash(table.channel, "azul-move tile", tile="bl3", payment="2j", cell="F1")
    assert result.ephemeral
    assert "storage" in result.response.content
    assert (await table.game()).version == game.version
    wrong = await member.slash(table.channel, "azul-move take", source="1", color="blue", line="1")
    assert wrong.ephemeral and (await table.game()).version == game.version


# --- the adapter's words --------------------------------------------------------------------------------------------
def test_every_token_of_a_position_has_a_label_that_keeps_the_token() -> None:
    adapter = adapter_of("queens-garden")
    variant = engine.get_variant("queens-garden")
    state = variant.new_game(2, seed=11)
    for _ in range(12):  # a position with storage, display items and a garden
        seat = min(variant.to_act(state))
        moves = variant.legal_moves(state, seat)
        state, _ = variant.apply(state, seat, next((m for m in moves if m.command == "tile"), moves[0]))
    seat = min(variant.to_act(state))
    for move in variant.legal_moves(state, seat):
        chosen: dict[str, str] = {}
        for option, token in move.choices():
            label = adapter.label(state, seat, option, token, chosen=chosen, locale="pl")
            assert label and len(label) <= 100
            if option in ("payment", "tile", "which") and token != "-":
                assert label.startswith(f"{token} — ")
            chosen[option] = token


def test_rules_say_in_player_words_which_values_the_variant_side_uses() -> None:
    adapter = adapter_of("queens-garden")
    for locale in ("en", "pl", "uk"):
        for variant in ("queens-garden", "queens-garden-variant"):
            text = adapter.rules(variant, locale)
            assert len(text) <= 2000
            assert ".json" not in text and "data/" not in text, "no file names, no developer notes"
        note = t("bot.lobby.note.queens-garden-variant", locale)
        assert adapter.rules("queens-garden-variant", locale).endswith(note)
        assert note not in adapter.rules("queens-garden", locale)
    assert "standard side's values" in adapter.rules("queens-garden-variant", "en")


def test_events_are_described_in_words() -> None:
    adapter = adapter_of("queens-garden")
    variant = engine.get_variant("queens-garden")
    state = variant.new_game(2, seed=3)
    _, events = variant.apply(state, 0, variant.parse_move("expansion supply - A2 -"))
    assert adapter.describe(events, ["Ala", "Bob"], "en") == "Ala laid a face-down expansion (−6) on A2"
    acquire = next(m for m in variant.legal_moves(state, 0) if m.command == "acquire")
    _, events = variant.apply(state, 0, acquire)
    assert adapter.describe(events, ["Ala", "Bob"], "uk").startswith("Ala бере: ")
    _, events = variant.apply(state, 0, variant.parse_move("pass"))
    assert "first-player marker" in adapter.describe(events, ["Ala", "Bob"], "en")


@pytest.mark.parametrize("name", ["bot_qg.json", "errors_qg.json", "picture_qg.json"])
def test_every_text_exists_in_every_language(name: str) -> None:
    keys = {
        lang: set(json.loads(path("locale", lang, name).read_text(encoding="utf-8"))) for lang in ("en", "pl", "uk")
    }
    assert keys["pl"] == keys["en"] == keys["uk"]


def test_a_first_pass_says_each_loss_once_and_they_add_up_to_the_score_change() -> None:
    """Discarding and taking the first-player marker are two losses: the post names each once, and together they
    are what the score lost (the engine's pass penalty is their sum)."""
    from engine.agents import RandomAgent

    variant = engine.get_variant("queens-garden")
    state, agent = variant.new_game(2, seed=4), RandomAgent(4)
    while True:
        seat = min(engine.to_act(state))
        passes = [m for m in engine.legal_moves(state, seat) if m.command == "pass" and str(m) != "pass"]
        if state.marker < 0 and passes and state.players[seat].score >= 10:
            break
        state, _ = engine.apply(state, seat, agent.choose(variant, state, seat))
    move = passes[0]
    before = state.players[seat].score
    after, events = engine.apply(state, seat, move)
    (passed,) = [e for e in events if e.kind == "pass"]
    said = adapter_of("queens-garden").describe([passed], ["Ala", "Bob"], "en")
    lost = before - after.players[seat].score
    first = variant.components.first_pass_penalty
    assert f"(−{lost - first})" in said and f"first-player marker (−{first})" in said, said
    assert said.count("−") == 2, said
