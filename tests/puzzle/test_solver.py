"""Tests for the solver: counting against a brute-force oracle, solve, hint, par, difficulty."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.deduce import ALL_RULES, masks_of
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Board, mask_of
from controller.puzzle.solver import (
    ambiguous_tiles,
    count_solutions,
    deduction,
    difficulty,
    hint,
    is_solution,
    par,
    par_report,
    solution_masks,
    solve,
)
from tests.support.brute_force import brute_force_solutions, random_tree_board

SIZES = [(w, h) for w in range(3, 6) for h in range(3, 6)]


def test_count_matches_brute_force_on_all_small_sizes() -> None:
    """count_solutions equals the oracle's count for raw trees of every size 3x3..5x5."""
    ambiguous = 0
    for w, h in SIZES:
        for seed in range(60):
            board = random_tree_board(w, h, seed)
            sols = brute_force_solutions(board)
            assert tuple(board.solved_mask(t) for t in range(board.size)) in sols
            assert count_solutions(board, limit=10_000) == len(sols)
            assert count_solutions(board) == min(len(sols), 2)
            ambiguous += len(sols) > 1
            if len(sols) > 1:
                differing = {t for t in range(board.size) if len({s[t] for s in sols}) > 1}
                assert differing <= ambiguous_tiles(board)
            else:
                assert ambiguous_tiles(board) <= set(range(board.size))
    assert ambiguous > 0  # the oracle really exercised ambiguous boards


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5), st.integers(3, 5), st.integers(0, 2**32))
def test_count_matches_brute_force_property(w: int, h: int, seed: int) -> None:
    """Property: the solver's count agrees with brute force on random small trees."""
    board = random_tree_board(w, h, seed)
    sols = brute_force_solutions(board)
    assert count_solutions(board, limit=10_000) == len(sols)
    masks = solution_masks(board)
    assert masks is not None and tuple(masks) in sols


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 4), st.integers(3, 4), st.data())
def test_count_matches_brute_force_on_arbitrary_shapes(w: int, h: int, data: st.DataObject) -> None:
    """Property: for any shapes (mostly no tree at all) the count agrees with brute force."""
    board = random_tree_board(w, h, data.draw(st.integers(0, 2**32)))
    for t in data.draw(st.lists(st.integers(0, w * h - 1), max_size=4)):
        board.shapes[t] = data.draw(st.integers(0, 3))
    sols = brute_force_solutions(board)
    assert count_solutions(board, limit=10_000) == len(sols)
    rots = solve(board)
    if sols:
        assert rots is not None
        masks = tuple(mask_of(s, r) for s, r in zip(board.shapes, rots, strict=True))
        assert masks in sols and is_solution(board, masks)
    else:
        assert rots is None


RULE_SETS = list(range(ALL_RULES + 1))


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 2**32), st.data())
def test_every_rule_set_keeps_every_solution(
    w: int, h: int, seed: int, data: st.DataObject
) -> None:
    """Soundness: whatever rules are on, deduction never removes a brute-force solution's mask,
    and counting with search on top still agrees with brute force (also for shapes that are no
    tree at all)."""
    board = random_tree_board(w, h, seed)
    for t in data.draw(st.lists(st.integers(0, w * h - 1), max_size=3)):
        board.shapes[t] = data.draw(st.integers(0, 3))
    rules = data.draw(st.sampled_from(RULE_SETS))
    sols = brute_force_solutions(board)
    state = deduction(board, rules)
    if state is None:
        assert sols == []
    else:
        for sol in sols:
            assert all(state.cand[t] >> m & 1 for t, m in enumerate(sol))
        if state.solved:
            assert sols == [tuple(masks_of(state))]
    assert count_solutions(board, limit=10_000, rules=rules) == len(sols)


def test_stronger_rules_decide_at_least_as_much() -> None:
    """Adding rules never leaves more tiles open (the rules are monotone)."""
    for seed in range(40):
        board = random_tree_board(9, 9, seed)
        open_tiles = {}
        for rules in RULE_SETS:
            state = deduction(board, rules)
            assert state is not None
            open_tiles[rules] = {t for t, c in enumerate(state.cand) if c & (c - 1)}
        for weak in RULE_SETS:
            for strong in RULE_SETS:
                if weak & strong == weak:
                    assert open_tiles[strong] <= open_tiles[weak], (weak, strong)


def test_counts_up_to_8x8() -> None:
    """Bigger raw trees (where ambiguity is common) agree with brute force too."""
    ambiguous = 0
    for size in (6, 7, 8):
        for seed in range(30):
            board = random_tree_board(size, size, seed)
            sols = brute_force_solutions(board)
            assert count_solutions(board, limit=10_000) == len(sols)
            ambiguous += len(sols) > 1
    assert ambiguous >= 10


def test_no_solution_is_zero() -> None:
    """Four ends on a 3x3 plus arbitrary tiles cannot form a tree: both agree on 0."""
    board = random_tree_board(3, 3, 1)
    board.shapes = [0] * 9  # nine ends cannot connect
    assert brute_force_solutions(board) == []
    assert count_solutions(board) == 0
    assert solve(board) is None
    assert ambiguous_tiles(board) == set(range(9))


def test_shape_that_fits_nowhere() -> None:
    """A tee in a corner has no orientation: no solution, and every query copes."""
    board = random_tree_board(4, 4, 5)
    board.shapes[0] = 2
    assert brute_force_solutions(board) == []
    assert count_solutions(board) == 0
    assert solve(board) is None
    assert ambiguous_tiles(board) == set(range(16))


def test_is_solution_rejects_loops_and_leaks() -> None:
    """is_solution accepts the tree and rejects a leak and a disconnected/cyclic assignment."""
    board = random_tree_board(4, 4, 3)
    arms = [board.solved_mask(t) for t in range(16)]
    assert is_solution(board, arms)
    bad = arms[:]
    t = next(t for t in range(16) if board.shapes[t] == 0)
    bad[t] = next(m for m in (1, 2, 4, 8) if m != arms[t])
    assert not is_solution(board, bad)


def _unique_board(w: int, h: int, seed: int) -> Board:
    """A small board that is unique by brute force (searching seeds)."""
    for s in range(seed, seed + 500):
        board = random_tree_board(w, h, s)
        if len(brute_force_solutions(board)) == 1:
            return board
    raise AssertionError("no unique board found")


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 5), st.integers(3, 5), st.integers(0, 10_000))
def test_solve_returns_the_unique_solution(w: int, h: int, seed: int) -> None:
    """solve() of a shuffled unique board gives the solution's arms."""
    board = _unique_board(w, h, seed)
    rots = solve(board)
    assert rots is not None
    assert [mask_of(s, r) for s, r in zip(board.shapes, rots, strict=True)] == [
        board.solved_mask(t) for t in range(board.size)
    ]


def clicks_to(board: Board, masks: tuple[int, ...] | list[int]) -> int:
    """Clockwise clicks that turn every tile from its rotation to the given arms."""
    return sum(
        min(k for k in range(4) if mask_of(s, (r + k) % 4) == m)
        for s, r, m in zip(board.shapes, board.rotations, masks, strict=True)
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 2**32))
def test_par_is_the_minimum_over_all_solutions(w: int, h: int, seed: int) -> None:
    """par() is the fewest clicks to any brute-force solution, not just to the generating one;
    the report is exact and names a solution at that distance."""
    board = random_tree_board(w, h, seed)
    sols = brute_force_solutions(board)
    best = min(clicks_to(board, sol) for sol in sols)
    report = par_report(board)
    assert report.exact and report.clicks == report.lower == best == par(board)
    assert tuple(report.masks) in sols and clicks_to(board, report.masks) == best
    assert best <= clicks_to(board, [board.solved_mask(t) for t in range(board.size)])
    for t in range(board.size):
        if board.shapes[t] == 1:
            assert brute_force_par_tile(board, t) <= 1


def test_par_of_an_ambiguous_board_beats_the_generating_solution() -> None:
    """The 6x6 --no-unique board of seed 195187: 46 clicks to its own tree, 42 to the other."""
    board = generate(6, 6, seed=195187, params=GeneratorParams(unique=False))
    sols = brute_force_solutions(board)
    assert len(sols) == 2
    own = [board.solved_mask(t) for t in range(board.size)]
    assert clicks_to(board, own) == 46
    assert par(board) == 42 == min(clicks_to(board, sol) for sol in sols)


@settings(max_examples=30, deadline=None)
@given(st.integers(5, 8), st.integers(5, 8), st.integers(0, 2**32), st.integers(0, 6))
def test_par_bound_when_the_budget_runs_out(w: int, h: int, seed: int, budget: int) -> None:
    """With a tiny search budget the report may be a bound, but it always brackets the truth."""
    board = random_tree_board(w, h, seed)
    sols = brute_force_solutions(board)
    best = min(clicks_to(board, sol) for sol in sols)
    report = par_report(board, budget=budget)
    assert report.lower <= best <= report.clicks
    assert tuple(report.masks) in sols and clicks_to(board, report.masks) == report.clicks
    if report.exact:
        assert report.clicks == best == report.lower
    st = deduction(board)
    if st is not None and st.nund == 0:  # nothing left to search: exact at any budget
        assert report.exact


def brute_force_par_tile(board: Board, t: int) -> int:
    """Clicks for one tile: the first k whose rotated arms equal the solution's."""
    return min(
        k
        for k in range(4)
        if mask_of(board.shapes[t], (board.rotations[t] + k) % 4) == board.solved_mask(t)
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 5), st.integers(3, 5), st.integers(0, 10_000), st.integers(0, 2**32))
def test_par_is_fewest_clicks_to_any_solution(w: int, h: int, seed: int, shuffle: int) -> None:
    """On unique boards par() is the fewest clicks to reach any brute-force solution."""
    board = _unique_board(w, h, seed)
    rng = random.Random(shuffle)
    board.rotations = [rng.randrange(4) for _ in board.rotations]
    best = min(
        sum(
            min(k for k in range(4) if mask_of(s, (r + k) % 4) == m)
            for s, r, m in zip(board.shapes, board.rotations, sol, strict=True)
        )
        for sol in brute_force_solutions(board)
    )
    assert par(board) == best


def test_par_after_solving_is_zero() -> None:
    """A board at its solution has par 0 and no hint; one click away has par 3 or 1."""
    board = random_tree_board(5, 5, 4)
    board.rotations = list(board.solution)
    assert par(board) == 0
    assert hint(board) is None
    t = next(t for t in range(25) if board.shapes[t] == 3)
    board.rotations[t] = (board.rotations[t] + 1) % 4
    assert par(board) == 3


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(0, 2**32))
def test_hints_solve_the_board(w: int, h: int, seed: int) -> None:
    """Applying hints repeatedly reaches the solution, each hint fixing a wrong tile."""
    board = random_tree_board(w, h, seed)
    wrong = sum(board.mask(t) != board.solved_mask(t) for t in range(board.size))
    for _ in range(wrong):
        h_ = hint(board)
        assert h_ is not None
        t, r = h_
        assert board.mask(t) != board.solved_mask(t)
        assert mask_of(board.shapes[t], r) == board.solved_mask(t)
        board.rotations[t] = r
    assert hint(board) is None
    assert par(board) == 0


def test_hint_names_the_single_wrong_tile() -> None:
    """With exactly one wrong tile, the hint names that tile and the nearest right rotation."""
    checked = 0
    for seed in range(20):
        board = random_tree_board(6, 6, seed)
        board.rotations = list(board.solution)
        t = (seed * 7) % 36
        board.rotations[t] = (board.rotations[t] + 1) % 4
        if board.mask(t) == board.solved_mask(t):
            continue
        assert hint(board) == (t, _needed_rotation(board, t))
        checked += 1
    assert checked >= 10


def test_hint_prefers_tiles_forced_by_right_neighbours() -> None:
    """Two wrong tiles: the one deduction fixes from the right tiles comes first."""
    board = _unique_board(6, 6, 3)
    board.rotations = list(board.solution)
    wrong = [t for t in range(36) if board.shapes[t] != 1][:2]
    for t in wrong:
        board.rotations[t] = (board.rotations[t] + 1) % 4
    got = hint(board)
    assert got is not None and got[0] in wrong
    assert mask_of(board.shapes[got[0]], got[1]) == board.solved_mask(got[0])


def test_hint_prefers_the_tile_with_most_known_sides() -> None:
    """An isolated wrong tile (4 known sides) beats a wrong pair (3 known sides each)."""
    checked = 0
    for seed in range(30):
        board = _unique_board(6, 6, seed)
        board.rotations = list(board.solution)
        lone, pair = 7, (21, 22)  # (1, 1) and (3, 3)-(4, 3): not adjacent to each other
        for t in (lone, *pair):
            board.rotations[t] = (board.rotations[t] + 1) % 4
        if any(board.mask(t) == board.solved_mask(t) for t in (lone, *pair)):
            continue
        assert hint(board) == (lone, _needed_rotation(board, lone))
        checked += 1
    assert checked >= 10


def _needed_rotation(board: Board, t: int) -> int:
    """The rotation nearest clockwise that shows the solution's arms."""
    for k in range(4):
        r = (board.rotations[t] + k) % 4
        if mask_of(board.shapes[t], r) == board.solved_mask(t):
            return r
    raise AssertionError


def test_difficulty_is_steps_per_tile() -> None:
    """difficulty() is deterministic, at least one revision per tile, and ignores rotations."""
    board = _unique_board(5, 5, 0)
    d = difficulty(board)
    assert d >= 1.0
    board.rotations = [(r + 1) % 4 for r in board.rotations]
    assert difficulty(board) == d


def test_difficulty_counts_search() -> None:
    """An ambiguous board needs guesses, which weigh in on top of deduction."""
    board = next(
        b
        for b in (random_tree_board(8, 8, s) for s in range(100))
        if len(brute_force_solutions(b)) > 1
    )
    assert difficulty(board) > 1.0
    nothing = random_tree_board(3, 3, 0)
    nothing.shapes = [0] * 9
    with pytest.raises(ValueError, match="board"):
        difficulty(nothing)


def test_par_of_a_unique_board_beyond_deduction_is_a_bound_at_budget_zero() -> None:
    """8x7 tree of seed 8: one solution, but deduction leaves 10 tiles, so without search
    budget par is a stated bound that brackets the truth."""
    board = random_tree_board(8, 7, 8)
    assert len(brute_force_solutions(board)) == 1
    rough = par_report(board, budget=0)
    full = par_report(board)
    assert not rough.exact and full.exact
    assert rough.lower <= full.clicks <= rough.clicks


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 4), st.integers(3, 4), st.integers(0, 2**32), st.data())
def test_is_solution_matches_brute_force(w: int, h: int, seed: int, data: st.DataObject) -> None:
    """Property: is_solution accepts exactly the brute-force solutions, among the solution, a
    few of its tiles turned, and masks that are no mask of the shape (or no mask at all)."""
    board = random_tree_board(w, h, seed)
    sols = set(brute_force_solutions(board))
    masks = [board.solved_mask(t) for t in range(board.size)]
    assert is_solution(board, masks)
    for t in data.draw(st.lists(st.integers(0, w * h - 1), max_size=3)):
        masks[t] = mask_of(board.shapes[t], data.draw(st.integers(0, 3)))
    assert is_solution(board, masks) == (tuple(masks) in sols)
    masks[data.draw(st.integers(0, w * h - 1))] = data.draw(st.sampled_from([-1, 0, 15, 16, 99]))
    assert not is_solution(board, masks)
    assert not is_solution(board, masks[:-1])
