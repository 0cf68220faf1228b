"""Paint-room placement: canvas, target copy, brushes and bounds as docs/world-format.md says."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.world.paint.geometry import Placement, brush_uuid


def test_floor_positions_follow_the_format() -> None:
    p = Placement("art", (10, 64, -20), 6, 4)
    assert p.cell_pos(0, 0) == (10, 63, -20) and p.cell_pos(5, 3) == (15, 63, -17)
    assert p.frame_pos(6, 2) == (16, 64, -18)  # row 2's brush, east of the canvas
    assert p.target_pos(0, 0) == (10, 63, -25)  # above = north, one border row between
    assert p.facing == 1
    assert p.plane_extent() == (-1, -6, 6, 4)
    assert p.bounds() == ((9, 63, -26), (16, 67, -16))


def test_wall_positions_follow_the_format() -> None:
    p = Placement("art", (0, 100, 5), 6, 4, orientation="wall", target="left")
    assert p.cell_pos(0, 0) == (0, 100, 4) and p.cell_pos(5, 3) == (5, 97, 4)
    assert p.frame_pos(2, 4) == (2, 96, 5)  # column 2's brush, under the canvas
    assert p.target_pos(0, 0) == (-7, 100, 4)  # left = west
    assert p.facing == 3
    assert p.bounds() == ((-8, 96, 4), (6, 101, 8))


def test_brushes_are_rows_then_columns_then_clear() -> None:
    p = Placement("art", (0, 64, 0), 3, 2, target="none")
    got = [(b.axis, b.number, b.i, b.j) for b in p.brushes()]
    assert got == [
        ("row", 0, 3, 0), ("row", 1, 3, 1),
        ("col", 0, 0, 2), ("col", 1, 1, 2), ("col", 2, 2, 2),
        ("clear", -1, 3, 2),
    ]  # fmt: skip
    assert [b.describe() for b in p.brushes()][::2] == ["row 1", "column 1", "column 3"]
    with pytest.raises(ValueError, match="no target copy"):
        p.target_pos(0, 0)


def test_brush_uuids_are_deterministic_and_distinct() -> None:
    ids = {brush_uuid("art", i, j) for i in range(8) for j in range(8)}
    assert len(ids) == 64 and brush_uuid("art", 1, 2) == brush_uuid("art", 1, 2)
    assert brush_uuid("art", 1, 2) != brush_uuid("other", 1, 2)


@given(
    st.integers(1, 20),
    st.integers(1, 20),
    st.sampled_from(["floor", "wall"]),
    st.sampled_from(["above", "left", "none"]),
)
def test_everything_lies_inside_the_bounds_and_nothing_overlaps(
    w: int, h: int, orientation: str, target: str
) -> None:
    p = Placement("art", (0, 64, 0), w, h, orientation=orientation, target=target)  # type: ignore[arg-type]
    (xa, ya, za), (xb, yb, zb) = p.bounds()

    def inside(pos: tuple[int, int, int]) -> bool:
        return xa <= pos[0] <= xb and ya <= pos[1] <= yb and za <= pos[2] <= zb

    cells = [p.cell_pos(i, j) for i, j in p.cells()]
    targets = [p.target_pos(i, j) for i, j in p.cells()] if target != "none" else []
    frames = [p.frame_pos(b.i, b.j) for b in p.brushes()]
    assert all(inside(c) for c in cells + targets + frames)
    assert len(set(cells + targets + frames)) == len(cells) + len(targets) + len(frames)
    # Every brush hangs on the border, in front of the plane, never in front of a cell.
    assert not set(frames) & {p.frame_pos(i, j) for i, j in p.cells()}
