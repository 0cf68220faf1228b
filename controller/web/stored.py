"""The page's standings read from the records store (docs/records.md), for the web server's
threads: one connection of its own, behind a lock, each answer kept for `ttl_s` so a page that
polls every 2 s costs the database one query per board and `ttl_s`. While the store is away the
last answers are shown (or none yet), and one log line says so; never the password.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from controller.records import By, RecordsStore, Standing, StoreUnavailable, Target

__all__ = ["StoredStandings", "TTL_S"]

log = logging.getLogger("controller.web")

TTL_S = 10.0  # seconds an answer is reused (the writer reads the network figures as often)


class StoredStandings:
    """`Records` over a records store of its own (`controller.web.standings.Records`)."""

    def __init__(
        self,
        target: Target,
        ttl_s: float = TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = RecordsStore(target)
        self.ttl_s = ttl_s
        self.clock = clock
        self._lock = threading.Lock()
        self._cache: dict[tuple[Any, ...], tuple[float, list[Standing]]] = {}
        self._away = False

    def leaderboard(self, world: str | None, *, by: By, limit: int) -> list[Standing]:
        """A room's standings (`world`), or every room's together (None)."""
        return self._read(
            ("board", world, by, limit),
            lambda: self.store.leaderboard(world, by=by, limit=limit),
        )

    def daily(self, day: dt.date, *, limit: int) -> list[Standing]:
        """The best times of the daily puzzle of `day`."""
        return self._read(("daily", day, limit), lambda: self.store.daily(day, limit=limit))

    def close(self) -> None:
        """Drop the connection."""
        with self._lock:
            self.store.close()

    def _read(self, key: tuple[Any, ...], query: Callable[[], list[Standing]]) -> list[Standing]:
        with self._lock:
            now = self.clock()
            kept = self._cache.get(key)
            if kept is not None and now - kept[0] < self.ttl_s:
                return kept[1]
            try:
                lines = query()
            except StoreUnavailable as exc:
                if not self._away:
                    log.warning("web page: %s; the standings shown are the last read", exc)
                    self._away = True
                return [] if kept is None else kept[1]
            if self._away:
                log.info("web page: the records store answers again")
                self._away = False
            self._cache[key] = (now, lines)
            return lines
