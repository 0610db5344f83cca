"""Locale catalogues: every word a person reads, in English, Polish and Ukrainian.

Catalogues live in ``data/locale/<lang>/*.json`` as flat ``"key": "text with {params}"`` maps; the files of one
language are merged (a key defined twice is an error), so each part of the project keeps its own file. A text that
depends on a number is a dict of plural forms (``one``, ``few``, ``many``, ``other``) chosen by ``count``.
A missing key falls back to English, then to the key itself, so a gap is visible but never a crash.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from data import path

SUPPORTED = ("en", "pl", "uk")
DEFAULT = "en"


def normalize(locale: str | None) -> str:
    """Map a Discord locale (``en-US``, ``pl``, ``uk``...) to a catalogue we have."""
    if not locale:
        return DEFAULT
    lang = str(locale).split("-")[0].split("_")[0].lower()
    return lang if lang in SUPPORTED else DEFAULT


@cache
def catalogue(lang: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    folder = path("locale", lang)
    for file in sorted(folder.glob("*.json")):
        with file.open(encoding="utf-8") as handle:
            entries = json.load(handle)
        for key, text in entries.items():
            if key in merged:
                raise ValueError(f"{file}: key {key!r} is defined twice in locale {lang!r}")
            merged[key] = text
    return merged


def plural_form(lang: str, count: int) -> str:
    n = abs(count)
    if lang in ("pl", "uk"):
        if n % 10 == 1 and n % 100 != 11:
            return "one" if lang == "uk" or n == 1 else "many"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def has(key: str, locale: str | None = None) -> bool:
    return key in catalogue(normalize(locale)) or key in catalogue(DEFAULT)


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The text for ``key`` in ``locale`` with ``params`` filled in."""
    lang = normalize(locale)
    text = catalogue(lang).get(key)
    if text is None:
        lang = DEFAULT
        text = catalogue(DEFAULT).get(key)
    if text is None:
        return key
    if isinstance(text, dict):
        count = int(params.get("count", 0))
        text = text.get(plural_form(lang, count)) or text.get("other") or text.get("many") or next(iter(text.values()))
    try:
        return str(text).format(**params)
    except (KeyError, IndexError, ValueError):
        return str(text)
