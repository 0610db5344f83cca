from typing import Any
import tests.bot.test_leagues as T
from bot.clock import ManualClock

async def test_dump(simcord_env: Any, clock: ManualClock) -> None:
    league = T.League(simcord_env, 6)
    league.guild = league.guild
    await league.create(format="swiss", rounds=3, signup_hours=24, rated=False)
    clock.advance(hours=24, minutes=1)
    await league.tick()
    one = await league.tables(1)
    await T.decided(league, one[0], loser="bob")
    await T.decided(league, one[1], loser="carol")
    pinned = league.channel.pinned_messages()[0]
    url = pinned.attachments[0].url
    open("/tmp/standings.png", "wb").write(simcord_env.backend.cdn.get(url))
    for m in league.channel.history()[-6:]:
        print("----", m.content)
