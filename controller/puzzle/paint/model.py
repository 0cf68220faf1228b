"""Strokes, canvases and the paint puzzle.

A W x H canvas of colours 0 and 1; cell (i, j) is column i (eastwards) of row j (southwards). The
brush of row j (at its east end) paints the whole row 1; the brush of column i (at its south end)
paints the whole column 0. A canvas stores each row as a bit mask: bit i of ``rows[j]`` is cell
(i, j). Canvases are immutable; applying a stroke returns a new canvas.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

__all__ = [
    "MIN_SIZE",
    "MAX_SIZE",
    "ROW",
    "COL",
    "Axis",
    "Stroke",
    "Canvas",
    "PaintPuzzle",
    "check_size",
    "runs",
    "cells_text",
]

MIN_SIZE = 1
MAX_SIZE = 128

Axis = Literal["row", "col"]
ROW: Axis = "row"
COL: Axis = "col"


def check_size(width: object, height: object) -> None:
    """Raise ValueError naming width or height unless both are ints in MIN_SIZE..MAX_SIZE."""
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: must be an integer, got {value!r}")
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise ValueError(f"{name}: must be {MIN_SIZE}..{MAX_SIZE}, got {value}")


class Stroke(NamedTuple):
    """One brush stroke: ``("row", j)`` paints row j with 1, ``("col", i)`` column i with 0.

    As a tuple it is already its JSON form (``["row", 3]``).
    """

    axis: Axis
    number: int

    @classmethod
    def row(cls, j: int) -> Stroke:
        """The stroke of row j's brush."""
        return cls(ROW, j)

    @classmethod
    def col(cls, i: int) -> Stroke:
        """The stroke of column i's brush."""
        return cls(COL, i)

    def __str__(self) -> str:
        return f"{self.axis} {self.number}"


def runs(strokes: Iterable[Stroke]) -> list[tuple[Axis, list[int]]]:
    """Group consecutive strokes of the same axis: ``[("row", [1, 4]), ("col", [0]), ...]``."""
    out: list[tuple[Axis, list[int]]] = []
    for s in strokes:
        if out and out[-1][0] == s.axis:
            out[-1][1].append(s.number)
        else:
            out.append((s.axis, [s.number]))
    return out


def cells_text(cells: Sequence[tuple[int, int]], limit: int = 8) -> str:
    """``3 cells: (0, 1) (2, 1) (4, 0)``, listing at most ``limit`` of them."""
    shown = " ".join(f"({i}, {j})" for i, j in cells[:limit])
    more = " ..." if len(cells) > limit else ""
    return f"{len(cells)} cell{'' if len(cells) == 1 else 's'}: {shown}{more}"


@dataclass(frozen=True, slots=True)
class Canvas:
    """A W x H picture of 0/1 cells, one bit mask per row (bit i of ``rows[j]`` is cell (i, j))."""

    width: int
    height: int
    rows: tuple[int, ...]

    def __post_init__(self) -> None:
        check_size(self.width, self.height)
        if len(self.rows) != self.height:
            raise ValueError(f"rows: must have {self.height} rows, got {len(self.rows)}")
        full = self.full_row
        for j, r in enumerate(self.rows):
            if not 0 <= r <= full:
                raise ValueError(f"rows[{j}]: must be a {self.width}-bit mask, got {r}")

    @classmethod
    def blank(cls, width: int, height: int) -> Canvas:
        """The starting canvas: every cell 0."""
        return cls(width, height, (0,) * height)

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]]) -> Canvas:
        """A canvas from rows of 0/1 (``grid[j][i]``); the grid must be a non-empty rectangle."""
        height = len(grid)
        width = len(grid[0]) if height else 0
        rows = []
        for j, row in enumerate(grid):
            if len(row) != width:
                raise ValueError(f"grid[{j}]: must have {width} cells, got {len(row)}")
            mask = 0
            for i, v in enumerate(row):
                if v not in (0, 1):
                    raise ValueError(f"grid[{j}][{i}]: must be 0 or 1, got {v!r}")
                mask |= v << i
            rows.append(mask)
        return cls(width, height, tuple(rows))

    @classmethod
    def from_cells(cls, width: int, height: int, cells: Iterable[tuple[int, int]]) -> Canvas:
        """A canvas whose cells (i, j) listed are 1 and all others 0."""
        rows = [0] * height
        for i, j in cells:
            rows[j] |= 1 << i
        return cls(width, height, tuple(rows))

    @property
    def full_row(self) -> int:
        """The mask of a row of 1s."""
        return (1 << self.width) - 1

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height

    def __getitem__(self, cell: tuple[int, int]) -> int:
        i, j = cell
        if not (0 <= i < self.width and 0 <= j < self.height):
            raise IndexError(f"cell ({i}, {j}) is outside the {self.width}x{self.height} canvas")
        return self.rows[j] >> i & 1

    def to_grid(self) -> list[list[int]]:
        """Rows of 0/1, ``grid[j][i]`` (the JSON form)."""
        return [[r >> i & 1 for i in range(self.width)] for r in self.rows]

    def ones(self) -> int:
        """How many cells are 1."""
        return sum(r.bit_count() for r in self.rows)

    def check_stroke(self, stroke: Stroke) -> None:
        """Raise ValueError unless the stroke names a brush of this canvas."""
        axis, k = stroke
        limit = self.height if axis == ROW else self.width if axis == COL else -1
        if limit < 0:
            raise ValueError(f"stroke: axis must be 'row' or 'col', got {axis!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < limit:
            raise ValueError(f"stroke: {axis} index must be 0..{limit - 1}, got {k!r}")

    def apply(self, stroke: Stroke) -> Canvas:
        """The canvas after one stroke."""
        self.check_stroke(stroke)
        axis, k = stroke
        rows = list(self.rows)
        if axis == ROW:
            rows[k] = self.full_row
        else:
            keep = ~(1 << k)
            rows = [r & keep for r in rows]
        return Canvas(self.width, self.height, tuple(rows))

    def paint(self, strokes: Iterable[Stroke]) -> Canvas:
        """The canvas after the strokes, in order."""
        canvas = self
        for s in strokes:
            canvas = canvas.apply(s)
        return canvas

    def diff(self, other: Canvas) -> list[tuple[int, int]]:
        """The cells (i, j) where the two canvases differ, row by row."""
        if (self.width, self.height) != (other.width, other.height):
            raise ValueError(
                f"canvas: {other.width}x{other.height} does not match {self.width}x{self.height}"
            )
        out = []
        for j, (a, b) in enumerate(zip(self.rows, other.rows, strict=True)):
            x = a ^ b
            while x:
                low = x & -x
                out.append((low.bit_length() - 1, j))
                x ^= low
        return out

    def flip(self, cells: Iterable[tuple[int, int]]) -> Canvas:
        """The canvas with the listed cells' colours swapped."""
        rows = list(self.rows)
        for i, j in cells:
            rows[j] ^= 1 << i
        return Canvas(self.width, self.height, tuple(rows))


@dataclass(frozen=True)
class PaintPuzzle:
    """A paintable target with its shortest solution from the blank canvas.

    Build one with ``controller.puzzle.paint.solver.puzzle_of`` (it computes solution and par);
    ``solution`` paints ``target`` from the blank canvas in ``par`` strokes, the fewest possible.
    """

    target: Canvas
    solution: tuple[Stroke, ...]
    seed: int | None = None
    generator: str = "custom"
    meta: dict[str, object] = field(default_factory=dict)

    @property
    def width(self) -> int:
        """Canvas width (columns)."""
        return self.target.width

    @property
    def height(self) -> int:
        """Canvas height (rows)."""
        return self.target.height

    @property
    def par(self) -> int:
        """The fewest strokes that paint the target from the blank canvas."""
        return len(self.solution)

    def blank(self) -> Canvas:
        """The canvas a round starts from."""
        return Canvas.blank(self.width, self.height)

    def is_done(self, canvas: Canvas) -> bool:
        """Whether the canvas shows the target."""
        return canvas == self.target
