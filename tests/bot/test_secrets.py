"""Database URLs in logs and error messages: taken apart and rebuilt without the password or any query parameter's
value (but a few harmless ones), whatever the password holds."""

from __future__ import annotations

import io
import logging

import pytest

from bot.infra import logs
from bot.infra.config import redacted_url
from bot.infra.store import Store, StoreOpenError

SECRET = "s3cr3t"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://azul@db/azul?password=s3cr3t", "postgresql://azul@db/azul?password=***"),
        ("postgresql://azul:p@ss@s3cr3t@db:5432/azul", "postgresql://azul:***@db:5432/azul"),
        ("postgresql://azul:s3cr3t%40x%3Ay@db/azul", "postgresql://azul:***@db/azul"),
        (
            "postgresql://azul@db/azul?sslmode=require&pass%77ord=s3cr3t",
            "postgresql://azul@db/azul?sslmode=require&password=***",
        ),
        # A password holding "/" or "?" cannot be told from the path or query that follows: all is hidden.
        ("postgresql://azul:a/s3cr3t@db/azul", "postgresql://*** (a database URL that cannot be read)"),
        ("postgresql://azul:a?s3cr3t@db/azul", "postgresql://*** (a database URL that cannot be read)"),
        ("postgresql://azul:1/s3cr3t@db/azul", "postgresql://*** (a database URL that cannot be read)"),
        # An "@" in the query is the query's (as the driver reads it), never the end of the user info.
        ("postgres://azul@db/azul?password=a@s3cr3t", "postgres://azul@db/azul?password=***"),
        ("postgres://azul:pw@db/azul?password=a@s3cr3t", "postgres://azul:***@db/azul?password=***"),
        ("postgres://azul:pw@db/a@s3cr3t", "postgres://azul:***@db/***"),
        ("postgresql://azul:s3cr3t@db:5432/azul?x@s3cr3t=1", "postgresql://azul:***@db:5432/azul?***=***"),
        (
            "postgresql://db/azul?sslpassword=s3cr3t&application_name=azul",
            "postgresql://db/azul?sslpassword=***&application_name=azul",
        ),
        ("postgresql://azul:s3cr3t@db:nope/azul", "postgresql://*** (a database URL that cannot be read)"),
        ("/var/lib/azul/azul.sqlite3", "/var/lib/azul/azul.sqlite3"),
    ],
)
def test_a_database_url_is_shown_without_its_secrets(url: str, shown: str) -> None:
    assert redacted_url(url) == shown


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://azul@127.0.0.1:1/azul?password=s3cr3t",
        "postgresql://azul:p@s3cr3t@127.0.0.1:1/azul",
        "postgresql://azul:%73%33cr%33t@127.0.0.1:1/azul",
    ],
)
async def test_a_database_that_cannot_be_reached_is_named_without_its_password(url: str) -> None:
    with pytest.raises(StoreOpenError) as raised:
        await Store.open(url)
    said = str(raised.value)
    assert "127.0.0.1:1/azul" in said and SECRET not in said and "%73%33" not in said, said


async def test_the_database_and_its_wal_are_readable_by_their_owner_only(tmp_path) -> None:
    path = tmp_path / "azul.sqlite3"
    store = await Store.open(str(path))
    try:
        await store.servers.set_server_defaults(1, 12, "computer")  # a write: the WAL holds it
        for name in (path, tmp_path / "azul.sqlite3-wal", tmp_path / "azul.sqlite3-shm"):
            assert name.exists() and name.stat().st_mode & 0o777 == 0o600, (name, oct(name.stat().st_mode))
    finally:
        await store.close()
    old = tmp_path / "old.sqlite3"  # made by an older bot: readable by everyone
    await (await Store.open(str(old))).close()
    old.chmod(0o644)
    await (await Store.open(str(old))).close()
    assert old.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_database_url_in_any_log_line_is_redacted(log_format: str) -> None:
    stream = io.StringIO()
    logs.setup("INFO", log_format, stream)
    try:
        url = "postgresql://azul:p@s3cr3t@db:5432/azul?sslpassword=s3cr3t"
        logging.getLogger("asyncpg").warning("cannot connect to %s", url)
        try:
            raise OSError(f"refused: {url}")
        except OSError:
            logging.getLogger("bot").exception("failed")
    finally:
        logs.setup("INFO", "text")
    written = stream.getvalue()
    assert "postgresql://azul:***@db:5432/azul" in written and SECRET not in written, written
