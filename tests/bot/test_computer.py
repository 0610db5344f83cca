"""Computer seats through the real bot: their turns are played promptly, logged like a person's, never pinged, and
resumed after a restart."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from typing import Any

import pytest

import engine
from bot.app.computer import Computer, move_seed
from bot.app.turns import COMPUTER_CAUSES
from bot.games.azul import ADAPTER
from bot.infra.clock import ManualClock, iso
from bot.infra.pools import FairQueue
from bot.infra.store import GameRow
from bot.infra.store.moves import SEAT_CAUSES
from tests.bot.conftest import COMPUTER_BUDGET
from tests.bot.table import Table, mentions

# A person's move settles once the computer seats after it have moved and been posted: on a loaded machine a chain
# of searches and pictures outlasts SimCord's default five seconds.
pytestmark = pytest.mark.simcord(settle_timeout=120)


async def open_with_computers(table: Table, levels: list[str], variant: str = "azul") -> GameRow:
    """Alice opens a game for herself and computers of ``levels`` (through the service) and starts it."""
    alice = table.players[0]
    await alice.slash(table.channel, "azul new", variant=variant, seats=1 + len(levels), order="random")
    lobby = table.channel.last_message
    for level in levels:
        await table.bot.service.seating.add_computer(table.channel.id, alice.id, level, is_admin=False)
    started = await alice.click(lobby, label="Start")
    assert started.ephemeral, started
    return await table.game()


async def play(table: Table, member: Any, move: engine.Move) -> None:
    """A person's move by slash command; the computer seats' answers follow before the command settles."""
    version = (await table.game()).version
    result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    assert result.ephemeral and result.response.content.startswith("Played"), result.response.content
    assert (await table.game()).version > version


async def play_human_moves_to_the_end(table: Table) -> int:
    """Alice plays (greedily) whenever she must; the computer seats play on their own. Her move count."""
    alice = table.players[0]
    for sent in range(400):
        game, state = await table.state()
        if game.status != "active":
            return sent
        seat = game.seat_of(alice.id)
        assert seat in engine.to_act(state), "a computer seat was left waiting"
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_one_person_and_three_computers_play_to_the_end(simcord_env) -> None:
    """Seats given by the lobby's buttons and by ``/azul seat``; only Alice's moves are sent."""
    table = Table.create(simcord_env, 1)
    alice = table.players[0]
    await alice.slash(table.channel, "azul new", variant="azul", seats=4, order="random")
    lobby = table.channel.last_message
    for label in ("Computer: easy", "Computer: medium"):
        added = await alice.click(lobby, label=label)
        assert added.ephemeral and "has a seat now" in added.response.content, added.response.content
    added = await alice.slash(table.channel, "azul seat", level="hard")
    assert added.ephemeral and "(4/4)" in added.response.content, added.response.content
    lobby_text = table.channel.last_message.content if table.channel.last_message else ""
    status = await alice.slash(table.channel, "azul status")
    for name in ("🤖 Computer 1 (easy)", "🤖 Computer 2 (medium)", "🤖 Computer 3 (hard)"):
        assert name in status.response.content, status.response.content
    assert "alice" in lobby_text
    started = await alice.click(lobby, label="Start")
    assert started.ephemeral, started
    game = await table.game()
    assert sorted(seat.level or "" for seat in game.seats) == ["", "easy", "hard", "medium"]
    sent = await play_human_moves_to_the_end(table)
    game = await table.game()
    assert game.status == "over"
    moves = await table.bot.service.store.moves.moves(game.id)
    mine = game.seat_of(alice.id)
    assert sent == sum(1 for seat, _ in moves if seat == mine), "only Alice's moves were sent"
    assert any(seat != mine for seat, _ in moves)
    assert await table.bot.service.tables.replayed(game) == engine.from_json(game.state or {})
    for name in ("🤖 Computer 1 (easy)", "🤖 Computer 2 (medium)", "🤖 Computer 3 (hard)"):
        posts = [message for message in table.channel.history() if message.content.startswith(name)]
        assert posts, f"{name}'s moves are posted with its name and level"
    for message in table.channel.history():
        assert set(mentions(message.content)) <= {alice.id}, "only people are ever pinged"


async def test_restart_while_the_computer_thinks_resumes_its_turn(simcord_env, make_bot) -> None:
    """The first bot is stopped in the middle of the computer's search; the next one plays the same move, once."""
    thinking = asyncio.Event()

    class Stuck(Computer):
        async def choose(self, *args: Any, **kwargs: Any) -> engine.Move:
            thinking.set()
            # A search that has not finished when the bot stops.
            await simcord_env.external_wait(asyncio.Event().wait(), reason="the computer is thinking")
            raise AssertionError("unreachable")

    table = Table.create(simcord_env, 1)
    table.bot.service.turns.computer = Stuck(1, COMPUTER_BUDGET)
    game = await open_with_computers(table, ["medium"])
    alice = table.players[0]
    game, state = await table.state()
    if game.seat_of(alice.id) in engine.to_act(state):
        seat = game.seat_of(alice.id) or 0
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, seat))
    await asyncio.wait_for(thinking.wait(), 10)
    before = await table.game()
    assert before.seat_of(alice.id) not in engine.to_act(engine.from_json(before.state or {}))

    await simcord_env.restart_bot(make_bot())
    await simcord_env.settle()

    after = await table.game()
    assert after.version == before.version + 1, "the interrupted turn was played once after the restart"
    moves = await table.bot.service.store.moves.moves(after.id)
    assert len(moves) == after.version
    # The same move the computer would have played without the restart.
    plain = Computer(1, COMPUTER_BUDGET)
    plain.start()
    try:
        state = engine.from_json(before.state or {})
        seat = min(engine.to_act(state))
        expected = await plain.choose(state, seat, "medium", move_seed(before.seed, before.version, seat))
    finally:
        await plain.close()
    assert moves[before.version] == (seat, str(expected))


class HeldComputer(Computer):
    """A computer whose every search waits until the test lets it go (``go``); ``thinking`` tells it has begun."""

    def __init__(self, env: Any) -> None:
        super().__init__(1, COMPUTER_BUDGET)
        self.env, self.thinking, self.go = env, asyncio.Event(), asyncio.Event()

    async def choose(self, *args: Any, **kwargs: Any) -> engine.Move:
        self.thinking.set()
        await self.env.external_wait(self.go.wait(), reason="the computer is thinking")
        return await super().choose(*args, **kwargs)


@pytest.mark.slow  # the held search keeps the table from settling after alice's move: it waits out a settle timeout
async def test_the_computer_turns_lease_outlasts_a_long_search(simcord_env, clock: ManualClock) -> None:
    """A search may take ten times a 30 s thinking time on a busy host, far beyond the lease on the game's computer
    turns: the lease is renewed while the search runs, so no other bot process takes the turn over meanwhile."""
    table = Table.create(simcord_env, 1)
    service = table.bot.service
    computer = HeldComputer(simcord_env)
    thinking, go = computer.thinking, computer.go
    computer.start()
    service.turns.computer = computer
    service.claims.lease = timedelta(seconds=3)  # shorter than a hard move may take: renewed every second
    renewals: list[datetime] = []
    claim = service.claims.claim

    async def recording(work: str, lease: timedelta) -> bool:
        held = await claim(work, lease)
        renewals.append(clock.now())
        return held

    service.claims.claim = recording  # type: ignore[method-assign]
    try:
        # Once the computer's search is held, its lease renewals keep the table busy, so whatever starts it settles
        # only at the deadline: a short one (a move and its board need a few seconds), not the module's 120 s.
        simcord_env.settle_timeout, usual = 20, simcord_env.settle_timeout
        game = await open_with_computers(table, ["hard"])
        alice = table.players[0]
        game, state = await table.state()
        if game.seat_of(alice.id) in engine.to_act(state):
            await play(table, alice, table.agent.choose(engine.variant_of(state), state, game.seat_of(alice.id) or 0))
        simcord_env.settle_timeout = usual
        await asyncio.wait_for(thinking.wait(), 30)
        before = await table.game()
        later = clock.advance(minutes=10)  # five leases of two minutes, two hundred of the operator's
        for _ in range(300):
            if renewals and renewals[-1] >= later:
                break
            await asyncio.sleep(0.1)
        assert renewals and renewals[-1] >= later, "the lease was renewed during the search"
        taken = await service.store.timers.claim(f"computer:{game.id}", "another process", iso(later), iso(later))
        assert not taken, "no other process takes the computer's turn while its search runs"
        go.set()
        await simcord_env.settle()
        after = await table.game()
        assert after.version > before.version and len(await service.store.moves.moves(game.id)) == after.version
    finally:
        await computer.close()


async def test_a_seat_taken_back_during_the_computers_search_gets_no_move_from_it(simcord_env) -> None:
    """Bob takes back the seat the computer plays for him while it searches: its move is not saved (it would land
    after "Bob takes the seat back" and take his turn), and Bob plays his own turn."""
    assert set(COMPUTER_CAUSES) > SEAT_CAUSES, "the store checks the causes the service gives"
    table = Table.create(simcord_env, 2)
    service = table.bot.service
    computer = HeldComputer(simcord_env)
    computer.start()
    service.turns.computer = computer
    try:
        await table.open("azul")
        game, state = await table.state()
        alice_seat = min(engine.to_act(state))
        alice, bob = table.member(game, alice_seat), table.member(game, 1 - alice_seat)
        assert await service.store.games.set_controller(game.id, 1 - alice_seat, "hard")  # as after 3 timeouts
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, alice_seat))
        await asyncio.wait_for(computer.thinking.wait(), 30)
        searched = await table.game()

        back = await bob.slash(table.channel, "azul seat")
        assert back.ephemeral and back.response.content.startswith("Your seat is yours again"), back.response
        computer.go.set()
        await simcord_env.settle()

        game, state = await table.state()
        assert game.version == searched.version, "the search's move was not saved"
        assert 1 - alice_seat in engine.to_act(state) and not game.computer_seats()
        assert "takes the seat back" in table.channel.last_message.content, "no computer post after it"
        await table.play_by_slash(bob, table.agent.choose(engine.variant_of(state), state, 1 - alice_seat))
        assert (await table.game()).version == searched.version + 1
    finally:
        await computer.close()


async def test_seats_of_an_older_database_keep_their_people(tmp_path) -> None:
    """Migration 5 rebuilds the seats table: the people of games started before it keep their seats."""
    import aiosqlite

    from bot.infra.store import MIGRATIONS, Store

    path = str(tmp_path / "old.sqlite3")
    async with aiosqlite.connect(path) as db:
        for number, script in enumerate(MIGRATIONS[:4], start=1):
            await db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
        await db.execute(
            "INSERT INTO games (id, channel_id, creator_id, variant, seed, max_seats, status, created_at, turn_since)"
            " VALUES (1, 9, 100, 'azul', 5, 2, 'active', 'x', 'x')"
        )
        await db.execute("INSERT INTO seats VALUES (1, 100, 'alice', 0, 1), (1, 200, 'bob', 1, 0)")
        await db.commit()
    store = await Store.open(path)
    try:
        game = await store.games.game(1)
        assert game is not None
        assert [(s.user_id, s.name, s.seat, s.level) for s in game.by_seat()] == [
            (200, "bob", 0, None),
            (100, "alice", 1, None),
        ]
        assert await store.games.set_controller(1, 0, "hard")
        assert (await store.games.game(1)).computer_seats() == [0]  # type: ignore[union-attr]
        assert await store.games.set_controller(1, 0, None)
        assert not await store.games.set_controller(1, 0, None), "nothing to give back"
    finally:
        await store.close()


REFUSALS = {
    "full": {
        "en": "This game is full.",
        "pl": "Wszystkie miejsca w tej grze są zajęte.",
        "uk": "Усі місця в цій грі зайняті.",
    },
    "not_creator": {
        "en": "Only the player who opened the game",
        "pl": "Miejsce komputerowi może dać tylko osoba",
        "uk": "Віддати місце комп'ютеру може лише той",
    },
    "hints_off": {
        "en": "Hints are off in this game",
        "pl": "W tej grze podpowiedzi są wyłączone",
        "uk": "У цій грі підказки вимкнено",
    },
    "not_your_turn": {"en": "It is not your turn.", "pl": "Teraz nie twoja tura.", "uk": "Зараз не твій хід."},
}


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
async def test_refusals_of_computer_seats_and_hints(simcord_env, discord_locales, lang: str) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    discord_locales[alice.id] = discord_locales[bob.id] = lang
    await alice.slash(table.channel, "azul new", variant="azul", seats=3, order="joined")
    lobby = table.channel.last_message
    refused = await bob.click(lobby, label="Computer: easy")
    assert refused.ephemeral and REFUSALS["not_creator"][lang] in refused.response.content, refused.response.content
    await bob.slash(table.channel, "azul join")
    await alice.slash(table.channel, "azul seat", level="medium")
    game = await table.game()
    refused = await alice.slash(table.channel, "azul seat", level="hard")
    assert refused.ephemeral and REFUSALS["full"][lang] in refused.response.content, refused.response.content
    assert (await table.game()).seats == game.seats, "a refusal changes nothing"
    await alice.click(lobby, label="Start")
    game, state = await table.state()
    for member in (alice, bob):
        refused = await member.slash(table.channel, "azul hint")
        assert refused.ephemeral and REFUSALS["hints_off"][lang] in refused.response.content

    # A second game, with hints on: only the player whose turn it is may ask.
    await table.confirmed(alice, "abort")
    await alice.slash(table.channel, "azul new", variant="azul", seats=2, order="joined", hints=True)
    await bob.slash(table.channel, "azul join")
    lobby = next(m for m in reversed(table.channel.history()) if m.components)
    await alice.click(lobby, label="Start")
    game, state = await table.state()
    waiting = table.member(game, 1 - min(engine.to_act(state)))
    refused = await waiting.slash(table.channel, "azul hint")
    assert refused.ephemeral and REFUSALS["not_your_turn"][lang] in refused.response.content
    assert (await table.game()).version == game.version


async def test_hint_shows_the_strong_move_privately(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=2, order="joined", hints=True)
    lobby = table.channel.last_message
    assert "Hints are on" in lobby.content
    await bob.slash(table.channel, "azul join")
    await alice.click(lobby, label="Start")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    member = table.member(game, seat)
    posts = len(table.channel.history())
    answer = await member.slash(table.channel, "azul hint")
    assert answer.ephemeral, answer
    said = answer.response.content
    assert said.startswith("The strongest computer player would play this — **take "), said
    notation = said.split("(`")[1].split("`)")[0]
    move = engine.parse_move("azul", notation)
    assert move in engine.legal_moves(state, seat)
    confirm = ADAPTER.confirm(state, seat, move.command, dict(move.choices()), "en")
    assert f"**{confirm[0].lower()}{confirm[1:-1]}**" in said, "the move as the confirm's sentence, not glued labels"
    assert "• it " in said, "at least one reason in words"
    assert len(table.channel.history()) == posts and (await table.game()).version == game.version


@pytest.mark.slow
@pytest.mark.parametrize("variant", engine.variant_names())
async def test_a_computer_plays_every_variant_to_the_end(simcord_env, variant: str) -> None:
    """Including simultaneous phases (the grey wall's columns), where the computer acts for itself beside Alice."""
    table = Table.create(simcord_env, 1)
    await open_with_computers(table, ["hard"], variant)
    sent = await play_human_moves_to_the_end(table)
    game = await table.game()
    moves = await table.bot.service.store.moves.moves(game.id)
    mine = game.seat_of(table.players[0].id)
    assert game.status == "over" and sent == sum(1 for seat, _ in moves if seat == mine)
    assert await table.bot.service.tables.replayed(game) == engine.from_json(game.state or {})


async def test_a_search_process_that_dies_is_replaced() -> None:
    computer = Computer(1, COMPUTER_BUDGET)
    computer.start()
    try:
        with pytest.raises(BrokenProcessPool):
            await computer.pool.run(os._exit, 3)  # dies in both attempts
        state = engine.new_game("azul", 2, 5)
        seat = min(engine.to_act(state))
        assert await computer.choose(state, seat, "easy", 1) in engine.legal_moves(state, seat)
    finally:
        await computer.close()


async def test_a_seat_handed_to_the_computer_is_played_for_its_person_and_can_be_taken_back(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    alice, bob = table.players
    game, state = await table.state()
    bob_seat = game.seat_of(bob.id)
    assert bob_seat is not None
    await table.bot.service.stand_ins.set_controller(game.id, bob_seat, "hard")
    if bob_seat in engine.to_act(state):
        table.bot.wake_computer(game.id)
        await simcord_env.settle()
    line = "bob 🤖: the computer (hard) is playing for you."
    for _ in range(3):  # Alice moves; the computer answers for Bob at once, without pinging him
        game, state = await table.state()
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, game.seat_of(alice.id) or 0))
        assert bob.id not in mentions(table.channel.last_message.content)
    said = [post.content for post in table.channel.history() if line in post.content]
    assert len(said) == 1, "said once per take-over, not on each of its moves"
    game = await table.game()
    await table.bot.service.stand_ins.set_controller(game.id, bob_seat, None)
    game, state = await table.state()
    await play(table, alice, table.agent.choose(engine.variant_of(state), state, game.seat_of(alice.id) or 0))
    assert bob.id in mentions(table.channel.last_message.content), "Bob plays his seat again"
    moves = await table.bot.service.store.moves.moves(game.id)
    assert len(moves) == (await table.game()).version
    game, state = await table.state()
    assert bob_seat in engine.to_act(state)  # he was pinged: he moves himself once, then hands the seat over again
    await play(table, bob, table.agent.choose(engine.variant_of(state), state, bob_seat))
    await table.bot.service.stand_ins.set_controller(game.id, bob_seat, "hard")
    for _ in range(2):
        game, state = await table.state()
        if bob_seat in engine.to_act(state):
            table.bot.wake_computer(game.id)
            await simcord_env.settle()
            continue
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, game.seat_of(alice.id) or 0))
    said = [post.content for post in table.channel.history() if line in post.content]
    assert len(said) == 2, "a new take-over is said again"


async def test_a_game_never_waits_behind_another_games_queue(simcord_env) -> None:
    """Searches wait for the one search worker first in, first out within a game, round robin across a member's
    games and round robin across the members who opened them: a game with many searches queued lets the other
    games through after its first, and a member's game does not wait for every game another member opened. An easy
    computer's turn takes the quick lane: it is played while every search waits."""
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    busy = await open_with_computers(table, ["hard"])
    quiet_table = Table(simcord_env, table.guild, table.guild.create_text_channel("azul-2"), table.players)
    quiet = await open_with_computers(quiet_table, ["easy"])
    bobs_channel = table.guild.create_text_channel("azul-3")
    await bob.slash(bobs_channel, "azul new", variant="azul", seats=2)
    await table.bot.service.seating.add_computer(bobs_channel.id, bob.id, "hard", is_admin=False)
    await bob.click(bobs_channel.last_message, label="Start")
    bobs = await table.bot.service.store.games.latest_game_in(bobs_channel.id)
    assert bobs is not None and bobs.status == "active"
    computer = table.bot.service.computer
    assert computer is not None and computer.pool.queue is not None and computer.quick.queue is not None
    queue = computer.pool.queue
    started: list[object] = []
    queue.on_start = started.append
    quick_started: list[object] = []
    computer.quick.queue.on_start = quick_started.append

    async def search(game: GameRow) -> engine.Move:
        state = engine.from_json(game.state or {})
        seat = min(engine.to_act(state))
        seed = move_seed(game.seed, game.version, seat)
        return await computer.choose(state, seat, "hard", seed, game=game.id, creator=game.creator_id)

    release = asyncio.Event()

    async def hold_the_worker(holding: asyncio.Event) -> None:
        async with queue.slot("elsewhere"):
            holding.set()
            await release.wait()

    holding = asyncio.Event()
    holder = asyncio.create_task(hold_the_worker(holding))
    await holding.wait()
    searches = [asyncio.create_task(search(busy)) for _ in range(4)]
    searches += [asyncio.create_task(search(quiet)), asyncio.create_task(search(bobs))]  # queued last
    await asyncio.sleep(0)
    assert queue.waiting == 6
    release.set()
    await asyncio.gather(holder, *searches)
    assert started == ["elsewhere", busy.id, bobs.id, quiet.id, busy.id, busy.id, busy.id]
    assert queue.waiting == 0 and quick_started == []

    # The search worker held again, three hard searches waiting: the quiet table's easy computer still answers
    # Alice's move, through the bot's own computer turn, in the quick lane.
    started.clear()
    release.clear()
    holding = asyncio.Event()
    holder = asyncio.create_task(hold_the_worker(holding))
    await holding.wait()
    searches = [asyncio.create_task(search(busy)) for _ in range(3)]
    await asyncio.sleep(0)
    game, state = await quiet_table.state()
    await play(quiet_table, alice, table.agent.choose(engine.variant_of(state), state, game.seat_of(alice.id) or 0))
    assert quick_started and set(quick_started) == {quiet.id}
    assert started == ["elsewhere"] and queue.waiting == 3, "every search still waits for the held worker"
    release.set()
    await asyncio.gather(holder, *searches)
    assert started == ["elsewhere", busy.id, busy.id, busy.id]


async def test_a_search_given_up_while_waiting_passes_its_turn_on() -> None:
    queue = FairQueue(1)
    started: list[object] = []
    queue.on_start = started.append
    release = asyncio.Event()

    async def work(owner: str, hold: bool = False) -> None:
        async with queue.slot(owner):
            if hold:
                await release.wait()

    first = asyncio.create_task(work("a", hold=True))
    await asyncio.sleep(0)
    given_up = asyncio.create_task(work("b"))
    after = asyncio.create_task(work("c"))
    await asyncio.sleep(0)
    given_up.cancel()
    release.set()
    await asyncio.gather(first, after)
    assert started == ["a", "c"]
    assert queue.waiting == 0


async def test_computer_turns_go_on_when_discord_refuses_their_boards(simcord_env) -> None:
    """A board Discord will not take (``BoardNotPosted``) must not stop the computer seats after it."""
    table = Table.create(simcord_env, 1)
    await open_with_computers(table, ["easy", "easy"])
    alice = table.players[0]
    game, state = await table.state()
    seat = game.seat_of(alice.id)
    if seat not in engine.to_act(state):
        await table.env.settle()
        game, state = await table.state()
    simcord_env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=403, code=50013, times=None)
    version = game.version
    move = table.agent.choose(engine.variant_of(state), state, seat)
    await alice.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    for _ in range(600):
        game, state = await table.state()
        if seat in engine.to_act(state) or game.status != "active":
            break
        await asyncio.sleep(0.05)
    assert game.version >= version + 3 or game.status != "active", "both computer seats played after Alice"
    assert game.board_version < game.version, "their boards were refused"
