"""Taking a move back through the real bot: ``/azul undo`` and the Undo button under the "Played" reply.

A move may be taken back by its own player while nobody has acted since and it showed nothing hidden, in a game whose
creator left undo on; the log then replays to the restored snapshot, the version still moves forward (old buttons go
stale), one short post shows the restored board (the previous one loses its Play button, nobody is pinged for the
turn that no longer exists), and the timers follow who waits now. Every refusal says why and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

import engine
from bot.app.errors import Refusal
from bot.client import AzulBot
from tests.bot.table import Table, mentions
from tests.bot.test_computer import open_with_computers

# A computer seat answers within the settling of a person's command; on a loaded machine that outlasts SimCord's
# default five seconds.
pytestmark = pytest.mark.simcord(settle_timeout=120)
VARIANTS = ["azul", "summer-pavilion", "queens-garden"]
"""One variant of each game (the engine's tests cover all six)."""


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AzulBot]) -> AzulBot:
    """Reminders on, so an undo's effect on timers shows (the test clock never reaches them)."""
    return make_bot(remind_after=timedelta(hours=24))


def refused(result: Any, *words: str) -> str:
    assert result.ephemeral, result
    content: str = result.response.content
    for word in words:
        assert word in content, content
    return content


async def next_move(table: Table, *, reveals: bool) -> tuple[Any, int, engine.Move]:
    """Play greedy moves by slash until the next one reveals something hidden (or nothing): its player, seat and
    move, not played yet."""
    for _ in range(400):
        _, state = await table.state()
        member, seat, move = await table.choose()
        after, _ = engine.apply(state, seat, move)
        if engine.reveals(state, after) == reveals and not engine.is_over(after):
            return member, seat, move
        await table.play_by_slash(member, move)
    raise AssertionError("no such move came up")


def undo_button(result: Any) -> dict[str, Any] | None:
    buttons = [c for row in result.response.components for c in row["components"] if c.get("type") == 2]
    return next((b for b in buttons if b["custom_id"].startswith("azul:undo:")), None)


def board_buttons(message: Any) -> list[str]:
    return [child.custom_id for row in message.components for child in row.children]


@pytest.mark.parametrize("variant", VARIANTS)
async def test_the_undo_button_takes_the_move_back(simcord_env, variant: str) -> None:
    table = Table.create(simcord_env, 2)
    await table.open(variant)
    member, _, move = await next_move(table, reveals=False)
    before = await table.game()
    moves_before = await table.bot.service.store.moves.moves(before.id)

    played = await table.play_by_slash(member, move)
    moved = await table.game()
    board_after_move = table.channel.last_message
    button = undo_button(played)
    assert button is not None and button["custom_id"] == f"azul:undo:{moved.id}:{moved.version}", played.response

    undone = await member.click(played.response, custom_id=button["custom_id"])
    assert "Taken back" in undone.response.content and not undone.response.components, undone.response.content
    game = await table.game()
    assert game.state == before.state, "the table is as it was before the move"
    assert game.version == before.version + 2, "the version still moves forward"
    assert await table.bot.service.store.moves.moves(game.id) == moves_before
    assert await table.bot.service.tables.replayed(game) == engine.from_json(game.state or {})

    post = table.channel.last_message
    assert post.id != board_after_move.id and "Taken back: " in post.content, post.content
    assert mentions(post.content) == [], "nobody is pinged for a turn that no longer exists"
    assert board_buttons(post) == [f"azul:play:{game.id}:{game.version}", f"azul:table:{game.id}"]
    stripped = next(m for m in table.channel.history() if m.id == board_after_move.id)
    assert not stripped.components, "the board of the move taken back no longer offers Play"

    # The player moves again, as they now like: the game goes on from the restored table.
    again = await table.play_by_slash(member, move)
    assert again.response.content.startswith("Played")
    game = await table.game()
    assert await table.bot.service.tables.replayed(game) == engine.from_json(game.state or {})


async def test_undo_by_command_and_the_timers_follow(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, seat, move = await next_move(table, reveals=False)
    await table.play_by_slash(member, move)
    store = table.bot.service.store
    game = await table.game()
    waiting = [t for t in await store.timers.timers_of(game.id) if t.state == "pending"]
    assert [t.seat for t in waiting] == [1 - seat], "the next player's reminder is set"

    result = await member.slash(table.channel, "azul undo")
    assert result.ephemeral and "Taken back" in result.response.content, result.response.content
    game = await table.game()
    pending = [t for t in await store.timers.timers_of(game.id) if t.state == "pending"]
    assert [(t.seat, t.version) for t in pending] == [(seat, game.version)], pending
    assert {t.state for t in await store.timers.timers_of(game.id) if t.seat == 1 - seat} == {"cancelled"}


@pytest.mark.parametrize("variant", VARIANTS)
async def test_refusals_say_why_and_change_nothing(simcord_env, variant: str) -> None:
    table = Table.create(simcord_env, 2)
    await table.open(variant)
    outsider = table.guild.add_member(simcord_env.create_user("zed"))
    refused(await outsider.slash(table.channel, "azul undo"), "not in this game")
    for player in table.players:
        refused(await player.slash(table.channel, "azul undo"), "no move in this game")

    member, _, move = await next_move(table, reveals=False)
    played = await table.play_by_slash(member, move)
    button = undo_button(played)
    assert button is not None
    while True:  # until someone else has moved (the same player may move again first)
        mover, _, move = await table.choose()
        await table.play_by_slash(mover, move)
        if mover.id != member.id:
            break
    unchanged = await table.game()
    refused(await member.slash(table.channel, "azul undo"), "Someone has moved since")
    stale = await member.click(played.response, custom_id=button["custom_id"])
    assert "moved on" in stale.response.content, stale.response.content
    assert stale.response.id == played.response.id and not stale.response.components, "the old reply is replaced"
    after = await table.game()
    assert (after.version, after.state) == (unchanged.version, unchanged.state)
    assert "Taken back" not in table.channel.last_message.content


@pytest.mark.parametrize("variant", VARIANTS)
async def test_a_move_that_revealed_something_stands(simcord_env, variant: str) -> None:
    """A move that drew from the bag, began a round or turned an expansion up cannot be taken back, and its reply
    offers no Undo button."""
    table = Table.create(simcord_env, 2)
    await table.open(variant)
    member, _, move = await next_move(table, reveals=True)
    played = await table.play_by_slash(member, move)
    assert undo_button(played) is None
    game = await table.game()
    refused(await member.slash(table.channel, "azul undo"), "showed what was hidden")
    assert (await table.game()).version == game.version


async def test_the_creator_may_switch_undo_off(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await alice.slash(table.channel, "azul new", variant="azul", seats=2, order="joined", undo=False)
    lobby = table.channel.last_message
    assert "Taking moves back is off" in lobby.content
    await bob.slash(table.channel, "azul join")
    await alice.click(lobby, label="Start")
    member, _, move = await table.choose()
    played = await table.play_by_slash(member, move)
    assert undo_button(played) is None
    refused(await member.slash(table.channel, "azul undo"), "off in this game")


async def test_a_computer_move_since_makes_undo_impossible(simcord_env) -> None:
    table = Table.create(simcord_env, 1)
    await open_with_computers(table, ["easy"])
    alice = table.players[0]
    game, state = await table.state()
    seat = game.seat_of(alice.id)
    assert seat in engine.to_act(state), "the computer moves as soon as the game starts, so it is Alice's turn"
    move = table.agent.choose(engine.variant_of(state), state, seat or 0)
    await alice.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    game = await table.game()
    last = await table.bot.service.store.moves.last_move(game.id)
    assert last is not None and last.seat != seat, "the computer answered"
    refused(await alice.slash(table.channel, "azul undo"), "Someone has moved since")
    assert (await table.game()).version == game.version


async def test_a_finished_game_keeps_its_last_move(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    other = next(player for player in table.players if player.id != member.id)
    await table.confirmed(other, "resign")
    refused(await member.slash(table.channel, "azul undo"), "The game is over")


async def test_refusals_in_polish_and_ukrainian(simcord_env, discord_locales) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    discord_locales[member.id] = "pl"
    refused(await member.slash(table.channel, "azul undo"), "Nie masz w tej grze ruchu")
    await table.play_by_slash(member, move)
    discord_locales[member.id] = "uk"
    result = await member.slash(table.channel, "azul undo")
    assert "Скасовано: " in result.response.content, result.response.content
    other = next(player for player in table.players if player.id != member.id)
    discord_locales[other.id] = "uk"
    refused(await other.slash(table.channel, "azul undo"), "У тебе немає в цій грі ходу")


async def test_an_undo_whose_board_was_lost_is_posted_after_a_restart(simcord_env, make_bot) -> None:
    """The undo is saved but the process dies before its board: the restarted bot posts it, saying what happened."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await next_move(table, reveals=False)
    await table.play_by_slash(member, move)
    board = table.channel.last_message
    undone = await table.bot.service.takebacks.undo_move(table.channel.id, member.id, interaction_id=4242)
    assert table.channel.last_message.id == board.id

    await simcord_env.restart_bot(make_bot(remind_after=timedelta(hours=24)))

    post = table.channel.last_message
    assert post.id != board.id and "Taken back: " in post.content, post.content
    assert mentions(post.content) == []
    game = await table.game()
    assert game.board_version == game.version == undone.game.version


async def test_a_repeated_undo_or_a_repeated_undone_move_applies_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    service = table.bot.service
    member, _, move = await next_move(table, reveals=False)
    await service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()), interaction_id=901)
    await service.takebacks.undo_move(table.channel.id, member.id, interaction_id=902)
    version = (await table.game()).version
    for again in (
        service.takebacks.undo_move(table.channel.id, member.id, interaction_id=902),
        service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()), interaction_id=901),
    ):
        with pytest.raises(Refusal) as refusal:
            await again
        assert refusal.value.key == "duplicate"
    assert (await table.game()).version == version


@pytest.mark.slow  # a Summer Pavilion game into its placement phase
async def test_summer_pavilion_placements_in_a_row_are_taken_back_one_by_one(simcord_env) -> None:
    """In phase 2 a player places several tiles in a row: each undo takes back the newest of them."""
    table = Table.create(simcord_env, 2)
    await table.open("summer-pavilion")

    def two_in_a_row(state: Any, seat: int, move: engine.Move) -> engine.Move | None:
        """The player's next move after ``move`` when both are placements that reveal nothing."""
        after, _ = engine.apply(state, seat, move)
        if move.command != "place" or engine.reveals(state, after) or seat not in engine.to_act(after):
            return None
        second = table.agent.choose(engine.variant_of(after), after, seat)
        later, _ = engine.apply(after, seat, second)
        return second if second.command == "place" and not engine.reveals(after, later) else None

    for _ in range(400):
        _, state = await table.state()
        member, seat, move = await table.choose()
        second = two_in_a_row(state, seat, move)
        if second is not None:
            break
        await table.play_by_slash(member, move)
    else:
        raise AssertionError("no two placements in a row came up")
    start = await table.game()
    played = await table.play_by_buttons(member, move)
    assert "again" in played.response.content and undo_button(played) is not None, "next step and Undo, together"
    await table.play_by_slash(member, second)
    for _ in range(2):
        result = await member.slash(table.channel, "azul undo")
        assert "Taken back" in result.response.content, result.response.content
    game = await table.game()
    assert game.state == start.state and game.version == start.version + 4


async def test_a_column_on_the_grey_wall_is_taken_back_while_the_others_still_choose(simcord_env) -> None:
    """In a simultaneous phase the others' turns go on: they keep their reminders and nobody is pinged again."""
    table = Table.create(simcord_env, 3)
    await table.open("azul-grey")
    for _ in range(400):
        game, state = await table.state()
        member, seat, move = await table.choose()
        after, _ = engine.apply(state, seat, move)
        if move.command == "wall" and len(engine.to_act(after)) >= 2 and not engine.reveals(state, after):
            break
        await table.play_by_slash(member, move)
    else:
        raise AssertionError("no simultaneous wall tiling came up")
    others = engine.to_act(state) - {seat}
    store = table.bot.service.store
    reminders = {t.id for t in await store.timers.timers_of(game.id) if t.state == "pending" and t.seat in others}
    posts = len(table.channel.history())
    await table.play_by_slash(member, move)
    held = len(table.channel.history()) == posts  # the mover has lines left: the board waits for them
    result = await member.slash(table.channel, "azul undo")
    assert "Taken back" in result.response.content, result.response.content
    restored = await table.game()
    assert restored.state == game.state
    if held:  # no board showed the column: none says it was taken back, and the one on show has the position
        assert len(table.channel.history()) == posts
    else:
        post = table.channel.last_message
        assert "Taken back" in post.content and mentions(post.content) == []
    pending = await store.timers.timers_of(game.id)
    assert {t.id for t in pending if t.state == "pending" and t.seat in others} == reminders, "theirs stand"
    assert any(t.state == "pending" and t.seat == seat and t.version == restored.version for t in pending)
