"""Crosses and holes (sink mode): flow, closed tiles, play, par and hints against brute force."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow, sink_reached
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import CROSS, HOLE, Board, TileClass, mask_of
from controller.puzzle.play import PlayState
from controller.puzzle.serialize import board_from_json, board_to_json
from controller.puzzle.sink import (
    edge_tiles,
    route_progress,
    route_steps,
    sink_hint,
    sink_par_report,
)
from tests.support.piece_oracle import oracle_flow, reached

# Ends, straights, tees, corners, crosses and holes; more pipe than the rest.
_SHAPES = st.sampled_from([0, 1, 1, 2, 3, 3, CROSS, CROSS, HOLE])


_NO_CROSS = st.sampled_from([0, 1, 1, 2, 3, 3, HOLE, HOLE])


@st.composite
def cross_boards(draw: st.DrawFn, max_side: int = 4, crosses: bool = True) -> Board:
    """Small sink boards of any shapes (crosses, unless told not, and holes included) and
    rotations; source and sink are pipe pieces, fixed together with every cross."""
    w = draw(st.integers(3, max_side))
    h = draw(st.integers(3, max_side))
    n = w * h
    shapes = draw(st.lists(_SHAPES if crosses else _NO_CROSS, min_size=n, max_size=n))
    rotations = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    sink = draw(st.sampled_from(edge_tiles(w, h)))
    src = draw(st.sampled_from([t for t in range(n) if t != sink]))
    for t in (src, sink):
        if shapes[t] >= CROSS:
            shapes[t] = 0
    crosses = {t for t in range(n) if shapes[t] == CROSS}
    return Board(
        w,
        h,
        (src % w, src // w),
        shapes,
        rotations,
        list(rotations),
        mode="sink",
        sink=(sink % w, sink // w),
        fixed=frozenset((src, sink, *crosses)),
    )


def assert_flow_matches_oracle(board: Board) -> None:
    flow = compute_flow(board)
    want = oracle_flow(board)
    assert flow.wet == want.wet
    assert flow.dist == want.dist
    assert flow.parent == want.parent
    assert flow.ring == want.ring
    if board.has_crosses:
        assert flow.axes == want.axes
    closed = closed_tiles(board)
    assert [t in closed for t in range(board.size)] == want.closed
    for t in range(board.size):
        if board.shapes[t] == HOLE:
            assert not flow.wet[t] and t not in closed
        want_cls = TileClass.DRY
        if want.wet[t]:
            want_cls = TileClass.RING if want.ring[t] else TileClass.WET
        if t == board.source_index:
            want_cls = TileClass.SOURCE_RING if want.ring[t] else TileClass.SOURCE
        assert flow.classes[t] == want_cls


@settings(max_examples=300, deadline=None)
@given(cross_boards())
def test_flow_with_crosses_and_holes_matches_brute_force(board: Board) -> None:
    assert_flow_matches_oracle(board)
    masks = [board.mask(t) for t in range(board.size)]
    assert sink_reached(board) == reached(board, masks)


@settings(max_examples=150, deadline=None)
@given(cross_boards(), st.lists(st.tuples(st.integers(0, 15), st.integers(0, 7)), max_size=12))
def test_play_with_crosses_and_holes_equals_a_full_recompute(
    board: Board, clicks: list[tuple[int, int]]
) -> None:
    play = PlayState(board.copy())
    before = compute_flow(board)
    before_closed = closed_tiles(board)
    for k, r in clicks:
        t = k % board.size
        change = play.apply_rotation(t, r)
        board.rotations[t] = r & 3
        after = compute_flow(board)
        after_closed = closed_tiles(board)
        assert play.flow == after
        assert list(play.closed) == [v in after_closed for v in range(board.size)]
        axes = after.axes or [0] * board.size
        want = [
            v
            for v in range(board.size)
            if after.classes[v] != before.classes[v]
            or after.parent[v] != before.parent[v]
            or (v in after_closed) != (v in before_closed)
            or (before.axes and before.axes[v] != axes[v])
        ]
        got = [c.index for c in change.tiles]
        assert set(want) <= set(got) <= set(want) | {t}
        for c in change.tiles:
            assert (c.cls, c.parent, c.rotation, c.closed) == (
                after.classes[c.index],
                after.parent[c.index],
                board.rotations[c.index],
                c.index in after_closed,
            )
            assert c.axes == axes[c.index]
        assert change.wet_count == after.wet_count
        before, before_closed = after, after_closed


@settings(max_examples=100, deadline=None)
@given(
    cross_boards(max_side=6, crosses=False),
    st.lists(st.tuples(st.integers(0, 35), st.integers(0, 7)), max_size=16),
)
def test_incremental_play_with_holes_equals_a_full_recompute(
    board: Board, clicks: list[tuple[int, int]]
) -> None:
    """Boards with holes and no cross keep the incremental updates: after every click they
    equal the brute-force flow (holes never wet, never closed)."""
    play = PlayState(board.copy())
    for k, r in clicks:
        t = k % board.size
        play.apply_rotation(t, r)
        board.rotations[t] = r & 3
        assert play.flow == compute_flow(board)
        want = oracle_flow(board)
        assert [d >= 0 for d in play.flow.dist] == want.wet
        assert list(play.closed) == want.closed


def brute_force_par(board: Board) -> int | None:
    """Fewest clicks over every rotation of every tile that is not fixed (a distinct mask
    once), None when none brings water to the sink."""
    options: list[list[tuple[int, int]]] = []
    for t in range(board.size):
        if t in board.fixed:
            options.append([(board.mask(t), 0)])
            continue
        seen: dict[int, int] = {}
        for k in range(4):
            seen.setdefault(mask_of(board.shapes[t], (board.rotations[t] + k) % 4), k)
        options.append(list(seen.items()))
    best: int | None = None
    for combo in itertools.product(*options):
        cost = sum(k for _, k in combo)
        if best is not None and cost >= best:
            continue
        if reached(board, [m for m, _ in combo]):
            best = cost
    return best


@settings(max_examples=60, deadline=None)
@given(cross_boards(max_side=3))
def test_par_and_hints_with_crosses_match_brute_force(board: Board) -> None:
    want = brute_force_par(board)
    if want is None:
        with pytest.raises(ValueError, match="^board: the sink cannot be reached"):
            sink_par_report(board)
        return
    par = sink_par_report(board)
    assert par.exact and par.clicks == par.lower == want
    assert reached(board, par.masks)
    clicks = 0
    while (tip := sink_hint(board)) is not None:
        t, r = tip
        assert t not in board.fixed and board.shapes[t] not in (CROSS, HOLE)
        clicks += (r - board.rotations[t]) % 4
        board.rotations[t] = r
    assert sink_reached(board)
    assert clicks == want


@settings(max_examples=150, deadline=None)
@given(cross_boards(max_side=6))
def test_par_routes_with_crosses_carry_water(board: Board) -> None:
    """On boards too large for brute force: the route par names brings water to the sink, and
    following the hints gets there in par clicks."""
    try:
        par = sink_par_report(board)
    except ValueError:
        return  # unreachable sinks: the brute-force test above covers them
    assert reached(board, par.masks)
    clicks = 0
    while (tip := sink_hint(board)) is not None:
        t, r = tip
        clicks += (r - board.rotations[t]) % 4
        board.rotations[t] = r
    assert sink_reached(board)
    if par.exact:
        assert clicks == par.clicks


def test_a_cross_passes_two_separate_flows() -> None:
    """Water from the west runs east through the cross, never north or south; the vertical
    axis stays dry until water comes from the north."""
    # Row 1: source end pointing east, cross, straight east-west, sink end pointing west.
    w, h = 4, 3
    shapes = [1, 3, 1, HOLE, 0, CROSS, 1, 0, HOLE, 1, 0, HOLE]
    rotations = [0, 0, 0, 0, 3, 0, 1, 1, 0, 0, 0, 0]
    board = Board(
        w, h, (0, 1), shapes, rotations, list(rotations), mode="sink", sink=(3, 1),
        fixed=frozenset((4, 5, 7)),
    )  # fmt: skip
    flow = compute_flow(board)
    assert flow.axes[5] == 0b10 and flow.wet[7] and sink_reached(board)
    assert not flow.wet[1] and not flow.wet[9]  # the straights above and below the cross
    play = PlayState(board.copy())
    change = play.apply_rotation(6, 0)  # the straight turns north-south: the sink dries
    assert play.axes[5] == 0b10 and play.classes[7] == TileClass.DRY
    assert 7 in {c.index for c in change.tiles}


@pytest.mark.parametrize("seed", range(12))
def test_generated_crosses_and_holes(seed: int) -> None:
    params = GeneratorParams(mode="sink", coverage=0.7, crosses=1.0, holes=seed % 2 == 1)
    board = generate(9, 9, seed=seed, params=params)
    crosses = [t for t in range(board.size) if board.shapes[t] == CROSS]
    assert board.meta["crosses"] == len(crosses)
    assert set(crosses) <= board.fixed
    assert all(board.rotations[t] == 0 for t in crosses)
    assert not sink_reached(board)
    steps = route_steps(board)
    assert len(steps) == board.meta["route"]
    assert len({t for t, _ in steps}) == len(steps) - len(crosses)
    if params.holes:
        assert {t for t, _ in steps} | {
            t for t in range(board.size) if board.shapes[t] == HOLE
        } == set(range(board.size))
    solved = board.copy()
    solved.rotations = list(solved.solution)
    assert sink_reached(solved)
    flow = compute_flow(solved)
    progress = route_progress(solved, flow.classes, flow.axes)
    assert progress is not None and progress.reached == progress.length
    assert progress.connectivity == 2.0
    assert board_from_json(board_to_json(board)).shapes == board.shapes


def test_some_generated_boards_have_crosses_and_none_without_the_knob() -> None:
    with_crosses = [
        generate(9, 9, seed=s, params=GeneratorParams(mode="sink", crosses=1.0)).meta["crosses"]
        for s in range(20)
    ]
    assert sum(1 for c in with_crosses if c) >= 10
    for s in range(10):
        plain = generate(9, 9, seed=s, params=GeneratorParams(mode="sink"))
        assert CROSS not in plain.shapes and "crosses" not in plain.meta


def test_route_progress_counts_wet_route_steps_and_the_sink() -> None:
    rng = random.Random(3)
    board = generate(7, 7, seed=5, params=GeneratorParams(mode="sink", coverage=0.6))
    steps = route_steps(board)
    play = PlayState(board.copy())
    for t, r in [(t, rng.randrange(4)) for t in range(board.size)] * 2:
        if t not in board.fixed:
            play.apply_rotation(t, r)
        got = route_progress(play.board, play.classes, play.axes, steps)
        assert got is not None
        wet = sum(1 for v, _ in steps if play.classes[v] != TileClass.DRY)
        assert (got.reached, got.length) == (wet, len(steps))
        assert got.sink == sink_reached(play.board)
        assert got.connectivity == wet / len(steps) + got.sink


def test_tree_boards_refuse_crosses_and_holes() -> None:
    with pytest.raises(ValueError, match="^shapes: crosses and holes are sink-mode pieces"):
        Board(3, 3, (1, 1), [CROSS] + [1] * 8, [0] * 9, [0] * 9)
    with pytest.raises(ValueError, match="^crosses:"):
        GeneratorParams(crosses=0.5)
    with pytest.raises(ValueError, match="^crosses: must be in"):
        GeneratorParams(mode="sink", crosses=2)
