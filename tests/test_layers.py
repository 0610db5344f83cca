"""The import contract of DESIGN.md: the engine is pure, the renderer never reaches into the bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"bot", "render", "discord", "PIL", "aiosqlite", "data", "random"},
    "render": {"bot", "discord", "aiosqlite"},
}
# The engine's command-line front end prints refusals in words, so it alone may read the locale catalogue.
ALLOWED = {"engine/__main__.py": {"data"}}


def imported_roots(file: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    offenders = {
        name: sorted(imported_roots(file) & FORBIDDEN[layer] - ALLOWED.get(name, set()))
        for file in (ROOT / layer).rglob("*.py")
        if (name := file.relative_to(ROOT).as_posix())
    }
    offenders = {name: bad for name, bad in offenders.items() if bad}
    assert not offenders, f"{layer}/ imports what it must not: {offenders}"


def test_contract_detects_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "x.py"
    bad.write_text("import discord\nfrom PIL import Image\n", encoding="utf-8")
    assert imported_roots(bad) >= {"discord", "PIL"}
