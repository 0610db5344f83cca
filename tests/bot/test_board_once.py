"""One board per version, whoever posts it, through the real bot over the wire: the move's own post, the sweep of
missing boards and a player's re-show never double a version's board. Boards are counted as Discord created them:
each posted picture is named after its game and version (``azul-<game>-<version>.png``)."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_crash import started
from tests.bot.test_reliability import running, until

SETTLE = 30.0  # seconds: a guard against a hang, never a measure


def boards(server: FakeDiscord) -> Counter[str]:
    """How many boards Discord created for each game's version (a post with a repeated nonce creates none)."""
    return Counter(name for posts in server.posted.values() for post in posts for name in post.files)


def doubled(server: FakeDiscord) -> dict[str, int]:
    return {name: count for name, count in boards(server).items() if count > 1}


async def test_the_sweep_meeting_a_moves_own_post_leaves_it(
    discord_server: FakeDiscord, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep lists the games without a board; the move's own board is recorded before the sweep reads the game
    again: the sweep leaves it (it used to take it for a re-show and post it again, with a random nonce)."""
    await wire.prepare_games(db_path, 1)
    async with running(discord_server, db_path) as bot:
        await until(lambda: all(g.board_version >= 0 for g in wire.read_games(db_path)), "the opening board")
        games = bot.service.store.games
        listed, recorded = asyncio.Event(), asyncio.Event()
        listing, recording = games.without_board, games.set_board

        async def without_board() -> list[int]:
            found = await listing()
            if found and not listed.is_set():
                listed.set()
                await asyncio.wait_for(recorded.wait(), SETTLE)  # the move's board lands before the game is read
            return found

        async def set_board(*args: Any, **kwargs: Any) -> tuple[bool, int | None]:
            await asyncio.wait_for(listed.wait(), SETTLE)  # the sweep has listed the game before its board lands
            try:
                return await recording(*args, **kwargs)
            finally:
                recorded.set()

        monkeypatch.setattr(games, "without_board", without_board)
        monkeypatch.setattr(games, "set_board", set_board)
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        interaction = await wire.send_move(discord_server, game, user, move)
        await until(lambda: wire.game_in(db_path, wire.FIRST_CHANNEL).version == 1, "the move saved")
        swept = await asyncio.wait_for(bot.post_missing_boards(), SETTLE)
        assert wire.played(await wire.answer(discord_server, interaction, SETTLE))
        assert swept == 0, "the sweep posted a board the move had posted"
        assert boards(discord_server)[f"azul-{game.id}-1.png"] == 1, boards(discord_server)


async def test_a_reshow_is_its_own_message_and_leaves_the_boards_post(
    discord_server: FakeDiscord, db_path: str
) -> None:
    """``/azul board public`` while a version's board is still owed (its post failed) shows the board again without
    taking the owed board's place: the sweep still posts it, once, with its ping; a re-show after it doubles nothing
    automatic either."""
    await wire.prepare_games(db_path, 1)
    async with running(discord_server, db_path) as bot:
        await until(lambda: all(g.board_version >= 0 for g in wire.read_games(db_path)), "the opening board")
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        discord_server.forbid_posts = 1  # the move's own board is refused
        await wire.answer(discord_server, await wire.send_move(discord_server, game, user, move), SETTLE)
        assert wire.game_in(db_path, wire.FIRST_CHANNEL).board_version == 0, "the move's board is owed"
        public = [{"name": "public", "type": 5, "value": True}]
        asked = {"id": "1", "name": "azul", "type": 1, "options": [{"name": "board", "type": 1, "options": public}]}
        shown = await discord_server.interaction(
            2, asked, guild_id=wire.GUILD, channel_id=game.channel, user_id=user, locale="en-US"
        )
        assert await wire.answer(discord_server, shown, SETTLE) == "The board is posted."
        assert boards(discord_server)[f"azul-{game.id}-1.png"] == 1, "the re-show went out"
        assert wire.game_in(db_path, wire.FIRST_CHANNEL).board_version == 0, "a re-show is not the owed board"
        assert await bot.post_missing_boards() == 1
        after = wire.game_in(db_path, wire.FIRST_CHANNEL)
        assert after.board_version == 1
        owed = discord_server.posted[str(game.channel)][-1]
        assert f"<@{after.users[1]}>" in owed.json["content"], "the owed board pings whoever must move"
        assert await bot.post_missing_boards() == 0


GAMES = 12
LEASE_SECONDS = 3
STEADY_SECONDS = 40.0
"""Long enough for the sweep (every lease) to meet moves' own posts many times over."""


async def play_steadily(server: FakeDiscord, db: str, channel: int, until_time: float, rng: random.Random) -> int:
    """Moves in one game, each sent when the previous one was answered (after a short, random pause)."""
    played = 0
    while time.monotonic() < until_time:
        game = await asyncio.to_thread(wire.game_in, db, channel)
        moves = wire.moves_now(game)
        if not moves:
            return played
        user, move = moves[0]
        said = await wire.answer(server, await wire.send_move(server, game, user, move), SETTLE)
        played += wire.played(said)
        await asyncio.sleep(rng.uniform(0.0, 0.3))
    return played


@pytest.mark.slow
async def test_steady_moves_at_short_leases_double_no_board(
    discord_server: FakeDiscord, db_path: str, tmp_path: Path
) -> None:
    """Twelve games at 3 s leases, moves arriving steadily and no kills: every version's board goes out once."""
    await wire.prepare_games(db_path, GAMES)
    log = tmp_path / "bot.log"
    process = await started(discord_server, db_path, log, lease_seconds=LEASE_SECONDS)
    try:
        rng = random.Random(36)
        end = time.monotonic() + STEADY_SECONDS
        played = await asyncio.gather(
            *(play_steadily(discord_server, db_path, wire.FIRST_CHANNEL + g, end, rng) for g in range(GAMES))
        )
        await until(
            lambda: all(g.board_version == g.version for g in wire.read_games(db_path) if g.status == "active"),
            "every newest board",
        )
    finally:
        process.terminate()
        await asyncio.to_thread(process.wait, SETTLE)
    print(f"{sum(played)} moves in {GAMES} games, {sum(boards(discord_server).values())} boards")
    assert sum(played) >= GAMES * 5, "moves kept arriving"
    assert not doubled(discord_server), doubled(discord_server)
