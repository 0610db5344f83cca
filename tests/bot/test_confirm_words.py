"""The picker's last step through the real bot: one question built from the choices ("Take 1 red tile from factory 5
to line 1?"), never the labels of each step repeated, and every option label a player reads free of internal codes,
in every variant and language."""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from tests.bot.table import Table

BUTTON = 2
VARIANTS = ("azul", "azul-grey", "summer-pavilion", "summer-pavilion-mono", "queens-garden", "queens-garden-variant")
MOVES = 6
CODE = re.compile(r"@|\bx?[a-z]{2}\d\b|^- ")
"""What the notation looks like: ``ye3@d1``, ``dg3+lp3``, ``xbl3``, ``-`` (nothing)."""
ENGLISH = re.compile(r"\b(Take|Place|Pass|Play|tiles?|from|line|column)\b")


def menu_codes(components: list[dict[str, Any]]) -> list[str]:
    """The select options of a picker step whose label shows a code: the notation or its own value."""
    shown = []
    for row in components:
        for option in row["components"][0].get("options", []):
            label, value = option["label"], option["value"]
            codes = [part for part in re.split(r"[|: ]", value) if not part.isdigit() and len(part) > 1]
            if CODE.search(label) or any(label.startswith(f"{code} ") for code in codes):
                shown.append(f"{value}: {label}")
    return shown


async def confirm_step(table: Table, member: Any, move: engine.Move, seen: list[str] | None = None) -> Any:
    """Walk the Play button's picker to the confirm step of ``move``; the ephemeral message holding it, or None when
    the move is chosen without one (a grey wall's run, or a move with no choice). ``seen`` collects every select
    option whose label shows a code."""
    result = await member.click(table.channel.last_message, label="Play")
    for _ in range(len(move.choices()) + 8):
        components = result.response.components
        if not components:
            return None
        if seen is not None:
            seen.extend(menu_codes(components))
        first = components[0]["components"][0]
        if first["type"] == BUTTON:
            return result
        result = await table.picker_step(member, result.response, move)
    raise AssertionError(result.response.content)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("lang", "discord_locale"), [("en", "en-US"), ("pl", "pl"), ("uk", "uk")])
async def test_the_confirm_is_one_question_and_menus_show_no_codes(
    simcord_env: Any, discord_locales: dict[int, str], variant: str, lang: str, discord_locale: str
) -> None:
    table = Table.create(simcord_env, 2)
    await table.open(variant)
    asked = 0
    codes: list[str] = []
    for _ in range(MOVES):
        member, _, move = await table.choose()
        discord_locales[member.id] = discord_locale
        version = (await table.game()).version
        step = await confirm_step(table, member, move, codes)
        if step is not None:
            said = step.response.content
            assert (await table.game()).version == version, "the confirm step plays nothing yet"
            assert said.endswith("?") and "\n" not in said, said
            assert " · " not in said and " — " not in said, f"labels of each step repeated: {said!r}"
            assert "{" not in said, said
            if lang != "en":
                assert not ENGLISH.search(said), f"English inside a {lang} question: {said!r}"
            if move.command == "take" and variant.startswith("azul"):
                assert said.startswith({"en": "Take ", "pl": "Wziąć ", "uk": "Взяти "}[lang]), said
            asked += 1
            await member.click(step.response, custom_id=step.response.components[0]["components"][0]["custom_id"])
        else:
            await table.play_by_slash(member, move)
        assert (await table.game()).version > version
    assert asked, "the sample reached a confirm step"
    assert not codes, f"internal codes in menus: {codes[:5]}"


async def test_the_azul_question_names_count_colour_source_and_line(simcord_env: Any) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    game, state = await table.state()
    seat = min(engine.to_act(state))
    move = next(m for m in engine.legal_moves(state, seat) if m.command == "take" and dict(m.choices())["line"] == "1")
    choices = dict(move.choices())
    count = state.factories[int(choices["source"]) - 1][engine.azul.COLORS.index(choices["color"])]
    step = await confirm_step(table, table.member(game, seat), move)
    assert step is not None
    tile = "tile" if count == 1 else "tiles"
    expected = f"Take {count} {choices['color']} {tile} from factory {choices['source']} to line 1"
    assert step.response.content.startswith(expected), step.response.content
    overflow = f" ({count - 1} to the floor)?" if count > 1 else "?"
    assert step.response.content == expected + overflow, "what does not fit line 1 is said to go to the floor"
