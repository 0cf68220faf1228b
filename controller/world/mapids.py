"""The map ids of the pipe pictures: the reserved range and what each id shows (no numpy).

Picture ``base + shape + 4 * class`` shows ``shape`` at rotation 0 in the look of ``class``
(docs/world-format.md, "Tiles, rotations and map ids").
"""

from __future__ import annotations

from controller.puzzle.model import Shape, TileClass

__all__ = [
    "DEFAULT_MAP_ID_BASE",
    "PICTURE_COUNT",
    "picture_key",
    "BRUSH_OFFSET",
    "BRUSH_PICTURES",
    "brush_map_id",
    "SINK_OFFSET",
    "SINK_PICTURES",
    "sink_map_id",
    "CROSS_OFFSET",
    "CROSS_PICTURES",
    "cross_map_id",
    "LAST_OFFSET",
]

# A high reserved id range: the server's own counter (one id per map a player makes) never gets
# there, and `give ... filled_map[minecraft:map_id=N]` accepts any N since 1.20.5.
DEFAULT_MAP_ID_BASE = 1_000_000
# Ids base+0 .. base+19: four shapes times five classes. base+8 and base+16 (an end on a ring)
# never occur in a room, but they are drawn and written too, so the reserved range is contiguous,
# the foreign-map check guards all of it, and a stray id could never show a blank picture.
PICTURE_COUNT = 4 * len(TileClass)


def picture_key(k: int) -> tuple[Shape, TileClass]:
    """The (shape, class) that picture ``base + k`` shows, for k in 0..19."""
    if not 0 <= k < PICTURE_COUNT:
        raise ValueError(f"picture offset {k} is outside 0..{PICTURE_COUNT - 1}")
    return Shape(k % 4), TileClass(k // 4)


# Sink rooms' cross pictures (world format 8): base+20 dry, +21 water N-S, +22 water E-W,
# +23 water both ways, +24 in the source's colours (the win waves), the ids kept for crosses.
CROSS_OFFSET = 20
CROSS_PICTURES = ("dry", "ns", "ew", "both", "source")

# Paint rooms' brush pictures: base+32 (row brush, paints colour 1), base+33 (column brush,
# paints colour 0), base+34 (clear). They sit past the pipes range base+0..19 and the ids
# base+20..24 reserved for crosses (docs/world-format.md, "Paint rooms: map ids").
BRUSH_OFFSET = 32
BRUSH_PICTURES = ("row", "col", "clear")

# Sink rooms' fixed pictures: base+40 (the fixed source), base+41 (the sink, dry), base+42 (the
# sink, wet), past the brushes and base+35..39 left free (docs/world-format.md, "Sink rooms").
SINK_OFFSET = 40
SINK_PICTURES = ("source", "sink_dry", "sink_wet")
LAST_OFFSET = SINK_OFFSET + len(SINK_PICTURES) - 1


def brush_map_id(base: int, axis: str) -> int:
    """The map id of a brush picture: `axis` is "row", "col" or "clear"."""
    return base + BRUSH_OFFSET + BRUSH_PICTURES.index(axis)


def sink_map_id(base: int, picture: str) -> int:
    """The map id of a sink room's fixed picture: "source", "sink_dry" or "sink_wet"."""
    return base + SINK_OFFSET + SINK_PICTURES.index(picture)


def cross_map_id(base: int, axes: int, *, source: bool = False) -> int:
    """The map id of a cross whose water runs along ``axes`` (bit 0 N-S, bit 1 E-W); ``source``:
    the win waves' picture."""
    if source:
        return base + CROSS_OFFSET + CROSS_PICTURES.index("source")
    return base + CROSS_OFFSET + (axes & 3)
