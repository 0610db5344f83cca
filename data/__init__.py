"""Static files of the project (fonts, locale catalogues, component tables) and the one way to find them.

Files are found next to this module, so they work the same from a source checkout, an installed wheel and the
Docker image.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    return ROOT.joinpath(*parts)


@cache
def load_json(*parts: str) -> Any:
    """A JSON file under ``data/``, parsed once per process (callers must not mutate the result)."""
    with path(*parts).open(encoding="utf-8") as handle:
        return json.load(handle)
