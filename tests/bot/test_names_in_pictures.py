"""Players' names as the bot posts them, through the bot: emoji drawn in the picture, an emoji-only name the same in
the picture, the line under it and the post's text, and a long name shortened to first word and initial."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render import common as c
from render.text import printable
from tests.bot.table import Table

EMOJI_ONLY = "💙"
WITH_EMOJI = "Zoë 💙 Żak"
LONG = "Bartłomiej Grzegorz Szczepański-Wróblewski-Brzęczyszczykiewicz"


def _colourful(image: Image.Image, box: c.Box) -> int:
    """Pixels in ``box`` clearly coloured: the theme's texts are white, grey or gold, an emoji heart is blue."""
    pixels = image.convert("RGB").crop(box).get_flattened_data()
    return sum(1 for r, g, b in pixels if b - max(r, g) > 60)


async def test_names_keep_their_emoji_and_a_long_name_its_first_word(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.infra.picture_worker

    drawn: list[tuple[str, list[c.DrawnText]]] = []  # (caption, texts) of every board drawn
    original = bot.infra.picture_worker.render_png

    def spy(state: Any, names: Any, events: Any, locale: str, info: Any = (), caption: str = "") -> bytes:  # noqa: PLR0917
        with c.recording() as texts:
            png = original(state, names, events, locale, info, caption)
        drawn.append((caption, list(texts)))
        return png

    monkeypatch.setattr(bot.infra.picture_worker, "render_png", spy)
    guild = simcord_env.create_guild()
    users = [
        simcord_env.create_user(f"u{k}", global_name=name) for k, name in enumerate((EMOJI_ONLY, WITH_EMOJI, LONG))
    ]
    table = Table(simcord_env, guild, guild.create_text_channel("azul"), [guild.add_member(user) for user in users])
    await table.open("azul")
    game = await table.game()
    assert [seat.name for seat in game.by_seat()] == [EMOJI_ONLY, WITH_EMOJI, LONG]
    for _ in range(2):  # the emoji-only player moves first, then the one with an emoji in the name
        member, seat, move = await table.choose()
        await table.play_by_slash(member, move)
        caption, texts = drawn[-1]
        name = game.by_seat()[seat].name
        assert caption.startswith(name + " "), f"the line under the board names who moved: {caption!r}"
        post = table.channel.last_message
        assert name in post.content, post.content
        picture = Image.open(io.BytesIO(await post.attachments[0].read()))
        shown = [t for t in texts if t.text == printable(name)]
        assert shown, f"{name!r} is not drawn whole: {[t.text for t in texts]}"
        assert all(_colourful(picture, t.box) > 30 for t in shown), f"{name!r}: the blue heart is not drawn"
        # The line under the board: the caption, or its start ending in "…" where the picture is narrower.
        under = [t for t in texts if t.text == caption or (t.text.endswith("…") and caption.startswith(t.text[:-1]))]
        assert under and under[0].text.startswith(name), f"the line under the board starts with {name!r}"
        assert _colourful(picture, under[0].box) > 30, "the heart is drawn under the board too"
        assert "Player" not in " ".join(t.text for t in texts)
        long_forms = {t.text for t in texts if t.text.startswith("Bartłomiej")}
        assert long_forms and long_forms <= {"Bartłomiej S.", printable(LONG)}, long_forms
        assert "Bartłomiej S." in long_forms, "somewhere the long name is short of room"


def test_a_name_no_font_can_draw_is_player_n_under_the_board_as_in_it() -> None:
    import engine
    from bot.app.pictures import move_caption
    from engine.agents import GreedyAgent

    state = engine.new_game("azul", 2, 1)
    seat = min(engine.to_act(state))
    _, events = engine.apply(state, seat, GreedyAgent(1).choose(engine.variant_of(state), state, seat))
    names = ["王", "王"]
    assert move_caption("azul", events, names, "en").startswith(f"Player {seat + 1} ")
    assert move_caption("azul", events, names, "pl").startswith(f"Gracz {seat + 1} ")
    assert move_caption("azul", events, ["💙", "💙"], "en").startswith("💙 ")


@pytest.mark.parametrize(("discord_locale", "locale"), [("en-US", "en"), ("pl", "pl"), ("uk", "uk")])
async def test_help_says_what_every_short_mark_means(simcord_env, discord_locales, discord_locale, locale) -> None:
    from data.i18n import t

    user = simcord_env.create_user("reader")
    discord_locales[user.id] = discord_locale
    answer = await user.slash("azul-help")
    how, marks = answer.response.embeds
    assert how.description == t("bot.help", locale), "how to play, whole"
    said = marks.description or ""
    assert marks.title == t("bot.help.marks_title", locale)
    shown = [  # every short form the pictures and messages use, as the catalogue words it today
        "→ 19",
        "+3",
        "×3",
        "🤖",
        "⏳",
        "⏰",
        t("bot.picture.away_short", locale, day=3, month=12),
        t("bot.limit.hours_short", locale, hours=23),
        t("picture.winner", locale),
        t("picture.to_act", locale),
        t("picture.sp.keep_rule_short", locale, most=4),
        t("picture.head.columns_short", locale),
        t("bot.summary.rating", locale, before=1200, after=1230),
    ]
    assert [mark for mark in shown if mark not in said] == [], said
    assert all(len(embed.description or "") <= 4096 for embed in (how, marks))
