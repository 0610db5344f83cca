"""``/azul …``: the table in this channel, one of the bot's top-level commands (:mod:`bot.ui.commands` lists them all).

Commands are thin: they parse the interaction, call the service, and describe the answer (interaction → parse →
service → words/picture → reply). They contain only their own logic: a refusal or an engine error is raised, and the
command tree's one error handler (:func:`bot.ui.replies.answer_error`) answers ephemerally in the user's language.

``/azul`` holds the lobby (``new``, ``join``, ``leave``, ``start``, ``seat``: a seat for a computer player of a
level; without a level, in a game: take back your own seat from the computer) and the game here (``board``,
``status``, ``export``, ``hint``, ``undo``, ``resign``, ``abort``). It works only in a server (Discord shows it
nowhere else).
"""

from __future__ import annotations

import dataclasses
import io
import json
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app.computer import LEVELS
from bot.app.errors import Refusal
from bot.app.language import described, named, text, user_locale
from bot.app.movelog import log_text
from bot.app.narration import hint_text, lobby_text, shown, shown_names, status_text
from bot.app.presence import away_lines, seat_notes
from bot.games.base import variant_label
from bot.ui.context import bot_of
from bot.ui.ending import ask_to_abort, ask_to_resign
from bot.ui.limits import action_choices, deadline_lines, limit_choices, thinking_choices
from bot.ui.lobby import lobby_action, lobby_view
from bot.ui.replays import move_list
from bot.ui.replies import after_commit, channel_of, display_name, is_admin, public_locale, reply
from bot.ui.undo import undo_last_move

CHOICE_LIMIT = 25
MIN_SEATS = min(engine.get_variant(name).min_players for name in engine.variant_names())
MAX_SEATS = max(engine.get_variant(name).max_players for name in engine.variant_names())
PLAY_PERMISSIONS = ("view_channel", "send_messages", "attach_files")
"""What the bot needs in a channel to run a game there: see it, post the boards, attach their pictures."""
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "attach_files")
"""The same in a thread, where Discord asks for Send Messages in Threads instead of Send Messages."""


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks here to post boards (Discord computes ``app_permissions`` per channel)."""
    needed = THREAD_PERMISSIONS if isinstance(interaction.channel, discord.Thread) else PLAY_PERMISSIONS
    return [name for name in needed if not getattr(interaction.app_permissions, name)]


def variant_choices() -> list[app_commands.Choice[str]]:
    """Every registered variant, named in words (translated through the catalogue key)."""
    return [
        app_commands.Choice(name=described(f"bot.variant.{name}", variant_label(name, "en")), value=name)
        for name in engine.variant_names()[:CHOICE_LIMIT]
    ]


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class AzulCog(commands.GroupCog, group_name="azul", group_description=described("bot.cmd.group")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        # ``/azul new`` offers the variants registered when the bot is made, not only those found when this module
        # was imported (a game may register itself later). discord.py has no public way to change a parameter's
        # choices; each cog holds its own copy of its commands' parameters, so this one is changed alone.
        parameters = self.new._params
        choices = cast("list[app_commands.Choice[str | int | float]]", variant_choices())  # a str is such a value
        parameters["variant"] = dataclasses.replace(parameters["variant"], choices=choices)

    # lobby
    @app_commands.command(name=named("new"), description=described("bot.cmd.new"))
    @app_commands.describe(
        variant=described("bot.opt.variant"),
        seats=described("bot.opt.seats"),
        order=described("bot.opt.order"),
        hints=described("bot.opt.hints"),
        rated=described("bot.opt.rated"),
        undo=described("bot.opt.undo"),
        time_limit=described("bot.opt.time_limit"),
        on_timeout=described("bot.opt.on_timeout"),
        thread=described("bot.opt.thread"),
        thinking=described("bot.opt.thinking"),
    )
    @app_commands.choices(
        variant=variant_choices(),
        order=[
            app_commands.Choice(name=described("bot.order.random"), value="random"),
            app_commands.Choice(name=described("bot.order.joined"), value="joined"),
        ],
        time_limit=limit_choices(),
        on_timeout=action_choices(),
        thinking=thinking_choices(),
    )
    async def new(  # noqa: PLR0917 (discord.py passes a command's options as its parameters)
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str],
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] = 2,
        order: app_commands.Choice[str] | None = None,
        hints: bool = False,
        rated: bool | None = None,
        undo: bool = True,
        time_limit: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        thread: bool | None = None,
        thinking: app_commands.Choice[str] | None = None,
    ) -> None:
        missing = missing_permissions(interaction)
        if missing:  # every board would fail to post: say so now, before anyone joins
            raise Refusal("bot_permissions", permissions=missing)
        service = bot_of(interaction).service
        game = await service.seating.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=display_name(interaction.user),
            variant=variant.value,
            seats=seats,
            order=order.value if order else "random",
            hints=hints,
            rated=rated,
            undo=undo,
            time_limit_hours=int(time_limit.value) if time_limit else None,
            on_timeout=on_timeout.value if on_timeout else None,
            thread=thread,
            thinking=int(thinking.value) if thinking else None,
        )
        locale = public_locale(interaction)
        await interaction.response.send_message(
            lobby_text(game, locale), view=lobby_view(game, locale), allowed_mentions=discord.AllowedMentions.none()
        )
        message = await interaction.original_response()
        await service.games.set_message(game.id, "lobby", message.id)

    @app_commands.command(name=named("join"), description=described("bot.cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await lobby_action(bot_of(interaction), interaction, "join")

    @app_commands.command(name=named("leave"), description=described("bot.cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby_action(bot_of(interaction), interaction, "leave")

    @app_commands.command(name=named("start"), description=described("bot.cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby_action(bot_of(interaction), interaction, "start")

    @app_commands.command(name=named("seat"), description=described("bot.cmd.seat"))
    @app_commands.describe(level=described("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=described(f"bot.level.{level}"), value=level) for level in LEVELS]
    )
    async def seat(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None) -> None:
        """With a level, in the lobby: a seat for a computer player. Without one, in a game: take back your seat
        from the computer (after your time ran out too often)."""
        bot = bot_of(interaction)
        if level is not None:
            await lobby_action(bot, interaction, f"computer-{level.value}")
            return
        service = bot.service
        game = await service.tables.open_in(interaction.channel_id or 0)
        if game.status == "lobby":
            raise Refusal("bad_level")
        game = await service.stand_ins.take_back(interaction.channel_id or 0, interaction.user.id)
        await reply(interaction, text("bot.limit.reply.taken_back", user_locale(interaction)))
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            player = f"**{shown(display_name(interaction.user))}**"
            await channel.send(
                text("bot.limit.post.taken_back", public_locale(interaction), player=player),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    # the game here
    @app_commands.command(name=named("board"), description=described("bot.cmd.board"))
    @app_commands.describe(public=described("bot.opt.public"), mine=described("bot.opt.mine"))
    async def board(self, interaction: discord.Interaction, public: bool = False, mine: bool = False) -> None:
        bot = bot_of(interaction)
        service = bot.service
        game = await service.tables.shown_in(interaction.channel_id or 0)
        state = service.tables.state_of(game)
        seat = game.seat_of(interaction.user.id)
        if mine and seat is None:
            raise Refusal("closeup_not_seated")
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = user_locale(interaction)
        notes = (
            await seat_notes(service.users, service.timers, game, service.clock.now(), locale)
            if game.status == "active"
            else []
        )
        if mine and seat is not None:  # privately, whatever ``public`` says: a close-up is for its player
            closeup = await bot.pictures.draw_closeup(game, state, seat, locale, notes)
            files = [discord.File(io.BytesIO(closeup), filename=f"azul-{game.id}-mine.png")] if closeup else []
            await interaction.edit_original_response(content=status_text(game, state, locale), attachments=files)
            return
        if public:
            await bot.poster.show_board(channel_of(interaction), game, state, guild=interaction.guild)
            await reply(interaction, text("bot.reply.reposted", locale))
            return
        png = await bot.pictures.draw_table(game, state, locale, notes)  # every board, full size
        files = [discord.File(io.BytesIO(png), filename=f"azul-{game.id}.png")] if png else []
        await interaction.edit_original_response(content=status_text(game, state, locale), attachments=files)

    @app_commands.command(name=named("status"), description=described("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).service
        locale = user_locale(interaction)
        game = await service.tables.shown_in(interaction.channel_id or 0)
        if game.status == "lobby":
            await reply(interaction, lobby_text(game, locale), allowed_mentions=discord.AllowedMentions.none())
            return
        away = await away_lines(service.users, game, service.clock.now(), locale)
        limits = await deadline_lines(service, game, locale)
        said = [status_text(game, service.tables.state_of(game), locale), *limits, *away]
        if game.channel_id != interaction.channel_id:  # asked in the channel of a game played in its thread
            said.insert(0, text("bot.thread.link", locale, thread=f"<#{game.channel_id}>"))
        await reply(interaction, "\n".join(said)[:2000])

    @app_commands.command(name=named("export"), description=described("bot.cmd.export"))
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = bot_of(interaction).service
        locale = user_locale(interaction)
        shown = await service.tables.shown_in(interaction.channel_id or 0, broken_too=True)
        if shown.broken:  # quarantined: its record as saved, for whoever may mend or end it
            raw = await service.exports.raw_record(shown, interaction.user.id, is_admin=is_admin(interaction))
            data = json.dumps(raw, ensure_ascii=False, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename=f"azul-{shown.id}-raw.json")
            content = text("bot.reply.exported_raw", locale, game=shown.id)
            await interaction.edit_original_response(content=content, attachments=[file])
            return
        game, document = await service.exports.transcript(interaction.channel_id or 0)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"azul-{game.id}-{game.variant}.json")
        listed = move_list(document, document["names"], locale).encode()
        notation = discord.File(io.BytesIO(listed), filename=f"azul-{game.id}-{game.variant}.txt")
        content = text("bot.reply.exported", locale, game=game.id, moves=document["moves"])
        await interaction.edit_original_response(content=content, attachments=[file, notation])

    @app_commands.command(name=named("resign"), description=described("bot.cmd.resign"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await ask_to_resign(bot_of(interaction).service, interaction)  # the confirming click resigns (bot.ui.ending)

    @app_commands.command(name=named("abort"), description=described("bot.cmd.abort"))
    async def abort(self, interaction: discord.Interaction) -> None:
        await ask_to_abort(bot_of(interaction).service, interaction)  # the confirming click cancels (bot.ui.ending)

    @app_commands.command(name=named("hint"), description=described("bot.cmd.hint"))
    async def hint(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).service
        await interaction.response.defer(ephemeral=True, thinking=True)  # the search takes about a second
        game, move, reasons = await service.advisor.hint(interaction.channel_id or 0, interaction.user.id)
        state = service.tables.state_of(game)
        seat = game.seat_of(interaction.user.id) or 0
        await reply(interaction, hint_text(game, state, seat, move, reasons=reasons, locale=user_locale(interaction)))

    @app_commands.command(name=named("undo"), description=described("bot.cmd.undo"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await undo_last_move(bot_of(interaction), interaction)

    # the table's story
    @app_commands.command(name=named("log"), description=described("bot.cmd.log"))
    async def log(self, interaction: discord.Interaction) -> None:
        """The last moves in words, for anyone in the channel (players and spectators)."""
        service = bot_of(interaction).service
        game = await service.tables.shown_in(interaction.channel_id or 0)
        if game.status == "lobby":
            raise Refusal("not_started")
        await interaction.response.defer(ephemeral=True, thinking=True)  # replaying a long game takes a moment
        await reply(interaction, await log_text(service.move_log, game, user_locale(interaction)))

    @app_commands.command(name=named("nudge"), description=described("bot.cmd.nudge"))
    async def nudge(self, interaction: discord.Interaction) -> None:
        """Remind the players the game waits for, once per 12 hours per game and player."""
        bot = bot_of(interaction)
        nudged = await bot.service.nudges.nudge(interaction.channel_id or 0, interaction.user.id)
        async with after_commit("nudge"):  # the nudge is noted (once per 12 hours): say so whatever fails now
            player = f"**{shown(display_name(interaction.user))}**"
            await interaction.response.defer(ephemeral=True, thinking=True)
            await bot.poster.post_nudge(channel_of(interaction), nudged.game, nudged.seats, player, interaction.guild)
            locale = user_locale(interaction)
            names = shown_names(nudged.game, locale)
            said = text("bot.nudge.reply", locale, players=", ".join(f"**{names[seat]}**" for seat in nudged.seats))
            if nudged.resting:
                said += "\n" + text("bot.nudge.resting", locale, count=nudged.resting)
            await reply(interaction, said)


__all__ = ["AzulCog", "variant_choices"]
