"""How a game's state is kept in its row: JSON without spaces, and on SQLite compressed as well.

A move rewrites its game's row, and recording the move's board rewrites it again. On SQLite (1 KB pages, see
``PAGE_SIZE``) a row of over 989 bytes spills into overflow pages, and every rewrite writes those pages to the
write-ahead log, frees them and takes new ones (the file's header and its free list: two more pages). A state is
0.6 to 2.2 KB of JSON and 0.25 to 0.55 KB compressed, so every variant's row fits one page: a move writes about 4
pages fewer. PostgreSQL compresses long values itself (TOAST), so it keeps the text. Rows written before compression
hold text, and are read as they are.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping
from typing import Any

LEVEL = 1
"""zlib's fastest: a two-player Azul state in about 10 µs, within a few bytes of level 6 at this size."""


def packed(state: Mapping[str, Any], *, compress: bool) -> str | bytes:
    """``state`` as the row keeps it: compressed bytes (SQLite), or JSON text (PostgreSQL)."""
    text = json.dumps(state, separators=(",", ":"))
    return zlib.compress(text.encode(), LEVEL) if compress else text


def unpacked(stored: str | bytes) -> Any:
    """The JSON a row keeps, compressed or not. Damaged bytes raise ``ValueError``, as damaged JSON does."""
    if isinstance(stored, bytes):
        try:
            stored = zlib.decompress(stored)
        except zlib.error as error:
            raise ValueError(f"compressed, and damaged: {error}") from None
    return json.loads(stored)


def as_text(stored: str | bytes) -> str:
    """What a row keeps, as text for a person (the export of a damaged game): compressed JSON decompressed as far as
    it goes (a truncated one says so), and bytes that cannot be decompressed in base64."""
    if isinstance(stored, str):
        return stored
    reader = zlib.decompressobj()
    try:
        text = reader.decompress(stored).decode(errors="replace")
    except zlib.error:
        return "base64:" + base64.b64encode(stored).decode()
    return text if reader.eof else f"{text}… (cut short)"
