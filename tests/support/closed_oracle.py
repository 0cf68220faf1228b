"""Dry loops and closed islands by their definition (docs/puzzle.md, "Loops and closed
islands"), brute force: the oracle of ``controller.puzzle.closed``."""

from __future__ import annotations

from controller.puzzle.model import Board, Direction, bit

__all__ = ["oracle"]


class UnionFind:
    """Plain union-find with path halving."""

    def __init__(self, n: int) -> None:
        self.up = list(range(n))

    def find(self, v: int) -> int:
        while self.up[v] != v:
            self.up[v] = self.up[self.up[v]]
            v = self.up[v]
        return v

    def union(self, a: int, b: int) -> None:
        self.up[self.find(a)] = self.find(b)


def joins(board: Board) -> list[tuple[int, int]]:
    """Every pair of neighbours whose arms face each other, each pair once."""
    out = []
    for v in range(board.size):
        for d in (Direction.E, Direction.S):
            if board.connected(v, d):
                out.append((v, board.neighbour(v, d)))
    return out


def oracle(board: Board) -> set[int]:
    """Literally the definition: components of all joins; the source's is wet; a dry component
    with no loose arm is closed whole; a dry join is on a loop when the rest of the joins still
    connect its ends."""
    n = board.size
    edges = joins(board)
    uf = UnionFind(n)
    for a, b in edges:
        uf.union(a, b)
    wet_root = uf.find(board.source_index)
    dry = [uf.find(v) != wet_root for v in range(n)]
    loose: set[int] = set()
    for v in range(n):
        for d in Direction:
            if board.mask(v) & bit(d) and not board.connected(v, d):
                loose.add(uf.find(v))
    out = {v for v in range(n) if dry[v] and uf.find(v) not in loose}
    for k, (a, b) in enumerate(edges):
        if not dry[a]:
            continue
        rest = UnionFind(n)
        for m, (x, y) in enumerate(edges):
            if m != k:
                rest.union(x, y)
        if rest.find(a) == rest.find(b):
            out.update((a, b))
    return out
