"""A brute-force solution counter for pipes boards, and the Net-style tree boards it is run on."""

from __future__ import annotations

import random

from controller.puzzle.model import Board, mask_of, shape_of_mask

__all__ = [
    "board_of_arms",
    "brute_force_solutions",
    "neighbour",
    "random_tree_arms",
    "random_tree_board",
]


def neighbour(w: int, h: int, t: int, d: int) -> int:
    """The neighbour of flat tile t in direction d, or -1."""
    i, j = t % w, t // w
    di, dj = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
    ni, nj = i + di, j + dj
    return nj * w + ni if 0 <= ni < w and 0 <= nj < h else -1


def random_tree_arms(w: int, h: int, rng: random.Random) -> list[int]:
    """A spanning tree by Net's rule: random frontier edges from the centre, never a 4th arm."""
    n = w * h
    arms = [0] * n
    start = (h // 2) * w + w // 2
    in_tree = bytearray(n)
    in_tree[start] = 1
    frontier = [(start, d) for d in range(4) if neighbour(w, h, start, d) >= 0]
    added = 1
    while frontier:
        k = rng.randrange(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        t, d = frontier.pop()
        u = neighbour(w, h, t, d)
        if in_tree[u] or bin(arms[t]).count("1") >= 3:
            continue
        arms[t] |= 1 << d
        arms[u] |= 1 << ((d + 2) % 4)
        in_tree[u] = 1
        added += 1
        for e in range(4):
            v = neighbour(w, h, u, e)
            if v >= 0 and not in_tree[v]:
                frontier.append((u, e))
    assert added == n
    return arms


def board_of_arms(w: int, h: int, arms: list[int], rng: random.Random) -> Board:
    """A board whose solution is the given tree, with random current rotations."""
    shapes, sol = zip(*(shape_of_mask(m) for m in arms), strict=True)
    rots = [rng.randrange(4) for _ in arms]
    return Board(w, h, (w // 2, h // 2), list(shapes), rots, list(sol))


def random_tree_board(w: int, h: int, seed: int) -> Board:
    """A random Net-style tree board (not necessarily unique) with shuffled rotations."""
    rng = random.Random(seed)
    return board_of_arms(w, h, random_tree_arms(w, h, rng), rng)


def brute_force_solutions(board: Board) -> list[tuple[int, ...]]:
    """Every solution's arm masks, by raster-order enumeration with edge-matching pruning."""
    w, h, n = board.width, board.height, board.size
    options = [sorted({mask_of(s, r) for r in range(4)}) for s in board.shapes]
    masks = [0] * n
    out: list[tuple[int, ...]] = []

    def connected_tree() -> bool:
        if sum(bin(m).count("1") for m in masks) != 2 * (n - 1):
            return False  # n - 1 edges and connected <=> a spanning tree
        seen = {0}
        stack = [0]
        while stack:
            t = stack.pop()
            for d in range(4):
                if masks[t] >> d & 1:
                    u = neighbour(w, h, t, d)
                    if u not in seen:
                        seen.add(u)
                        stack.append(u)
        return len(seen) == n

    def place(t: int) -> None:
        if t == n:
            if connected_tree():
                out.append(tuple(masks))
            return
        i, j = t % w, t // w
        for m in options[t]:
            if (m & 1) != ((masks[t - w] >> 2 & 1) if j > 0 else 0):
                continue
            if (m >> 3 & 1) != ((masks[t - 1] >> 1 & 1) if i > 0 else 0):
                continue
            if i == w - 1 and m & 2 or j == h - 1 and m & 4:
                continue
            masks[t] = m
            place(t + 1)

    place(0)
    return out
