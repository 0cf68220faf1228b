"""A PNG of a paint room: its canvas beside its target (`pipesctl show --png` for paint rooms)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from controller.puzzle.paint import Canvas
from controller.world.mapart import to_rgb
from controller.world.paint.art import PAINT_COLOURS

__all__ = ["paint_image", "paint_png", "CELL_PIXELS"]

CELL_PIXELS = 16
_GAP = 2  # cells of background between canvas and target
_BACKGROUND = (40, 40, 40)
_WRONG = (220, 40, 40)


def paint_image(canvas: Canvas, target: Canvas, cell: int = CELL_PIXELS) -> Image.Image:
    """Canvas (left) and target (right) in the default blocks' map colours, `cell` pixels per
    cell; canvas cells that differ from the target get a red dot."""
    w, h = canvas.width, canvas.height
    colours = to_rgb(np.array(PAINT_COLOURS, dtype=np.uint8))
    out = np.zeros(((h * cell), (2 * w + _GAP) * cell, 3), dtype=np.uint8)
    out[:, :] = _BACKGROUND
    wrong = set(target.diff(canvas))
    for left, picture in ((0, canvas), ((w + _GAP) * cell, target)):
        for j in range(h):
            for i in range(w):
                y, x = j * cell, left + i * cell
                out[y + 1 : y + cell - 1, x + 1 : x + cell - 1] = colours[picture[i, j]]
                if left == 0 and (i, j) in wrong:
                    c = cell // 2
                    out[y + c - 2 : y + c + 2, x + c - 2 : x + c + 2] = _WRONG
    return Image.fromarray(out, mode="RGB")


def paint_png(path: str | Path, canvas: Canvas, target: Canvas) -> Path:
    """Write canvas and target side by side as a PNG; return its path."""
    out = Path(path)
    paint_image(canvas, target).save(out, format="PNG")
    return out
