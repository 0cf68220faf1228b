"""PNG files: the labelled preview sheet and a board's picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from controller.maps.png import CLOSED_OUTLINE, board_image, board_png, preview_image, preview_png
from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import GeneratorParams, generate
from controller.world.mapart import PICTURE_COUNT, SIZE, all_pictures, to_rgb
from controller.world.pipes.boardart import board_picture
from tests.support.map_palette import PALETTE


def test_preview_png_is_cells_of_128_in_palette_colours(tmp_path: Path) -> None:
    out = preview_png(tmp_path / "maps.png", base=7000)
    with Image.open(out) as image:
        rgb = np.asarray(image.convert("RGB"))
    height, width, _ = rgb.shape
    assert height % SIZE == 0 and width % SIZE == 0
    assert (height // SIZE) * (width // SIZE) >= PICTURE_COUNT
    colours = {tuple(int(v) for v in px) for px in np.unique(rgb.reshape(-1, 3), axis=0)}
    assert colours <= PALETTE
    # every picture sits somewhere on the sheet, on a 128-pixel cell
    cells = {
        rgb[y : y + SIZE, x : x + SIZE].tobytes()
        for y in range(0, height, SIZE)
        for x in range(0, width, SIZE)
    }
    for picture in all_pictures(7000).values():
        assert to_rgb(picture).tobytes() in cells


def test_preview_labels_are_drawn() -> None:
    plain = preview_image(0)
    sheet = np.asarray(plain)
    label_column = sheet[:, :SIZE]
    assert len(np.unique(label_column)) >= 2  # text on the label background
    assert not np.array_equal(np.asarray(preview_image(0)), np.asarray(preview_image(123456)))


def test_board_png_shows_the_board_picture(tmp_path: Path) -> None:
    board = generate(5, 4, seed=3)
    classes = compute_flow(board).classes
    out = board_png(tmp_path / "board.png", board, classes)
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size == (5 * SIZE, 4 * SIZE)
        rgb = np.asarray(image.convert("RGB"))
    assert np.array_equal(rgb, to_rgb(board_picture(board, classes)))


def packed_rgb(rgb: np.ndarray) -> set[int]:
    """The distinct colours of an RGB array, each as one integer."""
    flat = rgb.reshape(-1, 3).astype(np.int64)
    return set(np.unique(flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2]).tolist())


def test_board_png_of_a_wide_board_stays_within_4096_pixels(tmp_path: Path) -> None:
    board = generate(40, 3, seed=3, params=GeneratorParams(unique=False))
    classes = compute_flow(board).classes
    out = board_png(tmp_path / "board.png", board, classes)
    with Image.open(out) as image:
        assert image.size == (40 * 102, 3 * 102)  # 4096 // 40 pixels a tile
        rgb = np.asarray(image.convert("RGB"))
    # shrunk by nearest neighbour: no blended colours
    assert packed_rgb(rgb) <= packed_rgb(to_rgb(board_picture(board, classes)))


def test_board_png_frames_the_closed_tiles_only(tmp_path: Path) -> None:
    board = next(
        b for s in range(50) if closed_tiles(b := generate(7, 7, seed=s, params=GeneratorParams()))
    )
    found = closed_tiles(board)
    closed = [t in found for t in range(board.size)]
    classes = compute_flow(board).classes
    out = board_png(tmp_path / "board.png", board, classes, closed)
    with Image.open(out) as image:
        rgb = np.asarray(image.convert("RGB"))
    plain = to_rgb(board_picture(board, classes))
    for t in range(board.size):
        x, y = t % board.width * SIZE, t // board.width * SIZE
        tile, want = rgb[y : y + SIZE, x : x + SIZE], plain[y : y + SIZE, x : x + SIZE]
        if closed[t]:
            border = np.concatenate([tile[0], tile[-1], tile[:, 0], tile[:, -1]])
            assert {tuple(int(v) for v in px) for px in border} == {CLOSED_OUTLINE}
            assert np.array_equal(tile[16:-16, 16:-16], want[16:-16, 16:-16])  # the picture
        else:
            assert np.array_equal(tile, want)


@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.integers(0, 2**31 - 1),
    st.sampled_from([2, 8, 16, 32, 64]),
    st.sampled_from(["tree", "sink"]),
)
@settings(max_examples=20, deadline=None)
def test_a_small_board_image_is_the_full_picture_shrunk(
    width: int, height: int, seed: int, tile_px: int, mode: str
) -> None:
    board = generate(width, height, seed=seed, params=GeneratorParams(mode=mode))
    classes = compute_flow(board).classes
    full = Image.fromarray(to_rgb(board_picture(board, classes)), "RGB")
    shrunk = full.resize((width * tile_px, height * tile_px), Image.Resampling.NEAREST)
    assert board_image(board, classes, tile_px).tobytes() == shrunk.tobytes()
