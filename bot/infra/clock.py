"""The bot's sense of time, injectable: everything that schedules or runs a timer asks a :class:`Clock`.

The running bot uses :class:`SystemClock`; tests hand it a :class:`ManualClock` and move it forward, so a day of
waiting takes no time and every deadline is exact.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that stands still until :meth:`advance` moves it (starting at the real time of its creation)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime:
        self._now += delta if delta is not None else timedelta(**parts)
        return self._now


def iso(moment: datetime) -> str:
    """How times are stored: ISO 8601 in UTC to the second, so text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def quiet_until(now: datetime, zone: str | None, start: int | None, end: int | None) -> datetime | None:
    """When the quiet hours ``start``–``end`` (hours of the day in ``zone``, across midnight if start > end) that
    hold ``now`` end; None when ``now`` is not quiet."""
    if start is None or end is None or start == end:
        return None
    from zoneinfo import ZoneInfo  # noqa: PLC0415 - with the first quiet hours, not at start-up

    local = now.astimezone(ZoneInfo(zone or "UTC"))
    hour = local.hour
    quiet = start <= hour < end if start < end else (hour >= start or hour < end)
    if not quiet:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)  # wall-clock arithmetic in the zone: the end is the same local hour tomorrow
    return ends.astimezone(UTC)


__all__ = ["Clock", "ManualClock", "SystemClock", "iso", "quiet_until"]
