"""A vote to cancel a running game: once a person has moved, cancelling takes everyone still at the table (or a
server manager, :mod:`bot.ui.ending`), so that nobody escapes a rated loss alone.

``/azul abort`` by a seated player of a game under way posts the question in the game's channel, mentioning those
whose agreement it still needs, with two persistent buttons (``azul:abortvote:<agree|keep>:<game>:<began>``, the
vote's start in Unix seconds): **Agree** counts one more agreement (the last one cancels the game: no result, no
rating, and the message says who agreed); **Play on** ends the vote and the game goes on. The agreements are rows in
the store, counted only for the vote they were given in and for :data:`bot.app.endings.VOTE_HOURS`.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.app.endings import VOTE_HOURS, Endings
from bot.app.errors import Refusal
from bot.app.language import text, user_locale
from bot.app.narration import shown
from bot.app.outcomes import AbortVote
from bot.app.ports import Games
from bot.app.records import GameRow
from bot.games.base import variant_label
from bot.ui.context import BotContext
from bot.ui.controls import NUMBER, Control, bounded, forged
from bot.ui.lobby import refresh_lobby
from bot.ui.replies import after_commit, display_name, public_locale, reply


class AbortVoteButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"azul:abortvote:(?P<choice>agree|keep):(?P<game>{NUMBER}):(?P<began>{NUMBER})",
):
    """One player's answer to the vote on cancelling ``game_id`` that began at ``began`` (Unix seconds)."""

    def __init__(self, choice: str, game_id: int, began: int, label: str = "") -> None:
        style = discord.ButtonStyle.danger if choice == "agree" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label or choice, style=style, custom_id=f"azul:abortvote:{choice}:{game_id}:{began}"
            )
        )
        self.choice = choice
        self.game_id = game_id
        self.began = began

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AbortVoteButton:
        game, began = bounded(match["game"]), bounded(match["began"])
        if game is None or began is None or began > 2**40:
            return forged(cls(match["choice"], 0, 0))
        return cls(match["choice"], game, began)

    async def act(self, interaction: discord.Interaction, bot: BotContext) -> None:
        service = bot.service
        game = await service.tables.game(self.game_id)
        if game is None or game.channel_id != interaction.channel_id:
            raise Refusal("bad_control")
        public = public_locale(interaction)
        if self.choice == "keep":
            game = await service.endings.keep_playing(self.game_id, interaction.user.id)
            said = text(
                "bot.abort_vote.kept",
                public,
                player=shown(display_name(interaction.user)),
                variant=variant_label(game.variant, public),
                game=game.id,
            )
            await interaction.response.edit_message(content=said, view=None, allowed_mentions=NONE)
            return
        began = datetime.fromtimestamp(self.began, UTC)
        vote = await service.endings.vote_abort(self.game_id, interaction.user.id, since=began)
        async with after_commit("abort"):
            await interaction.response.edit_message(
                content=vote_text(vote, public), view=None if vote.cancelled else vote_view(vote, public)
            )
            if vote.cancelled:
                await refresh_lobby(interaction, vote.game)


NONE = discord.AllowedMentions.none()


def names_of(game: GameRow, users: list[int]) -> str:
    names = {seat.user_id: seat.name for seat in game.people()}
    return ", ".join(f"**{shown(names.get(user, '?'))}**" for user in users)


def vote_text(vote: AbortVote, locale: str) -> str:
    """The vote as it stands: asked, who still must agree and by when; or the game cancelled, and by whom."""
    game = vote.game
    variant = variant_label(game.variant, locale)
    if vote.cancelled:
        return text(
            "bot.abort_vote.cancelled", locale, variant=variant, game=game.id, names=names_of(game, vote.agreed)
        )
    waiting = " ".join(f"<@{user}>" for user in Endings.voters(game) if user not in vote.agreed)
    deadline = f"<t:{int((vote.began + timedelta(hours=VOTE_HOURS)).timestamp())}:R>"
    asked = text(
        "bot.abort_vote.asked",
        locale,
        player=names_of(game, vote.agreed[:1]),
        variant=variant,
        game=game.id,
        deadline=deadline,
        waiting=waiting,
    )
    return asked + "\n" + text("bot.abort_vote.agreed", locale, names=names_of(game, vote.agreed))


def vote_view(vote: AbortVote, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    began = int(vote.began.timestamp())
    for choice in ("agree", "keep"):
        view.add_item(AbortVoteButton(choice, vote.game.id, began, text(f"bot.button.abort_{choice}", locale)))
    return view


async def ask_the_table(service: Games, interaction: discord.Interaction, game: GameRow) -> None:
    """``/azul abort`` by a seated player of a game under way: their agreement opens the vote, posted in the
    channel with a mention of everyone else it needs (or, alone at the table with computers, it is the vote)."""
    vote = await service.endings.vote_abort(game.id, interaction.user.id)
    async with after_commit("abort"):
        public = public_locale(interaction)
        others = [discord.Object(user) for user in Endings.voters(game) if user not in vote.agreed]
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(
                vote_text(vote, public),
                view=discord.utils.MISSING if vote.cancelled else vote_view(vote, public),
                allowed_mentions=discord.AllowedMentions(users=others),
            )
        if vote.cancelled:
            await refresh_lobby(interaction, vote.game)
        key = "bot.reply.aborted" if vote.cancelled else "bot.reply.abort_vote_started"
        await reply(interaction, text(key, user_locale(interaction), hours=VOTE_HOURS))


__all__ = ["AbortVoteButton", "ask_the_table", "vote_text", "vote_view"]
