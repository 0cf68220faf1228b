"""Per-player records of every solve, in a store with a schema: SQLite by default (one file in
the state directory), PostgreSQL for a network of servers sharing one leaderboard
(docs/records.md).

- `model`: the rows (`SolveRecord`), the leaderboard lines (`Standing`) and the ranking rule.
- `store`: `RecordsStore` over the DB-API (`sqlite3`, `psycopg` 3), the numbered SQL
  migrations in `migrations/`, the one-time import of the state files' records.
- `outbox` and `writer`: the queue the game writes to (durable on disk) and the background
  thread that drains it into the store and reads the network figures back.

Readers (the CLI's `pipesctl stats`, a web page) use the `RecordsReader` protocol, which
`RecordsStore` implements:

- `leaderboard(world, *, by, limit)`: the players of room `world` (the room name, on every
  server of the network) or of every room (`None`), ranked by `by`: "solves" (most first,
  ties broken by the better best time) or "best_time" (fastest first, players without a time
  left out). At most `limit` lines.
- `daily(day, *, limit)`: the best times on the daily puzzle of the UTC date `day`, across
  servers.

Each line is a `Standing(rank, player_uuid, player_name, solves, best_s, server)`: equal
figures share a rank ("1, 1, 3"); `player_name` is the latest name the player solved under;
`server` is where the best time was set; `player_uuid` is "" for figures imported from state
files under a name no recorded solve carries. A failing database is a `StoreUnavailable`.
"""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from controller.records.model import By, SolveRecord, Standing, solve_id
from controller.records.store import RecordsStore, StoreUnavailable, Target

__all__ = [
    "By",
    "RecordsReader",
    "RecordsStore",
    "SolveRecord",
    "Standing",
    "StoreUnavailable",
    "Target",
    "solve_id",
]


class RecordsReader(Protocol):
    """The leaderboards of a records store."""

    def leaderboard(self, world: str | None, *, by: By, limit: int) -> list[Standing]:
        """The players of one room (or of all rooms when `world` is None), ranked by `by`."""
        ...

    def daily(self, day: dt.date, *, limit: int) -> list[Standing]:
        """The best times on the daily puzzle of `day`."""
        ...
