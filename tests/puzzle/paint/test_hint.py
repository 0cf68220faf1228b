"""Completions and hints from any canvas, against BFS from that canvas."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.paint.generators import strokes
from controller.puzzle.paint.model import Canvas, Stroke, runs
from controller.puzzle.paint.solver import Unpaintable, completion, hint, par, remaining
from tests.support.paint_oracle import bfs, from_int, to_int


def check_pair(w: int, h: int, start: int, goal: int, dist: dict[int, int]) -> None:
    """completion/remaining/hint from ``start`` to ``goal`` given BFS distances from start."""
    canvas, target = from_int(w, h, start), from_int(w, h, goal)
    fewest = dist.get(goal)
    assert remaining(target, canvas) == fewest
    found = completion(target, canvas)
    if fewest is None:
        assert found is None
        with pytest.raises(Unpaintable):
            hint(target, canvas)
        return
    assert found is not None and len(found) == fewest
    assert canvas.paint(found) == target
    tip = hint(target, canvas)
    if fewest == 0:
        assert tip is None
    else:
        assert tip == found[0]
        assert remaining(target, canvas.apply(tip)) == fewest - 1


@pytest.mark.parametrize(("w", "h"), [(1, 1), (1, 3), (2, 2), (2, 3), (3, 2), (4, 1)])
def test_every_canvas_and_target_of_tiny_boards(w: int, h: int) -> None:
    for start in range(1 << (w * h)):
        dist = bfs(w, h, start)
        for goal in range(1 << (w * h)):
            check_pair(w, h, start, goal, dist)


@settings(max_examples=200)
@given(st.sampled_from([(3, 3), (3, 4), (4, 3), (2, 5), (4, 4)]), st.data())
def test_random_canvas_and_target(size: tuple[int, int], data: st.DataObject) -> None:
    w, h = size
    start = data.draw(st.integers(0, (1 << (w * h)) - 1), label="canvas")
    goal = data.draw(st.integers(0, (1 << (w * h)) - 1), label="target")
    dist = bfs(w, h, start)
    check_pair(w, h, start, goal, dist)


def test_an_unpaintable_target_is_still_reachable_from_some_canvases() -> None:
    diagonal = Canvas.from_grid([[1, 0], [0, 1]])
    assert remaining(diagonal, diagonal) == 0 and hint(diagonal, diagonal) is None
    # no stroke leaves a full row or an empty column, so only the diagonal itself reaches it
    for value in range(16):
        canvas = from_int(2, 2, value)
        assert (remaining(diagonal, canvas) is None) == (canvas != diagonal)
    square = Canvas.from_grid([[1, 0, 0], [0, 1, 0], [0, 0, 0]])
    assert par(square) is None
    assert completion(square, Canvas.from_grid([[1, 0, 1], [0, 1, 1], [0, 0, 1]])) == (
        Stroke.col(2),
    )


@settings(max_examples=60)
@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 2**32))
def test_following_hints_from_any_canvas(w: int, h: int, seed: int) -> None:
    rng = random.Random(seed)
    target = strokes(w, h, rng, rng.randint(0, w + h - 1), seed=seed).target
    canvas = Canvas(w, h, tuple(rng.getrandbits(w) for _ in range(h)))
    left = remaining(target, canvas)
    fewest = par(target)
    # stroking every column clears any canvas, so a paintable target is always in reach
    assert left is not None and fewest is not None and left <= w + fewest
    steps = 0
    while (tip := hint(target, canvas)) is not None:
        canvas = canvas.apply(tip)
        steps += 1
        assert remaining(target, canvas) == left - steps
    assert canvas == target and steps == left


@settings(max_examples=150)
@given(st.sampled_from([(2, 3), (3, 3), (4, 3), (4, 4)]), st.data())
def test_the_good_strokes_are_the_first_run(size: tuple[int, int], data: st.DataObject) -> None:
    w, h = size
    canvas = from_int(w, h, data.draw(st.integers(0, (1 << (w * h)) - 1), label="canvas"))
    target = from_int(w, h, data.draw(st.integers(0, (1 << (w * h)) - 1), label="target"))
    plan = completion(target, canvas)
    if not plan:
        return
    every = [Stroke.row(j) for j in range(h)] + [Stroke.col(i) for i in range(w)]
    good = {s for s in every if remaining(target, canvas.apply(s)) == len(plan) - 1}
    axis, first = runs(plan)[0]
    assert good == {Stroke(axis, k) for k in first}


def test_canvas_size_must_match() -> None:
    with pytest.raises(ValueError, match="canvas: 3x2 does not match the 2x3 target"):
        remaining(Canvas.blank(2, 3), Canvas.blank(3, 2))


def test_a_stroke_then_the_rest() -> None:
    target = Canvas.from_grid([[1, 1, 0], [1, 0, 0], [0, 0, 0]])
    canvas = Canvas.blank(3, 3)
    assert to_int(target) == 0b000_001_011
    plan = completion(target, canvas)
    assert plan == (Stroke.row(1), Stroke.col(1), Stroke.row(0), Stroke.col(2))
    # painting row 2 first (a mistake) costs one stroke more: row 2 is cleared by the columns,
    # and only column 0, needed nowhere else, is extra
    wrong = canvas.apply(Stroke.row(2))
    assert completion(target, wrong) == (
        Stroke.col(0),
        Stroke.row(1),
        Stroke.col(1),
        Stroke.row(0),
        Stroke.col(2),
    )
