"""A board drawn with its real map pictures, as players see it from above (for sharing)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from controller.puzzle.model import Board
from controller.world.mapart import render_picture, to_rgb

__all__ = ["board_image", "board_png"]


def board_image(board: Board, classes: Sequence[int], tile_px: int = 128) -> Image.Image:
    """Each tile's picture turned clockwise by its rotation, north up."""
    cache: dict[tuple[int, int], np.ndarray] = {}
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
    image = Image.fromarray(to_rgb(np.concatenate(rows, axis=0)), "RGB")
    if tile_px != 128:
        image = image.resize(
            (board.width * tile_px, board.height * tile_px), Image.Resampling.NEAREST
        )
    return image


def board_png(path: str | Path, board: Board, classes: Sequence[int]) -> Path:
    """Write the board picture as PNG (tiles shrink so the image stays ≤ 4096 px wide)."""
    tile_px = max(16, min(128, 4096 // max(board.width, board.height)))
    out = Path(path)
    board_image(board, classes, tile_px).save(out)
    return out
