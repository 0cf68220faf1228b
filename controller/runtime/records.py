"""Per-player records of a room in its state file: solves, best time, the last five times;
and their form for the records store's one-time import (`importable_records`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.records.store import ImportedRecord
from controller.world.names import is_player_name

__all__ = [
    "RECENT",
    "PlayerRecord",
    "records_to_json",
    "records_from_json",
    "importable_records",
]

log = logging.getLogger("controller.runtime")

RECENT = 5  # the mean is over this many latest solves


@dataclass
class PlayerRecord:
    """One player's solves in one room (or on one daily puzzle)."""

    solves: int = 0
    best: float | None = None
    recent: list[float] = field(default_factory=list)  # latest last, at most RECENT

    def add(self, seconds: float) -> None:
        """Count one solve that took `seconds`."""
        self.solves += 1
        self.best = seconds if self.best is None else min(self.best, seconds)
        self.recent = [*self.recent, seconds][-RECENT:]

    @property
    def mean_recent(self) -> float | None:
        """The mean of the last (up to) five solve times."""
        return sum(self.recent) / len(self.recent) if self.recent else None

    def to_json(self) -> dict[str, Any]:
        """The state-file form."""
        return {"solves": self.solves, "best": self.best, "recent": list(self.recent)}


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"expected a non-negative number, got {value!r}")
    return float(value)


def _record(value: Any) -> PlayerRecord:
    if not isinstance(value, dict):
        raise ValueError("must be an object")
    solves = value.get("solves", 0)
    if isinstance(solves, bool) or not isinstance(solves, int) or solves < 0:
        raise ValueError(f"solves: expected a count, got {solves!r}")
    best = value.get("best")
    recent = value.get("recent", [])
    if not isinstance(recent, list):
        raise ValueError("recent: must be a list")
    return PlayerRecord(
        solves,
        None if best is None else _number(best),
        [_number(v) for v in recent][-RECENT:],
    )


def records_to_json(records: dict[str, PlayerRecord]) -> dict[str, Any]:
    """Records by account name, for the state file."""
    return {name: rec.to_json() for name, rec in sorted(records.items())}


def records_from_json(value: Any) -> dict[str, PlayerRecord]:
    """Parse records by account name; a key that is not an account name is an error."""
    if not isinstance(value, dict):
        raise ValueError("must be an object of account names")
    out = {}
    for name, raw in value.items():
        if not isinstance(name, str) or not is_player_name(name):
            raise ValueError(f"{name!r} is not an account name")
        try:
            out[name] = _record(raw)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return out


def importable_records(path: Path) -> list[ImportedRecord] | None:
    """A pipes room's state-file records as the records store imports them (the room's own,
    then each daily puzzle's): [] without a state file, None (logged) when it cannot be read,
    so the import waits for a later start."""
    from controller.runtime.state import StateError, read_state_json

    try:
        data = read_state_json(path)
        if data is None or data.get("kind", "pipes") != "pipes":
            return []
        own = records_from_json(data.get("players", {}))
        daily_raw = data.get("daily", {})
        if not isinstance(daily_raw, dict):
            raise ValueError("daily: must be an object of dates")
        daily = {str(day): records_from_json(recs) for day, recs in daily_raw.items()}
    except (StateError, ValueError) as exc:
        log.warning("%s: records not imported yet (%s)", path, exc)
        return None
    out = [ImportedRecord("", n, r.solves, r.best, tuple(r.recent)) for n, r in sorted(own.items())]
    for day, recs in sorted(daily.items()):
        out += [
            ImportedRecord(day, n, r.solves, r.best, tuple(r.recent))
            for n, r in sorted(recs.items())
        ]
    return out
