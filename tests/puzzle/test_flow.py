"""Full water flow against a brute-force oracle, on random loopy boards and random trees.

The board helpers here (``random_tree_board``, ``loopy_boards``, ``tree_boards``) are reused by
``test_seed_dfs.py`` and ``test_play.py``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.flow import Flow, compute_flow, tile_class
from controller.puzzle.model import Board, Direction, TileClass, bit, opposite, shape_of_mask

__all__ = [
    "loopy_boards",
    "edges_board",
    "tree_boards",
    "random_tree_board",
    "board_from_masks",
    "oracle_flow",
    "wet_edges",
]


def board_from_masks(
    width: int, height: int, masks: list[int], source: tuple[int, int], rng: random.Random
) -> Board:
    """A board whose solution has these arm masks, its rotations shuffled by rng."""
    shapes: list[int] = []
    solution: list[int] = []
    for m in masks:
        s, r = shape_of_mask(m)
        shapes.append(s)
        solution.append(r)
    rotations = [rng.randrange(4) for _ in masks]
    return Board(width, height, source, shapes, rotations, solution)


def random_tree_board(width: int, height: int, seed: int, shuffle: bool = True) -> Board:
    """A random spanning tree without crosses (Net's frontier rule), optionally shuffled."""
    rng = random.Random(seed)
    n = width * height
    masks = [0] * n
    start = rng.randrange(n)
    used = {start}

    def options(v: int) -> list[tuple[int, int]]:
        i, j = v % width, v // width
        out = []
        for d, (di, dj) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            ni, nj = i + di, j + dj
            if 0 <= ni < width and 0 <= nj < height:
                out.append((v, d))
        return out

    frontier = options(start)
    while frontier:
        v, d = frontier.pop(rng.randrange(len(frontier)))
        i, j = v % width, v // width
        di, dj = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
        u = (j + dj) * width + (i + di)
        if u in used or bin(masks[v]).count("1") >= 3:
            continue
        masks[v] |= bit(d)
        masks[u] |= bit(opposite(d))
        used.add(u)
        frontier.extend(options(u))
    assert len(used) == n, "Net's rule always spans"
    src = rng.randrange(n)
    board = board_from_masks(width, height, masks, (src % width, src // width), rng)
    if not shuffle:
        board.rotations = list(board.solution)
    return board


def edges_board(
    width: int, height: int, edges: list[bool], source: int, seed: int, noise: float
) -> Board:
    """A board from a random subset of grid edges (east edges first, then south edges).

    A tile with four arms drops one, a tile with none gets one random arm; then each tile is
    turned at random with probability ``noise``. Dense subsets give many loops.
    """
    rng = random.Random(seed)
    n = width * height
    masks = [0] * n
    k = 0
    for j in range(height):
        for i in range(width - 1):
            if edges[k]:
                v = j * width + i
                masks[v] |= bit(Direction.E)
                masks[v + 1] |= bit(Direction.W)
            k += 1
    for j in range(height - 1):
        for i in range(width):
            if edges[k]:
                v = j * width + i
                masks[v] |= bit(Direction.S)
                masks[v + width] |= bit(Direction.N)
            k += 1
    for v in range(n):
        if masks[v] == 15:
            masks[v] &= ~bit(rng.randrange(4))
        elif masks[v] == 0:
            masks[v] = bit(rng.randrange(4))
    board = board_from_masks(width, height, masks, (source % width, source // width), rng)
    board.rotations = [rng.randrange(4) if rng.random() < noise else r for r in board.solution]
    return board


@st.composite
def loopy_boards(draw: st.DrawFn, max_side: int = 7) -> Board:
    """Random subsets of grid edges, lightly shuffled: small boards with many loops."""
    w = draw(st.integers(3, max_side))
    h = draw(st.integers(3, max_side))
    count = (w - 1) * h + w * (h - 1)
    dense = st.integers(0, 3).map(lambda x: x > 0)  # 3 in 4 edges: many loops
    edges = draw(st.lists(dense, min_size=count, max_size=count))
    source = draw(st.integers(0, w * h - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    noise = draw(st.sampled_from([0.0, 0.1, 0.3, 1.0]))
    return edges_board(w, h, edges, source, seed, noise)


@st.composite
def tree_boards(draw: st.DrawFn, max_side: int = 9, shuffle: bool = True) -> Board:
    """Random spanning-tree boards (the real use), shuffled or solved."""
    w = draw(st.integers(3, max_side))
    h = draw(st.integers(3, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_tree_board(w, h, seed, shuffle)


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
