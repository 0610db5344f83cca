"""One word per thing, per language: no phrase in data/locale names a glossary thing (factory, bag, tower...) with
another word than the glossary's (data/locale/glossary.json, the rulebooks' terms)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parent.parent / "data" / "locale"
GLOSSARY = json.loads((LOCALE / "glossary.json").read_text(encoding="utf-8"))


def phrases(language: str) -> Iterator[tuple[str, str]]:
    """Every phrase of ``language``: (key, text), each plural form on its own; command and option names and
    descriptions (``bot.name.*``, ``bot.cmd.*``, ``bot.opt.*``) too, as Discord shows them."""
    for file in sorted((LOCALE / language).glob("*.json")):
        for key, value in json.loads(file.read_text(encoding="utf-8")).items():
            forms = value.values() if isinstance(value, dict) else [value]
            for form in forms:
                # what players type (`/azul-ruch kafel-ogrodu`) is not a phrase
                yield key, re.sub(r"`[^`]*`", "", str(form))


@pytest.mark.parametrize("language", ["en", "pl", "uk"])
def test_no_phrase_uses_another_word_for_a_glossary_thing(language: str) -> None:
    wrong = []
    for thing, entry in GLOSSARY[language].items():
        for pattern in entry["not"]:
            found = re.compile(r"(?<!\w)" + pattern, re.IGNORECASE)
            wrong += [
                f"{key}: {found.search(text)[0]!r} for {thing} ({entry['term']})"
                for key, text in phrases(language)
                if found.search(text)
            ]  # type: ignore[index]
    assert not wrong, "\n".join(wrong)


def test_the_glossary_would_catch_the_old_words() -> None:
    """The words measured before the glossary existed are caught by it (so the test above can fail)."""
    old = {
        "uk": ["з вітрини фабрики", "Башта 3", "бере жетон першого гравця", "рядки", "стовпці", "зі складу на вибір"],
        "pl": ["(+ znacznik pierwszego gracza)", "z worka"],
        "en": ["takes the start tile"],
    }
    for language, texts in old.items():
        patterns = [re.compile(r"(?<!\w)" + p, re.IGNORECASE) for e in GLOSSARY[language].values() for p in e["not"]]
        for text in texts:
            assert any(p.search(text) for p in patterns), f"{language}: {text!r} is not caught"


@pytest.mark.parametrize("language", ["en", "pl", "uk"])
def test_command_descriptions_and_option_names_are_phrases_too(language: str) -> None:
    """What Discord shows beside a command is read as much as any reply: its name, description and options."""
    keys = {key for key, _ in phrases(language)}
    for prefix in ("bot.cmd.", "bot.opt.", "bot.name."):
        assert any(key.startswith(prefix) for key in keys), prefix
