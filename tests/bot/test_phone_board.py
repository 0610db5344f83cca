"""The board the bot posts after every turn reads on a phone, measured on the picture its own posting path draws
(every text's face recorded as it is drawn, see :mod:`render.phone`), and the whole table is one tap away: the
Whole table button answers, just for the one who asks, with every board at full size."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render import common, phone
from tests.bot.table import Table

NAMES = ["Zoë Żak", "Олександра Коваленко", "Bartłomiej Grzegorzewski-Wąsowicz", "Kuba"]


def spy_on_posts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bytes, phone.Reading]]:
    """Every posted picture the bot draws (``picture_worker.render_png``, what its poster calls), with how it reads
    on a phone: each drawn with its layers afresh, so every text it shows is recorded."""
    import bot.infra.picture_worker

    posted: list[tuple[bytes, phone.Reading]] = []
    original = bot.infra.picture_worker.render_png

    def measured(state: Any, names: Any, events: Any, locale: str, info: Any = (), caption: str = "") -> bytes:  # noqa: PLR0917
        phone.forget_cached_layers()
        with common.recording() as drawn:
            png = original(state, names, events, locale, info, caption)
        posted.append((png, phone.reading(drawn, Image.open(io.BytesIO(png)).size)))
        return png

    monkeypatch.setattr(bot.infra.picture_worker, "render_png", measured)
    return posted


@pytest.mark.slow  # four players' boards drawn afresh, move after move
@pytest.mark.parametrize("variant", ["summer-pavilion", "queens-garden", "azul-grey"])
async def test_every_posted_board_reads_on_a_phone(simcord_env, monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    posted = spy_on_posts(monkeypatch)
    guild = simcord_env.create_guild()
    players = [guild.add_member(simcord_env.create_user(name)) for name in NAMES]
    table = Table(simcord_env, guild, guild.create_text_channel("azul"), players)
    await table.open(variant)
    for _ in range(6):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    assert len(posted) >= 7, "the opening board and one a move"
    board = table.channel.last_message
    assert await board.attachments[0].read() == posted[-1][0], "the picture measured is the one posted"
    for _, reading in posted:
        assert reading.meets(), reading.misses()
        assert reading.size[0] < 500, "one board wide: a phone shows it at 0.8x"


async def test_the_whole_table_is_one_tap_away_just_for_the_one_who_asks(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("azul")
    board = table.channel.last_message
    posted = Image.open(io.BytesIO(await board.attachments[0].read()))
    onlooker = table.players[2]
    answer = await onlooker.click(board, label="Whole table")
    assert answer.ephemeral, "just for the one who asks"
    assert answer.response.content.startswith("The whole table, every board at full size")
    whole = Image.open(io.BytesIO(await answer.response.attachments[0].read()))
    assert whole.width > 1.8 * posted.width, "every board at full size, two a row"
    assert table.channel.last_message.id == board.id, "nothing posted in the channel"
