"""One word per thing, per language: no phrase in data/locale names a glossary thing (factory, bag, tower...) with
another word than the glossary's (data/locale/glossary.json, the rulebooks' terms), and every term said to be the
rulebook's quotes the rulebook line it comes from (the seeds: ../shared/seeds/, or the folder in AZUL_SEEDS)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parent.parent / "data" / "locale"
GLOSSARY = json.loads((LOCALE / "glossary.json").read_text(encoding="utf-8"))
SEEDS = Path(os.environ.get("AZUL_SEEDS") or Path(__file__).resolve().parents[2] / "shared" / "seeds")
ENTRIES = [(language, thing, entry) for language in ("en", "pl", "uk") for thing, entry in GLOSSARY[language].items()]


def flat(text: str) -> str:
    """Text as words: the seeds are extracted from PDFs, so line breaks and runs of spaces mean nothing."""
    return " ".join(text.split())


@pytest.mark.parametrize(("language", "thing", "entry"), ENTRIES, ids=[f"{lang}-{thing}" for lang, thing, _ in ENTRIES])
def test_every_term_quotes_its_rulebook_line_or_says_where_it_comes_from(
    language: str, thing: str, entry: dict[str, object]
) -> None:
    quotes = entry.get("rulebook") or []
    assert isinstance(quotes, list)
    assert quotes or entry.get("source"), f"{language} {thing}: neither a rulebook quote nor a source"
    stems = {word[:3].lower() for word in re.findall(r"\w+", str(entry["term"])) if len(word) >= 3}
    for quoted in quotes:
        assert any(stem in quoted["quote"].lower() for stem in stems), f"{thing}: {quoted['quote']!r} lacks the term"
    if quotes and not SEEDS.is_dir():
        pytest.skip(f"the rulebooks are not here ({SEEDS}): set AZUL_SEEDS to check the quotes")
    for quoted in quotes:
        seed = flat((SEEDS / quoted["seed"]).read_text(encoding="utf-8"))
        assert flat(quoted["quote"]) in seed, f"{language} {thing}: {quoted['quote']!r} is not in {quoted['seed']}"


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
        "uk": [
            *("з вітрини фабрики", "Башта 3", "бере жетон першого гравця", "рядки", "стовпці", "зі складу на вибір"),
            *("Центр", "з центру", "Кришка 32", "Відмінити хід"),
        ],
        "pl": [
            "(+ znacznik pierwszego gracza)",
            "z worka",
            "Środek stołu",
            "ze środka",
            "linii wzoru",
            "Układanie ściany",
        ],
        "en": ["takes the start tile", "Pattern line 1 is full"],
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
