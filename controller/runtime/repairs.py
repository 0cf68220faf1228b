"""What a reconcile found and fixed, for logs, admin commands and tests."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Repairs"]


@dataclass
class Repairs:
    """What a reconcile found and fixed."""

    adopted_moves: int = 0
    frames_summoned: int = 0
    frames_fixed: int = 0
    preloads_rebuilt: int = 0
    blocks_fixed: int = 0
    rebuilt: bool = False
    notes: list[str] = field(default_factory=list)

    def add_frame_repair(self, summoned: int, preloads: int, fixed: int, note: str) -> None:
        """Count a repair by UUID (the tamper guard's) in this reconcile's figures."""
        self.frames_summoned += summoned
        self.preloads_rebuilt += preloads
        self.frames_fixed += fixed
        self.notes.append(f"frames repaired by UUID: {note}")

    @property
    def total(self) -> int:
        """How many things were out of place."""
        return (
            self.adopted_moves
            + self.frames_summoned
            + self.frames_fixed
            + self.preloads_rebuilt
            + self.blocks_fixed
            + int(self.rebuilt)
        )

    def describe(self) -> str:
        """One human sentence."""
        text = (
            f"{self.total} repair(s): {self.adopted_moves} turns adopted, "
            f"{self.frames_summoned} frames summoned, {self.frames_fixed} frames fixed, "
            f"{self.preloads_rebuilt} preload frames rebuilt, {self.blocks_fixed} blocks fixed"
        )
        if self.rebuilt:
            text += "; room rebuilt"
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text

    def __str__(self) -> str:
        """The sentence, so a log line or message never shows the dataclass repr."""
        return self.describe()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Repairs:
        """The inverse of `to_dict` (unknown keys ignored)."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)
