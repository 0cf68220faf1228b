"""Tests for the deduction state: the bitboard local pass against the tile-by-tile loop."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.deduce import (
    ALL_RULES,
    SET_POP,
    SHAPE_SET,
    Contradiction,
    State,
    initial_state,
    local_state,
    propagate,
    state_from_tree,
    tree_state_queue,
)
from controller.puzzle.generators import generate
from controller.puzzle.model import Board
from controller.puzzle.solver import deduction
from tests.support.brute_force import neighbour, random_tree_board


def _tile_by_tile(board: Board, rules: int) -> State | None:
    """Deduction with the tile-by-tile loop alone, from scratch."""
    st = initial_state(board.width, board.height, [SHAPE_SET[s] for s in board.shapes])
    if 0 in st.cand:
        return None
    try:
        propagate(st, list(range(st.n - 1, -1, -1)), rules)
    except Contradiction:
        return None
    return st


def _with_local_pass(board: Board, rules: int) -> State | None:
    """Deduction with the bitboard local pass first."""
    try:
        st, queue = local_state(board.width, board.height, [SHAPE_SET[s] for s in board.shapes])
        propagate(st, queue, rules)
    except Contradiction:
        return None
    return st


def _classes(st: State) -> set[frozenset[int]]:
    """The classes of a state as sets of tiles (checking the member lists the state keeps)."""
    by_label: dict[int, set[int]] = {}
    for t, label in enumerate(st.lab):
        by_label.setdefault(label, set()).add(t)
    for label, tiles in (st.members or {}).items():
        assert sorted(tiles) == sorted(by_label[label]), label
    return {frozenset(c) for c in by_label.values()}


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 9), st.integers(3, 9), st.integers(0, 2**32), st.data())
def test_local_pass_reaches_the_same_state(w: int, h: int, seed: int, data: st.DataObject) -> None:
    """Property: with any rule set, the bitboard local pass followed by the loop ends in the
    same masks, edges and classes as the loop alone, and finds the same contradictions (shapes
    changed at random are mostly no tree at all)."""
    board = random_tree_board(w, h, seed)
    for t in data.draw(st.lists(st.integers(0, w * h - 1), max_size=3)):
        board.shapes[t] = data.draw(st.integers(0, 3))
    rules = data.draw(st.sampled_from(range(ALL_RULES + 1)))
    slow = _tile_by_tile(board, rules)
    fast = _with_local_pass(board, rules)
    assert (slow is None) == (fast is None)
    if slow is not None and fast is not None:
        assert fast.cand == slow.cand
        assert fast.dec == slow.dec and fast.opn == slow.opn
        assert fast.nund == slow.nund
        assert _classes(fast) == _classes(slow)
        for t in range(fast.n):
            assert fast.csz[fast.lab[t]] == slow.csz[slow.lab[t]]
            assert fast.cex[fast.lab[t]] == slow.cex[slow.lab[t]]


def test_local_pass_alone_is_the_local_fixpoint() -> None:
    """Before any other rule, the local pass leaves exactly the masks the loop's local rules
    leave, on generated boards of several sizes."""
    for size in (7, 16, 33):
        for seed in range(3):
            board = generate(size, size + 2, seed=seed)
            slow = _tile_by_tile(board, 0)
            st, queue = local_state(board.width, board.height, [SHAPE_SET[s] for s in board.shapes])
            assert slow is not None and st.cand == slow.cand
            assert queue == [t for t in range(st.n - 1, -1, -1) if SET_POP[st.cand[t]] > 1]


def test_local_pass_finds_contradictions() -> None:
    """A tee in a corner, and a closed loop of corners, have no solution."""
    board = generate(3, 3, seed=1)
    board.shapes[0] = 2  # a tee cannot sit in a corner
    with pytest.raises(Contradiction):
        local_state(3, 3, [SHAPE_SET[s] for s in board.shapes])
    # A 2x2 ring of corners closes in the corner of a board of ends elsewhere.
    shapes = [3, 3, 0, 3, 3, 0, 0, 0, 0]
    with pytest.raises(Contradiction):
        local_state(3, 3, [SHAPE_SET[s] for s in shapes])


def test_deduction_counts_revisions_only_when_asked() -> None:
    """Both ways of deducing agree; only the tile-by-tile one counts a revision per tile."""
    board = generate(15, 15, seed=4)
    fast = deduction(board)
    slow = deduction(board, revisions=True)
    assert fast is not None and slow is not None
    assert fast.cand == slow.cand and fast.solved
    assert slow.steps >= board.size > fast.steps


def _pieces(w: int, h: int, arms: list[int], free: bytearray) -> set[frozenset[int]]:
    """Oracle: flagged tiles alone, the rest split into the pieces of the tree between them."""
    n = w * h
    out: set[frozenset[int]] = set()
    seen = [False] * n
    for r in range(n):
        if seen[r]:
            continue
        seen[r] = True
        piece = {r}
        stack = [r]
        while stack and not free[r]:
            x = stack.pop()
            for d in range(4):
                y = neighbour(w, h, x, d)
                if arms[x] >> d & 1 and not free[y] and not seen[y]:
                    seen[y] = True
                    piece.add(y)
                    stack.append(y)
        out.add(frozenset(piece))
    return out


@settings(max_examples=120, deadline=None)
@given(st.integers(3, 20), st.integers(3, 20), st.integers(0, 2**32), st.floats(0.0, 0.5))
def test_tree_state_classes_are_the_pieces_of_the_tree(
    w: int, h: int, seed: int, share: float
) -> None:
    """Property: the classes of a tree state are the flagged tiles alone and the pieces the
    flagged tiles cut the tree into, with their sizes and open ends (arms towards flagged
    tiles, all arms of a flagged tile); fixed tiles keep their arms, flagged ones their shape."""
    board = random_tree_board(w, h, seed)
    n = w * h
    arms = [board.solved_mask(t) for t in range(n)]
    free = bytearray(n)
    rng = random.Random(seed)
    for _ in range(1 + int(share * n)):
        free[rng.randrange(n)] = 1
    state = state_from_tree(w, h, arms, free)
    assert _classes(state) == _pieces(w, h, arms, free)
    size: dict[int, int] = {}
    ends: dict[int, int] = {}
    for x in range(n):
        label = state.lab[x]
        size[label] = size.get(label, 0) + 1
        for d in range(4):
            y = neighbour(w, h, x, d)
            if arms[x] >> d & 1 and (free[x] or free[y]):
                ends[label] = ends.get(label, 0) + 1
    for label, count in size.items():
        assert state.csz[label] == count
        assert state.cex[label] == ends.get(label, 0)
    for t in range(n):
        if free[t]:
            assert state.cand[t] & ~SHAPE_SET[board.shapes[t]] == 0
            assert state.cand[t] >> arms[t] & 1
        else:
            assert state.cand[t] == 1 << arms[t]
    queue = tree_state_queue(state, free)
    near = {t for t in range(n) if free[t]} | {
        neighbour(w, h, t, d) for t in range(n) if free[t] for d in range(4)
    } - {-1}
    assert sorted(queue) == sorted(near) and len(set(queue)) == len(queue)
