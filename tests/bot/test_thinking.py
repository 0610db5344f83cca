"""Thinking time per game through the real bot: ``/azul new thinking`` and the server's default in
``/azul-server settings`` are stored with the game, and every computer move in it (its own seats and stand-ins for
absent players) is searched with that budget."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.app.computer import choose_in_worker
from tests.bot.conftest import COMPUTER_BUDGET
from tests.bot.table import Table
from tests.bot.test_computer import play
from tests.bot.test_quotas import manager

pytestmark = pytest.mark.simcord(settle_timeout=120)

SERVER_LINE = {
    "en": "🤖 Computer players think up to 5 s per move.",
    "pl": "🤖 Komputer myśli nad ruchem do 5 s.",
    "uk": "🤖 Комп'ютер думає над ходом до 5 с.",
}


def record_budgets(table: Table) -> list[dict[str, Any]]:
    """The budget of every computer move the bot's search pool runs from now on."""
    computer = table.bot.service.computer
    assert computer is not None
    pool, budgets = computer.pool, []
    run = pool._run

    async def recording(work: Any, *args: Any) -> Any:
        if work is choose_in_worker:
            budgets.append(args[-1])
        return await run(work, *args)

    pool._run = recording  # type: ignore[method-assign]
    return budgets


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
async def test_the_server_default_is_shown_saved_and_given_to_new_games(
    simcord_env, discord_locales, lang: str
) -> None:
    table = Table.create(simcord_env, 1, preferred_locale={"en": "en-US"}.get(lang, lang))
    alice = table.players[0]
    mod = manager(simcord_env, table)
    discord_locales[mod.id] = discord_locales[alice.id] = lang
    shown = await mod.slash(table.channel, "azul-server settings")
    assert SERVER_LINE[lang].replace("5", "1") in shown.response.content, shown.response.content
    saved = await mod.slash(table.channel, "azul-server settings", thinking="5")
    assert saved.ephemeral and SERVER_LINE[lang] in saved.response.content, saved.response.content
    assert await table.bot.service.settings.server_thinking(table.guild.id) == 5

    await alice.slash(table.channel, "azul new", variant="azul", seats=2)
    game = await table.game()
    assert game.thinking == 5
    assert SERVER_LINE[lang] in (table.channel.last_message.content or "")

    other = table.guild.create_text_channel("quick")
    await alice.slash(other, "azul new", variant="azul", seats=2, thinking="1")
    quick = await table.bot.service.store.games.latest_game_in(other.id)
    assert quick is not None and quick.thinking == 1, "the creator's choice beats the server's"
    assert "🤖" not in (other.last_message.content or ""), "the default thinking time goes without saying"


async def test_the_games_thinking_time_is_the_budget_of_its_computer_moves(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    budgets = record_budgets(table)
    await alice.slash(table.channel, "azul new", variant="azul", seats=3, order="joined", thinking="30")
    lobby = table.channel.last_message
    await bob.slash(table.channel, "azul join")
    await table.bot.service.seating.add_computer(table.channel.id, alice.id, "hard", is_admin=False)
    await alice.click(lobby, label="Start")
    game, state = await table.state()
    assert game.thinking == 30
    for _ in range(3):  # within three people's moves the computer has its turn
        member = table.member(game, min(engine.to_act(state)))
        await play(table, member, table.agent.choose(engine.variant_of(state), state, game.seat_of(member.id) or 0))
        game, state = await table.state()
    assert budgets and all(budget == {"seconds": 30} | COMPUTER_BUDGET for budget in budgets), budgets

    # Bob is away: the computer standing in for him thinks as long as the game's own computer seat.
    alice_seat, bob_seat = game.seat_of(alice.id), game.seat_of(bob.id)
    assert alice_seat is not None and bob_seat is not None
    if alice_seat not in engine.to_act(state):  # Bob's turn: he plays it himself
        await play(table, bob, table.agent.choose(engine.variant_of(state), state, bob_seat))
        game, state = await table.state()
    budgets.clear()
    await table.bot.service.stand_ins.set_controller(game.id, bob_seat, "hard")
    seen = len(table.channel.history())
    for _ in range(3):  # Alice moves (a round's end may give her the next move too) until the stand-in has moved
        await play(table, alice, table.agent.choose(engine.variant_of(state), state, alice_seat))
        posts = [message.content for message in table.channel.history()[seen:]]
        if any("bob 🤖: the computer (hard) is playing for you." in post for post in posts):
            break
        game, state = await table.state()
    else:
        raise AssertionError("the computer did not stand in for Bob")
    assert budgets and all(budget == {"seconds": 30} | COMPUTER_BUDGET for budget in budgets), budgets


async def test_a_thinking_time_not_offered_is_refused(simcord_env) -> None:
    table = Table.create(simcord_env, 1)
    with pytest.raises(Exception) as refused:
        await table.bot.service.seating.create(
            guild_id=table.guild.id,
            channel_id=table.channel.id,
            user_id=table.players[0].id,
            name="alice",
            variant="azul",
            seats=2,
            thinking=7,
        )
    assert getattr(refused.value, "key", None) == "bad_thinking"
    assert await table.bot.service.store.games.open_game_in(table.channel.id) is None
