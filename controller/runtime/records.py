"""Per-player records of a room: solves, best time, the last five times (pure, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.world.names import is_player_name

__all__ = ["RECENT", "PlayerRecord", "records_to_json", "records_from_json"]

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
