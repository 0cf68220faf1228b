"""Shuffle a board's rotations so that the start is never solved and contains no loop.

As in Simon Tatham's Net: turn every tile at random, then re-roll tiles on loops until no loop is
left, and make sure at least one pair of arms mismatches. Loops are looked for in the whole
connection graph (wet or dry), which is stricter than "no ring": a dry loop would become a ring
as soon as the player connects it to the source.
"""

from __future__ import annotations

import random

from controller.puzzle.model import Board, mask_of

__all__ = ["MAX_ROUNDS", "loop_tiles", "matched_edges", "shuffle"]

MAX_ROUNDS = 10_000


def _find(parent: list[int], a: int) -> int:
    """Union-find root with path halving."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


def matched_edges(board: Board) -> list[tuple[int, int]]:
    """Every pair of neighbouring tiles (a, b), a < b, whose arms face each other now."""
    w, h = board.width, board.height
    masks = [mask_of(s, r) for s, r in zip(board.shapes, board.rotations, strict=True)]
    edges: list[tuple[int, int]] = []
    for j in range(h):
        row = j * w
        for i in range(w):
            a = row + i
            m = masks[a]
            if i + 1 < w and m & 2 and masks[a + 1] & 8:  # east arm meets west arm
                edges.append((a, a + 1))
            if j + 1 < h and m & 4 and masks[a + w] & 1:  # south arm meets north arm
                edges.append((a, a + w))
    return edges


def loop_tiles(board: Board, edges: list[tuple[int, int]] | None = None) -> list[int]:
    """Both ends of every connection that closes a loop (union-find order); empty when acyclic."""
    parent = list(range(board.size))
    hits: list[int] = []
    for a, b in matched_edges(board) if edges is None else edges:
        ra, rb = _find(parent, a), _find(parent, b)
        if ra == rb:
            hits.extend((a, b))
        else:
            parent[ra] = rb
    return hits


def shuffle(board: Board, rng: random.Random) -> None:
    """Randomise ``board.rotations`` in place: no loop anywhere, and not solved.

    Rotations are drawn uniformly from 0..3, which is uniform over each shape's distinct
    orientations too (a straight's r and r + 2 look the same). With no loop, the board is solved
    exactly when it has W*H - 1 connections (a forest with n - 1 edges is a spanning tree).
    """
    n = board.size
    rot = board.rotations
    for idx in range(n):
        rot[idx] = rng.randrange(4)
    for _ in range(MAX_ROUNDS):
        edges = matched_edges(board)
        hits = loop_tiles(board, edges)
        if hits:
            for idx in hits:
                rot[idx] = rng.randrange(4)
            continue
        if len(edges) == n - 1:  # solved: break one tile (any quarter turn changes its arms)
            idx = rng.randrange(n)
            rot[idx] = (rot[idx] + 1) & 3
            continue
        return
    raise RuntimeError(f"shuffle: no loop-free unsolved start after {MAX_ROUNDS} rounds")
