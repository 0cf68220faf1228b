"""Where a room's frames and blocks are, and how its entities are named (world format v1)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from controller.puzzle.model import TileClass

__all__ = [
    "Room",
    "Pos",
    "FRAME_NAMESPACE",
    "frame_uuid",
    "preload_uuid",
    "uuid_ints",
    "frame_name",
    "state_block",
    "CLOSED_BLOCK",
    "HOLE_BLOCK",
    "EDGE_ON",
    "EDGE_OFF",
    "SINK_EMPTY",
    "SINK_FULL",
    "sink_block",
    "SHADOW_DROP",
    "shadow_of",
]

Pos = tuple[int, int, int]

# The UUID namespace of pipesctl frames: uuid5(NAMESPACE_URL, "pipesctl").
FRAME_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://pipesctl/frames")

# A dry tile on a dry loop or in a closed island (docs/world-format.md, "Tile states"; version 7).
CLOSED_BLOCK = "minecraft:pearlescent_froglight"
EDGE_ON = "minecraft:pumpkin"
EDGE_OFF = "minecraft:melon"
# The sink block of a sink-mode room (docs/world-format.md, "Sink rooms").
SINK_EMPTY = "minecraft:cauldron"
SINK_FULL = "minecraft:water_cauldron[level=3]"
BORDER = "minecraft:oak_log"
# The shadow layers lie this many blocks below the solid layers they copy (docs/world-format.md,
# "Shadow layers"): the guard compares the two boxes with `execute if blocks`.
SHADOW_DROP = 3


def shadow_of(pos: Pos) -> Pos:
    """The shadow-layer block that copies the solid-layer block at `pos`."""
    return pos[0], pos[1] - SHADOW_DROP, pos[2]


_FACING = ("north", "east", "south", "west")


def frame_uuid(room: str, i: int, j: int) -> uuid.UUID:
    """The deterministic UUID of tile (i, j)'s frame in a room."""
    return uuid.uuid5(FRAME_NAMESPACE, f"pipes:{room}:{i}:{j}")


def preload_uuid(room: str, k: int) -> uuid.UUID:
    """The deterministic UUID of a room's k-th picture preload frame."""
    return uuid.uuid5(FRAME_NAMESPACE, f"pipes:{room}:preload:{k}")


def uuid_ints(u: uuid.UUID) -> tuple[int, int, int, int]:
    """A UUID as Minecraft's int array: four signed 32-bit ints, most significant first."""
    v = u.int
    parts = [(v >> shift) & 0xFFFFFFFF for shift in (96, 64, 32, 0)]
    a, b, c, d = (p - (1 << 32) if p >= 1 << 31 else p for p in parts)
    return a, b, c, d


def frame_name(room: str, i: int, j: int) -> str:
    """The CustomName of a tile's frame: `pipes:<room>:<i>:<j>`."""
    return f"pipes:{room}:{i}:{j}"


HOLE_BLOCK = "minecraft:polished_blackstone"
"""The state-layer block of a hole (a sink room with `holes`: no piece, no frame; world
format 8)."""


def state_block(cls: int, parent: int, closed: bool = False) -> str:
    """The state-layer block of a tile: melon, jack o'lantern facing its parent, froglight...;
    a dry tile that is ``closed`` (on a dry loop or in a closed island) shows CLOSED_BLOCK."""
    if cls == TileClass.DRY:
        return CLOSED_BLOCK if closed else "minecraft:melon"
    if cls == TileClass.WET:
        return f"minecraft:jack_o_lantern[facing={_FACING[parent]}]"
    if cls == TileClass.RING:
        return "minecraft:verdant_froglight"
    return "minecraft:shroomlight"


def sink_block(wet: bool) -> str:
    """The sink block: a full water cauldron once the water arrives, an empty one before."""
    return SINK_FULL if wet else SINK_EMPTY


@dataclass(frozen=True)
class Room:
    """A room's placement: name, dimension, origin (the north-west frame) and size."""

    name: str
    origin: Pos
    width: int
    height: int
    dimension: str = "minecraft:overworld"
    clear_above: int = 3

    @property
    def x0(self) -> int:
        """West edge x of the frames."""
        return self.origin[0]

    @property
    def y0(self) -> int:
        """Frame height."""
        return self.origin[1]

    @property
    def z0(self) -> int:
        """North edge z of the frames."""
        return self.origin[2]

    def frame_pos(self, i: int, j: int) -> Pos:
        """The block a tile's frame hangs in."""
        return self.x0 + i, self.y0, self.z0 + j

    def state_pos(self, i: int, j: int) -> Pos:
        """The tile's state-layer block (y0-1)."""
        return self.x0 + i, self.y0 - 1, self.z0 + j

    def east_pos(self, i: int, j: int) -> Pos:
        """The block telling whether (i, j) and (i+1, j) connect (y0-2)."""
        return self.x0 + i, self.y0 - 2, self.z0 + j

    def south_pos(self, i: int, j: int) -> Pos:
        """The block telling whether (i, j) and (i, j+1) connect (y0-3)."""
        return self.x0 + i, self.y0 - 3, self.z0 + j

    def layers_box(self) -> tuple[Pos, Pos]:
        """The inclusive box of the three solid layers, border ring included (y0-3..y0-1)."""
        return (
            (self.x0 - 1, self.y0 - 3, self.z0 - 1),
            (self.x0 + self.width, self.y0 - 1, self.z0 + self.height),
        )

    def shadow_box(self) -> tuple[Pos, Pos]:
        """The shadow copy of the solid layers, SHADOW_DROP blocks lower (y0-6..y0-4;
        docs/world-format.md, "Shadow layers")."""
        (xa, ya, za), (xb, yb, zb) = self.layers_box()
        return (xa, ya - SHADOW_DROP, za), (xb, yb - SHADOW_DROP, zb)

    def preload_pos(self, k: int) -> Pos:
        """Where the k-th hidden picture frame hangs (inside the ground, under the board)."""
        return self.x0 + k % self.width, self.y0 - 4, self.z0 + (k // self.width) % self.height

    def sink_pos(self, i: int, j: int) -> Pos:
        """Where the sink block of edge tile (i, j) stands: the border block at the frames'
        level beside it, north before south before west before east (corners)."""
        if j == 0:
            return self.x0 + i, self.y0, self.z0 - 1
        if j == self.height - 1:
            return self.x0 + i, self.y0, self.z0 + self.height
        if i == 0:
            return self.x0 - 1, self.y0, self.z0 + j
        if i == self.width - 1:
            return self.x0 + self.width, self.y0, self.z0 + j
        raise ValueError(f"tile ({i}, {j}) is not on the board's edge")

    def bounds(self) -> tuple[Pos, Pos]:
        """The inclusive box a room occupies: footprint + border, from the shadow layers (the
        preload frames hang in the top one) to the clear air."""
        return (
            (self.x0 - 1, self.y0 - 3 - SHADOW_DROP, self.z0 - 1),
            (self.x0 + self.width, self.y0 + self.clear_above, self.z0 + self.height),
        )

    def chunks(self) -> list[tuple[int, int]]:
        """Every chunk (cx, cz) the footprint plus border touches."""
        (xa, _, za), (xb, _, zb) = self.bounds()
        return [
            (cx, cz) for cz in range(za >> 4, (zb >> 4) + 1) for cx in range(xa >> 4, (xb >> 4) + 1)
        ]

    def tiles(self) -> Iterator[tuple[int, int]]:
        """All (i, j) in flat-index order."""
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
