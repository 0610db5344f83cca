"""The ``/azul`` command tree: every slash command of the bot, and the plan of where new ones go.

Commands are thin: they parse the interaction, call the service, and describe the answer (interaction → parse →
service → words/picture → reply). They contain only their own logic: a refusal or an engine error is raised, and the
command tree's one error handler (:func:`bot.replies.answer_error`) answers ephemerally in the user's language.

The tree (Discord allows 25 subcommands per command, and one level of subgroups; a subgroup counts as one):

``/azul …`` — the table in this channel (at most 25, checked by ``tests/bot/test_commands.py``):
    lobby: ``new``, ``join``, ``leave``, ``start``, ``seat`` (give a seat to a computer player of a level; without a
        level, in a game: take back your own seat from the computer)
    moves: one per move command of every registered variant (``take``, ``wall``, ``place``, ``bonus``, ``pass``,
        ``acquire``, ``tile``, ``expansion``: built from the engine's declarations by :mod:`bot.move_commands`)
    the game here: ``board``, ``status``, ``export``, ``resign``, ``abort``, ``hint``, ``undo``
    help: ``rules``, ``help``
    the server: ``server`` (its defaults for new games: the time limit per move and what a timeout does)
``/azul me …`` — a subgroup for the person asking, wherever they are (:mod:`bot.personal`): ``games`` (my games),
    ``settings`` (reminders, quiet hours, turn notices), ``away``, ``back``, ``quickplay`` (no confirm step in the
    Play picker) and ``profile`` join them, and ``notify`` (now also a setting of ``settings``) moves here when the
    old command is retired.
``/azul-stats …`` — a second top-level command for what is not about one table: ``leaderboard``, ``history``,
    ``replay``.

Commands about a table need a server channel; those in :data:`ANYWHERE` also work in a direct message with the bot
(the command tree's check, :func:`needs_server`, answers the others there).

So ``/azul`` holds the lobby (5), the game here (7), help (2), ``server`` (1), ``notify`` (1, until it retires)
and ``me`` (1): 17, leaving 8 for move commands (8 today): the tree is full, so the next command retires ``notify``
or joins a group. A game whose move commands would pass that reuses existing commands' names where the meaning fits.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.computer import LEVELS
from bot.context import bot_of
from bot.errors import Refusal
from bot.games import adapter_of
from bot.limits import action_choices, deadline_lines, limit_choices, server_settings
from bot.lobby import lobby_action, lobby_view, refresh_lobby
from bot.move_commands import all_move_commands
from bot.personal import away_lines, me_group, seat_notes
from bot.replays import move_list
from bot.replies import channel_of, display_name, is_admin, public_locale, reply
from bot.texts import described, named, text, user_locale, variant_label
from bot.undo import undo_last_move
from bot.words import hint_text, lobby_text, shown, status_text

CHOICE_LIMIT = 25
ANYWHERE = frozenset({"rules", "help", "notify", "me"})
"""Subcommands (and subgroups) of ``/azul`` that make sense outside a server channel."""
MIN_SEATS = min(engine.get_variant(name).min_players for name in engine.variant_names())
MAX_SEATS = max(engine.get_variant(name).max_players for name in engine.variant_names())


def variant_choices() -> list[app_commands.Choice[str]]:
    """Every registered variant, named in words (translated through the catalogue key)."""
    return [
        app_commands.Choice(name=described(f"bot.variant.{name}", variant_label(name, "en")), value=name)
        for name in engine.variant_names()[:CHOICE_LIMIT]
    ]


def needs_server(interaction: discord.Interaction) -> bool:
    """True for a slash command about a table, used where there is none: in a DM or a group DM."""
    if interaction.guild_id is not None or interaction.type is not discord.InteractionType.application_command:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    if data.get("name") != "azul":
        return False
    sub = next((option.get("name") for option in data.get("options") or [] if option.get("type") in (1, 2)), None)
    return sub not in ANYWHERE


class AzulCog(commands.GroupCog, group_name="azul", group_description=described("bot.cmd.group")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        if group is None:
            raise RuntimeError("a GroupCog always has its group")
        for command in all_move_commands():
            group.add_command(command)
        group.add_command(me_group())

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
    )
    @app_commands.choices(
        variant=variant_choices(),
        order=[
            app_commands.Choice(name=described("bot.order.random"), value="random"),
            app_commands.Choice(name=described("bot.order.joined"), value="joined"),
        ],
        time_limit=limit_choices(),
        on_timeout=action_choices(),
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
    ) -> None:
        service = bot_of(interaction).service
        game = await service.create(
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
        )
        locale = public_locale(interaction)
        await interaction.response.send_message(
            lobby_text(game, locale), view=lobby_view(game, locale), allowed_mentions=discord.AllowedMentions.none()
        )
        message = await interaction.original_response()
        await service.store.set_message(game.id, "lobby", message.id)

    @app_commands.command(name=named("join"), description=described("bot.cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await lobby_action(interaction, "join")

    @app_commands.command(name=named("leave"), description=described("bot.cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby_action(interaction, "leave")

    @app_commands.command(name=named("start"), description=described("bot.cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby_action(interaction, "start")

    @app_commands.command(name=named("seat"), description=described("bot.cmd.seat"))
    @app_commands.describe(level=described("bot.opt.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=described(f"bot.level.{level}"), value=level) for level in LEVELS]
    )
    async def seat(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None) -> None:
        """With a level, in the lobby: a seat for a computer player. Without one, in a game: take back your seat
        from the computer (after your time ran out too often)."""
        if level is not None:
            await lobby_action(interaction, f"computer-{level.value}")
            return
        service = bot_of(interaction).service
        game = await service.open_game(interaction.channel_id or 0)
        if game.status == "lobby":
            raise Refusal("bad_level")
        game = await service.take_back(interaction.channel_id or 0, interaction.user.id)
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
        service = bot_of(interaction).service
        game = await service.shown_game(interaction.channel_id or 0)
        state = service.state_of(game)
        seat = game.seat_of(interaction.user.id)
        if mine and seat is None:
            raise Refusal("closeup_not_seated")
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = user_locale(interaction)
        if mine and seat is not None:  # privately, whatever ``public`` says: a close-up is for its player
            closeup = await bot_of(interaction).pictures.draw_closeup(game, state, seat, locale)
            files = [discord.File(io.BytesIO(closeup), filename=f"azul-{game.id}-mine.png")] if closeup else []
            await interaction.edit_original_response(content=status_text(game, state, locale), attachments=files)
            return
        if public:
            await bot_of(interaction).poster.post_board(channel_of(interaction), game, state, guild=interaction.guild)
            await reply(interaction, text("bot.reply.reposted", locale))
            return
        notes = await seat_notes(service.store, game, service.clock.now(), locale) if game.status == "active" else []
        png = await bot_of(interaction).pictures.draw(game, state, (), locale, notes)
        files = [discord.File(io.BytesIO(png), filename=f"azul-{game.id}.png")] if png else []
        await interaction.edit_original_response(content=status_text(game, state, locale), attachments=files)

    @app_commands.command(name=named("status"), description=described("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).service
        locale = user_locale(interaction)
        game = await service.shown_game(interaction.channel_id or 0)
        if game.status == "lobby":
            await reply(interaction, lobby_text(game, locale), allowed_mentions=discord.AllowedMentions.none())
            return
        away = await away_lines(service.store, game, service.clock.now(), locale)
        limits = await deadline_lines(service, game, locale)
        await reply(interaction, "\n".join([status_text(game, service.state_of(game), locale), *limits, *away])[:2000])

    @app_commands.command(name=named("export"), description=described("bot.cmd.export"))
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = bot_of(interaction).service
        locale = user_locale(interaction)
        shown = await service.shown_game(interaction.channel_id or 0, broken_too=True)
        if shown.broken:  # quarantined: its record as saved, for whoever may mend or end it
            raw = await service.raw_record(shown, interaction.user.id, is_admin=is_admin(interaction))
            data = json.dumps(raw, ensure_ascii=False, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename=f"azul-{shown.id}-raw.json")
            content = text("bot.reply.exported_raw", locale, game=shown.id)
            await interaction.edit_original_response(content=content, attachments=[file])
            return
        game, document = await service.transcript(interaction.channel_id or 0)
        data = json.dumps(document, ensure_ascii=False, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"azul-{game.id}-{game.variant}.json")
        listed = move_list(document, document["names"], locale).encode()
        notation = discord.File(io.BytesIO(listed), filename=f"azul-{game.id}-{game.variant}.txt")
        content = text("bot.reply.exported", locale, game=game.id, moves=document["moves"])
        await interaction.edit_original_response(content=content, attachments=[file, notation])

    @app_commands.command(name=named("resign"), description=described("bot.cmd.resign"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await bot_of(interaction).service.resign(interaction.channel_id or 0, interaction.user.id)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            public = public_locale(interaction)
            headline = text("bot.post.resigned_headline", public, player=shown(display_name(interaction.user)))
            await bot_of(interaction).poster.post_board(
                channel, game, state, guild=interaction.guild, headline=headline
            )
        await reply(interaction, text("bot.reply.resigned", user_locale(interaction)))

    @app_commands.command(name=named("abort"), description=described("bot.cmd.abort"))
    async def abort(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).service
        game = await service.abort(interaction.channel_id or 0, interaction.user.id, is_admin=is_admin(interaction))
        await interaction.response.send_message(
            text(
                "bot.post.aborted", public_locale(interaction), user=shown(display_name(interaction.user)), game=game.id
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await refresh_lobby(interaction, game)

    @app_commands.command(name=named("hint"), description=described("bot.cmd.hint"))
    async def hint(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).service
        await interaction.response.defer(ephemeral=True, thinking=True)  # the search takes about a second
        game, move, reasons = await service.hint(interaction.channel_id or 0, interaction.user.id)
        state = service.state_of(game)
        seat = game.seat_of(interaction.user.id) or 0
        await reply(interaction, hint_text(game, state, seat, move, reasons=reasons, locale=user_locale(interaction)))

    @app_commands.command(name=named("undo"), description=described("bot.cmd.undo"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await undo_last_move(interaction)

    # the server
    @app_commands.command(name=named("server"), description=described("bot.cmd.server"))
    @app_commands.describe(time_limit=described("bot.opt.time_limit"), on_timeout=described("bot.opt.on_timeout"))
    @app_commands.choices(time_limit=limit_choices(), on_timeout=action_choices())
    async def server(
        self,
        interaction: discord.Interaction,
        time_limit: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
    ) -> None:
        await server_settings(interaction, time_limit, on_timeout)

    # help
    @app_commands.command(name=named("rules"), description=described("bot.cmd.rules"))
    @app_commands.describe(variant=described("bot.opt.rules_variant"))
    @app_commands.choices(variant=variant_choices())
    async def rules(self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None) -> None:
        name = variant.value if variant else None
        if name is None:
            game = await bot_of(interaction).service.store.latest_game_in(interaction.channel_id or 0)
            name = game.variant if game else engine.variant_names()[0]
        await reply(interaction, adapter_of(name).rules(name, user_locale(interaction))[:2000])

    @app_commands.command(name=named("help"), description=described("bot.cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, text("bot.help", user_locale(interaction)))

    @app_commands.command(name=named("notify"), description=described("bot.cmd.notify"))
    @app_commands.describe(enabled=described("bot.opt.enabled"))
    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None:
        locale = user_locale(interaction)
        await bot_of(interaction).service.set_notify(interaction.user.id, enabled, locale)
        await reply(interaction, text("bot.reply.notify_on" if enabled else "bot.reply.notify_off", locale))


__all__ = ["ANYWHERE", "AzulCog", "needs_server"]
