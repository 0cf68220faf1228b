"""Water on boards with crosses (sink mode): a cross passes water straight through, N-S and E-W
apart (docs/puzzle.md, "Crosses and holes").

A board is seen as *pieces*: every tile is one piece with its arms, except a cross, which is two
pieces, the vertical one (arms N, S; piece ``2 t``) and the horizontal one (arms E, W; piece
``2 t + 1``). Two pieces join when their tiles are neighbours and their arms face each other.
Everything the tile flow computes is computed on pieces and then read per tile:

- a tile is wet when one of its pieces is; ``axes`` says which of a cross's pieces are (bit 0
  vertical, bit 1 horizontal); its distance is the least of its wet pieces', its parent that
  piece's canonical parent (the first direction in N, E, S, W order towards a joined piece one
  step closer to the source; the vertical piece first on a tie);
- a tile is on a ring when one of its pieces has a join that is not a bridge of the wet graph;
- a tile is closed when it is dry and one of its pieces is closed: the rule of
  ``controller.puzzle.closed`` on the dry pieces (a dry loop, or a group with no loose arm; a
  hole has no piece and is never closed).

A whole board costs O(tiles); ``controller.puzzle.play`` recomputes it on every click of a board
with crosses (they are rare, and the source-to-sink boards they appear on are small).
"""

from __future__ import annotations

from collections.abc import Sequence

from .deduce import neighbour_table
from .model import CROSS, Board, TileClass

__all__ = ["CrossFlow", "cross_flow", "piece_arms"]

_VERTICAL = 0b0101
_HORIZONTAL = 0b1010
_DRY = int(TileClass.DRY)
_WET = int(TileClass.WET)
_RING = int(TileClass.RING)
_SOURCE = int(TileClass.SOURCE)
_SOURCE_RING = int(TileClass.SOURCE_RING)


def piece_arms(shapes: Sequence[int], masks: Sequence[int]) -> list[int]:
    """Arms of piece ``2 t + k``: a cross's vertical and horizontal piece; any other tile's
    mask as piece ``2 t`` and nothing as ``2 t + 1``."""
    out = [0] * (2 * len(masks))
    for t, (s, m) in enumerate(zip(shapes, masks, strict=True)):
        if s == CROSS:
            out[2 * t] = _VERTICAL
            out[2 * t + 1] = _HORIZONTAL
        else:
            out[2 * t] = m
    return out


class CrossFlow:
    """The water state of a board with crosses, per tile (as ``flow.Flow``) and per piece."""

    __slots__ = ("dist", "parent", "ring", "classes", "axes", "closed", "wet_count", "piece_dist")

    def __init__(self, board: Board, masks: Sequence[int]) -> None:
        n = board.size
        adj = neighbour_table(board.width, board.height)
        arms = piece_arms(board.shapes, masks)
        cross = [s == CROSS for s in board.shapes]

        def other(t: int, d: int) -> int:
            """The piece of t's neighbour in direction d joined to t's arm d, or -1."""
            u = adj[4 * t + d]
            if u < 0:
                return -1
            p = 2 * u + (d & 1 if cross[u] else 0)
            return p if arms[p] >> ((d + 2) & 3) & 1 else -1

        joins: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]  # (direction, piece)
        for p in range(2 * n):
            for d in range(4):
                if arms[p] >> d & 1:
                    q = other(p >> 1, d)
                    if q >= 0:
                        joins[p].append((d, q))
        src = 2 * board.source_index
        pdist = [-1] * (2 * n)
        pdist[src] = 0
        order = [src]
        for p in order:
            for _, q in joins[p]:
                if pdist[q] < 0:
                    pdist[q] = pdist[p] + 1
                    order.append(q)
        ppar = [-1] * (2 * n)
        for p in order:
            for d, q in joins[p]:
                if pdist[q] == pdist[p] - 1:
                    ppar[p] = d
                    break
        pring = _non_bridge(order, joins)
        self.piece_dist = pdist
        self.dist = [-1] * n
        self.parent = [-1] * n
        self.ring = [False] * n
        self.axes = [0] * n
        self.classes = [_DRY] * n
        for t in range(n):
            best = -1
            for k in (0, 1):
                d = pdist[2 * t + k]
                if d >= 0:
                    if cross[t]:
                        self.axes[t] |= 1 << k
                    if best < 0 or d < self.dist[t]:
                        best, self.dist[t], self.parent[t] = k, d, ppar[2 * t + k]
                    if pring[2 * t + k]:
                        self.ring[t] = True
            if best >= 0:
                self.classes[t] = _RING if self.ring[t] else _WET
        s = board.source_index
        self.classes[s] = _SOURCE_RING if self.ring[s] else _SOURCE
        self.wet_count = sum(1 for d in self.dist if d >= 0)
        self.closed = _closed(n, arms, joins, pdist)


def _non_bridge(nodes: Sequence[int], joins: Sequence[Sequence[tuple[int, int]]]) -> list[bool]:
    """Per piece, whether one of its joins to another of ``nodes`` lies on a cycle of those
    joins (is not a bridge): iterative Tarjan."""
    size = len(joins)
    on = [False] * size
    disc = [0] * size
    low = [0] * size
    inside = bytearray(size)
    for p in nodes:
        inside[p] = 1
    clock = 0
    for root in nodes:
        if disc[root]:
            continue
        clock += 1
        disc[root] = low[root] = clock
        stack: list[tuple[int, int, int]] = [(root, -1, 0)]  # (piece, parent piece, next join)
        while stack:
            v, pv, i = stack[-1]
            row = joins[v]
            if i < len(row):
                stack[-1] = (v, pv, i + 1)
                u = row[i][1]
                if not inside[u] or u == pv:
                    continue
                if disc[u]:
                    low[v] = min(low[v], disc[u])
                    on[v] = on[u] = True
                else:
                    clock += 1
                    disc[u] = low[u] = clock
                    stack.append((u, v, 0))
                continue
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[v])
                if low[v] <= disc[p]:
                    on[v] = on[p] = True
    return on


def _closed(
    n: int, arms: Sequence[int], joins: Sequence[Sequence[tuple[int, int]]], pdist: Sequence[int]
) -> list[bool]:
    """Per tile, whether it is dry and one of its pieces is on a dry loop or in a closed
    island (a group of dry pieces with no loose arm)."""
    seen = bytearray(2 * n)
    closed_piece = [False] * (2 * n)
    for root in range(2 * n):
        if seen[root] or pdist[root] >= 0 or not arms[root]:
            continue
        seen[root] = 1
        group = [root]
        loose = False
        for p in group:
            if len(joins[p]) < bin(arms[p]).count("1"):
                loose = True
            for _, q in joins[p]:
                if not seen[q]:
                    seen[q] = 1
                    group.append(q)
        if not loose:
            for p in group:
                closed_piece[p] = True
        else:
            on = _non_bridge(group, joins)
            for p in group:
                if on[p]:
                    closed_piece[p] = True
    return [
        pdist[2 * t] < 0
        and pdist[2 * t + 1] < 0
        and (closed_piece[2 * t] or closed_piece[2 * t + 1])
        for t in range(n)
    ]


def cross_flow(board: Board, masks: Sequence[int] | None = None) -> CrossFlow:
    """The water state of a board (with or without crosses) by pieces; ``masks`` replace the
    current arm masks when given."""
    from .flow import board_masks

    return CrossFlow(board, board_masks(board) if masks is None else masks)
