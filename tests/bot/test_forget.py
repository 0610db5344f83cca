"""``/azul me forget`` through the real bot: refused while the person sits in an open game; one confirm click, on a
button that holds their id (only they may press it: the message is theirs alone, and a forged id is refused); and
afterwards no trace of their id or name in any table, while the others' games and results stay whole."""

from __future__ import annotations

from typing import Any

from bot.infra.store import Store
from tests.bot.table import Table


async def traces(store: Store, *needles: str) -> list[str]:
    """Every table.column of the database holding one of ``needles`` (as a value or within one), on either engine."""
    if store.is_postgres:
        listed = await store._fetchall(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        )
        columns = [(row[0], row[1]) for row in listed]
    else:
        tables = [row[0] for row in await store._fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = [(table, row[1]) for table in tables for row in await store._fetchall(f"PRAGMA table_info({table})")]
    found = []
    for table, column in columns:
        for (value,) in await store._fetchall(f"SELECT {column} FROM {table}"):
            if value is not None and any(needle in str(value) for needle in needles):
                found.append(f"{table}.{column}={value!r}")
    return found


def forget_button(result: Any) -> str:
    buttons = [c for row in result.response.components for c in row["components"]]
    (button,) = [b for b in buttons if b["custom_id"].startswith("azul:forget:")]
    assert button["label"] == "Delete my data"
    return str(button["custom_id"])


async def test_forget_erases_a_person_and_keeps_the_others_games(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    store = table.bot.service.store
    await table.open("azul")
    for _ in range(2):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    await alice.slash(table.channel, "azul-me away", days=3)
    await alice.slash(table.channel, "azul-me quickplay", enabled=True)
    await table.confirmed(alice, "resign")
    finished = await table.game()
    assert finished.status == "over"
    assert await traces(store, str(alice.id)), "she is in the database before"

    await alice.slash(table.channel, "azul new", variant="azul", seats=2)  # an open game: refused
    refused = await alice.slash(table.channel, "azul-me forget")
    assert refused.ephemeral and "You still have open games" in refused.response.content
    assert not refused.response.components
    await alice.slash(table.channel, "azul leave")

    asked = await alice.slash(table.channel, "azul-me forget")
    assert asked.ephemeral and "This cannot be undone" in asked.response.content
    custom_id = forget_button(asked)
    assert await traces(store, str(alice.id)), "asking changes nothing"

    done = await alice.click(asked.response, custom_id=custom_id)
    assert "Done: your settings, profile and ratings are deleted" in done.response.content, done.response.content
    assert not done.response.components
    assert await traces(store, str(alice.id), alice.user.name) == []

    game = await store.games.game(finished.id)
    assert game is not None and [seat.name for seat in game.by_seat()].count("—") == 1
    assert game.seat_of(bob.id) is not None and game.result == finished.result, "bob's game stays whole"
    assert (await store.users.user(alice.id)).away_until is None
    history = await bob.slash(table.channel, "azul-stats history")
    assert "—" in history.response.content and alice.user.name not in history.response.content


async def test_forget_anonymises_a_finished_league_and_waits_for_a_running_one(db_path: str) -> None:
    store = await Store.open(db_path)

    async def execute(sql: str, params: tuple[object, ...]) -> None:
        async with store.transaction() as db:
            await db.execute(sql, params)

    try:
        for league_id, status in ((1, "over"), (2, "running")):
            await execute(
                "INSERT INTO leagues (id, guild_id, channel_id, creator_id, name, variant, format, table_size, rounds,"
                " time_limit_hours, on_timeout, rated, leftover, signup_closes, status, created_at) VALUES"
                " (?, 5, 6, 777001, ?, 'azul', 'swiss', 2, 3, 24, 'computer', 1, 'bye', '2026-01-01', ?, '2026-01-01')",
                (league_id, f"cup {league_id}", status),
            )
            for joined, (user, name) in enumerate(((777001, "alice"), (777002, "bob"))):
                await execute(
                    "INSERT INTO league_players (league_id, user_id, name, joined) VALUES (?, ?, ?, ?)",
                    (league_id, user, name, joined),
                )
            await execute(
                "INSERT INTO league_tables (league_id, round, number, players) VALUES (?, 1, 1, '[777001, 777002]')",
                (league_id,),
            )
        assert await store.users.forget_user(777001, "—") is None, "a league that goes on needs its player"
        assert await traces(store, "777001")
        await execute("UPDATE league_players SET status = 'withdrew' WHERE league_id = 2 AND user_id = ?", (777001,))
        assert await store.users.forget_user(777001, "—") == 0
        assert await traces(store, "777001", "alice") == []
        standings = await store._fetchall(
            "SELECT user_id, name FROM league_players WHERE league_id = 1 ORDER BY joined"
        )
        assert [tuple(row) for row in standings] == [(-1001, "—"), (777002, "bob")]
        tables = await store._fetchall("SELECT players FROM league_tables WHERE league_id = 1")
        assert tables[0][0] == "[-1001, 777002]"
    finally:
        await store.close()
