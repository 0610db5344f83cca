"""Pictures as PNG bytes: palette pictures, deterministic (the same image gives the same bytes) and small, written
with zlib-ng (Pillow's encoder uses the system zlib, and compressing was most of a picture's time)."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from PIL import Image
from zlib_ng import zlib_ng

from render.common import stacked

__all__ = ["PNG_LEVEL", "palette_png", "to_png"]

# zlib-ng with its largest hash; a game's tables take its renderer's ``png_level``, 7 for other pictures.
PNG_LEVEL, PNG_MEMORY = 7, 9


def to_png(
    image: Image.Image | Sequence[Image.Image], *, palette: Image.Image | None = None, level: int = PNG_LEVEL
) -> bytes:
    """PNG bytes of ``image`` as a palette picture (pictures are flat colours, so they stay small); deterministic.
    ``image`` may be given as parts of one width, top to bottom (a picture and the strips under it, see
    :func:`under`): the same bytes as the parts stacked, without copying them into one picture first.

    With ``palette`` (a game's fixed palette, see ``render.palette``) every pixel takes its nearest palette colour, a
    fast lookup, and the PNG carries the whole palette: a picture uses about 200 of its 256 colours, and the 170 or
    so bytes the rest cost are cheaper than finding them (a histogram and a remap of every pixel, a millisecond and
    more of a board's encoding). Without, a palette is chosen for this picture alone (an octree: slower, for
    pictures of no game)."""
    parts = [image] if isinstance(image, Image.Image) else list(image)
    rgb = [part if part.mode == "RGB" else part.convert("RGB") for part in parts]  # drawn pictures are RGB: no copy
    if palette is not None:
        return palette_png([part.quantize(palette=palette, dither=Image.Dither.NONE) for part in rgb], level=level)
    whole = stacked(rgb)
    quantised = whole.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return palette_png([quantised], level=level)


def palette_png(image: Image.Image | Sequence[Image.Image], *, level: int = PNG_LEVEL) -> bytes:
    """A ``P`` image (or its parts, of one width and palette, top to bottom) as PNG bytes, compressed with zlib-ng
    (Pillow's encoder uses the system zlib, and compressing was most of a picture's time). Rows are unfiltered, as
    Pillow writes palette pictures."""
    parts = [image] if isinstance(image, Image.Image) else list(image)
    if any(part.mode != "P" for part in parts):
        raise ValueError(f"a palette picture is needed, not {parts[0].mode}")
    colors = bytes(parts[0].getpalette() or [])
    width, height = parts[0].width, sum(part.height for part in parts)
    framed = Image.new("P", (width + 1, height), 0)  # column 0 is each row's filter byte: 0, no filter
    y = 0
    for part in parts:  # Pillow's core: the wrapper's checks, for a P picture into a P picture, are not needed
        framed.im.paste(part.im, (1, y, 1 + part.width, y + part.height))
        y += part.height
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices into PLTE, no interlace
    chunks = (
        (b"IHDR", header),
        (b"PLTE", colors),
        (b"IDAT", _deflate(framed.tobytes(), level)),
        (b"IEND", b""),
    )
    return PNG_SIGNATURE + b"".join(_chunk(kind, data) for kind, data in chunks)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _deflate(data: bytes, level: int) -> bytes:
    packer = zlib_ng.compressobj(level, zlib_ng.DEFLATED, 15, PNG_MEMORY)
    return packer.compress(data) + packer.flush()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib_ng.crc32(kind + data))
