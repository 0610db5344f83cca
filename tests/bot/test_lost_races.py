"""A move that arrives after its deadline: the time limit's stand-in played first, and the player is told their time
ran out and what the computer played for them, not merely "It is not your turn"."""

from __future__ import annotations

import pytest

import engine
from bot.infra.clock import ManualClock
from tests.bot.table import Table
from tests.bot.test_time_limits import LIMIT, open_limited, run, waiting

pytestmark = pytest.mark.simcord(settle_timeout=120)


@pytest.mark.parametrize("by", ["slash", "buttons"])
async def test_a_move_that_lost_the_race_with_the_deadline_is_told_time_ran_out(
    simcord_env, clock: ManualClock, by: str
) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    late, seat = await waiting(table)
    picker = await late.click(table.channel.last_message, label="Play") if by == "buttons" else None
    game, state = await table.state()
    chosen = table.agent.choose(engine.variant_of(state), state, seat)

    assert await run(table, clock, hours=LIMIT, minutes=1) >= 1, "the deadline wins"
    played = (await table.bot.service.store.moves.move_rows(game.id))[-1]
    assert played.seat == seat and played.cause == "time_limit"

    if by == "slash":
        result = await late.slash(table.channel, f"azul-move {chosen.command}", **dict(chosen.choices()))
    else:  # the picker opened before the deadline, finished after it
        result = picker
        for _ in range(8):
            result = await table.picker_step(late, result.response, chosen)
            if not result.response.components or "ran out" in result.response.content:
                break
    said = result.response.content
    print(said)
    assert result.response.ephemeral and "time for this move ran out" in said, said
    assert f"computer moved for you: {late.user.name} took" in said, said
    assert "not your turn" not in said
    assert [row.cause for row in await table.bot.service.store.moves.move_rows(game.id)] == ["time_limit"], (
        "nothing saved"
    )


async def test_a_move_out_of_turn_after_the_players_own_move_is_still_not_your_turn(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await open_limited(table)
    member, seat = await waiting(table)
    _, state = await table.state()
    await table.play_by_slash(member, table.agent.choose(engine.variant_of(state), state, seat))
    _, state = await table.state()
    other = next(iter(engine.legal_moves(state, 1 - seat)))
    again = await member.slash(table.channel, f"azul-move {other.command}", **dict(other.choices()))
    assert "not your turn" in again.response.content or "already" in again.response.content, again
