"""Per-room state files: versioned JSON, written atomically after every applied move."""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import PipesError
from controller.puzzle.model import Board
from controller.puzzle.serialize import RowTexts, board_from_dict, board_text, board_to_dict
from controller.runtime.control import state_dir_error, writing_into
from controller.runtime.records import PlayerRecord, records_from_json, records_to_json

__all__ = [
    "parse_fields",
    "STATE_FORMAT",
    "WORLD_FORMAT",
    "SINK_WORLD_FORMAT",
    "SILENT_FORMAT",
    "SHADOW_FORMAT",
    "LOCK_FORMAT",
    "LOOP_FORMAT",
    "CROSS_FORMAT",
    "Solve",
    "RoomState",
    "StateError",
    "state_path",
    "archive_state",
    "write_atomic",
    "write_text_atomic",
    "read_state_json",
]

STATE_FORMAT = 1
SILENT_FORMAT = 2  # docs/world-format.md: from version 2 on frames are Silent
SHADOW_FORMAT = 5  # docs/world-format.md: from version 5 on the block map has a shadow copy
LOCK_FORMAT = 6  # docs/world-format.md: from version 6 on players lock tiles ("Locked tiles")
LOOP_FORMAT = 7  # docs/world-format.md: from version 7 on dry loops and closed islands show
CROSS_FORMAT = 8  # docs/world-format.md: from version 8 on sink rooms have crosses and holes
WORLD_FORMAT = LOOP_FORMAT  # what a tree room is built at today
SINK_WORLD_FORMAT = CROSS_FORMAT  # sink rooms exist from version 4 on; built at 8 today


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
    win_phase: str | None = None  # "recorded" → "marked" → "paid": the win's score steps
    players: dict[str, PlayerRecord] = field(default_factory=dict)  # by account name
    daily: dict[str, dict[str, PlayerRecord]] = field(default_factory=dict)  # by ISO date
    locks: set[int] = field(default_factory=set)  # tile indices players locked, this puzzle only
    told: set[str] = field(default_factory=set)  # UUIDs of players shown the controls
    # the rotations the puzzle was dealt, which a restart goes back to; None for a puzzle saved
    # by a pipesctl that did not keep them, after its first move
    start: list[int] | None = None
    # the encoded rows of the board's grids, kept between saves (`to_json`)
    texts: RowTexts = field(default_factory=RowTexts, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.start is None and self.moves == 0 and self.solved_at is None:
            self.start = list(self.board.rotations)  # nothing turned yet: as dealt

    def carry_over(self, old: RoomState) -> None:
        """Keep the room's history (solves, records, who was shown the controls) from the state
        it replaces; its locks belong to the old puzzle and go."""
        self.solves, self.players, self.daily = old.solves, old.players, old.daily
        self.told = old.told

    def to_dict(self) -> dict[str, Any]:
        """The JSON document."""
        return {
            **self._head(),
            "start": self.start,
            "board": board_to_dict(self.board),
        }

    def to_json(self) -> str:
        """`to_dict` as compact JSON text (what `json.dumps` with separators `,` and `:` gives),
        encoding again only the parts of the board a move changed: a save costs the same at
        any board size, within a few lines' copy and compare."""
        head = json.dumps(self._head(), separators=(",", ":"))
        start = self.texts.flat("start", self.start)
        return f'{head[:-1]},"start":{start},"board":{board_text(self.board, self.texts)}}}'

    def _head(self) -> dict[str, Any]:
        """The document but its two large parts, `start` and `board` (which follow it)."""
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
            "win_phase": self.win_phase,
            "players": records_to_json(self.players),
            "daily": {day: records_to_json(recs) for day, recs in sorted(self.daily.items())},
            "locks": sorted(self.locks),
            "told": sorted(self.told),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "state") -> RoomState:
        """Parse a state document; an error names the file, the field and what to do."""
        fields = parse_fields(data, where, _FIELDS)
        board = fields.pop("board")
        if any(t >= board.size for t in fields.get("locks", ())):
            raise StateError(_broken(where, "locks", f"names a tile beyond the {board.size}"))
        start = fields.get("start")
        if start is not None and len(start) != board.size:
            raise StateError(_broken(where, "start", f"must hold {board.size} rotations"))
        return cls(board=board, **fields)

    def save(self, path: Path) -> None:
        """Write atomically (see `write_atomic`)."""
        write_text_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: Path) -> RoomState | None:
        """Read a state file; None when there is none."""
        data = read_state_json(path)
        if data is None:
            return None
        if data.get("kind", "pipes") != "pipes":
            raise StateError(
                _broken(str(path), "kind", f"is {data.get('kind')!r}, not a pipes room's state")
            )
        return cls.from_dict(data, str(path))


def write_atomic(path: Path, document: dict[str, Any]) -> None:
    """Write a JSON state document atomically (see `write_text_atomic`)."""
    # dumps, not dump: only a one-shot encode takes the C encoder, where dump writes each of a
    # 128×128 room's ~660,000 pieces from Python (0.3–0.7 s a save)
    write_text_atomic(path, json.dumps(document, separators=(",", ":")))


def write_text_atomic(path: Path, text: str) -> None:
    """Write a state file's text atomically: a temporary file in the same folder, fsync, then
    rename. A state directory that cannot be written is a StateDirError naming it."""
    with writing_into(path.parent):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def read_state_json(path: Path) -> dict[str, Any] | None:
    """The JSON object of a state file; None when there is none. Anything else (bytes that
    are not UTF-8, text that is not JSON, JSON that is not an object, `null` included, a
    file that cannot be read) is a StateError naming the file; the file is left as it is."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except NotADirectoryError as exc:
        raise state_dir_error(path.parent, exc, "read") from None
    except OSError as exc:
        raise StateError(
            _broken(str(path), "(top level)", f"cannot be read ({exc.strerror or exc})")
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StateError(
            _broken(str(path), "(top level)", f"is not UTF-8 at byte {exc.start}")
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(
            _broken(str(path), "(top level)", f"is not JSON ({exc.msg}, line {exc.lineno})")
        ) from None
    except RecursionError:
        raise StateError(
            _broken(str(path), "(top level)", "is not JSON (nested too deeply)")
        ) from None
    if not isinstance(data, dict):
        raise StateError(
            _broken(str(path), "(top level)", f"is not a JSON object (it is {_json_kind(data)})")
        )
    return data


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words: `null`, a list, a string, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list"


def _origin(value: Any) -> tuple[int, int, int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("must be [x, y, z]")
    x, y, z = (_int(v) for v in value)
    return x, y, z


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError(f"expected an integer, got {value!r}")
    return int(value)


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, got {value!r}")
    return float(value)


def _solves(value: Any) -> list[Solve]:
    if not isinstance(value, list):
        raise ValueError("must be a list")
    out = []
    for k, item in enumerate(value):
        try:
            out.append(
                Solve(
                    None if item.get("seed") is None else _int(item["seed"]),
                    _float(item["seconds"]),
                    _int(item["moves"]),
                    _float(item["at"]),
                )
            )
        except KeyError as exc:
            raise ValueError(f"entry {k}: {exc.args[0]} missing") from None
        except (AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"entry {k}: {exc}") from None
    return out


def _daily(value: Any) -> dict[str, dict[str, PlayerRecord]]:
    if not isinstance(value, dict):
        raise ValueError("must be an object of dates")
    out = {}
    for day, records in value.items():
        if not isinstance(day, str) or len(day) != 10:
            raise ValueError(f"{day!r} is not a YYYY-MM-DD date")
        out[day] = records_from_json(records)
    return out


def _locks(value: Any) -> set[int]:
    if not isinstance(value, list):
        raise ValueError("must be a list of tile indices")
    out = {_int(v) for v in value}
    if any(v < 0 for v in out):
        raise ValueError("tile indices are 0 or more")
    return out


def _rotations(value: Any) -> list[int]:
    if not isinstance(value, list) or any(type(v) is not int or not 0 <= v <= 3 for v in value):
        raise ValueError("must be a list of rotations 0..3")
    return list(value)


def _uuids(value: Any) -> set[str]:
    if not isinstance(value, list):
        raise ValueError("must be a list of UUIDs")
    out = set()
    for v in value:
        try:
            out.add(str(uuid.UUID(str(v))))
        except ValueError:
            raise ValueError(f"{v!r} is not a UUID") from None
    return out


def _board(value: Any) -> Board:
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object")
    try:
        return board_from_dict(value)
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]}: missing") from None


def parse_fields(
    data: Any,
    where: str,
    fields: tuple[tuple[str, Any, bool], ...],
    kind: str | None = None,
) -> dict[str, Any]:
    """The parsed fields of a state document (`fields`: key, parser, required), after checking
    its format (and its room `kind`, when given); a StateError names the file and the field."""
    if not isinstance(data, dict):
        raise StateError(_broken(where, "(top level)", "is not a JSON object"))
    if data.get("format") != STATE_FORMAT:
        raise StateError(
            _broken(
                where,
                "format",
                f"is {data.get('format')!r}; this pipesctl reads state format {STATE_FORMAT}",
            )
        )
    if kind is not None and data.get("kind") != kind:
        raise StateError(
            _broken(where, "kind", f"is {data.get('kind', 'pipes')!r}, not a {kind} room's")
        )
    out: dict[str, Any] = {}
    for key, parse, required in fields:
        if key not in data:
            if required:
                raise StateError(_broken(where, key, "is missing"))
            continue
        try:
            out[key] = parse(data[key])
        except (KeyError, TypeError, ValueError) as exc:
            detail = str(exc).strip("'\"") if isinstance(exc, KeyError) else str(exc)
            raise StateError(_broken(where, key, f"is invalid ({detail})")) from None
    return out


_FIELDS: tuple[tuple[str, Any, bool], ...] = (
    ("room", str, True),
    ("board", _board, True),
    ("puzzle_number", _int, False),
    ("moves", _int, False),
    ("started_at", _float, True),
    ("solved_at", lambda v: None if v is None else _float(v), False),
    ("solves", _solves, False),
    ("origin", _origin, False),
    ("dimension", lambda v: None if v is None else str(v), False),
    ("world_format", _int, False),
    ("win_phase", lambda v: None if v is None else str(v), False),
    ("players", records_from_json, False),
    ("daily", lambda v: _daily(v), False),
    ("locks", _locks, False),
    ("told", _uuids, False),
    ("start", lambda v: None if v is None else _rotations(v), False),
)


def _broken(where: str, field: str, problem: str) -> str:
    room = Path(where).stem
    return (
        f"state file {where}: field {field!r} {problem}. The file is kept as it is; "
        f"`pipesctl repair -w {room} --from-world` rebuilds the state from the frames in the "
        f"world, `pipesctl repair -w {room} --reset` archives it and builds a new puzzle"
    )


def state_path(state_dir: Path, room: str) -> Path:
    """Where a room's state lives."""
    return state_dir / f"{room}.json"


def archive_state(
    state_dir: Path, room: str, now: float | None = None, suffix: str = ""
) -> Path | None:
    """Move a room's state into `archive/` (used by `remove` and `repair --reset`); returns
    the new path."""
    src = state_path(state_dir, room)
    if not src.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now or time.time()))
    dst = state_dir / "archive" / f"{room}-{stamp}{suffix}.json"
    with writing_into(state_dir):
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
    return dst
