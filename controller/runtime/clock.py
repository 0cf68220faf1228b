"""Time as the runtime sees it: one object for wall time, monotonic time and sleeping.

Rooms, the daemon and the request hand-off take a `Clock`, so tests can drive time.
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "SystemClock", "SYSTEM_CLOCK", "utc_iso"]


class Clock(Protocol):
    """Wall time (state files, solve times), monotonic time (intervals) and sleeping."""

    def time(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait."""
        ...


class SystemClock:
    """The real clock."""

    def time(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """Wait."""
        time.sleep(seconds)


SYSTEM_CLOCK: Clock = SystemClock()


def utc_iso(seconds: float) -> str:
    """A wall time (seconds since the epoch) as ISO 8601 in UTC, to the second:
    `2026-03-01T09:30:00Z`."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
