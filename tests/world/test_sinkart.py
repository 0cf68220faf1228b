"""The sink rooms' fixed pictures: ids past the other ranges, the arm, the plate, dry and wet."""

from __future__ import annotations

import numpy as np
import pytest

from controller.puzzle.model import Shape, TileClass
from controller.world.mapart import (
    BACKGROUND_COLOURS,
    FIXED_PLATE,
    OPAQUE_COLOURS,
    SIZE,
    STYLES,
    render_picture,
    render_sink_picture,
    sink_pictures,
)
from controller.world.mapids import (
    BRUSH_OFFSET,
    BRUSH_PICTURES,
    LAST_OFFSET,
    PICTURE_COUNT,
    SINK_OFFSET,
    SINK_PICTURES,
    sink_map_id,
)

# Midpoint pixels of each edge, north, east, south, west.
EDGES = {"N": (0, 63), "E": (63, SIZE - 1), "S": (SIZE - 1, 63), "W": (63, 0)}


def test_sink_ids_follow_the_brushes_and_collide_with_nothing() -> None:
    pipes = set(range(PICTURE_COUNT + 5))  # pipes 0..19 and the crosses' 20..24
    brushes = set(range(BRUSH_OFFSET, BRUSH_OFFSET + len(BRUSH_PICTURES)))
    sinks = {sink_map_id(0, p) for p in SINK_PICTURES}
    assert sinks == {40, 41, 42} and not sinks & (pipes | brushes)
    assert LAST_OFFSET == max(sinks) == SINK_OFFSET + 2
    assert sorted(sink_pictures(5000)) == [5040, 5041, 5042]


@pytest.mark.parametrize("picture", SINK_PICTURES)
def test_a_fixed_picture_is_an_end_on_a_bolted_plate(picture: str) -> None:
    img = render_sink_picture(picture)
    assert img.shape == (SIZE, SIZE) and set(np.unique(img)) <= OPAQUE_COLOURS
    # The arm (south at rotation 0) reaches the edge; the other edges show the plate.
    assert img[EDGES["S"]] not in BACKGROUND_COLOURS | {FIXED_PLATE}
    for side in "NEW":
        assert img[EDGES[side]] == FIXED_PLATE
    # A quarter turn of the array is the picture turned: the arm moves to the west edge.
    turned = np.rot90(img, k=-1)
    assert turned[EDGES["W"]] not in BACKGROUND_COLOURS | {FIXED_PLATE}
    assert turned[EDGES["S"]] == FIXED_PLATE


def test_the_three_pictures_differ_and_the_drain_shows_the_water() -> None:
    source, dry, wet = (render_sink_picture(p) for p in SINK_PICTURES)
    assert not np.array_equal(source, dry) and not np.array_equal(dry, wet)
    centre = (64, 64)
    assert wet[centre] == STYLES[TileClass.WET].inside
    assert dry[centre] != STYLES[TileClass.WET].inside
    # The source keeps the fountain of the pipe pictures' source end at its centre.
    assert source[centre] == render_picture(Shape.END, TileClass.SOURCE)[centre]
    # The dry sink's pipe is dry, the wet one's wet.
    arm = (110, 63)
    assert dry[arm] == render_picture(Shape.END, TileClass.DRY)[arm]
    assert wet[arm] == render_picture(Shape.END, TileClass.WET)[arm]


def test_an_unknown_sink_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="no sink picture 'drain'"):
        render_sink_picture("drain")
