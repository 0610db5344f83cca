"""The game service: the only code that touches both the engine and the store.

Every public method either returns what happened or raises :class:`Refusal` (the bot's own reasons, catalogue key
``bot.refuse.<key>``) or an :class:`engine.EngineError` (the rules' reasons, ``error.<key>``); on a refusal nothing
is saved. A move loads the snapshot, lets the engine validate and apply it, and saves the new snapshot together with
the move in one transaction guarded by the game's version, so racing or repeated interactions apply at most once.

The service is built from one module per concern; each class builds on :mod:`bot.app.service_base` alone, and
:class:`GameService` is all of them:

======================================  ========================================================================
:mod:`bot.app.lookups`                  what handlers read; a player's and a server's settings
:mod:`bot.app.service_base`             its parts, claims on background work, loading a game, recording results
:mod:`bot.app.seating`                  lobbies: create, join, leave, computers, start, rematch
:mod:`bot.app.turns`                    moves, the computer's turns, hints, time limits, undo, nudges
:mod:`bot.app.boards`                   which board to post after a move, and those a restart still owes
:mod:`bot.app.endings`                  resigning, aborting, games whose place is gone, forgetting a player
======================================  ========================================================================

Handlers see it through the protocols of :mod:`bot.app.ports`.
"""

from __future__ import annotations

from bot.app.boards import Boards
from bot.app.endings import Endings
from bot.app.errors import Refusal
from bot.app.outcomes import Needed, Nudged, Resigned, TimedOut, Turn, Undone
from bot.app.seating import Seating, seat_order
from bot.app.turns import Turns, first_open_option, matching


class GameService(Seating, Turns, Boards, Endings):
    """The game service: every concern in one object, built once by the composition root (:mod:`bot.client`) and
    handed to handlers as :class:`bot.app.ports.Games`."""


__all__ = [
    "GameService",
    "Needed",
    "Nudged",
    "Refusal",
    "Resigned",
    "TimedOut",
    "Turn",
    "Undone",
    "first_open_option",
    "matching",
    "seat_order",
]
