"""Results, ratings, leaderboard, profile and history through the real bot against SimCord, in en, pl and uk.

Expected ratings are computed here with OpenSkill directly (not with the bot's code), game by game.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from PIL import Image

import engine
from bot.__main__ import rebuild_ratings
from bot.app import ratings
from bot.infra.store import ResultRow, ResultSeat, Seat
from tests.bot.conftest import USER_LOCALES
from tests.bot.table import Table
from tests.bot.test_faults import forged_click

MODEL = PlackettLuce()
SAVE = os.environ.get("AZUL_SAVE_PICTURES")  # a folder: the test writes the pictures it sees there


def save(name: str, data: bytes) -> None:
    if SAVE:
        Path(SAVE).mkdir(parents=True, exist_ok=True)
        Path(SAVE, name).write_bytes(data)


async def attachment(result: Any, index: int = 0) -> bytes:
    message = result.response
    assert message is not None and message.attachments, result
    data: bytes = await message.attachments[index].read()
    return data


async def resign_game(
    table: Table, players: list[Any], loser: Any | list[Any], variant: str = "azul", **options: Any
) -> None:
    """``players[0]`` opens a game for ``players``, all join, it starts, and ``loser`` resigns at once (a list:
    each of them in turn, since a table of three or more plays on after one player resigns)."""
    creator, *others = players
    opened = await creator.slash(table.channel, "azul new", variant=variant, seats=len(players), **options)
    assert not opened.ephemeral, opened
    for player in others:
        await player.slash(table.channel, "azul join")
    await creator.slash(table.channel, "azul start")
    for player in loser if isinstance(loser, list) else [loser]:
        resigned = await table.confirmed(player, "resign")
        assert resigned.response.ephemeral, resigned
    assert (await table.game()).status == "over"


def expected_after(games: list[list[list[int]]], users: list[int]) -> dict[int, tuple[float, float]]:
    """Ratings after rated games given as their standings (groups of user ids, best first)."""
    current = {user: MODEL.rating() for user in users}
    for standings in games:
        order = [user for group in standings for user in group]
        ranks = [float(n) for n, group in enumerate(standings, start=1) for _ in group]
        rated = MODEL.rate([[current[user]] for user in order], ranks=ranks)
        for user, team in zip(order, rated, strict=True):
            current[user] = team[0]
    return {user: (rating.mu, rating.sigma) for user, rating in current.items()}


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
async def test_leaderboard_and_profile_after_a_few_games(simcord_env, lang: str) -> None:
    table = Table.create(simcord_env, 3)
    alice, bob, carol = table.players
    for player in table.players:
        USER_LOCALES[player.id] = lang
    # 1: bob resigns against alice. 2: carol, then alice resign; bob wins, the two who left share second place.
    # 3: carol resigns against bob.
    await resign_game(table, [alice, bob], bob)
    await resign_game(table, [alice, bob, carol], [carol, alice])
    await resign_game(table, [bob, carol], carol)
    # A casual game and an aborted one change nothing.
    await resign_game(table, [alice, carol], alice, rated=False)
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    await table.confirmed(alice, "abort")

    a, b, c = alice.id, bob.id, carol.id
    expected = expected_after([[[a], [b]], [[b], [a, c]], [[b], [c]]], [a, b, c])
    order = sorted(expected, key=lambda user: expected[user][0] - 3 * expected[user][1], reverse=True)
    assert order == [b, a, c]

    board = await alice.slash(table.channel, "azul-stats leaderboard", game="azul")
    assert board.ephemeral
    lines = board.response.content.splitlines()[1:]
    names = {a: "alice", b: "bob", c: "carol"}
    games = {a: 2, b: 3, c: 2}
    wins = {a: 1, b: 2, c: 0}
    for rank, (line, user) in enumerate(zip(lines, order, strict=True), start=1):
        mu, sigma = expected[user]
        assert line.startswith(f"{rank}. **{names[user]}** — {mu - 3 * sigma:.1f} ({mu:.1f} ± {sigma:.1f})"), line
        assert f"{games[user]} " in line and line.endswith(f": {wins[user]}"), line
    png = await attachment(board)
    assert Image.open(io.BytesIO(png)).width == 800
    save(f"leaderboard-{lang}.png", png)

    profile = await bob.slash(table.channel, "azul-me profile", user=alice)
    assert profile.ephemeral
    content = profile.response.content
    mu, sigma = expected[a]
    assert "alice" in content and f"{mu:.1f} ± {sigma:.1f}" in content
    # alice: 3 finished games (two rated, one casual; she resigned two), 1 win, average of the games she played out.
    assert "Azul" in content or "Азул" in content
    facts = dict(line.rsplit(": ", 1) for line in content.splitlines()[2:])
    assert list(facts.values())[:3] == ["3", "1", "0.0"], facts
    save(f"profile-{lang}.png", await attachment(profile))

    mine = await bob.slash(table.channel, "azul-me profile")  # bob: lost, won, won
    bob_facts = dict(line.rsplit(": ", 1) for line in mine.response.content.splitlines()[2:])
    streak = list(bob_facts.values())[5]
    assert streak in {"2 wins in a row", "2 wygrane z rzędu", "2 перемоги поспіль"}, streak


async def test_history_lists_finished_games_newest_first_and_pages(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    for _ in range(12):
        await resign_game(table, [alice, bob], bob)
    first = await alice.slash(table.channel, "azul-stats history")
    assert first.ephemeral
    content = first.response.content
    ids = [int(part.split("**")[0]) for part in content.split("**#")[1:]]
    assert len(ids) == 10 and ids == sorted(ids, reverse=True)
    assert "alice 0 🏆" in content and "bob 0 (resigned)" in content and "<t:" in content
    turned = await alice.click(first.response, label="▶")
    later = [int(part.split("**")[0]) for part in turned.response.content.split("**#")[1:]]
    assert later == sorted(later, reverse=True) and len(later) == 2 and max(later) < min(ids)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "No game has been finished in this channel yet"),
        ("pl", "Na tym kanale nie zakończono jeszcze żadnej gry"),
        ("uk", "У цьому каналі ще не завершено жодної гри"),
    ],
)
async def test_empty_history_and_unknown_profile_are_explained(simcord_env, lang: str, expected: str) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    USER_LOCALES[alice.id] = lang
    history = await alice.slash(table.channel, "azul-stats history")
    assert history.ephemeral and expected in history.response.content
    profile = await alice.slash(table.channel, "azul-me profile", user=bob)
    assert profile.ephemeral and "bob" in profile.response.content
    replay = await alice.slash(table.channel, "azul-stats replay", game=99)
    assert replay.ephemeral and "99" in replay.response.content


async def test_a_running_game_has_no_replay_yet(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game = await table.game()
    result = await table.players[0].slash(table.channel, "azul-stats replay", game=game.id)
    assert result.ephemeral and "still being played" in result.response.content


async def test_rebuilding_ratings_gives_the_same_numbers(simcord_env, db_path: str) -> None:
    table = Table.create(simcord_env, 3)
    alice, bob, carol = table.players
    await resign_game(table, [alice, bob, carol], [bob, carol])
    await resign_game(table, [carol, bob], carol, variant="summer-pavilion")
    await resign_game(table, [bob, alice, carol], [alice, bob], variant="azul-grey")
    await resign_game(table, [alice, carol], carol, variant="queens-garden")
    store = table.bot.service.store
    before = (await store.results.all_ratings(), await store.results.all_rating_history())
    assert {row[0] for row in before[0]} == {"azul", "summer-pavilion", "queens-garden"}
    assert await ratings.rebuild(store) == 4
    assert (await store.results.all_ratings(), await store.results.all_rating_history()) == before
    # From the command line too, on the same file (while the bot still has it open, as in production).
    assert await rebuild_ratings(db_path) == 0
    assert (await store.results.all_ratings(), await store.results.all_rating_history()) == before


async def test_a_result_missed_while_the_bot_was_down_is_recorded_at_start(simcord_env, make_bot) -> None:
    table = Table.create(simcord_env, 2)
    await resign_game(table, list(table.players), table.players[1])
    store = table.bot.service.store
    game = await table.game()
    async with store.transaction() as db:
        await db.execute("DELETE FROM results WHERE game_id = ?", (game.id,))
        await db.execute("DELETE FROM ratings")
    assert await store.results.unsettled_games() == [game.id]
    assert await table.bot.service.settlement.settle_pending() == 1
    assert await store.results.unsettled_games() == []
    assert len(await store.results.all_ratings()) == 2


def test_places_put_those_who_left_last_and_share_ties() -> None:
    assert ratings.places_of([[2], [0, 1], [3]], ["played"] * 4) == [2, 2, 1, 4]
    outcomes = ratings.outcomes_of({"resigned": 2}, 4)
    assert outcomes == ["played", "played", "resigned", "played"]
    assert ratings.places_of([[3], [0], [1], [2]], outcomes) == [2, 3, 4, 1]
    flagged = ratings.outcomes_of({"outcomes": ["played", "timed_out", "dropped"]}, 3)
    assert ratings.places_of([[1], [0], [2]], flagged) == [1, 2, 2]


def test_computer_seats_are_not_rated() -> None:
    result = ResultRow(
        0,
        1,
        "azul",
        "azul",
        None,
        1,
        True,
        "2026-01-01T00:00:00+00:00",
        (ResultSeat(0, 10, "ann", 40, 1), ResultSeat(1, None, "bot", 50, 2, computer=True)),
    )
    assert ratings.rate(result, {}) == {}
    people = (
        ResultSeat(0, 10, "ann", 40, 2),
        ResultSeat(1, 11, "ben", 50, 1),
        ResultSeat(2, None, "bot", 9, 3, computer=True),
    )
    rated = ratings.rate(ResultRow(0, 1, "azul", "azul", None, 1, True, "", people), {})
    assert set(rated) == {10, 11} and rated[11][0] > rated[10][0]


def test_a_computer_seat_is_a_computer_and_a_stand_in_is_still_a_person() -> None:
    assert ratings.is_computer(Seat(None, "Computer (hard)", 2, 1, "hard"))
    assert not ratings.is_computer(Seat(10, "ann", 1, 0, "easy")), "a person's seat the computer plays for them"
    assert not ratings.is_computer(Seat(10, "ann", 1, 0))


async def test_a_game_with_a_computer_seat_is_casual_and_rates_no_one(simcord_env) -> None:
    table = Table.create(simcord_env, 1)
    (alice,) = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    lobby = table.channel.last_message
    added = await alice.click(lobby, label="Computer: easy")
    assert added.ephemeral and "has a seat now" in added.response.content, added.response.content
    lobby = table.channel.last_message
    assert "Casual game" in lobby.content, lobby.content
    await alice.click(lobby, label="Start")
    await table.confirmed(alice, "resign")
    store = table.bot.service.store
    results, total = await store.results.results(channel_id=table.channel.id, limit=10, offset=0)
    assert total == 1 and not results[0].rated
    computer = next(seat for seat in results[0].seats if seat.computer)
    assert computer.user_id is None and computer.won
    assert await store.results.ratings_of(alice.id) == []
    history = await alice.slash(table.channel, "azul-stats history")
    assert "🤖" in history.response.content and "(resigned)" in history.response.content, history.response.content


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "cannot allow hints"), ("pl", "nie może mieć podpowiedzi"), ("uk", "не може мати підказок")],
)
async def test_a_rated_game_with_hints_is_refused(simcord_env, lang: str, expected: str) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    USER_LOCALES[alice.id] = lang
    refused = await alice.slash(table.channel, "azul new", variant="azul", seats=2, rated=True, hints=True)
    assert refused.ephemeral and expected in refused.response.content, refused.response.content
    assert await table.bot.service.store.games.latest_game_in(table.channel.id) is None, "no lobby was opened"
    opened = await alice.slash(table.channel, "azul new", variant="azul", seats=2, hints=True)
    assert not opened.ephemeral
    game = await table.game()
    assert game.hints and not ratings.is_rated(game), "hints make a game casual by default"


async def test_forged_paging_and_replay_ids_get_a_polite_answer(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    for _ in range(11):
        await resign_game(table, [alice, bob], bob)
    history = (await alice.slash(table.channel, "azul-stats history")).response
    for custom_id in (
        "azul:page:hist:-:channel:" + "9" * 19 + ":next",  # past 2**63 - 1
        "azul:page:hist:-:channel:" + "1" * 20 + ":next",  # over 19 digits
        "azul:page:hist:-:channel:\u0660:next",  # an Arabic-Indic zero
        "azul:replay:1:\uff11:next",  # a full-width one
        "azul:replay:" + "9" * 19 + ":0:next",
    ):
        result = await forged_click(alice, history, custom_id)
        assert result.ephemeral and "don't recognise" in result.response.content, (custom_id, result.response)
    turned = await alice.click(history, label="▶")
    assert "**#" in turned.response.content, "the real buttons still work"


async def test_profile_and_stats_work_in_a_direct_message(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await resign_game(table, [alice, bob], bob)
    profile = await alice.user.slash("azul-me profile")
    assert profile.ephemeral and "alice" in profile.response.content, profile.response.content
    board = await alice.user.slash("azul-stats leaderboard", game="azul", scope="everywhere")
    assert board.ephemeral and "alice" in board.response.content, board.response.content
    here = await alice.user.slash("azul-stats leaderboard", game="azul", scope="server")
    assert here.ephemeral and "needs a server" in here.response.content, here.response.content


def test_every_stats_text_exists_in_every_language() -> None:
    from data.i18n import catalogue

    keys = {
        key
        for key in catalogue("en")
        if key.startswith(("bot.stats.", "bot.history.", "bot.replay.", "picture.stats."))
    }
    assert keys
    for lang in ("pl", "uk"):
        assert keys <= set(catalogue(lang)), keys - set(catalogue(lang))


assert engine  # the variant registry is loaded before the bot builds its commands


@pytest.mark.parametrize("lang", ["pl", "uk"])
async def test_new_commands_have_translated_names(lang: str) -> None:
    from data.i18n import catalogue
    from tests.bot.discord_limits import bot_payload

    synced = {command["name"]: command for command in await bot_payload()}
    stats = synced["azul-stats"]
    assert stats["name_localizations"][lang] == catalogue(lang)["bot.name.azul-stats"]
    names = {option["name"]: option.get("name_localizations", {}) for option in stats["options"]}
    assert set(names) == {"leaderboard", "history", "replay"}
    for name, localized in names.items():
        assert localized[lang] == catalogue(lang)[f"bot.name.{name}"]
    me = synced["azul-me"]
    assert me["name_localizations"][lang] == catalogue(lang)["bot.name.azul-me"]
    profile = next(o for o in me["options"] if o["name"] == "profile")
    assert profile["name_localizations"][lang] == catalogue(lang)["bot.name.profile"]


async def test_time_to_move_is_measured_from_the_move_before(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await table.open("azul")
    for _ in range(5):
        member, _seat, move = await table.choose()
        await table.bot.service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()))
    store = table.bot.service.store
    game = await table.game()
    async with store.transaction() as db:  # the moves were made a minute, then 2, 3, 4 minutes apart
        for ply in range(5):
            stamp = f"2026-01-01T10:{ply * (ply + 1) // 2:02d}:00+00:00"
            await db.execute("UPDATE moves SET created_at = ? WHERE game_id = ? AND ply = ?", (stamp, game.id, ply))
    times = await store.moves.think_times(game.id)
    first = game.by_seat()[0].user_id == alice.id
    assert times == {0: (2, 2 * 60 + 4 * 60.0), 1: (2, 1 * 60 + 3 * 60.0)}
    await table.confirmed(bob, "resign")
    profile = await alice.slash(table.channel, "azul-me profile")
    expected = "3 min" if first else "2 min"  # (2 + 4) / 2 minutes for the first seat, (1 + 3) / 2 for the second
    assert f"Average time to move: {expected}" in profile.response.content
