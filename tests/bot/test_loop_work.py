"""Work a move does on the event loop once, or not at all: reading a game's snapshot into a position (about 0.1 ms
of the loop's CPU for a two-player Azul game; the picture's drawing reads its own in a worker), reading what was
typed as words, putting the move into words."""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import random
import threading
import time
from typing import Any

import pytest

import engine
from bot.app.move_entry import matching, matching_whole
from bot.infra.pools import WorkerPool
from tests.bot.table import Table

GAME: contextvars.ContextVar[int] = contextvars.ContextVar("game", default=-1)


async def test_a_move_plays_on_the_position_its_games_last_move_left(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row still holds the snapshot of the position the process kept: nothing is read. A row that holds another
    (a move another process saved) is read."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    reads: list[str] = []
    read = engine.from_json

    def counted(raw: Any) -> engine.GameState:
        if threading.current_thread() is threading.main_thread():  # the picture's own read is in its worker
            reads.append(str(raw.get("variant")))
        return read(raw)

    _, before = await table.state()
    for _ in range(2):
        member, _, move = await table.choose()
        monkeypatch.setattr(engine, "from_json", counted)
        result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
        monkeypatch.setattr(engine, "from_json", read)
        assert result.response.content.startswith("Played"), result.response.content
        assert reads == []
    tables = table.bot.service.tables
    now = await table.game()
    monkeypatch.setattr(engine, "from_json", counted)
    elsewhere = dataclasses.replace(now, state=engine.to_json(before))
    assert engine.to_json(tables.state_of(elsewhere)) == engine.to_json(before)
    assert reads == ["azul"]
    assert engine.to_json(tables.state_of(now)) == now.state
    assert reads == ["azul", "azul"]


async def test_a_slash_move_given_as_tokens_is_not_read_as_words(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The autocomplete sends tokens, which name their move as they are: only words (``Factory 1``) are read."""
    import bot.app.turns

    table = Table.create(simcord_env, 2)
    await table.open("azul")
    readings: list[dict[str, Any]] = []
    read = bot.app.turns.read_given

    def counted(*args: Any, **kwargs: Any) -> dict[str, str]:
        readings.append(dict(args[3]))
        return read(*args, **kwargs)

    monkeypatch.setattr(bot.app.turns, "read_given", counted)
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    assert readings == []
    game, state = await table.state()
    seat = min(engine.to_act(state))
    take = next(m for m in engine.legal_moves(state, seat) if dict(m.choices()).get("source", "").isdecimal())
    chosen = dict(take.choices())
    words = f"Factory {chosen['source']}"
    result = await table.member(game, seat).slash(
        table.channel, "azul-move take", source=words, color=chosen["color"], line=chosen["line"]
    )
    assert result.response.content.startswith("Played"), result.response.content
    assert [given["source"] for given in readings] == [words]


@pytest.mark.parametrize("mover_locale", ["en-US", "pl"])
async def test_a_moves_headline_is_put_into_words_once_per_language(
    simcord_env: Any, discord_locales: dict[int, str], monkeypatch: pytest.MonkeyPatch, mover_locale: str
) -> None:
    """The reply (the mover's language) and the post (the server's) tell the move in the same words when the two
    languages are one: said once, not twice."""
    import bot.ui.play

    table = Table.create(simcord_env, 2)
    await table.open("azul")
    said: list[tuple[str, str]] = []
    headline = bot.ui.play.headline

    def counted(turn: Any, locale: str) -> str:
        said.append((locale, headline(turn, locale)))
        return said[-1][1]

    monkeypatch.setattr(bot.ui.play, "headline", counted)
    member, _, move = await table.choose()
    discord_locales[member.id] = mover_locale
    result = await table.play_by_slash(member, move)
    words = dict(said)
    assert [locale for locale, _ in said] == (["en"] if mover_locale == "en-US" else ["pl", "en"])
    assert result.response.content.split("\n")[0].endswith(words["pl" if mover_locale == "pl" else "en"])
    assert table.channel.last_message.content.split("\n")[0] == words["en"]


@pytest.mark.parametrize("variant", ["azul", "azul-grey", "summer-pavilion", "queens-garden"])
def test_a_move_given_whole_is_found_by_making_it_as_matching_finds_it(variant: str) -> None:
    """Every option of a move given (the autocomplete's tokens, the picker's): the move they make is looked for among
    the legal ones instead of comparing each; the same as :func:`bot.app.move_entry.matching` finds, and nothing when
    an option is missing or the tokens make no legal move."""
    state, rng = engine.new_game(variant, 2, 11), random.Random(5)
    for _ in range(30):
        seat = min(engine.to_act(state))
        legal = engine.legal_moves(state, seat)
        for move in rng.sample(legal, min(4, len(legal))):
            given: dict[str, str | None] = dict(move.choices())
            found = matching_whole(engine.variant_of(state), legal, move.command, given)
            assert found == matching(legal, move.command, given) == [move]
            first, *rest = given
            if rest:
                assert matching_whole(engine.variant_of(state), legal, move.command, {**given, first: None}) is None
        state, _ = engine.apply(state, seat, rng.choice(legal))
        if engine.is_over(state):
            break
    take = {"source": "9", "color": "blue", "line": "1"}  # no ninth factory at two players
    assert matching_whole(engine.get_variant("azul"), [], "take", take) is None


async def test_a_slash_move_given_whole_compares_no_legal_move(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.app.turns

    table = Table.create(simcord_env, 2)
    await table.open("azul")
    compared: list[str] = []
    matching = bot.app.turns.matching

    def counted(moves: Any, command: str, given: Any) -> Any:
        compared.append(command)
        return matching(moves, command, given)

    monkeypatch.setattr(bot.app.turns, "matching", counted)
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    assert compared == []


async def test_a_pool_of_no_processes_draws_in_one_thread_of_its_own_in_the_callers_context() -> None:
    """Pictures drawn in the bot's process take turns in one thread: in the loop's shared executor up to six at once
    took turns holding the interpreter's lock with each other and with the event loop. Each runs in its caller's
    context (the log fields of its game), as :func:`asyncio.to_thread` would run it."""
    pool = WorkerPool("picture", 0)
    pool.start()
    running: list[int] = []
    seen: list[tuple[str, int, int]] = []

    def work(number: int) -> int:
        running.append(number)
        time.sleep(0.01)
        seen.append((threading.current_thread().name, len(running), GAME.get()))
        running.remove(number)
        return number

    async def one(number: int) -> int:
        GAME.set(number)
        result: int = await pool.run(work, number)
        return result

    try:
        assert await asyncio.gather(*(one(number) for number in range(4))) == [0, 1, 2, 3]
    finally:
        await pool.close()
    assert {name for name, _, _ in seen} == {"picture-thread_0"}
    assert {at_once for _, at_once, _ in seen} == {1}
    assert sorted(game for _, _, game in seen) == [0, 1, 2, 3]
