"""``python -m bench abuse``: the slowest first answer of the real bot under abuse, over the wire.

Discord drops an interaction not answered (or deferred) within 3 s (``10062 Unknown interaction``), and the fake
Discord on localhost refuses such a late answer as Discord does. A fresh bot process (``python -m bot``) serves
``--games`` started games of four seats, one person and three hard computer players, whose computers are all
thinking when it starts, and ``--people`` two-person games; one player a game keeps asking: their move when it is
their turn, else ``/azul board`` (a picture drawn for them alone) or ``/azul status``, one after another without a
pause. A few seconds in,
``--clicks`` people press Animation under finished four-player games at the same moment (whole games drawn as GIFs),
while the picture pool (``--picture-workers``) draws every board the computers' moves post.

Printed per kind of interaction: how many, the first answer's p50, p99 and slowest (interaction sent → its first
answer received by Discord), how many Discord refused as late, and how many got no answer; then the slowest first
answer of all, which must stay under 3 s, and the longest the bot's event loop was blocked. Timings depend on how
busy the machine is: run it on a quiet one, or read them with that in mind.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import random
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bench.bot import percentile
from bench.load import fresh_database, longest_block, start_bot
from engine.agents import GreedyAgent

FIRST_ANSWER_SECONDS = 3.0
FINISHED_CHANNEL = 9000
"""Channels of the finished games whose Animation buttons are pressed (the live games' start at FIRST_CHANNEL)."""
PEOPLES_CHANNEL = 8000
"""Channels of the two-person games, whose players move one after the other."""


@dataclass
class Asked:
    """The interactions sent, by kind (``move``, ``board``, ``status``, ``animation``)."""

    sent: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, interaction: str) -> None:
        self.sent.setdefault(kind, []).append(interaction)


async def prepare(db: str, games: int, finished: int, people: int) -> None:
    """``games`` started games whose three hard computer seats think from the start (their person moved first),
    ``finished`` four-player games played to the end, whose final boards are owed (the bot posts them), and
    ``people`` started two-person games."""
    from bot.app.service import GameService
    from bot.infra.store import Store
    from bot.infra.store.timers import board_work
    from tests.bot import wire_games as wire

    store = await Store.open(db)
    service = GameService(store, itertools.count(1).__next__)
    try:
        for index in range(games):
            channel, user = wire.FIRST_CHANNEL + index, wire.FIRST_USER + index
            await service.seating.create(
                guild_id=wire.GUILD, channel_id=channel, user_id=user, name=f"p{user}", variant="azul", seats=4,
                order="joined",
            )  # fmt: skip
            for _ in range(3):
                await service.seating.add_computer(channel, user, "hard", is_admin=False)
            _, state = await service.seating.start(channel, user, is_admin=False)
            first = engine.legal_moves(state, 0)[0]
            await service.turns.move(channel, user, first.command, dict(first.choices()))
        for index in range(people):
            channel, users = PEOPLES_CHANNEL + index, [wire.FIRST_USER + 2000 + 2 * index + n for n in range(2)]
            await service.seating.create(
                guild_id=wire.GUILD, channel_id=channel, user_id=users[0], name="a", variant="azul", seats=2,
                order="joined",
            )  # fmt: skip
            await service.seating.join(channel, users[1], "b")
            await service.seating.start(channel, users[0], is_admin=False)
        agent = GreedyAgent(3)
        for index in range(finished):
            channel = FINISHED_CHANNEL + index
            users = [wire.FIRST_USER + 1000 + 4 * index + n for n in range(4)]
            await service.seating.create(
                guild_id=wire.GUILD, channel_id=channel, user_id=users[0], name="a", variant="azul", seats=4,
                order="joined",
            )  # fmt: skip
            for n, user in enumerate(users[1:]):
                await service.seating.join(channel, user, "bcd"[n])
            game, state = await service.seating.start(channel, users[0], is_admin=False)
            while engine.to_act(state):
                seat = min(engine.to_act(state))
                move = agent.choose(engine.variant_of(state), state, seat)
                await service.turns.move(channel, users[seat], move.command, dict(move.choices()))
                state = service.tables.state_of(await store.games.game(game.id) or game)
            over = await store.games.game(game.id)
            assert over is not None and over.status == "over"
            await store.games.set_board(over.id, 1, over.version - 1)  # its final board is owed: the bot posts it
            # This setup's moves claimed their boards for it, as a bot's own moves do: let the bot have them now.
            await service.claims.release(board_work(over.id, over.version))
    finally:
        await store.close()


async def keep_asking(server: Any, games: Any, channel: int, asked: Asked, *, until: float, rng: random.Random) -> None:
    """One game's person: their move when it is their turn, else a look at the board or the status; their game read
    through the reader ``games`` (:class:`tests.bot.wire_games.Reader`) before each."""
    from tests.bot import wire_games as wire

    while time.monotonic() < until:
        game = await asyncio.to_thread(games.game_in, channel)
        mine = [(user, move) for user, move in wire.moves_now(game) if user is not None]
        if mine:
            user, move = mine[0]
            kind, interaction = "move", await wire.send_move(server, game, user, move)
        else:
            kind = rng.choice(("board", "status"))
            user = next(user for user in game.users if user is not None)
            interaction = await server.slash(
                guild_id=wire.GUILD, channel_id=channel, user_id=user, command="azul", sub=kind, locale="en-US"
            )
        asked.add(kind, interaction)
        await wire.answer(server, interaction, 30)


async def press_animation(server: Any, db: str, finished: int, clicks: int, asked: Asked) -> None:
    """``clicks`` people press Animation at the same moment, spread over the finished games."""
    from tests.bot import wire_games as wire

    buttons = []
    for index in range(finished):
        channel = str(FINISHED_CHANNEL + index)
        summaries = [m for m in server.messages.values() if m["channel_id"] == channel and m["components"]]
        for message in summaries[-1:]:  # the final board, with its Replay, Animation and Rematch buttons
            ids = [c.get("custom_id", "") for row in message["components"] for c in row["components"]]
            buttons += [(message["id"], i) for i in ids if i.endswith(":animation")]
    if not buttons:
        raise RuntimeError("no Animation button was posted")
    presses = [
        server.click(guild_id=wire.GUILD, user_id=wire.FIRST_USER + 5000 + n, message_id=message, custom_id=button)
        for n, (message, button) in zip(range(clicks), itertools.cycle(buttons), strict=False)
    ]
    for interaction in await asyncio.gather(*presses):
        asked.add("animation", interaction)


async def owed_boards_posted(db: str) -> None:
    from tests.bot import wire_games as wire

    for _ in range(2400):
        games = await asyncio.to_thread(wire.read_games, db)
        if all(game.board_version >= game.version for game in games if game.channel >= FINISHED_CHANNEL):
            return
        await asyncio.sleep(0.05)
    raise RuntimeError("the finished games' final boards were not posted")


async def measure(args: argparse.Namespace) -> tuple[Asked, Any, float]:
    from tests.bot import wire_games as wire
    from tests.bot.fake_discord import FakeDiscord

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        db = fresh_database(args.db, folder)
        await prepare(db, args.games, args.finished, args.people)
        server = FakeDiscord()
        await server.start()
        bot = await start_bot(server, db, folder, 0, 1, pictures=args.picture_workers)
        reader = wire.Reader(db)
        try:
            await owed_boards_posted(db)
            asked, rng, since = Asked(), random.Random(36), time.time()
            until = time.monotonic() + args.seconds
            people = [
                keep_asking(server, reader, wire.FIRST_CHANNEL + g, asked, until=until, rng=random.Random(rng.random()))
                for g in range(args.games)
            ] + [
                keep_asking(server, reader, PEOPLES_CHANNEL + g, asked, until=until, rng=random.Random(rng.random()))
                for g in range(args.people)
            ]

            async def animations() -> None:
                await asyncio.sleep(min(3.0, args.seconds / 4))
                await press_animation(server, db, args.finished, args.clicks, asked)

            await asyncio.gather(*people, animations())
            for interaction in asked.sent.get("animation", []):  # every click answered, or refused, before the end
                await wire.answer(server, interaction, 60)
            await asyncio.sleep(0.6)  # the loop watchdog's last report
            blocked = longest_block(folder / "loop-block", since)
        finally:
            reader.close()
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 30)
            await server.stop()
    return asked, server, blocked


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench abuse", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25, help="started games, three hard computers each (25)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the players keep asking (60)")
    parser.add_argument("--clicks", type=int, default=6, help="Animation presses at one moment (6)")
    parser.add_argument("--finished", type=int, default=2, help="finished games whose Animation is pressed (2)")
    parser.add_argument("--people", type=int, default=5, help="two-person games, moving steadily (5)")
    parser.add_argument("--picture-workers", type=int, default=1, help="the bot's AZUL_PICTURE_WORKERS (1)")
    parser.add_argument("--db", default=None, help="sqlite (a fresh file, the default) or postgresql://…")
    args = parser.parse_args(argv)
    asked, server, blocked = asyncio.run(measure(args))
    print(
        f"{args.games} games x 3 hard computer seats, {args.clicks} Animation presses on {args.finished} finished"
        f" games, {args.people} two-person games, {args.picture_workers} picture worker(s), {args.seconds:g} s"
    )
    print(f"{'kind':<10} {'sent':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'late':>5} {'no answer':>9}")
    slowest = 0.0
    for kind, sent in sorted(asked.sent.items()):
        answers = [server.answers[i] for i in sent]
        firsts = [(a.first - a.sent) * 1000 for a in answers if a.first is not None] or [float("nan")]
        late = sum(1 for i in sent if i in server.late)
        silent = sum(1 for a in answers if a.first is None and not a.texts)
        slowest = max(slowest, *(f for f in firsts if not math.isnan(f)))
        print(
            f"{kind:<10} {len(sent):>5} {percentile(firsts, 0.5):>7.0f} {percentile(firsts, 0.99):>7.0f}"
            f" {max(firsts):>7.0f} {late:>5} {silent:>9}"
        )
    refused = len(server.late)
    verdict = "under" if slowest < FIRST_ANSWER_SECONDS * 1000 and not refused else "NOT under"
    print(f"slowest first answer: {slowest:.0f} ms ({verdict} Discord's 3 s; {refused} refused as late)")
    print(f"longest event-loop block: {blocked * 1000:.0f} ms")
    return 0 if verdict == "under" else 1
