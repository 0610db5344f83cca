"""No hidden information before the end, through the real bot: what a running game's export, status, board and
hint, autocomplete and replay tell a person is what the table has seen, and nobody can read the next deal from it."""

from __future__ import annotations

import json
from typing import Any

import engine
from engine.transcript import export
from tests.bot.table import Table


def predicted_deal(document: dict[str, Any]) -> list[list[int]] | None:
    """What a reader of ``document`` can tell of the next round's factories: with a seed, replay the log and play the
    round out with any legal moves (in Azul the bag's draw order decides the deal, not the moves); without one,
    nothing."""
    if "seed" not in document:
        return None
    log = [(entry["seat"], entry["notation"]) for entry in document["log"]]
    state = engine.replay(document["variant"], document["players"], document["seed"], log)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, events = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
        started = [event for event in events if event.kind == "round_started"]
        if started:
            factories: list[list[int]] = started[0].data["factories"]
            return factories
    return None


async def exported(member: Any, channel: Any) -> dict[str, Any]:
    result = await member.slash(channel, "azul export")
    attachment = next(a for a in result.response.attachments if a.filename.endswith(".json"))
    document: dict[str, Any] = json.loads(await attachment.read())
    return document


async def test_a_running_games_export_cannot_predict_the_next_deal(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    watcher = table.guild.add_member(simcord_env.create_user("watcher"))
    await table.open("azul")
    for _ in range(3):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    game, state = await table.state()
    document = await exported(watcher, table.channel)

    assert "seed" not in document and "rng" not in json.dumps(document)
    assert document["state"] == engine.public_json(state) and document["status"] == "active"
    for secret in (game.seed, engine.to_json(state)["rng"]):
        assert str(secret) not in json.dumps(document), "the seed or the generator's state is in the export"
    # The export as it was (the log plus the seed) predicts the next deal: the new one cannot.
    logged = [(entry["seat"], entry["notation"]) for entry in document["log"]]
    leaky = {**document, **export("azul", 2, game.seed, logged)}
    forecast = predicted_deal(leaky)
    assert forecast is not None and predicted_deal(document) is None

    while (await table.state())[1].round == 1:  # the players play the round out, their own way
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    _, state = await table.state()
    dealt = (await exported(watcher, table.channel))["rounds"][1]["factories"]  # the deal, once the table sees it
    assert dealt == forecast, "the old export did predict the deal"

    secrets = [str(game.seed), str(engine.to_json(state)["rng"])]
    for member in (watcher, *table.players):  # nothing else a person may ask for names the seed or the generator
        for command in ("azul status", "azul board", "azul hint"):
            said = (await member.slash(table.channel, command)).response.content
            assert not any(secret in said for secret in secrets), (command, said)
        offered = await member.autocomplete(table.channel, "azul-move take", "source", "")
        assert not any(secret in str(offered) for secret in secrets), offered
    replay = await watcher.slash(table.channel, "azul-stats replay", game=game.id)
    assert "is still being played" in replay.response.content and not replay.response.attachments


async def test_a_finished_games_export_replays_to_its_end(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    watcher = table.guild.add_member(simcord_env.create_user("watcher"))
    await table.open("azul")
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    await table.confirmed(table.players[0], "resign")
    game = await table.game()
    document = await exported(watcher, table.channel)
    assert document["seed"] == game.seed and "state" not in document
    logged = await table.bot.service.store.moves.moves(game.id)
    assert engine.to_json(engine.replay("azul", 2, document["seed"], logged)) == game.state


async def test_a_queens_garden_export_shows_no_face_down_expansion(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    watcher = table.guild.add_member(simcord_env.create_user("watcher"))
    await table.open("queens-garden")
    _, state = await table.state()
    document = await exported(watcher, table.channel)
    shown = document["state"]
    assert shown["stack"] == len(state.stack) and shown["supply"] == len(state.supply)
    assert shown["future_stacks"] == [len(stack) for stack in state.future_stacks]
    assert all(item["expansion"] is None for item in shown["display"] if not item["face_up"])
