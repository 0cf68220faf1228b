"""The room rules of each pipes mode (controller/runtime/pipes/mode.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Board
from controller.puzzle.sink import sink_par_report
from controller.puzzle.solver import par_report
from controller.runtime.pipes.mode import Rules, rules_for
from controller.world.geometry import Room


def _follow_hints(rules: Rules, board: Board) -> int:
    """Turn the hinted tile to the hinted rotation until there is no hint; the clicks taken."""
    clicks = 0
    for _ in range(4 * board.size):
        tip = rules.hint(board)
        if tip is None:
            break
        tile, rotation = tip
        clicks += (rotation - board.rotations[tile]) % 4
        board.rotations[tile] = rotation
    return clicks


def test_a_sink_room_announces_par_only_when_the_search_proved_it() -> None:
    """31×31 seed 4 once announced the bound 359 as par (the hints need 300)."""
    rules = rules_for("sink", Room("lobby", (0, 100, 0), 31, 31), 1_000_000)
    inexact = generate(31, 31, seed=4, params=GeneratorParams(mode="sink"))
    report = sink_par_report(inexact)
    assert not report.exact and report.lower < report.clicks
    assert rules.par(inexact) is None
    exact = generate(7, 7, seed=4, params=GeneratorParams(mode="sink"))
    assert sink_par_report(exact).exact
    assert rules.par(exact) == sink_par_report(exact).clicks


@pytest.mark.parametrize(("w", "h", "seed", "par_clicks"), [(7, 6, 115, 51), (9, 9, 38, 112)])
def test_following_a_rooms_hints_takes_par_clicks_on_a_board_with_several_solutions(
    w: int, h: int, seed: int, par_clicks: int
) -> None:
    """The hints lead to the nearest solution, not the generating one (59 and 118 clicks)."""
    board = generate(w, h, seed=seed, params=GeneratorParams(unique=False))
    assert par_report(board).clicks == par_clicks
    rules = rules_for("tree", Room("lobby", (0, 100, 0), w, h), 1_000_000)
    clicks = _follow_hints(rules, board)
    assert compute_flow(board).solved and clicks == par_clicks


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 8), st.integers(3, 8))
def test_a_rooms_hints_never_take_more_clicks_than_the_generating_solution(
    seed: int, w: int, h: int
) -> None:
    """Oracle: the clicks from the start to the board's own solution."""
    board = generate(w, h, seed=seed, params=GeneratorParams(unique=False))
    own = sum((r - s) % 4 for r, s in zip(board.solution, board.rotations, strict=True))
    rules = rules_for("tree", Room("lobby", (0, 100, 0), w, h), 1_000_000)
    clicks = _follow_hints(rules, board)
    assert compute_flow(board).solved and clicks <= own
