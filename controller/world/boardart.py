"""A board drawn with its real map pictures, as players see it from above (pure, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from controller.puzzle.model import Board, TileClass
from controller.world.mapart import render_picture, render_sink_picture

__all__ = ["board_picture"]


def board_picture(board: Board, classes: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Packed colours of the board, 128 pixels a tile, each turned clockwise by its rotation; a
    sink board's source and sink show their fixed pictures (docs/world-format.md, "Sink rooms")."""
    cache: dict[tuple[int, int] | str, npt.NDArray[np.uint8]] = {}
    fixed: dict[int, str] = {}
    if board.sink is not None:
        sink = board.index(*board.sink)
        fixed[board.source_index] = "source"
        fixed[sink] = "sink_dry" if classes[sink] == TileClass.DRY else "sink_wet"
    rows = []
    for j in range(board.height):
        row = []
        for i in range(board.width):
            idx = j * board.width + i
            key: tuple[int, int] | str = fixed.get(idx) or (board.shapes[idx], int(classes[idx]))
            if key not in cache:
                cache[key] = (
                    render_sink_picture(key) if isinstance(key, str) else render_picture(*key)
                )
            row.append(np.rot90(cache[key], k=-board.rotations[idx]))
        rows.append(np.concatenate(row, axis=1))
    picture: npt.NDArray[np.uint8] = np.concatenate(rows, axis=0)
    return picture
