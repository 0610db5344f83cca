"""Replays of finished games: an ephemeral move-by-move viewer, the whole game as an animation, and the move list
in the game's text notation (for the export).

``/azul-stats replay game:<id>`` opens the viewer at the opening deal. Its ◀◀ ◀ ▶ ▶▶ buttons go a round or a move
back or forward; they are ``DynamicItem``s whose custom id holds the game and the table shown, so they keep working
after a restart. **Animation** sends the whole game as a GIF (Discord plays it inline; :mod:`render.animation`
keeps it under the upload limit). Replaying runs in a worker thread and drawing in the bot's picture workers
(:mod:`bot.app.pictures`); the replayed tables of a few recent
games are kept in memory (a finished game never changes), so turning a page draws one picture.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import discord

from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.narration import names_by_seat, shown_names
from bot.app.ports import Games, PictureMaker
from bot.app.records import GameRow
from bot.games import adapter_of
from bot.games.base import variant_label
from bot.infra.pools import SingleFlight
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from render.replay import MAX_BYTES, Frame, next_round, previous_round, replay_states

KEPT_GAMES = 4
KEPT_TABLES = 24  # drawn replay tables (a finished game's never change): a click a moment after another draws nothing
UPLOAD_MARGIN = 512 * 1024  # the message's own bytes and the multipart wrapping
# Keyed by what identifies a finished game's log: its id, seed and number of moves.
_frames: OrderedDict[tuple[int, int, int], list[Frame]] = OrderedDict()
_animations: OrderedDict[tuple[int, int, int, str], bytes] = OrderedDict()
_replaying: SingleFlight[tuple[int, int, int], list[Frame]] = SingleFlight()
_drawing: SingleFlight[tuple[int, int, int, str], bytes] = SingleFlight()
_tables: OrderedDict[tuple[int, int, int, str], bytes] = OrderedDict()
STEPS = {"prevround": "◀◀", "back": "◀", "next": "▶", "nextround": "▶▶"}


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any, kept: int = KEPT_GAMES) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > kept:
        cache.popitem(last=False)


async def finished_game(games: Games, interaction: discord.Interaction, game_id: int) -> GameRow:
    """A finished game the person may look at: played in this server (or by them), and over."""
    game = await games.tables.game(game_id)
    visible = game is not None and (game.guild_id == interaction.guild_id or game.has_player(interaction.user.id))
    if game is None or not visible:
        raise Refusal("no_such_game", game=game_id)
    if game.status == "aborted":
        raise Refusal("replay_aborted", game=game_id)
    if game.status != "over":
        raise Refusal("replay_not_over", game=game_id)
    return game


async def frames_of(service: Games, game: GameRow) -> list[Frame]:
    key = (game.id, game.seed, game.version)
    if key in _frames:
        _frames.move_to_end(key)
        return _frames[key]

    async def replay() -> list[Frame]:
        moves = await service.move_log.moves(game.id)
        players = len(game.by_seat())
        return await asyncio.to_thread(replay_states, game.variant, players, game.seed, moves, game.options or None)

    frames = await _replaying.run(key, replay)  # clicks on one game at once replay it once
    _remember(_frames, key, frames)
    return frames


def caption(game: GameRow, frames: Sequence[Frame], index: int, locale: str) -> str:
    frame = frames[index]
    names = shown_names(game, locale)
    head = text(
        "bot.replay.caption",
        locale,
        game=game.id,
        variant=variant_label(game.variant, locale),
        move=frame.move,
        moves=len(frames) - 1,
        round=frame.round,
    )
    if frame.seat is None:
        return head + "\n" + text("bot.replay.opening", locale)
    said = adapter_of(game.variant).describe(frame.events, names, locale)
    move = text("bot.replay.move", locale, player=names[frame.seat], notation=frame.notation or "")
    return "\n".join(part for part in (head, move, said) if part)[:2000]


def viewer(game: GameRow, frames: Sequence[Frame], index: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = len(frames) - 1
    for step, label in STEPS.items():
        button = ReplayButton(game.id, index, step, label)
        button.item.disabled = index == 0 if step in ("prevround", "back") else index == last
        view.add_item(button)
    view.add_item(ReplayButton(game.id, index, "gif", text("bot.button.animation", locale)))
    return view


async def page(
    pictures: PictureMaker, game: GameRow, frames: Sequence[Frame], index: int, locale: str
) -> tuple[str, discord.File, discord.ui.View]:
    names = names_by_seat(game, locale)
    key = (game.id, game.version, index, locale)

    async def draw() -> bytes:
        return await pictures.replay_frame(frames[index], names, locale)

    png = _tables.get(key) or await _drawing.run(key, draw)  # clicks on one table at once draw it once
    _remember(_tables, key, png, KEPT_TABLES)
    file = discord.File(io.BytesIO(png), filename=f"azul-{game.id}-move-{index}.png")
    return caption(game, frames, index, locale), file, viewer(game, frames, index, locale)


async def open_viewer(bot: BotContext, interaction: discord.Interaction, game_id: int) -> None:
    game = await finished_game(bot.service, interaction, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    frames = await frames_of(bot.service, game)
    content, file, view = await page(bot.pictures, game, frames, 0, user_locale(interaction))
    await interaction.edit_original_response(content=content, attachments=[file], view=view)


def target(frames: Sequence[Frame], index: int, step: str) -> int:
    last = len(frames) - 1
    index = min(max(index, 0), last)
    if step == "back":
        return max(0, index - 1)
    if step == "next":
        return min(last, index + 1)
    if step == "prevround":
        return previous_round(frames, index)
    return next_round(frames, index)


def upload_limit(interaction: discord.Interaction) -> int:
    limit = interaction.guild.filesize_limit if interaction.guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
    return min(MAX_BYTES, limit - UPLOAD_MARGIN)


async def send_animation(bot: BotContext, interaction: discord.Interaction, game: GameRow) -> None:
    locale = user_locale(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    key = (game.id, game.seed, game.version, locale)
    gif = _animations.get(key)
    if gif is None:
        moves = await bot.service.move_log.moves(game.id)
        names = names_by_seat(game, locale)
        gif = await bot.pictures.animation(game, moves, names, locale, upload_limit(interaction))
        _remember(_animations, key, gif)
    content = text("bot.replay.animation", locale, game=game.id, variant=variant_label(game.variant, locale))
    file = discord.File(io.BytesIO(gif), filename=f"azul-{game.id}.gif")
    await interaction.followup.send(content, file=file, ephemeral=True)


class ReplayButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:replay:(?P<game>{NUMBER}):(?P<index>{NUMBER}):(?P<step>prevround|back|next|nextround|gif)",
):
    def __init__(self, game_id: int, index: int, step: str, label: str = "") -> None:
        custom_id = f"azul:replay:{game_id}:{index}:{step}"
        style = discord.ButtonStyle.primary if step == "gif" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or STEPS.get(step, step), style=style, custom_id=custom_id))
        self.game_id, self.index, self.step = game_id, index, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        game, index = bounded(match["game"]), bounded(match["index"])
        if game is None or index is None:
            return forged(cls(0, 0, match["step"]))
        return cls(game, index, match["step"])

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        game = await finished_game(bot.service, interaction, self.game_id)
        if self.step == "gif":
            await send_animation(bot, interaction, game)
            return
        frames = await frames_of(bot.service, game)
        content, file, view = await page(
            bot.pictures, game, frames, target(frames, self.index, self.step), user_locale(interaction)
        )
        await interaction.response.edit_message(content=content, attachments=[file], view=view)


def move_list(document: dict[str, Any], names: Sequence[str], locale: str) -> str:
    """The game's moves in its text notation, round by round (one file beside the JSON export)."""
    lines = [
        text(
            "bot.replay.list_title",
            locale,
            game=document.get("game", ""),
            variant=variant_label(str(document.get("variant", "")), locale),
        )
    ]
    lines.append(", ".join(f"{seat + 1}. {name}" for seat, name in enumerate(names)))
    ply = 0
    for number, entry in enumerate(document.get("rounds", []), start=1):
        lines.append("")
        lines.append(text("bot.replay.list_round", locale, round=entry.get("round", number)))
        for move in entry.get("moves", []):
            ply += 1
            seat = int(move["seat"])
            name = names[seat] if seat < len(names) else str(seat + 1)
            lines.append(f"{ply:>4}. {name}: {move['notation']}")
    return "\n".join(lines) + "\n"


__all__ = ["ReplayButton", "move_list", "open_viewer"]
