"""Random pipes boards for property tests: spanning trees (the real use) and loopy edge subsets."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from controller.puzzle.model import Board, Direction, bit, opposite, shape_of_mask

__all__ = ["board_from_masks", "edges_board", "loopy_boards", "random_tree_board", "tree_boards"]


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
