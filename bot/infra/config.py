"""The bot's settings: environment variables, after ``.env`` in the working directory (the environment wins).

Every variable, its default and its exit code are listed in README.md ("Configuration") and ``.env.example``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

HIDDEN = "***"
SAFE_URL_PARAMETERS = frozenset({"sslmode", "application_name", "connect_timeout", "target_session_attrs", "port"})
"""Query parameters of a database URL shown as they are in logs; every other one's value is hidden (libpq and
asyncpg accept ``password=``, ``sslpassword=``, key files … there)."""
HEARTBEAT_SECONDS = 30.0
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
MIN_LEASE_SECONDS = 2.0
MAX_LEASE_SECONDS = 3600.0


@dataclass(frozen=True)
class Config:
    token: str
    db_path: str
    dev_guild: int | None
    log_level: str
    remind_hours: float = 24.0
    log_format: str = "text"
    metrics_port: int | None = None
    metrics_address: str = "0.0.0.0"
    heartbeat_path: str = ""  # "" means next to the database (see heartbeat_path_of)
    ai_workers: int = 1
    picture_workers: int = 0  # 0: pictures are drawn in a thread of the bot's process
    shard_count: int | None = None  # None: one process, no sharding
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count in this process
    lease_seconds: float | None = None  # None: each kind of background work keeps its own lease (minutes)


class ConfigError(Exception):
    pass


def load_dotenv_file(environ: MutableMapping[str, str], path: Path = Path(".env")) -> bool:
    """Copy the variables of ``path`` into ``environ`` where not set already; True when the file was read."""
    if not path.is_file():
        return False
    from dotenv import dotenv_values  # noqa: PLC0415 - only with a file: the image's settings come from the environment

    for name, value in dotenv_values(path).items():
        if value is not None:
            environ.setdefault(name, value)
    return True


def database_path(environ: Mapping[str, str]) -> str:
    return environ.get("AZUL_DB", "").strip() or "azul.sqlite3"


def heartbeat_path_of(environ: Mapping[str, str]) -> str:
    """Where the connected bot keeps its heartbeat: AZUL_HEARTBEAT_FILE, or beside the database (in the working
    directory when the database is PostgreSQL's)."""
    chosen = environ.get("AZUL_HEARTBEAT_FILE", "").strip()
    if chosen:
        return chosen
    database = database_path(environ)
    return "azul.heartbeat" if database.startswith(("postgresql://", "postgres://")) else database + ".heartbeat"


def read_config(environ: Mapping[str, str]) -> Config:
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Create a bot in the Discord Developer Portal (Applications > your app > Bot >"
            " Reset Token) and run: DISCORD_TOKEN=... python -m bot   (see README.md and .env.example)"
        )
    guild = environ.get("AZUL_DEV_GUILD", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        raise ConfigError(f"AZUL_DEV_GUILD must be a server id (a number), not {guild!r}")
    level = environ.get("AZUL_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"AZUL_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    log_format = environ.get("AZUL_LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"AZUL_LOG_FORMAT must be text or json, not {log_format!r}")
    remind = environ.get("AZUL_REMIND_HOURS", "24").strip() or "24"
    try:
        remind_hours = float(remind)
    except ValueError:
        raise ConfigError(
            f"AZUL_REMIND_HOURS must be a number of hours (0 turns reminders off), not {remind!r}"
        ) from None
    if remind_hours < 0:
        raise ConfigError("AZUL_REMIND_HOURS cannot be negative")
    return Config(
        token=token,
        db_path=database_path(environ),
        dev_guild=int(guild) if guild else None,
        log_level=level,
        remind_hours=remind_hours,
        log_format=log_format,
        metrics_port=metrics_port_of(environ),
        metrics_address=environ.get("AZUL_METRICS_ADDRESS", "").strip() or "0.0.0.0",
        heartbeat_path=heartbeat_path_of(environ),
        ai_workers=ai_workers_of(environ),
        picture_workers=picture_workers_of(environ),
        lease_seconds=lease_seconds_of(environ),
        **shards_of(environ),
    )


def shards_of(environ: Mapping[str, str]) -> dict[str, Any]:
    """Discord's sharding: AZUL_SHARD_COUNT shards in all, of which this process runs AZUL_SHARD_IDS (a list such as
    ``0,1``; all when empty). Several processes share one PostgreSQL database (see README, "Scaling out")."""
    count = environ.get("AZUL_SHARD_COUNT", "").strip()
    ids = environ.get("AZUL_SHARD_IDS", "").strip()
    if not count:
        if ids:
            raise ConfigError("AZUL_SHARD_IDS needs AZUL_SHARD_COUNT (how many shards there are in all)")
        return {}
    if not (count.isascii() and count.isdigit() and int(count) >= 1):
        raise ConfigError(f"AZUL_SHARD_COUNT must be the number of shards (1 or more), not {count!r}")
    total = int(count)
    if not ids:
        return {"shard_count": total, "shard_ids": None}
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isascii() and part.isdigit() and int(part) < total for part in parts):
        raise ConfigError(
            f"AZUL_SHARD_IDS must list shard numbers from 0 to {total - 1}, separated by commas; not {ids!r}"
        )
    return {"shard_count": total, "shard_ids": tuple(sorted({int(part) for part in parts}))}


def lease_seconds_of(environ: Mapping[str, str]) -> float | None:
    """How long the background work of a bot process that died (a computer's turn, a missing board, a due timer)
    waits before another process takes it over; the sweeps that look for such work run as often. Unset: two to ten
    minutes, by kind. It must outlast the slowest piece of work (a hard computer move takes about a second)."""
    lease = environ.get("AZUL_LEASE_SECONDS", "").strip()
    if not lease:
        return None
    try:
        seconds = float(lease)
    except ValueError:
        seconds = float("nan")
    if not MIN_LEASE_SECONDS <= seconds <= MAX_LEASE_SECONDS:  # also false for nan and inf
        raise ConfigError(
            f"AZUL_LEASE_SECONDS must be a number of seconds from {MIN_LEASE_SECONDS:g} to {MAX_LEASE_SECONDS:g}"
            f" (how long a dead process's work waits before another bot process takes it over), not {lease!r}"
        )
    return seconds


def cores() -> int:
    """The CPU cores this process may use (its affinity where the system tells it, else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def ai_workers_of(environ: Mapping[str, str]) -> int:
    """How many processes search for computer players at once (each takes one core while it thinks). By default
    every core but one (the bot's own), and at least one."""
    workers = environ.get("AZUL_AI_WORKERS", "").strip() or str(min(64, max(1, cores() - 1)))
    if not (workers.isascii() and workers.isdigit() and 1 <= int(workers) <= 64):
        raise ConfigError(f"AZUL_AI_WORKERS must be a number of worker processes (1-64), not {workers!r}")
    return int(workers)


def picture_workers_of(environ: Mapping[str, str]) -> int:
    """How many processes draw board pictures at once; 0 (the default) draws them in a thread of the bot's process,
    which suits a small bot. A busy bot's boards would queue behind its one interpreter: give it a few processes."""
    workers = environ.get("AZUL_PICTURE_WORKERS", "").strip() or "0"
    if not (workers.isascii() and workers.isdigit() and int(workers) <= 64):
        raise ConfigError(
            f"AZUL_PICTURE_WORKERS must be a number of worker processes (0-64; 0 draws in the bot's process),"
            f" not {workers!r}"
        )
    return int(workers)


def metrics_port_of(environ: Mapping[str, str]) -> int | None:
    port = environ.get("AZUL_METRICS_PORT", "").strip()
    if not port:
        return None
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise ConfigError(f"AZUL_METRICS_PORT must be a TCP port (1-65535), or empty to turn metrics off; not {port!r}")
    return int(port)


def environment() -> MutableMapping[str, str]:
    return os.environ


def redacted_url(target: str) -> str:
    """``AZUL_DB`` fit for a log line or an error message: an SQLite path as it is; a URL taken apart (never matched
    by a pattern, which a password holding ``@``, ``:`` or ``/`` would defeat) and rebuilt from what is safe to
    show: the user name, host, port and database; the password and the value of every query parameter but a few
    harmless ones become ``***``. Whatever cannot be told apart for sure is hidden too."""
    scheme, found, rest = target.partition("://")
    if not found:
        return target
    unreadable = f"{scheme}://{HIDDEN} (a database URL that cannot be read)"
    # The host part ends at the first "/", "?" or "#", as the driver reads it (asyncpg, through urllib); within it the
    # user info ends at the last "@" (a password may hold "@", a host never does). An "@" further on (a query's
    # ``password=a@b``) is not the host's; but with none before it, a password holding "/" or "?" cannot be told apart.
    ends = [found for found in (rest.find(mark) for mark in "/?#") if found >= 0]
    authority, tail = rest[: min(ends, default=len(rest))], rest[min(ends, default=len(rest)) :]
    userinfo, at, host = authority.rpartition("@")
    if "@" in tail and not at:
        return unreadable
    try:
        parts = urlsplit(f"{scheme}://{host}{tail}")
        parts.port  # noqa: B018 (a malformed port raises here)
    except ValueError:
        return unreadable
    netloc = parts.netloc
    if at:
        user, has_password, _ = userinfo.partition(":")
        shown_user = user if _PLAIN.fullmatch(user) else HIDDEN
        netloc = f"{shown_user}{':' + HIDDEN if has_password else ''}@{netloc}"
    query = [
        (key if _PLAIN.fullmatch(key) else HIDDEN, value if key.lower() in SAFE_URL_PARAMETERS else HIDDEN)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
    ]
    path = parts.path if "@" not in parts.path else f"/{HIDDEN}"
    return urlunsplit((scheme, netloc, path, urlencode(query, safe="*", quote_via=quote), ""))


_PLAIN = re.compile(r"[A-Za-z0-9_.-]+")
