"""A game in which no line can ever be tiled again ends at that round, and its last post says why, in the players'
language. The rule itself is tested from a constructed position in tests/engine/test_azul_rules.py; here the engine
is told that no tiling is possible from the first deal on, so that a short game reaches that end through the bot."""

from __future__ import annotations

import pytest

from engine.azul import AzulVariant
from tests.bot.table import Table
from tests.bot.test_time_limits import open_limited


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-US", "the game ends here"), ("pl", "gra kończy się tutaj"), ("uk", "гра закінчується тут")],
)
async def test_a_game_no_line_can_end_ends_and_the_post_says_why(
    simcord_env, monkeypatch: pytest.MonkeyPatch, locale: str, words: str
) -> None:
    monkeypatch.setattr(AzulVariant, "tiling_possible", lambda self, state: False)
    table = Table.create(simcord_env, 2, preferred_locale=locale)
    await open_limited(table, "azul-grey")  # started by the button's id: its label is in the server's language
    for _ in range(40):  # one round: at most 20 takes and 10 columns
        game = await table.game()
        if game.status == "over":
            break
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    game = await table.game()
    assert game.status == "over" and game.version < 40
    post = table.channel.last_message.content
    print(post)
    assert words in post, post
