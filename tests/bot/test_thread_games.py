"""A game played in its own thread, seen from the channel its lobby is in, through the real bot: ``/azul status``
there finds it, its lobby says it is over once it ends (not that it has started), and Rematch in the thread says
where its lobby really is."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.table import Table, confirmed

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def test_a_thread_game_is_found_from_its_channel_and_its_lobby_follows_it_to_the_end(simcord_env: Any) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    channel = table.channel
    await alice.slash(channel, "azul new", variant="azul", seats=2, order="joined", thread=True)
    await bob.slash(channel, "azul join")
    lobby = channel.last_message
    await alice.click(lobby, label="Start")
    (thread,) = channel.threads
    status = await bob.slash(channel, "azul status")
    assert status.ephemeral and f"🧵 The game is played in <#{thread.id}>." in status.response.content
    assert "no game" not in status.response.content.casefold(), status.response.content

    await confirmed(bob, thread, "resign")  # two players: the game ends
    await simcord_env.settle()
    shown = next(m for m in channel.history() if m.id == lobby.id)
    assert "this game is over" in shown.content and "has started" not in shown.content, shown.content

    final = thread.last_message
    rematch = await alice.click(final, label="Rematch")
    new = await table.bot.service.store.games.open_game_in(channel.id)
    assert new is not None and new.lobby_message_id is not None, "the rematch lobby is in the channel"
    link = f"/channels/{table.guild.id}/{channel.id}/{new.lobby_message_id}"
    assert link in rematch.response.content and "below the summary" not in rematch.response.content, (
        rematch.response.content
    )
