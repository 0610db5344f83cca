"""Which characters a bundled font has a glyph for, read from its ``cmap`` table (formats 4 and 12)."""

from __future__ import annotations

import struct
from functools import cache

from data import path

REGULAR = "DejaVuSans.ttf"


@cache
def covered(file_name: str = REGULAR) -> frozenset[int]:
    """Every code point the font has a glyph for, read from its ``cmap`` table (formats 4 and 12)."""
    blob = path("fonts", file_name).read_bytes()
    tables = struct.unpack(">H", blob[4:6])[0]
    cmap = next(
        struct.unpack(">I", blob[12 + 16 * i + 8 : 12 + 16 * i + 12])[0]
        for i in range(tables)
        if blob[12 + 16 * i : 12 + 16 * i + 4] == b"cmap"
    )
    points: set[int] = set()
    for i in range(struct.unpack(">H", blob[cmap + 2 : cmap + 4])[0]):
        offset = cmap + struct.unpack(">I", blob[cmap + 8 + 8 * i : cmap + 12 + 8 * i])[0]
        fmt = struct.unpack(">H", blob[offset : offset + 2])[0]
        if fmt == 4:
            points |= _format4(blob, offset)
        elif fmt == 12:
            points |= _format12(blob, offset)
    return frozenset(points)


def _format4(blob: bytes, offset: int) -> set[int]:
    """Code points of a format-4 subtable whose glyph is not 0 (.notdef, the tofu box)."""
    segments = struct.unpack(">H", blob[offset + 6 : offset + 8])[0] // 2

    def array(index: int) -> tuple[int, ...]:  # the index-th parallel array after the header (+2 for the pad)
        start = offset + 14 + index * 2 * segments + (2 if index else 0)
        return struct.unpack(f">{segments}H", blob[start : start + 2 * segments])

    ends, starts, deltas, range_offsets = array(0), array(1), array(2), array(3)
    range_base = offset + 16 + 6 * segments
    points: set[int] = set()
    for i in range(segments):
        for point in range(starts[i], ends[i] + 1):
            if point == 0xFFFF:
                continue
            if range_offsets[i] == 0:
                glyph = (point + deltas[i]) & 0xFFFF
            else:
                at = range_base + 2 * i + range_offsets[i] + 2 * (point - starts[i])
                glyph = struct.unpack(">H", blob[at : at + 2])[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                points.add(point)
    return points


def _format12(blob: bytes, offset: int) -> set[int]:
    groups = struct.unpack(">I", blob[offset + 12 : offset + 16])[0]
    points: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack(">III", blob[offset + 16 + 12 * g : offset + 28 + 12 * g])
        points.update(range(start + (glyph == 0), end + 1))  # a group starting at glyph 0 maps its first to .notdef
    return points
