"""A paint room's state file: the puzzle and canvas (the engine's JSON), strokes, time, solves.

Same envelope as a pipes room's (`controller/runtime/state.py`: `format` 1, written atomically
after every stroke) with `"kind": "paint"`; the `board` is `controller.puzzle.paint.serialize`'s
object with the canvas the world shows; `players`, `daily` and `told` are the players' records
and who was shown the controls, as in a pipes room's state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.puzzle.paint import Canvas, PaintPuzzle, puzzle_to_dict
from controller.puzzle.paint.serialize import game_from_dict
from controller.runtime.records import PlayerRecord, records_from_json, records_to_json
from controller.runtime.state import (
    STATE_FORMAT,
    Solve,
    _daily,
    _float,
    _int,
    _origin,
    _solves,
    _uuids,
    parse_fields,
    read_state_json,
    write_atomic,
)

__all__ = ["PAINT_WORLD_FORMAT", "PaintState"]

PAINT_WORLD_FORMAT = 3  # docs/world-format.md: paint rooms exist from version 3 on


@dataclass
class PaintState:
    """Everything a paint room needs to resume."""

    room: str
    puzzle: PaintPuzzle
    canvas: Canvas
    puzzle_number: int = 1
    moves: int = 0  # strokes of the current attempt (a clear starts a new one)
    started_at: float = field(default_factory=time.time)
    solved_at: float | None = None
    solves: list[Solve] = field(default_factory=list)
    origin: tuple[int, int, int] | None = None
    dimension: str | None = None
    orientation: str | None = None
    target_side: str | None = None
    clears: int = 0
    world_format: int = PAINT_WORLD_FORMAT
    players: dict[str, PlayerRecord] = field(default_factory=dict)  # by account name
    daily: dict[str, dict[str, PlayerRecord]] = field(default_factory=dict)  # by ISO date
    told: set[str] = field(default_factory=set)  # UUIDs of players shown the controls

    def to_dict(self) -> dict[str, Any]:
        """The JSON document."""
        return {
            "format": STATE_FORMAT,
            "kind": "paint",
            "room": self.room,
            "puzzle_number": self.puzzle_number,
            "moves": self.moves,
            "clears": self.clears,
            "started_at": self.started_at,
            "solved_at": self.solved_at,
            "solves": [vars(s) for s in self.solves],
            "origin": None if self.origin is None else list(self.origin),
            "dimension": self.dimension,
            "orientation": self.orientation,
            "target_side": self.target_side,
            "world_format": self.world_format,
            "players": records_to_json(self.players),
            "daily": {day: records_to_json(recs) for day, recs in sorted(self.daily.items())},
            "told": sorted(self.told),
            "board": puzzle_to_dict(self.puzzle, self.canvas),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "state") -> PaintState:
        """Parse a state document; an error names the file, the field and what to do."""
        fields = parse_fields(data, where, _FIELDS, kind="paint")
        puzzle, canvas = fields.pop("board")
        return cls(puzzle=puzzle, canvas=canvas, **fields)

    def save(self, path: Path) -> None:
        """Write atomically."""
        write_atomic(path, self.to_dict())

    @classmethod
    def load(cls, path: Path) -> PaintState | None:
        """Read a state file; None when there is none."""
        data = read_state_json(path)
        return None if data is None else cls.from_dict(data, str(path))


def _board(value: Any) -> tuple[PaintPuzzle, Canvas]:
    puzzle, canvas, _ = game_from_dict(value)
    return puzzle, canvas


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


_FIELDS: tuple[tuple[str, Any, bool], ...] = (
    ("room", str, True),
    ("board", _board, True),
    ("puzzle_number", _int, False),
    ("moves", _int, False),
    ("clears", _int, False),
    ("started_at", _float, True),
    ("solved_at", lambda v: None if v is None else _float(v), False),
    ("solves", _solves, False),
    ("origin", _origin, False),
    ("dimension", _text, False),
    ("orientation", _text, False),
    ("target_side", _text, False),
    ("world_format", _int, False),
    ("players", records_from_json, False),
    ("daily", _daily, False),
    ("told", _uuids, False),
)
