"""Leaderboards and daily results as the web page reads them: the records store's
`RecordsReader` protocol (`controller.records`), and an adapter over the records the rooms keep
in their state files (pure, no I/O), which the page uses when it is given no store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.records import By, RecordsReader, Standing

__all__ = ["Standing", "Records", "RoomRecords", "RoomStandings", "rank"]

Records = RecordsReader  # what the page reads standings from (controller/records)


@dataclass(frozen=True)
class RoomStandings:
    """One room's records: by account name, (solves, best time in seconds)."""

    room: str
    server: str
    players: Mapping[str, tuple[int, float | None]]
    daily: Mapping[str, Mapping[str, tuple[int, float | None]]]  # by ISO date


def _figures(by: By, solves: int, best: float | None) -> tuple[float, ...]:
    """What a board orders by, smaller first: solves then time, or time then solves."""
    time = float("inf") if best is None else best
    return (-solves, time) if by == "solves" else (time, -solves)


def rank(
    rows: Iterable[tuple[str, int, float | None, str | None]], *, by: By, limit: int
) -> list[Standing]:
    """Standings from (name, solves, best, server) rows: most solves first (ties: the better
    time), or the best time first (ties: more solves; players without a time left out), then
    by name. Players with equal figures share a rank (1, 2, 2, 4)."""
    kept = [r for r in rows if r[1] > 0 and (by == "solves" or r[2] is not None)]
    kept.sort(key=lambda r: (_figures(by, r[1], r[2]), r[0].casefold(), r[0]))
    out: list[Standing] = []
    previous: tuple[float, ...] | None = None
    for k, (name, solves, best, server) in enumerate(kept[: max(0, limit)]):
        figures = _figures(by, solves, best)
        place = out[-1].rank if figures == previous else k + 1
        previous = figures
        out.append(Standing(place, "", name, solves, best, server))
    return out


def _merge(
    tables: Iterable[tuple[str, Mapping[str, tuple[int, float | None]]]],
) -> list[tuple[str, int, float | None, str | None]]:
    """Records of several rooms added up by name: solves summed, the best time the least; the
    server kept when every row of a player came from one server."""
    solves: dict[str, int] = {}
    best: dict[str, float | None] = {}
    servers: dict[str, set[str]] = {}
    for server, table in tables:
        for name, (n, b) in table.items():
            solves[name] = solves.get(name, 0) + n
            old = best.get(name)
            best[name] = b if old is None else old if b is None else min(old, b)
            servers.setdefault(name, set()).add(server)
    return [
        (name, solves[name], best[name], next(iter(s)) if len(s) == 1 else None)
        for name, s in servers.items()
    ]


class RoomRecords:
    """`Records` over the rooms' own records (their state files' `players` and `daily`),
    from snapshots the caller keeps up to date (`rooms` returns the current ones)."""

    def __init__(self, rooms: Mapping[str, RoomStandings] | None = None) -> None:
        self.rooms: Mapping[str, RoomStandings] = rooms or {}

    def leaderboard(self, world: str | None, *, by: By, limit: int) -> list[Standing]:
        """A room's standings, or every room's together."""
        chosen = [r for r in self.rooms.values() if world is None or r.room == world]
        return rank(_merge((r.server, r.players) for r in chosen), by=by, limit=limit)

    def daily(self, day: dt.date, *, limit: int) -> list[Standing]:
        """Every daily room's standings of `day`, by best time."""
        key = day.isoformat()
        tables = [(r.server, r.daily[key]) for r in self.rooms.values() if key in r.daily]
        return rank(_merge(tables), by="best_time", limit=limit)
