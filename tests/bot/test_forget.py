"""``/azul me forget`` through the real bot: refused while the person sits in an open game; one confirm click, on a
button that holds their id (only they may press it: the message is theirs alone, and a forged id is refused); and
afterwards no trace of their id or name in any table, while the others' games and results stay whole."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.bot.table import Table


def traces(db_path: str, *needles: str) -> list[str]:
    """Every table.column of the SQLite file at ``db_path`` holding one of ``needles`` (as a value or within one)."""
    found = []
    with sqlite3.connect(db_path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for column in columns:
                for (value,) in db.execute(f"SELECT {column} FROM {table}"):
                    if value is not None and any(needle in str(value) for needle in needles):
                        found.append(f"{table}.{column}={value!r}")
    return found


def forget_button(result: Any) -> str:
    buttons = [c for row in result.response.components for c in row["components"]]
    (button,) = [b for b in buttons if b["custom_id"].startswith("azul:forget:")]
    assert button["label"] == "Delete my data"
    return str(button["custom_id"])


async def test_forget_erases_a_person_and_keeps_the_others_games(simcord_env, db_path: str) -> None:
    if "://" in db_path:
        pytest.skip("the table scan reads the SQLite file")
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await table.open("azul")
    for _ in range(2):
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    await alice.slash(table.channel, "azul me away", days=3)
    await alice.slash(table.channel, "azul me quickplay", enabled=True)
    await alice.slash(table.channel, "azul resign")
    finished = await table.game()
    assert finished.status == "over"
    store = table.bot.service.store
    assert traces(db_path, str(alice.id)), "she is in the database before"

    await alice.slash(table.channel, "azul new", variant="azul", seats=2)  # an open game: refused
    refused = await alice.slash(table.channel, "azul me forget")
    assert refused.ephemeral and "You still have open games" in refused.response.content
    assert not refused.response.components
    await alice.slash(table.channel, "azul leave")

    asked = await alice.slash(table.channel, "azul me forget")
    assert asked.ephemeral and "This cannot be undone" in asked.response.content
    custom_id = forget_button(asked)
    assert traces(db_path, str(alice.id)), "asking changes nothing"

    done = await alice.click(asked.response, custom_id=custom_id)
    assert "Done: your settings, profile and ratings are deleted" in done.response.content, done.response.content
    assert not done.response.components
    assert traces(db_path, str(alice.id), alice.user.name) == []

    game = await store.game(finished.id)
    assert game is not None and [seat.name for seat in game.by_seat()].count("—") == 1
    assert game.seat_of(bob.id) is not None and game.result == finished.result, "bob's game stays whole"
    assert (await store.user(alice.id)).away_until is None
    history = await bob.slash(table.channel, "azul-stats history")
    assert "—" in history.response.content and alice.user.name not in history.response.content
