"""Paint puzzles, canvases and play state to and from JSON (``"kind": "paint"``, format 1).

The object is the CLI's ``puzzle new --kind paint --json`` form plus optional extras::

    {"kind": "paint", "format": 1, "width": W, "height": H, "target": [[0, 1, ...], ...],
     "solution": [["row", 2], ["col", 0], ...], "par": 5, "seed": 3, "generator": "walk",
     "meta": {...}, "canvas": [[...], ...], "state": {...}}

Grids are lists of rows indexed by j, each a list of 0/1 indexed by i. Only ``kind``,
``width``, ``height`` and ``target`` are required. A given ``solution`` must paint the target from
the blank canvas in the fewest strokes, and a given ``par`` must be that number. ``canvas`` is
the picture a room shows now (blank when absent); ``state`` is any JSON object owned by the
runtime, carried through unchanged. Reading raises ValueError whose message starts with the
offending field (``target[2][3]: must be 0 or 1, got 5``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.puzzle.paint.model import COL, ROW, Canvas, PaintPuzzle, Stroke, check_size
from controller.puzzle.paint.solver import conflict, par, solve

__all__ = [
    "FORMAT",
    "KIND",
    "BoardFile",
    "stroke_to_json",
    "puzzle_to_dict",
    "puzzle_to_json",
    "board_from_dict",
    "board_from_json",
    "game_from_dict",
    "game_from_json",
]

FORMAT = 1
KIND = "paint"
_REQUIRED = ("kind", "width", "height", "target")
_OPTIONAL = ("format", "canvas", "solution", "par", "seed", "generator", "meta", "state")


@dataclass(frozen=True)
class BoardFile:
    """What a paint JSON object holds, validated; the target may be unpaintable."""

    target: Canvas
    canvas: Canvas | None = None
    solution: tuple[Stroke, ...] | None = None
    par: int | None = None
    seed: int | None = None
    generator: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None


def stroke_to_json(stroke: Stroke) -> list[object]:
    """``["row", j]`` or ``["col", i]``."""
    return [stroke.axis, stroke.number]


def puzzle_to_dict(
    puzzle: PaintPuzzle, canvas: Canvas | None = None, state: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON-ready object of a puzzle (and the room's canvas and play state when given)."""
    out: dict[str, Any] = {
        "kind": KIND,
        "format": FORMAT,
        "width": puzzle.width,
        "height": puzzle.height,
        "target": puzzle.target.to_grid(),
        "solution": [stroke_to_json(s) for s in puzzle.solution],
        "par": puzzle.par,
        "seed": puzzle.seed,
        "generator": puzzle.generator,
    }
    if puzzle.meta:
        out["meta"] = dict(puzzle.meta)
    if canvas is not None:
        if (canvas.width, canvas.height) != (puzzle.width, puzzle.height):
            raise ValueError("canvas: size differs from the target's")
        out["canvas"] = canvas.to_grid()
    if state is not None:
        out["state"] = dict(state)
    return out


def puzzle_to_json(
    puzzle: PaintPuzzle,
    canvas: Canvas | None = None,
    state: Mapping[str, Any] | None = None,
    *,
    indent: int | None = None,
) -> str:
    """The puzzle (canvas, state) as JSON text; compact unless ``indent`` is given."""
    separators = (",", ":") if indent is None else None
    return json.dumps(
        puzzle_to_dict(puzzle, canvas, state),
        indent=indent,
        separators=separators,
        allow_nan=False,
    )


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _grid(obj: Mapping[str, Any], key: str, width: int, height: int) -> Canvas:
    """A canvas from ``height`` rows of ``width`` 0/1 entries."""
    rows = obj[key]
    if not isinstance(rows, list):
        raise ValueError(f"{key}: must be a list of {height} rows, got {type(rows).__name__}")
    if len(rows) != height:
        raise ValueError(f"{key}: must have {height} rows (height), got {len(rows)}")
    masks = []
    for j, row in enumerate(rows):
        if not isinstance(row, list):
            raise ValueError(f"{key}[{j}]: must be a list, got {type(row).__name__}")
        if len(row) != width:
            raise ValueError(f"{key}[{j}]: must have {width} entries (width), got {len(row)}")
        mask = 0
        for i, v in enumerate(row):
            if not _is_int(v) or v not in (0, 1):
                raise ValueError(f"{key}[{j}][{i}]: must be 0 or 1, got {v!r}")
            mask |= v << i
        masks.append(mask)
    return Canvas(width, height, tuple(masks))


def _strokes(value: object, width: int, height: int) -> tuple[Stroke, ...]:
    """A solution list of ``["row", j]`` / ``["col", i]``."""
    if not isinstance(value, list):
        raise ValueError(f"solution: must be a list of strokes, got {type(value).__name__}")
    out = []
    for k, item in enumerate(value):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or item[0] not in (ROW, COL)
            or not _is_int(item[1])
        ):
            raise ValueError(f'solution[{k}]: must be ["row", j] or ["col", i], got {item!r}')
        limit = height if item[0] == ROW else width
        if not 0 <= item[1] < limit:
            raise ValueError(
                f"solution[{k}]: {item[0]} index must be 0..{limit - 1}, got {item[1]}"
            )
        out.append(Stroke(item[0], item[1]))
    return tuple(out)


def board_from_dict(obj: object) -> BoardFile:
    """The validated content of a paint JSON object; ValueError names the bad field."""
    if not isinstance(obj, dict):
        raise ValueError(f"board: must be a JSON object, got {type(obj).__name__}")
    for key in _REQUIRED:
        if key not in obj:
            raise ValueError(f"{key}: missing")
    if obj["kind"] != KIND:
        raise ValueError(f"kind: must be {KIND!r}, got {obj['kind']!r}")
    unknown = sorted(set(obj) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise ValueError(f"{unknown[0]}: unknown key")
    fmt = obj.get("format", FORMAT)
    if not _is_int(fmt) or fmt != FORMAT:
        raise ValueError(f"format: unsupported version {fmt!r}, expected {FORMAT}")
    width, height = obj["width"], obj["height"]
    check_size(width, height)
    target = _grid(obj, "target", width, height)
    canvas = _grid(obj, "canvas", width, height) if obj.get("canvas") is not None else None
    fewest = par(target)
    solution = None
    if obj.get("solution") is not None:
        solution = _strokes(obj["solution"], width, height)
        painted = Canvas.blank(width, height).paint(solution)
        wrong = painted.diff(target)
        if wrong:
            raise ValueError(
                f"solution: does not paint the target ({len(wrong)} cells differ, "
                f"first target[{wrong[0][1]}][{wrong[0][0]}])"
            )
        if fewest is not None and len(solution) != fewest:
            raise ValueError(
                f"solution: {len(solution)} strokes, but the target needs only {fewest}"
            )
    given_par = obj.get("par")
    if given_par is not None:
        if not _is_int(given_par):
            raise ValueError(f"par: must be an integer, got {given_par!r}")
        if fewest is None:
            raise ValueError(f"par: given, but the target is not paintable: {conflict(target)}")
        if given_par != fewest:
            raise ValueError(f"par: must be {fewest} (the fewest strokes), got {given_par}")
    seed = obj.get("seed")
    if seed is not None and not _is_int(seed):
        raise ValueError(f"seed: must be an integer or null, got {seed!r}")
    generator = obj.get("generator")
    if generator is not None and not isinstance(generator, str):
        raise ValueError(f"generator: must be a string, got {generator!r}")
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        raise ValueError(f"meta: must be an object, got {type(meta).__name__}")
    state = obj.get("state")
    if state is not None and not isinstance(state, dict):
        raise ValueError(f"state: must be an object, got {type(state).__name__}")
    return BoardFile(target, canvas, solution, fewest, seed, generator, dict(meta), state)


def _load(text: str | bytes) -> object:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"board: not valid JSON ({exc})") from None
    except RecursionError:
        raise ValueError("board: not valid JSON (nested too deeply)") from None


def board_from_json(text: str | bytes) -> BoardFile:
    """The validated content of paint JSON text."""
    return board_from_dict(_load(text))


def game_from_dict(obj: object) -> tuple[PaintPuzzle, Canvas, dict[str, Any] | None]:
    """A puzzle, the room's canvas (blank when absent) and its play state, from a JSON object.

    The target must be paintable; the stored solution is kept when there is one.
    """
    board = board_from_dict(obj)
    target = board.target
    strokes = board.solution if board.solution is not None else solve(target)
    if strokes is None:
        raise ValueError(f"target: not paintable: {conflict(target)}")
    puzzle = PaintPuzzle(target, strokes, board.seed, board.generator or "custom", dict(board.meta))
    canvas = puzzle.blank() if board.canvas is None else board.canvas
    return puzzle, canvas, board.state


def game_from_json(text: str | bytes) -> tuple[PaintPuzzle, Canvas, dict[str, Any] | None]:
    """``game_from_dict`` of JSON text (a room's state file)."""
    return game_from_dict(_load(text))
