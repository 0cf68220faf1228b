"""Per-room state files: versioned JSON, written atomically after every applied move."""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import PipesError
from controller.puzzle.model import Board
from controller.puzzle.serialize import board_from_dict, board_to_dict

__all__ = [
    "STATE_FORMAT",
    "WORLD_FORMAT",
    "Solve",
    "RoomState",
    "StateError",
    "state_path",
    "archive_state",
]

STATE_FORMAT = 1
WORLD_FORMAT = 2  # docs/world-format.md: version 2 frames are Silent


class StateError(PipesError):
    """A state file cannot be read."""


@dataclass
class Solve:
    """One solved puzzle."""

    seed: int | None
    seconds: float
    moves: int
    at: float


@dataclass
class RoomState:
    """Everything a room needs to resume: the puzzle, its rotations, moves, time, solves."""

    room: str
    board: Board
    puzzle_number: int = 1
    moves: int = 0
    started_at: float = field(default_factory=time.time)
    solved_at: float | None = None
    solves: list[Solve] = field(default_factory=list)
    origin: tuple[int, int, int] | None = None
    dimension: str | None = None
    world_format: int = 1  # the docs/world-format.md version the room was built or last fixed to

    def to_dict(self) -> dict[str, Any]:
        """The JSON document."""
        return {
            "format": STATE_FORMAT,
            "room": self.room,
            "puzzle_number": self.puzzle_number,
            "moves": self.moves,
            "started_at": self.started_at,
            "solved_at": self.solved_at,
            "solves": [vars(s) for s in self.solves],
            "origin": None if self.origin is None else list(self.origin),
            "dimension": self.dimension,
            "world_format": self.world_format,
            "board": board_to_dict(self.board),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "state") -> RoomState:
        """Parse a state document, naming the bad field on error."""
        if not isinstance(data, dict):
            raise StateError(f"{where}: not a JSON object")
        if data.get("format") != STATE_FORMAT:
            raise StateError(f"{where}: format {data.get('format')!r} is not {STATE_FORMAT}")
        try:
            board = board_from_dict(data["board"])
            return cls(
                room=str(data["room"]),
                board=board,
                puzzle_number=int(data.get("puzzle_number", 1)),
                moves=int(data.get("moves", 0)),
                started_at=float(data["started_at"]),
                solved_at=None if data.get("solved_at") is None else float(data["solved_at"]),
                solves=[Solve(**s) for s in data.get("solves", [])],
                origin=None if data.get("origin") is None else _origin(data["origin"]),
                dimension=None if data.get("dimension") is None else str(data["dimension"]),
                world_format=int(data.get("world_format", 1)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"{where}: {exc}") from None

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file in the same folder, fsync, then rename."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_dict(), fh, separators=(",", ":"))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> RoomState | None:
        """Read a state file; None when there is none."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_dict(data, str(path))


def _origin(value: Any) -> tuple[int, int, int]:
    x, y, z = (int(v) for v in value)
    return x, y, z


def state_path(state_dir: Path, room: str) -> Path:
    """Where a room's state lives."""
    return state_dir / f"{room}.json"


def archive_state(state_dir: Path, room: str, now: float | None = None) -> Path | None:
    """Move a room's state into `archive/` (used by `remove`); returns the new path."""
    src = state_path(state_dir, room)
    if not src.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now or time.time()))
    dst = state_dir / "archive" / f"{room}-{stamp}.json"
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dst)
    return dst
