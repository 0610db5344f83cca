"""Taking a move back: ``/azul undo`` and the Undo button on the mover's "Played" reply, one path for both.

The service decides (only your own last move, nobody acted since, nothing hidden revealed, undo allowed in the game)
and saves; this posts one short board with the restored table (none when the move's own board was held back: a grey
wall line typed alone, see :meth:`bot.app.outcomes.Turn.holds_board`), which edits the previous board's Play
button
away and pings only seats that must act now and were not waiting already (normally nobody: the turn that was
announced no longer exists, and whoever took the move back is here). The button's custom id holds the game id and
the version the move made, so it is stale the moment anyone acts, and it keeps working after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.errors import BoardNotPosted
from bot.app.language import text, user_locale
from bot.app.narration import undo_headline, undone_words
from bot.app.outcomes import Turn
from bot.infra import logs
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.replies import after_commit, channel_of, public_locale


class UndoButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:undo:(?P<game>{NUMBER}):(?P<version>{NUMBER})",
):
    """Takes back the move that made ``version`` of the game, while the game is still at that version."""

    replaces_message = True

    def __init__(self, game_id: int, version: int, label: str = "Undo") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, emoji="↩️", custom_id=f"azul:undo:{game_id}:{version}"
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        game, version = bounded(match["game"]), bounded(match["version"])
        if game is None or version is None:
            return forged(cls(0, 0))
        return cls(game, version)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        await undo_last_move(bot, interaction, game_id=self.game_id, version=self.version)


def offer_undo(turn: Turn, view: discord.ui.View | None, locale: str) -> discord.ui.View | None:
    """``view`` (or a new one) with the Undo button for ``turn``'s mover, when the move may be taken back and the
    view has room for it; otherwise ``view`` unchanged."""
    if not turn.undoable:
        return view
    view = view or discord.ui.View(timeout=None)
    button = UndoButton(turn.game.id, turn.game.version, text("bot.button.undo", locale))
    try:
        view.add_item(button)
    except ValueError:  # every row is taken by the next step's selects: /azul undo still works
        return view
    return view


async def undo_last_move(
    bot: BotContext, interaction: discord.Interaction, *, game_id: int | None = None, version: int | None = None
) -> None:
    """Take back the user's last move, post the restored board, and tell them (replacing the "Played" reply when
    they pressed its button)."""
    logs.bind(channel=interaction.channel_id, guild=interaction.guild_id, interaction=interaction.id)
    pressed = game_id is not None
    if pressed:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    undone = await bot.service.takebacks.undo_move(
        interaction.channel_id or 0,
        interaction.user.id,
        interaction_id=interaction.id,
        game_id=game_id,
        version=version,
    )
    try:
        async with after_commit("undo"):  # the move is taken back: that stands whatever fails now
            logs.bind(game=undone.game.id, variant=undone.game.variant)
            locale = user_locale(interaction)
            said = text("bot.reply.undone", locale, move=undone_words(undone, locale))
            try:
                if undone.shown:  # else the move's board was held back (a run's): the channel never saw it
                    await bot.poster.post_board(
                        channel_of(interaction),
                        undone.game,
                        undone.state,
                        guild=interaction.guild,
                        headline=undo_headline(undone, public_locale(interaction)),
                        ping=undone.to_ping(),
                    )
            except BoardNotPosted:
                said += "\n" + text("bot.reply.undo_no_board", locale)  # not "your move stands": it was taken back
            await interaction.edit_original_response(content=said, view=None)
    finally:
        bot.wake_computer(undone.game.id)  # a simultaneous phase may have a computer seat waiting again


__all__ = ["UndoButton", "offer_undo", "undo_last_move"]
