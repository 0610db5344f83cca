"""Queen's Garden expansions in the Play picker: the area and rotation steps come with a picture of where each
choice puts the expansion, marked as the choices are labelled; the picture leaves with those steps."""

from __future__ import annotations

from typing import Any

import engine
from bot.app.picking import preview_candidates
from tests.bot.table import Table

MAX_TURNS = 200
SELECT = 3


async def until_expansion(table: Table) -> tuple[Any, int, engine.Move]:
    """Play greedy moves by slash command until the player to act may place a face-up expansion."""
    for _ in range(MAX_TURNS):
        game, state = await table.state()
        seat = min(engine.to_act(state))
        placed = [
            move
            for move in engine.legal_moves(state, seat)
            if move.command == "expansion" and dict(move.choices())["rotation"] != "-"
        ]
        if placed:
            return table.member(game, seat), seat, placed[0]
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    raise AssertionError("nobody could place a face-up expansion")


async def test_expansion_steps_show_where_each_choice_goes(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("queens-garden")
    member, _, move = await until_expansion(table)
    step = await member.click(table.channel.last_message, label="Play")
    assert not step.response.attachments, "no picture before the expansion's place is chosen"
    version = (await table.game()).version
    pictured = []
    for _ in range(8):
        if (await table.game()).version != version or not step.response.components:
            break
        first = step.response.components[0]["components"][0]
        option = first["custom_id"].split(":")[3] if first["type"] == SELECT else None
        if option in ("area", "rotation"):
            assert [picture.filename for picture in step.response.attachments] == ["expansion.png"]
            assert "The picture shows where each choice puts the expansion" in step.response.content
            for choice in first["options"]:  # each label names the mark the picture puts on its cell or area
                area, _, rotation = choice["value"].partition("|")
                mark = area if option == "area" and rotation in ("", "-") else f"-{rotation or choice['value']}"
                assert mark in choice["label"], (mark, choice["label"])
            pictured.append(option)
        else:
            assert not step.response.attachments, "only the area and rotation steps carry the picture"
        step = await table.picker_step(member, step.response, move)
    assert pictured, "an area or rotation step was shown with its picture"
    assert (await table.bot.service.store.moves.moves((await table.game()).id))[-1][1] == str(move)


def test_candidates_are_marked_with_the_cells_their_labels_name() -> None:
    from bot.app.move_entry import Step

    state = engine.get_variant("queens-garden").new_game(2, 5)
    step = Step("expansion", {"expansion": "lg6", "payment": "lg1", "area": "A2"}, ("rotation",), ("1", "4"))
    assert [mark for mark, _ in preview_candidates(state, step)] == ["A2-1", "A2-4"]
    both = Step("expansion", {"expansion": "supply", "payment": "-"}, ("area", "rotation"), ("A1|-", "A3|-"))
    assert [mark for mark, _ in preview_candidates(state, both)] == ["A1", "A3"]
    assert preview_candidates(state, Step("tile", {}, ("cell",), ("F1",))) == []
