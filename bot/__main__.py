"""``python -m bot`` (or ``azul-bot``): run the bot with configuration from environment variables.

DISCORD_TOKEN (required), AZUL_DB (default ./azul.sqlite3), AZUL_DEV_GUILD (sync commands to one server at once),
AZUL_LOG_LEVEL (default INFO), AZUL_REMIND_HOURS (remind waiting players after this long, once per turn; default 24,
0 turns it off). Exit codes: 0 after a clean stop, 2 when the configuration is missing or wrong, 3 when Discord
rejects the token, 4 when Discord cannot be reached at start-up (no network, DNS failure, connection refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

import aiohttp
import discord

EXIT_CONFIG = 2
EXIT_LOGIN = 3
EXIT_NETWORK = 4


@dataclass(frozen=True)
class Config:
    token: str
    db_path: str
    dev_guild: int | None
    log_level: str
    remind_hours: float = 24.0


class ConfigError(Exception):
    pass


def read_config(environ: Mapping[str, str]) -> Config:
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Create a bot in the Discord Developer Portal (Applications > your app > Bot >"
            " Reset Token) and run: DISCORD_TOKEN=... python -m bot   (see README.md and .env.example)"
        )
    guild = environ.get("AZUL_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"AZUL_DEV_GUILD must be a server id (a number), not {guild!r}")
    level = environ.get("AZUL_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"AZUL_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    remind = environ.get("AZUL_REMIND_HOURS", "24").strip() or "24"
    try:
        remind_hours = float(remind)
    except ValueError:
        raise ConfigError(
            f"AZUL_REMIND_HOURS must be a number of hours (0 turns reminders off), not {remind!r}"
        ) from None
    if remind_hours < 0:
        raise ConfigError("AZUL_REMIND_HOURS cannot be negative")
    db_path = environ.get("AZUL_DB", "").strip() or "azul.sqlite3"
    return Config(token, db_path, int(guild) if guild else None, level, remind_hours)


async def run(config: Config) -> int:
    from bot.client import create_bot

    remind_after = timedelta(hours=config.remind_hours) if config.remind_hours > 0 else None
    bot = create_bot(config.db_path, dev_guild=config.dev_guild, remind_after=remind_after)
    # `docker stop` sends SIGTERM: close the gateway and the database cleanly instead of dying mid-write.
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN (login failed). Check the token in the Developer Portal.", file=sys.stderr
        )
        return EXIT_LOGIN
    except aiohttp.ClientConnectionError as error:
        # Only the first contact gets here: once logged in, discord.py reconnects on its own.
        print(
            f"azul-bot: cannot reach Discord ({error_summary(error)}). This is a network problem, not the token:"
            " check this machine's internet connection, DNS and any firewall or proxy in front of discord.com.",
            file=sys.stderr,
        )
        return EXIT_NETWORK
    return 0


def error_summary(error: BaseException) -> str:
    """aiohttp's message on one line; it names the host and the reason (refused, DNS, unreachable)."""
    return " ".join(str(error).split()) or type(error).__name__


def main(argv: list[str] | None = None) -> int:
    try:
        config = read_config(os.environ)
    except ConfigError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run(config))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
