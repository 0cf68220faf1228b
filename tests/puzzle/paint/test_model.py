"""Canvas and stroke basics against a cell-by-cell grid."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.puzzle.paint.model import Canvas, PaintPuzzle, Stroke, cells_text, runs
from tests.support.paint_oracle import naive_apply


@st.composite
def grids(draw: st.DrawFn, max_side: int = 9) -> list[list[int]]:
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    return [[draw(st.integers(0, 1)) for _ in range(w)] for _ in range(h)]


@given(grids(), st.data())
def test_strokes_match_a_cell_by_cell_grid(grid: list[list[int]], data: st.DataObject) -> None:
    h, w = len(grid), len(grid[0])
    canvas = Canvas.from_grid(grid)
    assert canvas.to_grid() == grid
    for _ in range(data.draw(st.integers(0, 6))):
        axis = data.draw(st.sampled_from(["row", "col"]))
        stroke = Stroke(axis, data.draw(st.integers(0, (h if axis == "row" else w) - 1)))
        grid = naive_apply(grid, stroke)
        canvas = canvas.apply(stroke)
        assert canvas.to_grid() == grid
    assert canvas.ones() == sum(map(sum, grid))
    assert all(canvas[i, j] == grid[j][i] for j in range(h) for i in range(w))


@given(grids())
def test_diff_and_flip(a: list[list[int]]) -> None:
    ca = Canvas.from_grid(a)
    checker = [[v ^ (i + j) % 2 for i, v in enumerate(row)] for j, row in enumerate(a)]
    other = Canvas.from_grid(checker)
    cells = ca.diff(other)
    assert cells == [(i, j) for j in range(len(a)) for i in range(len(a[0])) if (i + j) % 2]
    assert ca.flip(cells) == other and other.flip(cells) == ca
    assert ca.diff(ca) == []


def test_blank_cells_and_indexing() -> None:
    canvas = Canvas.from_cells(4, 3, [(0, 0), (3, 2)])
    assert canvas.rows == (1, 0, 8)
    assert canvas == Canvas.blank(4, 3).flip([(0, 0), (3, 2)])
    with pytest.raises(IndexError):
        canvas[4, 0]


@pytest.mark.parametrize(
    ("stroke", "message"),
    [
        (Stroke("row", 3), "row index must be 0..2"),
        (Stroke("col", -1), "col index must be 0..3"),
        (Stroke("diag", 0), "axis must be 'row' or 'col'"),  # type: ignore[arg-type]
    ],
)
def test_bad_strokes(stroke: Stroke, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Canvas.blank(4, 3).apply(stroke)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Canvas.blank(0, 3), "width: must be 1..128"),
        (lambda: Canvas.blank(3, 129), "height: must be 1..128"),
        (lambda: Canvas(2, 2, (1,)), "rows: must have 2 rows"),
        (lambda: Canvas(2, 2, (1, 4)), "rows\\[1\\]: must be a 2-bit mask"),
        (lambda: Canvas.from_grid([[0, 1], [1]]), "grid\\[1\\]: must have 2 cells"),
        (lambda: Canvas.from_grid([[0, 2]]), "grid\\[0\\]\\[1\\]: must be 0 or 1"),
        (lambda: Canvas.blank(2, 2).diff(Canvas.blank(2, 3)), "canvas: 2x3 does not match"),
    ],
)
def test_bad_canvases(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


def test_runs_and_stroke_text() -> None:
    seq = [Stroke.row(1), Stroke.row(4), Stroke.col(0), Stroke.row(2)]
    assert runs(seq) == [("row", [1, 4]), ("col", [0]), ("row", [2])]
    assert str(Stroke.col(3)) == "col 3"
    assert list(Stroke.row(2)) == ["row", 2]


def test_puzzle_properties() -> None:
    target = Canvas.from_cells(3, 2, [(0, 0)])
    puzzle = PaintPuzzle(target, (Stroke.row(0), Stroke.col(1), Stroke.col(2)), seed=1)
    assert (puzzle.width, puzzle.height, puzzle.par) == (3, 2, 3)
    assert puzzle.blank() == Canvas.blank(3, 2)
    assert puzzle.is_done(puzzle.blank().paint(puzzle.solution))
    assert not puzzle.is_done(puzzle.blank())


def test_cells_text() -> None:
    assert cells_text([(0, 1)]) == "1 cell: (0, 1)"
    cells = [(i, 0) for i in range(10)]
    assert cells_text(cells, limit=2) == "10 cells: (0, 0) (1, 0) ..."
