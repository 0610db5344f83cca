"""Discord's rate limits on the wire: a 429 without ``Via`` (Cloudflare's) is waited out and the board still posts
within its budget, every 429 is counted for the metrics, and bulk posts in one channel are spaced."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from prometheus_client import REGISTRY

from bot.ui import ratelimits
from bot.ui.posting import POST_BUDGET_SECONDS
from bot.ui.ratelimits import ChannelPacer
from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord, Request
from tests.bot.test_concurrency import running, stopped

TIMEOUT = 30


def channel_posts(discord_server: FakeDiscord, channel: int) -> list[Request]:
    """Every message post to the channel, answered or refused."""
    return [r for r in discord_server.requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"]


def counted_429s(source: str) -> float:
    return REGISTRY.get_sample_value("azul_rate_limited_total", {"source": source}) or 0.0


def cloudflare_429s() -> float:
    return counted_429s("cloudflare")


async def test_a_429_without_via_still_posts_the_board_within_its_budget(
    discord_server: FakeDiscord, db_path: str
) -> None:
    await wire.prepare_games(db_path, 1)
    bot, task = await running(db_path, discord_server)
    try:
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        posts_before = len(channel_posts(discord_server, game.channel))
        counted = cloudflare_429s()
        discord_server.throttle_posts, discord_server.throttle_seconds = 1, 1.0
        ((user, move),) = wire.moves_now(game)
        said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), TIMEOUT)
        assert wire.played(said) and said and "⚠️" not in said, said  # no "the board did not get through"
        throttled, posted = channel_posts(discord_server, game.channel)[posts_before:]
        assert posted.at - throttled.at >= discord_server.throttle_seconds, "it waited as Retry-After asked"
        assert posted.at - throttled.at < POST_BUDGET_SECONDS
        assert posted.files, "the board's picture went with the retry"
        assert wire.game_in(db_path, wire.FIRST_CHANNEL).board_version == game.version + 1
        assert cloudflare_429s() == counted + 1
    finally:
        await stopped(bot, task)


async def test_discords_own_429_is_waited_out_and_counted(discord_server: FakeDiscord, db_path: str) -> None:
    await wire.prepare_games(db_path, 1)
    bot, task = await running(db_path, discord_server)
    try:
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        counted, posts_before = counted_429s("discord"), len(channel_posts(discord_server, game.channel))
        discord_server.limit_posts, discord_server.throttle_seconds = 1, 0.3
        ((user, move),) = wire.moves_now(game)
        said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), TIMEOUT)
        assert wire.played(said) and said and "⚠️" not in said, said
        limited, posted = channel_posts(discord_server, game.channel)[posts_before:]
        assert posted.at - limited.at >= discord_server.throttle_seconds, "discord.py waited as retry_after asked"
        assert counted_429s("discord") == counted + 1
    finally:
        await stopped(bot, task)


async def test_a_ban_longer_than_the_budget_is_not_waited_for(discord_server: FakeDiscord, db_path: str) -> None:
    """A Retry-After of an hour (a real Cloudflare ban) fails the post at once; the sweep posts the board later."""
    await wire.prepare_games(db_path, 1)
    bot, task = await running(db_path, discord_server)
    try:
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        discord_server.throttle_posts, discord_server.throttle_seconds = 1, 3600
        ((user, move),) = wire.moves_now(game)
        said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), TIMEOUT)
        assert said and "⚠️" in said and wire.game_in(db_path, wire.FIRST_CHANNEL).version == game.version + 1, said
        assert await bot.post_missing_boards() == 1
        assert wire.game_in(db_path, wire.FIRST_CHANNEL).board_version == game.version + 1
    finally:
        await stopped(bot, task)


async def test_bulk_posts_in_one_channel_are_spaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most ``burst`` posts per ``window`` in one channel; other channels do not wait (a fake clock)."""
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(round(seconds, 6))
        now[0] += seconds

    monkeypatch.setattr(ratelimits, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(ratelimits, "asyncio", SimpleNamespace(sleep=sleep))
    pacer = ChannelPacer(burst=2, window=5.0)
    for _ in range(2):
        await pacer.wait(1)
    await pacer.wait(2)
    assert slept == [], "a burst and another channel go at once"
    await pacer.wait(1)
    assert slept == [5.0], "the third post waits until the first leaves the window"
    await pacer.wait(1)
    assert slept == [5.0], "the window moved on: a place is free"
    await pacer.wait(1)
    assert slept == [5.0, 5.0]


async def test_a_429_without_via_on_a_reply_still_answers(discord_server: FakeDiscord, db_path: str) -> None:
    """The player's own answer waits out Cloudflare's 429 too, within Discord's 3 s."""
    await wire.prepare_games(db_path, 1)
    bot, task = await running(db_path, discord_server)
    try:
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        discord_server.throttle_replies, discord_server.throttle_seconds = 1, 1.0
        ((user, move),) = wire.moves_now(game)
        said = await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), TIMEOUT)
        assert wire.played(said), said
        answers = [r for r in discord_server.requests if r.path.endswith("/callback")]
        assert len(answers) == 2 and answers[1].at - answers[0].at >= discord_server.throttle_seconds
        assert not discord_server.late
    finally:
        await stopped(bot, task)
