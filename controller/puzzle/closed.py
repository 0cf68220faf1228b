"""Dry loops and closed islands: the dry tiles a room shows as closed (docs/puzzle.md, "Loops
and closed islands").

Take the dry tiles (those the water does not reach) and join two of them when their arms face
each other. In a component of that graph:

- a tile is on a **dry loop** when one of its joins lies on a cycle (is not a bridge), exactly as
  a wet tile is on a ring (``flow._mark_rings``, Tarjan's bridges as in Net's ``findloop.c``);
- the component is a **closed island** when no arm of any of its tiles is loose (every arm faces
  a matching arm, which then belongs to the same component): no water can ever enter it without
  turning one of its pieces.

A tile is *closed* when it is on a dry loop or in a closed island; a dry tile with a loose end
and on no loop is not. Wet tiles are never closed (their rings are the flow's), nor are holes
(no arms, no piece). Boards with crosses are handled by ``controller.puzzle.crossing``.

``closed_tiles`` computes the set for a board from scratch. ``ClosedTracker`` keeps it up to date
click by click for ``controller.puzzle.play``: a click changes the joins of the turned tile only,
so only the components that hold the turned tile or one of its four neighbours can change, before
or after the click (a component that gains or loses water does so through a join of the turned
tile, too). It forgets those components' closed tiles and scans the components of those five
tiles again; a scan that grows past its budget is abandoned for one whole-board pass, so a click
costs about one full recompute at most.
"""

from __future__ import annotations

from collections.abc import Sequence

from .flow import ARMS, _mark_rings, board_masks, compute_flow, neighbour_table
from .model import Board

__all__ = ["closed_tiles", "ClosedTracker"]

Adjacency = Sequence[tuple[int, int, int, int]]


class _OverBudget(Exception):
    """The incremental scans of a click outgrew their budget: scan the whole board."""


def closed_tiles(board: Board) -> frozenset[int]:
    """Flat indices of the board's tiles on dry loops or in closed islands."""
    if board.has_crosses:
        from .crossing import cross_flow

        return frozenset(v for v, c in enumerate(cross_flow(board).closed) if c)
    tracker = ClosedTracker(board.width, board.height)
    tracker.rebuild(board_masks(board), compute_flow(board).dist)
    return frozenset(v for v, c in enumerate(tracker.closed) if c)


class ClosedTracker:
    """The closed flag of every tile of a W x H board, kept up to date by ``update``.

    ``dist`` arguments are the flow's distances: -1 exactly for dry tiles. Every dry tile scanned
    carries the label of its component; ``_members`` holds, per label, the closed tiles of that
    component (components with none are not kept).
    """

    closed: list[bool]
    """Per flat index, whether the tile is on a dry loop or in a closed island."""
    visited: int
    """Tiles the scans of the last ``update`` or ``rebuild`` visited (an update that fell back
    counts its abandoned scans too; a tile on a dry loop counts twice, for the bridge pass)."""
    full: bool
    """Whether the last ``update`` fell back to one whole-board pass."""

    def __init__(self, width: int, height: int, budget: int | None = None) -> None:
        """``budget``: the tiles one update's scans may visit before they are abandoned for a
        scan of the whole board (by default the board's size)."""
        n = width * height
        self._n = n
        self._adj: Adjacency = neighbour_table(width, height)
        self._budget = n if budget is None else budget
        self.closed = [False] * n
        self._label = [0] * n
        self._stamp = 0
        self._members: dict[int, list[int]] = {}
        self._ring = [False] * n
        self._disc = [0] * n
        self._low = [0] * n
        self._clock = 0
        self.visited = 0
        self.full = False

    def rebuild(self, masks: Sequence[int], dist: Sequence[int]) -> list[int]:
        """Scan every dry tile's component from scratch; returns the tiles whose flag changed."""
        self.visited = 0
        self.full = True
        old = list(self.closed)
        self.closed[:] = [False] * self._n  # in place: views handed out stay current
        self._label = [0] * self._n
        self._members = {}
        label = self._label
        for v in range(self._n):
            if dist[v] == -1 and label[v] == 0:
                self._scan(v, masks, dist, None)
        return [v for v, a, b in zip(range(self._n), old, self.closed, strict=True) if a != b]

    def update(self, t: int, masks: Sequence[int], dist: Sequence[int]) -> list[int]:
        """After a click on tile ``t`` (``masks`` and ``dist`` already the new ones): rescan the
        components of t and its neighbours; returns the tiles whose flag changed, sorted."""
        self.visited = 0
        self.full = False
        seeds = [t, *(u for u in self._adj[t] if u >= 0)]
        closed = self.closed
        was: dict[int, bool] = {}
        for s in seeds:
            for v in self._members.pop(self._label[s], ()):
                was[v] = True
                closed[v] = False
        first = self._stamp + 1  # labels from here on belong to this update's scans
        try:
            for s in seeds:
                if dist[s] == -1 and self._label[s] < first:
                    for v in self._scan(s, masks, dist, self._budget - self.visited):
                        was.setdefault(v, False)
        except _OverBudget:
            for v, before in was.items():  # an abandoned scan flagged nothing
                closed[v] = before
            spent = self.visited
            flips = self.rebuild(masks, dist)
            self.visited += spent
            return flips
        return sorted(v for v, before in was.items() if before != closed[v])

    def _scan(
        self, root: int, masks: Sequence[int], dist: Sequence[int], cap: int | None
    ) -> list[int]:
        """Label root's dry component, flag its closed tiles and return them. With a ``cap``
        the scan raises _OverBudget once it has visited more than ``cap`` tiles."""
        self._stamp += 1
        stamp = self._stamp
        label = self._label
        adj = self._adj
        arms = ARMS
        label[root] = stamp
        if not masks[root]:
            return []  # a hole: no piece, never closed
        order = [root]
        joins = 0  # each join counted from both ends
        loose = False
        k = 0
        while k < len(order):
            if cap is not None and k > cap:
                self.visited += k
                raise _OverBudget
            v = order[k]
            k += 1
            row = adj[v]
            for d, ob in arms[masks[v]]:
                u = row[d]
                if u < 0 or not masks[u] & ob or dist[u] != -1:
                    loose = True  # the board's edge, an arm facing no arm (never a wet tile)
                    continue
                joins += 1
                if label[u] != stamp:
                    label[u] = stamp
                    order.append(u)
        self.visited += len(order)
        if not loose:
            found = order
        elif joins // 2 >= len(order):  # more joins than a tree: a dry loop
            ring = self._ring
            self._clock = _mark_rings(
                root, masks, adj, label, stamp, ring, self._disc, self._low, self._clock
            )
            self.visited += len(order)
            found = [v for v in order if ring[v]]
            for v in order:
                ring[v] = False
        else:
            return []
        closed = self.closed
        for v in found:
            closed[v] = True
        if found:
            self._members[stamp] = found
        return found
