"""``python -m bot`` (or ``azul-bot``): run the bot; ``python -m bot health``: check its heartbeat (exit 0 or 1);
``python -m bot ratings rebuild``: recompute every rating from the stored results (the bot may keep running);
``python -m bot copy-db SQLITE_FILE postgresql://…``: copy a bot's SQLite database into an empty PostgreSQL one;
``python -m bot check``: list the games quarantined because their stored state cannot be read (exit 1 when any).

Settings come from environment variables, after ``.env`` in the working directory (the environment wins); README.md
lists them. Exit codes: 0 after a clean stop, 2 when the configuration is missing or wrong, 3 when Discord rejects
the token, 4 when Discord cannot be reached at start-up (no network, DNS failure, connection refused), 5 when the
database cannot be opened or written (each fault is one line naming the file, what is wrong and what to do).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from datetime import timedelta
from typing import TYPE_CHECKING

from bot import health, logs
from bot.config import Config, ConfigError, database_path, environment, load_dotenv_file, read_config

if TYPE_CHECKING:
    from bot.metrics import Endpoint

__all__ = ["EXIT_CONFIG", "EXIT_LOGIN", "EXIT_NETWORK", "EXIT_STORE", "Config", "main", "read_config", "run"]

EXIT_CONFIG = 2
EXIT_LOGIN = 3
EXIT_NETWORK = 4
EXIT_STORE = 5

# README's "Create the Discord application": View Channels, Send Messages, Send Messages in Threads, Attach Files.
INVITE_PERMISSIONS = 274877942784

log = logging.getLogger("bot")


def invite_url(client_id: int) -> str:
    import discord

    return discord.utils.oauth_url(
        client_id, permissions=discord.Permissions(INVITE_PERMISSIONS), scopes=("bot", "applications.commands")
    )


async def run(config: Config) -> int:
    # Imported here, so `python -m bot health` (run by the container's health check) starts in a blink.
    import aiohttp
    import discord

    from bot.client import create_bot
    from bot.computer import Computer
    from bot.pictures import Pictures
    from bot.store import Store, StoreOpenError

    try:
        # Before logging in: a bad database is reported without touching the network, and never hangs.
        await (await Store.open(config.db_path)).close()
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    remind_after = timedelta(hours=config.remind_hours) if config.remind_hours > 0 else None
    bot = create_bot(
        config.db_path,
        dev_guild=config.dev_guild,
        remind_after=remind_after,
        computer=Computer(config.ai_workers),
        pictures=Pictures(config.picture_workers),
        shard_count=config.shard_count,
        shard_ids=config.shard_ids,
        lease=timedelta(seconds=config.lease_seconds) if config.lease_seconds is not None else None,
    )

    async def on_ready() -> None:
        if bot.user is not None:
            log.info("logged in as %s (%s)", bot.user, bot.user.id)
        log.info("invite the bot with %s", invite_url(bot.application_id or (bot.user.id if bot.user else 0)))

    bot.add_listener(on_ready, "on_ready")
    try:
        endpoint = serve_metrics(config)
    except OSError as error:
        print(f"azul-bot: cannot serve metrics on AZUL_METRICS_PORT={config.metrics_port} ({error})", file=sys.stderr)
        return EXIT_CONFIG
    # `docker stop` sends SIGTERM: close the gateway and the database cleanly instead of dying mid-write.
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    heartbeat = asyncio.create_task(health.keep_heartbeat(bot, config.heartbeat_path))
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
    except StoreOpenError as error:  # the file changed between the check above and the bot's own opening
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)
        if endpoint is not None:
            endpoint.close()
    if bot.exit_code:  # the bot stopped itself: its database file was deleted or replaced
        print(f"azul-bot: the database file {config.db_path} was lost while running", file=sys.stderr)
    return bot.exit_code


def serve_metrics(config: Config) -> Endpoint | None:
    if config.metrics_port is None:
        return None
    from bot.metrics import Endpoint

    endpoint = Endpoint(config.metrics_port, config.metrics_address)
    log.info("Prometheus metrics at http://%s:%d/metrics", config.metrics_address, endpoint.port)
    return endpoint


def error_summary(error: BaseException) -> str:
    """aiohttp's message on one line; it names the host and the reason (refused, DNS, unreachable)."""
    return " ".join(str(error).split()) or type(error).__name__


def main(argv: list[str] | None = None) -> int:
    args = argv or []
    environ = environment()
    read_dotenv = load_dotenv_file(environ)
    if args[:1] == ["health"]:
        return health.main(environ)
    if args == ["ratings", "rebuild"]:
        return asyncio.run(rebuild_ratings(database_path(environ)))
    if args == ["check"]:
        from bot.quarantine import check

        return asyncio.run(check(database_path(environ)))
    if args[:1] == ["copy-db"] and len(args) == 3:
        return asyncio.run(copy_db(args[1], args[2]))
    if args:
        print(
            f"azul-bot: unknown arguments {' '.join(args)!r}; use no argument to run the bot, `health`,"
            " `ratings rebuild` or `copy-db SQLITE_FILE postgresql://…`",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    try:
        config = read_config(environ)
    except ConfigError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logs.setup(config.log_level, config.log_format)
    if read_dotenv:
        log.info("read settings from ./.env (environment variables take precedence)")
    try:
        return asyncio.run(run(config))
    except KeyboardInterrupt:
        return 0


async def rebuild_ratings(path: str) -> int:
    """Recompute every rating and its history from the results in the database at ``path``."""
    from bot import ratings
    from bot.store import Store, StoreOpenError

    try:
        store = await Store.open(path)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    try:
        settled = await ratings.settle_pending(store)
        rated = await ratings.rebuild(store)
    finally:
        await store.close()
    print(f"rebuilt the ratings of {rated} rated games in {path} (recorded {settled} missing results first)")
    return 0


async def copy_db(source: str, target: str) -> int:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``target`` (a URL)."""
    from bot.db import is_postgres
    from bot.store import Store, StoreOpenError

    if is_postgres(source) or not is_postgres(target):
        print(
            "azul-bot: copy-db copies an SQLite file into PostgreSQL: copy-db SQLITE_FILE postgresql://…",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    try:
        async with contextlib.AsyncExitStack() as stack:
            sqlite = await Store.open(source)
            stack.push_async_callback(sqlite.close)
            postgres = await Store.open(target)
            stack.push_async_callback(postgres.close)
            copied = await sqlite.copy_into(postgres)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    print(f"copied {source} into PostgreSQL: " + ", ".join(f"{n} {table}" for table, n in copied.items()))
    return 0


def cli() -> int:
    return main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(cli())
