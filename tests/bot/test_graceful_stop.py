"""A graceful stop finishes what it acknowledged, through the real bot process over the wire: SIGTERMs while moves
keep arriving leave no saved move unanswered and no answer untrue (a saved move is never told it was not saved, an
unsaved one never told it was played), and no handler runs after the HTTP session and the store are closed (the
log holds no error)."""

from __future__ import annotations

import asyncio
import random
import signal
from collections import Counter
from pathlib import Path

import pytest

from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_crash import started
from tests.bot.test_reliability import running, until

GAMES = 6
STOPS = 6
SEED = 36
SETTLE = 30.0
NOT_SAVED = "was not saved"
"""In the stop's answer to a move it cut off before saving it (``bot.stop.cut_not_saved``)."""


async def play(server: FakeDiscord, db: str, channel: int, sent: list[str], stop: asyncio.Event) -> None:
    """Moves in one game, one after another: each waits for its answer (or for a few seconds, as a player whose
    move met a stopping bot gives up waiting and plays again)."""
    while not stop.is_set():
        game = await asyncio.to_thread(wire.game_in, db, channel)
        moves = wire.moves_now(game)
        if not moves:
            return
        user, move = moves[0]
        interaction = await wire.send_move(server, game, user, move)
        sent.append(interaction)
        await wire.answer(server, interaction, 4.0)


@pytest.mark.slow  # real bot processes, stopped and started again
async def test_sigterms_under_load_leave_no_saved_move_unanswered(
    discord_server: FakeDiscord, db_path: str, tmp_path: Path
) -> None:
    await wire.prepare_games(db_path, GAMES)
    log = tmp_path / "bot.log"
    rng = random.Random(SEED)
    sent: list[str] = []
    stop = asyncio.Event()
    process = await started(discord_server, db_path, log)
    players = [
        asyncio.create_task(play(discord_server, db_path, wire.FIRST_CHANNEL + g, sent, stop)) for g in range(GAMES)
    ]
    codes = []
    try:
        for _ in range(STOPS):
            answered = sum(1 for i in sent if discord_server.answers[i].texts)
            for _ in range(600):  # each process answers something first (a busy machine starts it slowly)
                if sum(1 for i in sent if discord_server.answers[i].texts) > answered:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(rng.uniform(0.1, 1.0))
            process.send_signal(signal.SIGTERM)
            codes.append(await asyncio.to_thread(process.wait, SETTLE))
            process = await started(discord_server, db_path, log)
        await asyncio.sleep(1.0)
    finally:
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
        process.send_signal(signal.SIGTERM)
        codes.append(await asyncio.to_thread(process.wait, SETTLE))

    saved = set()
    for game in wire.read_games(db_path):
        saved |= {str(i) for _, _, i in wire.moves_of(db_path, game.id) if i is not None}
    unanswered = [i for i in saved if not discord_server.answers[i].texts]
    told_unsaved = [i for i in saved if any(NOT_SAVED in t for t in discord_server.answers[i].texts)]
    told_played = [i for i in sent if i not in saved and any(wire.played(t) for t in discord_server.answers[i].texts)]
    written = log.read_text()
    errors = [line for line in written.splitlines() if " ERROR " in line or line.startswith("Traceback")]
    restarting = Counter(
        text.split(".")[0] for i in sent for text in discord_server.answers[i].texts if "restarting" in text
    )
    print(f"{STOPS} stops, {len(sent)} moves sent, {len(saved)} saved; exit codes {codes}; told {dict(restarting)}")
    assert codes == [0] * (STOPS + 1), written[-3000:]
    assert len(saved) >= STOPS, "moves kept landing between the stops"
    assert not unanswered, f"saved moves never answered: {unanswered}"
    assert not told_unsaved and not told_played, (told_unsaved, told_played)
    assert not errors, "\n".join(errors[:20])


@pytest.mark.parametrize("saved", [True, False])
async def test_a_move_cut_off_by_the_stop_is_told_whether_it_was_saved(
    discord_server: FakeDiscord, db_path: str, monkeypatch: pytest.MonkeyPatch, saved: bool
) -> None:
    """A move whose handler outlasts the stop's grace (its board's picture, or its save, hangs) is cut off, and its
    player is told the truth: saved and standing, or not saved."""
    import bot.client

    monkeypatch.setattr(bot.client, "STOP_GRACE_SECONDS", 0.5)
    await wire.prepare_games(db_path, 1)
    hanging = asyncio.Event()
    async with running(discord_server, db_path) as azul:
        await until(lambda: all(g.board_version >= 0 for g in wire.read_games(db_path)), "the opening board")
        where, name = (azul.pictures, "draw") if saved else (azul.service.store.moves, "record_moves")

        async def hang(*args: object, **kwargs: object) -> None:
            hanging.set()
            await asyncio.sleep(3600)

        monkeypatch.setattr(where, name, hang)
        game = wire.game_in(db_path, wire.FIRST_CHANNEL)
        ((user, move),) = wire.moves_now(game)
        interaction = await wire.send_move(discord_server, game, user, move)
        await asyncio.wait_for(hanging.wait(), SETTLE)
    said = discord_server.answers[interaction].texts
    assert said and said[-1].startswith("🔄 The bot is restarting"), said
    assert ("Your move is saved" in said[-1]) is saved and (NOT_SAVED in said[-1]) is not saved, said
    assert (wire.game_in(db_path, wire.FIRST_CHANNEL).version == 1) is saved
