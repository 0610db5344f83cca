"""Discord's rate limits, beyond what discord.py does.

discord.py waits out a 429 that Discord's API sends (with a ``Via`` header) and paces requests by the buckets the
headers announce. A 429 *without* ``Via`` comes from Cloudflare in front of the API; discord.py takes it for a ban
and raises at once, so a board would wait for the next sweep. :func:`patient` retries such a request after its
``Retry-After`` (a few times, only for a short wait), inside whatever time budget its caller set (a board post has
10 seconds); :func:`patient_replies` does the same for interaction replies. Every 429 is counted for the metrics:
Cloudflare's where :func:`patient` sees them, Discord's by :func:`count_rate_limits` from the warning discord.py logs
as it waits one out (an aiohttp trace would see each too, but it costs every request's every chunk a call). And
:class:`ChannelPacer` spaces the posts of a bulk run (the start-up sweep of missing boards, many timers due at once)
in one channel, so they stay under Discord's per-channel limit instead of meeting it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.webhook.async_ import async_context

from bot.infra import metrics

log = logging.getLogger(__name__)

RETRIES = 3
"""Retries of one request after 429s without ``Via``."""
LONGEST_WAIT = 30.0
"""A longer ``Retry-After`` (a real Cloudflare ban lasts an hour) is not waited for: the request fails as before."""
CHANNEL_BURST, CHANNEL_WINDOW = 4, 5.0
"""Bulk posts per channel and seconds: Discord allows 5 messages per 5 seconds in a channel; one stays free for the
players' own moves."""

Request = Callable[..., Awaitable[Any]]


def retry_after(error: discord.HTTPException) -> float | None:
    """How long a 429 asks to wait (Discord's precise header first, then the standard one), or None."""
    if error.status != 429:
        return None
    headers = getattr(error.response, "headers", None) or {}
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return max(0.0, float(headers[name]))
        except (KeyError, TypeError, ValueError):
            continue
    return 1.0


def patient(request: Request) -> Request:
    """A discord.py ``request`` (the REST client's, or the webhook adapter's that interaction replies use), retried
    after a 429 that it raised (one without ``Via``). The route is its first argument."""

    async def retrying(*args: Any, files: Any = None, **kwargs: Any) -> Any:
        for attempt in range(RETRIES + 1):
            try:
                return await request(*args, files=files, **kwargs)
            except discord.HTTPException as error:
                wait = retry_after(error)
                if wait is not None:
                    metrics.rate_limited("cloudflare")  # discord.py raises only the 429s without Via
                if wait is None or wait > LONGEST_WAIT or attempt == RETRIES:
                    raise
                route = args[0]
                log.warning("%s %s: 429 without Via; retrying in %.2f s", route.method, route.path, wait)
                await asyncio.sleep(wait)
                for file in files or ():  # the first try read them to the end
                    file.reset()
        raise AssertionError("unreachable")

    retrying.patient = True  # type: ignore[attr-defined]
    return retrying


def patient_replies() -> None:
    """Interaction replies and their edits go through one webhook adapter per process: make it patient, once."""
    adapter = async_context.get()
    if not getattr(adapter.request, "patient", False):
        adapter.request = patient(adapter.request)  # type: ignore[method-assign,assignment]


DISCORD_WAITS = {
    "discord.http": "We are being rate limited.",  # discord.py's warning for each 429 with Via it waits out or raises
    "discord.webhook.async_": "Webhook ID %s is rate limited.",  # … and for interaction replies
}


class _DiscordWaits(logging.Filter):
    """Counts the 429s that Discord's API sent (with ``Via``), from the warning discord.py logs for each; the
    warning itself is shown only when the configured level asks for it."""

    def filter(self, record: logging.LogRecord) -> bool:
        told = DISCORD_WAITS.get(record.name)
        if told is not None and isinstance(record.msg, str) and record.msg.startswith(told):
            metrics.rate_limited("discord")
        return record.levelno >= logging.getLogger().getEffectiveLevel()


def count_rate_limits() -> None:
    """Count Discord's 429s from discord.py's loggers (their warnings made whatever the log level), once."""
    for name in DISCORD_WAITS:
        logger = logging.getLogger(name)
        logger.setLevel(min(logger.getEffectiveLevel(), logging.WARNING))
        if not any(isinstance(kept, _DiscordWaits) for kept in logger.filters):
            logger.addFilter(_DiscordWaits())


class ChannelPacer:
    """Lets at most ``burst`` bulk posts into one channel per ``window`` seconds, and makes the next wait for a free
    place; posts in different channels never wait for each other."""

    def __init__(self, burst: int = CHANNEL_BURST, window: float = CHANNEL_WINDOW) -> None:
        self.burst = burst
        self.window = window
        self._sent: dict[int, deque[float]] = {}

    async def wait(self, channel_id: int) -> None:
        sent = self._sent.setdefault(channel_id, deque())
        now = time.monotonic()
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.burst:
            start = sent[-self.burst] + self.window  # when the oldest of the last ``burst`` leaves the window
            sent.append(start)
            await asyncio.sleep(start - now)
        else:
            sent.append(now)


__all__ = ["ChannelPacer", "count_rate_limits", "patient", "patient_replies", "retry_after"]
