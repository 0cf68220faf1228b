"""The paint room PNG: canvas left, target right, wrong canvas cells marked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from controller.maps.paintpng import CELL_PIXELS, paint_image, paint_png
from controller.puzzle.paint import Canvas
from controller.world.mapart import to_rgb
from controller.world.paint.art import PAINT_COLOURS


def test_cells_are_drawn_in_the_block_colours_and_wrong_cells_marked(tmp_path: Path) -> None:
    canvas = Canvas.from_grid([[1, 0], [0, 0]])
    target = Canvas.from_grid([[1, 1], [0, 0]])
    image = np.asarray(paint_image(canvas, target))
    c = CELL_PIXELS
    assert image.shape == (2 * c, (2 * 2 + 2) * c, 3)
    white, blue = (tuple(int(v) for v in to_rgb(np.uint8(k))) for k in PAINT_COLOURS)

    def at(left: int, i: int, j: int) -> tuple[int, ...]:
        return tuple(int(v) for v in image[j * c + 2, left + i * c + 2])

    target_left = 4 * c
    assert at(0, 0, 0) == blue and at(0, 1, 0) == white and at(0, 0, 1) == white
    assert at(target_left, 1, 0) == blue and at(target_left, 1, 1) == white
    centre = tuple(int(v) for v in image[c // 2, c + c // 2])  # canvas (1, 0) is wrong
    assert centre == (220, 40, 40)
    assert tuple(int(v) for v in image[c // 2, c // 2]) == blue  # (0, 0) is right: no mark
    path = paint_png(tmp_path / "p.png", canvas, target)
    with Image.open(path) as png:
        assert png.format == "PNG" and png.size == (6 * c, 2 * c)
