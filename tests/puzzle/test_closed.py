"""Dry loops and closed islands (controller.puzzle.closed) against a brute-force oracle."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.closed import ClosedTracker, closed_tiles
from controller.puzzle.flow import board_masks, compute_flow
from controller.puzzle.model import Board
from tests.support.boards import board_from_masks, loopy_boards, random_tree_board, tree_boards
from tests.support.closed_oracle import oracle

boards = st.one_of(loopy_boards(), tree_boards(), tree_boards(shuffle=False))


@settings(max_examples=200, deadline=None)
@given(boards)
def test_closed_tiles_equal_the_oracle(board: Board) -> None:
    assert set(closed_tiles(board)) == oracle(board)


@settings(max_examples=100, deadline=None)
@given(boards, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3)), max_size=20))
def test_updates_after_clicks_equal_a_full_scan(
    board: Board, clicks: list[tuple[int, int]]
) -> None:
    """The tracker fed click by click (no budget, so every update is incremental) equals the
    oracle after each click and reports exactly the tiles that flipped."""
    tracker = ClosedTracker(board.width, board.height, budget=10**9)
    tracker.rebuild(board_masks(board), compute_flow(board).dist)
    before = oracle(board)
    assert {v for v, c in enumerate(tracker.closed) if c} == before
    for raw, rotation in clicks:
        t = raw % board.size
        board.rotations[t] = rotation
        flips = tracker.update(t, board_masks(board), compute_flow(board).dist)
        after = oracle(board)
        assert not tracker.full
        assert {v for v, c in enumerate(tracker.closed) if c} == after
        assert flips == sorted(before ^ after)
        before = after


@settings(max_examples=100, deadline=None)
@given(boards, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3)), max_size=12))
def test_an_update_over_its_budget_is_one_full_scan(
    board: Board, clicks: list[tuple[int, int]]
) -> None:
    tracker = ClosedTracker(board.width, board.height, budget=1)
    tracker.rebuild(board_masks(board), compute_flow(board).dist)
    before = oracle(board)
    for raw, rotation in clicks:
        t = raw % board.size
        board.rotations[t] = rotation
        flips = tracker.update(t, board_masks(board), compute_flow(board).dist)
        after = oracle(board)
        assert {v for v, c in enumerate(tracker.closed) if c} == after
        assert flips == sorted(before ^ after)
        # the abandoned scans visit at most budget + 1 tiles; the full scan every dry tile once,
        # and the tiles of a group with a dry loop once more
        assert tracker.visited <= 2 * board.size + 2
        if tracker.full:
            assert tracker.visited >= sum(d == -1 for d in compute_flow(board).dist)
        before = after


def _board(rows: list[str], source: tuple[int, int]) -> Board:
    """A board drawn with pipe glyphs (index = arm mask: N 1, E 2, S 4, W 8)."""
    glyphs = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
    masks = [glyphs.index(c) for row in rows for c in row]
    board = board_from_masks(len(rows[0]), len(rows), masks, source, random.Random(0))
    board.rotations = list(board.solution)
    return board


def test_a_dry_loop_a_loose_tail_and_two_closed_islands() -> None:
    board = _board(["┌┐╶╴", "└┤╷╷", "╷│╵╵"], (3, 2))
    got = closed_tiles(board)
    loop = {board.index(i, j) for i, j in ((0, 0), (1, 0), (0, 1), (1, 1))}
    pairs = {board.index(i, j) for i, j in ((2, 0), (3, 0), (2, 1), (2, 2))}
    assert got == loop | pairs
    # the straight below the loop points off the board (a loose end): the loop stays marked,
    # the straight does not; the lone end at (0, 2) and the wet pair are not either
    assert board.index(1, 2) not in got and board.index(0, 2) not in got


def test_a_wet_ring_is_never_closed_and_a_dry_chain_with_no_loose_end_is() -> None:
    board = _board(["┌┐╷", "└┘│", "╶─┘"], (0, 0))
    flow = compute_flow(board)
    assert all(flow.ring[board.index(i, j)] for i, j in ((0, 0), (1, 0), (0, 1), (1, 1)))
    chain = {board.index(i, j) for i, j in ((2, 0), (2, 1), (2, 2), (1, 2), (0, 2))}
    assert closed_tiles(board) == chain


def test_a_solved_tree_has_none_and_shuffled_ones_have_some() -> None:
    assert closed_tiles(random_tree_board(12, 12, 4, shuffle=False)) == frozenset()
    assert any(closed_tiles(random_tree_board(12, 12, s)) for s in range(20))
