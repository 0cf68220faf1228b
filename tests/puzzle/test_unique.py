"""Tests for make_unique: brute force agrees that repaired boards have exactly one solution."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle import solver
from controller.puzzle.deduce import neighbour_table
from controller.puzzle.generators import GENERATORS, GeneratorParams, generate
from controller.puzzle.model import Board
from controller.puzzle.solver import ambiguous_tiles, count_solutions, make_unique
from tests.support.brute_force import (
    board_of_arms,
    brute_force_solutions,
    neighbour,
    random_tree_arms,
    random_tree_board,
)


def assert_spanning_tree(board: Board) -> None:
    """The board's solution is a spanning tree with 1..3 arms per tile and matching shapes."""
    w, h, n = board.width, board.height, board.size
    arms = [board.solved_mask(t) for t in range(n)]
    edges = 0
    for t in range(n):
        assert 1 <= bin(arms[t]).count("1") <= 3
        for d in range(4):
            if arms[t] >> d & 1:
                u = neighbour(w, h, t, d)
                assert u >= 0, f"tile {t} has an arm off the board"
                assert arms[u] >> ((d + 2) % 4) & 1, f"tile {t} arm {d} faces no arm"
                edges += 1
    assert edges == 2 * (n - 1)
    seen = {0}
    stack = [0]
    while stack:
        t = stack.pop()
        for d in range(4):
            if arms[t] >> d & 1:
                u = neighbour(w, h, t, d)
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
    assert len(seen) == n


def test_every_small_size_becomes_unique() -> None:
    """All sizes 3x3..5x5 over many seeds: after make_unique brute force finds one solution."""
    repaired = 0
    for w in range(3, 6):
        for h in range(3, 6):
            for seed in range(40):
                board = random_tree_board(w, h, seed)
                before = len(brute_force_solutions(board))
                make_unique(board, random.Random(seed))
                assert_spanning_tree(board)
                sols = brute_force_solutions(board)
                assert len(sols) == 1
                assert sols[0] == tuple(board.solved_mask(t) for t in range(board.size))
                assert count_solutions(board, limit=1000) == 1
                assert ambiguous_tiles(board) == set()
                repaired += before > 1
    assert repaired > 0  # some raw trees really were ambiguous


def test_larger_ambiguous_trees_get_repaired() -> None:
    """6x6..8x8 trees that brute force finds ambiguous become unique."""
    repaired = 0
    for size in (6, 7, 8):
        for seed in range(40):
            board = random_tree_board(size, size, seed)
            if len(brute_force_solutions(board)) < 2:
                continue
            make_unique(board, random.Random(seed))
            assert_spanning_tree(board)
            assert len(brute_force_solutions(board)) == 1
            repaired += 1
    assert repaired >= 10


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 8), st.integers(3, 8), st.integers(0, 2**32))
def test_make_unique_property(w: int, h: int, seed: int) -> None:
    """Property: any Net-style tree becomes a one-solution spanning tree (brute force)."""
    board = random_tree_board(w, h, seed)
    make_unique(board, random.Random(seed))
    assert_spanning_tree(board)
    assert len(brute_force_solutions(board)) == 1


def test_unique_board_is_left_alone() -> None:
    """A board that deduction already solves is not changed."""
    for seed in range(30):
        board = random_tree_board(6, 6, seed)
        if ambiguous_tiles(board):
            continue
        before = (list(board.shapes), list(board.solution), list(board.rotations))
        make_unique(board, random.Random(seed))
        assert (board.shapes, board.solution, board.rotations) == before


def test_repair_is_local_and_deterministic() -> None:
    """Same seed, same result; a repair changes few tiles of a 16x16 board."""
    rng = random.Random(5)
    arms = random_tree_arms(16, 16, rng)
    a = board_of_arms(16, 16, arms, random.Random(1))
    b = board_of_arms(16, 16, arms, random.Random(1))
    original = list(a.shapes)
    make_unique(a, random.Random(42))
    make_unique(b, random.Random(42))
    assert (a.shapes, a.solution) == (b.shapes, b.solution)
    assert_spanning_tree(a)
    assert count_solutions(a) == 1
    changed = sum(x != y for x, y in zip(original, a.shapes, strict=True))
    assert changed < a.size // 4


def test_medium_boards_are_unique() -> None:
    """31x31 boards: deduction (a sound proof) solves every tile after repair."""
    for seed in range(2):
        board = random_tree_board(31, 31, seed)
        make_unique(board, random.Random(seed))
        assert_spanning_tree(board)
        assert count_solutions(board) == 1


def test_rejects_a_solution_that_is_not_a_tree() -> None:
    """A board whose solution leaks raises ValueError naming the field."""
    board = random_tree_board(4, 4, 2)
    board.solution[0] = (board.solution[0] + 1) % 4
    if board.shapes[0] == 1:
        board.solution[0] = (board.solution[0] + 1) % 4
    with pytest.raises(ValueError, match="solution"):
        make_unique(board, random.Random(0))


@pytest.mark.parametrize("generator", GENERATORS)
def test_generated_boards_are_unique(generator: str) -> None:
    """Every engine generator with unique=True gives one solution by brute force (<= 7x7)."""
    for seed in range(15):
        w, h = 3 + seed % 5, 3 + (seed * 3) % 5
        board = generate(w, h, seed=seed, params=GeneratorParams(generator=generator))
        assert_spanning_tree(board)
        assert len(brute_force_solutions(board)) == 1


def test_search_fallback_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a uniqueness search every round, repairs still end at exactly one solution."""
    monkeypatch.setattr(solver, "_SEARCH_EVERY", 1)
    repaired = 0
    for seed in range(60):
        board = random_tree_board(7, 7, seed)
        if len(brute_force_solutions(board)) < 2:
            continue
        make_unique(board, random.Random(seed))
        assert_spanning_tree(board)
        assert len(brute_force_solutions(board)) == 1
        repaired += 1
    assert repaired >= 5


def test_conditional_rounds_are_checked_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no margin around repairs, the final whole-board proof still decides."""
    monkeypatch.setattr(solver, "_MARGIN", 0)
    for seed in range(3):
        board = random_tree_board(20, 20, seed)
        make_unique(board, random.Random(seed))
        assert_spanning_tree(board)
        assert ambiguous_tiles(board) == set()


def test_medium_boards_agree_with_brute_force() -> None:
    """10x10 and 12x12: generated boards have one solution by brute force; raw counts agree."""
    for size in (10, 12):
        for seed in range(4):
            board = generate(size, size, seed=seed)
            assert len(brute_force_solutions(board)) == 1
            raw = random_tree_board(size, size, seed)
            assert count_solutions(raw, limit=100_000) == len(brute_force_solutions(raw))


def _path_by_walk(arms: list[int], w: int, h: int, a: int, b: int) -> list[tuple[int, int]]:
    """Oracle: the tree path from a to b by a plain depth-first walk, edges listed from b."""
    parent = {a: (-1, -1)}
    todo = [a]
    while todo:
        x = todo.pop()
        for d in range(4):
            y = neighbour(w, h, x, d)
            if arms[x] >> d & 1 and y not in parent:
                parent[y] = (x, d)
                todo.append(y)
    out = []
    x = b
    while x != a:
        p, d = parent[x]
        out.append((p, d))
        x = p
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 20), st.integers(3, 20), st.integers(0, 2**32), st.randoms())
def test_tree_path_is_the_path_in_the_tree(w: int, h: int, seed: int, rnd: random.Random) -> None:
    """Property: the repair's path search (from both ends) finds the tree path between any two
    tiles, in the same order as a plain walk."""
    arms = random_tree_arms(w, h, random.Random(seed))
    nb = neighbour_table(w, h)
    for _ in range(10):
        a, b = rnd.randrange(w * h), rnd.randrange(w * h)
        assert solver._tree_path(arms, nb, w, a, b) == _path_by_walk(arms, w, h, a, b)
