"""The brush pictures: size, palette, what each shows and where, their map ids."""

from __future__ import annotations

import numpy as np
import pytest

from controller.world.mapart import OPAQUE_COLOURS, SIZE, all_pictures, to_rgb
from controller.world.mapids import BRUSH_OFFSET, PICTURE_COUNT, brush_map_id
from controller.world.paint.art import (
    CROSS,
    HANDLE,
    PAINT_COLOURS,
    brush_pictures,
    render_brush,
)


@pytest.mark.parametrize("axis", ["row", "col", "clear"])
def test_each_picture_is_a_full_map_of_opaque_colours(axis: str) -> None:
    picture = render_brush(axis)
    assert picture.shape == (SIZE, SIZE) and picture.dtype == np.uint8
    assert set(np.unique(picture).tolist()) <= OPAQUE_COLOURS
    assert to_rgb(picture).shape == (SIZE, SIZE, 3)


def _share(picture: np.ndarray, colour: int) -> float:
    return float(np.mean(picture == colour))


def test_row_brush_paints_colour_1_at_its_west_end() -> None:
    row = render_brush("row")
    west, east = row[:, : SIZE // 2], row[:, SIZE // 2 :]
    assert _share(west, PAINT_COLOURS[1]) > 0.25 and _share(east, PAINT_COLOURS[1]) == 0
    assert _share(east, HANDLE) > 0.05 and _share(west, HANDLE) == 0
    assert _share(row, PAINT_COLOURS[0]) == 0


def test_column_brush_paints_colour_0_at_its_north_end() -> None:
    col = render_brush("col")
    north, south = col[: SIZE // 2], col[SIZE // 2 :]
    assert _share(north, PAINT_COLOURS[0]) > 0.25 and _share(south, PAINT_COLOURS[0]) == 0
    assert _share(south, HANDLE) > 0.05 and _share(col, PAINT_COLOURS[1]) == 0
    # the same brush as the row brush, turned a quarter clockwise, in the other colour
    row = render_brush("row")
    turned = np.rot90(np.where(row == PAINT_COLOURS[1], PAINT_COLOURS[0], row), k=-1)
    assert np.array_equal(col, turned)


def test_clear_is_a_colour_0_square_crossed_out() -> None:
    clear = render_brush("clear")
    assert _share(clear, PAINT_COLOURS[0]) > 0.2 and _share(clear, CROSS) > 0.02
    assert clear[64, 64] == CROSS and clear[30, 64] == PAINT_COLOURS[0]


def test_pictures_differ_and_sit_past_the_pipes_ids() -> None:
    pictures = brush_pictures(1000)
    assert (
        sorted(pictures)
        == [1032, 1033, 1034]
        == [brush_map_id(1000, a) for a in ("row", "col", "clear")]
    )
    assert BRUSH_OFFSET >= PICTURE_COUNT + 5  # past the pipes ids and the crosses' base+20..24
    assert not set(pictures) & set(all_pictures(1000))
    arrays = list(pictures.values())
    assert not any(np.array_equal(a, b) for k, a in enumerate(arrays) for b in arrays[k + 1 :])
    with pytest.raises(ValueError, match="no brush picture"):
        render_brush("diagonal")
