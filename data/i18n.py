"""Locale catalogues: every word a person reads, in English, Polish and Ukrainian.

Catalogues live in ``data/locale/<lang>/*.json`` as flat ``"key": "text with {params}"`` maps; the files of one
language are merged (a key defined twice is an error), so each part of the project keeps its own file. A text that
depends on a number is a dict of plural forms (``one``, ``few``, ``many``, ``other``) chosen by ``count``.
A missing key falls back to English, then to the key itself, so a gap is visible but never a crash.

Polish and Ukrainian words change with gender, case and number, so a catalogue entry may be a **word** with its
forms instead of a plain text (see :class:`Word`):

- a noun: ``{"gender": "f", "nom": "lilia", "acc": "lilię", "gen": "lilii", "ins": "lilią", "loc": "lilii"}``;
  genders are ``m`` (masculine inanimate), ``ma`` (masculine animate), ``f`` and ``n``;
- an adjective: ``{"adjective": "niebieski"}``: every gender × case form (``f.acc`` → "niebieską", ``pl.gen`` →
  "niebieskich") is declined by the language's regular pattern; an irregular form may be given next to it.

A phrase asks for the form it needs in its placeholder: ``"kładzie {tile:acc}"``, ``"{count} {color:pl.gen}
płytek"``. :func:`agree` builds a whole phrase (``"{color} {pattern}"``) as one word whose adjectives agree with its
head noun in every case, so ``"kafel z {hexagon:ins}"`` reads "kafel z niebieską lilią". English words have one form,
so every request gives it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from data import path

SUPPORTED = ("en", "pl", "uk")
DEFAULT = "en"
CASES = ("nom", "gen", "dat", "acc", "ins", "loc")
GENDERS = ("m", "ma", "f", "n", "pl")
PLURAL_FORMS = frozenset({"one", "few", "many", "other"})


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


class Word(str):
    """A word (or phrase) with its grammatical forms; as a ``str`` it is its dictionary form.

    ``word.form("acc")`` gives a case; ``word.form("f.acc")`` an adjective's form for a gender (``pl`` for plural);
    in a phrase ``{word:acc}`` does the same. A form that is not known falls back to the nearest one (the case
    without gender, then the dictionary form), so English words with one form answer every request.
    """

    forms: Mapping[str, str]
    gender: str

    def __new__(cls, forms: Mapping[str, str], gender: str = "") -> Word:
        base = forms.get("nom") or forms.get("m.nom") or next(iter(forms.values()), "")
        word = super().__new__(cls, base)
        word.forms = dict(forms)
        word.gender = gender
        return word

    def form(self, tag: str) -> str:
        gender, _, case = tag.rpartition(".")
        for candidate in (tag, f"m.{case}" if gender == "ma" else "", case, f"m.{case}", f"{gender}.nom"):
            if candidate in self.forms:
                return self.forms[candidate]
        return str(self)

    def __format__(self, spec: str) -> str:
        return format(self.form(spec) if spec else str(self), "")


PLURAL_ORDER = {"en": ("one", "other"), "pl": ("one", "few", "many"), "uk": ("one", "few", "many")}


class _Number(int):
    """A number in a phrase; ``{cost:płytkę|płytki|płytek}`` picks the word form that agrees with it (forms in the
    order of :data:`PLURAL_ORDER`: one|other in English, one|few|many in Polish and Ukrainian)."""

    lang: str

    def __new__(cls, value: int, lang: str) -> _Number:
        number = super().__new__(cls, value)
        number.lang = lang
        return number

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return format(int(self), spec)
        forms = spec.split("|")
        order = PLURAL_ORDER.get(self.lang, PLURAL_ORDER[DEFAULT])
        index = order.index(plural_form(self.lang, int(self))) if plural_form(self.lang, int(self)) in order else -1
        return forms[min(index, len(forms) - 1)]


class _Bound:
    """A word placed in a phrase declined as a whole: without an explicit form it takes the phrase's case,
    agreeing in gender with the phrase's head noun."""

    def __init__(self, word: Word, gender: str, case: str) -> None:
        self.word, self.tag = word, f"{gender}.{case}" if gender else case

    def __format__(self, spec: str) -> str:
        return self.word.form(spec or self.tag)


# Regular adjective endings per gender, in the order of CASES (nom gen dat acc ins loc); the stem is the word
# without its dictionary ending. A masculine animate noun takes the genitive form in the accusative ("ma.acc").
_ADJECTIVES: dict[str, list[tuple[str, dict[str, str]]]] = {
    "pl": [
        ("i", {  # niebieski: the -i- of a k/g stem stays
            "m": "i iego iemu i im im", "f": "a iej iej ą ą iej", "n": "ie iego iemu ie im im",
            "pl": "ie ich im ie imi ich", "ma": "i iego iemu iego im im",
        }),
        ("y", {  # żółty
            "m": "y ego emu y ym ym", "f": "a ej ej ą ą ej", "n": "e ego emu e ym ym",
            "pl": "e ych ym e ymi ych", "ma": "y ego emu ego ym ym",
        }),
    ],
    "uk": [
        ("ій", {  # синій: soft stem
            "m": "ій ього ьому ій ім ьому", "f": "я ьої ій ю ьою ій", "n": "є ього ьому є ім ьому",
            "pl": "і іх ім і іми іх", "ma": "ій ього ьому ього ім ьому",
        }),
        ("ий", {  # жовтий: hard stem
            "m": "ий ого ому ий им ому", "f": "а ої ій у ою ій", "n": "е ого ому е им ому",
            "pl": "і их им і ими их", "ma": "ий ого ому ого им ому",
        }),
    ],
}  # fmt: skip


def decline_adjective(lang: str, word: str) -> dict[str, str]:
    """Every gender × case form of a regular adjective (``niebieski`` → ``f.acc``: "niebieską"); the word alone
    when the language does not decline or the ending is not regular."""
    for ending, genders in _ADJECTIVES.get(lang, []):
        if word.endswith(ending):
            stem = word[: -len(ending)]
            return {
                f"{gender}.{case}": stem + suffix
                for gender, suffixes in genders.items()
                for case, suffix in zip(CASES, suffixes.split(), strict=True)
            }
    return {"nom": word}


def _word(lang: str, entry: Mapping[str, str]) -> Word:
    if "adjective" in entry:
        forms = decline_adjective(lang, entry["adjective"])
        forms.update({tag: text for tag, text in entry.items() if tag != "adjective"})
        return Word(forms)
    return Word({tag: text for tag, text in entry.items() if tag != "gender"}, entry.get("gender", ""))


def is_word_entry(entry: Any) -> bool:
    return isinstance(entry, dict) and ("gender" in entry or "adjective" in entry)


def _entry(key: str, locale: str | None) -> tuple[str, Any]:
    lang = normalize(locale)
    entry = catalogue(lang).get(key)
    if entry is None:
        lang, entry = DEFAULT, catalogue(DEFAULT).get(key)
    return lang, entry


def has(key: str, locale: str | None = None) -> bool:
    return key in catalogue(normalize(locale)) or key in catalogue(DEFAULT)


def word(key: str, locale: str | None = None) -> Word:
    """The catalogue word ``key`` with all its forms (a plain text is a word with one form)."""
    return _cached_word(key, normalize(locale))


@cache
def _cached_word(key: str, lang: str) -> Word:
    lang, entry = _entry(key, lang)
    if entry is None:
        return Word({"nom": key})
    if is_word_entry(entry):
        return _word(lang, entry)
    return Word({"nom": str(entry)})


def t(key: str, locale: str | None = None, /, **params: Any) -> str:
    """The text for ``key`` in ``locale`` with ``params`` filled in; kept when every parameter is a plain text or
    number (a move's reply and post say a dozen, mostly the same from move to move, and filling in a phrase takes a few
    microseconds each time). A word with its forms is put in afresh: as a ``str`` it equals its dictionary form."""
    if all(type(value) is str or type(value) is int for value in params.values()):
        return _kept(key, locale, tuple(params.items()))
    return _said(key, locale, params)


@lru_cache(maxsize=8192)
def _kept(key: str, locale: str | None, params: tuple[tuple[str, str | int], ...]) -> str:
    return _said(key, locale, dict(params))


def _said(key: str, locale: str | None, params: Mapping[str, Any]) -> str:
    lang, text = _entry(key, locale)
    if text is None:
        return key
    if is_word_entry(text):
        return str(_word(lang, text))
    if isinstance(text, dict):
        count = int(params.get("count", 0))
        text = text.get(plural_form(lang, count)) or text.get("other") or text.get("many") or next(iter(text.values()))
    # A plain text where the phrase asks for a form ("{color:f.acc}") is a word with one form, not an error.
    params = {name: _param(v, lang) for name, v in params.items()}
    try:
        return _euphony(lang, str(text).format(**params))
    except (KeyError, IndexError, ValueError):
        return str(text)


# "z"/"з" (with, from) before a sibilant and a consonant is said "ze"/"зі": "ze środka", "зі світло-зеленим".
_EUPHONY = {
    "pl": (re.compile(r"(?<![\w])z (?=[szśźż][^\W aeiouyąęó])"), "ze "),
    "uk": (re.compile(r"(?<![\w])з (?=[сзшщцч][^\W аеєиіїоуюя])"), "зі "),
}


def _euphony(lang: str, text: str) -> str:
    rule = _EUPHONY.get(lang)
    return rule[0].sub(rule[1], text) if rule else text


def _param(value: Any, lang: str) -> Any:
    if type(value) is str:
        return Word({"nom": value})
    if type(value) is int:
        return _Number(value, lang)
    return value


def agree(key: str, locale: str | None, head: Word, /, **params: Any) -> Word:
    """The phrase ``key`` declined as one word with the gender of ``head``: in each case its words without an
    explicit form take that case, adjectives agreeing with ``head`` (``"{color} {pattern}"`` in the accusative
    gives "niebieską lilię")."""
    forms = {}
    for case in CASES:
        bound = {name: _Bound(v, head.gender, case) if isinstance(v, Word) else v for name, v in params.items()}
        forms[case] = t(key, locale, **bound)
    for number_case in ("pl.nom", "pl.gen", "pl.acc", "pl.ins"):
        bound = {name: _Bound(v, "pl", number_case[3:]) if isinstance(v, Word) else v for name, v in params.items()}
        forms[number_case] = t(key, locale, **bound)
    return Word(forms, head.gender)
