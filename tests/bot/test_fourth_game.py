"""A fourth game needs no generic file changed: Pebbles (:mod:`tests.bot.fourth_game`), registered from a test module,
is played through the real bot, and no generic module of ``bot/`` or ``render/`` names a game."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
import render
from bot.client import AzulBot
from tests.bot import fourth_game
from tests.bot.table import Table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pebbles() -> Iterator[None]:
    fourth_game.register()
    yield
    fourth_game.unregister()


@pytest.fixture
def simcord_bot(pebbles: None, make_bot: Callable[[], AzulBot]) -> AzulBot:
    """The bot is made once Pebbles is registered: its commands come from the registry then."""
    return make_bot()


async def test_a_game_registered_by_a_test_module_is_played_through_the_real_bot(simcord_env: Any) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("pebbles")  # /azul new offers it, the lobby starts it
    game = await table.game()
    assert (game.variant, game.status) == ("pebbles", "active")
    opening = table.channel.last_message
    assert [picture.filename for picture in opening.attachments] == [f"azul-{game.id}-0.png"]

    # The Play picker: the pile step (an option Pebbles declares a preview for) shows the game's own picture.
    member, _, move = await table.choose()
    step = await member.click(table.channel.last_message, label="Play")
    assert [picture.filename for picture in step.response.attachments] == ["pick.png"]
    assert "The picture shows each pile under its number." in step.response.content
    assert "Pile 1 (" in str(step.response.components)
    await table.finish_picker(member, step, move)
    assert (await table.game()).version == 1

    member, _, move = await table.choose()
    await table.play_by_slash(member, move)  # /azul-move pick pile count, a command only Pebbles has
    board = table.channel.last_message
    assert board.attachments and f"picks {move.count} from pile {move.pile}" in board.content  # type: ignore[attr-defined]

    while (await table.game()).status == "active":
        member, _, move = await table.choose()
        await table.play_by_slash(member, move)
    final = await table.game()
    assert final.status == "over" and final.result is not None
    assert sorted(final.result["scores"]) == [0, 1]
    ending = table.channel.last_message
    assert ending.attachments and "Final standings" in ending.content  # the final board, with its summary
    assert "-# \n" not in ending.content + "\n", "no empty line of points by category: Pebbles declares none"


def test_a_game_must_draw_the_previews_it_declares(pebbles: None) -> None:
    """The start-up check refuses a game whose move declares a preview its renderer cannot draw, and a variant
    registered twice, before any player meets them."""
    render.check_renderers()
    render.register(dataclasses.replace(fourth_game.RENDERER, draw_preview=None))
    with pytest.raises(LookupError, match="previews"):
        render.check_renderers()
    with pytest.raises(RuntimeError, match="declared twice"):
        engine.register(fourth_game.VARIANT)


def generic_modules() -> Iterator[Path]:
    """Every module of ``bot/`` and ``render/`` but a game's own (``bot/games/<game>.py``, ``render/<game>.py``)."""
    own = {name.replace("-", "_") + ".py" for name in engine.game_names()}
    for package in ("bot", "render"):
        for module in sorted((ROOT / package).rglob("*.py")):
            if module.name in own and module.parent.name in ("games", "render"):
                continue
            yield module


# Where a game's name is no game: the bot's own ``/azul`` command, and the palettes the renderer generates per game.
NOT_A_GAME = {("bot/ui/commands/table.py", "azul"), ("render/palette.py", "*")}


def game_mentions(source: str) -> list[tuple[int, str]]:
    """Where ``source`` names a game or a variant as a string, or imports a game's own module."""
    names = set(engine.game_names()) | set(engine.variant_names())
    modules = {name.replace("-", "_") for name in engine.game_names()}
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in names:
            found.append((node.lineno, str(node.value)))
        elif isinstance(node, ast.ImportFrom) and modules & set((node.module or "").split(".")):
            found.append((node.lineno, str(node.module)))
        elif isinstance(node, ast.Import) and any(modules & set(alias.name.split(".")) for alias in node.names):
            found.append((node.lineno, ", ".join(alias.name for alias in node.names)))
    return found


def test_no_generic_module_names_a_game() -> None:
    """A game's name (or a variant's) as a string, or a game's module imported: each is a list to edit for a new
    game, and belongs in that game's own modules (its adapter, its renderer) or in its declarations."""
    found = []
    for path in generic_modules():
        where = path.relative_to(ROOT).as_posix()
        for line, mentioned in game_mentions(path.read_text(encoding="utf-8")):
            if (where, mentioned) not in NOT_A_GAME and (where, "*") not in NOT_A_GAME:
                found.append(f"{where}:{line}: {mentioned}")
    assert not found, "game-specific code in generic modules:\n" + "\n".join(found)


def test_the_name_check_finds_what_it_looks_for() -> None:
    """The check above is not vacuous: it finds the kinds of branch this change took out of generic modules."""
    removed = (
        'if step.command != "expansion" or _game(state) != "queens-garden":\n    pass\n'
        "from engine.azul import complete_rows\n"
        "import render.summer_pavilion\n"
        'CATEGORIES = {"azul-grey": ()}\n'
    )
    expected = [(1, "queens-garden"), (3, "engine.azul"), (4, "render.summer_pavilion"), (5, "azul-grey")]
    assert sorted(game_mentions(removed)) == expected
    assert sum(1 for _ in generic_modules()) > 50
