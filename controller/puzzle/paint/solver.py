"""Solving paint targets: solvability, exact par, shortest completions, hints, nearest target.

The argument (docs/paint.md has it at length). Only the last stroke of each line matters, so a
stroke sequence is a set of lines and an order between them. From a canvas C to a target T:

* a cell going 0 -> 1 needs its row stroked (only rows paint 1), a cell going 1 -> 0 its column;
* a stroked row j needs every column i with T[j][i] = 0 stroked after it, and a stroked column i
  needs every row j with T[j][i] = 1 stroked after it.

Every completion therefore strokes the closure K of the first lines under the second rule, and K
is enough: keeping only K's lines, in the same order, leaves every cell right (a cell on a K-row
only is 1 in T, on a K-column only 0, on neither line already right). A row and a column of K
must be ordered as T says at their crossing; the order exists iff that bipartite precedence has
no cycle, and it is found backwards (the last stroke is a K-row that is all 1 on the remaining
K-columns, or a K-column all 0 on the remaining K-rows). So the shortest completion has exactly
|K| strokes; ``remaining`` is |K| and ``hint`` its first stroke.

From the blank canvas K is the rows holding a 1 plus the columns with a 0 in such a row, and the
order exists iff the rows' sets of 1-cells are nested (two rows that are not nested give a square
``1 0 / 0 1`` no order can paint). Hence ``par = rows with a 1 + W - |smallest non-empty row|``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from controller.puzzle.paint.model import COL, ROW, Axis, Canvas, PaintPuzzle, Stroke

__all__ = [
    "Conflict",
    "Unpaintable",
    "is_solvable",
    "conflict",
    "par",
    "solve",
    "completion",
    "remaining",
    "hint",
    "nearest_solvable",
    "puzzle_of",
]


class Unpaintable(ValueError):
    """No stroke sequence turns the canvas into the target."""


class Conflict(NamedTuple):
    """Two rows and two columns whose crossings read ``1 0 / 0 1``: no stroke order paints them.

    ``ones`` are the cells (i, j) that are 1, ``zeros`` those that are 0.
    """

    ones: tuple[tuple[int, int], tuple[int, int]]
    zeros: tuple[tuple[int, int], tuple[int, int]]

    def __str__(self) -> str:
        (a, b), (c, d) = self.ones, self.zeros
        return f"cells {a} and {b} are 1 but {c} and {d} are 0"


def _bits(mask: int) -> list[int]:
    """The indices of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _by_count(target: Canvas) -> list[int]:
    """Indices of the non-empty rows, fewest 1s first (then by index)."""
    rows = target.rows
    return sorted((j for j in range(target.height) if rows[j]), key=lambda j: rows[j].bit_count())


def conflict(target: Canvas) -> Conflict | None:
    """A square no order paints, or None when the target is paintable from the blank canvas."""
    rows = target.rows
    order = _by_count(target)
    for ja, jb in zip(order, order[1:], strict=False):
        extra = rows[ja] & ~rows[jb]
        if extra:
            i1 = _bits(extra)[0]
            i2 = _bits(rows[jb] & ~rows[ja])[0]
            return Conflict(ones=((i1, ja), (i2, jb)), zeros=((i2, ja), (i1, jb)))
    return None


def is_solvable(target: Canvas) -> bool:
    """Whether some stroke sequence paints the target from the blank canvas."""
    return conflict(target) is None


def par(target: Canvas) -> int | None:
    """The fewest strokes painting the target from the blank canvas (None if none does)."""
    order = _by_count(target)
    if not order:
        return 0
    if conflict(target) is not None:
        return None
    return len(order) + target.width - target.rows[order[0]].bit_count()


def _needed(target: Canvas, canvas: Canvas) -> tuple[int, int]:
    """The closure K as (row mask over j, column mask over i)."""
    full = target.full_row
    trow, crow = target.rows, canvas.rows
    krows = 0
    kcols = 0
    for j in range(target.height):
        if trow[j] & ~crow[j]:
            krows |= 1 << j
        kcols |= crow[j] & ~trow[j]
    while True:
        cols = kcols
        for j in _bits(krows):
            cols |= full & ~trow[j]
        rows = krows
        for j in range(target.height):
            if trow[j] & cols:
                rows |= 1 << j
        if (rows, cols) == (krows, kcols):
            return krows, kcols
        krows, kcols = rows, cols


def _order(target: Canvas, krows: int, kcols: int) -> tuple[Stroke, ...] | None:
    """K's lines in a working order (runs of rows and columns, each by index), or None."""
    trow = target.rows
    rem_rows = _bits(krows)
    rem_cols = kcols
    layers: list[tuple[Axis, list[int]]] = []
    while rem_rows or rem_cols:
        last = [j for j in rem_rows if not rem_cols & ~trow[j]]
        if last:
            layers.append((ROW, last))
            rem_rows = [j for j in rem_rows if rem_cols & ~trow[j]]
            continue
        union = 0
        for j in rem_rows:
            union |= trow[j]
        cols = rem_cols & ~union
        if not cols:
            return None
        layers.append((COL, _bits(cols)))
        rem_cols &= union
    return tuple(Stroke(axis, k) for axis, ks in reversed(layers) for k in ks)


def _check_pair(target: Canvas, canvas: Canvas) -> None:
    """Raise ValueError naming the canvas unless it has the target's size."""
    if (canvas.width, canvas.height) != (target.width, target.height):
        raise ValueError(
            f"canvas: {canvas.width}x{canvas.height} does not match the "
            f"{target.width}x{target.height} target"
        )


def completion(target: Canvas, canvas: Canvas | None = None) -> tuple[Stroke, ...] | None:
    """A shortest stroke sequence from the canvas (default blank) to the target, or None.

    It is ordered in runs of rows and runs of columns, each run by index. Every shortest
    completion strokes these lines with the same runs; only the order inside a run is free.
    """
    if canvas is None:
        canvas = Canvas.blank(target.width, target.height)
    _check_pair(target, canvas)
    return _order(target, *_needed(target, canvas))


def solve(target: Canvas) -> tuple[Stroke, ...] | None:
    """A shortest solution from the blank canvas (``par`` strokes), or None if unpaintable."""
    return completion(target)


def remaining(target: Canvas, canvas: Canvas) -> int | None:
    """The fewest strokes still needed from the canvas, or None when the target is unreachable."""
    strokes = completion(target, canvas)
    return None if strokes is None else len(strokes)


def hint(target: Canvas, canvas: Canvas) -> Stroke | None:
    """The next stroke of a shortest completion; None when the canvas shows the target.

    Raises Unpaintable when no completion exists (never for a paintable target: stroking every
    column clears any canvas back to blank).
    """
    strokes = completion(target, canvas)
    if strokes is None:
        raise Unpaintable("target: cannot be painted from this canvas")
    return strokes[0] if strokes else None


# --- nearest paintable target ---------------------------------------------------------------


def _fit(rows: list[int], order: list[int]) -> tuple[int, list[int]]:
    """Each row replaced by its cheapest prefix of ``order``: (cells flipped, new rows)."""
    cost = 0
    out = []
    for r in rows:
        tot = r.bit_count()
        best, best_k, pref = tot, 0, 0
        for k, i in enumerate(order, 1):
            pref += r >> i & 1
            c = k + tot - 2 * pref
            if c < best:
                best, best_k = c, k
        cost += best
        mask = 0
        for i in order[:best_k]:
            mask |= 1 << i
        out.append(mask)
    return cost, out


def _tables(rows: list[int], order: list[int]) -> list[tuple[list[int], list[int], list[int]]]:
    """Per row: the flips of keeping each prefix length k of the order, their prefix minima and
    their suffix minima."""
    n = len(order)
    out = []
    for r in rows:
        tot = r.bit_count()
        cost = [tot] * (n + 1)
        pref = 0
        for k, i in enumerate(order, 1):
            pref += r >> i & 1
            cost[k] = k + tot - 2 * pref
        pm = cost[:]
        for k in range(1, n + 1):
            pm[k] = min(pm[k - 1], cost[k])
        sm = cost[:]
        for k in range(n - 1, -1, -1):
            sm[k] = min(sm[k + 1], cost[k])
        out.append((cost, pm, sm))
    return out


def _improve(rows: list[int], order: list[int], passes: int) -> list[int]:
    """Swap neighbouring columns of the order while that lowers the flips (a few sweeps)."""
    order = order[:]
    tables = _tables(rows, order)
    for _ in range(passes):
        better = False
        for a in range(len(order) - 1):
            # swapping positions a and a + 1 changes only the prefix of length a + 1
            ib = order[a + 1]
            delta = 0
            for r, (cost, pm, sm) in zip(rows, tables, strict=True):
                swapped = cost[a] + 1 - 2 * (r >> ib & 1)
                delta += min(pm[a], sm[a + 2], swapped) - pm[-1]
            if delta < 0:
                order[a], order[a + 1] = ib, order[a]
                tables = _tables(rows, order)
                better = True
        if not better:
            break
    return order


def _transpose(rows: list[int], width: int, height: int) -> list[int]:
    """Column masks over j from row masks over i."""
    cols = [0] * width
    for j, r in enumerate(rows):
        for i in _bits(r):
            cols[i] |= 1 << j
    return cols


def _nearest_rows(rows: list[int], width: int, passes: int) -> tuple[int, list[int]]:
    """Best prefix fit of the rows over a column order by column counts, then improved."""
    counts = [0] * width
    for r in rows:
        for i in _bits(r):
            counts[i] += 1
    order = sorted(range(width), key=lambda i: (-counts[i], i))
    if passes:
        order = _improve(rows, order, passes)
    return _fit(rows, order)


def nearest_solvable(target: Canvas, *, passes: int = 2) -> Canvas:
    """A paintable target close to this one (few cells flipped); the target itself if paintable.

    A target is paintable iff some column order makes every row a prefix of it. For a fixed
    order each row's cheapest prefix is independent, so the order is what is searched: columns
    by their count of 1s, then up to ``passes`` sweeps of swaps of neighbouring columns that
    lower the flips. The same is done on the transpose (columns as prefixes of a row order) and
    the better kept. This is a heuristic: finding the fewest flips is NP-hard in general.
    """
    w, h = target.width, target.height
    if is_solvable(target):
        return target
    rows = list(target.rows)
    cost_r, fit_r = _nearest_rows(rows, w, passes)
    cost_c, fit_c = _nearest_rows(_transpose(rows, w, h), h, passes)
    if cost_c < cost_r:
        fit_r = _transpose(fit_c, h, w)
    return Canvas(w, h, tuple(fit_r))


def puzzle_of(
    target: Canvas,
    *,
    seed: int | None = None,
    generator: str = "custom",
    meta: Mapping[str, object] | None = None,
) -> PaintPuzzle:
    """The puzzle of a paintable target (its shortest solution); ValueError names a conflict."""
    strokes = solve(target)
    if strokes is None:
        raise Unpaintable(f"target: not paintable: {conflict(target)}")
    return PaintPuzzle(target, strokes, seed, generator, dict(meta or {}))
