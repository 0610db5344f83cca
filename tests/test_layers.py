"""The import contracts of DESIGN.md, checked by import-linter (its contracts live in pyproject.toml):

- the engine imports only the standard library (and its command-line front end the locale catalogue);
- the renderer never imports the bot, Discord or the database;
- the static data imports nothing of ours;
- no import cycles inside ``bot/`` (also through imports inside functions);
- tests never import the benchmarks (``bench/``): the benchmarks may use the tests' helpers, not the reverse.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
KEPT, BROKEN = 0, 1


def lint(config: Path) -> int:
    return lint_imports(config_filename=str(config), no_cache=True, no_logo=True)


def test_import_contracts_are_kept() -> None:
    assert lint(ROOT / "pyproject.toml") == KEPT


def test_engine_imports_only_the_standard_library() -> None:
    graph = grimp.build_graph("engine", include_external_packages=True)
    outside = {
        (module, imported)
        for module in graph.find_descendants("engine") | {"engine"}
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.split(".")[0] != "engine"
    }
    allowed = {("engine.__main__", "data")}  # the command-line front end prints refusals in words
    offenders = {
        pair
        for pair in outside - allowed
        if pair[1].split(".")[0] not in sys.stdlib_module_names or pair[1] == "random"
    }
    assert not offenders, f"the engine imports more than the standard library: {sorted(offenders)}"


def write_package(root: Path, name: str, modules: dict[str, str]) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for module, source in modules.items():
        (package / f"{module}.py").write_text(source, encoding="utf-8")


def write_config(root: Path, package: str, contract: str) -> Path:
    config = root / "contracts.toml"
    config.write_text(
        f'[tool.importlinter]\nroot_packages = ["{package}"]\n\n[[tool.importlinter.contracts]]\n{contract}\n',
        encoding="utf-8",
    )
    return config


def test_a_cycle_hidden_in_a_function_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(
        tmp_path,
        "cyclic_bot",
        {
            "client": "from cyclic_bot.cog import Cog\n",
            "cog": "def handler():\n    from cyclic_bot.client import Client\n",
            "store": "",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    contract = 'name = "no cycles"\ntype = "acyclic_siblings"\nancestors = ["cyclic_bot"]'
    assert lint(write_config(tmp_path, "cyclic_bot", contract)) == BROKEN
    (tmp_path / "cyclic_bot" / "cog.py").write_text("def handler():\n    from cyclic_bot.store import x\n")
    assert lint(write_config(tmp_path, "cyclic_bot", contract)) == KEPT


def test_a_forbidden_layer_import_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(tmp_path, "layered", {"pictures": "import layered.chat\n", "chat": ""})
    monkeypatch.syspath_prepend(str(tmp_path))
    contract = (
        'name = "pictures never chat"\ntype = "forbidden"\n'
        'source_modules = ["layered.pictures"]\nforbidden_modules = ["layered.chat"]'
    )
    assert lint(write_config(tmp_path, "layered", contract)) == BROKEN
