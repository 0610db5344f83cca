"""Operating the bot: `.env`, the log-in and invite lines, the heartbeat and `python -m bot health`, structured and
JSON logs, and the Prometheus endpoint after a move through the real bot."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yarl
from dotenv import dotenv_values

from bot.__main__ import EXIT_CONFIG, EXIT_STORE, INVITE_PERMISSIONS, run
from bot.infra import logs
from bot.infra.config import Config, cores, load_dotenv_file, read_config
from bot.infra.health import check
from bot.infra.metrics import Endpoint
from tests.bot.fake_discord import APP_ID, BOT_ID, GOOD_TOKEN, FakeDiscord
from tests.bot.table import Table

HANG_GUARD = 60


def python_m_bot(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items() if not name.startswith(("AZUL_", "DISCORD_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        check=False,
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


# --- .env ---------------------------------------------------------------------------------------------------------


@pytest.mark.slow  # a bot process started and stopped
def test_dotenv_in_the_working_directory_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    # A database that cannot be opened ends the run before any network, and its path shows which setting won.
    (tmp_path / "from-dotenv.sqlite3").write_bytes(b"garbage" * 1000)
    (tmp_path / "from-environment.sqlite3").write_bytes(b"garbage" * 1000)
    (tmp_path / ".env").write_text(
        "# comments and quotes as in .env.example\nDISCORD_TOKEN='from-dotenv'\nAZUL_DB=from-dotenv.sqlite3\n"
    )
    from_file = python_m_bot(cwd=tmp_path)
    assert from_file.returncode == EXIT_STORE, from_file.stderr
    assert "from-dotenv.sqlite3 is not an SQLite database" in from_file.stderr
    overridden = python_m_bot(cwd=tmp_path, AZUL_DB="from-environment.sqlite3")
    assert overridden.returncode == EXIT_STORE
    assert "from-environment.sqlite3 is not an SQLite database" in overridden.stderr
    (tmp_path / ".env").unlink()
    assert python_m_bot(cwd=tmp_path).returncode == EXIT_CONFIG  # no token without the file


def test_load_dotenv_file_keeps_what_is_set(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=abc\nAZUL_DB=x.sqlite3\n#AZUL_DEV_GUILD=1\nAZUL_LOG_LEVEL=\n")
    environ = {"AZUL_DB": "/data/azul.sqlite3"}
    assert load_dotenv_file(environ, dotenv)
    assert environ == {"AZUL_DB": "/data/azul.sqlite3", "DISCORD_TOKEN": "abc", "AZUL_LOG_LEVEL": ""}
    assert not load_dotenv_file(environ, tmp_path / "missing")


def test_the_example_env_keeps_the_database_on_the_docker_volume() -> None:
    """`docker run --env-file .env` overrides the image's AZUL_DB=/data/...: the example must not set it."""
    example = Path(__file__).resolve().parents[2] / ".env.example"
    settings = dotenv_values(example)
    assert "AZUL_DB" not in settings and "AZUL_HEARTBEAT_FILE" not in settings
    assert "DISCORD_TOKEN" in settings and "AZUL_METRICS_PORT" in settings
    # Docker keeps quotes and trailing comments as part of the value.
    assert not [value for value in settings.values() if value and ("#" in value or value[0] in "'\"")]
    read_config({**{k: v or "" for k, v in settings.items()}, "DISCORD_TOKEN": "t"})  # every value is valid


def test_bad_settings_name_the_variable() -> None:
    from bot.infra.config import ConfigError

    base = {"DISCORD_TOKEN": "t"}
    for name, value in (
        ("AZUL_LOG_FORMAT", "xml"),
        ("AZUL_METRICS_PORT", "http"),
        ("AZUL_METRICS_PORT", "70000"),
        ("AZUL_PICTURE_WORKERS", "-1"),
        ("AZUL_PICTURE_WORKERS", "65"),
        ("AZUL_AI_WORKERS", "0"),
        ("AZUL_LEASE_SECONDS", "soon"),
        ("AZUL_LEASE_SECONDS", "1"),
        ("AZUL_LEASE_SECONDS", "nan"),
        ("AZUL_LEASE_SECONDS", "7200"),
    ):
        with pytest.raises(ConfigError, match=name):
            read_config({**base, name: value})
    config = read_config({**base, "AZUL_LOG_FORMAT": "JSON", "AZUL_METRICS_PORT": "9108", "AZUL_DB": "/d/a.db"})
    assert (config.log_format, config.metrics_port, config.heartbeat_path) == ("json", 9108, "/d/a.db.heartbeat")
    assert config.picture_workers == 0  # a small bot draws in its own process
    assert config.ai_workers == max(1, cores() - 1)  # searches leave the bot's process a core
    assert read_config({**base, "AZUL_PICTURE_WORKERS": "2"}).picture_workers == 2
    assert config.lease_seconds is None  # each kind of background work keeps its own lease
    assert read_config({**base, "AZUL_LEASE_SECONDS": " 4.5 "}).lease_seconds == 4.5


# --- health -------------------------------------------------------------------------------------------------------


def test_python_m_bot_health(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    missing = python_m_bot("health", cwd=tmp_path, AZUL_HEARTBEAT_FILE=str(beat))
    assert missing.returncode == 1 and "no heartbeat at" in missing.stderr and "Traceback" not in missing.stderr
    beat.write_text(json.dumps({"at": time.time() - 5, "user": BOT_ID, "latency_ms": 41}))
    fresh = python_m_bot("health", cwd=tmp_path, AZUL_HEARTBEAT_FILE=str(beat))
    assert fresh.returncode == 0 and "healthy" in fresh.stdout and "41 ms" in fresh.stdout
    beat.write_text(json.dumps({"at": time.time() - 1000}))
    stale = python_m_bot("health", cwd=tmp_path, AZUL_HEARTBEAT_FILE=str(beat))
    assert stale.returncode == 1 and "s old (limit 90 s)" in stale.stderr
    beat.write_text("{half a beat")
    assert python_m_bot("health", cwd=tmp_path, AZUL_HEARTBEAT_FILE=str(beat)).returncode == 1
    # Without AZUL_HEARTBEAT_FILE the beat lives beside the database, so the image needs no extra setting.
    (tmp_path / "x.sqlite3.heartbeat").write_text(json.dumps({"at": time.time()}))
    assert python_m_bot("health", cwd=tmp_path, AZUL_DB=str(tmp_path / "x.sqlite3")).returncode == 0


def test_check_limits() -> None:
    assert check(Path("/nonexistent/beat"), time.time())[0] is False


def a_free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the real bot on the wire: log-in line, invite URL, heartbeat ----------------------------------------------------


async def test_log_in_line_invite_url_and_heartbeat(
    discord_server: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    beat = tmp_path / "beat"
    port = a_free_port()
    config = Config(
        GOOD_TOKEN,
        str(tmp_path / "azul.sqlite3"),
        None,
        "INFO",
        heartbeat_path=str(beat),
        metrics_port=port,
        metrics_address="127.0.0.1",
    )
    running = asyncio.create_task(run(config))
    try:
        for _ in range(300):
            if beat.exists() or running.done():
                break
            await asyncio.sleep(0.05)
        healthy, line = check(beat, time.time())
        assert healthy, line
        assert json.loads(beat.read_text())["user"] == BOT_ID
        said = [record.getMessage() for record in caplog.records]
        assert f"logged in as azul-bot ({BOT_ID})" in said
        (invite,) = [message for message in said if message.startswith("invite the bot with ")]
        url = yarl.URL(invite.removeprefix("invite the bot with "))
        assert url.query["client_id"] == str(APP_ID) and url.query["permissions"] == str(INVITE_PERMISSIONS)
        assert url.query["scope"] == "bot applications.commands"
        exposed = await asyncio.to_thread(scrape, port)  # AZUL_METRICS_PORT serves /metrics while the bot runs
        assert "azul_move_seconds_count" in exposed
    finally:
        os.kill(os.getpid(), signal.SIGTERM)  # as `docker stop` does; run() closes the bot on it
        assert await asyncio.wait_for(running, HANG_GUARD) == 0
    assert not beat.exists()  # a stopped bot is unhealthy at once


# --- structured logs ---------------------------------------------------------------------------------------------


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("restore_logging")
def test_json_lines_carry_the_fields() -> None:
    out = io.StringIO()
    logs.setup("INFO", "json", stream=out)
    with logs.context(game=7, channel=600, interaction=123):
        logging.getLogger("bot.test").info("move %s saved", "1b3", extra={"latency_ms": 41})
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("bot.test").exception("failed")
    logging.getLogger("bot.test").info("outside")
    saved, failed, outside = (json.loads(line) for line in out.getvalue().splitlines())
    assert saved["message"] == "move 1b3 saved" and saved["level"] == "INFO"
    assert (saved["game"], saved["channel"], saved["interaction"], saved["latency_ms"]) == (7, 600, 123, 41)
    assert "ValueError: boom" in failed["exception"] and failed["game"] == 7
    assert "game" not in outside


@pytest.mark.usefixtures("restore_logging")
def test_text_lines_end_with_the_fields() -> None:
    out = io.StringIO()
    logs.setup("INFO", "text", stream=out)
    with logs.context(game=7, channel=600):
        logging.getLogger("bot.test").info("posted", extra={"latency_ms": 12})
    assert out.getvalue().rstrip().endswith("INFO bot.test: posted [game=7 channel=600 latency_ms=12]")
    with pytest.raises(ValueError, match="unknown log fields"):
        logs.bind(colour="blue")


async def test_a_move_through_the_bot_logs_game_channel_interaction_and_latency(
    simcord_env: object, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    table = Table.create(simcord_env, 2)
    await table.open()
    member, _, move = await table.choose()
    await table.play_by_slash(member, move)
    game = await table.game()
    (record,) = [record for record in caplog.records if record.getMessage().startswith(f"move {move} by seat")]
    fields = logs.fields_of(record)
    assert fields["game"] == game.id and fields["variant"] == "azul" and fields["channel"] == table.channel.id
    assert isinstance(fields["interaction"], int) and isinstance(fields["latency_ms"], int)


# --- metrics -----------------------------------------------------------------------------------------------------


def scrape(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        lines = response.read().decode().splitlines()
    return {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in lines if line and not line.startswith("#")
    }


async def test_the_metrics_endpoint_counts_a_move_a_refusal_and_pictures(simcord_env: object) -> None:
    endpoint = Endpoint(0, "127.0.0.1")
    try:
        before = await asyncio.to_thread(scrape, endpoint.port)
        table = Table.create(simcord_env, 2)
        await table.open()
        member, _, move = await table.choose()
        other = next(player for player in table.players if player is not member)
        await other.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))  # not their turn
        await table.play_by_slash(member, move)
        after = await asyncio.to_thread(scrape, endpoint.port)
    finally:
        endpoint.close()

    def grew(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    assert grew('azul_moves_total{variant="azul"}') == 1
    assert grew('azul_refusals_total{reason="not_your_turn"}') == 1
    assert grew('azul_picture_seconds_count{variant="azul"}') >= 2  # the first board and the one after the move
    assert grew("azul_move_seconds_count") == 1
    assert "azul_failed_posts_total" not in before or grew('azul_failed_posts_total{reason="forbidden"}') == 0


async def test_a_database_that_fails_after_log_in_is_exit_code_5(
    discord_server: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check before logging in passed, then the bot's own opening fails (the file changed in between)."""
    from bot.infra.store import Store, StoreOpenError

    opened = Store.open
    calls: list[str] = []

    async def fails_the_second_time(path: str, **options: bool) -> Store:
        calls.append(path)
        if len(calls) > 1:
            raise StoreOpenError(f"the database {path} is damaged (test)")
        return await opened(path, **options)

    monkeypatch.setattr(Store, "open", fails_the_second_time)
    config = Config(GOOD_TOKEN, str(tmp_path / "azul.sqlite3"), None, "INFO", heartbeat_path=str(tmp_path / "beat"))
    assert await asyncio.wait_for(run(config), HANG_GUARD) == EXIT_STORE
    assert len(calls) == 2 and any(r.path == "/users/@me" for r in discord_server.requests)  # after logging in
    assert capsys.readouterr().err.strip() == f"azul-bot: the database {tmp_path / 'azul.sqlite3'} is damaged (test)"
