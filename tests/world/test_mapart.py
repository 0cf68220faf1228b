"""Map art: geometry per shape and rotation, looks per class, and the palette."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.model import SHAPE_MASK, Direction, Shape, TileClass, bit, rotate_mask
from controller.world import mapart
from controller.world.mapart import (
    DEFAULT_MAP_ID_BASE,
    PICTURE_COUNT,
    SIZE,
    all_pictures,
    picture_key,
    preview_sheet,
    render_picture,
    to_rgb,
)
from tests.support.map_palette import PALETTE, oracle_rgb

BACKGROUND_RGB = {tuple(int(v) for v in to_rgb(np.uint8(c))) for c in mapart.BACKGROUND_COLOURS}

# Two pixels at the middle of each edge (the picture is even-sized), by direction.
MIDPOINTS = {
    Direction.N: ((0, 63), (0, 64)),
    Direction.E: ((63, SIZE - 1), (64, SIZE - 1)),
    Direction.S: ((SIZE - 1, 63), (SIZE - 1, 64)),
    Direction.W: ((63, 0), (64, 0)),
}


def is_pipe(rgb: npt.NDArray[np.uint8], row: int, col: int) -> bool:
    """A pixel that belongs to a pipe, not to the tile's ground."""
    return tuple(int(v) for v in rgb[row, col]) not in BACKGROUND_RGB


def arms_seen(rgb: npt.NDArray[np.uint8]) -> int:
    """The arm mask read off a decoded picture: edges whose midpoints carry pipe colour."""
    mask = 0
    for d, points in MIDPOINTS.items():
        hits = [is_pipe(rgb, r, c) for r, c in points]
        assert hits[0] == hits[1], f"edge {d.name} is not symmetric at its middle"
        if hits[0]:
            mask |= bit(d)
    return mask


CASES = list(itertools.product(Shape, TileClass))


@pytest.mark.parametrize(("shape", "cls"), CASES, ids=lambda v: v.name.lower())
def test_rotated_picture_shows_the_rotated_arms(shape: Shape, cls: TileClass) -> None:
    rgb = to_rgb(render_picture(shape, cls))
    for r in range(4):
        turned = np.rot90(rgb, k=-r)  # clockwise seen from above, north up: one player's click
        assert arms_seen(turned) == rotate_mask(SHAPE_MASK[shape], r), (shape, cls, r)


@pytest.mark.parametrize(("shape", "cls"), CASES, ids=lambda v: v.name.lower())
def test_arms_run_unbroken_from_centre_to_edge(shape: Shape, cls: TileClass) -> None:
    rgb = to_rgb(render_picture(shape, cls))
    centre = SIZE // 2
    rays = {
        Direction.N: [(z, centre) for z in range(centre + 1)],
        Direction.S: [(z, centre) for z in range(centre, SIZE)],
        Direction.E: [(centre, x) for x in range(centre, SIZE)],
        Direction.W: [(centre, x) for x in range(centre + 1)],
    }
    for d, ray in rays.items():
        if SHAPE_MASK[shape] & bit(d):
            assert all(is_pipe(rgb, r, c) for r, c in ray), d
        else:  # no arm: the ground shows between the pipe's hub and the edge
            assert not is_pipe(rgb, *ray[0 if d in (Direction.N, Direction.W) else -1])


@pytest.mark.parametrize("cls", list(TileClass), ids=lambda c: c.name.lower())
def test_neighbouring_tiles_join(cls: TileClass) -> None:
    """Every arm meets its edge with the same profile, mirrored across the edge, so pipes join."""
    profiles = set()
    for shape in Shape:
        picture = render_picture(shape, cls)
        for r in range(4):
            turned = np.rot90(picture, k=-r)
            arms = rotate_mask(SHAPE_MASK[shape], r)
            if arms & bit(Direction.N):
                profiles.add(turned[0, :].tobytes())
            if arms & bit(Direction.S):
                profiles.add(turned[-1, :].tobytes())
            if arms & bit(Direction.E):
                profiles.add(turned[:, -1].tobytes())
            if arms & bit(Direction.W):
                profiles.add(turned[:, 0].tobytes())
    assert len(profiles) == 1
    (profile,) = profiles
    row = np.frombuffer(profile, dtype=np.uint8)
    assert np.array_equal(row, row[::-1])  # symmetric about the middle of the edge


@pytest.mark.parametrize("cls", list(TileClass), ids=lambda c: c.name.lower())
def test_straight_is_symmetric_under_half_turn(cls: TileClass) -> None:
    picture = render_picture(Shape.STRAIGHT, cls)
    assert np.array_equal(np.rot90(picture, 2), picture)


def test_classes_differ_for_every_shape() -> None:
    for shape in Shape:
        pictures = [render_picture(shape, cls) for cls in TileClass]
        for a, b in itertools.combinations(range(len(pictures)), 2):
            assert not np.array_equal(pictures[a], pictures[b]), (shape, a, b)


def colour_distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return float(np.linalg.norm(np.subtract(a, b)))


def test_dry_wet_and_ring_water_are_far_apart() -> None:
    """The pipe's inside (read at an arm's edge middle) differs strongly between the classes."""
    inside = {}
    for cls in (TileClass.DRY, TileClass.WET, TileClass.RING):
        rgb = to_rgb(render_picture(Shape.STRAIGHT, cls))
        inside[cls] = tuple(int(v) for v in rgb[0, 60])  # north edge, inside the channel
    for a, b in itertools.combinations(inside, 2):
        assert colour_distance(inside[a], inside[b]) > 80, (a, b, inside)
    red, green, blue = inside[TileClass.WET]
    assert blue > red + 60 and blue > green + 60  # water is blue
    dr, dg, db = inside[TileClass.DRY]
    assert dr >= dg >= db and dr - db < 60  # dry is a dull grey-brown


@pytest.mark.parametrize("shape", list(Shape), ids=lambda s: s.name.lower())
def test_source_emblem_is_large_and_sources_match_their_pipe(shape: Shape) -> None:
    wet, source = render_picture(shape, TileClass.WET), render_picture(shape, TileClass.SOURCE)
    ring, source_ring = (render_picture(shape, c) for c in (TileClass.RING, TileClass.SOURCE_RING))
    # the fountain covers a large disc (readable from a player's height)...
    assert np.count_nonzero(wet != source) > 2500
    # ...and leaves the pipe ends alone, so a source joins its wet or ring neighbours
    for plain, marked in ((wet, source), (ring, source_ring)):
        assert np.array_equal(plain[0], marked[0]) and np.array_equal(plain[-1], marked[-1])
        assert np.array_equal(plain[:, 0], marked[:, 0])
        assert np.array_equal(plain[:, -1], marked[:, -1])
    assert not np.array_equal(source, source_ring)


def test_only_opaque_palette_colours() -> None:
    for picture in all_pictures().values():
        assert picture.shape == (SIZE, SIZE) and picture.dtype == np.uint8
        used = set(np.unique(picture).tolist())
        assert used <= mapart.OPAQUE_COLOURS
        assert {oracle_rgb(p) for p in used} <= PALETTE


def test_palette_of_pillow_minecraft_map_matches_vanilla_formula() -> None:
    for p in range(4, 248):
        assert tuple(int(v) for v in mapart.PALETTE_RGB[p]) == oracle_rgb(p), p


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(4, 247), min_size=1, max_size=64))
def test_to_rgb_matches_oracle_for_unsigned_and_signed_bytes(values: list[int]) -> None:
    arr = np.array(values, dtype=np.uint8)
    expected = [oracle_rgb(v) for v in values]
    assert [tuple(int(c) for c in px) for px in to_rgb(arr)] == expected
    assert np.array_equal(to_rgb(arr.view(np.int8)), to_rgb(arr))  # NBT bytes are signed


def test_to_rgb_rejects_bytes_that_are_no_map_colour() -> None:
    with pytest.raises(ValueError, match="not a map colour"):
        to_rgb(np.array([5, 250], dtype=np.uint8))


@given(st.integers(0, 2**31 - 1 - PICTURE_COUNT))
def test_all_pictures_ids_follow_the_spec_formula(base: int) -> None:
    keys = [base + shape + 4 * cls for cls in TileClass for shape in Shape]
    assert sorted(keys) == list(range(base, base + PICTURE_COUNT))
    for k in range(PICTURE_COUNT):
        shape, cls = picture_key(k)
        assert k == int(shape) + 4 * int(cls)


def test_all_pictures_are_the_rendered_ones() -> None:
    pictures = all_pictures(5000)
    assert sorted(pictures) == list(range(5000, 5000 + PICTURE_COUNT))
    for map_id, picture in pictures.items():
        shape, cls = picture_key(map_id - 5000)
        assert np.array_equal(picture, render_picture(shape, cls))


def test_picture_key_and_render_reject_bad_input() -> None:
    with pytest.raises(ValueError):
        picture_key(PICTURE_COUNT)
    with pytest.raises(ValueError):
        render_picture(4, 0)
    with pytest.raises(ValueError):
        render_picture(0, 5)


def test_default_base_agrees_with_configuration() -> None:
    from controller.config import DEFAULT_MAP_ID_BASE as CONFIG_DEFAULT

    assert DEFAULT_MAP_ID_BASE == CONFIG_DEFAULT
    assert DEFAULT_MAP_ID_BASE + PICTURE_COUNT < 2**31


def test_preview_sheet_holds_every_picture_on_its_cell() -> None:
    sheet = preview_sheet()
    assert sheet.shape == ((1 + len(TileClass)) * SIZE, (1 + len(Shape)) * SIZE)
    assert sheet.dtype == np.uint8
    for k in range(PICTURE_COUNT):
        shape, cls = picture_key(k)
        row, col = 1 + int(cls), 1 + int(shape)
        cell = sheet[row * SIZE : (row + 1) * SIZE, col * SIZE : (col + 1) * SIZE]
        assert np.array_equal(cell, render_picture(shape, cls)), (shape, cls)
    # the label column and the header row are left for the labels
    assert set(np.unique(sheet[:, :SIZE]).tolist()) == {mapart.LABEL_BACKGROUND}
    assert set(np.unique(sheet[:SIZE, :]).tolist()) == {mapart.LABEL_BACKGROUND}
    labels = {mapart.LABEL_BACKGROUND, mapart.LABEL_TEXT, mapart.LABEL_DIM}
    assert labels <= mapart.OPAQUE_COLOURS and len(labels) == 3
