"""Build the bundled colour emoji font, ``data/fonts/NotoColorEmoji-small.ttf``, from Noto Color Emoji.

    apt-get download fonts-noto-color-emoji && dpkg-deb -x fonts-noto-color-emoji_*.deb noto
    pip install fonttools   # a build tool only: the bot reads the result with Pillow
    python -m tools.emoji_font noto/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf

Noto Color Emoji (SIL Open Font License 1.1, no reserved font name) is 11 MB of 136 × 128 px PNG bitmaps. Names are
drawn at 20-30 px, so every bitmap is a third as wide and tall (45 × 42 px) with a 64-colour palette, and the
sequences with a skin tone (two thirds of them) are left out: an emoji with a tone is drawn in the default yellow.

The pictures lay text out with Pillow's basic engine (the same pixels with or without libraqm), which applies no
ligatures, so the font's sequences (flags, skin tones, families, keycaps) would fall apart into their pieces. Each
sequence's glyph is therefore given its own private-use code point (from U+F0000 in sorted order) and
``emoji-sequences.json`` says which sequence each stands for; ``render.emoji`` matches the longest sequence itself.
Emoji variation selectors (U+FE0F) are left out of the sequences, as the font's own ligatures leave them out.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont
from PIL import Image

from data import path

OUT = "NotoColorEmoji-small.ttf"
SEQUENCES = "emoji-sequences.json"
FIRST_PRIVATE = 0xF0000
SCALE = 3  # every bitmap and metric divided by this: 45 × 42 px, sharp down to the 20-30 px names are drawn at
COLOURS = 64  # per bitmap's palette
TONES = range(0x1F3FB, 0x1F400)  # skin tone modifiers: two thirds of the sequences; render.emoji draws the base


def main(source: str) -> None:
    font = TTFont(source)
    sequences = {points: glyph for points, glyph in _sequences(font).items() if not set(points) & set(TONES)}
    cmap = {**font.getBestCmap()}
    table = {}
    for index, (points, glyph) in enumerate(sorted(sequences.items())):
        cmap[FIRST_PRIVATE + index] = glyph
        table[" ".join(f"{p:X}" for p in points)] = f"{FIRST_PRIVATE + index:X}"
    for sub in font["cmap"].tables:  # one format-12 table: the private-use points are beyond the BMP
        sub.cmap = {}
    font["cmap"].tables = [t for t in font["cmap"].tables if t.format == 12]
    font["cmap"].tables[0].cmap = cmap
    del font["GSUB"]  # the sequences are matched by render.emoji, not by a shaper
    font = _reachable(font, set(cmap))
    _shrink(font)
    font.save(path("fonts", OUT))
    path("fonts", SEQUENCES).write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT}: {path('fonts', OUT).stat().st_size:,} bytes, {len(cmap):,} code points, {len(table):,} sequences")


def _sequences(font: Any) -> dict[tuple[int, ...], str]:
    """Every ligature of the font as its code points (first glyph of each code point) → the ligature's glyph."""
    names: dict[str, int] = {}
    for point, name in sorted(font.getBestCmap().items()):
        names.setdefault(name, point)
    found: dict[tuple[int, ...], str] = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        if lookup.LookupType != 4:
            continue
        for sub in lookup.SubTable:
            for first, ligatures in sub.ligatures.items():
                for ligature in ligatures:
                    glyphs = [first, *ligature.Component]
                    if all(g in names for g in glyphs):
                        found.setdefault(tuple(names[g] for g in glyphs), ligature.LigGlyph)
    return found


def _reachable(font: Any, points: set[int]) -> Any:
    """The font without the glyphs no code point reaches any more (the sequences with a skin tone)."""
    raw = io.BytesIO()
    font.save(raw)
    smaller = TTFont(io.BytesIO(raw.getvalue()))
    options = Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(smaller)
    return smaller


def _shrink(font: Any) -> None:
    """Every bitmap a third as wide and tall with a small palette, and the strike's metrics to match."""
    for strike in font["CBDT"].strikeData:
        for glyph in strike.values():
            glyph.ensureDecompiled()
            image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
            small = image.resize((image.width // SCALE, image.height // SCALE), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            small.quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
            glyph.imageData = out.getvalue()
            m = glyph.metrics
            m.width, m.height = small.width, small.height
            m.BearingX, m.BearingY, m.Advance = m.BearingX // SCALE, m.BearingY // SCALE, m.Advance // SCALE
    for strike in font["CBLC"].strikes:
        size = strike.bitmapSizeTable
        size.ppemX //= SCALE
        size.ppemY //= SCALE
        for line in (size.hori, size.vert):
            for name in ("ascender", "descender", "widthMax", "maxBeforeBL", "minAfterBL"):
                setattr(line, name, getattr(line, name) // SCALE)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
