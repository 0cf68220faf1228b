"""Where a paint room's canvas, target and brush frames are (docs/world-format.md, "Paint
rooms", pure).

Everything is placed in *plane coordinates* (i, j): column i grows east, row j grows south on a
floor and downwards on a wall. Cell (i, j) of the canvas is plane (i, j) for 0 <= i < W,
0 <= j < H; the brush of row j hangs in front of plane (W, j), the brush of column i in front of
plane (i, H), the clear frame in front of plane (W, H).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from controller.world.geometry import FRAME_NAMESPACE, Pos

__all__ = [
    "Orientation",
    "TargetSide",
    "Brush",
    "Placement",
    "brush_uuid",
    "FACING",
    "BORDER_BLOCK",
]

Orientation = Literal["floor", "wall"]
TargetSide = Literal["above", "left", "none"]

# Item frame `Facing` values: up on a floor, south on a wall (the canvas faces south).
FACING: dict[str, int] = {"floor": 1, "wall": 3}
BORDER_BLOCK = "minecraft:oak_log"


def brush_uuid(room: str, i: int, j: int) -> uuid.UUID:
    """The deterministic UUID of the brush frame at plane (i, j) of a paint room."""
    return uuid.uuid5(FRAME_NAMESPACE, f"paint:{room}:{i}:{j}")


@dataclass(frozen=True)
class Brush:
    """One brush frame: `axis` "row" or "col" with its line, or "clear" (number -1)."""

    axis: Literal["row", "col", "clear"]
    number: int
    i: int
    j: int

    def describe(self) -> str:
        """`row 3`, `column 5` (numbered from 1, as players read them) or `clear`."""
        if self.axis == "clear":
            return "clear"
        return f"{'row' if self.axis == 'row' else 'column'} {self.number + 1}"


@dataclass(frozen=True)
class Placement:
    """A paint room's placement: name, origin (in front of canvas cell (0, 0)), size, look."""

    name: str
    origin: Pos
    width: int
    height: int
    dimension: str = "minecraft:overworld"
    orientation: Orientation = "floor"
    target: TargetSide = "above"
    clear_above: int = 3

    @property
    def x0(self) -> int:
        """West edge x of the canvas."""
        return self.origin[0]

    @property
    def y0(self) -> int:
        """The frames' height (floor) or the top row's frame height (wall)."""
        return self.origin[1]

    @property
    def z0(self) -> int:
        """North edge z of the canvas (floor) or the frames' z (wall)."""
        return self.origin[2]

    @property
    def facing(self) -> int:
        """The brush frames' `Facing`."""
        return FACING[self.orientation]

    def plane(self, i: int, j: int) -> Pos:
        """The block at plane (i, j): the canvas, target and border lie in this plane."""
        if self.orientation == "floor":
            return self.x0 + i, self.y0 - 1, self.z0 + j
        return self.x0 + i, self.y0 - j, self.z0 - 1

    def frame_pos(self, i: int, j: int) -> Pos:
        """The block in front of plane (i, j), where a frame on it hangs."""
        if self.orientation == "floor":
            return self.x0 + i, self.y0, self.z0 + j
        return self.x0 + i, self.y0 - j, self.z0

    def cell_pos(self, i: int, j: int) -> Pos:
        """Canvas cell (i, j)."""
        return self.plane(i, j)

    @property
    def target_offset(self) -> tuple[int, int] | None:
        """Where the target copy starts, relative to the canvas (None: no copy)."""
        if self.target == "above":
            return 0, -(self.height + 1)
        if self.target == "left":
            return -(self.width + 1), 0
        return None

    def target_pos(self, i: int, j: int) -> Pos:
        """Target cell (i, j) of the block copy beside the canvas."""
        offset = self.target_offset
        if offset is None:
            raise ValueError(f"room {self.name} shows no target copy")
        return self.plane(i + offset[0], j + offset[1])

    def plane_extent(self) -> tuple[int, int, int, int]:
        """(i0, j0, i1, j1): the plane rectangle of canvas, target and border, inclusive."""
        offset = self.target_offset or (0, 0)
        i0 = min(0, offset[0]) - 1
        j0 = min(0, offset[1]) - 1
        return i0, j0, self.width, self.height

    def plane_box(self, i0: int, j0: int, i1: int, j1: int) -> tuple[Pos, Pos]:
        """The world box of a plane rectangle."""
        return self.plane(i0, j0), self.plane(i1, j1)

    def front_box(self) -> tuple[Pos, Pos]:
        """The air in front of the plane: the frames' layer and `clear_above` more."""
        i0, j0, i1, j1 = self.plane_extent()
        (xa, ya, za), (xb, yb, zb) = self.frame_pos(i0, j0), self.frame_pos(i1, j1)
        if self.orientation == "floor":
            return (xa, ya, za), (xb, yb + self.clear_above, zb)
        return (xa, ya, za), (xb, yb, zb + self.clear_above)

    def bounds(self) -> tuple[Pos, Pos]:
        """The inclusive box a paint room occupies: the plane and the air in front of it."""
        i0, j0, i1, j1 = self.plane_extent()
        corners = [self.plane(i0, j0), self.plane(i1, j1), *self.front_box()]
        lo = tuple(min(c[k] for c in corners) for k in range(3))
        hi = tuple(max(c[k] for c in corners) for k in range(3))
        return (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])

    def chunks(self) -> list[tuple[int, int]]:
        """Every chunk (cx, cz) the room touches."""
        (xa, _, za), (xb, _, zb) = self.bounds()
        return [
            (cx, cz) for cz in range(za >> 4, (zb >> 4) + 1) for cx in range(xa >> 4, (xb >> 4) + 1)
        ]

    def brushes(self) -> list[Brush]:
        """Every brush frame: rows 0..H-1 (east side), columns 0..W-1 (south side), clear."""
        w, h = self.width, self.height
        out = [Brush("row", j, w, j) for j in range(h)]
        out += [Brush("col", i, i, h) for i in range(w)]
        out.append(Brush("clear", -1, w, h))
        return out

    def cells(self) -> Iterator[tuple[int, int]]:
        """All canvas cells (i, j), row by row."""
        for j in range(self.height):
            for i in range(self.width):
                yield i, j

    def near_selector(self, margin: int = 8) -> str:
        """A player selector for everyone in or near the room."""
        (xa, ya, za), (xb, yb, zb) = self.bounds()
        return (
            f"@a[x={xa - margin},y={ya - margin},z={za - margin},"
            f"dx={xb - xa + 2 * margin},dy={yb - ya + 2 * margin},dz={zb - za + 2 * margin}]"
        )
