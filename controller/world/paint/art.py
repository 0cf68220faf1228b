"""The map pictures of a paint room's brush frames (pure, no I/O; docs/world-format.md,
"Paint rooms: map ids").

Three 128x128 pictures of packed map colours, like the pipe pictures (`mapart`): the row brush
(bristles in colour 1 pointing west, towards the canvas it stands east of), the column brush
(bristles in colour 0 pointing north, or up on a wall) and the clear frame (a colour-0 square
crossed out). Row z = 0 is north (top on a wall), column x = 0 is west, as for every map in a
frame with ItemRotation 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from controller.world.mapart import SIZE, packed
from controller.world.mapids import BRUSH_PICTURES, DEFAULT_MAP_ID_BASE, brush_map_id

__all__ = [
    "PAINT_COLOURS",
    "HANDLE",
    "brush_picture",
    "render_brush",
    "brush_pictures",
]

# Base colour ids (vanilla MapColor: docs/server-behaviour.md, "Map colours").
_SNOW, _STONE, _WOOD, _METAL, _GRAY, _BLUE, _RED, _BLACK = 8, 11, 13, 6, 21, 25, 28, 29
_LOW, _NORMAL, _HIGH, _LOWEST = 0, 1, 2, 3

BACKGROUND = packed(_STONE, _LOW)
EDGE = packed(_GRAY, _LOWEST)
# The colours of the default canvas blocks: white_concrete (SNOW) and blue_concrete (COLOR_BLUE).
PAINT_COLOURS = (packed(_SNOW, _HIGH), packed(_BLUE, _HIGH))
HANDLE = packed(_WOOD, _HIGH)
FERRULE = packed(_METAL, _NORMAL)
OUTLINE = packed(_BLACK, _HIGH)
CROSS = packed(_RED, _HIGH)

Picture = npt.NDArray[np.uint8]


def _blank() -> Picture:
    img = np.full((SIZE, SIZE), BACKGROUND, dtype=np.uint8)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = EDGE
    return img


def _box(img: Picture, z0: int, x0: int, z1: int, x1: int, colour: int) -> None:
    """Fill rows z0..z1-1, columns x0..x1-1."""
    img[z0:z1, x0:x1] = colour


def brush_picture(colour: int) -> Picture:
    """A brush lying east-west with its bristles, in `colour`, at the west end."""
    img = _blank()
    _box(img, 54, 72, 74, 120, OUTLINE)  # handle, outlined
    _box(img, 56, 74, 72, 118, HANDLE)
    _box(img, 46, 58, 82, 74, OUTLINE)  # ferrule
    _box(img, 48, 60, 80, 72, FERRULE)
    _box(img, 34, 10, 94, 60, OUTLINE)  # bristles
    _box(img, 36, 12, 92, 58, colour)
    for z in range(40, 90, 8):  # the bristles' strands
        _box(img, z, 12, z + 1, 50, OUTLINE)
    return img


def clear_picture() -> Picture:
    """A colour-0 square crossed out in red."""
    img = _blank()
    _box(img, 20, 20, 108, 108, OUTLINE)
    _box(img, 22, 22, 106, 106, PAINT_COLOURS[0])
    idx = np.arange(26, 102)
    for width in range(-4, 5):
        img[idx, np.clip(idx + width, 0, SIZE - 1)] = CROSS
        img[idx, np.clip(SIZE - 1 - idx + width, 0, SIZE - 1)] = CROSS
    return img


def render_brush(axis: str) -> Picture:
    """The picture of a brush frame: "row", "col" or "clear"."""
    if axis == "row":
        return brush_picture(PAINT_COLOURS[1])
    if axis == "col":
        # A quarter turn clockwise moves the bristles from the west end to the north end.
        return np.ascontiguousarray(np.rot90(brush_picture(PAINT_COLOURS[0]), k=-1))
    if axis == "clear":
        return clear_picture()
    raise ValueError(f"no brush picture {axis!r}: expected one of {', '.join(BRUSH_PICTURES)}")


def brush_pictures(base: int = DEFAULT_MAP_ID_BASE) -> dict[int, Picture]:
    """The three brush pictures keyed by their map ids (base+32 .. base+34)."""
    return {brush_map_id(base, axis): render_brush(axis) for axis in BRUSH_PICTURES}
