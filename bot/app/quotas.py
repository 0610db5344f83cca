"""Limits that keep the bot fair to every server, so that no member can exhaust it: open games per member and per
server (a server's setting, ``/azul-server settings``), and how often a player may have a hint searched.

A member's open games are the seats they fill in this server's lobbies and running games, plus every computer seat
in the games they created: a computer player costs the bot more than a person, and it is its creator who asked for
it. League games are counted apart (they neither take nor fill the caps: a server manager made the league, and its
rounds must open). The caps are counted in the transaction that takes the seat (``bot.infra.store.servers.take_caps``),
so simultaneous clicks cannot pass them. A hint is searched at most once per game version and seat (asking again,
even while it is searched, shows the same move), and a player waits :data:`HINT_COOLDOWN` between two searches,
counted from when one starts. A person is nudged at most once per :data:`NUDGED_EVERY` in a game, whoever asks.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.app.errors import Refusal
from bot.infra.clock import iso
from bot.infra.store import Store

MEMBER_GAMES = 10
"""Open games per member in a server, unless the server chose otherwise."""
SERVER_GAMES = 200
"""Open games per server, unless the server chose otherwise."""
MEMBER_GAMES_MAX = 100
SERVER_GAMES_MAX = 1000
"""The most a server may allow: beyond it one server could slow every other."""
HINT_COOLDOWN = timedelta(seconds=60)
NUDGED_EVERY = timedelta(hours=12)
"""How often one person may be nudged in one game, whoever nudges (each player may nudge once as often, too)."""
KEPT_HINTS = 256

Hint = tuple[Any, list[tuple[str, dict[str, Any]]]]
"""A searched hint: the move and its reasons."""


@dataclass(frozen=True, slots=True)
class GameCaps:
    member: int = MEMBER_GAMES
    server: int = SERVER_GAMES


class Hints:
    """The hints searched lately, by (game, version, seat), and when each player may have the next one searched.
    In memory: after a restart a hint is searched again, which costs one search.

    Single-flight: requests for a (game, version, seat) whose search is running wait for it and get the same hint;
    the asking player's cooldown is taken before the search starts, so simultaneous requests never start a second
    one."""

    def __init__(self, cooldown: timedelta = HINT_COOLDOWN) -> None:
        self.cooldown = cooldown
        self._found: OrderedDict[tuple[int, int, int], Hint] = OrderedDict()
        self._next: dict[int, datetime] = {}
        self._running: dict[tuple[int, int, int], asyncio.Future[Hint]] = {}

    async def hint(
        self, key: tuple[int, int, int], user_id: int, now: datetime, search: Callable[[], Awaitable[Hint]]
    ) -> Hint:
        """The hint for ``key``: kept, or being searched (waited for), or searched now by ``search`` if ``user_id``
        may have one searched (else :class:`Refusal` ``hint_cooldown``, saying when)."""
        found = self._found.get(key)
        if found is not None:
            return found
        running = self._running.get(key)
        if running is None:
            ready = self.ready_at(user_id, now)
            if ready is not None:
                raise Refusal("hint_cooldown", when=f"<t:{int(ready.timestamp()) + 1}:R>")
            before = self._next.get(user_id)
            self._next = {user: at for user, at in self._next.items() if at > now}
            self._next[user_id] = now + self.cooldown  # reserved first: the search is what the cooldown limits
            running = self._running[key] = asyncio.ensure_future(self._search(key, user_id, before, search))
        # Shielded: a request that gives up (its interaction expired) leaves the search to the others waiting.
        return await asyncio.shield(running)

    async def _search(
        self, key: tuple[int, int, int], user_id: int, before: datetime | None, search: Callable[[], Awaitable[Hint]]
    ) -> Hint:
        try:
            found = await search()
        except BaseException:
            if before is None:  # a search that failed is the bot's fault: the player may ask again at once
                self._next.pop(user_id, None)
            else:
                self._next[user_id] = before
            raise
        finally:
            self._running.pop(key, None)
        self._found[key] = found
        while len(self._found) > KEPT_HINTS:
            self._found.popitem(last=False)
        return found

    def ready_at(self, user_id: int, now: datetime) -> datetime | None:
        """When ``user_id`` may have a hint searched, if not now."""
        ready = self._next.get(user_id)
        return ready if ready is not None and ready > now else None

    def forget(self, user_id: int) -> None:
        self._next.pop(user_id, None)


async def take_nudges(
    store: Store, game_id: int, awaited: dict[int, int], owner: str, now: datetime
) -> tuple[list[int], datetime | None]:
    """Take the right to nudge each awaited person (``awaited``: seat → user) for :data:`NUDGED_EVERY`, so that
    however many players nudge at once, one person is pinged once: a claim per game and person, taken or refused in
    one statement. The seats taken, and (when none was) the earliest time one of them may be nudged again."""
    taken, again = [], []
    until = iso(now + NUDGED_EVERY)
    for seat, user_id in awaited.items():
        work = f"nudged:{game_id}:{user_id}"
        if await store.timers.claim(work, owner, iso(now), until):
            taken.append(seat)
            continue
        held = await store.timers.held_until(work, iso(now))
        again.append(datetime.fromisoformat(held) if held else now)
    return taken, (min(again) if again and not taken else None)


async def give_back_nudges(store: Store, game_id: int, awaited: dict[int, int], owner: str) -> None:
    """Give back the rights :func:`take_nudges` took when the nudge did not go out after all."""
    for user_id in awaited.values():
        await store.timers.release(f"nudged:{game_id}:{user_id}", owner)


__all__ = [
    "HINT_COOLDOWN",
    "MEMBER_GAMES",
    "MEMBER_GAMES_MAX",
    "NUDGED_EVERY",
    "SERVER_GAMES",
    "SERVER_GAMES_MAX",
    "GameCaps",
    "Hints",
    "give_back_nudges",
    "take_nudges",
]
