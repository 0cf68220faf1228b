"""The map pictures of pipe tiles: 128x128 arrays of packed map colour bytes (pure, no I/O).

Picture ``base + shape + 4 * class`` shows ``shape`` at rotation 0 in the look of ``class``
(docs/world-format.md). Row z = 0 is north, column x = 0 is west. A packed colour is
``base_colour_id * 4 + shade`` (shade multipliers 180/220/255/135); RGB values come from the
palette table of ``pillow-minecraft-map``, which matches vanilla's ``MapColor`` computation.
Everything is drawn symmetric about the picture centre (63.5, 63.5), so a quarter turn of the
array is exactly the picture of the rotated tile, and every arm reaches the middle of its edge
so that neighbouring tiles join.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from pillow_minecraft_map.plugin import JE_1_17_PALETTE  # type: ignore[import-untyped]

from controller.puzzle.model import SHAPE_MASK, Direction, Shape, TileClass, bit, map_id
from controller.world.mapids import (
    CROSS_PICTURES,
    DEFAULT_MAP_ID_BASE,
    PICTURE_COUNT,
    SINK_PICTURES,
    cross_map_id,
    picture_key,
    sink_map_id,
)

__all__ = [
    "SIZE",
    "DEFAULT_MAP_ID_BASE",
    "PICTURE_COUNT",
    "SHADE_MULTIPLIERS",
    "PALETTE_RGB",
    "OPAQUE_COLOURS",
    "BACKGROUND_COLOURS",
    "Style",
    "STYLES",
    "packed",
    "render_picture",
    "all_pictures",
    "picture_key",
    "to_rgb",
    "LABEL_BACKGROUND",
    "LABEL_TEXT",
    "LABEL_DIM",
    "preview_sheet",
    "render_sink_picture",
    "sink_pictures",
    "render_cross_picture",
    "cross_pictures",
    "FIXED_PLATE",
]

SIZE = 128
SHADE_MULTIPLIERS = (180, 220, 255, 135)

_LOW, _NORMAL, _HIGH, _LOWEST = 0, 1, 2, 3


def _palette_table() -> npt.NDArray[np.uint8]:
    table = np.zeros((256, 3), dtype=np.uint8)
    for index, value in enumerate(JE_1_17_PALETTE):
        table[index] = ((value >> 16) & 255, (value >> 8) & 255, value & 255)
    return table


# RGB of every packed colour (rows 248..255 are unused ids and stay black).
PALETTE_RGB: npt.NDArray[np.uint8] = _palette_table()
PALETTE_RGB.setflags(write=False)
# Packed colours 0..3 are transparent (base colour NONE); 248..255 do not exist.
OPAQUE_COLOURS: frozenset[int] = frozenset(range(4, len(JE_1_17_PALETTE)))


def packed(base_colour: int, shade: int) -> int:
    """The packed map colour byte of a base colour id (1..61) and a shade (0..3)."""
    if not 1 <= base_colour <= 61 or not 0 <= shade <= 3:
        raise ValueError(f"no map colour {base_colour}/{shade}")
    return base_colour * 4 + shade


# Base colour ids (vanilla MapColor: docs/server-behaviour.md, "Map colours").
_SNOW, _WATER, _STONE, _GOLD = 8, 12, 11, 30
_MAGENTA, _LIGHT_BLUE, _PINK, _GRAY, _PURPLE, _BLUE, _BLACK = 16, 17, 20, 21, 24, 25, 29
_T_YELLOW, _T_GRAY, _T_LIGHT_GRAY, _T_BROWN = 40, 43, 44, 48


@dataclass(frozen=True)
class Style:
    """The colours of one tile class: pipe wall, inside and stripe; the fountain pool, if any."""

    wall: int
    inside: int
    stripe: int
    pool: int | None = None


BACKGROUND = packed(_STONE, _LOW)
EDGE = packed(_GRAY, _LOWEST)
# Colours that never belong to a pipe: the tile's ground and its thin outline.
BACKGROUND_COLOURS: frozenset[int] = frozenset({BACKGROUND, EDGE})

STYLES: dict[TileClass, Style] = {
    # An empty pipe: grey-brown clay with a darker bottom stripe.
    TileClass.DRY: Style(
        packed(_T_GRAY, _LOW),
        packed(_T_LIGHT_GRAY, _HIGH),
        packed(_T_BROWN, _HIGH),
    ),
    # Water: bright blue with a light-blue current along the middle.
    TileClass.WET: Style(
        packed(_BLUE, _LOWEST),
        packed(_WATER, _HIGH),
        packed(_LIGHT_BLUE, _HIGH),
    ),
    # Water on a ring (a cycle): magenta, far from both the blue and the grey-brown.
    TileClass.RING: Style(
        packed(_PURPLE, _LOWEST),
        packed(_MAGENTA, _HIGH),
        packed(_PINK, _HIGH),
    ),
    # The source: a wet or ring pipe under a fountain emblem whose pool has the pipe's colour.
    TileClass.SOURCE: Style(
        packed(_BLUE, _LOWEST),
        packed(_WATER, _HIGH),
        packed(_LIGHT_BLUE, _HIGH),
        packed(_WATER, _NORMAL),
    ),
    TileClass.SOURCE_RING: Style(
        packed(_PURPLE, _LOWEST),
        packed(_MAGENTA, _HIGH),
        packed(_PINK, _HIGH),
        packed(_MAGENTA, _NORMAL),
    ),
}

# The fountain emblem of a source tile.
_RIM = packed(_GOLD, _HIGH)
_RIM_DARK = packed(_T_YELLOW, _LOW)
_SPRAY = packed(_SNOW, _HIGH)

# Geometry, in pixels from the picture centre.
_OUTER = 22.0  # half width of a pipe, wall included
_INNER = 16.0  # half width of the water channel
_STRIPE = 3.0  # half width of the stripe along the channel
_END_BULB = 29.0  # radius of the closed end's bulb
_BASIN = 31.0  # radius of the fountain basin (its gold rim included)
_EDGE_WIDTH = 1  # outline drawn on every picture edge, outside the pipes

_GRID = np.arange(SIZE, dtype=np.float64) - (SIZE - 1) / 2
_V, _U = np.meshgrid(_GRID, _GRID, indexing="ij")  # _V: south offset (rows), _U: east offset
_RADIUS = np.hypot(_U, _V)

Mask = npt.NDArray[np.bool_]


def _arms(arms: int, half: float) -> Mask:
    """Union of the arm bands of half width ``half`` from the centre to the set edges."""
    out = np.zeros((SIZE, SIZE), dtype=bool)
    along_ns = np.abs(_U) <= half
    along_ew = np.abs(_V) <= half
    if arms & bit(Direction.N):
        out |= along_ns & (_V <= 0)
    if arms & bit(Direction.S):
        out |= along_ns & (_V >= 0)
    if arms & bit(Direction.E):
        out |= along_ew & (_U >= 0)
    if arms & bit(Direction.W):
        out |= along_ew & (_U <= 0)
    return out


def _pipe(arms: int, half: float, hub: float) -> Mask:
    """Arm bands joined by a round hub of radius ``hub`` at the centre."""
    mask: Mask = _arms(arms, half) | (_RADIUS <= hub)
    return mask


def render_picture(shape: int, cls: int) -> npt.NDArray[np.uint8]:
    """The picture of a shape (0..3) at rotation 0 in a class (0..4), as packed colours."""
    shape, cls = Shape(shape), TileClass(cls)
    style = STYLES[cls]
    arms = SHAPE_MASK[shape]
    bulb = shape == Shape.END
    img = np.full((SIZE, SIZE), BACKGROUND, dtype=np.uint8)
    edge = np.zeros((SIZE, SIZE), dtype=bool)
    edge[:_EDGE_WIDTH, :] = edge[-_EDGE_WIDTH:, :] = True
    edge[:, :_EDGE_WIDTH] = edge[:, -_EDGE_WIDTH:] = True
    img[edge] = EDGE

    outer = _pipe(arms, _OUTER, _END_BULB if bulb else _OUTER)
    inner = _pipe(arms, _INNER, _END_BULB - (_OUTER - _INNER) if bulb else _INNER)
    stripe = _pipe(arms, _STRIPE, _STRIPE + 4 if bulb else _STRIPE)
    img[outer] = style.wall
    img[inner] = style.inside
    img[stripe] = style.stripe

    if style.pool is not None:
        _draw_fountain(img, style.pool)
    return img


def _draw_fountain(img: npt.NDArray[np.uint8], pool: int) -> None:
    """A round basin seen from above: gold rim, water, a ring of spray and eight droplets."""
    img[_RADIUS <= _BASIN] = _RIM_DARK
    img[_RADIUS <= _BASIN - 2] = _RIM
    img[_RADIUS <= _BASIN - 6] = pool
    img[(_RADIUS >= 11) & (_RADIUS <= 14.5)] = _SPRAY
    img[_RADIUS <= 5.5] = _SPRAY
    for k in range(8):
        angle = k * np.pi / 4
        cu, cv = 19.5 * np.sin(angle), -19.5 * np.cos(angle)
        img[np.hypot(_U - cu, _V - cv) <= 2.6] = _SPRAY


def all_pictures(base: int = DEFAULT_MAP_ID_BASE) -> dict[int, npt.NDArray[np.uint8]]:
    """Every picture keyed by its map id ``base + shape + 4 * class`` (ids base+0 .. base+19)."""
    out: dict[int, npt.NDArray[np.uint8]] = {}
    for cls in TileClass:
        for shape in Shape:
            out[map_id(base, shape, cls)] = render_picture(shape, cls)
    return out


# The fixed pieces of a sink room: an iron bolt plate around the tile, the sink's drain.
_BOLT_PLATE = packed(_BLACK, _LOW)
FIXED_PLATE = _BOLT_PLATE
_BOLT = packed(_GOLD, _HIGH)
_DRAIN_RIM = packed(_BLACK, _LOWEST)
_DRAIN_EMPTY = packed(_GRAY, _LOW)
_PLATE_WIDTH = 6  # pixels of the dark frame around a fixed tile
_BOLT_RADIUS = 3.5


def _draw_fixed_plate(img: npt.NDArray[np.uint8]) -> None:
    """A dark frame around the picture (broken where the arm passes) with a gold bolt in each
    corner: this tile cannot turn."""
    plate = (np.abs(_U) > (SIZE / 2 - _PLATE_WIDTH)) | (np.abs(_V) > (SIZE / 2 - _PLATE_WIDTH))
    ground = np.isin(img, list(BACKGROUND_COLOURS))
    img[plate & ground] = _BOLT_PLATE  # the pipe's arm passes through, so neighbours join
    corner = SIZE / 2 - _PLATE_WIDTH - _BOLT_RADIUS - 2  # just inside the plate
    for su in (-1, 1):
        for sv in (-1, 1):
            img[np.hypot(_U - su * corner, _V - sv * corner) <= _BOLT_RADIUS] = _BOLT


def render_sink_picture(picture: str) -> npt.NDArray[np.uint8]:
    """A sink room's fixed picture at rotation 0 (an end piece, arm to the south): "source"
    (the fountain on a bolted plate), "sink_dry" or "sink_wet" (a drain, empty or full)."""
    if picture not in SINK_PICTURES:
        raise ValueError(f"no sink picture {picture!r}: expected one of {', '.join(SINK_PICTURES)}")
    if picture == "source":
        img = render_picture(Shape.END, TileClass.SOURCE)
    else:
        wet = picture == "sink_wet"
        img = render_picture(Shape.END, TileClass.WET if wet else TileClass.DRY)
        img[_RADIUS <= _END_BULB - 2] = _DRAIN_RIM
        img[_RADIUS <= _END_BULB - 7] = STYLES[TileClass.WET].inside if wet else _DRAIN_EMPTY
        img[(_RADIUS >= 9) & (_RADIUS <= 11)] = _DRAIN_RIM
    _draw_fixed_plate(img)
    return img


def sink_pictures(base: int = DEFAULT_MAP_ID_BASE) -> dict[int, npt.NDArray[np.uint8]]:
    """The three fixed pictures of sink rooms keyed by their map ids (base+40 .. base+42)."""
    return {sink_map_id(base, p): render_sink_picture(p) for p in SINK_PICTURES}


def render_cross_picture(picture: str) -> npt.NDArray[np.uint8]:
    """A sink room's cross (always at rotation 0, a Fixed frame) on a bolted plate: the E-W pipe
    runs under the N-S one, each in the look of its own water, so the picture shows which way
    water passes: "dry", "ns", "ew", "both" or "source" (both in the source's colours)."""
    if picture not in CROSS_PICTURES:
        raise ValueError(
            f"no cross picture {picture!r}: expected one of {', '.join(CROSS_PICTURES)}"
        )
    axes = CROSS_PICTURES.index(picture)
    if picture == "source":
        ns = ew = STYLES[TileClass.SOURCE]
    else:
        ns = STYLES[TileClass.WET if axes & 1 else TileClass.DRY]
        ew = STYLES[TileClass.WET if axes & 2 else TileClass.DRY]
    img = np.full((SIZE, SIZE), BACKGROUND, dtype=np.uint8)
    edge = np.zeros((SIZE, SIZE), dtype=bool)
    edge[:_EDGE_WIDTH, :] = edge[-_EDGE_WIDTH:, :] = True
    edge[:, :_EDGE_WIDTH] = edge[:, -_EDGE_WIDTH:] = True
    img[edge] = EDGE
    horizontal = bit(Direction.E) | bit(Direction.W)
    vertical = bit(Direction.N) | bit(Direction.S)
    img[_arms(horizontal, _OUTER)] = ew.wall
    img[_arms(horizontal, _INNER)] = ew.inside
    img[_arms(horizontal, _STRIPE)] = ew.stripe
    # the N-S pipe bridges the E-W one: its walls widen where it passes over
    img[_arms(vertical, _OUTER + 3) & _arms(horizontal, _OUTER + 3)] = _DRAIN_RIM
    img[_arms(vertical, _OUTER)] = ns.wall
    img[_arms(vertical, _INNER)] = ns.inside
    img[_arms(vertical, _STRIPE)] = ns.stripe
    _draw_fixed_plate(img)
    return img


def cross_pictures(base: int = DEFAULT_MAP_ID_BASE) -> dict[int, npt.NDArray[np.uint8]]:
    """The five cross pictures of sink rooms keyed by their map ids (base+20 .. base+24)."""
    out = {cross_map_id(base, k): render_cross_picture(CROSS_PICTURES[k]) for k in range(4)}
    out[cross_map_id(base, 0, source=True)] = render_cross_picture("source")
    return out


def to_rgb(array: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Packed colours (any shape; signed NBT bytes too) to RGB with a last axis of 3.

    ValueError on bytes that are no map colour (248..255).
    """
    index = np.asarray(array).astype(np.int64) & 255
    if index.size and int(index.max()) >= len(JE_1_17_PALETTE):
        raise ValueError(f"packed colour {int(index.max())} is not a map colour")
    rgb: npt.NDArray[np.uint8] = PALETTE_RGB[index]
    return rgb


# The colours of the preview sheet's labels: a dark ground, bright and dim text.
LABEL_BACKGROUND = packed(_BLACK, _HIGH)
LABEL_TEXT = packed(_SNOW, _HIGH)
LABEL_DIM = packed(_GRAY, _HIGH)


def preview_sheet() -> npt.NDArray[np.uint8]:
    """Every picture on one sheet of packed colours, with room for labels, 640 x 768 pixels.

    One 128-pixel row per class and one column per shape, plus a label column on the left and a
    header row on top, both left in ``LABEL_BACKGROUND``.
    """
    columns, rows = 1 + len(Shape), 1 + len(TileClass)
    sheet = np.full((rows * SIZE, columns * SIZE), LABEL_BACKGROUND, dtype=np.uint8)
    for k in range(PICTURE_COUNT):
        shape, cls = picture_key(k)
        row, col = 1 + int(cls), 1 + int(shape)
        sheet[row * SIZE : (row + 1) * SIZE, col * SIZE : (col + 1) * SIZE] = render_picture(
            shape, cls
        )
    return sheet
