"""A board and its optional play state to and from JSON (versioned, ``"format": 1``).

The JSON object is the CLI's ``--json`` form plus a version and optional extras::

    {"format": 1, "width": W, "height": H, "source": [i, j],
     "shapes": [["tee", ...], ...], "rotations": [[0, ...], ...], "solution": [[...], ...],
     "seed": 7, "generator": "prim", "meta": {...}, "state": {...}}

Grids are lists of rows indexed by j, each row a list indexed by i; shapes are the names
``end``, ``straight``, ``tee``, ``corner``. ``format`` (default 1), ``meta`` and ``state`` are
optional on input. A sink-mode board (docs/puzzle.md) adds ``"mode": "sink"``, ``"sink": [i, j]``
and ``"fixed": [[i, j], ...]`` (the tiles that cannot be turned); tree boards are written without
them, and ``"mode": "tree"`` and ``"difficulty"`` (as ``pipesctl puzzle new --json`` prints
them) are accepted on input. Reading validates strictly and raises ``ValueError`` whose message
starts with the offending field (``shapes[2][0]: unknown shape 'cross'``). The play state is any
JSON object owned by the runtime (moves, clicks, times, ...); it is carried through unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from controller.puzzle.model import MAX_SIZE, MIN_SIZE, SHAPE_WORDS, Board, mask_of

__all__ = [
    "FORMAT",
    "SHAPE_NAMES",
    "board_to_dict",
    "board_text",
    "RowTexts",
    "board_from_dict",
    "board_to_json",
    "board_from_json",
    "game_from_json",
    "check_solution",
    "check_sink_solution",
]

FORMAT = 1
SHAPE_NAMES: tuple[str, ...] = SHAPE_WORDS
_SHAPE_INDEX = {name: k for k, name in enumerate(SHAPE_NAMES)}
_KEYS = ("width", "height", "source", "shapes", "rotations", "solution", "seed", "generator")
_OPTIONAL = ("format", "meta", "state", "mode", "sink", "fixed", "difficulty")
_LEVELS = ("easy", "normal", "hard", "expert")


def _rows(flat: list[int], width: int) -> list[list[int]]:
    """Split a flat list into rows of ``width``."""
    return [flat[k : k + width] for k in range(0, len(flat), width)]


class _Grid(NamedTuple):
    """A board grid as it is written: a flat list split into rows, each value through `names`
    when given."""

    flat: Sequence[int]
    width: int
    names: tuple[str, ...] | None = None

    def rows(self) -> list[list[Any]]:
        names = self.names
        rows = _rows(list(self.flat), self.width)
        return rows if names is None else [[names[v] for v in row] for row in rows]


def _board_items(board: Board) -> list[tuple[str, Any]]:
    """The board's JSON object as (key, value) pairs in order, its grids unsplit."""
    w = board.width
    items: list[tuple[str, Any]] = [
        ("format", FORMAT),
        ("width", board.width),
        ("height", board.height),
        ("source", [board.source[0], board.source[1]]),
        ("shapes", _Grid(board.shapes, w, SHAPE_NAMES)),
        ("rotations", _Grid(board.rotations, w)),
        ("solution", _Grid(board.solution, w)),
        ("seed", board.seed),
        ("generator", board.generator),
    ]
    if board.meta:
        items.append(("meta", dict(board.meta)))
    if board.mode == "sink" and board.sink is not None:
        items.append(("mode", "sink"))
        items.append(("sink", [board.sink[0], board.sink[1]]))
        items.append(("fixed", [list(board.coords(t)) for t in sorted(board.fixed)]))
    return items


def board_to_dict(board: Board, state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready object of a board (and its play state when given)."""
    out: dict[str, Any] = {
        key: value.rows() if isinstance(value, _Grid) else value
        for key, value in _board_items(board)
    }
    if state is not None:
        out["state"] = dict(state)
    return out


class RowTexts:
    """Encoded JSON of the rows of boards' grids, each kept while its row stays equal: a state
    saved after every move encodes again only the rows the move changed, not every tile of a
    128×128 board (`board_text`)."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, int], tuple[list[int], str]] = {}
        self._flat: dict[str, tuple[list[int], str]] = {}

    def grid(self, name: str, grid: _Grid) -> str:
        """The grid's JSON text (a list of rows)."""
        flat, w, names = grid.flat, grid.width, grid.names
        out = []
        for j, k in enumerate(range(0, len(flat), w)):
            row = list(flat[k : k + w])
            known = self._rows.get((name, j))
            if known is None or known[0] != row:
                values = row if names is None else [names[v] for v in row]
                known = self._rows[(name, j)] = (row, _compact(values))
            out.append(known[1])
        return "[" + ",".join(out) + "]"

    def flat(self, name: str, values: Sequence[int] | None) -> str:
        """A flat list's JSON text (None: `null`), kept while the list stays equal."""
        if values is None:
            return "null"
        copy = list(values)
        known = self._flat.get(name)
        if known is None or known[0] != copy:
            known = self._flat[name] = (copy, _compact(copy))
        return known[1]


def board_text(board: Board, rows: RowTexts) -> str:
    """`board_to_dict(board)` as compact JSON text (the same text `json.dumps` with separators
    `,` and `:` gives), its grids' rows from `rows`."""
    parts = [
        f"{_compact(key)}:{rows.grid(key, value) if isinstance(value, _Grid) else _compact(value)}"
        for key, value in _board_items(board)
    ]
    return "{" + ",".join(parts) + "}"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def board_to_json(
    board: Board, state: Mapping[str, Any] | None = None, *, indent: int | None = None
) -> str:
    """The board (and play state) as JSON text; compact unless ``indent`` is given."""
    separators = (",", ":") if indent is None else None
    return json.dumps(
        board_to_dict(board, state), indent=indent, separators=separators, allow_nan=False
    )


def _is_int(v: object) -> bool:
    """An int that is not a bool."""
    return isinstance(v, int) and not isinstance(v, bool)


def _grid(obj: Mapping[str, Any], key: str, width: int, height: int) -> list[Any]:
    """Flatten a list of ``height`` rows of ``width`` entries, checking the lengths."""
    rows = obj[key]
    if not isinstance(rows, list):
        raise ValueError(f"{key}: must be a list of {height} rows, got {type(rows).__name__}")
    if len(rows) != height:
        raise ValueError(f"{key}: must have {height} rows (height), got {len(rows)}")
    flat: list[Any] = []
    for j, row in enumerate(rows):
        if not isinstance(row, list):
            raise ValueError(f"{key}[{j}]: must be a list, got {type(row).__name__}")
        if len(row) != width:
            raise ValueError(f"{key}[{j}]: must have {width} entries (width), got {len(row)}")
        flat.extend(row)
    return flat


def _rotations(obj: Mapping[str, Any], key: str, width: int, height: int) -> list[int]:
    """A grid of rotations 0..3."""
    flat = _grid(obj, key, width, height)
    for k, v in enumerate(flat):
        if not _is_int(v) or not 0 <= v <= 3:
            raise ValueError(
                f"{key}[{k // width}][{k % width}]: must be a rotation 0..3, got {v!r}"
            )
    return flat


def check_solution(board: Board) -> None:
    """Raise ValueError unless the board's solution is a spanning tree of its tiles."""
    w, n = board.width, board.size
    masks = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for t in range(n):
        i, j = t % w, t // w
        for d in range(4):
            if not masks[t] >> d & 1:
                continue
            u = board.neighbour(t, d)
            word = ("north", "east", "south", "west")[d]
            if u < 0:
                raise ValueError(f"solution[{j}][{i}]: arm {word} leaves the board")
            if not masks[u] >> ((d + 2) & 3) & 1:
                raise ValueError(f"solution[{j}][{i}]: arm {word} meets no arm")
            if u > t:
                ru, rt = find(u), find(t)
                if ru == rt:
                    raise ValueError(f"solution[{j}][{i}]: arm {word} closes a loop")
                parent[ru] = rt
    root = find(board.source_index)
    for t in range(n):
        if find(t) != root:
            raise ValueError(f"solution[{t // w}][{t % w}]: not connected to the source")


def check_sink_solution(board: Board) -> None:
    """Raise ValueError unless the solution brings water to the sink without turning a fixed
    tile."""
    from controller.puzzle.flow import sink_reached

    for t in sorted(board.fixed):
        if board.rotations[t] != board.solution[t]:
            i, j = board.coords(t)
            raise ValueError(f"solution[{j}][{i}]: turns a fixed tile")
    masks = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    if not sink_reached(board, masks):
        raise ValueError("solution: does not bring water to the sink")


def _tile(value: object, key: str, width: int, height: int) -> tuple[int, int]:
    """An [i, j] pair inside the board."""
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise ValueError(f"{key}: must be [i, j] integers, got {value!r}")
    if not (0 <= value[0] < width and 0 <= value[1] < height):
        raise ValueError(f"{key}: {value} is outside the {width}x{height} board")
    return value[0], value[1]


def _sink_fields(
    obj: Mapping[str, Any], width: int, height: int, source: tuple[int, int]
) -> tuple[str, tuple[int, int] | None, frozenset[int]]:
    """The mode, sink and fixed tiles of a board object (tree: no sink, nothing fixed)."""
    mode = obj.get("mode", "tree")
    if mode not in ("tree", "sink"):
        raise ValueError(f"mode: must be tree or sink, got {mode!r}")
    level = obj.get("difficulty", "normal")
    if level not in _LEVELS:
        raise ValueError(f"difficulty: must be one of {', '.join(_LEVELS)}, got {level!r}")
    if mode == "tree":
        for key in ("sink", "fixed"):
            if key in obj:
                raise ValueError(f"{key}: only sink-mode boards have one")
        return mode, None, frozenset()
    if "sink" not in obj:
        raise ValueError("sink: missing (a sink-mode board needs one)")
    sink = _tile(obj["sink"], "sink", width, height)
    if sink == source:
        raise ValueError("sink: must differ from the source")
    raw = obj.get("fixed", [list(source), list(sink)])
    if not isinstance(raw, list):
        raise ValueError(f"fixed: must be a list of [i, j], got {type(raw).__name__}")
    fixed = set()
    for k, item in enumerate(raw):
        i, j = _tile(item, f"fixed[{k}]", width, height)
        fixed.add(j * width + i)
    return mode, sink, frozenset(fixed)


def board_from_dict(obj: object, *, strict_solution: bool = True) -> Board:
    """A Board from its JSON object, validated strictly; ValueError names the bad field.

    With ``strict_solution`` the solution must also be a spanning tree (every arm meets an arm,
    no loop, all tiles connected), as every generated board's is.
    """
    if not isinstance(obj, dict):
        raise ValueError(f"board: must be a JSON object, got {type(obj).__name__}")
    for key in _KEYS:
        if key not in obj:
            raise ValueError(f"{key}: missing")
    unknown = sorted(set(obj) - set(_KEYS) - set(_OPTIONAL))
    if unknown:
        raise ValueError(f"{unknown[0]}: unknown key")
    fmt = obj.get("format", FORMAT)
    if not _is_int(fmt) or fmt != FORMAT:
        raise ValueError(f"format: unsupported version {fmt!r}, expected {FORMAT}")
    width, height = obj["width"], obj["height"]
    for key, v in (("width", width), ("height", height)):
        if not _is_int(v):
            raise ValueError(f"{key}: must be an integer, got {v!r}")
        if not MIN_SIZE <= v <= MAX_SIZE:
            raise ValueError(f"{key}: must be {MIN_SIZE}..{MAX_SIZE}, got {v}")
    src = obj["source"]
    if not isinstance(src, list) or len(src) != 2 or not all(_is_int(v) for v in src):
        raise ValueError(f"source: must be [i, j] integers, got {src!r}")
    if not (0 <= src[0] < width and 0 <= src[1] < height):
        raise ValueError(f"source: {src} is outside the {width}x{height} board")
    names = _grid(obj, "shapes", width, height)
    sink_mode = obj.get("mode") == "sink"
    allowed = SHAPE_NAMES if sink_mode else SHAPE_NAMES[:4]
    shapes: list[int] = []
    for k, name in enumerate(names):
        if not isinstance(name, str) or name not in allowed:
            known = ", ".join(allowed)
            more = "" if sink_mode else " (cross and hole need mode sink)"
            raise ValueError(
                f"shapes[{k // width}][{k % width}]: unknown shape {name!r}, "
                f"expected one of {known}{more}"
            )
        shapes.append(_SHAPE_INDEX[name])
    rotations = _rotations(obj, "rotations", width, height)
    solution = _rotations(obj, "solution", width, height)
    seed = obj["seed"]
    if seed is not None and not _is_int(seed):
        raise ValueError(f"seed: must be an integer or null, got {seed!r}")
    generator = obj["generator"]
    if not isinstance(generator, str):
        raise ValueError(f"generator: must be a string, got {generator!r}")
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        raise ValueError(f"meta: must be an object, got {type(meta).__name__}")
    if "state" in obj and obj["state"] is not None and not isinstance(obj["state"], dict):
        raise ValueError(f"state: must be an object, got {type(obj['state']).__name__}")
    source = (src[0], src[1])
    mode, sink, fixed = _sink_fields(obj, width, height, source)
    board = Board(
        width,
        height,
        source,
        shapes,
        rotations,
        solution,
        seed,
        generator,
        dict(meta),
        mode=mode,
        sink=sink,
        fixed=fixed,
    )
    if strict_solution:
        if mode == "sink":
            check_sink_solution(board)
        else:
            check_solution(board)
    return board


def _load(text: str | bytes) -> object:
    """Parse JSON text, turning decoder errors into a ValueError naming the board."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"board: not valid JSON ({exc})") from None
    except RecursionError:
        raise ValueError("board: not valid JSON (nested too deeply)") from None


def board_from_json(text: str | bytes, *, strict_solution: bool = True) -> Board:
    """A Board from JSON text (any play state in it is ignored)."""
    return board_from_dict(_load(text), strict_solution=strict_solution)


def game_from_json(
    text: str | bytes, *, strict_solution: bool = True
) -> tuple[Board, dict[str, Any] | None]:
    """A Board and its play state (None when absent) from JSON text."""
    obj = _load(text)
    board = board_from_dict(obj, strict_solution=strict_solution)
    assert isinstance(obj, dict)
    state = obj.get("state")
    return board, (dict(state) if isinstance(state, dict) else None)
