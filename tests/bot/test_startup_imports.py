"""Start-up imports only what the first answer needs: the drivers and libraries of other paths load when used."""

from __future__ import annotations

import subprocess
import sys

# Imported on first use: asyncpg only for a PostgreSQL URL, openskill only when a game's result is rated.
LAZY = ("asyncpg", "openskill")


def test_the_bot_starts_without_the_postgresql_driver_or_the_rating_model() -> None:
    probe = f"import sys, bot.client; print(*[name for name in {LAZY!r} if name in sys.modules])"
    loaded = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout.split()
    assert loaded == []


def test_the_rating_model_still_loads_when_a_result_is_rated() -> None:
    from bot.app import ratings

    assert ratings.initial() == (25.0, 25.0 / 3)
    assert ratings.model() is ratings.model()  # built once
