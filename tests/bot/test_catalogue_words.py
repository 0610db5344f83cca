"""Every text read as a native reader would: numbers agree with their nouns at 1, 2, 5, 12, 21 and 22; Polish and
Ukrainian never ask a player to type an English token; no capital after a colon inside a sentence; a refusal is
one clear sentence per thought, in words (no ``lp3``, ``d1``, ``F1``), and names the commands that do apply."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app.errors import Refusal
from bot.app.language import explain
from data.i18n import catalogue, is_word_entry, plural_form, t
from engine import IllegalMove
from tests.bot.discord_limits import bot_payload
from tests.bot.table import Table

COUNTS = (1, 2, 5, 12, 21, 22)
NOUNS: dict[str, dict[str, tuple[set[str], set[str], set[str]]]] = {
    # lemma: (forms after 1 [and 21 in Ukrainian], after 2-4, after 5+), every case a phrase may put them in
    "pl": {
        "płytka": ({"płytka", "płytkę", "płytki", "płytką"}, {"płytki", "płytkami"}, {"płytek", "płytkami"}),
        "punkt": ({"punkt", "punktu", "punktem"}, {"punkty", "punktami"}, {"punktów", "punktami"}),
        "heksagon": (
            {"heksagon", "heksagonu", "heksagonem"},
            {"heksagony", "heksagonami"},
            {"heksagonów", "heksagonami"},
        ),
        "joker": ({"joker", "jokera", "jokerem"}, {"jokery", "jokerami"}, {"jokerów", "jokerami"}),
        "gra": ({"gra", "grę", "gry", "grą"}, {"gry", "grami"}, {"gier", "grami"}),
        "osoba": ({"osoba", "osobę", "osoby", "osobą"}, {"osoby", "osobami"}, {"osób", "osobami"}),
        "runda": ({"runda", "rundę", "rundy"}, {"rundy", "rundami"}, {"rund", "rundami"}),
        "ruch": ({"ruch", "ruchu", "ruchem"}, {"ruchy", "ruchami"}, {"ruchów", "ruchami"}),
        "miejsce": ({"miejsce", "miejsca"}, {"miejsca", "miejscami"}, {"miejsc", "miejscami"}),
    },
    "uk": {
        "плитка": ({"плитка", "плитку", "плитки", "плиткою"}, {"плитки", "плитками"}, {"плиток", "плитками"}),
        "очко": ({"очко", "очка"}, {"очки", "очками"}, {"очок", "очками"}),
        "гексагон": (
            {"гексагон", "гексагона", "гексагоном"},
            {"гексагони", "гексагонами"},
            {"гексагонів", "гексагонами"},
        ),
        "джокер": ({"джокер", "джокера", "джокером"}, {"джокери", "джокерами"}, {"джокерів", "джокерами"}),
        "гра": ({"гра", "гру", "гри", "грою"}, {"гри", "іграми"}, {"ігор", "іграми"}),
        "раунд": ({"раунд", "раунду", "раундом"}, {"раунди", "раундами"}, {"раундів", "раундами"}),
        "хід": ({"хід", "ходу", "ходом"}, {"ходи", "ходами"}, {"ходів", "ходами"}),
        "місце": ({"місце", "місця"}, {"місця", "місцями"}, {"місць", "місцями"}),
    },
    "en": {
        noun: ({noun}, {f"{noun}s"}, {f"{noun}s"})
        for noun in ("tile", "point", "hexagon", "joker", "game", "player", "round", "move", "seat", "expansion")
    },
}
NAMES = {"player", "players", "name", "names", "move", "winner", "creator", "mention", "user", "owner", "who"}
NAMES |= {"color", "line_color", "wild", "star", "tile", "hexagon", "what", "pay", "source"}
"""Parameters that are people, moves or pieces, not numbers."""
FORM_INDEX = {"one": 0, "few": 1, "many": 2, "other": 2}
UPPER = "A-ZĄĆĘŁŃÓŚŹŻА-ЯІЇЄҐ"
CODE = re.compile(r"\b(?:d\d+|x?(?:bl|ye|lg|dg|lp|dp)\d|F\d|A\d-\d)\b")
"""What Queen's Garden's notation looks like: ``d1`` (a display place), ``lp3``/``xbl2`` (hexagons), ``F1``/``A2-4``."""
QUOTED = re.compile(r"„[^”]*”|\"[^\"]*\"|«[^»]*»")
"""What the player typed, echoed back in quotes: theirs, not the bot's words."""


class Sample(dict[str, Any]):
    """Every parameter a text may ask for: a number (so plural forms apply) unless a word is needed."""

    def __missing__(self, key: str) -> Any:
        return self.get("count", 3)


def texts(lang: str) -> Iterator[tuple[str, str]]:
    """(key, text) of every phrase of ``lang``, each plural form on its own; words (declension tables) left out."""
    for key, value in catalogue(lang).items():
        if is_word_entry(value):
            continue
        for form in value.values() if isinstance(value, dict) else [value]:
            yield key, str(form)


def rendered(lang: str, key: str, count: int) -> str:
    """``key`` with every number in it set to ``count``."""
    value = catalogue(lang)[key]
    template = value if isinstance(value, str) else value.get(plural_form(lang, count)) or value.get("other", "")
    names = set(re.findall(r"\{(\w+)", template))
    return t(key, lang, **{name: "Ala" if name in NAMES else count for name in names})


def disagreements(lang: str, said: str, count: int) -> list[str]:
    wrong = []
    expected = 0 if lang == "en" and count == 1 else FORM_INDEX[plural_form(lang, count)]
    # a range ("od 2 do 5 rund", "від 2 до 4 гравців") takes the noun its upper bound's language gives it
    for noun in re.findall(rf"(?<![\d,.])(?<!do )(?<!od )(?<!до )(?<!від )(?<!to )(?<!of ){count} (\w+)", said):
        for forms in NOUNS[lang].values():
            every = set().union(*forms)
            if noun.lower() in every and noun.lower() not in forms[expected]:
                wrong.append(f"{count} {noun}")
    return wrong


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_every_counted_noun_agrees_with_its_number_at_1_2_5_12_21_22(lang: str) -> None:
    wrong = []
    for key in catalogue(lang):
        if is_word_entry(catalogue(lang)[key]) or "{" not in str(catalogue(lang)[key]):
            continue
        for count in COUNTS:
            said = rendered(lang, key, count)
            wrong += [f"{key}: {found} in {said[:90]!r}" for found in disagreements(lang, said, count)]
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_the_plural_check_catches_the_old_words() -> None:
    assert disagreements("pl", "zapłać dokładnie 1 heksagonami", 1) == ["1 heksagonami"]
    assert disagreements("uk", "рівно 1 гексагонами", 1) == ["1 гексагонами"]
    assert disagreements("en", "exactly 1 hexagons", 1) == ["1 hexagons"]
    assert disagreements("pl", "odrzucając 5 płytki", 5) == ["5 płytki"]
    assert not disagreements("uk", "21 плитка", 21) and not disagreements("pl", "21 płytek", 21)


@pytest.fixture(scope="module")
def option_names() -> set[str]:
    """What Discord shows in every language for an option (option names are not localised)."""
    names: set[str] = set()

    def walk(item: dict[str, Any]) -> None:
        for option in item.get("options") or []:
            if option.get("type") in (1, 2):
                walk(option)
            else:
                names.add(option["name"])

    for command in asyncio.run(bot_payload()):
        walk(command)
    return names


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_no_english_token_to_type_in_polish_or_ukrainian(lang: str, option_names: set[str]) -> None:
    """A backticked token is a command path, an option's name as Discord shows it, or a value filled in; never an
    English word to type (`purple`, `centre`, `acquire`): players pick a suggestion, in their own words."""
    wrong = []
    for key, said in texts(lang):
        for token in re.findall(r"`([^`]*)`", said):
            if token.startswith("/") or token.startswith("{"):
                continue
            if re.split(r"[:\s]", token)[0] in option_names:
                continue
            if re.fullmatch(r"[A-Za-z _\-:]+", token):
                wrong.append(f"{key}: `{token}`")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_no_capital_after_a_colon_inside_a_sentence(lang: str) -> None:
    wrong = []
    for key, said in texts(lang):
        plain = re.sub(r"`[^`]*`|\{[^}]*\}|\*\*|Azul: |Азул: ", "x", said)
        wrong += [f"{key}: {found!r}" for found in re.findall(rf"\w: [{UPPER}]\w*", plain)]
    assert not wrong, "\n".join(wrong)


ERROR_PARAMS = Sample(
    count=3,
    hexagon="lp3",
    cell="F1",
    area="A2",
    color="white",
    line_color="yellow",
    locations="d1, d2",
    text="zz",
    token="zz",
    payment="bl3+ye3",
    by="bl",
    option="line",
    command="take",
    variant="azul",
    source="1",
    seed="x",
    field="x",
    players=[],
)


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_every_engine_refusal_is_sentences_in_words(lang: str) -> None:
    """Rendered as a player reads it: no capital after a colon, no second colon in one sentence, no notation
    code (what the player typed, quoted, aside), no colour the engine names but players do not see ("white")."""
    wrong = []
    for key in catalogue("en"):
        if not key.startswith("error."):
            continue
        said = explain(IllegalMove(key.removeprefix("error."), **ERROR_PARAMS), lang)
        plain = QUOTED.sub("x", said)
        for sentence in re.split(r"(?<=[.?!])\s", plain):
            if sentence.count(": ") > 1:
                wrong.append(f"{key}: two colons in {sentence!r}")
        if lang != "en" and re.search(rf"\w: [{UPPER}]", plain):
            wrong.append(f"{key}: a capital after a colon in {said!r}")
        if CODE.search(plain) or (not key.startswith("error.sp_") and re.search(r"\bwhite\b", plain)):
            wrong.append(f"{key}: a code in {said!r}")
    assert not wrong, "\n".join(wrong)


def test_the_refusal_check_catches_the_old_words() -> None:
    old = "Ten ruch jest niedozwolony: Heksagon lp3 nie może leżeć na polu F1: obok leży identyczny heksagon."
    assert re.search(rf"\w: [{UPPER}]", old) and CODE.search(old) and old.count(": ") > 1


async def test_a_move_command_of_another_game_names_this_games_moves(
    simcord_env: Any, discord_locales: dict[int, str]
) -> None:
    """``/azul-ruch dobierz`` in a game of Azul: the answer names the commands that are Azul's, in Polish."""
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member = table.players[0]
    discord_locales[member.id] = "pl"
    refused = await member.slash(table.channel, "azul-move acquire", by="bl")
    said = refused.response.content
    assert refused.ephemeral and "`/azul-ruch weź`" in said and "`/azul-ruch ściana`" in said, said
    assert explain(Refusal("command_not_in_game", command="acquire", variant="azul", moves=["take"]), "en") == (
        "`/azul-move acquire` is not a move in Azul; its moves are `/azul-move take`."
    )


def test_a_phrase_kept_for_plain_text_is_not_given_for_a_word_that_reads_the_same() -> None:
    """Phrases filled with plain texts and numbers are kept; a word with its forms equals its dictionary form as a
    ``str``, so it must never be served the plain text's phrase: "kładzie lilię", not "kładzie lilia"."""
    from data.i18n import word

    key, lily = "bot.event.queens-garden.tile_placed", word("bot.qg.pattern.6", "pl")
    assert str(lily) == "lilia"
    assert t(key, "pl", player="Ala", hexagon="lilia", cell="A1") == "Ala kładzie lilia na A1"
    assert t(key, "pl", player="Ala", hexagon=lily, cell="A1") == "Ala kładzie lilię na A1"
    assert t(key, "pl", player="Ala", hexagon="lilia", cell="A1") == "Ala kładzie lilia na A1"
