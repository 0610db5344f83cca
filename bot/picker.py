"""The Play button under every board and the ephemeral picker it opens. Views hold no rules: they ask the service.

The Play button is a persistent ``DynamicItem`` whose custom id carries the game id and version, so it keeps working
after a restart and a click on an old board is refused politely. The picker walks the same choices as the slash
commands (command, then each option in order) and ends in :func:`bot.moves.play`; each of its steps is a row in the
store, so a half-made choice survives a restart too.
"""

from __future__ import annotations

import re
from typing import Any

import discord

import engine
from bot.context import bot_of
from bot.controls import NUMBER, Control, bounded, forged
from bot.errors import Refusal
from bot.games import adapter_of
from bot.moves import play
from bot.service import first_open_option, matching
from bot.store import GameRow
from bot.texts import text, user_locale

SELECT_LIMIT = 25


def board_view(game: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(game.id, game.version, text("bot.button.play", locale)))
    return view


class PlayButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:play:(?P<game>{NUMBER}):(?P<version>{NUMBER})",
):
    def __init__(self, game_id: int, version: int, label: str = "Play") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.primary, emoji="▶️", custom_id=f"azul:play:{game_id}:{version}"
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        game, version = bounded(match["game"]), bounded(match["version"])
        if game is None or version is None:
            return forged(cls(0, 0))
        return cls(game, version)

    async def act(self, interaction: discord.Interaction) -> None:
        await picker_step(interaction, self.game_id, self.version, None, {})


class PickerSelect(
    Control,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"azul:pick:(?P<picker>{NUMBER}):(?P<option>[a-z_]{{1,32}}):(?P<part>[0-9]{{1,2}})",
):
    """A select of the picker; its custom id names the saved step, so it keeps working after a restart."""

    replaces_message = True

    def __init__(self, picker_id: int, option: str, part: int, options: list[tuple[str, str]] | None = None) -> None:
        choices = [discord.SelectOption(label=label[:100], value=token) for token, label in options or []]
        super().__init__(discord.ui.Select(custom_id=f"azul:pick:{picker_id}:{option}:{part}", options=choices))
        self.picker_id = picker_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickerSelect:
        picker = bounded(match["picker"])
        if picker is None:
            return forged(cls(0, match["option"], 0))
        return cls(picker, match["option"], int(match["part"]))

    async def act(self, interaction: discord.Interaction) -> None:
        if len(self.item.values) != 1:  # Discord sends exactly one; anything else was not made by a person clicking
            raise Refusal("bad_control")
        value = self.item.values[0]
        row = await bot_of(interaction).service.store.picker(self.picker_id)
        if row is None or row.user_id != interaction.user.id:
            raise Refusal("stale")
        if row.option == "command":
            await picker_step(interaction, row.game_id, row.version, value, {}, edit=True)
        else:
            chosen = {**row.chosen, row.option: value}
            await picker_step(interaction, row.game_id, row.version, row.command, chosen, edit=True)


async def picker_step(
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    command: str | None,
    chosen: dict[str, str],
    *,
    edit: bool = False,
) -> None:
    """Show the next choice of the picker, or play the move once the choices name exactly one legal move."""
    service = bot_of(interaction).service
    locale = user_locale(interaction)
    game = await service.active_game(interaction.channel_id or 0, game_id)
    await service.check_moved_on(game, interaction.user.id, version)
    state = service.state_of(game)
    seat = service.seat_to_act(game, state, interaction.user.id)
    legal = engine.legal_moves(state, seat)
    adapter = adapter_of(game.variant)
    commands = list(dict.fromkeys(move.command for move in legal))
    if command is None and len(commands) == 1:
        command = commands[0]
    if command is None:
        options = [(c, adapter.command_label(c, locale)) for c in commands]
        view = await picker_view(interaction, game, None, chosen, option="command", options=options)
        await _show(interaction, view, text("bot.picker.command", locale), edit=edit)
        return
    candidates = matching(legal, command, chosen)
    if len(candidates) == 1:
        given = dict(candidates[0].choices())
        await play(interaction, command, given, game_id=game_id, version=version, update=edit)
        return
    if not candidates:
        raise Refusal("stale")
    needed = first_open_option(candidates)
    options = [
        (token, adapter.label(state, seat, needed.option, token, chosen=chosen, locale=locale))
        for token in needed.tokens
    ]
    so_far = ", ".join(
        adapter.label(state, seat, option, token, chosen=chosen, locale=locale) for option, token in chosen.items()
    )
    prompt = text("bot.picker.option", locale, option=adapter.option_label(needed.option, locale))
    if so_far:
        prompt = f"{so_far}\n{prompt}"
    view = await picker_view(interaction, game, command, chosen, option=needed.option, options=options)
    await _show(interaction, view, prompt, edit=edit)


async def _show(interaction: discord.Interaction, view: discord.ui.View, prompt: str, *, edit: bool) -> None:
    if edit:
        await interaction.response.edit_message(content=prompt, view=view)
    else:
        await interaction.response.send_message(prompt, view=view, ephemeral=True)


async def picker_view(
    interaction: discord.Interaction,
    game: GameRow,
    command: str | None,
    chosen: dict[str, str],
    *,
    option: str,
    options: list[tuple[str, str]],
) -> discord.ui.View:
    """One step of the picker, saved as a row: a select (or several, past 25 choices) for ``option``."""
    store = bot_of(interaction).service.store
    picker_id = await store.create_picker(
        game.id, game.version, interaction.user.id, command=command, chosen=chosen, option=option
    )
    view = discord.ui.View(timeout=None)
    for index in range(0, min(len(options), SELECT_LIMIT * 5), SELECT_LIMIT):
        view.add_item(PickerSelect(picker_id, option, index // SELECT_LIMIT, options[index : index + SELECT_LIMIT]))
    return view


__all__ = ["PickerSelect", "PlayButton", "board_view", "picker_step"]
