"""What the records store holds and answers, and the ranking rule (pure, no I/O)."""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = [
    "By",
    "SolveRecord",
    "Standing",
    "Aggregate",
    "solve_id",
    "merge",
    "rank",
]

By = Literal["solves", "best_time"]

_SOLVE_NAMESPACE = uuid.UUID("6d1f3b0e-3c55-4f0a-9b7e-70697065730a")


def solve_id(server: str, room: str, puzzle: int, started_at: float, player_uuid: str) -> str:
    """The id of one player's solve of one puzzle: the same inputs give the same id, so a win
    recorded again after a crash is one solve, never two (docs/records.md, "Exactly once")."""
    key = f"{server}/{room}/{puzzle}/{started_at!r}/{player_uuid}"
    return str(uuid.uuid5(_SOLVE_NAMESPACE, key))


@dataclass(frozen=True)
class SolveRecord:
    """One player's solve, as the store keeps it (a row of `solves`)."""

    solve_id: str
    server: str
    room: str
    kind: str  # the room's mode: "tree" or "sink"; "paint" for a paint room
    seed: int | None
    daily_date: str | None  # the daily puzzle's UTC date (YYYY-MM-DD), None for other rooms
    player_uuid: str
    player_name: str
    seconds: float
    clicks: int
    par: int | None
    solved_at: float  # Unix time

    @property
    def solved_on(self) -> str:
        """The UTC date of the solve."""
        return dt.datetime.fromtimestamp(self.solved_at, tz=dt.UTC).date().isoformat()

    def to_json(self) -> dict[str, Any]:
        """The outbox form."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SolveRecord:
        """Parse the outbox form (a KeyError or TypeError when it is not one)."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Standing:
    """One player's line on a leaderboard. `server`: where the player's best time was set
    (None without one); `player_uuid` is "" for figures imported from state files of a name
    that no recorded solve carries (the files kept names only)."""

    rank: int
    player_uuid: str
    player_name: str
    solves: int
    best_s: float | None
    server: str | None

    def to_json(self) -> dict[str, Any]:
        """The machine-readable form (`pipesctl stats --json`)."""
        return asdict(self)


@dataclass(frozen=True)
class Aggregate:
    """One player's figures before ranking: from recorded solves (by UUID) or from imported
    state-file records (by name, `player_uuid` "")."""

    player_uuid: str
    player_name: str
    solves: int
    best_s: float | None
    server: str | None


def merge(live: Iterable[Aggregate], imported: Iterable[Aggregate]) -> list[Aggregate]:
    """Recorded solves and imported figures together: an imported name joins the player whose
    latest name it is (names compared without case, as the server does), else stands alone."""
    by_uuid = {a.player_uuid: a for a in live}
    by_name = {a.player_name.lower(): a.player_uuid for a in by_uuid.values()}
    alone: dict[str, Aggregate] = {}
    for imp in imported:
        key = by_name.get(imp.player_name.lower())
        if key is not None:
            by_uuid[key] = _combine(by_uuid[key], imp)
        elif imp.player_name.lower() in alone:
            alone[imp.player_name.lower()] = _combine(alone[imp.player_name.lower()], imp)
        else:
            alone[imp.player_name.lower()] = imp
    return [*by_uuid.values(), *alone.values()]


def _combine(a: Aggregate, b: Aggregate) -> Aggregate:
    """Two sets of figures of one player: solves add up, the better best time (and its server)
    wins; `a`'s identity stays."""
    best, server = a.best_s, a.server
    if b.best_s is not None and (best is None or b.best_s < best):
        best, server = b.best_s, b.server
    return Aggregate(a.player_uuid, a.player_name, a.solves + b.solves, best, server)


def _key(a: Aggregate, by: By) -> tuple[float, float]:
    best = math.inf if a.best_s is None else a.best_s
    return (-a.solves, best) if by == "solves" else (best, -a.solves)


def rank(aggregates: Iterable[Aggregate], by: By, limit: int | None = None) -> list[Standing]:
    """The leaderboard: most solves first (ties: the better best time), or the best time first
    (players without one are left out; ties: more solves). Equal figures share a rank and the
    next rank skips ("1, 1, 3"); within a rank, names in order. At most `limit` lines."""
    rows = [a for a in aggregates if by == "solves" or a.best_s is not None]
    rows.sort(key=lambda a: (_key(a, by), a.player_name.lower(), a.player_uuid))
    out: list[Standing] = []
    for k, a in enumerate(rows):
        if limit is not None and k >= limit:
            break
        same = k > 0 and _key(rows[k - 1], by) == _key(a, by)
        place = out[-1].rank if same else k + 1
        out.append(Standing(place, a.player_uuid, a.player_name, a.solves, a.best_s, a.server))
    return out
