"""Water on boards with crosses and holes by the definitions (docs/puzzle.md, "Crosses and
holes"), brute force: the oracle of ``controller.puzzle.crossing`` and of the hole rules.

A piece is a set of sides of one tile: a cross is two pieces ({N, S} and {E, W}), a hole none,
any other tile one (its arms). Two pieces join when their tiles are neighbours and each has the
side facing the other. Everything below is read off those joins with union-find and plain
breadth-first search, without the engine's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.puzzle.model import CROSS, HOLE, Board
from tests.support.brute_force import neighbour
from tests.support.closed_oracle import UnionFind

__all__ = ["Pieces", "pieces_of", "OracleFlow", "oracle_flow", "reached"]


@dataclass
class Pieces:
    """The pieces of a board: ``tile[p]``, ``sides[p]`` (a 4-bit mask) and the joins."""

    tile: list[int]
    sides: list[int]
    joins: list[tuple[int, int, int]]  # (piece, piece, direction from the first to the second)


def pieces_of(board: Board, masks: Sequence[int] | None = None) -> Pieces:
    """Every piece and every join of the board under ``masks`` (default: its rotations)."""
    w, h = board.width, board.height
    tile: list[int] = []
    sides: list[int] = []
    for t in range(board.size):
        if board.shapes[t] == HOLE:
            continue
        if board.shapes[t] == CROSS:
            tile += [t, t]
            sides += [0b0101, 0b1010]
        else:
            tile.append(t)
            sides.append(board.mask(t) if masks is None else masks[t])
    joins = []
    for p, (t, m) in enumerate(zip(tile, sides, strict=True)):
        for d in (1, 2):  # east and south: each join once
            u = neighbour(w, h, t, d)
            if not m >> d & 1 or u < 0:
                continue
            for q, (v, mq) in enumerate(zip(tile, sides, strict=True)):
                if v == u and mq >> (d ^ 2) & 1:
                    joins.append((p, q, d))
    return Pieces(tile, sides, joins)


@dataclass
class OracleFlow:
    """Per tile: wet, least distance, canonical parent, ring, closed; per cross its wet axes."""

    wet: list[bool]
    dist: list[int]
    parent: list[int]
    ring: list[bool]
    closed: list[bool]
    axes: list[int]


def _connected(n: int, joins: Sequence[tuple[int, int, int]], skip: int = -1) -> UnionFind:
    uf = UnionFind(n)
    for k, (a, b, _) in enumerate(joins):
        if k != skip:
            uf.union(a, b)
    return uf


def oracle_flow(board: Board) -> OracleFlow:
    """The flow by definition: pieces joined to the source's piece are wet (breadth-first
    distances); a join lies on a cycle when the other joins still connect its ends."""
    pc = pieces_of(board)
    n_p = len(pc.tile)
    n = board.size
    src = next(p for p, t in enumerate(pc.tile) if t == board.source_index)
    nbrs: list[list[tuple[int, int]]] = [[] for _ in range(n_p)]
    for a, b, d in pc.joins:
        nbrs[a].append((d, b))
        nbrs[b].append((d ^ 2, a))
    pdist = [-1] * n_p
    pdist[src] = 0
    queue = [src]
    for p in queue:
        for _, q in nbrs[p]:
            if pdist[q] < 0:
                pdist[q] = pdist[p] + 1
                queue.append(q)
    on_cycle = [False] * n_p
    for k, (a, b, _) in enumerate(pc.joins):
        if _connected(n_p, pc.joins, k).find(a) == _connected(n_p, pc.joins, k).find(b):
            on_cycle[a] = on_cycle[b] = True
    uf = _connected(n_p, pc.joins)
    loose_roots = set()
    for p in range(n_p):
        if len(nbrs[p]) < bin(pc.sides[p]).count("1"):
            loose_roots.add(uf.find(p))
    wet = [False] * n
    dist = [-1] * n
    parent = [-1] * n
    ring = [False] * n
    axes = [0] * n
    piece_closed = [False] * n_p
    for p in range(n_p):
        if pdist[p] < 0 and (uf.find(p) not in loose_roots or on_cycle[p]):
            piece_closed[p] = True
    closed = [False] * n
    for t in range(n):
        mine = [p for p in range(n_p) if pc.tile[p] == t]
        wets = [p for p in mine if pdist[p] >= 0]
        if board.shapes[t] == CROSS:
            axes[t] = sum(1 << k for k, p in enumerate(mine) if pdist[p] >= 0)
        if wets:
            wet[t] = True
            best = min(wets, key=lambda p: (pdist[p], mine.index(p)))
            dist[t] = pdist[best]
            parent[t] = next((d for d, q in sorted(nbrs[best]) if pdist[q] == pdist[best] - 1), -1)
            ring[t] = any(on_cycle[p] for p in wets)
        else:
            closed[t] = any(piece_closed[p] for p in mine)
    return OracleFlow(wet, dist, parent, ring, closed, axes)


def reached(board: Board, masks: Sequence[int]) -> bool:
    """Whether the source's piece and a piece of the sink are joined (union-find)."""
    pc = pieces_of(board, masks)
    uf = _connected(len(pc.tile), pc.joins)
    src = [p for p, t in enumerate(pc.tile) if t == board.source_index]
    sink = board.index(*board.sink)  # type: ignore[misc]
    return any(uf.find(p) == uf.find(src[0]) for p, t in enumerate(pc.tile) if t == sink)
