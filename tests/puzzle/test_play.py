"""Incremental play state against full recomputes, click by click."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import Flow, compute_flow
from controller.puzzle.model import Board, Direction, TileClass
from controller.puzzle.play import MIN_BUDGET, Change, EdgeChange, PlayState, TileChange
from tests.support.boards import board_from_masks, loopy_boards, random_tree_board, tree_boards


def expected_change(board: Board, before: Flow, old_rotations: list[int], after: Flow) -> Change:
    """The Change a click must report: the diff of two full recomputes (flow and closed tiles)."""
    old = board.copy()
    old.rotations = old_rotations
    was_closed = closed_tiles(old)
    now_closed = closed_tiles(board)
    tiles = [
        TileChange(v, after.classes[v], after.parent[v], board.rotations[v], v in now_closed)
        for v in range(board.size)
        if before.classes[v] != after.classes[v]
        or before.parent[v] != after.parent[v]
        or old_rotations[v] != board.rotations[v]
        or (v in was_closed) != (v in now_closed)
    ]
    edges = []
    for v in range(board.size):
        for d in (Direction.E, Direction.S):
            now = board.connected(v, d)
            if old.connected(v, d) != now:
                edges.append(EdgeChange(v, int(d), now))
    return Change(tiles, edges, after.solved, after.wet_count)


def near_wet(board: Board, flow: Flow) -> list[int]:
    """Tiles that are wet or next to a wet tile: where clicks change the water."""
    return [
        v
        for v in range(board.size)
        if flow.wet[v] or any(flow.wet[u] for d in Direction if (u := board.neighbour(v, d)) >= 0)
    ]


def run_clicks(
    board: Board, clicks: list[tuple[bool, int, int]], budget: int | None = None
) -> PlayState:
    """Apply clicks, checking state and Change against full recomputes after each one.

    A click is (near, index, rotation): with ``near`` the index picks among tiles that are wet or
    next to a wet tile, else among all tiles. ``budget`` is the PlayState's (a small one sends
    most clicks to the whole-board fallback).
    """
    state = PlayState(board, budget)
    before = compute_flow(board)
    assert state.flow == before
    for near, raw_idx, rot in clicks:
        pool = near_wet(board, before) if near else list(range(board.size))
        idx = pool[raw_idx % len(pool)]
        old_rotations = list(board.rotations)
        change = state.apply_rotation(idx, rot)
        assert board.rotations[idx] == rot % 4
        after = compute_flow(board)
        assert state.flow == after
        assert list(state.classes) == after.classes
        assert list(state.parents) == after.parent
        assert {v for v, c in enumerate(state.closed) if c} == closed_tiles(board)
        assert change == expected_change(board, before, old_rotations, after)
        assert state.wet_count == after.wet_count and state.solved == after.solved
        if idx != board.source_index and not any(before.ring) and not any(after.ring):
            # No ring before or after: bridge cuts and attachments only, never a recompute
            # (unless they outgrew the budget and the click fell back to a whole-board pass).
            assert not state.recomputed or state.full
        if budget is None and board.size <= MIN_BUDGET:
            assert not state.full  # boards within the minimum budget never fall back
        before = after
    return state


click_lists = st.lists(
    st.tuples(st.booleans(), st.integers(0, 10_000), st.integers(0, 7)), max_size=25
)


@settings(max_examples=200, deadline=None)
@given(loopy_boards(), click_lists)
def test_clicks_on_loopy_boards_equal_full_recompute(
    board: Board, clicks: list[tuple[bool, int, int]]
) -> None:
    run_clicks(board, clicks)


@settings(max_examples=200, deadline=None)
@given(tree_boards(), click_lists)
def test_clicks_on_shuffled_trees_equal_full_recompute(
    board: Board, clicks: list[tuple[bool, int, int]]
) -> None:
    run_clicks(board, clicks)


@settings(max_examples=100, deadline=None)
@given(tree_boards(shuffle=False), click_lists)
def test_clicks_on_solved_trees_equal_full_recompute(
    board: Board, clicks: list[tuple[bool, int, int]]
) -> None:
    run_clicks(board, clicks)


@settings(max_examples=100, deadline=None)
@given(loopy_boards(), st.lists(st.tuples(st.just(-1), st.integers(0, 7)), max_size=8), st.data())
def test_clicks_near_the_source_equal_full_recompute(
    board: Board, source_clicks: list[tuple[int, int]], data: st.DataObject
) -> None:
    # Interleave source turns with clicks on the source's neighbours: the seed's fallback cases.
    src = board.source_index
    near = [src] + [board.neighbour(src, d) for d in Direction if board.neighbour(src, d) >= 0]
    clicks = [(False, data.draw(st.sampled_from(near)), r) for _, r in source_clicks]
    run_clicks(board, clicks)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(loopy_boards(), tree_boards(), tree_boards(shuffle=False)),
    click_lists,
    st.integers(0, 12),
)
def test_the_whole_board_fallback_equals_full_recompute(
    board: Board, clicks: list[tuple[bool, int, int]], budget: int
) -> None:
    """With a tiny budget most clicks abandon their incremental passes (at any point: before a
    component recompute, in a cut, in a BFS) for the whole-board pass; the state and the
    Change still equal full recomputes."""
    state = run_clicks(board, clicks, budget)
    assert list(state.classes) == compute_flow(board).classes


def test_a_source_click_on_a_solved_large_board_falls_back() -> None:
    """The source of a solved 64x64 board: its wet component is the whole board, over the
    budget, so the click is one whole-board pass (and equals it)."""
    board = random_tree_board(64, 64, 5, shuffle=False)
    state = PlayState(board)
    src = board.source_index
    before = compute_flow(board)
    old = list(board.rotations)
    change = state.apply_rotation(src, (board.rotations[src] + 1) % 4)
    assert state.full and state.recomputed
    after = compute_flow(board)
    assert change == expected_change(board, before, old, after)
    assert state.flow == after
    small = PlayState(random_tree_board(15, 15, 5, shuffle=False))  # 225 <= MIN_BUDGET
    s = small.board.source_index
    small.apply_rotation(s, (small.board.rotations[s] + 1) % 4)
    assert small.recomputed and not small.full


def test_noop_rotation_reports_nothing() -> None:
    board = random_tree_board(9, 9, 3)
    state = PlayState(board)
    v = 40
    change = state.apply_rotation(v, board.rotations[v])
    assert change.tiles == [] and change.edges == []
    assert state.visited == 0


def test_solving_the_last_tile_reports_solved_and_a_small_change() -> None:
    board = random_tree_board(31, 31, 5, shuffle=False)
    # Turn one leaf away from its parent, then back.
    leaf = next(v for v in range(board.size) if board.shapes[v] == 0 and v != board.source_index)
    state = PlayState(board)
    assert state.solved
    right = board.rotations[leaf]
    away = state.apply_rotation(leaf, (right + 1) % 4)
    assert not away.solved and away.wet_count == board.size - 1
    assert [t.index for t in away.tiles] == [leaf]
    assert away.tiles[0].cls == TileClass.DRY and away.tiles[0].parent == -1
    back = state.apply_rotation(leaf, right)
    assert back.solved and back.wet_count == board.size
    assert [t.index for t in back.tiles] == [leaf] and back.tiles[0].cls == TileClass.WET
    assert state.visited <= 2


def test_cutting_a_bridge_visits_only_the_cut_side() -> None:
    board = random_tree_board(64, 64, 11, shuffle=False)
    state = PlayState(board)
    flow = state.flow
    # A tile whose subtree is small: pick a leaf's parent that is not the source.
    leaf = next(
        v
        for v in range(board.size)
        if board.shapes[v] == 0 and board.neighbour(v, flow.parent[v]) != board.source_index
    )
    p = board.neighbour(leaf, flow.parent[leaf])
    for r in range(1, 4):
        state.apply_rotation(p, (board.rotations[p] + 1) % 4)
        assert state.flow == compute_flow(board)
        assert state.visited < 200, r


def test_reset_takes_a_new_board() -> None:
    state = PlayState(random_tree_board(5, 5, 1))
    other = random_tree_board(7, 4, 2, shuffle=False)
    state.reset(other)
    assert state.board is other and state.solved and state.flow == compute_flow(other)


def test_rejects_bad_arguments() -> None:
    state = PlayState(random_tree_board(5, 5, 1))
    with pytest.raises(ValueError):
        state.apply_rotation(25, 0)
    with pytest.raises(ValueError):
        state.apply_rotation(0, 8)


def subtree_sizes(board: Board, flow: Flow) -> list[int]:
    """Per wet tile, how many tiles its BFS-tree subtree holds (itself included)."""
    size = [1 if w else 0 for w in flow.wet]
    for v in sorted(range(board.size), key=lambda v: -flow.dist[v]):
        if flow.wet[v] and flow.parent[v] >= 0:
            size[board.neighbour(v, flow.parent[v])] += size[v]
    return size


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(st.integers(0, 399), st.integers(1, 3))))
def test_tree_clicks_visit_only_the_subtree_they_cut(
    seed: int, clicks: list[tuple[int, int]]
) -> None:
    # On a solved tree every click off the source only cuts and re-waters the turned tile's
    # subtree: it must never walk the rest of the network (unless the move closes a ring).
    board = random_tree_board(20, 20, seed, shuffle=False)
    state = PlayState(board)
    sizes = subtree_sizes(board, state.flow)
    for t, turn in clicks:
        if t == board.source_index:
            continue
        right = board.rotations[t]
        state.apply_rotation(t, (right + turn) % 4)
        if not any(state.flow.ring) and not state.full:  # a fallback visits the board once
            assert state.visited <= 2 * sizes[t] + 1
        state.apply_rotation(t, right)
        assert state.solved


def test_cut_side_rewatered_through_the_turned_tile_stays_local() -> None:
    """The cut side hangs back on the turned tile through its new arm: S-t-c-y-x becomes S-t-x-y-c.

    Before (t = tee W,N,E; x's north arm faces t, which has no south arm):

        S-t-c .
        . x-y .
        . . . .

    After turning t to W,N,S: the cut of c's side must not run into t through the new edge t-x
    (t stays wet through its parent), and the side is re-watered from t without a recompute.
    """
    end_s, end_e = 0b0100, 0b0010
    tee_wne, corner_ws, corner_ne, corner_nw = 0b1011, 0b1100, 0b0011, 0b1001
    masks = [end_e, tee_wne, corner_ws, end_s, end_s, corner_ne, corner_nw, end_s] + [end_s] * 4
    board = board_from_masks(4, 3, masks, (0, 0), random.Random(0))
    board.rotations = list(board.solution)
    state = PlayState(board)
    assert state.wet_count == 5
    tee_wns = 2  # the tee at r=2 has arms S, W, N
    change = state.apply_rotation(1, tee_wns)
    assert state.flow == compute_flow(board)
    assert not state.recomputed and state.visited == 6
    assert state.wet_count == 5
    assert [t.index for t in change.tiles] == [1, 2, 5, 6]
    assert change.edges == [EdgeChange(1, int(Direction.E), False), EdgeChange(1, 2, True)]
