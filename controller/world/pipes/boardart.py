"""A board drawn with its real map pictures, as players see it from above (pure, no I/O)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from controller.puzzle.model import CROSS, HOLE, Board, TileClass
from controller.world.mapart import (
    BACKGROUND,
    SIZE,
    render_cross_picture,
    render_picture,
    render_sink_picture,
)
from controller.world.mapids import CROSS_PICTURES

__all__ = ["board_picture"]


@functools.cache
def _tile(key: tuple[int, int] | str) -> npt.NDArray[np.uint8]:
    """One tile's picture (shape, class), a sink room's fixed picture, a cross's
    (``cross_<axes picture>``) or a hole's (plain ground), drawn once per process and kept
    read-only."""
    if key == "hole":
        picture = np.full((SIZE, SIZE), BACKGROUND, dtype=np.uint8)
    elif isinstance(key, str) and key.startswith("cross_"):
        picture = render_cross_picture(key.removeprefix("cross_"))
    elif isinstance(key, str):
        picture = render_sink_picture(key)
    else:
        picture = render_picture(*key)
    picture.setflags(write=False)
    return picture


def board_picture(board: Board, classes: Sequence[int], step: int = 1) -> npt.NDArray[np.uint8]:
    """Packed colours of the board, 128 pixels a tile, each turned clockwise by its rotation; a
    sink board's source, sink and crosses show their fixed pictures, its holes bare ground
    (docs/world-format.md, "Sink rooms").
    With `step` (a divisor of 128) every `step`-th pixel of each turned tile, from the middle of
    the first `step` (what a nearest-neighbour shrink by `step` keeps), so a large board never
    exists at full size."""
    if step < 1 or 128 % step:
        raise ValueError(f"step must divide 128, got {step}")
    first = step // 2
    fixed: dict[int, str] = {}
    if board.sink is not None:
        sink = board.index(*board.sink)
        fixed[board.source_index] = "source"
        fixed[sink] = "sink_dry" if classes[sink] == TileClass.DRY else "sink_wet"
    if board.has_crosses:
        from controller.puzzle.flow import compute_flow

        axes = compute_flow(board).axes
        for t in (t for t in range(board.size) if board.shapes[t] == CROSS):
            fixed[t] = "cross_" + CROSS_PICTURES[axes[t]]
    for t in (t for t in range(board.size) if board.shapes[t] == HOLE):
        fixed[t] = "hole"
    rows = []
    for j in range(board.height):
        row = []
        for i in range(board.width):
            idx = j * board.width + i
            key: tuple[int, int] | str = fixed.get(idx) or (board.shapes[idx], int(classes[idx]))
            turned = np.rot90(_tile(key), k=-board.rotations[idx])
            row.append(turned[first::step, first::step] if step > 1 else turned)
        rows.append(np.concatenate(row, axis=1))
    picture: npt.NDArray[np.uint8] = np.concatenate(rows, axis=0)
    return picture
