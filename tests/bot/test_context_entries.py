"""The bot context is taken once per interaction and handed down: a slash move and each picker step, counted through
the real bot (a profile hook on the event loop's thread), enter :mod:`bot.ui.context` once, at their entry."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import bot.ui.context
from tests.bot.table import BUTTON, Table

CONTEXT_FILE = bot.ui.context.__file__


@contextlib.contextmanager
def context_entries() -> Iterator[list[str]]:
    """The functions of bot/ui/context.py called while the block runs (on this thread: the event loop's)."""
    entered: list[str] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == CONTEXT_FILE:
            entered.append(frame.f_code.co_name)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield entered
    finally:
        sys.setprofile(previous)


async def test_a_slash_move_takes_its_context_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    with context_entries() as entered:
        result = await member.slash(table.channel, f"azul-move {move.command}", **dict(move.choices()))
    assert result.response.content.startswith("Played"), result.response.content
    assert entered == ["bot_of"], entered


async def test_a_picker_step_takes_its_context_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    await table.open("azul")
    member, _, move = await table.choose()
    with context_entries() as entered:
        step = await member.click(table.channel.last_message, label="Play")
    counts = [len(entered)]
    while step.response.components[0]["components"][0]["type"] != BUTTON:  # up to the move to confirm
        with context_entries() as entered:
            step = await table.picker_step(member, step.response, move)
        counts.append(len(entered))
    with context_entries() as entered:
        played = await table.picker_step(member, step.response, move)
    assert played.response.content.startswith("Played"), played.response.content
    assert len(counts) >= 2 and max(counts) <= 1 and entered == ["bot_of"], (counts, entered)


async def test_starting_a_game_and_showing_its_board_take_the_context_once(simcord_env) -> None:
    table = Table.create(simcord_env, 2)
    creator, other = table.players
    await creator.slash(table.channel, "azul new", variant="azul", seats=2, order="joined")
    lobby = table.channel.last_message
    await other.slash(table.channel, "azul join")
    with context_entries() as started:
        await creator.click(lobby, label="Start")
    with context_entries() as shown:
        board = await creator.slash(table.channel, "azul board", public=True)
    assert board.ephemeral, board
    assert (started, shown) == (["bot_of"], ["bot_of"])
