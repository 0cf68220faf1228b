"""Play state: the water flow kept up to date click by click, recomputing only what a move touches.

Like the seed's partial inspection, a click dries the turned tile's old connections and waters it
again if it touches the wet network. The seed's inspection is exact wherever it does not fall back
to its full walk (a line-by-line replay of it found no case where it differs); what this module
adds is a fallback bounded to the wet component and a list of only the tiles whose class changed,
so the room writes just those. After every click the state equals a full ``compute_flow``
(canonical BFS parents, bridge-exact rings).

Only the turned tile's four edges can change. With ``W`` the wet network (the source's component):

- the turned tile is dry and gains exactly one wet neighbour: BFS only its newly wet part ``D``
  (it hangs on one bridge, so nothing else moves); bridges inside ``D`` only if ``D`` has a cycle;
- the turned tile is wet and off every ring: all its edges are bridges, so a removed edge dries
  exactly the cut-off side (a BFS of that side only), and a new edge to a dry tile waters that
  tile's dry component as above;
- anything that may create or break a cycle (a new edge between two wet tiles, a move that joins
  two or more wet neighbours, removing an edge of a ring tile) or turns the source re-runs BFS and
  bridge-finding over the wet component only (old and new), never over the dry rest of the board.

``Change`` lists exactly what the room runtime writes back to the world, the tiles on dry loops
and in closed islands included (``controller.puzzle.closed``: its ``ClosedTracker`` rescans only
the components around the turned tile, within the same budget).

The incremental work is bounded: a click never does more than a share (``FALLBACK_SHARE``) of
the board's tiles in incremental passes. A recompute of a wet component larger than that, or a
cut or BFS that grows past it, is abandoned for one whole-board pass as ``compute_flow`` does it
(BFS, bridges, a flat comparison of every class and parent), so a click costs about a full
recompute at most (``bench/puzzle_flow.py``, the source-tile click on a solved board).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .closed import ClosedTracker
from .flow import (
    ARMS,
    Flow,
    _bfs,
    _mark_rings,
    board_masks,
    neighbour_table,
)
from .model import Board, Direction, TileClass, mask_of

__all__ = ["TileChange", "EdgeChange", "Change", "PlayState", "FALLBACK_SHARE", "MIN_BUDGET"]

FALLBACK_SHARE = 0.125
"""Incremental passes may visit at most this share of the board per click, else one full pass."""
MIN_BUDGET = 256
"""The least budget: a board of at most this many tiles never falls back, and the share only
takes over above MIN_BUDGET / FALLBACK_SHARE tiles (2048, about 45x45)."""

_DRY = int(TileClass.DRY)
_WET = int(TileClass.WET)
_RING = int(TileClass.RING)
_SOURCE = int(TileClass.SOURCE)
_SOURCE_RING = int(TileClass.SOURCE_RING)


class _OverBudget(Exception):
    """The incremental passes of a click outgrew their budget: recompute the whole board."""


class TileChange(NamedTuple):
    """A tile whose class, parent direction, rotation or closed flag (on a dry loop or in a
    closed island) changed; carries the new values (a named tuple: a click that changes much of
    a large board creates thousands of them). ``index`` is the tile's index and hides
    ``tuple.index``."""

    index: int  # type: ignore[assignment]
    cls: int
    parent: int
    rotation: int
    closed: bool = False
    axes: int = 0
    """On a cross: which axes carry water (bit 0 N-S, bit 1 E-W); 0 on any other tile."""


@dataclass(frozen=True, slots=True)
class EdgeChange:
    """An east (E) or south (S) edge of tile ``index`` whose connectedness changed."""

    index: int
    direction: int
    connected: bool


@dataclass(frozen=True, slots=True)
class Change:
    """What one click changed: tiles sorted by index, edges sorted by (index, direction)."""

    tiles: list[TileChange]
    edges: list[EdgeChange]
    solved: bool
    wet_count: int


_E = int(Direction.E)
_S = int(Direction.S)


class PlayState:
    """A board and its water state, updated incrementally by ``apply_rotation``.

    The state owns ``board``: ``apply_rotation`` writes ``board.rotations``. Working arrays are
    flat lists; a dry tile always has distance -1, parent -1 and no ring.
    """

    board: Board
    visited: int
    """Tile visits made by the passes (BFS, cut, bridge-finding) of the last click."""
    recomputed: bool
    """Whether the last click re-ran BFS and bridges over the whole wet component."""
    full: bool
    """Whether the last click fell back to one whole-board pass (the incremental work would
    have been larger than ``FALLBACK_SHARE`` of the board)."""

    def __init__(self, board: Board, budget: int | None = None) -> None:
        """``budget``: the tiles the incremental passes of one click may visit before it falls
        back to one whole-board pass; by default ``FALLBACK_SHARE`` of the board, at least
        ``MIN_BUDGET`` (a small board is cheap either way)."""
        self._fixed_budget = budget
        self.reset(board)

    def reset(self, board: Board) -> None:
        """Take over a (new) board and compute its water state from scratch."""
        self.board = board
        n = board.width * board.height
        self._n = n
        budget = self._fixed_budget
        self._budget = max(MIN_BUDGET, int(n * FALLBACK_SHARE)) if budget is None else budget
        self._adj = neighbour_table(board.width, board.height)
        self._masks = board_masks(board)
        self._src = board.source_index
        self._dist = [-1] * n
        self._par = [-1] * n
        self._ring = [False] * n
        self._mark = [0] * n
        self._stamp = 0
        self._disc = [0] * n
        self._low = [0] * n
        self._clock = 0
        self._wet: set[int] = set()
        self._classes = [int(TileClass.DRY)] * n
        self._parents = [-1] * n
        self.visited = 0
        self._rebuild()
        self.recomputed = False
        self.full = False
        self._classes[:] = self._all_classes()
        self._parents[:] = self._par
        self.closed_tracker = ClosedTracker(board.width, board.height, self._budget)
        self._crosses = board.has_crosses
        self._axes: list[int] = []
        if self._crosses:
            self._cross_pass()
            self._classes[:] = self._all_classes()
            self._parents[:] = self._par
        else:
            self.closed_tracker.rebuild(self._masks, self._dist)

    # ------------------------------------------------------------------ views

    @property
    def classes(self) -> Sequence[int]:
        """The TileClass value of every tile (read-only view)."""
        return self._classes

    @property
    def parents(self) -> Sequence[int]:
        """The parent direction of every tile, -1 for dry tiles and the source (read-only)."""
        return self._parents

    @property
    def closed(self) -> Sequence[bool]:
        """Per tile, whether it is on a dry loop or in a closed island (read-only view; equal
        to ``closed.closed_tiles(board)``)."""
        return self.closed_tracker.closed

    @property
    def wet_count(self) -> int:
        """How many tiles the water reaches."""
        return len(self._wet)

    @property
    def solved(self) -> bool:
        """Whether every tile is wet."""
        return len(self._wet) == self._n

    @property
    def flow(self) -> Flow:
        """A snapshot of the current state, equal to ``compute_flow(board)``."""
        return Flow(
            wet=[d >= 0 for d in self._dist],
            parent=list(self._par),
            ring=list(self._ring),
            classes=list(self._classes),
            dist=list(self._dist),
            wet_count=len(self._wet),
            solved=len(self._wet) == self._n,
            axes=list(self._axes),
        )

    @property
    def axes(self) -> Sequence[int]:
        """Per tile, which axes of a cross carry water (empty without crosses; read-only)."""
        return self._axes

    # ------------------------------------------------------------------ the click

    def apply_rotation(self, idx: int, new_rotation: int) -> Change:
        """Turn tile ``idx`` to ``new_rotation`` (0..7, taken mod 4) and update the water."""
        board = self.board
        if not 0 <= idx < self._n:
            raise ValueError(f"tile index {idx} is outside the board")
        if not 0 <= new_rotation < 8:
            raise ValueError(f"rotation must be 0..7, got {new_rotation}")
        new_rotation &= 3
        old_rotation = board.rotations[idx]
        masks = self._masks
        adj = self._adj
        dist = self._dist
        row = adj[idx]
        mo = masks[idx]
        mn = mask_of(board.shapes[idx], new_rotation)
        board.rotations[idx] = new_rotation
        masks[idx] = mn
        self.visited = 0
        self.recomputed = False
        self.full = False

        # Which of the four edges change.
        removed: list[int] = []
        added: list[int] = []
        edges: list[EdgeChange] = []
        if mo != mn:
            for d in range(4):
                u = row[d]
                if u < 0 or not masks[u] >> ((d + 2) & 3) & 1:
                    continue
                was = mo >> d & 1
                now = mn >> d & 1
                if was == now:
                    continue
                if was:
                    removed.append(d)
                else:
                    added.append(d)
                if d == _E or d == _S:
                    edges.append(EdgeChange(idx, d, bool(now)))
                else:
                    edges.append(EdgeChange(u, (d + 2) & 3, bool(now)))
            edges.sort(key=lambda e: (e.index, e.direction))

        if self._crosses:
            return self._cross_click(idx, old_rotation != new_rotation, edges)
        touched: list[int] = []
        if removed or added:
            try:
                if idx == self._src:
                    touched.extend(self._recompute())
                elif dist[idx] == -1:
                    self._water_dry(idx, touched)
                elif removed and self._ring[idx]:
                    touched.extend(self._recompute())
                else:
                    self._turn_wet_tree_tile(idx, mo, removed, added, touched)
            except _OverBudget:
                self._rebuild()
                flips = self.closed_tracker.update(idx, masks, self._dist)
                return self._finish_full(idx, old_rotation != new_rotation, edges, flips)
            flips = self.closed_tracker.update(idx, masks, self._dist)
        else:
            flips = []
        return self._finish(idx, old_rotation != new_rotation, touched, edges, flips)

    # ------------------------------------------------------------------ cases

    def _water_dry(self, t: int, touched: list[int]) -> None:
        """Dry tile t (its old edges only reached dry tiles): water it if it now touches W."""
        dist = self._dist
        masks = self._masks
        row = self._adj[t]
        entry = -1
        count = 0
        for d, ob in ARMS[masks[t]]:
            u = row[d]
            if u >= 0 and masks[u] & ob and dist[u] != -1:
                count += 1
                entry = u
        if count == 0:
            return
        if count == 1 and self._attach(t, dist[entry] + 1, touched):
            return
        touched.extend(self._recompute())

    def _turn_wet_tree_tile(
        self, t: int, mo: int, removed: list[int], added: list[int], touched: list[int]
    ) -> None:
        """Wet tile t off every ring (or with no edge removed): cut bridges, then attach."""
        dist = self._dist
        masks = self._masks
        row = self._adj[t]
        touched.append(t)
        if removed:
            # Every edge of t is a bridge: removing one dries exactly its far side.
            pd = self._par[t]
            if pd in removed:
                children = []
                for d, ob in ARMS[mo]:
                    u = row[d]
                    if d != pd and u >= 0 and masks[u] & ob and dist[u] != -1:
                        children.append(u)
                self._dry_tile(t)
                self._cut(children, t, touched)
                self._water_dry(t, touched)
                return
            self._cut([row[d] for d in removed], t, touched)
        # t is still wet: a new edge to a wet tile closes a cycle; one to a dry tile hangs
        # that tile's dry component on t (unless it reaches t twice).
        for d in added:
            if dist[row[d]] != -1:
                touched.extend(self._recompute())
                return
        for d in added:
            u = row[d]
            if dist[u] != -1 or not self._attach(u, dist[t] + 1, touched):
                touched.extend(self._recompute())
                return

    # ------------------------------------------------------------------ passes

    def _dry_tile(self, v: int) -> None:
        """Mark one tile dry in the working arrays."""
        self._dist[v] = -1
        self._par[v] = -1
        self._ring[v] = False
        self._wet.discard(v)

    def _cut(self, starts: list[int], block: int, touched: list[int]) -> None:
        """Dry the wet tiles reachable from starts without entering ``block``."""
        dist = self._dist
        par = self._par
        ring = self._ring
        wet = self._wet
        masks = self._masks
        adj = self._adj
        arms = ARMS
        cap = self._budget - self.visited
        order = []
        for v in starts:
            if dist[v] != -1:
                dist[v] = -1
                order.append(v)
        k = 0
        while k < len(order):
            v = order[k]
            k += 1
            par[v] = -1
            ring[v] = False
            wet.discard(v)
            r = adj[v]
            for d, ob in arms[masks[v]]:
                u = r[d]
                if u >= 0 and u != block and masks[u] & ob and dist[u] != -1:
                    dist[u] = -1
                    order.append(u)
            if k > cap:
                raise _OverBudget
        self.visited += len(order)
        touched.extend(order)

    def _attach(self, root: int, root_dist: int, touched: list[int]) -> bool:
        """Water root's dry component D, hung on the wet network by the edge that reaches root.

        Returns False (leaving D wet but possibly wrong) when D touches the wet network by more
        than one edge; the caller then recomputes the component. With pieces of at most three
        arms this cannot happen (a turn that adds two edges replaces every arm, so the tile is
        re-watered as the root of D); the check keeps the update exact regardless.
        """
        self._stamp += 1
        stamp = self._stamp
        dist = self._dist
        dist[root] = root_dist
        self._mark[root] = stamp
        order, inner, outer = _bfs(
            (root,),
            self._masks,
            self._adj,
            dist,
            self._par,
            self._mark,
            stamp,
            self._budget - self.visited,
        )
        if outer < 0:
            raise _OverBudget
        self._wet.update(order)
        touched.extend(order)
        self.visited += len(order)
        if outer != 1:
            return False
        if inner // 2 >= len(order):
            self._clock = _mark_rings(
                root,
                self._masks,
                self._adj,
                self._mark,
                stamp,
                self._ring,
                self._disc,
                self._low,
                self._clock,
            )
            self.visited += len(order)
        return True

    def _recompute(self) -> list[int]:
        """BFS and bridges over the source's component; dry what left it. Returns old + new.

        Raises _OverBudget, before changing anything when the old component alone is over the
        click's budget, or during the BFS when the new one grows past it."""
        self.recomputed = True
        room = self._budget - self.visited - len(self._wet)
        if room < 0:
            raise _OverBudget
        dist = self._dist
        par = self._par
        ring = self._ring
        old = list(self._wet)
        for v in old:
            dist[v] = -1
            par[v] = -1
            ring[v] = False
        self._stamp += 1
        stamp = self._stamp
        src = self._src
        dist[src] = 0
        self._mark[src] = stamp
        order, inner, outer = _bfs(
            (src,), self._masks, self._adj, dist, par, self._mark, stamp, room
        )
        if outer < 0:
            raise _OverBudget
        self.visited += len(old) + len(order)
        if inner // 2 >= len(order):
            self._clock = _mark_rings(
                src,
                self._masks,
                self._adj,
                self._mark,
                stamp,
                ring,
                self._disc,
                self._low,
                self._clock,
            )
            self.visited += len(order)
        self._wet = set(order)
        old.extend(order)
        return old

    def _rebuild(self) -> None:
        """The whole-board pass, as ``compute_flow``: fresh distances and parents, BFS from the
        source, bridges; the working arrays are replaced (the published views are not)."""
        self.recomputed = True
        self.full = True
        n = self._n
        dist = [-1] * n
        par = [-1] * n
        self._stamp += 1
        stamp = self._stamp
        src = self._src
        dist[src] = 0
        self._mark[src] = stamp
        order, inner, _ = _bfs((src,), self._masks, self._adj, dist, par, self._mark, stamp)
        ring = [False] * n
        self.visited += len(order)
        if inner // 2 >= len(order):
            self._clock = _mark_rings(
                src, self._masks, self._adj, self._mark, stamp, ring, self._disc, self._low,
                self._clock,
            )  # fmt: skip
            self.visited += len(order)
        self._dist = dist
        self._par = par
        self._ring = ring
        self._wet = set(order)

    def _cross_pass(self) -> None:
        """The whole water state of a board with crosses (``controller.puzzle.crossing``) into
        the working arrays, the closed flags included."""
        from .crossing import CrossFlow

        cf = CrossFlow(self.board, self._masks)
        self._dist, self._par, self._ring = cf.dist, cf.parent, cf.ring
        self._wet = {v for v, d in enumerate(cf.dist) if d >= 0}
        self._axes = cf.axes
        self.closed_tracker.closed[:] = cf.closed
        self.visited += self._n
        self.recomputed = True
        self.full = True

    def _cross_click(self, t: int, rotated: bool, edges: list[EdgeChange]) -> Change:
        """A click on a board with crosses: one whole-board pass, then every tile whose class,
        parent, closed flag or wet axes changed (and the turned tile)."""
        old_closed = list(self.closed_tracker.closed)
        old_axes = self._axes
        self._cross_pass()
        new = self._all_classes()
        par, axes, closed = self._par, self._axes, self.closed_tracker.closed
        classes, parents = self._classes, self._parents
        rotations = self.board.rotations
        tiles = [
            TileChange(v, new[v], par[v], rotations[v], closed[v], axes[v])
            for v in range(self._n)
            if new[v] != classes[v]
            or par[v] != parents[v]
            or closed[v] != old_closed[v]
            or axes[v] != old_axes[v]
            or (rotated and v == t)
        ]
        classes[:] = new
        parents[:] = par
        n_wet = len(self._wet)
        return Change(tiles, edges, n_wet == self._n, n_wet)

    def _all_classes(self) -> list[int]:
        """The class of every tile from the working arrays."""
        ring = self._ring
        classes = [_DRY] * self._n
        for v in self._wet:
            classes[v] = _RING if ring[v] else _WET
        src = self._src
        classes[src] = _SOURCE_RING if ring[src] else _SOURCE
        return classes

    def _finish(
        self,
        t: int,
        rotated: bool,
        touched: list[int],
        edges: list[EdgeChange],
        flips: list[int],
    ) -> Change:
        """Publish the new classes and parents of the touched tiles and build the Change (with
        the tiles whose closed flag flipped)."""
        classes = self._classes
        parents = self._parents
        par = self._par
        dist = self._dist
        ring = self._ring
        src = self._src
        rotations = self.board.rotations
        tiles: list[TileChange] = []
        make = tuple.__new__  # TileChange(...) without its Python-level __new__
        closed = self.closed_tracker.closed
        candidates = set(touched)
        candidates.update(flips)
        if rotated:
            candidates.add(t)
        flipped = set(flips)
        for v in sorted(candidates):
            if v == src:
                c = _SOURCE_RING if ring[v] else _SOURCE
            elif dist[v] < 0:
                c = _DRY
            else:
                c = _RING if ring[v] else _WET
            p = par[v]
            if c != classes[v] or p != parents[v] or (rotated and v == t) or v in flipped:
                classes[v] = c
                parents[v] = p
                tiles.append(make(TileChange, (v, c, p, rotations[v], closed[v], 0)))
        n_wet = len(self._wet)
        return Change(tiles, edges, n_wet == self._n, n_wet)

    def _finish_full(
        self, t: int, rotated: bool, edges: list[EdgeChange], flips: list[int]
    ) -> Change:
        """Publish a whole-board pass: compare every class and parent at once (in place, so
        views handed out stay current) and build the Change (with the closed flips)."""
        new = self._all_classes()
        par = self._par
        classes = self._classes
        parents = self._parents
        changed = [
            v
            for v, a, b, c, d in zip(range(self._n), new, classes, par, parents, strict=True)
            if a != b or c != d
        ]
        extra = set(flips)
        if rotated:
            extra.add(t)
        extra.difference_update(changed)
        if extra:
            changed.extend(extra)
            changed.sort()
        classes[:] = new
        parents[:] = par
        rotations = self.board.rotations
        make = tuple.__new__  # TileChange(...) without its Python-level __new__
        closed = self.closed_tracker.closed
        tiles = [make(TileChange, (v, new[v], par[v], rotations[v], closed[v], 0)) for v in changed]
        n_wet = len(self._wet)
        return Change(tiles, edges, n_wet == self._n, n_wet)
