"""Heavy pictures through the real bot on the wire-level fake Discord (which, unlike SimCord, lets interactions
overlap): six people clicking **Animation** on one finished game at the same moment get one GIF, drawn once, in a
process of its own even though the bot has no picture workers, so the bot's process never holds a GIF's peak."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from bot.app.service import GameService
from bot.infra.store import Store
from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord, message
from tests.bot.test_concurrency import TIMEOUT, running, stopped


async def finished_game(db: str) -> wire.Seen:
    """A game of a few moves that one player resigned."""
    await wire.prepare_games(db, 1)
    store = await Store.open(db)
    service = GameService(store)
    try:
        for _ in range(4):
            game = wire.game_in(db, wire.FIRST_CHANNEL)
            ((user, move),) = wire.moves_now(game)
            await service.turns.move(game.channel, user, move.command, dict(move.choices()))
        game = wire.game_in(db, wire.FIRST_CHANNEL)
        await service.endings.resign(game.channel, game.users[0])
    finally:
        await store.close()
    return wire.game_in(db, wire.FIRST_CHANNEL)


def viewer_with(game: wire.Seen, custom_id: str, label: str) -> dict[str, Any]:
    """The ephemeral replay viewer a click comes from (the bot checks the button is on it)."""
    button = {"type": 2, "style": 1, "label": label, "custom_id": custom_id}
    return message(str(game.channel), {"flags": 64, "components": [{"type": 1, "components": [button]}]})


async def clicked_by_six(discord_server: FakeDiscord, game: wire.Seen, custom_id: str, label: str) -> list[str | None]:
    """Six people click the same button at the same moment; the bot's answers."""
    viewer = viewer_with(game, custom_id, label)
    clicks = [
        discord_server.interaction(
            3,
            {"custom_id": custom_id, "component_type": 2},
            guild_id=wire.GUILD,
            channel_id=game.channel,
            user_id=9000 + index,
            locale="en-US",
            message=viewer,
        )
        for index in range(6)
    ]
    sent = await asyncio.gather(*clicks)
    return list(await asyncio.gather(*(wire.answer(discord_server, i, TIMEOUT) for i in sent)))


@pytest.mark.slow  # a whole game, then its animation in a worker process
async def test_six_simultaneous_animation_clicks_draw_one_gif_in_another_process(
    discord_server: FakeDiscord, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await finished_game(db_path)
    assert game.status == "over"
    import render.animation

    def not_here(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("an animation was drawn in the bot's process")

    # The worker imports the animation where it draws one: a worker process imports the real one.
    monkeypatch.setattr(render.animation, "animate", not_here)
    azul, task = await running(db_path, discord_server)
    try:
        pictures = azul.pictures
        assert pictures.pool.processes == 0, "the bot draws its boards in its own process"
        drawn: list[int] = []
        run = pictures.heavy.run

        async def counted(work: Any, *args: Any) -> Any:
            drawn.append(os.getpid())
            return await run(work, *args)

        monkeypatch.setattr(pictures.heavy, "run", counted)
        said = await clicked_by_six(discord_server, game, f"azul:replay:{game.id}:0:gif", "Animation")
        assert all(text and text.startswith(f"Game #{game.id}") for text in said), said
        gifs = [
            data
            for request in discord_server.requests
            if request.path.startswith("/webhooks/")
            for name, data in request.files.items()
            if name.endswith(".gif")
        ]
        assert len(gifs) == 6 and gifs[0].startswith(b"GIF8") and len(set(gifs)) == 1, len(gifs)
        assert len(drawn) == 1, "six clicks, one GIF drawn"
    finally:
        await stopped(azul, task)


@pytest.mark.slow  # a whole game, then its replay tables
async def test_six_simultaneous_clicks_on_one_replay_table_draw_it_once(
    discord_server: FakeDiscord, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await finished_game(db_path)
    azul, task = await running(db_path, discord_server)
    try:
        drawn: list[int] = []
        draw = azul.pictures.replay_frame

        async def counted(*args: Any) -> bytes:
            drawn.append(1)
            return await draw(*args)

        monkeypatch.setattr(azul.pictures, "replay_frame", counted)
        said = await clicked_by_six(discord_server, game, f"azul:replay:{game.id}:0:next", "▶")
        assert all(text and "move 1 of" in text for text in said), said
        assert len(drawn) == 1, "six clicks, one table drawn"
    finally:
        await stopped(azul, task)
