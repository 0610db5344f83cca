"""``python -m bot`` (or ``azul-bot``): run the bot; ``python -m bot health``: check its heartbeat (exit 0 or 1);
``python -m bot sync``: sync the slash commands with Discord now (the bot syncs by itself when they changed);
``python -m bot ratings rebuild``: recompute every rating from the stored results (the bot may keep running);
``python -m bot copy-db SQLITE_FILE postgresql://…``: copy a bot's SQLite database into an empty PostgreSQL one;
``python -m bot backup PATH``: an online copy of the SQLite database, checked (for PostgreSQL: the pg_dump command);
``python -m bot check``: list the games quarantined because their stored state cannot be read (exit 1 when any);
``python -m bot precompile``: compile the start-up's dataclass methods into ``__pycache__`` (the image's build does).
``python -m bot --help`` and ``python -m bot COMMAND --help`` say the same. A command is a function of the parsed
arguments and the environment, registered in :func:`parser` (a few lines each).

Settings come from environment variables, after ``.env`` in the working directory (the environment wins); README.md
lists them. Exit codes: 0 after a clean stop, 2 when the configuration (or the command line) is missing or wrong, 3
when Discord rejects the token, 4 when Discord cannot be reached at start-up (no network, DNS failure, connection
refused), 5 when the database cannot be opened or written, 6 when Discord refuses the command tree, 7 when a
registered game cannot be drawn (a broken install; checked beside the start-up, so the bot stops once connected).
Each fault is one line naming the file, what is wrong and what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable, MutableMapping
from datetime import timedelta
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from bot.infra import dataclass_cache, health, logs
from bot.infra.config import (
    Config,
    ConfigError,
    database_path,
    environment,
    load_dotenv_file,
    read_config,
    redacted_url,
)

if TYPE_CHECKING:
    import argparse

    from bot.client import AzulBot
    from bot.infra.metrics import Endpoint

__all__ = [
    "EXIT_CONFIG",
    "EXIT_LOGIN",
    "EXIT_NETWORK",
    "EXIT_STORE",
    "EXIT_SYNC",
    "EXIT_UNDRAWABLE",
    "Config",
    "main",
    "parser",
    "read_config",
    "run",
]

EXIT_CONFIG = 2
EXIT_LOGIN = 3
EXIT_NETWORK = 4
EXIT_STORE = 5
EXIT_SYNC = 6
EXIT_UNDRAWABLE = 7

# README's "Create the Discord application": View Channels, Send Messages, Send Messages in Threads, Attach Files.
INVITE_PERMISSIONS = 274877942784

LOGIN_FAILED = "Discord rejected DISCORD_TOKEN (login failed). Check the token in the Developer Portal."

log = logging.getLogger("bot")


def invite_url(client_id: int) -> str:
    import discord

    return discord.utils.oauth_url(
        client_id, permissions=discord.Permissions(INVITE_PERMISSIONS), scopes=("bot", "applications.commands")
    )


def configured_bot(config: Config, *, sync_only: bool) -> AzulBot:
    """The bot as ``config`` describes it (not yet logged in)."""
    from bot.app.computer import Computer
    from bot.app.pictures import Pictures
    from bot.client import create_bot

    return create_bot(
        config.db_path,
        dev_guild=config.dev_guild,
        remind_after=timedelta(hours=config.remind_hours) if config.remind_hours > 0 else None,
        computer=Computer(config.ai_workers),
        pictures=Pictures(config.picture_workers),
        shard_count=config.shard_count,
        shard_ids=config.shard_ids,
        lease=timedelta(seconds=config.lease_seconds) if config.lease_seconds is not None else None,
        sync_only=sync_only,
    )


async def run(config: Config, *, sync_only: bool = False) -> int:
    """Run the bot until it stops; with ``sync_only``, log in, sync the command tree and stop."""
    # Imported here, so `python -m bot health` (run by the container's health check) starts in a blink.
    from bot.infra.store import Store, StoreOpenError, only_process

    held = None
    try:
        held = only_process(config.db_path)  # this process's until it stops
        # Before logging in: a bad database is reported without touching the network, and never hangs.
        await (await Store.open(config.db_path)).close()
        return await serve(config, sync_only=sync_only)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    finally:
        if held is not None:
            held.release()


async def serve(config: Config, *, sync_only: bool) -> int:
    """The bot, once its database opened: log in and run until it stops."""
    import aiohttp
    import discord

    from bot.infra.store import StoreOpenError
    from bot.ui.commands import CommandSyncRefused

    bot = configured_bot(config, sync_only=sync_only)
    dataclass_cache.save()  # every module of the start-up is loaded: the next start compiles none of their methods
    collect_from_now()
    if sync_only:
        return await sync_commands(bot, config.token)

    async def on_ready() -> None:
        if bot.user is not None:
            log.info("logged in as %s (%s)", bot.user, bot.user.id)
        log.info("invite the bot with %s", invite_url(bot.application_id or (bot.user.id if bot.user else 0)))

    bot.add_listener(on_ready, "on_ready")
    try:
        endpoint = serve_metrics(config, lambda: bot.latency)
    except OSError as error:
        print(f"azul-bot: cannot serve metrics on AZUL_METRICS_PORT={config.metrics_port} ({error})", file=sys.stderr)
        return EXIT_CONFIG
    runner: asyncio.Future[None] | None = None

    async def stop() -> None:
        await bot.close()
        if runner is not None:  # discord.py would sleep out a reconnect back-off (minutes) before it sees the close
            runner.cancel()

    # `docker stop` sends SIGTERM: close the gateway and the database cleanly instead of dying mid-write.
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(stop()))
    heartbeat = asyncio.create_task(health.keep_heartbeat(bot, config.heartbeat_path))
    try:
        async with bot:
            runner = asyncio.ensure_future(bot.start(config.token))
            await asyncio.wait({runner})
            if not runner.cancelled():
                runner.result()  # a failed login or start raises here
    except (discord.LoginFailure, aiohttp.ClientConnectionError, StoreOpenError, CommandSyncRefused) as error:
        return start_failed(error)
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)
        if endpoint is not None:
            endpoint.close()
    if bot.exit_code:  # the bot stopped itself: its database file was lost, or a game cannot be drawn
        print(f"azul-bot: {bot.stopped_because}", file=sys.stderr)
    return bot.exit_code


def start_failed(error: Exception) -> int:
    """What stopped the bot before it could serve, told in one line, and its exit code."""
    import discord

    from bot.infra.store import StoreOpenError
    from bot.ui.commands import CommandSyncRefused

    if isinstance(error, discord.LoginFailure):
        print(LOGIN_FAILED, file=sys.stderr)
        return EXIT_LOGIN
    if isinstance(error, StoreOpenError):  # the file changed between the first check and the bot's own opening
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    if isinstance(error, CommandSyncRefused):
        print(f"azul-bot: {error_summary(error)}. The bot would have no commands, so it stops.", file=sys.stderr)
        return EXIT_SYNC
    # Only the first contact gets here: once logged in, discord.py reconnects on its own.
    print(
        f"azul-bot: cannot reach Discord ({error_summary(error)}). This is a network problem, not the token:"
        " check this machine's internet connection, DNS and any firewall or proxy in front of discord.com.",
        file=sys.stderr,
    )
    return EXIT_NETWORK


def serve_metrics(config: Config, latency: Callable[[], float]) -> Endpoint | None:
    """The metrics endpoint, when configured, with the gateway's ``latency`` among its figures."""
    if config.metrics_port is None:
        return None
    from bot.infra import metrics
    from bot.infra.metrics import Endpoint

    endpoint = Endpoint(config.metrics_port, config.metrics_address)
    log.info("Prometheus metrics at http://%s:%d/metrics", config.metrics_address, endpoint.port)
    metrics.watch_gateway(latency)
    return endpoint


def error_summary(error: BaseException) -> str:
    """aiohttp's message on one line; it names the host and the reason (refused, DNS, unreachable)."""
    return " ".join(str(error).split()) or type(error).__name__


Command = Callable[["argparse.Namespace", MutableMapping[str, str]], int]


def parser() -> argparse.ArgumentParser:
    """The command line; each command's function is its ``command`` default."""
    import argparse  # only a command line needs it: with gettext, about 5 ms of every start

    top = argparse.ArgumentParser(
        prog="azul-bot",
        description="The Azul Discord bot. Without a command it runs the bot; settings come from environment"
        " variables and ./.env (see README.md).",
    )
    top.set_defaults(command=run_bot)
    commands = top.add_subparsers(title="commands", metavar="COMMAND")

    def add(name: str, command: Command, summary: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.set_defaults(command=command)
        return sub

    add("run", run_bot, "Run the bot (the default).")
    add("health", check_health, "Exit 0 when the running bot's heartbeat is fresh, else 1 (for container checks).")
    add("sync", sync_now, "Sync the slash commands with Discord now, changed or not, and stop.")
    ratings = add("ratings", lambda _args, _environ: missing_action(ratings), "Ratings kept from the results.")
    actions = ratings.add_subparsers(title="actions", metavar="ACTION")
    rebuild = actions.add_parser("rebuild", help="Recompute every rating from the stored results.")
    rebuild.set_defaults(command=lambda _args, environ: asyncio.run(rebuild_ratings(database_path(environ))))
    copy = add("copy-db", copy_database, "Copy a bot's SQLite database into an empty PostgreSQL database.")
    copy.add_argument("source", metavar="SQLITE_FILE")
    copy.add_argument("target", metavar="POSTGRESQL_URL", help="postgresql://user:password@host:port/database")
    add("precompile", precompile, "Compile the start-up's dataclass methods into __pycache__ (the image's build).")
    add("check", check_games, "List the games quarantined because their stored state cannot be read (exit 1 if any).")
    copy_to = add("backup", backup, "An online, checked copy of the SQLite database (PostgreSQL: says how to dump).")
    copy_to.add_argument("path", metavar="PATH", help="the new file (an existing one is never overwritten)")
    return top


def missing_action(sub: argparse.ArgumentParser) -> int:
    sub.print_usage(sys.stderr)
    return EXIT_CONFIG


def main(argv: list[str] | None = None) -> int:
    try:
        # No arguments (the image's command): the bot runs, and the parsers are not built (nor argparse imported);
        # argparse passes each help text through gettext, which looks for translation files every time: 5 ms of every
        # start, and its import as much again.
        args = parser().parse_args(argv) if argv else cast("argparse.Namespace", SimpleNamespace(command=run_bot))
    except SystemExit as stop:  # --help (0) or a bad command line (2, after argparse's usage line)
        return int(stop.code or 0)
    environ = environment()
    args.read_dotenv = load_dotenv_file(environ)
    command: Command = args.command
    return command(args, environ)


def check_health(_args: argparse.Namespace, environ: MutableMapping[str, str]) -> int:
    return health.main(environ)


def check_games(_args: argparse.Namespace, environ: MutableMapping[str, str]) -> int:
    from bot.app.quarantine import check

    return asyncio.run(check(database_path(environ)))


def precompile(_args: argparse.Namespace, _environ: MutableMapping[str, str]) -> int:
    """Load every module the start-up loads, so the dataclass methods they compile are written beside the bytecode
    (:mod:`bot.infra.dataclass_cache`): the image runs it at build time, as its runtime cannot write there."""
    cache = dataclass_cache.install()
    from bot.app.computer import Computer  # noqa: F401 - imported for their dataclasses, as configured_bot does
    from bot.app.pictures import Pictures  # noqa: F401
    from bot.client import create_bot  # noqa: F401
    from bot.games import check_adapters

    check_adapters()  # the games' adapters, as the bot's setup loads them
    compiled = cache.compiled
    if not cache.save(asked=True) and compiled:
        print(f"azul-bot: cannot write {cache.path}", file=sys.stderr)
        return 1
    print(f"compiled {compiled} dataclass methods into {cache.path} ({len(cache.used)} in all)")
    return 0


def copy_database(args: argparse.Namespace, _environ: MutableMapping[str, str]) -> int:
    return asyncio.run(copy_db(args.source, args.target))


def run_bot(args: argparse.Namespace, environ: MutableMapping[str, str]) -> int:
    return start(args, environ, sync_only=False)


def sync_now(args: argparse.Namespace, environ: MutableMapping[str, str]) -> int:
    return start(args, environ, sync_only=True)


def start(args: argparse.Namespace, environ: MutableMapping[str, str], *, sync_only: bool) -> int:
    try:
        config = read_config(environ)
    except ConfigError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logs.setup(config.log_level, config.log_format)
    if args.read_dotenv:
        log.info("read settings from ./.env (environment variables take precedence)")
    dataclass_cache.install()  # before the start-up's modules make their dataclasses
    gc.disable()  # until the bot is built (collect_from_now)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            return runner.run(run(config, sync_only=sync_only))
    except KeyboardInterrupt:
        return 0
    finally:
        gc.enable()


YOUNGEST_COLLECTED_AFTER = 5_000
"""Allocations (net) between two collections of the youngest generation; CPython's default is 700. A move in flight
holds its game's state, rows and Discord objects for a tenth of a second, so a collection finds nearly everything it
looks at still in use: under load (``python -m bench load``, 16 moves in flight) collections took 0.2 ms of the event
loop's CPU per move at 700, 0.09 ms at 5,000 (each a millisecond or two; at 20,000 no less in all)."""


def collect_from_now() -> None:
    """What the start-up built (its modules, the command tree, the bot) lives as long as the bot, so the collector,
    paused while it was built (:func:`start`: a tenth of the start-up's CPU went to collections that freed nothing),
    resumes with it moved out of the way of every later collection, and collects less often than by default."""
    if not gc.isenabled():
        gc.freeze()
        gc.set_threshold(YOUNGEST_COLLECTED_AFTER, *gc.get_threshold()[1:])
        gc.enable()


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed: its scheduling, sockets and wake-ups from other
    threads (each SQLite statement's answer) cost the loop about a tenth less CPU per move (``python -m bench
    load``); else asyncio's own."""
    try:
        import uvloop  # only the bot's run needs it, not the other commands
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


async def sync_commands(bot: AzulBot, token: str) -> int:
    """Log in (which syncs, as ``bot.sync_only`` says), then stop."""
    import discord

    from bot.ui.commands import CommandSyncRefused

    try:
        async with bot:
            await bot.login(token)
    except discord.LoginFailure:
        print(LOGIN_FAILED, file=sys.stderr)
        return EXIT_LOGIN
    except CommandSyncRefused as error:
        print(f"azul-bot: {error_summary(error)}", file=sys.stderr)
        return EXIT_SYNC
    print("synced the application commands")
    return 0


async def rebuild_ratings(path: str) -> int:
    """Recompute every rating and its history from the results in the database at ``path``."""
    from bot.app import ratings
    from bot.infra.store import Store, StoreOpenError

    try:
        store = await Store.open(path, existing=True)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    try:
        settled = await ratings.settle_pending(store)
        rated = await ratings.rebuild(store)
    finally:
        await store.close()
    shown = redacted_url(path)
    print(f"rebuilt the ratings of {rated} rated games in {shown} (recorded {settled} missing results first)")
    return 0


async def copy_db(source: str, target: str) -> int:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``target`` (a URL)."""
    from bot.infra.db import is_postgres
    from bot.infra.store import Store, StoreOpenError

    if is_postgres(source) or not is_postgres(target):
        print(
            "azul-bot: copy-db copies an SQLite file into PostgreSQL: copy-db SQLITE_FILE postgresql://…",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    try:
        async with contextlib.AsyncExitStack() as stack:
            sqlite = await Store.open(source, existing=True)
            stack.push_async_callback(sqlite.close)
            postgres = await Store.open(target)
            stack.push_async_callback(postgres.close)
            copied = await sqlite.copy_into(postgres)
    except StoreOpenError as error:
        print(f"azul-bot: {error}", file=sys.stderr)
        return EXIT_STORE
    print(
        f"copied {source} into PostgreSQL ({redacted_url(target)}): "
        + ", ".join(f"{n} {table}" for table, n in copied.items())
    )
    return 0


def backup(args: argparse.Namespace, environ: MutableMapping[str, str]) -> int:
    """``backup PATH``: an online, checked copy of the database (:mod:`bot.app.backup`)."""
    from bot.app.backup import backup as make_backup

    return asyncio.run(make_backup(database_path(environ), args.path))


def cli() -> int:
    return main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(cli())
