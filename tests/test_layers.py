"""The import contracts of DESIGN.md, checked by import-linter (its contracts live in pyproject.toml):

- the engine imports only the standard library (and its command-line front end the locale catalogue);
- the renderer never imports the bot, Discord or the database;
- the static data imports nothing of ours;
- no import cycles inside ``bot/`` (also through imports inside functions);
- handlers (``bot.ui``) never import the store or the database, and never reach the store through the service's
  attribute either: they ask the application.
- tests never import the benchmarks (``bench/``): the benchmarks may use the tests' helpers, not the reverse.
"""

from __future__ import annotations

import ast
import logging
import re
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
KEPT, BROKEN = 0, 1


def lint(config: Path) -> int:
    """import-linter's command line, leaving logging as it found it: its ``dictConfig`` disables every logger that
    exists, which would silence the bot's loggers for the tests that run after this one in the same process."""
    loggers = [logging.getLogger(name) for name in logging.root.manager.loggerDict]
    disabled = {logger: logger.disabled for logger in loggers}
    root_handlers, root_level = logging.root.handlers[:], logging.root.level
    try:
        return lint_imports(config_filename=str(config), no_cache=True, no_logo=True)
    finally:
        for logger, was in disabled.items():
            logger.disabled = was
        logging.root.handlers[:] = root_handlers
        logging.root.setLevel(root_level)


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


STORE_MODULES = ("bot.infra.store", "bot.infra.db")  # the store package and its aggregates


def test_handlers_import_no_store() -> None:
    graph = grimp.build_graph("bot")
    offenders = sorted(
        (module, imported)
        for module in graph.find_descendants("bot.ui") | {"bot.ui"}
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith(STORE_MODULES)
    )
    assert not offenders, f"handlers import the store; ask bot.app instead: {offenders}"


def test_the_handlers_contract_catches_a_store_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(tmp_path, "shop", {"ui": "import shop.app\n", "app": "import shop.store\n", "store": ""})
    monkeypatch.syspath_prepend(str(tmp_path))
    contract = (
        'name = "handlers never import the store"\ntype = "forbidden"\nsource_modules = ["shop.ui"]\n'
        'forbidden_modules = ["shop.store"]\nallow_indirect_imports = true'
    )
    assert lint(write_config(tmp_path, "shop", contract)) == KEPT  # through the application: allowed
    (tmp_path / "shop" / "ui.py").write_text("import shop.store\n", encoding="utf-8")
    assert lint(write_config(tmp_path, "shop", contract)) == BROKEN


STORE_ATTRIBUTE = re.compile(r"\.store\b")


def test_handlers_never_reach_the_store_through_an_attribute() -> None:
    """``bot_of(i).service.store.game(...)`` imports nothing, so import-linter cannot see it: look in the code."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "bot" / "ui").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if STORE_ATTRIBUTE.search(line.split("#")[0]) and ":meth:`" not in line
    ]
    assert not offenders, "handlers reach into the store; give the service the method they need:\n" + "\n".join(
        offenders
    )


MAX_LINES = 600
LONG_ALLOWED: set[str] = set()  # a file that must be longer is named here, with why


def test_no_bot_file_is_over_600_lines() -> None:
    """A file this long holds more than one concern: split it along them (see bot/app/service.py for the form)."""
    lengths = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "bot").rglob("*.py")
    }
    long = {path: lines for path, lines in lengths.items() if lines > MAX_LINES and path not in LONG_ALLOWED}
    assert not long, f"bot/ files over {MAX_LINES} lines: {long}"


def class_homes(root: Path) -> dict[str, list[str]]:
    """Every class name defined under ``root`` (nested ones too), with the files that define it."""
    homes: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(path.relative_to(root.parent).as_posix())
    return homes


def test_no_class_name_is_defined_twice_in_the_bot() -> None:
    """One name, one class: a reader (or a tool) meeting ``Games`` must not have to ask which one. The store's
    aggregates are ``…Records``, the application's protocols that name a part of the service are ``…Port``."""
    twice = {name: files for name, files in class_homes(ROOT / "bot").items() if len(files) > 1}
    assert not twice, f"class names defined more than once in bot/: {twice}"


def test_a_class_name_defined_twice_is_caught(tmp_path: Path) -> None:
    write_package(tmp_path, "pkg", {"a": "class Games:\n    pass\n", "b": "class Games:\n    pass\n"})
    assert class_homes(tmp_path / "pkg")["Games"] == ["pkg/a.py", "pkg/b.py"]
