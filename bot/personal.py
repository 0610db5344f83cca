"""``/azul me …``: commands about the person asking, wherever they are (a server or a DM with the bot).

``games`` lists every open game the user sits at, in every server the bot shares with them: those waiting for the
user first, then the others, each with a link to its newest board (or lobby), whose turn it is and since when.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import discord
from discord import app_commands

import engine
from bot.context import bot_of
from bot.replies import reply
from bot.store import GameRow
from bot.texts import described, named, text, user_locale, variant_label

LIST_LIMIT = 2000


@dataclass(frozen=True, slots=True)
class OpenGame:
    game: GameRow
    to_act: tuple[int, ...]  # engine seats that must act (empty in a lobby)
    my_turn: bool


def open_games(games: list[GameRow], user_id: int) -> list[OpenGame]:
    """The user's open games, those waiting for the user first (each part longest waiting first)."""
    entries = []
    for game in games:
        to_act = tuple(sorted(engine.to_act(engine.from_json(game.state)))) if game.state else ()
        entries.append(OpenGame(game, to_act, game.seat_of(user_id) in to_act))
    return sorted(entries, key=lambda entry: not entry.my_turn)  # stable: keeps the longest waiting first


def link(game: GameRow) -> str:
    """A link to the game's newest board (or its lobby), else to its channel."""
    message = game.board_message_id or game.lobby_message_id
    if message is None:
        return f"<#{game.channel_id}>"
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/{message}"


def game_line(entry: OpenGame, locale: str) -> str:
    game = entry.game
    since = f"<t:{int(datetime.fromisoformat(game.turn_since).timestamp())}:R>"
    if game.status == "lobby":
        state = text("bot.mygames.lobby", locale, seats=len(game.seats), max=game.max_seats)
    elif entry.my_turn:
        state = text("bot.mygames.your_turn", locale, since=since)
    else:
        names = game.by_seat()
        players = ", ".join(f"**{names[seat].name}**" for seat in entry.to_act)
        state = text("bot.mygames.waiting", locale, players=players, since=since)
    variant = variant_label(game.variant, locale)
    return text("bot.mygames.line", locale, variant=variant, game=game.id, link=link(game), state=state)


def my_games_text(entries: list[OpenGame], locale: str) -> str:
    if not entries:
        return text("bot.mygames.none", locale)
    mine = sum(entry.my_turn for entry in entries)
    lines = [text("bot.mygames.header", locale, count=len(entries), mine=mine)]
    for entry in entries:
        line = game_line(entry, locale)
        if sum(len(kept) + 1 for kept in lines) + len(line) > LIST_LIMIT - 2:
            lines.append("…")
            break
        lines.append(line)
    return "\n".join(lines)


@app_commands.command(name=named("games"), description=described("bot.cmd.games"))
async def games(interaction: discord.Interaction) -> None:
    store = bot_of(interaction).service.store
    entries = open_games(await store.open_games_of(interaction.user.id), interaction.user.id)
    await reply(interaction, my_games_text(entries, user_locale(interaction)))


def me_group() -> app_commands.Group:
    """``/azul me …`` (see the command-tree plan in :mod:`bot.cog`)."""
    group = app_commands.Group(name=named("me"), description=described("bot.cmd.me"))
    group.add_command(games)
    return group


__all__ = ["OpenGame", "game_line", "me_group", "my_games_text", "open_games"]
