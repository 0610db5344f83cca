"""Every text the bot says exists in English, Polish and Ukrainian, and the Azul adapter puts the game into words."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.games import adapter_of, move_commands
from bot.games.azul import ADAPTER as AZUL
from data.i18n import SUPPORTED, catalogue
from engine import Event
from tests.bot.discord_limits import bot_payload

BOT = Path(__file__).resolve().parents[2] / "bot"
MOVE_COMMANDS = move_commands()
LITERAL_KEY = re.compile(r"""["'](bot\.[a-z_]+(?:\.[a-z_]+)+)["']""")
REFUSAL = re.compile(r"""Refusal\(\s*["']([a-z_]+)["']""")
MENTIONED = re.compile(r"/(azul[^\s`]*) ?([^\s`{]*)")


def keys_in_code() -> set[str]:
    keys: set[str] = set()
    for file in BOT.glob("*.py"):
        source = file.read_text(encoding="utf-8")
        keys |= set(LITERAL_KEY.findall(source))
        keys |= {f"bot.refuse.{key}" for key in REFUSAL.findall(source)}
    keys |= {f"bot.{kind}.{name}" for kind in ("cmd", "command") for name in MOVE_COMMANDS}
    keys |= {f"bot.opt.{option}" for options in MOVE_COMMANDS.values() for option in options}
    keys |= {f"bot.option.{option}" for options in MOVE_COMMANDS.values() for option in options}
    keys |= {f"bot.{kind}.{name}" for kind in ("variant", "rules") for name in ("azul", "azul-grey")}
    return keys


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_bot_text_exists_in_every_language(lang: str) -> None:
    missing = sorted(key for key in keys_in_code() if key not in catalogue(lang))
    assert not missing, f"{lang} lacks {missing}"


@pytest.fixture(scope="module")
def synced() -> list[dict[str, Any]]:
    return asyncio.run(bot_payload())


def shown_name(item: dict[str, Any], lang: str) -> str:
    return str((item.get("name_localizations") or {}).get(lang, item["name"]))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_texts_name_commands_as_the_client_shows_them(synced: list[dict[str, Any]], lang: str) -> None:
    """Every ``/command sub`` a text mentions exists in the synced tree, in the reader's language."""
    paths = {shown_name(command, lang): set() for command in synced}
    for command in synced:
        subs = [option for option in command.get("options") or [] if option.get("type") in (1, 2)]
        paths[shown_name(command, lang)] = {shown_name(sub, lang) for sub in subs}
    texts = [value for value in catalogue(lang).values() if isinstance(value, str)]
    mentioned = {(top, sub) for value in texts for top, sub in MENTIONED.findall(value)}
    assert mentioned
    for top, sub in mentioned:
        assert top in paths, f"{lang}: /{top} is not a command"
        assert not sub or not paths[top] or sub in paths[top], f"{lang}: /{top} has no {sub}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_azul_texts_match_english(lang: str) -> None:
    english = {key for key in catalogue("en") if key.startswith(("bot.azul.", "bot.event.azul."))}
    assert english <= set(catalogue(lang))


def test_azul_labels_in_words() -> None:
    state = engine.new_game("azul", 2, seed=3)
    seat = min(engine.to_act(state))
    tiles = state.factories[0]
    color = next(i for i, n in enumerate(tiles) if n)
    name = engine.azul.COLORS[color]
    assert AZUL.label(state, seat, "source", "1", chosen={}, locale="en").startswith("Factory 1 — ")
    assert AZUL.label(state, seat, "color", name, chosen={"source": "1"}, locale="en") == (
        f"Factory 1 — {tiles[color]}× {AZUL.color_name(color, 'en')}"
    )
    assert AZUL.color_name("white", "en") == "turquoise", "the fifth colour is named as it looks"
    assert AZUL.label(state, seat, "line", "4", chosen={}, locale="en") == "Line 4 (4 free)"
    assert AZUL.label(state, seat, "line", "1", chosen={"source": "1", "color": name}, locale="en") == (
        "Line 1 (1 free)" + (f" — {tiles[color] - 1} to the floor" if tiles[color] > 1 else "")
    )
    assert AZUL.label(state, seat, "line", "floor", chosen={}, locale="pl") == "Podłoga"
    assert AZUL.label(state, seat, "source", "centre", chosen={}, locale="uk").startswith("Центр столу")


def test_azul_events_in_one_line() -> None:
    names = ["Ala", "Bob"]
    take = Event(
        "take",
        0,
        {"source": 2, "color": 0, "count": 3, "line": 2, "to_line": 2, "to_floor": 1, "to_lid": 0, "marker": False},
    )
    assert AZUL.describe([take], names, "en") == "Ala took 3 blue tiles from factory 3 to line 2 — 1 to the floor"
    scored = [
        take,
        Event("wall", 0, {"row": 0, "col": 0, "color": 0, "points": 1, "h": 1, "v": 1}),
        Event("wall", 1, {"row": 1, "col": 2, "color": 2, "points": 2, "h": 2, "v": 1}),
        Event("floor_penalty", 1, {"points": -2, "applied": -2, "tiles": 2}),
        Event("round_scored", None, {"round": 1, "scores": [1, 0]}),
    ]
    line = AZUL.describe(scored, names, "en")
    assert "wall: Ala +1, Bob +2" in line and "floor: Bob −2" in line and "round 1 scored — Ala 1, Bob 0" in line
    assert "Ala" in AZUL.describe(scored, names, "pl") and "Ala" in AZUL.describe(scored, names, "uk")


def test_every_registered_variant_has_an_adapter_with_its_commands() -> None:
    for variant in engine.variant_names():
        adapter = adapter_of(variant)
        assert set(adapter.commands) <= set(MOVE_COMMANDS), variant
        state = engine.new_game(variant, 2, seed=1)
        seat = min(engine.to_act(state))
        assert {move.command for move in engine.legal_moves(state, seat)} <= set(adapter.commands), variant
