"""Full water flow against a brute-force oracle, on random loopy boards and random trees.

The random boards come from ``tests/support/boards.py``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings

from controller.puzzle.flow import Flow, compute_flow, tile_class
from controller.puzzle.model import Board, Direction, TileClass
from tests.support.boards import board_from_masks, loopy_boards, random_tree_board, tree_boards


def wet_edges(board: Board, wet: set[int]) -> set[tuple[int, int]]:
    """The connected pairs (a < b) between wet tiles."""
    out = set()
    for v in wet:
        for d in Direction:
            if board.connected(v, d):
                u = board.neighbour(v, d)
                if u in wet:
                    out.add((min(u, v), max(u, v)))
    return out


def _reach(start: int, edges: set[tuple[int, int]]) -> set[int]:
    """Tiles reachable from start over an explicit edge set."""
    adj: dict[int, list[int]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen = {start}
    todo = [start]
    while todo:
        v = todo.pop()
        for u in adj.get(v, ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def oracle_flow(board: Board) -> Flow:
    """The flow computed the slow, obvious way: flood fill, relaxation, edge-removal rings."""
    n = board.size
    src = board.source_index
    all_edges = set()
    for v in range(n):
        for d in Direction:
            if board.connected(v, d):
                u = board.neighbour(v, d)
                all_edges.add((min(u, v), max(u, v)))
    wet = _reach(src, all_edges)
    edges = {e for e in all_edges if e[0] in wet}
    # Distances by repeated relaxation (Bellman-Ford with unit weights).
    inf = n + 1
    dist = [inf] * n
    dist[src] = 0
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            if dist[a] + 1 < dist[b]:
                dist[b] = dist[a] + 1
                changed = True
            if dist[b] + 1 < dist[a]:
                dist[a] = dist[b] + 1
                changed = True
    dist = [x if x < inf else -1 for x in dist]
    parent = [-1] * n
    for v in wet:
        if v == src:
            continue
        parent[v] = next(
            d
            for d in Direction
            if board.connected(v, d) and dist[board.neighbour(v, d)] == dist[v] - 1
        )
    ring = [False] * n
    for a, b in edges:
        if b in _reach(a, edges - {(a, b)}):
            ring[a] = ring[b] = True
    classes = [tile_class(v in wet, ring[v], v == src) for v in range(n)]
    return Flow(
        wet=[v in wet for v in range(n)],
        parent=parent,
        ring=ring,
        classes=classes,
        dist=dist,
        wet_count=len(wet),
        solved=len(wet) == n,
    )


@settings(max_examples=300, deadline=None)
@given(loopy_boards())
def test_flow_matches_oracle_on_loopy_boards(board: Board) -> None:
    assert compute_flow(board) == oracle_flow(board)


@settings(max_examples=150, deadline=None)
@given(tree_boards())
def test_flow_matches_oracle_on_shuffled_trees(board: Board) -> None:
    assert compute_flow(board) == oracle_flow(board)


@settings(max_examples=50, deadline=None)
@given(tree_boards(shuffle=False))
def test_solved_tree_is_all_wet_without_rings(board: Board) -> None:
    flow = compute_flow(board)
    assert flow.solved and flow.wet_count == board.size
    assert not any(flow.ring)
    src = board.source_index
    assert flow.classes[src] == TileClass.SOURCE
    assert all(flow.classes[v] == TileClass.WET for v in range(board.size) if v != src)
    # Following parents from any tile leads to the source in dist steps.
    for v in range(board.size):
        steps = 0
        while v != src:
            v = board.neighbour(v, flow.parent[v])
            steps += 1
        assert steps <= board.size


def _square_ring_board() -> Board:
    """3x3: a 2x2 loop of corners at the top-left, the source at (0,0), the rest dry ends.

    S-+ .
    +-+ .
    . . .
    """
    # corner masks: (0,0) {E,S}; (1,0) {S,W}; (0,1) {N,E}; (1,1) {N,W}
    es, sw, ne, nw = 0b0110, 0b1100, 0b0011, 0b1001
    end_n = 0b0001
    masks = [es, sw, end_n, ne, nw, end_n, end_n, end_n, end_n]
    board = board_from_masks(3, 3, masks, (0, 0), random.Random(0))
    board.rotations = list(board.solution)
    return board


def test_square_loop_is_a_ring_with_source_ring_class() -> None:
    flow = compute_flow(_square_ring_board())
    assert flow.wet == [True, True, False, True, True, False, False, False, False]
    assert flow.classes[:2] == [TileClass.SOURCE_RING, TileClass.RING]
    assert flow.classes[3:5] == [TileClass.RING, TileClass.RING]
    # (1,1) is two steps from the source; its first parent candidate in N,E,S,W order is N.
    assert flow.dist[4] == 2 and flow.parent[4] == Direction.N
    assert flow.parent[1] == Direction.W and flow.parent[3] == Direction.N
    assert flow.wet_count == 4 and not flow.solved


def test_large_board_runs_without_recursion() -> None:
    board = random_tree_board(128, 128, 7, shuffle=False)
    flow = compute_flow(board)
    assert flow.solved and max(flow.dist) > 128
