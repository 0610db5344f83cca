"""The phrase table: every catalogue text rendered with sample values in English, Polish and Ukrainian, then the
sentences the game adapters build from them, so a person can read every text as players will see it.

``python -m tools.phrases`` rewrites ``data/locale/PHRASES.md``; a test checks that the committed table is current, so
a changed text shows up in review as a changed line of the table.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import engine
from bot.games import GameAdapter, adapter_for, adapter_of
from data import path
from data.i18n import SUPPORTED, Word, catalogue, is_word_entry, t, word
from engine import Event

TABLE = path("locale", "PHRASES.md")
LABELS_PER_OPTION = 4
COUNTS = (1, 2, 5, 12, 21, 22)
"""Sample numbers for plural forms: one, few, many, the teens, and 21/22 (Polish 21 is "many", Ukrainian "one")."""

# Sample value of each parameter by name; callables get the key and the language (for words that decline).
NAMES = ["alice", "bob", "carol", "dave"]


SAMPLES: dict[str, Any] = {
    "player": "alice",
    "players": "**alice**, **bob**",
    "name": "alice",
    "creator": "alice",
    "user": "@alice",
    "variant": "Azul",
    "game": 42,
    "round": 3,
    "number": 3,
    "row": 2,
    "column": 4,
    "space": 5,
    "cell": "A2-4",
    "area": "A3",
    "points": 7,
    "penalty": 3,
    "cost": 4,
    "value": 3,
    "min": 2,
    "max": 4,
    "seats": 3,
    "score": 21,
    "place": 1,
    "storage": "−18",
    "groups": 24,
    "moves": 57,
    "move": "take 3 blue 2",
    "how": lambda key, lang: t("bot.order.random", lang),
    "order": "alice, bob",
    "since": "<t:1767225600:R>",
    "link": "https://discord.com/channels/1/2/3",
    "token": "purple",
    "text": "blu",
    "option": lambda key, lang: t("bot.option.by", lang),
    "command": lambda key, lang: t("bot.name.acquire", lang),
    "reason": "…",
    "tiles": 3,
    "expansions": 1,
    "source": lambda key, lang: (
        t(f"bot.{key.split('.')[2]}.from_factory", lang, number=2) if key.startswith("bot.event.") else 2
    ),
    "factory": 7,
    "factories": 5,
    "given": 3,
    "have": 2,
    "needed": 3,
    "most": 4,
    "available": 1,
    "wilds": 2,
    "scores": "alice 21, bob 17",
    "ornament_name": "S2",
    "lost_text": "",
    "marker_text": "",
    "payment": "bl3+ye3",
    "locations": "d1, d3",
    "by": "bl",
    "expected": 1,
    "field": "seats",
    "seed": "x",
    "detail": "…",
    "why": "…",
    "pay": "2× purple, 1× red",
    "count": 3,
    "hours": 24,
    "minutes": 40,
    "left": lambda key, lang: t("bot.limit.hours_short", lang, hours=23),
    "when": "<t:1767268800:R>",
    "relative": "<t:1767268800:R>",
    "then": lambda key, lang: t("bot.limit.then.computer", lang),
    "limit": lambda key, lang: t("bot.limit.line", lang, hours=24, then=t("bot.limit.then.computer", lang)),
    "players_count": 3,
}


def _fields(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def _adapters() -> list[GameAdapter[Any]]:
    return [adapter_for(game) for game in engine.game_names()]


def _owner(key: str) -> GameAdapter[Any]:
    """The game whose text ``key`` is (by the short name in its keys), else the first game."""
    adapters = _adapters()
    for adapter in adapters:
        short = adapter.short_name
        if short and (f".{short}" in key or f"{short}_" in key):
            return adapter
    return adapters[0]


def _sample(name: str, key: str) -> Any:
    """The sample value of parameter ``name`` in text ``key``: the owning game's, another game's, or a generic one."""
    for adapter in [_owner(key), *_adapters()]:
        if name in adapter.phrase_params():
            return adapter.phrase_params()[name]
    return SAMPLES.get(name, f"<{name}>")


def _params(key: str, lang: str, texts: list[str], count: int | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name in set().union(*(_fields(text) for text in texts)):
        sample = _sample(name, key)
        params[name] = sample(key, lang) if callable(sample) else sample
    if count is not None:
        params["count"] = count
    return params


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _render(key: str, lang: str) -> str:
    entry = catalogue(lang).get(key)
    if entry is None:
        return "**missing**"
    if is_word_entry(entry):
        return _word_forms(word(key, lang))
    if isinstance(entry, dict):
        texts = [str(value) for value in entry.values()]
        lines = [f"{n}: {t(key, lang, **_params(key, lang, texts, n))}" for n in COUNTS]
        return "<br>".join(_cell(line) for line in lines)
    return _cell(t(key, lang, **_params(key, lang, [str(entry)], None)))


def _word_forms(found: Word) -> str:
    tags = ("nom", "gen", "acc", "ins", "loc") if found.gender else ("m.nom", "f.nom", "n.nom", "f.acc", "pl.gen")
    forms = [found.form(tag) for tag in tags]
    shown = " · ".join(dict.fromkeys(forms))
    return f"{shown} ({found.gender})" if found.gender else shown


def _catalogue_rows() -> Iterator[str]:
    keys = sorted(catalogue("en"), key=lambda key: (key.split(".")[:2], key))
    for key in keys:
        yield f"| `{key}` | " + " | ".join(_render(key, lang) for lang in SUPPORTED) + " |"


def _sentences() -> list[tuple[str, Callable[[str], str]]]:
    """Sentences the adapters build from several catalogue texts, with events as the engine reports them: each
    game's own samples (:meth:`~bot.games.base.GameAdapter.phrase_samples`)."""

    def said(adapter: GameAdapter[Any], events: list[Event]) -> Callable[[str], str]:
        return lambda lang: adapter.describe(events, NAMES, lang)

    rows: list[tuple[str, Callable[[str], str]]] = []
    for game in engine.game_names():
        adapter = adapter_for(game)
        rows.extend((name, said(adapter, events)) for name, events in adapter.phrase_samples())
    return rows


def _label_rows() -> Iterator[str]:
    """Labels of the choices of every variant's opening position (seed 1, two players), as the picker shows them."""
    for variant in engine.variant_names():
        state = engine.new_game(variant, 2, seed=1)
        seat = min(engine.to_act(state))
        adapter = adapter_of(variant)
        shown: dict[str, int] = {}
        seen: set[str] = set()
        for move in engine.legal_moves(state, seat):
            chosen: dict[str, str] = {}
            for option, token in move.choices():
                labels = [adapter.label(state, seat, option, token, chosen=chosen, locale=lang) for lang in SUPPORTED]
                chosen[option] = token
                if shown.get(option, 0) >= LABELS_PER_OPTION or labels[0] in seen:
                    continue
                shown[option] = shown.get(option, 0) + 1
                seen.add(labels[0])
                yield f"| {variant} `{option}={token}` | " + " | ".join(_cell(label) for label in labels) + " |"


def _game_tables() -> Iterator[str]:
    """Each game's own tables of words (:meth:`~bot.games.base.GameAdapter.phrase_tables`)."""
    for adapter in _adapters():
        for title, first, rows in adapter.phrase_tables():
            yield from (
                f"## {title}",
                "",
                f"| {first} | " + " | ".join(SUPPORTED) + " |\n|---|" + "---|" * len(SUPPORTED),
            )
            yield from (
                f"| {name} | " + " | ".join(_cell(said(lang)) for lang in SUPPORTED) + " |" for name, said in rows
            )
            yield ""


def table() -> str:
    head = "| key | " + " | ".join(SUPPORTED) + " |\n|---|" + "---|" * len(SUPPORTED)
    lines = [
        "# Every phrase in every language",
        "",
        "Generated by `python -m tools.phrases` from `data/locale/`; do not edit by hand. Plural texts are shown for "
        f"{', '.join(map(str, COUNTS))}; words with their forms (noun: nominative · genitive · accusative · "
        "instrumental · locative and gender; adjective: masculine · feminine · neuter · feminine accusative · "
        "plural genitive).",
        "",
        "## Catalogue texts with sample values",
        "",
        "Texts that the adapters fill with other texts (event lines, labels) are shown again, as posted, in the last "
        "section.",
        "",
        head,
        *_catalogue_rows(),
        "",
        "## Choice labels of each variant's opening position",
        "",
        "| choice | " + " | ".join(SUPPORTED) + " |\n|---|" + "---|" * len(SUPPORTED),
        *_label_rows(),
        "",
        *_game_tables(),
        "## Event lines as posted",
        "",
        "| events | " + " | ".join(SUPPORTED) + " |\n|---|" + "---|" * len(SUPPORTED),
        *(f"| {name} | " + " | ".join(_cell(say(lang)) for lang in SUPPORTED) + " |" for name, say in _sentences()),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    Path(TABLE).write_text(table(), encoding="utf-8")
    print(f"wrote {TABLE}")


if __name__ == "__main__":
    main()
