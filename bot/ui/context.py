"""What a handler needs from the client: a small interface, so no handler depends on the client class.

``AzulBot`` (in :mod:`bot.client`) provides it. A command's or control's callback takes it once, with :func:`bot_of`,
and hands it (or the ``Games`` it needs) to the helpers it calls: none fetches it again
(tests/bot/test_context_entries.py counts the entries). A test can hand a handler any object with these attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, cast, runtime_checkable

import discord

from bot.app.outcomes import Known, Turn
from bot.app.ports import Games, Leagues, PictureMaker
from bot.app.records import GameRow
from engine import Event, GameState


class BoardPoster(Protocol):
    async def post_board(  # noqa: PLR0913 - what the board tells, and whether its claim is held already
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        state: GameState,
        *,
        guild: discord.Guild | None,
        headline: str = "",
        events: Sequence[Event] = (),
        ping: Sequence[int] = (),
        ending: bool = False,
        held: str = "",
        known: Known | None = None,
    ) -> discord.Message | None: ...

    async def show_board(
        self, channel: discord.abc.Messageable, game: GameRow, state: GameState, *, guild: discord.Guild | None
    ) -> discord.Message: ...

    async def post_nudge(
        self,
        channel: discord.abc.Messageable,
        game: GameRow,
        seats: Sequence[int],
        player: str,
        guild: discord.Guild | None,
    ) -> None: ...


@runtime_checkable
class BotContext(Protocol):
    """The game service, the leagues, the board poster and the pictures of the running bot, and the computer's
    turns, each seen through :mod:`bot.app.ports` (the service as its objects, the pictures and leagues as
    protocols), never through the client or the composition that built them."""

    @property
    def service(self) -> Games: ...

    @property
    def leagues(self) -> Leagues: ...

    @property
    def poster(self) -> BoardPoster: ...

    @property
    def pictures(self) -> PictureMaker: ...

    def wake_computer(self, game_id: int, after: Turn | None = None) -> None:
        """After a move or the start: let the computer play its seats that must act now (in the background);
        ``after``: the move just saved, which tells whether any must (nothing is read when none must)."""


_CONTEXTS: set[type] = set()
"""The client classes found to be a :class:`BotContext`: a runtime protocol's ``isinstance`` reads every member of
the client on each call (tens of microseconds on the event loop, every interaction), and a class's members do not
change."""


def bot_of(interaction: discord.Interaction) -> BotContext:
    client = interaction.client
    if type(client) not in _CONTEXTS:
        if not isinstance(client, BotContext):
            raise TypeError("the interaction's client does not provide the game service and the poster")
        _CONTEXTS.add(type(client))
    return cast(BotContext, client)


__all__ = ["BoardPoster", "BotContext", "bot_of"]
