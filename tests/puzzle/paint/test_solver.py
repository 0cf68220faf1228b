"""The solver against brute force: solvability, exact par and the shortest solution's order."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.paint.generators import strokes
from controller.puzzle.paint.model import Canvas, Stroke, runs
from controller.puzzle.paint.solver import (
    Unpaintable,
    conflict,
    is_solvable,
    par,
    puzzle_of,
    solve,
)
from tests.support.paint_oracle import bfs, classic_reverse, from_int, to_int

SMALL = [(w, h) for w in range(1, 5) for h in range(1, 5)]


@cache
def reachable(width: int, height: int, depth: int | None = None) -> dict[int, int]:
    """BFS distances from the blank canvas (cached per size)."""
    return bfs(width, height, 0, depth)


def check_order(strokes_: tuple[Stroke, ...]) -> None:
    """Alternating runs of rows and columns, each run strictly by index."""
    groups = runs(strokes_)
    for (a, ks), (b, _) in zip(groups, groups[1:], strict=False):
        assert a != b
        assert ks == sorted(set(ks))
    if groups:
        assert groups[-1][1] == sorted(set(groups[-1][1]))


def check_target(target: Canvas, fewest: int | None) -> None:
    """Everything the solver says about a target, against the true fewest strokes."""
    assert par(target) == fewest
    assert is_solvable(target) == (fewest is not None)
    found = solve(target)
    if fewest is None:
        assert found is None
        square = conflict(target)
        assert square is not None
        assert all(target[c] == 1 for c in square.ones)
        assert all(target[c] == 0 for c in square.zeros)
        (i1, j1), (i2, j2) = square.ones
        assert set(square.zeros) == {(i2, j1), (i1, j2)}
    else:
        assert found is not None and len(found) == fewest
        assert Canvas.blank(target.width, target.height).paint(found) == target
        assert conflict(target) is None
        check_order(found)


@pytest.mark.parametrize(("w", "h"), SMALL, ids=lambda v: str(v))
def test_every_target_up_to_4x4_against_bfs(w: int, h: int) -> None:
    dist = reachable(w, h)
    for value in range(1 << (w * h)):
        check_target(from_int(w, h, value), dist.get(value))


def test_the_2x2_diagonal_is_not_paintable() -> None:
    for grid in ([[1, 0], [0, 1]], [[0, 1], [1, 0]]):
        target = Canvas.from_grid(grid)
        assert par(target) is None and solve(target) is None
        with pytest.raises(Unpaintable, match=r"target: not paintable: cells"):
            puzzle_of(target)


@pytest.mark.parametrize(("w", "h"), [(w, h) for w, h in SMALL if w * h <= 12])
def test_classic_reverse_method_agrees(w: int, h: int) -> None:
    for value in range(1 << (w * h)):
        target = from_int(w, h, value)
        classic = classic_reverse(target.to_grid())
        ours = solve(target)
        assert (classic is None) == (ours is None)
        if classic is not None and ours is not None:
            assert Canvas.blank(w, h).paint(classic) == target
            assert sorted(classic) == sorted(ours)


@settings(max_examples=300)
@given(st.integers(0, (1 << 16) - 1))
def test_classic_reverse_method_agrees_on_4x4(value: int) -> None:
    target = from_int(4, 4, value)
    classic = classic_reverse(target.to_grid())
    ours = solve(target)
    assert (classic is None) == (ours is None)
    if classic is not None and ours is not None:
        assert sorted(classic) == sorted(ours)


@settings(max_examples=150)
@given(st.integers(0, (1 << 25) - 1), st.integers(0, 2**32))
def test_random_5x5_against_full_bfs(value: int, seed: int) -> None:
    dist = reachable(5, 5)
    check_target(from_int(5, 5, value), dist.get(value))  # mostly unpaintable
    made = strokes(5, 5, random.Random(seed), random.Random(seed).randint(0, 9), seed=seed)
    check_target(made.target, dist[to_int(made.target)])


def test_6x6_within_six_strokes_against_bounded_bfs() -> None:
    # every canvas reached in d <= 6 strokes has par exactly d
    for value, d in reachable(6, 6, 6).items():
        assert par(from_int(6, 6, value)) == d


@settings(max_examples=150)
@given(st.integers(0, (1 << 36) - 1), st.integers(0, 6), st.integers(0, 2**32))
def test_random_6x6_with_a_bound(value: int, want: int, seed: int) -> None:
    seen = reachable(6, 6, 6)
    target = from_int(6, 6, value)
    fewest = par(target)
    assert (fewest is not None and fewest <= 6) == (value in seen)
    if value in seen:
        assert fewest == seen[value]
    made = strokes(6, 6, random.Random(seed), want, seed=seed).target
    assert seen[to_int(made)] == want == par(made)


@settings(max_examples=100)
@given(st.integers(1, 24), st.integers(1, 24), st.integers(0, 2**32), st.booleans())
def test_par_formula_matches_the_solution(w: int, h: int, seed: int, sparse: bool) -> None:
    rng = random.Random(seed)
    if sparse:
        target = strokes(w, h, rng, rng.randint(0, w + h - 1), seed=seed).target
    else:
        target = Canvas(w, h, tuple(rng.getrandbits(w) for _ in range(h)))
    found = solve(target)
    assert par(target) == (None if found is None else len(found))
    assert (conflict(target) is None) == (found is not None)
    if found is not None:
        assert Canvas.blank(w, h).paint(found) == target
        check_order(found)


def test_blank_and_full_targets() -> None:
    assert solve(Canvas.blank(5, 3)) == ()
    full = Canvas(5, 3, (31, 31, 31))
    assert solve(full) == tuple(Stroke.row(j) for j in range(3))
    one = Canvas.from_cells(5, 3, [(2, 1)])
    assert solve(one) == (Stroke.row(1), Stroke.col(0), Stroke.col(1), Stroke.col(3), Stroke.col(4))
