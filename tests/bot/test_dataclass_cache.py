"""The start-up takes its dataclasses' methods from the code it compiled before (bot/infra/dataclass_cache.py): the
same classes, the same behaviour, and a changed class compiled anew."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.infra import dataclass_cache
from tests.bot.fake_discord import GOOD_TOKEN
from tests.bot.test_wire import a_closed_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hook() -> Iterator[None]:
    """A test's own cache (this process may have one installed by a start it ran)."""
    before = dataclass_cache._installed
    if before is not None:
        dataclass_cache.uninstall()
    yield
    dataclass_cache.uninstall()
    if before is not None:
        dataclass_cache.install(before.path)


def make_row(extra_field: bool = False) -> type:
    """A frozen dataclass declared anew (each call makes a new class from the same source texts)."""
    fields = {"id": int, "name": str, "level": "str | None"} | ({"seat": int} if extra_field else {})
    return dataclasses.make_dataclass("Row", list(fields.items()), frozen=True, slots=True)


def test_a_class_made_from_the_cache_is_the_class_compiled(hook: None, tmp_path: Path) -> None:
    path = tmp_path / "cache.marshal"
    first = dataclass_cache.install(path)
    compiled = make_row()
    assert first.compiled == 6  # __init__, __repr__, __eq__, __hash__, __setattr__, __delattr__
    assert first.save(asked=True) and path.exists()
    dataclass_cache.uninstall()

    second = dataclass_cache.install(path)
    cached = make_row()
    assert second.compiled == 0, "every method came from the file"
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        ours, theirs = getattr(cached, method), getattr(compiled, method)
        assert ours.__code__ == theirs.__code__, method
        assert ours.__annotations__ == theirs.__annotations__, method
    row = cached(1, "Ada", None)
    assert (repr(row), row, hash(row)) == (
        "Row(id=1, name='Ada', level=None)",
        cached(1, "Ada", None),
        hash((1, "Ada", None)),
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.name = "Bob"  # type: ignore[attr-defined]

    changed = make_row(extra_field=True)
    assert second.compiled > 0 and changed(1, "Ada", None, 3).seat == 3  # type: ignore[call-arg]


def test_a_damaged_file_is_compiled_past_and_nothing_is_written_without_leave(
    hook: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cache.marshal"
    path.write_bytes(b"\x00not marshal")
    cache = dataclass_cache.install(path)
    assert cache.codes == {}
    assert make_row()(1, "Ada", "easy").level == "easy"
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE, as the image sets it
    assert not cache.save() and path.read_bytes() == b"\x00not marshal"
    assert cache.save(asked=True) and dataclass_cache.MethodCache(path).codes.keys() == cache.used.keys()


def a_start(prefix: Path, folder: Path) -> str:
    """``azul-bot`` started in a new process against a closed port (it builds the bot, then cannot connect): how many
    dataclass methods it compiled."""
    probe = (
        "import sys; from discord.http import Route; from bot import __main__ as entry;"
        f" Route.BASE = 'http://127.0.0.1:{a_closed_port()}/api/v10'; code = entry.main();"
        " from bot.infra import dataclass_cache as c; print(code, c._installed.compiled)"
    )
    env = os.environ | {
        "PYTHONPYCACHEPREFIX": str(prefix),  # the file goes with the bytecode: here, a folder of this test's own
        "DISCORD_TOKEN": GOOD_TOKEN,
        "AZUL_DB": str(folder / "azul.sqlite3"),
        "AZUL_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),  # this checkout, from a folder of its own (away from any developer's .env)
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", probe], check=True, cwd=folder, env=env, capture_output=True, text=True
    )
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow  # two bot processes started
def test_a_start_writes_the_file_and_the_next_start_compiles_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "pycache"
    exit_network, compiled = a_start(prefix, tmp_path).split()
    assert exit_network == "4" and int(compiled) > 50
    assert list(prefix.rglob("dataclasses.*.marshal"))
    assert a_start(prefix, tmp_path) == "4 0"
