"""A board composed of its tile pictures, as seen from above."""

from __future__ import annotations

import numpy as np

from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import generate
from controller.world.mapart import SIZE, render_picture
from controller.world.pipes.boardart import board_picture


def test_every_tile_shows_its_picture_turned_by_its_rotation() -> None:
    board = generate(5, 4, seed=3)
    classes = compute_flow(board).classes
    picture = board_picture(board, classes)
    assert picture.shape == (4 * SIZE, 5 * SIZE) and picture.dtype == np.uint8
    for j in range(board.height):
        for i in range(board.width):
            idx = j * board.width + i
            tile = picture[j * SIZE : (j + 1) * SIZE, i * SIZE : (i + 1) * SIZE]
            expected = render_picture(board.shapes[idx], classes[idx])
            assert np.array_equal(tile, np.rot90(expected, k=-board.rotations[idx])), (i, j)


def test_a_turn_changes_only_that_tile() -> None:
    board = generate(4, 4, seed=8)
    classes = [0] * board.size
    before = board_picture(board, classes)
    board.rotations[5] = (board.rotations[5] + 1) % 4
    after = board_picture(board, classes)
    changed = np.argwhere(before != after)
    assert changed.size  # a quarter turn changes the picture of every shape
    rows, cols = changed[:, 0] // SIZE, changed[:, 1] // SIZE
    assert set(rows.tolist()) == {1} and set(cols.tolist()) == {1}


def test_a_sink_boards_source_and_sink_show_their_fixed_pictures() -> None:
    import random

    from controller.puzzle.model import TileClass
    from controller.puzzle.sink import sink_board
    from controller.world.mapart import render_sink_picture

    board = sink_board(6, 5, (2, 2), 0.4, random.Random(4))
    assert board.sink is not None
    sink = board.index(*board.sink)

    def tile(picture: np.ndarray, idx: int) -> np.ndarray:
        i, j = idx % board.width, idx // board.width
        return picture[j * SIZE : (j + 1) * SIZE, i * SIZE : (i + 1) * SIZE]

    for wet, name in ((TileClass.DRY, "sink_dry"), (TileClass.WET, "sink_wet")):
        classes = [int(TileClass.DRY)] * board.size
        classes[board.source_index], classes[sink] = TileClass.SOURCE, wet
        picture = board_picture(board, classes)
        for idx, want in ((board.source_index, "source"), (sink, name)):
            turned = np.rot90(render_sink_picture(want), k=-board.rotations[idx])
            assert np.array_equal(tile(picture, idx), turned), (idx, want)
        other = next(k for k in range(board.size) if k not in (board.source_index, sink))
        expected = render_picture(board.shapes[other], classes[other])
        assert np.array_equal(tile(picture, other), np.rot90(expected, k=-board.rotations[other]))
