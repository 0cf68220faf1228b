"""Difficulty levels: every level's boards have the property that defines it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.deduce import LOOP
from controller.puzzle.generators import DIFFICULTIES, GeneratorParams, generate
from controller.puzzle.model import Board
from controller.puzzle.serialize import board_to_json
from controller.puzzle.solver import LOCAL_RULES, count_solutions, deduced
from tests.support.brute_force import brute_force_solutions

sizes = st.integers(min_value=5, max_value=9)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def level_board(w: int, h: int, seed: int, level: str, generator: str = "prim") -> Board:
    """A generated board of a difficulty level."""
    return generate(w, h, seed=seed, params=GeneratorParams(generator=generator, difficulty=level))


@settings(max_examples=25, deadline=None)
@given(sizes, sizes, seeds)
def test_easy_boards_fall_to_the_local_rules(w: int, h: int, seed: int) -> None:
    """easy: the local rules alone fix every tile."""
    board = level_board(w, h, seed, "easy")
    assert deduced(board, LOCAL_RULES)
    assert board.meta["difficulty"] == "easy"


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=7, max_value=10), st.integers(min_value=7, max_value=10), seeds)
def test_hard_boards_need_the_global_rules(w: int, h: int, seed: int) -> None:
    """hard: the local rules (even with loop avoidance) leave tiles open, the full rules do not."""
    board = level_board(w, h, seed, "hard")
    assert board.meta.get("difficulty_met", True)
    assert not deduced(board, LOCAL_RULES)
    assert not deduced(board, LOOP)
    assert deduced(board)


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=7, max_value=8), st.integers(min_value=7, max_value=8), seeds)
def test_expert_boards_are_unique_but_need_search(w: int, h: int, seed: int) -> None:
    """expert: deduction leaves tiles open, and still there is exactly one solution."""
    board = level_board(w, h, seed, "expert")
    assert board.meta.get("difficulty_met", True)
    assert not deduced(board)
    assert count_solutions(board, limit=5) == 1


def test_expert_against_brute_force() -> None:
    """On 5x5 boards brute force agrees an expert board has one solution, the generating one
    (a 5x5 tree sometimes allows no expert board: those say so in their meta)."""
    met = 0
    for seed in range(8):
        board = level_board(5, 5, seed, "expert")
        if not board.meta.get("difficulty_met", True):
            continue
        met += 1
        assert not deduced(board)
        sols = brute_force_solutions(board)
        assert sols == [tuple(board.solved_mask(t) for t in range(board.size))]
    assert met >= 4


@pytest.mark.parametrize("level", DIFFICULTIES)
def test_levels_are_deterministic_by_seed(level: str) -> None:
    """The same seed and parameters give the same board at every level."""
    a = level_board(6, 6, 11, level, "eller")
    b = level_board(6, 6, 11, level, "eller")
    assert board_to_json(a) == board_to_json(b)


def test_normal_boards_carry_no_difficulty_meta() -> None:
    """normal is the default: its boards are the ones generated before levels existed."""
    board = generate(9, 9, seed=4)
    assert board_to_json(board) == board_to_json(level_board(9, 9, 4, "normal"))
    assert "difficulty" not in board.meta


def test_bad_difficulty_is_named() -> None:
    """An unknown level, or a level without uniqueness, is refused naming difficulty."""
    with pytest.raises(ValueError, match="^difficulty: unknown 'insane'"):
        GeneratorParams(difficulty="insane")
    with pytest.raises(ValueError, match="^difficulty: hard needs unique boards"):
        GeneratorParams(difficulty="hard", unique=False)


def test_tiny_boards_without_a_hard_puzzle_say_so() -> None:
    """A 3x3 board has no hard puzzle: the generator keeps a unique board and says so."""
    board = level_board(3, 3, 1, "hard")
    assert board.meta["difficulty_met"] is False
    assert count_solutions(board) == 1
