"""A board drawn with its real map pictures, as players see it from above (pure, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from controller.puzzle.model import Board
from controller.world.mapart import render_picture

__all__ = ["board_picture"]


def board_picture(board: Board, classes: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Packed colours of the board, 128 pixels a tile, each turned clockwise by its rotation."""
    cache: dict[tuple[int, int], npt.NDArray[np.uint8]] = {}
    rows = []
    for j in range(board.height):
        row = []
        for i in range(board.width):
            idx = j * board.width + i
            key = (board.shapes[idx], int(classes[idx]))
            if key not in cache:
                cache[key] = render_picture(*key)
            row.append(np.rot90(cache[key], k=-board.rotations[idx]))
        rows.append(np.concatenate(row, axis=1))
    picture: npt.NDArray[np.uint8] = np.concatenate(rows, axis=0)
    return picture
