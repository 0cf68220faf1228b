"""Water flow: which tiles the source reaches, their canonical parents, and the exact rings.

Water leaves the source and crosses every pair of arms that face each other. The wet network is
the source's component of the connection graph. For every wet tile we keep its BFS distance from
the source and a *canonical* parent: the first direction in N, E, S, W order towards a connected
neighbour one step closer to the source. BFS distances are unique, so the parents are too, which
lets an incremental update (``controller.puzzle.play``) equal a full recompute exactly.

A wet tile is on a ring when it has an incident edge that lies on a cycle of the wet graph; an
edge lies on a cycle iff it is not a bridge (iterative Tarjan bridge-finding, as in Net's
``findloop.c``). Everything here is O(number of wet tiles) and iterative (no recursion).

The ``_``-prefixed helpers are shared with ``play.py`` and work on flat integer lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .model import SHAPE_MASK, Board, TileClass, mask_of

__all__ = ["Flow", "compute_flow", "board_masks", "neighbour_table", "tile_class", "sink_reached"]

# (direction, bit of the opposite direction) for every arm of a 4-bit mask, in N, E, S, W order.
ARMS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((d, 1 << ((d + 2) & 3)) for d in range(4) if m >> d & 1) for m in range(16)
)

_DRY = int(TileClass.DRY)
_WET = int(TileClass.WET)
_RING = int(TileClass.RING)
_SOURCE = int(TileClass.SOURCE)
_SOURCE_RING = int(TileClass.SOURCE_RING)

_TABLES: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]] = {}


def neighbour_table(width: int, height: int) -> tuple[tuple[int, int, int, int], ...]:
    """Per flat index, the neighbours in N, E, S, W order (-1 outside); cached by size."""
    key = (width, height)
    table = _TABLES.get(key)
    if table is None:
        rows: list[tuple[int, int, int, int]] = []
        for j in range(height):
            for i in range(width):
                v = j * width + i
                rows.append(
                    (
                        v - width if j > 0 else -1,
                        v + 1 if i < width - 1 else -1,
                        v + width if j < height - 1 else -1,
                        v - 1 if i > 0 else -1,
                    )
                )
        table = tuple(rows)
        _TABLES[key] = table
    return table


_MASK_TABLE: tuple[int, ...] = tuple(
    mask_of(s, r) for s in range(len(SHAPE_MASK)) for r in range(4)
)


def board_masks(board: Board) -> list[int]:
    """The current arm mask of every tile, flat-indexed."""
    table = _MASK_TABLE
    return [table[(s << 2) | (r & 3)] for s, r in zip(board.shapes, board.rotations, strict=True)]


def tile_class(wet: bool, ring: bool, source: bool) -> int:
    """The TileClass value of a tile from its wet/ring/source flags."""
    if source:
        return _SOURCE_RING if ring else _SOURCE
    if not wet:
        return _DRY
    return _RING if ring else _WET


@dataclass(frozen=True, slots=True)
class Flow:
    """The water state of a whole board; every list is flat-indexed ``j * width + i``."""

    wet: list[bool]
    parent: list[int]
    ring: list[bool]
    classes: list[int]
    dist: list[int]
    wet_count: int
    solved: bool
    axes: list[int] = field(default_factory=list)
    """On a board with crosses, per tile which of a cross's axes carry water (bit 0 N-S, bit 1
    E-W; 0 for every other tile); empty on a board without crosses."""


def _bfs(
    starts: Sequence[int],
    masks: Sequence[int],
    adj: Sequence[tuple[int, int, int, int]],
    dist: list[int],
    parent: list[int],
    mark: list[int],
    stamp: int,
    limit: int = -1,
) -> tuple[list[int], int, int]:
    """BFS over tiles with ``dist == -1`` from ``starts`` (already given a distance).

    Sets dist, canonical parent and ``mark = stamp`` of every tile reached (starts included;
    the start's parent is found like any other, so it points into the already-wet region if it
    touches it). Returns (visit order, edges scanned inside the region counted from both ends,
    edges scanned to tiles outside the region). With ``limit >= 0`` it stops once more than
    ``limit`` tiles were expanded and returns outer = -1 (the arrays are then half-done).
    """
    arms = ARMS
    order = list(starts)
    inner = 0
    outer = 0
    k = 0
    cap = limit if limit >= 0 else len(dist)
    while k < len(order):
        if k > cap:
            return order, inner, -1
        v = order[k]
        k += 1
        dv = dist[v]
        row = adj[v]
        pv = -1
        for d, ob in arms[masks[v]]:
            u = row[d]
            if u < 0 or not masks[u] & ob:
                continue
            du = dist[u]
            if du == -1:
                dist[u] = dv + 1
                mark[u] = stamp
                order.append(u)
                inner += 1
            else:
                if mark[u] == stamp:
                    inner += 1
                else:
                    outer += 1
                if pv == -1 and du == dv - 1:
                    pv = d
        parent[v] = pv
    return order, inner, outer


def _mark_rings(
    root: int,
    masks: Sequence[int],
    adj: Sequence[tuple[int, int, int, int]],
    mark: Sequence[int],
    stamp: int,
    ring: list[bool],
    disc: list[int],
    low: list[int],
    clock: int,
) -> int:
    """Iterative Tarjan over the region ``mark == stamp`` reachable from root: sets ``ring`` of
    every tile with an incident non-bridge edge. ``disc``/``low`` entries above ``clock`` count
    as visited in this run; returns the new clock."""
    arms = ARMS
    base = clock
    clock += 1
    disc[root] = low[root] = clock
    stack: list[tuple[int, int, int]] = [(root, -1, 0)]
    # Frame: (tile, direction to its DFS parent, index of the next arm to look at).
    while stack:
        v, pd, i = stack[-1]
        tile_arms = arms[masks[v]]
        row = adj[v]
        n = len(tile_arms)
        descended = False
        while i < n:
            d, ob = tile_arms[i]
            i += 1
            if d == pd:
                continue
            u = row[d]
            if u < 0 or not masks[u] & ob or mark[u] != stamp:
                continue
            du = disc[u]
            if du > base:
                # A non-tree edge: always on a cycle.
                if du < low[v]:
                    low[v] = du
                ring[v] = True
                ring[u] = True
            else:
                stack[-1] = (v, pd, i)
                clock += 1
                disc[u] = low[u] = clock
                stack.append((u, (d + 2) & 3, 0))
                descended = True
                break
        if descended:
            continue
        stack.pop()
        if stack:
            p = stack[-1][0]
            lv = low[v]
            if lv < low[p]:
                low[p] = lv
            if lv <= disc[p]:
                # The tree edge p-v is not a bridge.
                ring[v] = True
                ring[p] = True
    return clock


def compute_flow(board: Board) -> Flow:
    """Recompute the whole water state of a board from its current rotations."""
    if board.has_crosses:
        return _cross_flow(board)
    n = board.width * board.height
    adj = neighbour_table(board.width, board.height)
    masks = board_masks(board)
    src = board.source_index
    dist = [-1] * n
    parent = [-1] * n
    mark = [0] * n
    dist[src] = 0
    mark[src] = 1
    order, inner, _ = _bfs((src,), masks, adj, dist, parent, mark, 1)
    ring = [False] * n
    wet_count = len(order)
    if inner // 2 >= wet_count:  # more edges than a tree: there is a cycle
        _mark_rings(src, masks, adj, mark, 1, ring, [0] * n, [0] * n, 0)
    classes = [_DRY] * n
    for v in order:
        classes[v] = _RING if ring[v] else _WET
    classes[src] = _SOURCE_RING if ring[src] else _SOURCE
    return Flow(
        wet=[x >= 0 for x in dist],
        parent=parent,
        ring=ring,
        classes=classes,
        dist=dist,
        wet_count=wet_count,
        solved=wet_count == n,
    )


def _cross_flow(board: Board) -> Flow:
    """``compute_flow`` of a board with crosses (``controller.puzzle.crossing``)."""
    from .crossing import cross_flow

    cf = cross_flow(board)
    return Flow(
        wet=[d >= 0 for d in cf.dist],
        parent=cf.parent,
        ring=cf.ring,
        classes=cf.classes,
        dist=cf.dist,
        wet_count=cf.wet_count,
        solved=cf.wet_count == board.size,
        axes=cf.axes,
    )


def sink_reached(board: Board, masks: Sequence[int] | None = None) -> bool:
    """Whether water from the source reaches the board's sink (False without a sink); ``masks``
    replace the current arm masks when given. The win condition of the sink mode."""
    if board.sink is None:
        return False
    sink = board.index(*board.sink)
    if board.has_crosses:
        from .crossing import cross_flow

        return cross_flow(board, masks).dist[sink] >= 0
    adj = neighbour_table(board.width, board.height)
    cur = board_masks(board) if masks is None else masks
    src = board.source_index
    seen = bytearray(board.width * board.height)
    seen[src] = 1
    stack = [src]
    while stack:
        v = stack.pop()
        if v == sink:
            return True
        row = adj[v]
        for d, ob in ARMS[cur[v]]:
            u = row[d]
            if u >= 0 and not seen[u] and cur[u] & ob:
                seen[u] = 1
                stack.append(u)
    return False
