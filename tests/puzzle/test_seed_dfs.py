"""The seed's counter-based DFS against the exact bridge rings of ``compute_flow``."""

from __future__ import annotations

import random

from hypothesis import given, settings

from controller.puzzle.flow import compute_flow
from controller.puzzle.model import Board, Direction, TileClass
from controller.puzzle.seed_dfs import seed_dfs
from tests.support.boards import board_from_masks, loopy_boards, random_tree_board, tree_boards


def solved_board(width: int, height: int, masks: list[int], source: tuple[int, int]) -> Board:
    """A board showing exactly these arm masks."""
    board = board_from_masks(width, height, masks, source, random.Random(0))
    board.rotations = list(board.solution)
    return board


def check_dfs_tree(board: Board, parent: list[int], wet: list[bool]) -> None:
    """Every wet tile but the source has a connected wet DFS parent leading to the source."""
    src = board.source_index
    for v in range(board.size):
        if v == src or not wet[v]:
            assert parent[v] == -1
            continue
        assert board.connected(v, parent[v]) and wet[board.neighbour(v, parent[v])]
    for v in range(board.size):
        steps = 0
        while wet[v] and v != src:
            v = board.neighbour(v, parent[v])
            steps += 1
            assert steps <= board.size


@settings(max_examples=300, deadline=None)
@given(loopy_boards())
def test_seed_dfs_rings_equal_bridge_rings_on_loopy_boards(board: Board) -> None:
    seed = seed_dfs(board)
    flow = compute_flow(board)
    assert seed.wet == flow.wet
    assert seed.ring == flow.ring
    assert seed.classes == flow.classes
    check_dfs_tree(board, seed.parent, seed.wet)
    assert sorted(seed.order) == [v for v in range(board.size) if flow.wet[v]]
    # Every counter is handed back by the end: nothing stays marked on the source's stack.
    assert all(c == 0 for v, c in enumerate(seed.counter) if not seed.ring[v])
    # The two other readings bracket the exact one.
    assert all(e or not r for e, r in zip(seed.ever_marked, seed.ring, strict=True))
    assert all(r or not c for c, r in zip(seed.self_cleared, seed.ring, strict=True))


@settings(max_examples=100, deadline=None)
@given(tree_boards())
def test_seed_dfs_agrees_on_shuffled_trees(board: Board) -> None:
    seed = seed_dfs(board)
    flow = compute_flow(board)
    assert seed.wet == flow.wet and seed.ring == flow.ring and seed.classes == flow.classes


@settings(max_examples=30, deadline=None)
@given(tree_boards(shuffle=False))
def test_seed_dfs_on_solved_trees_marks_no_ring_under_any_reading(board: Board) -> None:
    seed = seed_dfs(board)
    assert all(seed.wet)
    assert not any(seed.ring) and not any(seed.ever_marked) and not any(seed.self_cleared)
    assert seed.classes == compute_flow(board).classes


# A 3x3 board: a 4-loop A-B-C-D hanging on the source S by the bridge S-A; the rest dry.
#
#     S-A-B
#       | |
#     . D-C
#     . . .
END_E, END_S = 0b0010, 0b0100
TEE_ESW, CORNER_SW, CORNER_NW, CORNER_NE = 0b1110, 0b1100, 0b1001, 0b0011
STEM_LOOP = [END_E, TEE_ESW, CORNER_SW, END_S, CORNER_NE, CORNER_NW, END_S, END_S, END_S]


def test_seed_dfs_agrees_on_a_single_loop_on_a_stem() -> None:
    board = solved_board(3, 3, STEM_LOOP, (0, 0))
    seed = seed_dfs(board)
    assert seed.ring == compute_flow(board).ring
    assert seed.ring == [False, True, True, False, True, True, False, False, False]
    assert seed.order == [0, 1, 2, 5, 4]
    # The DFS goes round the loop: D's parent is C (east), not A as in the BFS.
    assert seed.parent[4] == Direction.E and compute_flow(board).parent[4] == Direction.N


def test_seed_dfs_agrees_on_a_single_loop_through_the_source() -> None:
    # Source at the top-left of a 2x2 loop.
    #
    #     S-+ .
    #     +-+ .
    #     . . .
    board = solved_board(
        3, 3, [0b0110, CORNER_SW, END_S, CORNER_NE, CORNER_NW, END_S, END_S, END_S, END_S], (0, 0)
    )
    seed = seed_dfs(board)
    assert seed.ring == compute_flow(board).ring == [True, True, False, True, True] + [False] * 4
    assert seed.classes == compute_flow(board).classes


def test_seed_dfs_ever_marked_reading_also_marks_the_stem_of_a_ring() -> None:
    """Reading "marked whenever the counter was positive": S is on the stack when D hits A,
    so its counter goes to 1 before A hands its conflict back, although S is on no cycle.

        S-A-B
          | |
        . D-C
    """
    board = solved_board(3, 3, STEM_LOOP, (0, 0))
    seed = seed_dfs(board)
    assert not compute_flow(board).ring[0]
    assert seed.ever_marked[0] and not seed.ring[0]
    assert seed.ever_marked == [True, True, True, False, True, True, False, False, False]


def test_seed_dfs_misses_ring_entry_when_conflict_is_handed_up_before_marking() -> None:
    """Reading "counter after the finishing tile hands its conflict up, itself included": A, the
    tile where the loop is entered, has only the back edge D->A, so it would drop to 0 and be
    drawn as a plain wet tile although it is on the loop.

        S-A-B
          | |
        . D-C
    """
    board = solved_board(3, 3, STEM_LOOP, (0, 0))
    seed = seed_dfs(board)
    assert compute_flow(board).ring[1] and seed.ring[1]
    assert seed.conflict[1] == 1 and not seed.self_cleared[1]
    assert seed.self_cleared == [False, False, True, False, True, True, False, False, False]


def test_seed_dfs_runs_without_recursion_on_the_largest_board() -> None:
    board = random_tree_board(128, 128, 3, shuffle=False)
    seed = seed_dfs(board)
    assert all(seed.wet) and len(seed.order) == board.size


# The fully linked 3x3 board, every tile on a cycle:
#
#     ┌┬┐
#     │├┤
#     └┴┘   source at (2, 2)
FULL_3X3 = [0b0110, 0b1110, 0b1100, 0b0101, 0b0111, 0b1101, 0b0011, 0b1011, 0b1001]


def test_article_pseudocode_order_marks_four_ring_tiles_as_plain_wet() -> None:
    """Counter-example to the pseudocode order (counter >= 1 checked before "visiting"): on
    ┌┬┐/│├┤/└┴┘ with the source at (2, 2) every tile is on a ring; the seed's order (visiting
    first) marks them all, the pseudocode order leaves (0, 0), (0, 1), (0, 2), (1, 2) plain wet
    and the source unmarked."""
    board = solved_board(3, 3, FULL_3X3, (2, 2))
    flow = compute_flow(board)
    assert all(flow.ring)
    seed = seed_dfs(board)
    assert seed.ring == flow.ring and seed.classes == flow.classes
    article = seed_dfs(board, ring_check_first=True)
    assert all(article.wet)
    plain = [board.coords(v) for v in range(board.size) if not article.ring[v]]
    assert plain == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
    assert article.classes.count(TileClass.WET) == 4
    assert article.classes[board.source_index] == TileClass.SOURCE


def test_seed_dfs_tries_west_east_north_south() -> None:
    """The data pack's neighbour order: from the source ┬ at (1, 0) of the full 3x3 board the
    DFS goes west (not east, as N, E, S, W would), then from ┌ at (0, 0) south."""
    board = solved_board(3, 3, FULL_3X3, (1, 0))
    seed = seed_dfs(board)
    assert seed.order[:3] == [board.index(1, 0), board.index(0, 0), board.index(0, 1)]
