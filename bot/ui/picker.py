"""The Play button under every board and the ephemeral picker it opens. Views hold no rules: they ask the service.

The Play button is a persistent ``DynamicItem`` whose custom id carries the game id and version, so it keeps working
after a restart and a click on an old board is refused politely. The picker walks the move's options as
:func:`bot.app.move_entry.plan` lays them out: the command, then each option that still has several values (the rest of
a
move at once when that fits one select: area and rotation together), a set-valued option as one multi-select of its
items (tiles to keep, hexagons to pay with), and a last step that shows the whole move with a button to play it
(skipped for players who chose quick play). A command the engine declares ``repeats`` (the grey wall's columns)
is chosen whole in one step, a select per line, and its moves are played together: one transaction, one post.
Every step is a row in the store, so a half-made choice survives a
restart too. After a move the player is offered their next step at once when they must act again.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

import engine
from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.move_entry import Entry, Step, plan, shapes_of
from bot.app.outcomes import Turn
from bot.app.picking import (
    RUN,
    chosen_after,
    is_run,
    largest_set,
    picked_run,
    preview_candidates,
    run_choices,
    run_of,
)
from bot.app.ports import Games, PictureMaker
from bot.app.records import GameRow
from bot.games import adapter_of
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.play import after_move, game_channel, play
from bot.ui.undo import offer_undo
from bot.ui.whole_table import table_button

SELECT_LIMIT = 25
SELECTS = 5
CONFIRM = "confirm"


def board_view(game: GameRow, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(game.id, game.version, text("bot.button.play", locale)))
    view.add_item(table_button(game.id, locale))  # the posted picture is made for a phone: every board, one tap away
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

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        await picker_step(bot, interaction, self.game_id, self.version, None, {})


class PickerSelect(
    Control,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"azul:pick:(?P<picker>{NUMBER}):(?P<option>[a-z_]{{1,32}}):(?P<part>[0-9]{{1,2}})",
):
    """A select of the picker; its custom id names the saved step, so it keeps working after a restart.

    A step asking for several options at once has values joined by ``|``; a set's multi-select has one value per
    item (``bl3:1``, ``bl3:2`` for the second of two).
    """

    replaces_message = True

    def __init__(
        self,
        picker_id: int,
        option: str,
        part: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        most: int = 1,
        fewest: int = 1,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"azul:pick:{picker_id}:{option}:{part}",
            options=options or [],
            placeholder=placeholder,
            min_values=fewest,
            max_values=most,
        )
        super().__init__(select)
        self.picker_id = picker_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickerSelect:
        picker = bounded(match["picker"])
        if picker is None:
            return forged(cls(0, match["option"], 0))
        return cls(picker, match["option"], int(match["part"]))

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        values = list(self.item.values)
        row = await bot.service.pickers.picker(self.picker_id)
        if row is None or row.user_id != interaction.user.id:
            raise Refusal("stale")
        if row.option == "command":
            if len(values) != 1:  # Discord sends exactly one; anything else was not made by a person clicking
                raise Refusal("bad_control")
            await picker_step(bot, interaction, row.game_id, row.version, values[0], {}, edit=True)
            return
        if row.command is None:
            raise Refusal("stale")
        game, state, seat = await _acting_seat(bot.service, interaction, row.game_id, row.version)  # one read
        if row.option == RUN:  # every way of the run is listed: off the event loop
            picked = row.chosen.get(RUN, "")
            chosen = await asyncio.to_thread(picked_run, state, seat, row.command, picked, values)
        else:
            locale = user_locale(interaction)
            chosen = chosen_after(
                state, seat, row.command, option=row.option, chosen=row.chosen, values=values, locale=locale
            )
        await show_step(bot, interaction, game, state, seat, row.command, chosen, seen=row.version, edit=True)


class ConfirmButton(
    Control, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"azul:confirm:(?P<picker>{NUMBER})"
):
    """The picker's last step: play the move it shows."""

    replaces_message = True

    def __init__(self, picker_id: int, label: str = "Play this move") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=f"azul:confirm:{picker_id}")
        )
        self.picker_id = picker_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmButton:
        picker = bounded(match["picker"])
        if picker is None:
            return forged(cls(0))
        return cls(picker)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        row = await bot.service.pickers.picker(self.picker_id)
        if row is None or row.user_id != interaction.user.id or row.command is None:
            raise Refusal("stale")
        await _play(bot, interaction, row.game_id, row.version, row.command, row.chosen)


async def picker_step(  # noqa: PLR0917 - the step, and whom it is for
    bot: BotContext,
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    command: str | None,
    chosen: dict[str, str],
    *,
    edit: bool = False,
) -> None:
    """Show the next step of the picker, or the finished move (played at once for players who chose quick play)."""
    game, state, seat = await _acting_seat(bot.service, interaction, game_id, version)
    await show_step(bot, interaction, game, state, seat, command, chosen, seen=version, edit=edit)


async def show_step(  # noqa: PLR0913, PLR0917 - the game as read, and the step's choice
    bot: BotContext,
    interaction: discord.Interaction,
    game: GameRow,
    state: engine.GameState,
    seat: int,
    command: str | None,
    chosen: dict[str, str],
    *,
    seen: int,
    edit: bool = False,
) -> None:
    """The next step of the picker in ``game`` (read once for this step by :func:`_acting_seat`); ``seen``: the
    version of the board the player clicked."""
    view, prompt, step = await next_step(
        bot.service, interaction, game, state, seat=seat, command=command, chosen=chosen
    )
    if step is not None and step.done and await bot.service.users.quick_play(interaction.user.id):
        await _play(bot, interaction, game.id, seen, step.command, step.chosen, update=edit)
        return
    files = await preview_files(bot.pictures, game, state, seat, step, user_locale(interaction))
    if files and step is not None:
        prompt += "\n" + adapter_of(game.variant).preview_note(step.command, user_locale(interaction))
    await _show(interaction, view, prompt, edit=edit, files=files)


async def _acting_seat(
    service: Games, interaction: discord.Interaction, game_id: int, version: int
) -> tuple[GameRow, engine.GameState, int]:
    """The game, its state and the clicking player's seat, when a picker may be shown to them (the application
    decides: :meth:`bot.app.turns.Turns.picking`), in the game's own channel when clicked from a DM notice."""
    table = await game_channel(service, interaction, game_id)
    return await service.turns.picking(table.channel_id, interaction.user.id, game_id, version)


async def next_step(
    service: Games,
    interaction: discord.Interaction,
    game: GameRow,
    state: engine.GameState,
    *,
    seat: int,
    command: str | None,
    chosen: dict[str, str],
) -> tuple[discord.ui.View, str, Step | None]:
    """The view and prompt of the picker's next step for ``seat``: a command, an option, a set, or the confirm."""
    locale = user_locale(interaction)
    adapter = adapter_of(game.variant)
    shapes = shapes_of(state, seat)
    commands = list(dict.fromkeys(shape["command"] for shape in shapes))
    if command is None and len(commands) == 1:
        command = commands[0]
    if command is None:
        options = [discord.SelectOption(label=adapter.command_label(c, locale)[:100], value=c) for c in commands]
        placeholder = text("bot.picker.placeholder_command", locale)
        view = await picker_view(service, interaction, game, None, {}, option="command", pages=[(options, placeholder)])
        return view, text("bot.picker.command", locale), None
    if is_run(state, command):
        return await run_step(service, interaction, game, state, seat=seat, command=command, picked=chosen.get(RUN, ""))
    step = plan(state, seat, command, chosen, shapes)
    if step is None:
        raise Refusal("stale")
    if step.done:
        picker_id = await service.pickers.create_picker(
            game.id, game.version, interaction.user.id, command=command, chosen=step.chosen, option=CONFIRM
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(picker_id, text("bot.button.confirm", locale)))
        return view, adapter.confirm(state, seat, command, step.chosen, locale), step
    labels = [adapter.option_label(option, locale) for option in step.options]
    names = labels[0]  # "the star, space and number": one "and", before the last
    if len(labels) > 1:
        names = text("bot.picker.and", locale, first=", ".join(labels[:-1]), second=labels[-1])
    if step.is_set:
        entry = Entry(state, seat, command, step.options[0], locale, shapes)
        units = [
            discord.SelectOption(
                label=adapter.words(state, seat, step.options[0], entry.join({item: 1}), chosen={}, locale=locale)[
                    :100
                ],
                value=f"{item}:{number}",
                description=text("bot.picker.unit", locale, number=number, most=most) if most > 1 else None,
            )
            for item, most in step.pool.items()
            for number in range(1, most + 1)
        ][:SELECT_LIMIT]
        placeholder = text("bot.picker.placeholder_set", locale, option=names)
        view = await picker_view(
            service,
            interaction,
            game,
            command,
            step.chosen,
            option=step.options[0],
            pages=[(units, placeholder)],
            is_set=True,
            largest_set=largest_set(state, seat, command, step.options[0], step.chosen),
        )
    else:
        labels = [step_label(state, seat, step, token, locale) for token in step.tokens]
        options = [
            discord.SelectOption(label=label[:100], value=token)
            for token, label in zip(step.tokens, labels, strict=True)
        ]
        placeholder = text("bot.picker.placeholder", locale, option=names)
        pages = [(options[i : i + SELECT_LIMIT], placeholder) for i in range(0, len(options), SELECT_LIMIT)]
        view = await picker_view(
            service, interaction, game, command, step.chosen, option="+".join(step.options), pages=pages[:SELECTS]
        )
    prompt = text("bot.picker.option", locale, option=names)
    so_far = summary(state, seat, step, locale)
    return view, f"{so_far}\n{prompt}" if so_far else prompt, step


async def run_step(
    service: Games,
    interaction: discord.Interaction,
    game: GameRow,
    state: engine.GameState,
    *,
    seat: int,
    command: str,
    picked: str,
) -> tuple[discord.ui.View, str, Step | None]:
    """A run in one step (the grey wall: a select per full line, each offering the columns it may take given the
    others), then the whole run to confirm; its moves are played together (:func:`_play`)."""
    locale = user_locale(interaction)
    run = await asyncio.to_thread(run_of, state, seat, command, picked)
    if not run.ways:
        raise Refusal("stale")  # the seat may not play this command now
    whole = run.chosen()
    if whole is not None:
        step = Step(command, {RUN: " ".join(map(str, whole))})
        picker_id = await service.pickers.create_picker(
            game.id, game.version, interaction.user.id, command=command, chosen=step.chosen, option=CONFIRM
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(picker_id, text("bot.button.confirm", locale)))
        said = adapter_of(game.variant).confirm_run(state, seat, command, [dict(m.choices()) for m in whole], locale)
        return view, said, step
    adapter = adapter_of(game.variant)
    pages = []
    for key, moves in list(run.offered().items())[:SELECTS]:
        options = [
            discord.SelectOption(
                label=run_move_label(state, seat, move, locale)[:100], value=str(move), default=move in run.picked
            )
            for move in sorted(moves, key=str)[:SELECT_LIMIT]
        ]
        name, rest = moves[0].choices()[0][0], moves[0].choices()[-1][0]
        key_label = adapter.words(state, seat, name, key, chosen={}, locale=locale)
        option = adapter.option_label(rest, locale)
        pages.append((options, f"{key_label}: {text('bot.picker.placeholder', locale, option=option)}"))
    saved = {RUN: " ".join(map(str, run.picked))}
    view = await picker_view(service, interaction, game, command, saved, option=RUN, pages=pages)
    return view, text(f"bot.picker.run.{command}", locale), None


def run_move_label(state: engine.GameState, seat: int, move: engine.Move, locale: str) -> str:
    """One move of a run in words, every option named: ``Line 2 (blue) → Column 3``."""
    adapter = adapter_of(state.variant)
    chosen: dict[str, str] = {}
    parts = []
    for option, token in move.choices():
        parts.append(adapter.words(state, seat, option, token, chosen=chosen, locale=locale))
        chosen[option] = token
    return " → ".join(parts)


def step_label(state: engine.GameState, seat: int, step: Step, token: str, locale: str) -> str:
    """One choice of a step in words: for several options at once, each option's label, joined."""
    adapter = adapter_of(state.variant)
    chosen = dict(step.chosen)
    parts = []
    for option, value in zip(step.options, token.split("|"), strict=True):
        parts.append(adapter.words(state, seat, option, value, chosen=chosen, locale=locale))
        chosen[option] = value
    return " · ".join(parts)


def summary(state: engine.GameState, seat: int, step: Step, locale: str) -> str:
    """What is chosen so far, in words, with the command first."""
    adapter = adapter_of(state.variant)
    parts = [adapter.command_label(step.command, locale)]
    for option, token in step.chosen.items():
        parts.append(adapter.words(state, seat, option, token, chosen=step.chosen, locale=locale))
    return " · ".join(parts)


async def _show(
    interaction: discord.Interaction,
    view: discord.ui.View,
    prompt: str,
    *,
    edit: bool,
    files: list[discord.File],
) -> None:
    if edit:  # the step's picture, or none: an earlier step's picture is taken off
        await interaction.response.edit_message(content=prompt, view=view, attachments=files)
    elif files:
        await interaction.response.send_message(prompt, view=view, ephemeral=True, files=files)
    else:
        await interaction.response.send_message(prompt, view=view, ephemeral=True)


async def preview_files(  # noqa: PLR0917
    pictures: PictureMaker, game: GameRow, state: engine.GameState, seat: int, step: Step | None, locale: str
) -> list[discord.File]:
    """The picture of a step that chooses what words cannot show (drawn off the event loop), else nothing."""
    candidates = preview_candidates(state, step)
    png = await pictures.preview(game, state, seat, candidates, locale) if candidates else None
    return [discord.File(io.BytesIO(png), filename=f"{step.command}.png")] if png and step else []


async def _play(  # noqa: PLR0917 - the move as picked, and whom it is for
    bot: BotContext,
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    command: str,
    chosen: dict[str, str],
    *,
    update: bool = True,
) -> None:
    run: list[dict[str, str]] = [chosen]
    if RUN in chosen:  # a whole run, played together: one transaction, one post
        game = await bot.service.tables.game(game_id)
        if game is None:
            raise Refusal("stale")
        run = run_choices(game.variant, chosen[RUN])
    turn = await play(bot, interaction, command, run[0], game_id=game_id, version=version, update=update, then=run[1:])
    await after_move(offer_next(bot, interaction, turn))


async def offer_next(bot: BotContext, interaction: discord.Interaction, turn: Turn) -> None:
    """When the mover must act again (a bonus to pick, a grey wall to tile, a second placement), say so in their
    reply and put the next step of the picker under it."""
    if not turn.mover_acts_again():
        return
    locale = user_locale(interaction)
    view, prompt, step = await next_step(
        bot.service, interaction, turn.game, turn.state, seat=turn.seat, command=None, chosen={}
    )
    files = await preview_files(bot.pictures, turn.game, turn.state, turn.seat, step, locale)
    if files and step is not None:
        prompt += "\n" + adapter_of(turn.game.variant).preview_note(step.command, locale)
    message = await interaction.original_response()
    said = f"{message.content}\n{text('bot.reply.again', locale)}\n{prompt}"
    await interaction.edit_original_response(
        content=said[:2000],
        view=offer_undo(turn, view, locale) if interaction.guild_id is not None else view,
        attachments=files,
    )


async def picker_view(  # noqa: PLR0913 - the step as saved, and its selects
    service: Games,
    interaction: discord.Interaction,
    game: GameRow,
    command: str | None,
    chosen: dict[str, str],
    *,
    option: str,
    pages: list[tuple[list[discord.SelectOption], str]],
    is_set: bool = False,
    largest_set: int | None = None,
) -> discord.ui.View:
    """One step of the picker, saved as a row: a select per page of choices with its placeholder (a multi-select
    for a set). Every step's selects are built here: the command, an option, a set, a run's lines."""
    picker_id = await service.pickers.create_picker(
        game.id, game.version, interaction.user.id, command=command, chosen=chosen, option=option
    )
    view = discord.ui.View(timeout=None)
    first = option.split("+", maxsplit=1)[0]
    for part, (page, placeholder) in enumerate(pages):
        # A set's multi-select may be left empty, even with one item to tick: the engine judges the set.
        # ``largest_set`` caps the ticks at what a legal set may hold (Summer Pavilion keeps at most 4 tiles).
        most, fewest = (min(len(page), largest_set or len(page)), 0) if is_set else (1, 1)
        view.add_item(PickerSelect(picker_id, first, part, page, placeholder[:150], most=most, fewest=fewest))
    return view


__all__ = ["ConfirmButton", "PickerSelect", "PlayButton", "board_view", "offer_next", "picker_step"]
