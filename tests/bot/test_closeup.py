"""``/azul board mine:True``: a player's own board, large, under the shared area, answered privately."""

from __future__ import annotations

import io

from PIL import Image

from bot.app.pictures import picture_seats
from bot.infra.picture_worker import render_closeup
from tests.bot.table import Table


async def test_a_player_gets_the_closeup_of_their_own_board_privately(simcord_env) -> None:
    table = Table.create(simcord_env, 3)
    await table.open("summer-pavilion")
    board = table.channel.last_message
    posted = Image.open(io.BytesIO(await board.attachments[0].read()))
    table_shown = await table.players[0].slash(table.channel, "azul board")
    whole = Image.open(io.BytesIO(await table_shown.response.attachments[0].read()))
    game, state = await table.state()
    names, info = picture_seats(game, "en")
    for player in table.players:
        shown = await player.slash(table.channel, "azul board", mine=True)
        assert shown.ephemeral and "round 1" in shown.response.content
        (attachment,) = shown.response.attachments
        assert attachment.filename.endswith("-mine.png")
        png = await attachment.read()
        closeup = Image.open(io.BytesIO(png))
        assert closeup.format == "PNG" and closeup.width * 1.8 < whole.width  # a phone shows the board twice as large
        assert closeup.width == posted.width, "laid out as the posted board, around the asker's own"
        seat = game.seat_of(player.id)
        assert png == render_closeup(state, seat, names, [], "en", info), "the board of the one who asked"
    assert table.channel.last_message.id == board.id, "a close-up posts nothing in the channel"


async def test_someone_not_in_the_game_is_told_why_in_their_language(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    board = table.channel.last_message
    watcher = table.guild.add_member(simcord_env.create_user("watcher"))
    refused = await watcher.slash(table.channel, "azul board", mine=True)
    assert refused.ephemeral and not refused.response.attachments
    assert "You have no board at this table" in refused.response.content
    discord_locales[watcher.id] = "uk"
    refused = await watcher.slash(table.channel, "azul board", mine=True)
    assert "У тебе немає поля за цим столом" in refused.response.content and "`/azul поле`" in refused.response.content
    shown = await watcher.slash(table.channel, "azul board")  # the whole table stays open to everyone
    assert shown.ephemeral and shown.response.attachments
    assert table.channel.last_message.id == board.id
