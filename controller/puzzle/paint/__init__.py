"""The row/column paint puzzle: model, solver, generators and JSON (pure Python).

A room uses it like this::

    puzzle, canvas, state = game_from_json(text)    # or generate(...), or a blank canvas
    canvas = canvas.apply(Stroke.row(3))            # a player pulled row 3's brush
    done = puzzle.is_done(canvas)                   # compare canvas to target
    wrong = puzzle.target.diff(canvas)              # cells still wrong
    tip = hint(puzzle.target, canvas)               # next stroke of a shortest completion
    text = puzzle_to_json(puzzle, canvas, state)    # the state file

See docs/paint.md for the rules and why ``par`` is the fewest strokes.
"""

from __future__ import annotations

from controller.puzzle.paint.generators import GENERATORS, UnpaintableImage, generate
from controller.puzzle.paint.model import COL, MAX_SIZE, MIN_SIZE, ROW, Canvas, PaintPuzzle, Stroke
from controller.puzzle.paint.serialize import (
    board_from_json,
    game_from_json,
    puzzle_to_dict,
    puzzle_to_json,
)
from controller.puzzle.paint.solver import (
    Conflict,
    Unpaintable,
    completion,
    conflict,
    hint,
    is_solvable,
    nearest_solvable,
    par,
    puzzle_of,
    remaining,
    solve,
)

__all__ = [
    "COL",
    "GENERATORS",
    "MAX_SIZE",
    "MIN_SIZE",
    "ROW",
    "Canvas",
    "Conflict",
    "PaintPuzzle",
    "Stroke",
    "Unpaintable",
    "UnpaintableImage",
    "board_from_json",
    "completion",
    "conflict",
    "game_from_json",
    "generate",
    "hint",
    "is_solvable",
    "nearest_solvable",
    "par",
    "puzzle_of",
    "puzzle_to_dict",
    "puzzle_to_json",
    "remaining",
    "solve",
]
