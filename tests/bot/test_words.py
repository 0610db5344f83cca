"""Words agree: declined colours and patterns, numbers with their nouns, one ranking, a current phrase table."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import pytest

import engine
from bot.app.narration import standings_text
from bot.games.azul import ADAPTER as AZUL
from bot.games.queens_garden import ADAPTER as QG
from bot.games.summer_pavilion import ADAPTER as SP
from bot.infra.store import GameRow, Seat
from data.i18n import SUPPORTED, Word, agree, catalogue, decline_adjective, is_word_entry, t, word
from engine import Event
from tools import phrases


def test_adjectives_decline_by_the_regular_pattern() -> None:
    assert decline_adjective("pl", "niebieski")["f.acc"] == "niebieską"
    assert decline_adjective("pl", "żółty")["pl.gen"] == "żółtych"
    assert decline_adjective("pl", "ciemnofioletowy")["ma.acc"] == "ciemnofioletowego"
    assert decline_adjective("uk", "синій")["f.ins"] == "синьою"
    assert decline_adjective("uk", "світло-зелений")["n.nom"] == "світло-зелене"
    assert decline_adjective("en", "blue") == {"nom": "blue"}


def test_a_phrase_agrees_with_its_head_noun_in_every_case() -> None:
    lily = word("bot.qg.pattern.6", "pl")
    name = agree("bot.qg.hexagon", "pl", lily, color=word("bot.qg.color.blue", "pl"), pattern=lily, value=6)
    assert (str(name), name.form("acc"), name.form("ins")) == (
        "niebieska lilia (6)",
        "niebieską lilię (6)",
        "niebieską lilią (6)",
    )
    assert isinstance(name, str) and f"{name:gen}" == "niebieskiej lilii (6)"


@pytest.mark.parametrize(
    ("token", "lang", "nominative", "accusative"),
    [
        ("bl6", "pl", "niebieska lilia (6)", "niebieską lilię (6)"),
        ("ye5", "pl", "żółta roślina (5)", "żółtą roślinę (5)"),
        ("lg1", "pl", "jasnozielone drzewo (1)", "jasnozielone drzewo (1)"),
        ("dp2", "pl", "ciemnofioletowy ptak (2)", "ciemnofioletowego ptaka (2)"),
        ("bl4", "uk", "синя квітка (4)", "синю квітку (4)"),
        ("dg2", "uk", "темно-зелений птах (2)", "темно-зеленого птаха (2)"),
        ("bl4", "en", "blue flower (4)", "blue flower (4)"),
    ],
)
def test_hexagon_names_agree(token: str, lang: str, nominative: str, accusative: str) -> None:
    assert QG.hexagon(token, lang) == nominative
    assert QG.hexagon_word(token, lang).form("acc") == accusative


def test_expansions_name_their_hexagon_in_the_instrumental() -> None:
    assert QG.hexagon("xdp2", "pl") == "kafel ogrodu z ciemnofioletowym ptakiem (2)"
    assert QG.hexagon("xlg5", "uk") == "розширення зі світло-зеленою рослиною (5)"


def test_event_lines_agree_with_counts_and_tiles() -> None:
    take = {"source": 2, "color": 0, "line": 2, "to_line": 2, "to_lid": 0, "marker": False, "to_floor": 0}
    lines = {n: AZUL.describe([Event("take", 0, {**take, "count": n})], ["ala"], "pl") for n in (1, 3, 5)}
    assert lines[1].startswith("ala bierze 1 niebieską płytkę z warsztatu 3")
    assert lines[3].startswith("ala bierze 3 niebieskie płytki") and lines[5].startswith(
        "ala bierze 5 niebieskich płytek"
    )
    placed = QG.describe([Event("tile_placed", 0, {"tile": "bl6", "cell": "F1"})], ["ala"], "pl")
    assert placed == "ala kładzie niebieską lilię (6) na polu 1 przy fontannie"
    passed = Event("pass", 2, {"kept": [0] * 6, "discarded": [0, 0, 0, 0, 0, 7], "penalty": 7, "auto": False})
    assert SP.describe([passed], ["a", "b", "carol"], "en") == "carol passed, discarding 7 tiles (−7)"
    final = QG.describe([Event("final_scored", 0, {"storage": -18, "groups": [{"points": 9}]})], ["ala"], "en")
    assert final == "ala: storage −18, 1 group +9"


def test_numbers_choose_the_noun_form() -> None:
    key = "error.sp_cannot_afford"
    assert t(key, "pl", cost=1, have=0).startswith("To pole kosztuje 1 płytkę,")
    assert t(key, "pl", cost=3, have=0).startswith("To pole kosztuje 3 płytki,")
    assert t(key, "pl", cost=5, have=0).startswith("To pole kosztuje 5 płytek,")
    assert t(key, "en", cost=1, have=0).startswith("That space costs 1 tile and")
    assert t("picture.qg.group", "pl", size=3, points=9) == "3 heksagony: 9"


def test_no_past_tense_that_needs_the_players_gender() -> None:
    """The bot does not know a player's grammatical gender: Polish and Ukrainian texts about a player use the present
    tense or a noun, never a gendered past form (spasował, wziął, здався)."""
    gendered = (
        "spasował",
        "wziął",
        "zagrał",
        "poddał",
        "dołączyłeś",
        "opuściłeś",
        "anulował",
        "mogłem",
        "здався",
        "зіграв",
        "скасував",
        "не зміг",
    )
    for lang in ("pl", "uk"):
        texts = [str(v) for v in catalogue(lang).values() if not is_word_entry(v)]
        found = [word for word in gendered for text in texts if word in text.lower()]
        assert not found, (lang, found)


def test_unreadable_acquire_choice_lists_what_can_be_read() -> None:
    state = engine.new_game("queens-garden", 2, seed=1)
    variant = engine.get_variant("queens-garden")
    with pytest.raises(engine.EngineError) as caught:
        variant.apply(state, 0, variant.move_from_choices("acquire", {"by": "purple", "which": "-"}))
    message = t(f"error.{caught.value.key}", "en", **caught.value.params)
    assert "light purple" in message and "lily" in message and "suggestions" in message
    assert "jasnofioletowy" in t(f"error.{caught.value.key}", "pl", **caught.value.params)


def test_ties_share_a_place_and_the_next_place_counts_them() -> None:
    seats = tuple(Seat(user_id=n, name=name, joined=n, seat=n) for n, name in enumerate(["a", "b", "c", "d"]))
    game = GameRow(
        1,
        None,
        1,
        0,
        "azul",
        {},
        1,
        4,
        "random",
        "over",
        9,
        None,
        {"scores": [30, 30, 20, 10], "standings": [[0, 1], [2], [3]]},
        None,
        None,
        "",
        "",
        seats,
    )
    places = [line.split(".")[0] for line in standings_text(game, "en").splitlines()]
    assert places == ["1", "1", "3", "4"]


def test_phrase_table_is_current() -> None:
    """``python -m tools.phrases`` regenerates it; a changed text must show in the committed table."""
    assert phrases.TABLE.read_text(encoding="utf-8") == phrases.table(), "run: python -m tools.phrases"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_english_text_exists_in_every_language(lang: str) -> None:
    missing = sorted(set(catalogue("en")) - set(catalogue(lang)))
    assert not missing, missing


def test_words_are_words() -> None:
    assert (
        isinstance(word("bot.sp.color.red", "uk"), Word) and word("bot.sp.color.red", "uk").form("f.acc") == "червону"
    )
    assert word("bot.sp.color.red", "en").form("f.acc") == "red"


def test_engine_refusals_name_options_as_people_see_them() -> None:
    from bot.app.language import explain
    from engine.core import BadNotation

    assert explain(BadNotation("missing_choice", option="line"), "pl").endswith("Wybierz jeszcze: linię.")
    assert explain(BadNotation("bad_choice", option="by", token="x"), "en").endswith(
        '"x" cannot be chosen as colour or pattern.'
    )


# The bot speaks to a player as a friend at the table does: Polish "ty", Ukrainian "ти", never the formal or plural
# "Pan/Pani", "ви". Only a line that really addresses several players at once may use the plural.
ADDRESSES_SEVERAL = {"bot.post.to_act_many", "bot.league.game_begins"}  # a post that pings a whole table
PLURAL_YOU = {
    # pronouns, the formal "Pan/Pani", and the plural imperative (wybierzcie, weźcie, zagrajcie; not "na warsztacie")
    "pl": re.compile(
        r"\b(wy|was|wam|wami|wasz\w*|pan|pani|pana|panu|panią|panem|państw\w*|\w+(?:j|rz|ź|ż|dź|b|p|ń)cie)\b", re.I
    ),
    # pronouns, and the plural imperative and present endings (оберіть, зачекайте, погляньте; хочете, граєте)
    "uk": re.compile(r"(?<![\w'’])(ви|вас|вам|вами|ваш\w*|\w+(?:іть|їть|йте|ьте|ете|єте)(?:ся)?)(?![\w'’])", re.I),
}
# Inside a sentence the singular pronoun is lowercase ("za ciebie", not "za Ciebie"), as elsewhere in a game's texts.
CAPITAL_YOU = {
    "pl": re.compile(r"[\w,;)]\s+(Ty|Cię|Ciebie|Ci|Tobie|Tobą|Twój|Twoj\w+|Twoi)\b"),
    "uk": re.compile(r"[\w,;)]\s+(Ти|Тебе|Тобі|Тобою|Твій|Тво\w+)(?![\w'’])"),
}
SINGULAR_YOU = {
    "pl": re.compile(r"\b(ty|ciebie|twój|twoja|twoje)\b"),
    "uk": re.compile(r"(?<!\w)(ти|тебе|твій|твоє)(?!\w)"),
}


def _catalogue_texts(lang: str) -> Iterator[tuple[str, str]]:
    for key, entry in catalogue(lang).items():
        if isinstance(entry, str):
            yield key, entry
        elif not is_word_entry(entry):
            yield from ((key, form) for form in entry.values())


def register_slips(lang: str, texts: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    texts = list(texts)
    slips = [(key, m) for key, text in texts if key not in ADDRESSES_SEVERAL for m in PLURAL_YOU[lang].findall(text)]
    return slips + [(key, m) for key, text in texts for m in CAPITAL_YOU[lang].findall(text)]


def test_the_register_check_catches_formal_and_capitalised_address() -> None:
    formal = {
        "uk": ["Ви вже в цій грі.", "Оберіть рівень.", "Що ви хочете зробити?", "Зачекайте.", "Зараз не ваш хід."],
        "pl": ["Komputer gra za Ciebie.", "Wybierzcie kolumny.", "Proszę Pana.", "Ruch każdego z was.", "Weźcie to."],
    }
    for lang, texts in formal.items():
        assert all(register_slips(lang, [("k", text)]) for text in texts), lang
    friendly = {
        "uk": ["Ти вже в цій грі.", "Обери рівень.", "Закрите розширення."],
        "pl": ["Teraz za ciebie gra komputer.", "Na warsztacie."],
    }
    for lang, texts in friendly.items():
        assert not any(register_slips(lang, [("k", text)]) for text in texts), lang


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_every_text_addresses_the_player_in_one_register(lang: str) -> None:
    texts = list(_catalogue_texts(lang))
    assert not register_slips(lang, texts), register_slips(lang, texts)
    assert sum(bool(SINGULAR_YOU[lang].search(text.lower())) for _, text in texts) > 20, "the bot says ty/ти"
