"""Nudges are limited per person nudged, through the real bot: three players cannot ping the same person within
12 hours of each other; the later ones are told why and when, and nothing is sent."""

from __future__ import annotations

import engine
from bot.infra.clock import ManualClock
from tests.bot.table import Table, mentions

NUDGE = "azul nudge"


async def test_three_players_cannot_ping_the_same_person_in_one_minute(simcord_env, clock: ManualClock) -> None:
    table = Table.create(simcord_env, 4)
    await table.open("azul")
    game, state = await table.state()
    awaited = table.member(game, min(engine.to_act(state)))
    first, second, third = [player for player in table.players if player.id != awaited.id]

    nudged = await first.slash(table.channel, NUDGE)
    assert nudged.response.content.startswith("Nudged:"), nudged.response.content
    ping = table.channel.last_message
    assert mentions(ping.content) == [awaited.id]
    clock.advance(seconds=30)
    for late in (second, third):
        refused = await late.slash(table.channel, NUDGE)
        said = refused.response.content
        assert refused.ephemeral and "Another player nudged the people this game waits for" in said, said
        assert "<t:" in said
    assert table.channel.last_message.id == ping.id, "one ping, not three"

    clock.advance(hours=12)
    later = await second.slash(table.channel, NUDGE)
    assert later.response.content.startswith("Nudged:"), later.response.content
