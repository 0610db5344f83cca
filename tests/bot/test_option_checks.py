"""The bot checks every option itself: a client that ignores the declared ranges, lengths and types (Discord does not
promise every client checks them) gets a clear, short refusal, and nothing is stored."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord
import pytest
import simcord.interactions

from bot.app.quotas import MEMBER_GAMES_MAX, SERVER_GAMES_MAX
from bot.app.settings import MAX_AWAY_DAYS
from tests.bot.conftest import PG_URL
from tests.bot.table import Table

LONG = "x" * 6000
"""The longest string option Discord lets through: a refusal that quoted it would pass 2,000 characters."""

LEAGUE = {"name": "Spring", "variant": "azul", "format": "swiss"}

CASES: list[tuple[str, dict[str, Any], str]] = [
    # /azul …
    ("azul new", {"variant": "azul", "seats": 5}, "seats"),
    ("azul new", {"variant": "azul", "seats": 1}, "seats"),
    ("azul new", {"variant": "azul", "seats": 2.5}, "seats"),
    ("azul new", {"variant": "azul", "seats": "3"}, "seats"),
    ("azul new", {"variant": LONG}, "variant"),
    ("azul new", {"variant": "azul", "order": LONG}, "order"),
    ("azul new", {"variant": "azul", "hints": "yes"}, "hints"),
    ("azul new", {"variant": "azul", "time_limit": LONG}, "time_limit"),
    ("azul new", {"variant": "azul", "thinking": LONG}, "thinking"),
    ("azul seat", {"level": LONG}, "level"),
    ("azul board", {"public": 1}, "public"),
    # /azul-move …
    ("azul-move take", {"source": LONG}, "source"),
    ("azul-move take", {"source": "1", "color": LONG}, "color"),
    # /azul-me …
    ("azul-me settings", {"quiet_from": 99, "quiet_to": 7}, "quiet_from"),
    ("azul-me settings", {"quiet_from": 22, "quiet_to": -1}, "quiet_to"),
    ("azul-me settings", {"quiet_from": 22.5, "quiet_to": 7}, "quiet_from"),
    ("azul-me settings", {"timezone": LONG}, "timezone"),
    ("azul-me settings", {"every": LONG}, "every"),
    ("azul-me settings", {"reminders": "no"}, "reminders"),
    ("azul-me away", {"days": 0}, "days"),
    ("azul-me away", {"days": MAX_AWAY_DAYS + 1}, "days"),
    ("azul-me away", {"days": 1.5}, "days"),
    ("azul-me quickplay", {"enabled": "on"}, "enabled"),
    # /azul-server …
    ("azul-server settings", {"member_games": 0}, "member_games"),
    ("azul-server settings", {"member_games": MEMBER_GAMES_MAX + 1}, "member_games"),
    ("azul-server settings", {"server_games": SERVER_GAMES_MAX * 10**9}, "server_games"),
    ("azul-server settings", {"server_games": 3.25}, "server_games"),
    ("azul-server settings", {"time_limit": LONG}, "time_limit"),
    ("azul-server league create", {**LEAGUE, "name": LONG}, "name"),
    ("azul-server league create", {**LEAGUE, "name": ""}, "name"),
    ("azul-server league create", {**LEAGUE, "name": "   "}, "name"),
    ("azul-server league create", {**LEAGUE, "table_size": 5}, "table_size"),
    ("azul-server league create", {**LEAGUE, "table_size": 2.5}, "table_size"),
    ("azul-server league create", {**LEAGUE, "rounds": 0}, "rounds"),
    ("azul-server league create", {**LEAGUE, "rounds": 16}, "rounds"),
    ("azul-server league create", {**LEAGUE, "signup_hours": 337}, "signup_hours"),
    ("azul-server league create", {**LEAGUE, "round_days": 15}, "round_days"),
    ("azul-server league create", {**LEAGUE, "format": LONG}, "format"),
    # /azul-league …, /azul-stats …, /azul-rules
    ("azul-league standings", {"league": LONG}, "league"),
    ("azul-league withdraw", {"league": LONG}, "league"),
    ("azul-stats replay", {"game": 0}, "game"),
    ("azul-stats replay", {"game": 2**80}, "game"),
    ("azul-stats leaderboard", {"game": LONG}, "game"),
    ("azul-rules", {"variant": LONG}, "variant"),
]


def stored(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the claims (leases come and go with any request)."""
    with sqlite3.connect(db_path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            table: sorted(db.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in tables
            if table != "claims"
        }


@pytest.fixture
def careless_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that sends whatever was typed: SimCord, like Discord's own clients, would check the declarations."""
    monkeypatch.setattr(simcord.interactions, "validate_option_value", lambda command, option, value: value)


@pytest.mark.skipif(bool(PG_URL), reason="reads the SQLite file to prove nothing was stored")
async def test_every_option_out_of_its_declaration_is_refused_and_nothing_is_stored(
    simcord_env, db_path, careless_client
) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(simcord_env.create_user("admin"), roles=[admins])
    await table.open()
    before = stored(db_path)
    for command, options, field in CASES:
        who = admin if command.startswith("azul-server") else alice
        result = await who.slash(table.channel, command, **options)
        assert result.ephemeral, (command, options)
        said = result.response.content
        print(f"/{command} {field}: {len(said)} characters: {said}")
        assert f"`{field}`" in said, (command, options, said)
        assert len(said) < 200 and "xxxxxxxxxx" not in said, said
        assert stored(db_path) == before, (command, options)


@pytest.mark.parametrize(
    ("locale", "words"),
    [("pl", "musi być liczbą całkowitą od 0 do 23"), ("uk", "має бути цілим числом від 0 до 23")],
)
async def test_an_option_refusal_is_in_the_players_language(
    simcord_env, careless_client, discord_locales, locale, words
) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    discord_locales[alice.id] = locale
    result = await alice.slash(table.channel, "azul-me settings", quiet_from=99, quiet_to=7)
    assert words in result.response.content and "`quiet_from`" in result.response.content
