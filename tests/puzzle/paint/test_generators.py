"""Generators: walk, strokes and image targets; the nearest paintable target."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from controller.puzzle.paint import generators
from controller.puzzle.paint.generators import (
    UnpaintableImage,
    generate,
    image,
    image_target,
    max_par,
    strokes,
    walk,
    walk_cells,
)
from controller.puzzle.paint.model import Canvas
from controller.puzzle.paint.solver import conflict, is_solvable, nearest_solvable, par
from tests.support.paint_oracle import bfs, from_int, to_int


def connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        i, j = stack.pop()
        for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == cells


@settings(max_examples=80)
@given(st.integers(1, 16), st.integers(1, 16), st.integers(0, 2**32), st.data())
def test_walk_paints_a_connected_paintable_shape(
    w: int, h: int, seed: int, data: st.DataObject
) -> None:
    cells = data.draw(st.none() | st.integers(1, min(w * h, 12)))
    puzzle = generate(w, h, seed=seed, generator="walk", cells=cells)
    target = puzzle.target
    ones = {(i, j) for j in range(h) for i in range(w) if target[i, j]}
    want = generators.default_cells(w, h) if cells is None else cells
    assert len(ones) == want and connected(ones)
    assert is_solvable(target) and puzzle.par == par(target)
    assert puzzle.blank().paint(puzzle.solution) == target
    assert puzzle.meta["cells"] == want and puzzle.meta["walks_tried"] >= 1  # type: ignore[operator]
    assert puzzle.seed == seed and puzzle.generator == "walk"
    assert generate(w, h, seed=seed, generator="walk", cells=cells) == puzzle


def test_walks_tried_counts_the_unpaintable_walks() -> None:
    puzzle = generate(8, 8, seed=4, generator="walk", cells=16)
    rng = random.Random(4)
    tried = [is_solvable(walk_cells(8, 8, 16, rng)) for _ in range(puzzle.meta["walks_tried"])]  # type: ignore[call-overload]
    assert tried[-1] and not any(tried[:-1])


def test_walk_gives_up_after_max_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(s for s in range(100) if not is_solvable(walk_cells(6, 6, 12, random.Random(s))))
    monkeypatch.setattr(generators, "MAX_WALKS", 1)
    with pytest.raises(ValueError, match=r"^cells: no paintable walk of 12 cells in 1 tries"):
        walk(6, 6, random.Random(seed), 12, seed=seed)


@settings(max_examples=150)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32), st.data())
def test_strokes_hits_the_asked_par(w: int, h: int, seed: int, data: st.DataObject) -> None:
    want = data.draw(st.integers(0, max_par(w, h)))
    puzzle = generate(w, h, seed=seed, generator="strokes", par=want)
    assert par(puzzle.target) == puzzle.par == want
    painted_with = puzzle.meta["painted_with"]
    assert isinstance(painted_with, list) and len(painted_with) == want
    assert generate(w, h, seed=seed, generator="strokes", par=want) == puzzle


def test_strokes_default_par_and_limits() -> None:
    assert generate(8, 8, seed=1, generator="strokes").par == 8
    assert generate(1, 1, seed=1, generator="strokes").par == 1
    with pytest.raises(ValueError, match=r"^par: must be 0..15 for 8x8, got 16"):
        strokes(8, 8, random.Random(0), 16, seed=0)


def test_the_largest_par_is_w_plus_h_minus_1() -> None:
    for w, h in ((1, 1), (2, 3), (3, 3), (4, 2)):
        assert max(bfs(w, h).values()) == max_par(w, h)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"generator": "spiral"}, "generator: unknown 'spiral'"),
        ({"generator": "walk", "cells": 0}, "cells: must be 1..64"),
        ({"generator": "walk", "cells": 65}, "cells: must be 1..64"),
        ({"generator": "walk", "par": 3}, "par: only for the strokes generator"),
        ({"generator": "strokes", "cells": 3}, "cells: only for the walk generator"),
        ({"generator": "walk", "image_path": "x.png"}, "image: only for the image generator"),
        ({"generator": "walk", "nearest": True}, "nearest: only for the image generator"),
        ({"generator": "image"}, "image: the image generator needs a picture file"),
    ],
)
def test_bad_generator_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        generate(8, 8, seed=0, **kwargs)  # type: ignore[arg-type]


def picture(tmp_path: Path, grid: list[list[int]], scale: int = 5, mode: str = "L") -> Path:
    """A PNG with each grid cell a scale x scale block, 1 black and 0 white."""
    h, w = len(grid), len(grid[0])
    img = Image.new("L", (w * scale, h * scale), 255)
    for j, row in enumerate(grid):
        for i, v in enumerate(row):
            if v:
                img.paste(0, (i * scale, j * scale, (i + 1) * scale, (j + 1) * scale))
    path = tmp_path / "picture.png"
    img.convert(mode).save(path)
    return path


STAIRS = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0], [1, 1, 1, 1]]


@pytest.mark.parametrize("mode", ["L", "RGB", "1", "P"])
def test_image_is_resized_and_thresholded(tmp_path: Path, mode: str) -> None:
    path = picture(tmp_path, STAIRS, mode=mode)
    target, size = image_target(path, 4, 5)
    assert target.to_grid() == STAIRS and size == (20, 25)
    puzzle = image(path, 4, 5, seed=9)
    assert puzzle.target.to_grid() == STAIRS and puzzle.par == 4 + 4 - 1
    assert puzzle.meta == {"image": "picture.png", "image_size": [20, 25]}
    assert image(path).target.width == 20  # the picture's own size when none is given


def test_image_transparent_pixels_are_white(tmp_path: Path) -> None:
    img = Image.new("RGBA", (2, 1), (0, 0, 0, 0))
    img.putpixel((1, 0), (0, 0, 0, 255))
    path = tmp_path / "alpha.png"
    img.save(path)
    assert image_target(path, 2, 1)[0].to_grid() == [[0, 1]]


def test_big_pictures_are_scaled_to_fit(tmp_path: Path) -> None:
    path = tmp_path / "wide.png"
    Image.new("L", (512, 64), 255).save(path)
    assert image_target(path)[0].width == 128 and image_target(path)[0].height == 16


def test_an_unpaintable_image_is_refused_with_its_conflict(tmp_path: Path) -> None:
    path = picture(tmp_path, [[1, 0, 0], [0, 1, 0], [0, 0, 0]])
    with pytest.raises(UnpaintableImage) as caught:
        image(path, 3, 3)
    err = caught.value
    message = str(err)
    assert message.startswith("image: not paintable: cells (0, 0) and (1, 1) are 1 but")
    assert message.endswith(("changes 1 cell: (0, 0)", "changes 1 cell: (1, 1)"))
    assert is_solvable(err.nearest) and len(err.flips) == 1
    puzzle = image(path, 3, 3, nearest=True)
    assert puzzle.target == err.nearest
    assert puzzle.meta["flipped"] == [list(c) for c in err.flips]


def test_a_missing_or_bad_image(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="^image: cannot read"):
        image_target(tmp_path / "none.png", 4, 4)
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a picture")
    with pytest.raises(ValueError, match="^image: cannot read"):
        image_target(junk, 4, 4)


@pytest.mark.parametrize(("w", "h"), [(1, 4), (2, 2), (2, 3), (3, 2), (3, 3)])
def test_nearest_is_optimal_on_small_boards(w: int, h: int) -> None:
    reachable = list(bfs(w, h))
    for value in range(1 << (w * h)):
        target = from_int(w, h, value)
        near = nearest_solvable(target)
        assert is_solvable(near)
        assert (to_int(near) ^ value).bit_count() == min((value ^ x).bit_count() for x in reachable)


@settings(max_examples=60)
@given(st.integers(1, 24), st.integers(1, 24), st.integers(0, 2**32), st.booleans())
def test_nearest_is_paintable_and_keeps_paintable_targets(
    w: int, h: int, seed: int, paintable: bool
) -> None:
    rng = random.Random(seed)
    if paintable:
        target = strokes(w, h, rng, rng.randint(0, w + h - 1), seed=seed).target
        assert nearest_solvable(target) == target
    else:
        target = Canvas(w, h, tuple(rng.getrandbits(w) for _ in range(h)))
        near = nearest_solvable(target)
        assert conflict(near) is None
        assert len(target.diff(near)) <= min(target.ones(), target.size - target.ones())
