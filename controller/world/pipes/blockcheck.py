"""The block map checked against its shadow copy (pure: geometry → commands, replies → facts).

The three solid layers of a pipes room (y0-3..y0-1, border ring included) have a copy
`SHADOW_DROP` blocks lower (docs/world-format.md, "Shadow layers"). `execute if blocks … all`
compares a box of columns of both in one command without changing anything, so a whole-room
check costs one command per `FILL_LIMIT` blocks at any board size. A failed compare is narrowed
down by halves to a few columns, which are then written from the board into both copies
(docs/reliability.md, "Tampering").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.world.commands import FILL_LIMIT, layer_fills
from controller.world.geometry import BORDER, SHADOW_DROP, Room
from controller.world.replies import whole_count

__all__ = ["Columns", "LEAF_COLUMNS", "compare", "compared", "chunks", "copies", "leaf_fills"]

# A failed region of at most this many columns is written back rather than split further.
LEAF_COLUMNS = 4
_LAYERS = 3


@dataclass(frozen=True)
class Columns:
    """An inclusive rectangle of block columns (x, z) through the three solid layers."""

    xa: int
    za: int
    xb: int
    zb: int

    @property
    def count(self) -> int:
        """How many columns."""
        return (self.xb - self.xa + 1) * (self.zb - self.za + 1)

    def halves(self) -> tuple[Columns, Columns]:
        """The two halves across the longer side (a single column cannot be split)."""
        xa, za, xb, zb = self.xa, self.za, self.xb, self.zb
        if xb - xa >= zb - za:
            mid = (xa + xb) // 2
            return Columns(xa, za, mid, zb), Columns(mid + 1, za, xb, zb)
        mid = (za + zb) // 2
        return Columns(xa, za, xb, mid), Columns(xa, mid + 1, xb, zb)


def chunks(room: Room, limit: int = FILL_LIMIT) -> list[Columns]:
    """The whole block map (border included) in slabs of rows, each compare ≤ `limit` blocks."""
    (xa, _, za), (xb, _, zb) = room.layers_box()
    rows = max(1, limit // ((xb - xa + 1) * _LAYERS))
    return [Columns(xa, z, xb, min(zb, z + rows - 1)) for z in range(za, zb + 1, rows)]


def compare(room: Room, cols: Columns) -> str:
    """`execute if blocks`: the columns' solid layers against their shadow, every block."""
    y_top, y_low = room.y0 - 1, room.y0 - 3
    return (
        f"execute if blocks {cols.xa} {y_low} {cols.za} {cols.xb} {y_top} {cols.zb} "
        f"{cols.xa} {y_low - SHADOW_DROP} {cols.za} all"
    )


def copies(room: Room, limit: int = FILL_LIMIT) -> list[str]:
    """`clone` the block map (border included) onto its shadow, the same slabs as the compares
    (docs/world-format.md, "Shadow layers")."""
    y_top, y_low = room.y0 - 1, room.y0 - 3
    return [
        f"clone {c.xa} {y_low} {c.za} {c.xb} {y_top} {c.zb} {c.xa} {y_low - SHADOW_DROP} {c.za}"
        for c in chunks(room, limit)
    ]


def compared(reply: str) -> bool | None:
    """True when both copies matched, False on `Test failed`, None for any other reply (one
    spoiled by another RCON connection, or an unloaded area)."""
    count = whole_count(reply)
    return None if count is None else count > 0


def leaf_fills(
    room: Room,
    cols: Columns,
    block_at: Callable[[int, int, int], str],
    layers: Sequence[int] = range(_LAYERS),
) -> tuple[list[str], list[str]]:
    """The fills that write the columns' layers as the board says, into the solid layers and
    into the shadow. `block_at(layer, i, j)` gives a footprint block (layer 0 = state at y0-1,
    1 = east edges at y0-2, 2 = south edges at y0-3); the border ring is `oak_log`."""
    solid: list[str] = []
    shadow: list[str] = []
    for layer in layers:
        y = room.y0 - 1 - layer
        rows: Sequence[Sequence[str]] = [
            [_block(room, block_at, layer, x, z) for x in range(cols.xa, cols.xb + 1)]
            for z in range(cols.za, cols.zb + 1)
        ]
        solid += layer_fills(y, cols.xa, cols.za, rows)
        shadow += layer_fills(y - SHADOW_DROP, cols.xa, cols.za, rows)
    return solid, shadow


def _block(room: Room, block_at: Callable[[int, int, int], str], layer: int, x: int, z: int) -> str:
    i, j = x - room.x0, z - room.z0
    if 0 <= i < room.width and 0 <= j < room.height:
        return block_at(layer, i, j)
    return BORDER
