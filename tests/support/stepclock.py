"""A clock for end-to-end tests that moves only when told: the room's own time, driven by the
test (sleeping waits a little for real, so the sandbox ticks)."""

from __future__ import annotations

import datetime as dt
import time

__all__ = ["START", "StepClock"]

START = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC).timestamp()


class StepClock:
    """A clock that moves only when told (sleeping waits a little for real: the sandbox ticks)."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def time(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, 0.01))
        self.t += seconds

    def advance(self, seconds: float) -> None:
        self.t += seconds
