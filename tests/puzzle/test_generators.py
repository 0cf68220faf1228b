"""Generators: every tree is a cross-free spanning tree, deterministic, with the expected mix."""

from __future__ import annotations

import math
import random
from collections import Counter, deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import (
    GENERATORS,
    GeneratorParams,
    board_from_arms,
    build_tree,
    generate,
    tree_eller,
    tree_prim,
    walk_route,
)
from controller.puzzle.model import Board, Shape, mask_of
from controller.puzzle.solver import count_solutions

STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


def tree_problems(width: int, height: int, arms: list[int], source: int | None = None) -> list[str]:
    """Independent oracle: what keeps these arm masks from being a cross-free spanning tree."""
    n = width * height
    problems: list[str] = []
    edges = 0
    adj: list[list[int]] = [[] for _ in range(n)]
    for t, m in enumerate(arms):
        i, j = t % width, t // width
        if bin(m).count("1") == 4:
            problems.append(f"cross at {i},{j}")
        if m == 0:
            problems.append(f"empty tile at {i},{j}")
        for d in range(4):
            if not m >> d & 1:
                continue
            ni, nj = i + STEP[d][0], j + STEP[d][1]
            if not (0 <= ni < width and 0 <= nj < height):
                problems.append(f"arm off the board at {i},{j}")
                continue
            u = nj * width + ni
            if not arms[u] >> ((d + 2) % 4) & 1:
                problems.append(f"one-sided arm {i},{j} -> {ni},{nj}")
                continue
            adj[t].append(u)
            edges += 1
    if edges != 2 * (n - 1):
        problems.append(f"{edges // 2} edges, expected {n - 1}")
    seen = {source if source is not None else 0}
    todo = deque(seen)
    while todo:
        t = todo.popleft()
        for u in adj[t]:
            if u not in seen:
                seen.add(u)
                todo.append(u)
    if len(seen) != n:
        problems.append(f"{n - len(seen)} tiles not connected")
    return problems


def solution_arms(board: Board) -> list[int]:
    """The arm masks of a board's generating solution."""
    return [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]


SIZES = [(3, 3), (3, 17), (17, 3), (4, 4), (5, 5), (6, 9), (12, 7), (31, 31)]


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("size", SIZES)
def test_spanning_tree_over_seeds(generator: str, size: tuple[int, int]) -> None:
    w, h = size
    for seed in range(25):
        board = build_tree(w, h, seed=seed, params=GeneratorParams(generator=generator))
        assert tree_problems(w, h, solution_arms(board), board.source_index) == []
        assert board.rotations == board.solution
        assert board.generator == generator and board.seed == seed


@settings(max_examples=150, deadline=None)
@given(
    w=st.integers(3, 24),
    h=st.integers(3, 24),
    seed=st.integers(0, 2**32),
    generator=st.sampled_from(GENERATORS),
    branching=st.floats(0, 1),
    coverage=st.floats(0, 1),
    src=st.tuples(st.floats(0, 0.999), st.floats(0, 0.999)),
)
def test_spanning_tree_property(
    w: int,
    h: int,
    seed: int,
    generator: str,
    branching: float,
    coverage: float,
    src: tuple[float, float],
) -> None:
    source = (int(src[0] * w), int(src[1] * h))
    params = GeneratorParams(
        generator=generator, branching=branching, coverage=coverage, source=source
    )
    board = build_tree(w, h, seed=seed, params=params)
    assert board.source == source
    assert tree_problems(w, h, solution_arms(board), board.source_index) == []


@pytest.mark.parametrize("size", [(3, 128), (128, 3), (128, 128)])
@pytest.mark.parametrize("generator", GENERATORS)
def test_large_and_skinny_boards(generator: str, size: tuple[int, int]) -> None:
    w, h = size
    board = build_tree(w, h, seed=11, params=GeneratorParams(generator=generator))
    assert tree_problems(w, h, solution_arms(board), board.source_index) == []


def test_prim_never_gets_stuck_on_many_seeds() -> None:
    rng = random.Random(2024)
    for seed in range(400):
        w, h = rng.randint(3, 12), rng.randint(3, 12)
        source = (rng.randrange(w), rng.randrange(h))
        arms = tree_prim(w, h, source, random.Random(seed))  # raises TreeStuck if stuck
        assert tree_problems(w, h, arms, source[1] * w + source[0]) == []


def test_eller_keeps_three_arms_and_spans() -> None:
    for seed in range(200):
        w, h = 3 + seed % 13, 3 + (seed * 7) % 11
        arms = tree_eller(w, h, random.Random(seed))
        assert max(bin(m).count("1") for m in arms) <= 3
        assert tree_problems(w, h, arms) == []


def test_prim_default_source_is_centre_and_tiles_match_arms() -> None:
    board = build_tree(9, 6, seed=3)
    assert board.source == (4, 3)
    arms = solution_arms(board)
    shapes = Counter(Shape(s) for s in board.shapes)
    assert shapes[Shape.END] == sum(1 for m in arms if bin(m).count("1") == 1)
    assert shapes[Shape.TEE] == sum(1 for m in arms if bin(m).count("1") == 3)


@pytest.mark.parametrize("generator", GENERATORS)
def test_deterministic_for_same_seed_and_parameters(generator: str) -> None:
    a = generate(
        11, 9, seed=42, params=GeneratorParams(generator=generator, branching=0.3, coverage=0.7)
    )
    b = generate(
        11, 9, seed=42, params=GeneratorParams(generator=generator, branching=0.3, coverage=0.7)
    )
    assert (a.shapes, a.rotations, a.solution, a.meta) == (
        b.shapes,
        b.rotations,
        b.solution,
        b.meta,
    )
    c = generate(
        11, 9, seed=43, params=GeneratorParams(generator=generator, branching=0.3, coverage=0.7)
    )
    assert (c.shapes, c.solution) != (a.shapes, a.solution)


def _mix(branching: float) -> Counter[Shape]:
    counts: Counter[Shape] = Counter()
    for seed in range(6):
        board = build_tree(
            31, 31, seed=seed, params=GeneratorParams(generator="growing_tree", branching=branching)
        )
        counts.update(Shape(s) for s in board.shapes)
    return counts


def test_branching_changes_the_tile_mix() -> None:
    corridors, bushy = _mix(0.0), _mix(1.0)
    total = sum(corridors.values())
    # b = 0 is a recursive backtracker: few ends and tees, long runs of corners and straights.
    assert corridors[Shape.END] / total < 0.15
    assert bushy[Shape.END] / total > 0.22
    assert corridors[Shape.TEE] < bushy[Shape.TEE] * 0.6
    assert corridors[Shape.CORNER] + corridors[Shape.STRAIGHT] > 0.7 * total


@pytest.mark.parametrize("coverage", [0.3, 0.6, 0.9])
@pytest.mark.parametrize("size", [(3, 3), (5, 8), (20, 20), (64, 64)])
def test_walk_reaches_its_coverage(coverage: float, size: tuple[int, int]) -> None:
    w, h = size
    for seed in range(3):
        board = build_tree(
            w, h, seed=seed, params=GeneratorParams(generator="walk", coverage=coverage)
        )
        got = board.meta["coverage"]
        assert isinstance(got, float)
        assert got >= coverage
        assert board.meta["coverage_target"] == coverage


def test_walk_route_is_a_self_avoiding_path_in_the_tree() -> None:
    for seed in range(30):
        w, h = 4 + seed % 9, 3 + seed % 7
        src = (seed % w, (seed * 3) % h)
        target = math.ceil(0.7 * w * h)
        route = walk_route(w, h, src, target, random.Random(seed))
        assert route[0] == src[1] * w + src[0]
        assert len(set(route)) == len(route) >= target
        for a, b in zip(route, route[1:], strict=False):
            assert abs(a % w - b % w) + abs(a // w - b // w) == 1
        # the walk generator keeps that route (same rng draws) as a path of its tree
        board = build_tree(
            w, h, seed=seed, params=GeneratorParams(generator="walk", coverage=0.7, source=src)
        )
        assert board.meta["coverage"] == len(route) / (w * h)
        arms = solution_arms(board)
        for a, b in zip(route, route[1:], strict=False):
            d = {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}[(b % w - a % w, b // w - a // w)]
            assert arms[a] >> d & 1


def test_walk_full_coverage_impossible_by_parity_reports_what_it_got() -> None:
    # 5x5 has 13 "even" and 12 "odd" tiles; a Hamiltonian path must start on an even tile.
    board = build_tree(
        5, 5, seed=1, params=GeneratorParams(generator="walk", coverage=1.0, source=(1, 0))
    )
    got = board.meta["coverage"]
    assert isinstance(got, float) and got < 1.0
    assert tree_problems(5, 5, solution_arms(board), board.source_index) == []


@pytest.mark.parametrize("generator", GENERATORS)
def test_generate_unique_and_shuffled(generator: str) -> None:
    for seed in range(8):
        board = generate(6, 5, seed=seed, params=GeneratorParams(generator=generator))
        assert board.meta["unique"] is True
        assert count_solutions(board, limit=2) == 1
        assert tree_problems(6, 5, solution_arms(board), board.source_index) == []
        flow = compute_flow(board)
        assert not flow.solved and not any(flow.ring)


def test_no_unique_keeps_the_raw_tree() -> None:
    raw = build_tree(15, 15, seed=5, params=GeneratorParams(generator="prim"))
    board = generate(15, 15, seed=5, params=GeneratorParams(generator="prim", unique=False))
    assert board.meta["unique"] is False
    assert (board.shapes, board.solution) == (raw.shapes, raw.solution)
    assert board.rotations != board.solution


def test_growing_tree_records_branching() -> None:
    board = generate(7, 7, seed=1, params=GeneratorParams(generator="growing_tree", branching=0.25))
    assert board.meta["branching"] == 0.25


@pytest.mark.parametrize(
    ("size", "field"),
    [((2, 5), "width"), ((129, 5), "width"), ((5, 0), "height"), ((5, 200), "height")],
)
def test_bad_sizes_name_the_field(size: tuple[int, int], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}:"):
        generate(*size, seed=1)
    with pytest.raises(ValueError, match=f"^{field}:"):
        build_tree(*size, seed=1)


def test_a_float_size_names_the_field() -> None:
    with pytest.raises(ValueError, match="^width:"):
        generate(5.0, 5, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"generator": "kruskal"}, "generator"),
        ({"branching": -0.01}, "branching"),
        ({"branching": 1.5}, "branching"),
        ({"branching": float("nan")}, "branching"),
        ({"coverage": 2}, "coverage"),
        ({"coverage": "0.5"}, "coverage"),
        ({"unique": 1}, "unique"),
        ({"source": (1,)}, "source"),
        ({"source": (1.0, 2)}, "source"),
    ],
)
def test_bad_parameters_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}:"):
        GeneratorParams(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("source", [(5, 0), (0, -1), (2, 5)])
def test_source_outside_the_board_names_the_field(source: tuple[int, int]) -> None:
    params = GeneratorParams(source=source)
    with pytest.raises(ValueError, match="^source:"):
        generate(5, 5, seed=1, params=params)


def test_params_are_frozen_and_normalised() -> None:
    params = GeneratorParams(branching=1, source=[2, 3])  # type: ignore[arg-type]
    assert params.branching == 1.0 and isinstance(params.branching, float)
    assert params.source == (2, 3)
    assert params == GeneratorParams(branching=1.0, source=(2, 3))
    with pytest.raises(AttributeError):
        params.unique = False  # type: ignore[misc]
    assert GeneratorParams().source_for(9, 6) == (4, 3)


def test_board_from_arms_rejects_non_pipes() -> None:
    with pytest.raises(ValueError, match="^arms:"):
        board_from_arms(3, 3, (1, 1), [15] + [1] * 8)


def test_prim_tile_mix_is_nets() -> None:
    # Net's no-cross frontier growth at 30x30: ends ~31%, straights ~17%, corners ~22%, tees ~30%
    counts: Counter[Shape] = Counter()
    for seed in range(5):
        counts.update(Shape(s) for s in build_tree(30, 30, seed=seed).shapes)
    total = sum(counts.values())
    share = {shape: counts[shape] / total for shape in Shape}
    assert 0.26 < share[Shape.END] < 0.36
    assert 0.12 < share[Shape.STRAIGHT] < 0.22
    assert 0.17 < share[Shape.CORNER] < 0.27
    assert 0.25 < share[Shape.TEE] < 0.35


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(1, 5000), max_size=50))
def test_frontier_draws_like_randrange(seed: int, sizes: list[int]) -> None:
    """Property: the frontier growth's inline draw (bit_length bits until one fits) is
    ``randrange`` bit for bit, so prim trees stay what a seed always gave."""
    fast, slow = random.Random(seed), random.Random(seed)
    for size in sizes:
        k = size.bit_length()
        r = fast.getrandbits(k)
        while r >= size:
            r = fast.getrandbits(k)
        assert r == slow.randrange(size)
    assert fast.random() == slow.random()
