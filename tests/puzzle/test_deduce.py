"""Tests for the deduction state: the bitboard local pass against the tile-by-tile loop."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.puzzle.deduce import (
    ALL_RULES,
    DEADEND,
    ISLAND,
    LOOP,
    SET_MASKS,
    SET_POP,
    SHAPE_SET,
    Contradiction,
    State,
    fix,
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
from tests.support.rules_oracle import oracle_bounds, oracle_deduction


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
        sets = [SHAPE_SET[s] for s in board.shapes]
        st, queue = local_state(board.width, board.height, sets, rules)
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


# Rule sets the oracle takes: its island rule counts each neighbouring class once, which the
# engine does only with the loop rule beside it (it always is, outside these tests).
_ORACLE_RULES = [r for r in range(ALL_RULES + 1) if not (r & ISLAND and not r & LOOP)]


def _masks(st: State | None) -> list[set[int]] | None:
    return None if st is None else [set(SET_MASKS[c]) for c in st.cand]


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 8), st.integers(3, 8), st.integers(0, 2**32), st.data())
def test_deduction_reaches_the_fixpoint_of_the_rules(
    w: int, h: int, seed: int, data: st.DataObject
) -> None:
    """Property: both ways of deducing end in exactly the masks of the rules written out
    literally (tests/support/rules_oracle.py), tile-by-tile dead ends included, and find the
    same contradictions; on trees, and on boards with shapes changed at random (several or
    no solutions)."""
    board = random_tree_board(w, h, seed)
    for t in data.draw(st.lists(st.integers(0, w * h - 1), max_size=3)):
        board.shapes[t] = data.draw(st.integers(0, 3))
    rules = data.draw(st.sampled_from(_ORACLE_RULES))
    want = oracle_deduction(board, rules)
    fast = deduction(board, rules)
    assert _masks(fast) == want
    assert _masks(deduction(board, rules, revisions=True)) == want
    if fast is not None and want is not None and rules & DEADEND and not fast.solved:
        _assert_bounds_are_the_oracles(board, fast, want)


def _assert_bounds_are_the_oracles(board: Board, fast: State, want: list[set[int]]) -> None:
    """Where an undecided edge leaves an open tile, the state's dead-end bound is the one the
    tile-by-tile rule reaches on the final masks (the last dead-end pass changed nothing)."""
    assert fast.bounds is not None
    bounds = oracle_bounds(board, want)
    for t in range(fast.n):
        if SET_POP[fast.cand[t]] < 2:
            continue
        for d in range(4):
            if not fast.dec[t] >> d & 1:
                assert fast.bounds[4 * t + d] == bounds[t, d], (t, d)


def test_the_dead_end_rule_decides_tiles_the_others_leave() -> None:
    """On raw trees the dead-end rule fixes tiles that loop and island avoidance leave open, as
    the oracle does (so the fixpoint test above covers the rule doing something)."""
    gained = 0
    for seed in range(40):
        board = random_tree_board(8, 8, seed)
        weaker = deduction(board, LOOP | ISLAND)
        full = deduction(board, LOOP | ISLAND | DEADEND)
        assert weaker is not None and full is not None
        assert _masks(full) == oracle_deduction(board, ALL_RULES)
        gained += weaker.nund - full.nund
    assert gained > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 12), st.integers(4, 12), st.integers(0, 2**32), st.randoms())
def test_the_order_tiles_are_visited_in_does_not_matter(
    w: int, h: int, seed: int, rnd: random.Random
) -> None:
    """Property: every rule only narrows, so any visiting order ends in the same masks."""
    board = random_tree_board(w, h, seed)
    sets = [SHAPE_SET[s] for s in board.shapes]
    ref = initial_state(w, h, sets)
    propagate(ref, list(range(ref.n - 1, -1, -1)))
    shuffled = initial_state(w, h, sets)
    queue = list(range(shuffled.n))
    rnd.shuffle(queue)
    propagate(shuffled, queue)
    assert shuffled.cand == ref.cand
    st2, queue = local_state(w, h, sets, ALL_RULES)
    rnd.shuffle(queue)
    propagate(st2, queue)
    assert st2.cand == ref.cand


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 14), st.integers(8, 14), st.integers(0, 2**32), st.data())
def test_a_guess_deduces_as_if_the_tile_had_one_mask_from_the_start(
    w: int, h: int, seed: int, data: st.DataObject
) -> None:
    """Property: fixing a tile in a deduced state and deducing on (as the search does, with the
    dead-end bounds found so far carried along) ends where deduction from scratch with that
    tile given one mask ends."""
    board = random_tree_board(w, h, seed)
    sets = [SHAPE_SET[s] for s in board.shapes]
    base = deduction(board)
    assert base is not None
    open_tiles = [t for t in range(base.n) if SET_POP[base.cand[t]] > 1]
    assume(open_tiles)
    t = data.draw(st.sampled_from(open_tiles))
    m = data.draw(st.sampled_from(SET_MASKS[base.cand[t]]))
    guess = base.clone()
    fix(guess, t, m)
    try:
        propagate(guess, [t])
        got: list[int] | None = guess.cand
    except Contradiction:
        got = None
    fresh_sets = sets[:]
    fresh_sets[t] = 1 << m
    try:
        fresh = initial_state(w, h, fresh_sets)
        propagate(fresh, list(range(fresh.n - 1, -1, -1)))
        want: list[int] | None = fresh.cand
    except Contradiction:
        want = None
    assert got == want
