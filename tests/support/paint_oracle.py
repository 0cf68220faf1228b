"""Brute-force oracles for the paint puzzle: canvases as W*H-bit integers, BFS over strokes."""

from __future__ import annotations

from collections import deque

from controller.puzzle.paint.model import Canvas, Stroke

__all__ = ["to_int", "from_int", "moves", "bfs", "distance", "classic_reverse", "naive_apply"]


def to_int(canvas: Canvas) -> int:
    """Cell (i, j) as bit ``j * width + i``."""
    return sum(r << (j * canvas.width) for j, r in enumerate(canvas.rows))


def from_int(width: int, height: int, value: int) -> Canvas:
    """The inverse of ``to_int``."""
    full = (1 << width) - 1
    return Canvas(width, height, tuple(value >> (j * width) & full for j in range(height)))


def moves(width: int, height: int) -> list[tuple[Stroke, int, int]]:
    """Each stroke with the masks it ORs in and ANDs with."""
    every = (1 << (width * height)) - 1
    out = []
    for j in range(height):
        out.append((Stroke.row(j), ((1 << width) - 1) << (j * width), every))
    for i in range(width):
        column = sum(1 << (j * width + i) for j in range(height))
        out.append((Stroke.col(i), 0, every & ~column))
    return out


def bfs(width: int, height: int, start: int = 0, depth: int | None = None) -> dict[int, int]:
    """Fewest strokes from ``start`` to every canvas reachable (within ``depth`` if given)."""
    table = moves(width, height)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        d = dist[c]
        if depth is not None and d >= depth:
            continue
        for _, add, keep in table:
            n = (c | add) & keep
            if n not in dist:
                dist[n] = d + 1
                queue.append(n)
    return dist


def distance(width: int, height: int, start: int, goal: int) -> int | None:
    """Fewest strokes from one canvas to another, or None."""
    return bfs(width, height, start).get(goal)


def naive_apply(grid: list[list[int]], stroke: Stroke) -> list[list[int]]:
    """A stroke on a list-of-rows grid, cell by cell."""
    out = [row[:] for row in grid]
    for j, row in enumerate(out):
        for i in range(len(row)):
            if stroke.axis == "row" and j == stroke.number:
                row[i] = 1
            elif stroke.axis == "col" and i == stroke.number:
                row[i] = 0
    return out


def classic_reverse(grid: list[list[int]]) -> list[Stroke] | None:
    """The known backwards method, literally: mark lines "any" until all is "any" (or stuck).

    A row may be peeled when all its cells are 1 or any (not all any), a column when all are 0
    or any (not all any). The peeled lines reversed are a solution; leading column strokes,
    which repaint 0 over the blank canvas, are dropped.
    """
    h, w = len(grid), len(grid[0])
    cells: list[list[int | None]] = [list(row) for row in grid]
    peeled: list[Stroke] = []
    while any(v is not None for row in cells for v in row):
        for j in range(h):
            row = cells[j]
            if all(v in (1, None) for v in row) and any(v is not None for v in row):
                cells[j] = [None] * w
                peeled.append(Stroke.row(j))
                break
        else:
            for i in range(w):
                col = [cells[j][i] for j in range(h)]
                if all(v in (0, None) for v in col) and any(v is not None for v in col):
                    for j in range(h):
                        cells[j][i] = None
                    peeled.append(Stroke.col(i))
                    break
            else:
                return None
    forward = peeled[::-1]
    while forward and forward[0].axis == "col":
        forward.pop(0)
    return forward
