"""The puzzle solver: solution counting, solving, hints, par and difficulty.

A *solution* gives every tile a rotation such that every arm faces a matching arm of its
neighbour (no arm leaves the board or faces a non-arm) and the connection graph is one tree over
all tiles (connected and acyclic). Solutions are compared by arm masks, so the two rotations of a
straight that give the same arms are the same solution.

The solver works on arm masks only (it ignores the current rotations):

* every tile keeps the set of arm masks it may still take, as a 16-bit set (bit ``m`` = mask
  ``m`` possible); every edge is unknown, open or closed (``dec`` / ``opn`` bit masks per tile,
  kept equal on both sides). Fixing an edge filters the neighbour's set and re-queues it.
* **loop avoidance:** a union-find over tiles joined by open edges; a mask that opens an edge
  into the tile's own class, or two edges into the same class, is removed.
* **island avoidance:** every class counts its arms not yet joined (``ex``: open ends); a class
  smaller than the board with no open end is a contradiction, and a mask is removed when the
  classes it would join would be left with no open end (this also forbids end-to-end links).
* when the work queue is empty, a sweep re-checks every undetermined tile (the global rules
  depend on classes that changed elsewhere), until a sweep changes nothing.
* then a depth-first search on the most constrained tile (cloning the flat state) finds a
  second solution or proves there is none.

Deduction alone is sound, so a board it solves completely has exactly one solution.
:func:`make_unique` repairs a tree until that happens (Net's perturbation: in every region that
deduction leaves undecided, add a link that gives no tile a 4th arm and cut the loop it closes at
a random edge near the region). After a repair only the repaired neighbourhood is re-solved, with
the rest of the board fixed to the tree; when that succeeds, a from-scratch deduction over the
whole board is the proof, and any region it leaves undecided is repaired in turn. Every
``_SEARCH_EVERY`` rounds a search checks whether the rest is really ambiguous (then it repairs
where two solutions differ) or unique though beyond deduction (then it stops).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence

from .model import SHAPE_MASK, Board, mask_of, rotate_mask

__all__ = [
    "count_solutions",
    "deduced",
    "solve",
    "solution_masks",
    "ambiguous_tiles",
    "make_unique",
    "hint",
    "par",
    "difficulty",
    "is_solution",
]

# ---------------------------------------------------------------------------------------------
# Tables. A "set" is a 16-bit int whose bit m says arm mask m is still possible.

_DIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(d for d in range(4) if m >> d & 1) for m in range(16)
)
_ARMS: tuple[int, ...] = tuple(bin(m).count("1") for m in range(16))
# _WITH[d]: the set of masks having an arm in direction d.
_WITH: tuple[int, ...] = tuple(sum(1 << m for m in range(16) if m >> d & 1) for d in range(4))
_SET_SIZE = 1 << 16
_POP: list[int] = [0] * _SET_SIZE  # number of masks in a set
_INTER: list[int] = [0] * _SET_SIZE  # arms every mask of the set has
_UNION: list[int] = [0] * _SET_SIZE  # arms some mask of the set has
_MASKS: list[tuple[int, ...]] = [()] * _SET_SIZE  # the masks of a set


def _fill_tables() -> None:
    """Fill the set tables for every subset of a shape's masks (the only sets that occur)."""
    for base in SHAPE_MASK:
        full = 0
        for r in range(4):
            full |= 1 << rotate_mask(base, r)
        sub = full
        while True:
            masks = tuple(m for m in range(16) if sub >> m & 1)
            inter, union = 15, 0
            for m in masks:
                inter &= m
                union |= m
            _POP[sub] = len(masks)
            _INTER[sub] = inter if masks else 0
            _UNION[sub] = union
            _MASKS[sub] = masks
            if sub == 0:
                break
            sub = (sub - 1) & full


_fill_tables()

_NB_CACHE: dict[tuple[int, int], list[int]] = {}


def _neighbours(w: int, h: int) -> list[int]:
    """Flat neighbour table: entry ``4 * t + d`` is the neighbour of t in direction d, or -1."""
    key = (w, h)
    nb = _NB_CACHE.get(key)
    if nb is None:
        nb = [-1] * (4 * w * h)
        for j in range(h):
            for i in range(w):
                t = j * w + i
                if j > 0:
                    nb[4 * t] = t - w
                if i < w - 1:
                    nb[4 * t + 1] = t + 1
                if j < h - 1:
                    nb[4 * t + 2] = t + w
                if i > 0:
                    nb[4 * t + 3] = t - 1
        _NB_CACHE[key] = nb
    return nb


def _shape_set(shape: int) -> int:
    """The set of the arm masks a shape can take."""
    s = 0
    for r in range(4):
        s |= 1 << mask_of(shape, r)
    return s


_SHAPE_SET: tuple[int, ...] = tuple(_shape_set(s) for s in range(4))


class _Contradiction(Exception):
    """Raised inside propagation when the state has no solution."""


# ---------------------------------------------------------------------------------------------
# Solver state


class _State:
    """Flat solver state: candidate sets, edge knowledge, union-find with unknown-end counts."""

    __slots__ = ("w", "h", "n", "nb", "cand", "dec", "opn", "par", "sz", "ex", "nund", "steps")

    def __init__(self, w: int, h: int) -> None:
        self.w = w
        self.h = h
        self.n = w * h
        self.nb = _neighbours(w, h)
        self.cand: list[int] = []
        self.dec: list[int] = []
        self.opn: list[int] = []
        self.par: list[int] = []
        self.sz: list[int] = []
        self.ex: list[int] = []
        self.nund = 0
        self.steps = 0

    def clone(self) -> _State:
        """An independent copy (the neighbour table is shared)."""
        st = _State.__new__(_State)
        st.w, st.h, st.n, st.nb = self.w, self.h, self.n, self.nb
        st.cand = self.cand[:]
        st.dec = self.dec[:]
        st.opn = self.opn[:]
        st.par = self.par[:]
        st.sz = self.sz[:]
        st.ex = self.ex[:]
        st.nund = self.nund
        st.steps = self.steps
        return st


def _initial_state(w: int, h: int, shape_sets: Sequence[int]) -> _State:
    """The state before any deduction: border edges closed, every other edge unknown."""
    st = _State(w, h)
    n = st.n
    nb = st.nb
    cand = [0] * n
    dec = [0] * n
    ex = [0] * n
    nund = 0
    for t in range(n):
        border = 0
        for d in range(4):
            if nb[4 * t + d] < 0:
                border |= 1 << d
        c = shape_sets[t]
        for m in _MASKS[c]:
            if m & border:
                c &= ~(1 << m)
        cand[t] = c
        dec[t] = border
        ex[t] = _ARMS[_MASKS[c][0]] if c else 0
        if _POP[c] != 1:
            nund += 1
    st.cand = cand
    st.dec = dec
    st.opn = [0] * n
    st.par = list(range(n))
    st.sz = [1] * n
    st.ex = ex
    st.nund = nund
    return st


def _propagate(st: _State, queue: list[int]) -> None:
    """Deduce until nothing changes; raise _Contradiction when the state has no solution."""
    n = st.n
    nb = st.nb
    cand = st.cand
    dec = st.dec
    opn = st.opn
    par = st.par
    sz = st.sz
    ex = st.ex
    POP = _POP
    INTER = _INTER
    UNION = _UNION
    MASKS = _MASKS
    DIRS = _DIRS
    WITH = _WITH
    inq = bytearray(n)
    for t in queue:
        inq[t] = 1
    nund = st.nund
    steps = st.steps

    def find(x: int) -> int:
        while par[x] != x:
            par[x] = x = par[par[x]]
        return x

    def set_edge(t: int, d: int, is_open: bool) -> None:
        """Fix the edge (t, d) open or closed on both sides."""
        nonlocal nund
        b = 1 << d
        if dec[t] & b:
            if bool(opn[t] & b) != is_open:
                raise _Contradiction
            return
        u = nb[4 * t + d]
        od = d ^ 2
        ob = 1 << od
        dec[t] |= b
        dec[u] |= ob
        if is_open:
            rt = find(t)
            ru = find(u)
            ex[rt] -= 1
            ex[ru] -= 1
            if rt == ru:
                raise _Contradiction
            # Re-queue the smaller class and its unknown neighbours: their loop rule changed.
            if sz[rt] < sz[ru]:
                small, big, start = rt, ru, t
            else:
                small, big, start = ru, rt, u
            stack = [start]
            seen = {start}
            while stack:
                x = stack.pop()
                free = 15 ^ dec[x]
                if free:
                    if not inq[x]:
                        inq[x] = 1
                        queue.append(x)
                    for e in DIRS[free]:
                        y = nb[4 * x + e]
                        if not inq[y]:
                            inq[y] = 1
                            queue.append(y)
                for e in DIRS[opn[x]]:
                    y = nb[4 * x + e]
                    if y not in seen:
                        seen.add(y)
                        stack.append(y)
            opn[t] |= b
            opn[u] |= ob
            par[small] = big
            sz[big] += sz[small]
            ex[big] += ex[small]
            if ex[big] <= 0 and sz[big] < n:
                raise _Contradiction
            ct = cand[t] & WITH[d]
            cu = cand[u] & WITH[od]
        else:
            ct = cand[t] & ~WITH[d]
            cu = cand[u] & ~WITH[od]
        if ct != cand[t]:
            if not ct:
                raise _Contradiction
            if POP[ct] == 1 and POP[cand[t]] > 1:
                nund -= 1
            cand[t] = ct
            if not inq[t]:
                inq[t] = 1
                queue.append(t)
        if cu != cand[u]:
            if not cu:
                raise _Contradiction
            if POP[cu] == 1 and POP[cand[u]] > 1:
                nund -= 1
            cand[u] = cu
            if not inq[u]:
                inq[u] = 1
                queue.append(u)

    def revise(t: int) -> bool:
        """Apply the rules to tile t; True when its candidate set shrank."""
        nonlocal nund, steps
        dm = dec[t]
        if dm == 15:
            return False
        steps += 1
        free = 15 ^ dm
        c0 = cand[t]
        c = c0
        if POP[c] > 1:
            rt = find(t)
            roots = [rt, rt, rt, rt]
            for d in DIRS[free]:
                roots[d] = find(nb[4 * t + d])
            base_sz = sz[rt]
            base_ex = ex[rt]
            for m in MASKS[c]:
                newa = m & free
                seen = [rt]
                tot = base_sz
                exits = base_ex
                ok = True
                for d in DIRS[newa]:
                    r = roots[d]
                    if r in seen:
                        ok = False
                        break
                    seen.append(r)
                    tot += sz[r]
                    exits += ex[r] - 2
                if ok and tot < n and exits <= 0:
                    ok = False
                if not ok:
                    c &= ~(1 << m)
            if c != c0:
                if not c:
                    raise _Contradiction
                if POP[c] == 1:
                    nund -= 1
                cand[t] = c
        must = INTER[c] & free
        never = free & ~UNION[c]
        for d in DIRS[must]:
            set_edge(t, d, True)
        for d in DIRS[never]:
            set_edge(t, d, False)
        return c != c0

    try:
        while True:
            while queue:
                t = queue.pop()
                inq[t] = 0
                revise(t)
            if nund == 0:
                break
            changed = False
            for t in range(n):
                if POP[cand[t]] > 1 and revise(t):
                    changed = True
            if not changed and not queue:
                break
    finally:
        st.nund = nund
        st.steps = steps


def _fix(st: _State, t: int, m: int) -> None:
    """Restrict tile t to arm mask m (a guess); the caller propagates."""
    if _POP[st.cand[t]] > 1:
        st.nund -= 1
    st.cand[t] = 1 << m


def _deduce(board: Board) -> _State | None:
    """Deduction only, from the shapes; None when the board has no solution."""
    st = _initial_state(board.width, board.height, [_SHAPE_SET[s] for s in board.shapes])
    if 0 in st.cand:  # a shape that fits nowhere (a tee in a corner)
        return None
    try:
        _propagate(st, list(range(st.n - 1, -1, -1)))
    except _Contradiction:
        return None
    return st


def _masks_of(st: _State) -> list[int]:
    """The arm masks of a fully determined state."""
    return [_MASKS[c][0] for c in st.cand]


def _search(
    st: _State,
    limit: int,
    solutions: list[list[int]] | None = None,
    weight: int = 1,
    prefer: Sequence[int] | None = None,
) -> tuple[int, int]:
    """Count solutions of a propagated state up to limit; returns (count, search steps)."""
    count = 0
    work = 0
    # Each frame: a propagated state and the guesses still to try at its chosen tile.
    frames: list[tuple[_State, int, list[int]]] = []

    def push(s: _State) -> bool:
        """Record a solution or open a frame at the most constrained tile; True to stop."""
        nonlocal count
        if s.nund == 0:
            count += 1
            if solutions is not None:
                solutions.append(_masks_of(s))
            return count >= limit
        best, best_pop = -1, 5
        for t, c in enumerate(s.cand):
            p = _POP[c]
            if 1 < p < best_pop:
                best, best_pop = t, p
                if p == 2:
                    break
        guesses = list(_MASKS[s.cand[best]])
        if prefer is not None and prefer[best] in guesses:  # tried last = popped first
            guesses.remove(prefer[best])
            guesses.append(prefer[best])
        frames.append((s, best, guesses))
        return False

    if push(st):
        return count, work
    while frames:
        s, t, rest = frames[-1]
        if not rest:
            frames.pop()
            continue
        m = rest.pop()
        child = s.clone() if rest else s
        if not rest:
            frames.pop()
        _fix(child, t, m)
        before = child.steps
        try:
            _propagate(child, [t])
        except _Contradiction:
            work += weight * (child.steps - before)
            continue
        work += weight * (child.steps - before)
        if push(child):
            break
    return count, work


def is_solution(board: Board, masks: Sequence[int]) -> bool:
    """Whether arm masks (one per tile, of the board's shapes) form a solution."""
    w, h, n = board.width, board.height, board.size
    nb = _neighbours(w, h)
    edges = 0
    for t in range(n):
        m = masks[t]
        if not (_SHAPE_SET[board.shapes[t]] >> m & 1):
            return False
        for d in _DIRS[m]:
            u = nb[4 * t + d]
            if u < 0 or not (masks[u] >> (d ^ 2) & 1):
                return False
            edges += 1
    if edges != 2 * (n - 1):
        return False
    seen = bytearray(n)
    seen[0] = 1
    stack = [0]
    reached = 1
    while stack:
        t = stack.pop()
        for d in _DIRS[masks[t]]:
            u = nb[4 * t + d]
            if not seen[u]:
                seen[u] = 1
                reached += 1
                stack.append(u)
    return reached == n


# ---------------------------------------------------------------------------------------------
# Public API


def count_solutions(board: Board, limit: int = 2) -> int:
    """Number of solutions of the board's shapes: 0, 1, ..., or ``limit`` meaning "that many or
    more" (solutions compared by arm masks)."""
    if limit < 1:
        raise ValueError(f"limit: must be at least 1, got {limit}")
    st = _deduce(board)
    if st is None:
        return 0
    return _search(st, limit)[0]


def deduced(board: Board) -> bool:
    """Whether deduction alone (no search) fixes every tile: then the solution is unique."""
    st = _deduce(board)
    return st is not None and st.nund == 0


def solution_masks(board: Board) -> list[int] | None:
    """The arm masks of one solution (deduction, then search), or None when there is none."""
    st = _deduce(board)
    if st is None:
        return None
    found: list[list[int]] = []
    _search(st, 1, found)
    return found[0] if found else None


def _rotation_for(shape: int, current: int, arms: int) -> int:
    """The rotation giving these arms that is fewest clockwise clicks from ``current``."""
    for k in range(4):
        r = (current + k) & 3
        if mask_of(shape, r) == arms:
            return r
    raise ValueError(f"shape {shape} cannot show arms {arms}")


def solve(board: Board) -> list[int] | None:
    """Rotations of one solution (for each tile the one nearest clockwise to its current
    rotation), or None when there is no solution."""
    masks = solution_masks(board)
    if masks is None:
        return None
    return [
        _rotation_for(s, r, m) for s, r, m in zip(board.shapes, board.rotations, masks, strict=True)
    ]


def ambiguous_tiles(board: Board) -> set[int]:
    """Tiles left undetermined by deduction (a superset of the tiles whose arms differ between
    solutions; empty means exactly one solution). Every tile when there is no solution."""
    st = _deduce(board)
    if st is None:
        return set(range(board.size))
    return {t for t, c in enumerate(st.cand) if _POP[c] > 1}


def par(board: Board) -> int:
    """Fewest clockwise clicks from the current rotations to the board's solution (a straight's
    two equivalent orientations both count as solved)."""
    total = 0
    for s, r, sol in zip(board.shapes, board.rotations, board.solution, strict=True):
        target = mask_of(s, sol)
        total += (_rotation_for(s, r, target) - r) & 3
    return total


def hint(board: Board) -> tuple[int, int] | None:
    """A tile whose arms differ from the solution and the rotation it needs, or None if solved.

    Preference, taking the tiles already right as given: (1) a wrong tile that its right and
    off-board neighbours leave a single possible arm mask (most known sides first); (2) a wrong
    tile the full deduction fixes from the right tiles (most right neighbours first); (3) the
    first wrong tile. The rotation is the nearest clockwise one showing the solution's arms.
    """
    n = board.size
    nb = _neighbours(board.width, board.height)
    target = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    wrong = [t for t in range(n) if board.mask(t) != target[t]]
    if not wrong:
        return None
    wrong_set = set(wrong)
    chosen = -1
    best_known = -1
    for t in wrong:
        known = want = 0
        for d in range(4):
            u = nb[4 * t + d]
            if u < 0 or u not in wrong_set:
                known |= 1 << d
                if u >= 0 and target[u] >> (d ^ 2) & 1:
                    want |= 1 << d
        options = [m for m in _MASKS[_SHAPE_SET[board.shapes[t]]] if m & known == want]
        if len(options) == 1 and _ARMS[known] > best_known:
            chosen, best_known = t, _ARMS[known]
    if chosen < 0:
        sets = [_SHAPE_SET[board.shapes[t]] if t in wrong_set else 1 << target[t] for t in range(n)]
        st = _initial_state(board.width, board.height, sets)
        try:
            _propagate(st, [t for t in range(n) if t not in wrong_set] + wrong[::-1])
            fixed = [t for t in wrong if _POP[st.cand[t]] == 1]
            if fixed:
                chosen = min(fixed, key=lambda t: _hint_key(board, t, wrong_set))
        except _Contradiction:  # the board's solution is not a solution of its shapes
            chosen = -1
    if chosen < 0:
        chosen = wrong[0]
    return chosen, _rotation_for(board.shapes[chosen], board.rotations[chosen], target[chosen])


def _hint_key(board: Board, t: int, wrong: set[int]) -> tuple[int, int]:
    """Sort key for hints: prefer wrong tiles with many right (or border) neighbours."""
    k = 0
    for d in range(4):
        u = board.neighbour(t, d)
        if u < 0 or u not in wrong:
            k += 1
    return (-k, t)


def difficulty(board: Board) -> float:
    """Deduction steps per tile: tile revisions of the solver from scratch (the shuffled state
    gives it nothing: it reasons from shapes only), search revisions counted twice, divided by
    the number of tiles. Generated unique boards measure about 1.3 (walk) to 2.1 (eller); higher
    means longer deduction chains. Raises ValueError when the board has no solution."""
    st = _deduce(board)
    if st is None:
        raise ValueError("board: has no solution")
    steps = st.steps
    _, work = _search(st, 2, None, 2)
    return (steps + work) / board.size


# ---------------------------------------------------------------------------------------------
# Uniqueness repair


def _tree_path(
    arms: Sequence[int], nb: Sequence[int], w: int, a: int, b: int
) -> list[tuple[int, int]]:
    """The edges (tile, direction) on the tree path from a to b (A* towards b: in a tree the
    first path found is the only one, and the distance bound keeps the search near it)."""
    bi, bj = b % w, b // w
    prev: dict[int, tuple[int, int]] = {a: (-1, -1)}
    heap = [(abs(a % w - bi) + abs(a // w - bj), 0, a)]
    while heap:
        _, g, x = heapq.heappop(heap)
        if x == b:
            break
        for d in _DIRS[arms[x]]:
            y = nb[4 * x + d]
            if y not in prev:
                prev[y] = (x, d)
                heapq.heappush(heap, (g + 1 + abs(y % w - bi) + abs(y // w - bj), g + 1, y))
    path: list[tuple[int, int]] = []
    x = b
    while x != a:
        p, d = prev[x]
        path.append((p, d))
        x = p
    return path


def _regions(tiles: Iterable[int], nb: Sequence[int]) -> list[list[int]]:
    """Split tiles into 4-connected regions."""
    left = set(tiles)
    out: list[list[int]] = []
    while left:
        start = left.pop()
        region = [start]
        stack = [start]
        while stack:
            x = stack.pop()
            for d in range(4):
                y = nb[4 * x + d]
                if y in left:
                    left.remove(y)
                    region.append(y)
                    stack.append(y)
        out.append(region)
    return out


def _perturb(
    arms: list[int], nb: Sequence[int], w: int, spot: list[int], rng: random.Random
) -> list[int]:
    """Add a non-tree link at a spot tile (never a 4th arm) and cut the loop it closes at a
    random other edge near the spot; returns the changed tiles (none when the spot offers no
    such link)."""
    links: list[tuple[int, int]] = []
    for a in spot:
        ma = arms[a]
        if _ARMS[ma] >= 3:
            continue
        for d in range(4):
            if ma >> d & 1:
                continue
            b = nb[4 * a + d]
            if b >= 0 and _ARMS[arms[b]] < 3:
                links.append((a, d))
    if not links:
        return []
    a, d = rng.choice(links)
    b = nb[4 * a + d]
    path = _tree_path(arms, nb, w, a, b)
    near = set(_grow_region(spot, nb))
    close = [(x, e) for x, e in path if x in near or nb[4 * x + e] in near]
    x, e = rng.choice(close or path)
    y = nb[4 * x + e]
    arms[a] |= 1 << d
    arms[b] |= 1 << (d ^ 2)
    arms[x] &= ~(1 << e)
    arms[y] &= ~(1 << (e ^ 2))
    return [a, b, x, y]


_SEARCH_EVERY = 20  # rounds of region repair between uniqueness checks by search
_MARGIN = 3  # tiles around a repair that are re-solved with it


def make_unique(board: Board, rng: random.Random) -> None:
    """Change the board's tree (shapes and solution together) until its puzzle has exactly one
    solution, proved by deduction (or, after many rounds, by search); repairs only where the
    solver is left undecided and re-solves only around the repairs until the final proof.

    The tree stays a spanning tree with at most 3 arms per tile. Changed tiles get their new
    solution rotation as current rotation; other rotations are kept. Raises ValueError when the
    board's solution is not a spanning tree of its shapes with at most 3 arms per tile.
    """
    w, h, n = board.width, board.height, board.size
    nb = _neighbours(w, h)
    arms = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    if not is_solution(board, arms):
        raise ValueError("solution: is not a spanning tree of the board's shapes")
    if any(_ARMS[m] > 3 for m in arms):
        raise ValueError("solution: has a tile with 4 arms")
    original = arms[:]
    rounds = 0
    full = True  # deduce from scratch (a proof) rather than around the last repairs
    free = bytearray(n)
    while True:
        if full:
            st = _initial_state(w, h, [_SHAPE_SET_OF_MASK[m] for m in arms])
            queue = list(range(n - 1, -1, -1))
        else:
            st, queue = _conditional_state(w, h, arms, free)
        try:
            _propagate(st, queue)
        except _Contradiction as exc:  # pragma: no cover - arms is a solution
            raise AssertionError("solver found no solution for a tree") from exc
        if st.nund == 0:
            if full:
                break
            full = True  # the repairs look done: check the whole board
            continue
        rounds += 1
        undecided = [t for t, c in enumerate(st.cand) if _POP[c] > 1]
        if rounds % _SEARCH_EVERY == 0:
            if not full:
                full = True
                rounds -= 1
                continue
            # Many rounds: make sure the rest is really ambiguous, and find where.
            found: list[list[int]] = []
            if _search(st, 2, found, prefer=arms)[0] < 2:
                break
            spots = [[t for t in range(n) if found[0][t] != found[1][t]]]
        else:
            spots = _regions(undecided, nb)
        touched = undecided
        for spot in spots:
            while True:
                changed = _perturb(arms, nb, w, spot, rng)
                if changed:
                    touched = touched + changed
                    break
                if len(spot) == n:  # pragma: no cover - a tree always has a free link
                    raise RuntimeError("make_unique: no link can be added anywhere")
                spot = _grow_region(spot, nb)
        # Next round: re-solve only around the undecided and changed tiles, the rest fixed.
        free = _marked(touched, nb, n, _MARGIN)
        full = False
    for t in range(n):
        if arms[t] != original[t]:
            shape, rot = _SHAPE_ROT_OF_MASK[arms[t]]
            board.shapes[t] = shape
            board.solution[t] = rot
            board.rotations[t] = rot


def _marked(tiles: Iterable[int], nb: Sequence[int], n: int, margin: int) -> bytearray:
    """Flags for the tiles and everything within ``margin`` steps of them."""
    mark = bytearray(n)
    layer = []
    for t in tiles:
        if not mark[t]:
            mark[t] = 1
            layer.append(t)
    for _ in range(margin):
        nxt = []
        for x in layer:
            for y in nb[4 * x : 4 * x + 4]:
                if y >= 0 and not mark[y]:
                    mark[y] = 1
                    nxt.append(y)
        layer = nxt
    return mark


def _conditional_state(
    w: int, h: int, arms: Sequence[int], free: bytearray
) -> tuple[_State, list[int]]:
    """A state with every unflagged tile fixed to its tree arms (edges between fixed tiles
    decided, classes from the tree), and the queue that re-solves the flagged tiles."""
    st = _State(w, h)
    n = st.n
    nb = st.nb
    cand = [1 << m for m in arms]
    dec = [15] * n
    opn = list(arms)
    nund = 0
    queue: list[int] = []
    edge = bytearray(n)  # tiles with an edge to a flagged tile: their knowledge is partial
    for t in range(n):
        if free[t]:
            edge[t] = 1
            for u in nb[4 * t : 4 * t + 4]:
                if u >= 0:
                    edge[u] = 1
    for t in range(n):
        if not edge[t]:
            continue
        m = arms[t]
        known = 0
        k = 4 * t
        for d in range(4):
            u = nb[k + d]
            if u < 0 or not (free[t] or free[u]):
                known |= 1 << d
        if free[t]:
            c = _SHAPE_SET_OF_MASK[m]
            for x in _MASKS[c]:
                if x & known:
                    c &= ~(1 << x)
            cand[t] = c
            if _POP[c] > 1:
                nund += 1
        opn[t] = m & known
        dec[t] = known
        queue.append(t)
    par = list(range(n))
    sz = [1] * n
    ex = [_ARMS[arms[t]] - _ARMS[opn[t]] for t in range(n)]
    for r in range(n):
        if par[r] != r or not opn[r] or sz[r] != 1:
            continue
        stack = [r]
        size, rem = 0, 0
        while stack:
            x = stack.pop()
            size += 1
            rem += ex[x]
            for d in _DIRS[opn[x]]:
                y = nb[4 * x + d]
                if y != r and par[y] == y:
                    par[y] = r
                    stack.append(y)
        sz[r] = size
        ex[r] = rem
    st.cand, st.dec, st.opn, st.par, st.sz, st.ex, st.nund = cand, dec, opn, par, sz, ex, nund
    return st, queue[::-1]


def _grow_region(region: list[int], nb: Sequence[int]) -> list[int]:
    """The region plus its 4-neighbours."""
    out = set(region)
    for x in region:
        for d in range(4):
            y = nb[4 * x + d]
            if y >= 0:
                out.add(y)
    return sorted(out)


def _shape_rot_table() -> dict[int, tuple[int, int]]:
    """(shape, smallest rotation) for every mask with 1..3 arms."""
    out: dict[int, tuple[int, int]] = {}
    for s in range(4):
        for r in (3, 2, 1, 0):
            out[mask_of(s, r)] = (s, r)
    return out


_SHAPE_ROT_OF_MASK = _shape_rot_table()
_SHAPE_SET_OF_MASK: list[int] = [
    _SHAPE_SET[_SHAPE_ROT_OF_MASK[m][0]] if m in _SHAPE_ROT_OF_MASK else 0 for m in range(16)
]
