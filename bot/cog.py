"""The ``/azul`` command group: lobby, moves with dependent autocomplete, board, status, ending, rules, help.

Commands are thin: they parse the interaction, call the service, and describe the answer. Every refusal goes
through :func:`bot.actions.guarded`, which answers ephemerally in the user's language.
"""

from __future__ import annotations

import io
import json
import logging
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.actions import bot_of, display_name, guarded, is_admin, play, reply
from bot.games import MOVE_COMMANDS, adapter_of
from bot.posting import draw, names_by_seat, scores_text, standings_text
from bot.service import Refusal, tokens_for
from bot.store import GameRow
from bot.texts import described, guild_locale, named, text, user_locale
from bot.views import lobby_view

log = logging.getLogger(__name__)

CHOICE_LIMIT = 25


def variant_choices() -> list[app_commands.Choice[str]]:
    """Every registered variant, named in words (translated through the catalogue key)."""
    choices = []
    for name in engine.variant_names()[:CHOICE_LIMIT]:
        label = adapter_of(name).variant_label(name, "en")
        choices.append(app_commands.Choice(name=described(f"bot.variant.{name}", label), value=name))
    return choices


# --- lobby ---------------------------------------------------------------------------------------------------------
def lobby_text(game: GameRow, locale: str) -> str:
    variant = adapter_of(game.variant).variant_label(game.variant, locale)
    players = "\n".join(f"{i}. {seat.name}" for i, seat in enumerate(game.seats, start=1))
    key = "bot.lobby.open" if game.status == "lobby" else f"bot.lobby.{game.status}"
    return text(
        key,
        locale,
        variant=variant,
        creator=f"<@{game.creator_id}>",
        seats=len(game.seats),
        max=game.max_seats,
        players=players,
        order=text(f"bot.order.{game.seat_order}", locale),
    )


async def refresh_lobby(interaction: discord.Interaction, game: GameRow) -> None:
    """Bring the lobby message up to date (buttons gone once the game started or closed)."""
    if game.lobby_message_id is None or not isinstance(interaction.channel, discord.abc.Messageable):
        return
    locale = guild_locale(interaction.guild)
    view = lobby_view(game, locale) if game.status == "lobby" else None
    message = interaction.channel.get_partial_message(game.lobby_message_id)  # type: ignore[union-attr]
    try:
        await message.edit(content=lobby_text(game, locale), view=view, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("game %s: lobby message could not be updated", game.id)


async def lobby_action(interaction: discord.Interaction, action: str, *, game_id: int | None = None) -> None:
    """Join, leave or start, from a slash command or a lobby button."""
    bot = bot_of(interaction)
    service = bot.service
    channel_id = interaction.channel_id or 0
    user = interaction.user
    locale = user_locale(interaction)
    if action == "join":
        game = await service.join(channel_id, user.id, display_name(user), game_id)
        await reply(interaction, text("bot.reply.joined", locale, seats=len(game.seats), max=game.max_seats))
        await refresh_lobby(interaction, game)
    elif action == "leave":
        game = await service.leave(channel_id, user.id, game_id)
        await reply(interaction, text("bot.reply.left", locale))
        await refresh_lobby(interaction, game)
    elif action == "start":
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, state = await service.start(channel_id, user.id, is_admin=is_admin(interaction), game_id=game_id)
        await refresh_lobby(interaction, game)
        await post_start(interaction, game, state)
        await reply(interaction, text("bot.reply.started", locale))


async def post_start(interaction: discord.Interaction, game: GameRow, state: Any) -> None:
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise Refusal("no_channel")
    public = guild_locale(interaction.guild)
    order = ", ".join(names_by_seat(game))
    headline = text("bot.post.started", public, order=order, how=text(f"bot.order.{game.seat_order}", public))
    events = engine.opening_events(state)
    ping = sorted(engine.to_act(state))
    await bot_of(interaction).poster.post_board(
        channel, game, state, guild=interaction.guild, headline=headline, events=events, ping=ping
    )


# --- moves ---------------------------------------------------------------------------------------------------------
def autocomplete_for(command: str, option: str) -> Any:
    """The autocomplete of one option: legal tokens given the other options already filled in, labelled in words."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            return await _complete(interaction, command, option, current)
        except (Refusal, engine.EngineError):
            return []
        except Exception:
            log.exception("autocomplete %s/%s failed in channel %s", command, option, interaction.channel_id)
            return []

    return complete


async def _complete(
    interaction: discord.Interaction, command: str, option: str, current: str
) -> list[app_commands.Choice[str]]:
    service = bot_of(interaction).service
    game = await service.active_game(interaction.channel_id or 0)
    state = service.state_of(game)
    seat = game.seat_of(interaction.user.id)
    if seat is None or seat not in engine.to_act(state):
        return []
    filled = {name: getattr(interaction.namespace, name, None) for name in MOVE_COMMANDS[command]}
    given: dict[str, str] = {name: value for name, value in filled.items() if isinstance(value, str) and value.strip()}
    tokens = tokens_for(engine.legal_moves(state, seat), command, option, given)
    adapter = adapter_of(game.variant)
    locale = user_locale(interaction)
    typed = current.strip().casefold()
    chosen = {name: value for name, value in given.items() if name != option}
    choices = []
    for token in tokens:
        label = adapter.label(state, seat, option, token, chosen=chosen, locale=locale)[:100]
        if not typed or typed in label.casefold() or token.casefold().startswith(typed):
            choices.append(app_commands.Choice(name=label, value=token))
    return choices[:CHOICE_LIMIT]


async def move_command(interaction: discord.Interaction, command: str, given: dict[str, str | None]) -> None:
    async def act() -> None:
        game = await bot_of(interaction).service.open_game(interaction.channel_id or 0)
        if command not in adapter_of(game.variant).commands:
            variant = adapter_of(game.variant).variant_label(game.variant, user_locale(interaction))
            raise Refusal("command_not_in_game", command=command, variant=variant)
        await play(interaction, command, given)

    await guarded(interaction, act)


def _ac(command: str) -> dict[str, Any]:
    return {option: autocomplete_for(command, option) for option in MOVE_COMMANDS[command]}


def _describe(command: str) -> dict[str, app_commands.locale_str]:
    return {option: described(f"bot.opt.{option}") for option in MOVE_COMMANDS[command]}


# --- the cog -------------------------------------------------------------------------------------------------------
class AzulCog(commands.GroupCog, group_name="azul", group_description=described("bot.cmd.group")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    # lobby
    @app_commands.command(name=named("new"), description=described("bot.cmd.new"))
    @app_commands.describe(
        variant=described("bot.opt.variant"),
        seats=described("bot.opt.seats"),
        order=described("bot.opt.order"),
    )
    @app_commands.choices(
        variant=variant_choices(),
        order=[
            app_commands.Choice(name=described("bot.order.random"), value="random"),
            app_commands.Choice(name=described("bot.order.joined"), value="joined"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str],
        seats: app_commands.Range[int, 2, 4] = 2,
        order: app_commands.Choice[str] | None = None,
    ) -> None:
        async def act() -> None:
            service = bot_of(interaction).service
            game = await service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                variant=variant.value,
                seats=seats,
                order=order.value if order else "random",
            )
            locale = guild_locale(interaction.guild)
            await interaction.response.send_message(
                lobby_text(game, locale), view=lobby_view(game, locale), allowed_mentions=discord.AllowedMentions.none()
            )
            message = await interaction.original_response()
            await service.store.set_message(game.id, "lobby", message.id)

        await guarded(interaction, act)

    @app_commands.command(name=named("join"), description=described("bot.cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: lobby_action(interaction, "join"))

    @app_commands.command(name=named("leave"), description=described("bot.cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: lobby_action(interaction, "leave"))

    @app_commands.command(name=named("start"), description=described("bot.cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: lobby_action(interaction, "start"))

    # moves: one command per move command of the shared contract
    @app_commands.command(name=named("take"), description=described("bot.cmd.take"))
    @app_commands.describe(**_describe("take"))
    @app_commands.autocomplete(**_ac("take"))
    async def take(
        self,
        interaction: discord.Interaction,
        source: str | None = None,
        color: str | None = None,
        line: str | None = None,
    ) -> None:
        await move_command(interaction, "take", {"source": source, "color": color, "line": line})

    @app_commands.command(name=named("wall"), description=described("bot.cmd.wall"))
    @app_commands.describe(**_describe("wall"))
    @app_commands.autocomplete(**_ac("wall"))
    async def wall(self, interaction: discord.Interaction, line: str | None = None, column: str | None = None) -> None:
        await move_command(interaction, "wall", {"line": line, "column": column})

    @app_commands.command(name=named("place"), description=described("bot.cmd.place"))
    @app_commands.describe(**_describe("place"))
    @app_commands.autocomplete(**_ac("place"))
    async def place(
        self,
        interaction: discord.Interaction,
        star: str | None = None,
        space: str | None = None,
        wilds: str | None = None,
    ) -> None:
        await move_command(interaction, "place", {"star": star, "space": space, "wilds": wilds})

    @app_commands.command(name=named("bonus"), description=described("bot.cmd.bonus"))
    @app_commands.describe(**_describe("bonus"))
    @app_commands.autocomplete(**_ac("bonus"))
    async def bonus(self, interaction: discord.Interaction, tiles: str | None = None) -> None:
        await move_command(interaction, "bonus", {"tiles": tiles})

    @app_commands.command(name=named("pass"), description=described("bot.cmd.pass"))
    @app_commands.describe(**_describe("pass"))
    @app_commands.autocomplete(**_ac("pass"))
    async def pass_(
        self, interaction: discord.Interaction, keep: str | None = None, discard: str | None = None
    ) -> None:
        await move_command(interaction, "pass", {"keep": keep, "discard": discard})

    @app_commands.command(name=named("acquire"), description=described("bot.cmd.acquire"))
    @app_commands.describe(**_describe("acquire"))
    @app_commands.autocomplete(**_ac("acquire"))
    async def acquire(self, interaction: discord.Interaction, by: str | None = None, which: str | None = None) -> None:
        await move_command(interaction, "acquire", {"by": by, "which": which})

    @app_commands.command(name=named("tile"), description=described("bot.cmd.tile"))
    @app_commands.describe(**_describe("tile"))
    @app_commands.autocomplete(**_ac("tile"))
    async def tile(
        self,
        interaction: discord.Interaction,
        tile: str | None = None,
        payment: str | None = None,
        cell: str | None = None,
    ) -> None:
        await move_command(interaction, "tile", {"tile": tile, "payment": payment, "cell": cell})

    @app_commands.command(name=named("expansion"), description=described("bot.cmd.expansion"))
    @app_commands.describe(**_describe("expansion"))
    @app_commands.autocomplete(**_ac("expansion"))
    async def expansion(
        self,
        interaction: discord.Interaction,
        expansion: str | None = None,
        payment: str | None = None,
        area: str | None = None,
        rotation: str | None = None,
    ) -> None:
        given = {"expansion": expansion, "payment": payment, "area": area, "rotation": rotation}
        await move_command(interaction, "expansion", given)

    # looking at the game
    @app_commands.command(name=named("board"), description=described("bot.cmd.board"))
    @app_commands.describe(public=described("bot.opt.public"))
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        async def act() -> None:
            service = bot_of(interaction).service
            game = await service.shown_game(interaction.channel_id or 0)
            state = service.state_of(game)
            if public:
                await interaction.response.defer(ephemeral=True, thinking=True)
                channel = interaction.channel
                if not isinstance(channel, discord.abc.Messageable):
                    raise Refusal("no_channel")
                await bot_of(interaction).poster.post_board(channel, game, state, guild=interaction.guild)
                await reply(interaction, text("bot.reply.reposted", user_locale(interaction)))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            locale = user_locale(interaction)
            png = await draw(game, state, (), locale)
            files = [discord.File(io.BytesIO(png), filename=f"azul-{game.id}.png")] if png else []
            await interaction.edit_original_response(content=status_text(game, state, locale), attachments=files)

        await guarded(interaction, act)

    @app_commands.command(name=named("status"), description=described("bot.cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            service = bot_of(interaction).service
            locale = user_locale(interaction)
            game = await service.shown_game(interaction.channel_id or 0)
            if game.status == "lobby":
                await reply(interaction, lobby_text(game, locale), allowed_mentions=discord.AllowedMentions.none())
                return
            await reply(interaction, status_text(game, service.state_of(game), locale))

        await guarded(interaction, act)

    @app_commands.command(name=named("export"), description=described("bot.cmd.export"))
    async def export(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            game, document = await bot_of(interaction).service.transcript(interaction.channel_id or 0)
            data = json.dumps(document, ensure_ascii=False, indent=1).encode()
            file = discord.File(io.BytesIO(data), filename=f"azul-{game.id}-{game.variant}.json")
            content = text("bot.reply.exported", user_locale(interaction), game=game.id, moves=document["moves"])
            await interaction.edit_original_response(content=content, attachments=[file])

        await guarded(interaction, act)

    # ending
    @app_commands.command(name=named("resign"), description=described("bot.cmd.resign"))
    async def resign(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            service = bot_of(interaction).service
            await interaction.response.defer(ephemeral=True, thinking=True)
            game, state = await service.resign(interaction.channel_id or 0, interaction.user.id)
            channel = interaction.channel
            if isinstance(channel, discord.abc.Messageable):
                public = guild_locale(interaction.guild)
                headline = text("bot.post.resigned_headline", public, player=display_name(interaction.user))
                await bot_of(interaction).poster.post_board(
                    channel, game, state, guild=interaction.guild, headline=headline
                )
            await reply(interaction, text("bot.reply.resigned", user_locale(interaction)))

        await guarded(interaction, act)

    @app_commands.command(name=named("abort"), description=described("bot.cmd.abort"))
    async def abort(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            service = bot_of(interaction).service
            game = await service.abort(interaction.channel_id or 0, interaction.user.id, is_admin=is_admin(interaction))
            public = guild_locale(interaction.guild)
            await interaction.response.send_message(
                text("bot.post.aborted", public, user=display_name(interaction.user), game=game.id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await refresh_lobby(interaction, game)

        await guarded(interaction, act)

    # help
    @app_commands.command(name=named("rules"), description=described("bot.cmd.rules"))
    @app_commands.describe(variant=described("bot.opt.rules_variant"))
    @app_commands.choices(variant=variant_choices())
    async def rules(self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None) -> None:
        async def act() -> None:
            name = variant.value if variant else None
            if name is None:
                game = await bot_of(interaction).service.store.latest_game_in(interaction.channel_id or 0)
                name = game.variant if game else engine.variant_names()[0]
            await reply(interaction, adapter_of(name).rules(name, user_locale(interaction))[:2000])

        await guarded(interaction, act)

    @app_commands.command(name=named("help"), description=described("bot.cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: reply(interaction, text("bot.help", user_locale(interaction))))

    @app_commands.command(name=named("notify"), description=described("bot.cmd.notify"))
    @app_commands.describe(enabled=described("bot.opt.enabled"))
    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None:
        async def act() -> None:
            locale = user_locale(interaction)
            await bot_of(interaction).service.set_notify(interaction.user.id, enabled, locale)
            key = "bot.reply.notify_on" if enabled else "bot.reply.notify_off"
            await reply(interaction, text(key, user_locale(interaction)))

        await guarded(interaction, act)


def status_text(game: GameRow, state: Any, locale: str) -> str:
    names = names_by_seat(game)
    variant = adapter_of(game.variant).variant_label(game.variant, locale)
    since = int(datetime.fromisoformat(game.turn_since).timestamp())
    lines = [
        text(
            "bot.status.title",
            locale,
            variant=variant,
            game=game.id,
            round=engine.variant_of(state).round_number(state),
        )
    ]
    if game.status == "over":
        lines.append(text("bot.post.game_over", locale))
        lines.append(standings_text(game, locale))
    else:
        waiting = ", ".join(f"**{names[s]}**" for s in sorted(engine.to_act(state)))
        lines.append(text("bot.status.to_act", locale, players=waiting, since=f"<t:{since}:R>"))
        lines.append(text("bot.status.scores", locale, scores=scores_text(game, state, locale)))
    lines.append(
        text("bot.status.order", locale, order=", ".join(names), how=text(f"bot.order.{game.seat_order}", locale))
    )
    return "\n".join(lines)


__all__ = ["AzulCog", "lobby_action", "post_start"]
