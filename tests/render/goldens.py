"""Golden-picture comparison for every game's renderer tests.

    check_golden("azul-start-2p", png)   # compares with tests/render/golden/azul-start-2p.png

A failing comparison writes the actual picture and an amplified difference to ``tests/render/_failures/``
(git-ignored); ``UPDATE_GOLDEN=1 pytest tests/render`` rewrites the goldens instead (look at every one before
committing it). Keep goldens small: a few representative states per game.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
FAILURES = HERE / "_failures"
# Anti-aliasing may differ by a Pillow or FreeType release: allow a few faint pixels, never a changed digit.
MAX_CHANGED_SHARE = 0.0001
CHANGED_LEVEL = 48


def differs(actual: Image.Image, expected: Image.Image) -> str | None:
    """Why two pictures count as different, or None when they match within the tolerance."""
    if actual.size != expected.size:
        return f"size {actual.size} != golden {expected.size}"
    red, green, blue = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB")).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # per pixel, the most changed channel
    changed = largest.point(lambda v: 255 if v > CHANGED_LEVEL else 0).histogram()[255]
    share = changed / (actual.width * actual.height)
    return f"{share:.3%} of pixels differ" if share > MAX_CHANGED_SHARE else None


def check_golden(name: str, png: bytes) -> None:
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_bytes(png)
        return
    assert golden.exists(), f"no golden {golden.name}: run with UPDATE_GOLDEN=1 and look at the result"
    actual = Image.open(io.BytesIO(png))
    expected = Image.open(golden)
    problem = differs(actual, expected)
    if problem:
        FAILURES.mkdir(exist_ok=True)
        (FAILURES / f"{name}.actual.png").write_bytes(png)
        diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB")).point(lambda v: min(255, v * 4))
        diff.save(FAILURES / f"{name}.diff.png")
        pytest.fail(f"{name}: {problem}; see {FAILURES}")
