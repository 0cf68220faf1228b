"""Directions, arm masks, shapes, tile classes and the board, as in the world format.

Conventions (docs/world-format.md): N = -z, E = +x, S = +z, W = -x; a rotation r turns
a tile clockwise (seen from above) by r quarter turns: N -> E -> S -> W -> N. A tile's arms are a
4-bit mask with bit d set for direction d, so a clockwise quarter turn is a left bit rotation.
Tiles are addressed by a flat index ``j * width + i`` (column i eastwards, row j southwards).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import IntEnum

__all__ = [
    "Direction",
    "Shape",
    "TileClass",
    "CROSS",
    "HOLE",
    "SHAPE_WORDS",
    "PIPE_SHAPES",
    "DIRECTIONS",
    "DELTA",
    "SHAPE_MASK",
    "MIN_SIZE",
    "MAX_SIZE",
    "bit",
    "opposite",
    "rotate_mask",
    "mask_of",
    "shape_of_mask",
    "distinct_rotations",
    "map_id",
    "Board",
]

MIN_SIZE = 3
MAX_SIZE = 128


class Direction(IntEnum):
    """A compass direction; its value is its bit index in an arm mask."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def word(self) -> str:
        """The lower-case name used in JSON and block states (north, east, ...)."""
        return ("north", "east", "south", "west")[self]


DIRECTIONS: tuple[Direction, ...] = (Direction.N, Direction.E, Direction.S, Direction.W)

# (di, dj) per direction: i grows east, j grows south.
DELTA: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


class Shape(IntEnum):
    """A pipe piece; its value is the shape index of the world format."""

    END = 0
    STRAIGHT = 1
    TEE = 2
    CORNER = 3

    @property
    def word(self) -> str:
        """The lower-case name used in JSON (end, straight, tee, corner)."""
        return self.name.lower()


CROSS = 4
"""The cross piece (sink mode): four arms, water passes straight through N-S and E-W apart."""
HOLE = 5
"""A hole (sink mode with ``holes``): no piece, no arms, no frame."""
PIPE_SHAPES: tuple[Shape, ...] = tuple(Shape)
"""The four shapes of tree boards (and of every tile of a sink board that is no cross or hole)."""
SHAPE_WORDS: tuple[str, ...] = (*(s.word for s in Shape), "cross", "hole")
"""The JSON names of shape indices 0..5."""


class TileClass(IntEnum):
    """What a tile shows: its value is the class index of the world format."""

    DRY = 0
    WET = 1
    RING = 2
    SOURCE = 3
    SOURCE_RING = 4


def bit(d: int) -> int:
    """The mask bit of direction d."""
    return 1 << d


def opposite(d: int) -> int:
    """The direction facing d."""
    return (d + 2) & 3


def rotate_mask(mask: int, r: int) -> int:
    """Turn an arm mask clockwise by r quarter turns (a 4-bit left rotation)."""
    r &= 3
    return ((mask << r) | (mask >> (4 - r))) & 15


# Arms at r = 0: end {S}; straight {N, S}; tee {N, S, E}; corner {S, E}; cross all four;
# hole none.
SHAPE_MASK: tuple[int, ...] = (
    bit(Direction.S),
    bit(Direction.N) | bit(Direction.S),
    bit(Direction.N) | bit(Direction.S) | bit(Direction.E),
    bit(Direction.S) | bit(Direction.E),
    15,
    0,
)


def mask_of(shape: int, rotation: int) -> int:
    """The arms of a shape at a rotation."""
    return rotate_mask(SHAPE_MASK[shape], rotation)


_SHAPE_OF: dict[int, tuple[int, int]] = {}
for _shape in (*PIPE_SHAPES, CROSS):
    for _r in (3, 2, 1, 0):  # the smallest rotation wins
        _SHAPE_OF[mask_of(_shape, _r)] = (int(_shape), _r)


def shape_of_mask(mask: int) -> tuple[int, int]:
    """The (shape, smallest rotation) with these arms (four arms: the cross); KeyError for 0."""
    return _SHAPE_OF[mask]


def distinct_rotations(shape: int) -> int:
    """How many different arm masks a shape has (2 for a straight, 1 for a cross or a hole, 4
    otherwise): the rotations a solver needs to try."""
    if shape >= CROSS:
        return 1
    return 2 if shape == Shape.STRAIGHT else 4


def map_id(base: int, shape: int, cls: int) -> int:
    """The map id that pictures a shape in a class: ``base + shape + 4 * class``."""
    return base + shape + 4 * cls


@dataclass
class Board:
    """A W x H puzzle: shapes, current rotations, the source and the generating solution.

    ``shapes``, ``rotations`` and ``solution`` are flat lists indexed ``j * width + i``.
    ``mode`` is ``tree`` (connect every tile into one tree) or ``sink`` (bring water from the
    source to ``sink``; docs/puzzle.md); ``fixed`` holds the flat indices of tiles that cannot
    be turned (the source, the sink and the crosses in sink mode).
    """

    width: int
    height: int
    source: tuple[int, int]
    shapes: list[int]
    rotations: list[int]
    solution: list[int]
    seed: int | None = None
    generator: str = "prim"
    meta: dict[str, object] = field(default_factory=dict)
    mode: str = "tree"
    sink: tuple[int, int] | None = None
    fixed: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        n = self.width * self.height
        if not (MIN_SIZE <= self.width <= MAX_SIZE and MIN_SIZE <= self.height <= MAX_SIZE):
            raise ValueError(
                f"size: must be {MIN_SIZE}..{MAX_SIZE} x {MIN_SIZE}..{MAX_SIZE}, "
                f"got {self.width}x{self.height}"
            )
        for name in ("shapes", "rotations", "solution"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name}: must have {n} entries, got {len(getattr(self, name))}")
        si, sj = self.source
        if not (0 <= si < self.width and 0 <= sj < self.height):
            raise ValueError(f"source: {list(self.source)} is outside the board")
        if self.mode not in ("tree", "sink"):
            raise ValueError(f"mode: must be tree or sink, got {self.mode!r}")
        if (self.sink is None) != (self.mode == "tree"):
            raise ValueError("sink: a sink-mode board needs one, a tree board has none")
        if self.sink is not None:
            ki, kj = self.sink
            if not (0 <= ki < self.width and 0 <= kj < self.height):
                raise ValueError(f"sink: {list(self.sink)} is outside the board")
            if (ki, kj) == (si, sj):
                raise ValueError("sink: must differ from the source")
        if self.mode == "tree" and (CROSS in self.shapes or HOLE in self.shapes):
            raise ValueError("shapes: crosses and holes are sink-mode pieces")
        for t in self.fixed:
            if not 0 <= t < n:
                raise ValueError(f"fixed: tile {t} is outside the board")

    @property
    def size(self) -> int:
        """Number of tiles."""
        return self.width * self.height

    @property
    def source_index(self) -> int:
        """Flat index of the source tile."""
        return self.index(*self.source)

    def index(self, i: int, j: int) -> int:
        """Flat index of tile (i, j)."""
        return j * self.width + i

    def coords(self, idx: int) -> tuple[int, int]:
        """(i, j) of a flat index."""
        return idx % self.width, idx // self.width

    def mask(self, idx: int) -> int:
        """The arms of a tile under its current rotation."""
        return mask_of(self.shapes[idx], self.rotations[idx])

    def solved_mask(self, idx: int) -> int:
        """The arms of a tile in the generating solution."""
        return mask_of(self.shapes[idx], self.solution[idx])

    def neighbour(self, idx: int, d: int) -> int:
        """The flat index of the neighbour in direction d, or -1 outside the board."""
        i, j = idx % self.width, idx // self.width
        di, dj = DELTA[d]
        ni, nj = i + di, j + dj
        if 0 <= ni < self.width and 0 <= nj < self.height:
            return nj * self.width + ni
        return -1

    def connected(self, idx: int, d: int) -> bool:
        """Whether tile idx and its neighbour in direction d have arms facing each other now."""
        n = self.neighbour(idx, d)
        return n >= 0 and bool(self.mask(idx) & bit(d)) and bool(self.mask(n) & bit(opposite(d)))

    @property
    def has_crosses(self) -> bool:
        """Whether any tile is a cross (its water flows by axis: ``controller.puzzle.crossing``)."""
        return CROSS in self.shapes

    def copy(self) -> Board:
        """An independent copy. This board was checked when it was made, so the copy is not
        checked again (the checks scan every tile: most of a copy's cost at 128×128, taken at
        every move for the web page's snapshot)."""
        twin = copy.copy(self)
        twin.shapes, twin.rotations = list(self.shapes), list(self.rotations)
        twin.solution, twin.meta = list(self.solution), dict(self.meta)
        return twin
