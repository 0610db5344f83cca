"""Pictures and words a player never stumbles on, through the bot: the board says the last move in words under the
table (a picture forwarded alone still tells what happened); the variant side's lobby says which values it uses;
history in a direct message points to what works there."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render.common import CAPTION_H
from tests.bot.table import Table


async def test_the_board_after_a_move_carries_the_move_in_words(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.infra.picture_worker

    captions: list[str] = []
    original = bot.infra.picture_worker.render_png

    def spy(state: Any, names: Any, events: Any, locale: str, info: Any = (), caption: str = "") -> bytes:  # noqa: PLR0917
        captions.append(caption)
        return original(state, names, events, locale, info, caption)

    monkeypatch.setattr(bot.infra.picture_worker, "render_png", spy)
    table = Table.create(simcord_env, 3)
    await table.open("azul")
    opening = Image.open(io.BytesIO(await table.channel.last_message.attachments[0].read()))
    assert captions[-1] == "", "nothing has happened yet"
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    post = table.channel.last_message
    after = Image.open(io.BytesIO(await post.attachments[0].read()))
    said = captions[-1]
    assert member.user.name in said and ("factory" in said.lower() or "centre" in said.lower()), said
    assert "**" not in said and said.replace(" ", "") in post.content.replace("*", "").replace(" ", "")
    assert after.height == opening.height + CAPTION_H, "one line under the table"


async def test_the_variant_sides_lobby_says_which_values_it_is_played_with(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    creator = table.players[0]
    opened = await creator.slash(table.channel, "azul new", variant="queens-garden-variant", seats=2)
    assert not opened.ephemeral
    lobby = table.channel.last_message.content
    assert "played here with the standard side's values" in lobby, lobby
    assert ".json" not in lobby
    await creator.slash(table.channel, "azul abort")
    other = Table.create(simcord_env, 2)
    await other.players[0].slash(other.channel, "azul new", variant="queens-garden", seats=2)
    assert "standard side's values" not in other.channel.last_message.content


async def test_history_in_a_direct_message_points_to_what_works_there(simcord_env) -> None:
    user = simcord_env.create_user("loner")
    for scope in ("server", "channel"):
        answer = await user.slash("azul-stats history", scope=scope)
        said = answer.response.content
        assert "everywhere" not in said and "`/azul-me games`" in said, (scope, said)
