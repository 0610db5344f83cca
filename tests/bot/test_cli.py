"""``python -m bot``'s command line: every command has ``--help`` (exit 0), and a wrong one says so (exit 2)."""

from __future__ import annotations

import pytest

from bot.__main__ import EXIT_CONFIG, main, parser


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
