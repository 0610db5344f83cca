"""Claims on background work shared by several bot processes: a board to post, a game's computer turns, a league's
round. Each is held by one process for a lease; a process that dies keeps it until the lease runs out."""

from __future__ import annotations

import os
import secrets
import socket
import time
from datetime import timedelta

from bot.infra.clock import Clock, iso
from bot.infra.store import Store


class Claims:
    """This process's claims: who it is (its durable identity and this life of it) and the work it holds."""

    def __init__(self, store: Store, clock: Clock, lease: timedelta | None, identity: str | None = None) -> None:
        self.store = store
        self.clock = clock
        self.lease = lease
        """The operator's lease on claimed work (``AZUL_LEASE_SECONDS``; None: each kind of work's own default)."""
        # Who holds a claim: this process's durable identity (its shards) and this life of it (a generation), so a
        # restarted process takes its own claims back at once (:meth:`take_over_own`) and waits only for others'.
        self.identity = identity or f"{socket.gethostname()}:{os.getpid()}"
        self.worker = f"{self.identity}#{time.time_ns():x}{secrets.token_hex(2)}"

    def until(self, lease: timedelta) -> str:
        """When a claim taken now for ``lease`` runs out (the operator's lease, when set, replaces every kind's own)."""
        return iso(self.clock.now() + (self.lease or lease))

    async def claim(self, work: str, lease: timedelta) -> bool:
        """Take ``work`` for this process for ``lease`` (or extend it); False when another process holds it."""
        return await self.store.timers.claim(work, self.worker, iso(self.clock.now()), self.until(lease))

    async def release(self, work: str) -> None:
        await self.store.timers.release(work, self.worker)

    async def take_over_own(self) -> int:
        """At start-up: take back the claims this process's previous life held (it died holding them)."""
        return await self.store.timers.take_over(self.identity, self.worker, iso(self.clock.now()))
