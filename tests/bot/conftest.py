"""The real bot against SimCord's emulated Discord, with a fresh database per test and a fixed seed."""

from __future__ import annotations

import itertools
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import simcord.env
import simcord.interactions
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from simcord.backend import errors as simcord_errors
from simcord.backend.models.interaction import Interaction as SimInteraction
from simcord.backend.ops.commands import CommandsMixin
from simcord.http import router as simcord_router

from bot.app.computer import Computer
from bot.app.errors import Refusal
from bot.client import AzulBot, create_bot
from bot.infra.clock import ManualClock
from bot.ui.replies import unwrap
from engine import EngineError
from tests.bot import discord_limits
from tests.bot.fake_discord import FIRST_ANSWER_SECONDS, TOKEN_SECONDS, FakeDiscord
from tests.pgcluster import fresh_schema

SEED = 20240611
COMPUTER_BUDGET = {"iterations": 12}
"""Computer players search a fixed number of iterations in tests: every move is deterministic and quick."""


PG_URL = os.environ.get("AZUL_TEST_PG", "").strip()
"""A PostgreSQL cluster (``postgresql://…``): the tests that take ``db_path`` run on it, each in a fresh schema,
and only those (the rest do not touch the store's engine). See ``.ci/run``."""


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """The test's own empty database: an SQLite file, or a PostgreSQL schema when AZUL_TEST_PG is set."""
    return fresh_schema(PG_URL) if PG_URL else str(tmp_path / "azul.sqlite3")


@pytest.fixture(autouse=True)
def _log_handler_goes_with_its_test() -> Iterator[None]:
    """A test that runs the bot's ``main()`` gets its log handler on the stderr pytest captured for that test: the
    handler goes with the test, or a later test's captured stderr would get a "Logging error" for the closed stream."""
    root = logging.getLogger()
    before, level = set(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in before and type(handler) is logging.StreamHandler:  # pytest's own are subclasses
            root.removeHandler(handler)
    root.setLevel(level)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With AZUL_TEST_PG set, run only the tests whose database comes from ``db_path``: the others would only
    repeat the SQLite run."""
    if not PG_URL:
        return
    kept = [item for item in items if "db_path" in getattr(item, "fixturenames", ())]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


@pytest.fixture
def clock() -> ManualClock:
    """The bots' clock: it stands still until a test moves it forward."""
    return ManualClock()


@pytest.fixture
async def make_bot(db_path: str, clock: ManualClock) -> AsyncIterator[Callable[..., AzulBot]]:
    """Bots on the test's database (a second one plays the bot after a restart), all on the test's clock; their
    stores close at the end. Keyword arguments go to ``create_bot`` (e.g. ``remind_after``)."""
    bots: list[AzulBot] = []
    seeds = itertools.count(SEED)

    def make(**options: Any) -> AzulBot:
        computer = Computer(1, COMPUTER_BUDGET)
        bots.append(create_bot(db_path, seed_source=lambda: next(seeds), clock=clock, computer=computer, **options))
        return bots[-1]

    yield make
    for bot in bots:
        await bot.close_store()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], AzulBot]) -> AzulBot:
    return make_bot()


USER_LOCALES: dict[int, str] = {}


@pytest.fixture(autouse=True)
def discord_locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """SimCord sends every interaction as en-US; real Discord sends the user's and the server's locale."""
    original = simcord.interactions.base_payload

    def with_locales(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = USER_LOCALES.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    USER_LOCALES.clear()
    yield USER_LOCALES
    USER_LOCALES.clear()


@pytest.fixture(autouse=True)
def refusals_are_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord counts everything that reaches the command tree's error handler as a failure of the bot; a refusal
    (the bot's own or the rules') reaches it by design and is answered there, so only other errors count."""
    original = simcord.env.Env._record_error

    def record(env: simcord.env.Env, error: BaseException) -> None:
        if isinstance(error, Exception) and isinstance(unwrap(error), Refusal | EngineError):
            return
        original(env, error)

    monkeypatch.setattr(simcord.env.Env, "_record_error", record)


@pytest.fixture(autouse=True)
def discord_limits_in_simcord(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord refuses, as Discord does (400, code 50035), a command sync or an autocomplete answer that breaks a
    documented limit (:mod:`tests.bot.discord_limits`); it checks messages and components itself."""
    register = CommandsMixin.register_commands
    complete = SimInteraction.complete_autocomplete

    def checked_register(backend: CommandsMixin, guild_id: int | None, payloads: list[dict[str, Any]]) -> Any:
        found = discord_limits.command_errors(payloads)
        if found:
            raise simcord_errors.invalid_form_body(errors=found)
        return register(backend, guild_id, payloads)

    def checked_complete(record: SimInteraction, choices: list[dict[str, Any]]) -> None:
        found = discord_limits.autocomplete_errors(choices)
        if found:
            raise simcord_errors.invalid_form_body(errors=found)
        complete(record, choices)

    monkeypatch.setattr(CommandsMixin, "register_commands", checked_register)
    monkeypatch.setattr(SimInteraction, "complete_autocomplete", checked_complete)


@pytest.fixture(autouse=True)
def discord_clock_in_simcord(monkeypatch: pytest.MonkeyPatch, clock: ManualClock) -> None:
    """Discord's clock for interactions in SimCord, whose own clock moves only when a test advances it: a first
    answer more than 3 s of real time after the interaction gets ``Unknown interaction`` (10062), and its token
    stops working 15 minutes after it by the bot's clock (a test moving that clock on moves Discord's too)."""
    sent: dict[int, tuple[float, datetime]] = {}
    create = CommandsMixin.new_interaction

    def new_interaction(backend: CommandsMixin, *args: Any, **kwargs: Any) -> SimInteraction:
        record = create(backend, *args, **kwargs)
        sent[record.id] = (time.perf_counter(), clock.now())
        return record

    def first_answer(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def checked(ctx: Any) -> Any:
            record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
            when = sent.get(record.id) if record is not None else None
            if when is not None and not record.responded and time.perf_counter() - when[0] > FIRST_ANSWER_SECONDS:
                raise simcord_errors.unknown_interaction()
            return handler(ctx)

        return checked

    def by_token(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def checked(ctx: Any) -> Any:
            found = ctx.backend.interaction_tokens.get(ctx.args.get("token"))
            when = sent.get(found) if found is not None else None
            if when is not None and clock.now() - when[1] > timedelta(seconds=TOKEN_SECONDS):
                raise simcord_errors.BackendError(401, 50027, "Invalid Webhook Token")
            return handler(ctx)

        return checked

    monkeypatch.setattr(CommandsMixin, "new_interaction", new_interaction)
    for method, routes in list(simcord_router._ROUTES.items()):
        checked = []
        for parts, handler in routes:
            if parts[:1] == ["interactions"] and parts[-1] == "callback":
                handler = first_answer(handler)  # noqa: PLW2901 - the route's handler, wrapped
            elif parts[:1] == ["webhooks"] and parts[2:3] == ["{token}"]:
                handler = by_token(handler)  # noqa: PLW2901
            checked.append((parts, handler))
        monkeypatch.setitem(simcord_router._ROUTES, method, checked)


@pytest.fixture
async def discord_server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The fake Discord (HTTP and gateway) on localhost, with discord.py pointed at it: for the bot on the wire."""
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(Route, "BASE", server.api)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.stop()
