"""``python -m bot``'s command line: every command has ``--help`` (exit 0), and a wrong one says so (exit 2); the
operator's commands refuse a database that is not there and never print a password."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import EXIT_CONFIG, EXIT_STORE, main, parser
from tests.bot.conftest import PG_URL

SECRET = "s3cr3t"


def commands() -> list[str]:
    found = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    return list(found)


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert {"run", "health", "sync", "ratings", "copy-db"} <= set(commands())
    for command in commands():
        assert command in listed
        assert main([command, "--help"]) == 0, command
        assert capsys.readouterr().out.startswith(f"usage: azul-bot {command}"), command
    assert main(["ratings", "rebuild", "--help"]) == 0


def test_a_wrong_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bogus"]) == EXIT_CONFIG
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    assert main(["copy-db", "only-one"]) == EXIT_CONFIG
    assert main(["ratings"]) == EXIT_CONFIG, "ratings needs an action"
    assert "usage: azul-bot ratings" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["check"], ["ratings", "rebuild"]])
def test_a_mistyped_database_is_refused_not_created(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped AZUL_DB would otherwise get a new empty database, reported on as if it were the bot's."""
    missing = tmp_path / "azul.sqlit3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AZUL_DB", str(missing))
    assert main(command) == EXIT_STORE
    said = capsys.readouterr()
    assert f"there is no database at {missing}: is AZUL_DB right?" in said.err, said
    assert said.out == "" and list(tmp_path.iterdir()) == [], "nothing created"


def test_check_names_a_postgresql_database_without_its_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unreachable (the error), and reached when a test cluster runs (the report): never the password."""
    monkeypatch.setenv("AZUL_DB", f"postgresql://azul:{SECRET}@127.0.0.1:1/azul?password=a@{SECRET}")
    assert main(["check"]) == EXIT_STORE
    said = capsys.readouterr()
    assert "postgresql://azul:***@127.0.0.1:1/azul?password=***" in said.err and SECRET not in str(said), said
    if PG_URL:
        monkeypatch.setenv("AZUL_DB", f"{PG_URL}{'&' if '?' in PG_URL else '?'}password=a@{SECRET}")
        assert main(["check"]) == 0
        said = capsys.readouterr()
        assert said.out.startswith("no quarantined games in postgres") and SECRET not in str(said), said


def test_copy_db_refuses_a_missing_source_and_never_prints_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "azul.sqlit3"
    target = f"postgresql://azul:{SECRET}@127.0.0.1:1/azul?sslpassword={SECRET}"
    assert main(["copy-db", str(missing), target]) == EXIT_STORE
    said = capsys.readouterr()
    assert f"there is no database at {missing}" in said.err and not missing.exists(), said
    source = tmp_path / "azul.sqlite3"
    source.touch()  # an empty file is a database SQLite opens (the store migrates it)
    assert main(["copy-db", str(source), target]) == EXIT_STORE
    said = capsys.readouterr()
    assert "postgresql://azul:***@127.0.0.1:1/azul?sslpassword=***" in said.err and SECRET not in str(said), said
