"""Deduction for the tree puzzle: which arm masks each tile can still take, without guessing.

A *solution* gives every tile an arm mask of its shape such that every arm faces an arm of its
neighbour and the connections form one tree over all tiles. The state, on flat lists:

* ``cand[t]``: the masks tile t may still take, as a 16-bit set (bit m = mask m possible);
* ``dec[t]`` / ``opn[t]``: the edges of t known (decided) and known open, 4-bit masks kept equal
  on both sides of every edge (the border is decided closed from the start);
* ``lab[t]``: the class of t, tiles joined by open edges share one label; ``csz`` and ``cex``
  (by label) hold a class's size and its *open ends* (its arms not yet matched by an open edge);
  merging relabels the smaller class, so looking a class up is one index;
* ``bounds[4 t + d]``: the *dead-end bound* of leaving t in direction d: at most how many tiles
  lie beyond that edge in any solution (``n + 1`` while unknown), as in Net's solver; kept only
  where an undecided edge leaves an open tile.

Rules, each removing masks from a tile (docs/net.md describes Net's, which these include):

* local (always): a mask must agree with the decided edges; an edge every mask opens is open, one
  no mask opens is closed; two single-arm tiles never link each other (on boards above 2 tiles);
* ``LOOP``: a mask may not open an undecided edge into its own class, nor two into one class;
* ``ISLAND``: a mask may not close off its class (all open ends used) while the class is smaller
  than the board;
* ``DEADEND``: entering a tile through one of its arms reaches at most one plus the bounds of its
  other arms (the largest over its masks with that arm), which bounds the edge pointing at it;
  a mask whose arms' bounds add up, with the tile, to fewer than all tiles is removed (Net's rule,
  on every arm).

Every rule only narrows: with fewer masks anywhere it removes at least as much. So deduction ends
in one and the same state whatever order it visits tiles in (the greatest fixpoint of the rules),
which lets each part be computed the cheapest way. Work is a stack of tiles, each woken where
the input of a rule changed; the island rule sees changes far away, so when the work runs dry
the undetermined tiles in or next to a class merged down to 3 open ends or fewer are revisited,
and when that changes nothing the dead-end rule runs over the open tiles, class by class
(:func:`_dead_ends`), until it removes nothing. :func:`local_state` does the local rules first
over the whole board at once, on bitboards (one int per arm mask), with the loop and island rules'
smallest cases (loops round a 2x2 square, a tile whose arms all meet end pieces), and hands the
loop only the tiles still open. The rules are sound: a state reached by deduction keeps every
solution, so a fully determined state is the only solution.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence
from itertools import compress

from .model import SHAPE_MASK, mask_of, rotate_mask

__all__ = [
    "LOOP",
    "ISLAND",
    "DEADEND",
    "ALL_RULES",
    "Contradiction",
    "State",
    "initial_state",
    "propagate",
    "local_fixpoint",
    "local_state",
    "arm_boards",
    "grid_masks",
    "fix",
    "masks_of",
    "SHAPE_SET",
    "SET_POP",
    "SET_MASKS",
    "MASK_ARMS",
    "MASK_DIRS",
    "neighbour_table",
]

LOOP = 1
ISLAND = 2
DEADEND = 4
ALL_RULES = LOOP | ISLAND | DEADEND

# ---------------------------------------------------------------------------------------------
# Tables. A "set" is a 16-bit int whose bit m says arm mask m is still possible.

MASK_DIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(d for d in range(4) if m >> d & 1) for m in range(16)
)
"""The directions of a mask's arms."""
MASK_ARMS: tuple[int, ...] = tuple(len(MASK_DIRS[m]) for m in range(16))
"""The number of arms of a mask."""
_SET_SIZE = 1 << 16
SET_POP: list[int] = [0] * _SET_SIZE
"""The number of masks in a set."""
SET_MASKS: list[tuple[int, ...]] = [()] * _SET_SIZE
"""The masks of a set, ascending."""
_INTER: list[int] = [0] * _SET_SIZE  # arms every mask of the set has
_UNION: list[int] = [0] * _SET_SIZE  # arms some mask of the set has
_ARMS_OF: list[int] = [0] * _SET_SIZE  # arms of the set's masks (one shape: all the same)
_ONE_ARM: list[bool] = [False] * _SET_SIZE  # the masks have one arm each


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
            SET_POP[sub] = len(masks)
            SET_MASKS[sub] = masks
            _INTER[sub] = inter if masks else 0
            _UNION[sub] = union
            _ARMS_OF[sub] = MASK_ARMS[masks[0]] if masks else 0
            _ONE_ARM[sub] = bool(masks) and MASK_ARMS[masks[0]] == 1
            if sub == 0:
                break
            sub = (sub - 1) & full


_fill_tables()

_ALL = 0xFFFF
_BIT: tuple[int, ...] = tuple(1 << m for m in range(16))
# _KEEP[dec << 4 | opn]: the masks agreeing with those decided and open edges.
_KEEP: list[int] = [
    sum(1 << m for m in range(16) if m & dm == om) if om & ~dm == 0 else 0
    for dm in range(16)
    for om in range(16)
]
_WITH: tuple[int, ...] = tuple(sum(1 << m for m in range(16) if m >> d & 1) for d in range(4))
_WITHOUT: tuple[int, ...] = tuple(_ALL & ~x for x in _WITH)
# _NOT_BOTH[dirs]: the masks lacking at least one arm of dirs.
_NOT_BOTH: tuple[int, ...] = tuple(
    _ALL & ~sum(1 << m for m in range(16) if m & ds == ds) for ds in range(16)
)
# _WITHIN[free << 4 | one]: the masks whose arms in ``free`` all lie in ``one``.
_WITHIN: list[int] = [
    sum(1 << m for m in range(16) if (m & fr) & ~one == 0) for fr in range(16) for one in range(16)
]


def _shape_set(shape: int) -> int:
    """The set of the arm masks a shape can take."""
    s = 0
    for r in range(4):
        s |= 1 << mask_of(shape, r)
    return s


SHAPE_SET: tuple[int, ...] = tuple(_shape_set(s) for s in range(4))
"""The set of masks of each shape."""

_NB_CACHE: dict[tuple[int, int], list[int]] = {}


def neighbour_table(w: int, h: int) -> list[int]:
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


class Contradiction(Exception):
    """Raised inside propagation when the state has no solution."""


class State:
    """The flat deduction state (see the module docstring); ``clone`` shares only ``nb``."""

    __slots__ = (
        "w",
        "h",
        "n",
        "nb",
        "cand",
        "dec",
        "opn",
        "lab",
        "csz",
        "cex",
        "nund",
        "steps",
        "elims",
        "sweeps",
        "members",
        "bounds",
    )

    w: int
    h: int
    n: int
    nb: list[int]
    cand: list[int]
    dec: list[int]
    opn: list[int]
    lab: list[int]
    csz: list[int]
    cex: list[int]
    nund: int
    """Tiles with more than one mask left."""
    steps: int
    """Tile revisions so far (a revision applies every rule to one undecided tile)."""
    elims: list[int]
    """Masks removed by the local, loop, island and dead-end rules."""
    sweeps: int
    """Passes over every undetermined tile after the work ran dry."""
    members: dict[int, list[int]] | None
    """The tiles of some classes by label (a class left out is found by walking its open
    edges); not copied by ``clone``."""
    bounds: list[int] | None
    """Dead-end bounds found so far: at ``4 t + d``, at most how many tiles lie beyond the edge
    leaving t in direction d (``n + 1``: unknown); they stay true as the state narrows."""

    def clone(self) -> State:
        """An independent copy."""
        st = State.__new__(State)
        st.w, st.h, st.n, st.nb = self.w, self.h, self.n, self.nb
        st.cand = self.cand[:]
        st.dec = self.dec[:]
        st.opn = self.opn[:]
        st.lab = self.lab[:]
        st.csz = self.csz[:]
        st.cex = self.cex[:]
        st.nund = self.nund
        st.steps = self.steps
        st.elims = self.elims[:]
        st.sweeps = self.sweeps
        st.members = None
        st.bounds = None if self.bounds is None else self.bounds[:]
        return st

    @property
    def solved(self) -> bool:
        """Whether every tile has exactly one mask left."""
        return self.nund == 0


def _empty_state(w: int, h: int) -> State:
    """A state with the size fields set and empty lists."""
    st = State.__new__(State)
    st.w = w
    st.h = h
    st.n = w * h
    st.nb = neighbour_table(w, h)
    st.nund = 0
    st.steps = 0
    st.elims = [0, 0, 0, 0]
    st.sweeps = 0
    st.members = None
    st.bounds = None
    return st


_BORDER_CACHE: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def _border_tables(w: int, h: int, nb: list[int]) -> tuple[list[int], list[int]]:
    """Per tile: its border edges as a 4-bit mask, and the masks agreeing with them closed
    (cached by size; never modify)."""
    key = (w, h)
    got = _BORDER_CACHE.get(key)
    if got is None:
        border = [
            (nb[k] < 0) | (nb[k + 1] < 0) << 1 | (nb[k + 2] < 0) << 2 | (nb[k + 3] < 0) << 3
            for k in range(0, 4 * w * h, 4)
        ]
        got = (border, [_KEEP[b << 4] for b in border])
        _BORDER_CACHE[key] = got
    return got


def initial_state(w: int, h: int, sets: Sequence[int]) -> State:
    """The state before any deduction: border edges closed, every other edge unknown.

    ``sets[t]`` is the set of masks tile t may take (its shape's, or one mask for a known tile).
    A tile left with no mask makes the state contradictory: check ``0 in st.cand``.
    """
    st = _empty_state(w, h)
    n = st.n
    border, keep = _border_tables(w, h, st.nb)
    cand = [s & k for s, k in zip(sets, keep, strict=True)]
    dec = border[:]
    ex = [_ARMS_OF[c] for c in cand]
    pop = SET_POP
    nund = sum(1 for c in cand if pop[c] != 1)
    st.cand = cand
    st.dec = dec
    st.opn = [0] * n
    st.lab = list(range(n))
    st.csz = [1] * n
    st.cex = ex
    st.nund = nund
    return st


def state_from_tree(w: int, h: int, arms: Sequence[int], free: Sequence[int]) -> State:
    """A state where every tile not flagged in ``free`` is fixed to its tree arms (edges between
    fixed tiles decided, classes from the tree) and flagged tiles may take any mask of their
    shape agreeing with the fixed edges; revisit the returned state's flagged tiles and the
    tiles next to them (see :func:`tree_state_queue`).

    The work grows with the flagged tiles, not with the board: the classes of the fixed tiles
    are the pieces the flagged tiles cut the tree into, found by searches from the fixed tiles
    next to a flagged one, run in turns so that the largest piece is never walked (whatever no
    finished search reached belongs to it).
    """
    st = _empty_state(w, h)
    n = st.n
    nb = st.nb
    bits = _BIT
    cand = list(map(bits.__getitem__, arms))
    dec = [15] * n
    opn = list(arms)
    csz = [1] * n
    ex = [0] * n
    nund = 0
    flagged = list(compress(range(n), free))
    edge: list[int] = []  # fixed tiles with an edge to a flagged tile: their knowledge is partial
    marked = bytearray(n)
    for t in flagged:
        marked[t] = 1
    for t in flagged:
        for u in nb[4 * t : 4 * t + 4]:
            if u >= 0 and not marked[u]:
                marked[u] = 1
                edge.append(u)
    border = _border_tables(w, h, nb)[0]
    for t in flagged:
        m = arms[t]
        known = border[t]  # a flagged tile knows only its border edges
        c = SHAPE_SET[_SHAPE_OF_MASK[m]] & _KEEP[known << 4 | (m & known)]
        cand[t] = c
        if SET_POP[c] > 1:
            nund += 1
        opn[t] = m & known
        dec[t] = known
        ex[t] = MASK_ARMS[m]
    for t in edge:
        m = arms[t]
        k = 4 * t
        known = 0
        for d in range(4):
            u = nb[k + d]
            if u < 0 or not free[u]:
                known |= 1 << d
        opn[t] = m & known
        dec[t] = known
        ex[t] = MASK_ARMS[m] - MASK_ARMS[m & known]
    # The pieces of the tree among the fixed tiles, searched in turns from the edge tiles.
    owner = [-1] * n
    root: list[int] = []  # search id -> the id it was merged into (itself while it leads)
    todo: list[list[int]] = []
    members: list[list[int]] = []
    for t in edge:
        if owner[t] < 0:
            owner[t] = len(root)
            root.append(len(root))
            todo.append([t])
            members.append([t])
    dirs = MASK_DIRS
    running = list(range(len(root)))
    done: list[int] = []
    batch = 1  # tiles per search and turn, doubling: the largest piece is walked at most
    # about twice as far as the second largest
    while len(running) > 1:
        still = []
        for i in running:
            if root[i] != i:
                continue
            work = todo[i]
            mine = members[i]
            for _ in range(batch):
                if not work:
                    break
                x = work.pop()
                k = 4 * x
                for d in dirs[opn[x]]:
                    y = nb[k + d]
                    j = owner[y]
                    if j < 0:
                        owner[y] = i
                        work.append(y)
                        mine.append(y)
                        continue
                    while root[j] != j:
                        j = root[j]
                    if j != i:  # the same piece: the bigger search takes the other over
                        big, small = (i, j) if len(mine) >= len(members[j]) else (j, i)
                        root[small] = big
                        todo[big].extend(todo[small])
                        members[big].extend(members[small])
                        todo[small] = []
                        members[small] = []
                        i = big
                        work = todo[i]
                        mine = members[i]
            if work:
                still.append(i)
            else:
                done.append(i)
        running = [i for i in dict.fromkeys(still) if root[i] == i]
        if batch < 32:
            batch += batch
    # Whatever no finished search reached is the one piece still being searched.
    g = members[running[0]][0] if running else 0
    lab = [g] * n
    fixed_tiles = n - len(flagged)
    fixed_ends = 0
    for t in edge:
        fixed_ends += ex[t]
    for t in flagged:
        lab[t] = t
    pieces: dict[int, list[int]] = {}
    for i in dict.fromkeys(done):  # a search may finish twice in a turn (taken over, then itself)
        if root[i] != i:
            continue
        piece = members[i]
        r = piece[0]
        rem = 0
        for x in piece:
            lab[x] = r
            rem += ex[x]
        csz[r] = len(piece)
        ex[r] = rem
        pieces[r] = piece
        fixed_tiles -= len(piece)
        fixed_ends -= rem
    if fixed_tiles:
        csz[g] = fixed_tiles
        ex[g] = fixed_ends
    st.cand, st.dec, st.opn, st.lab, st.csz, st.cex = cand, dec, opn, lab, csz, ex
    st.nund = nund
    st.members = pieces
    return st


def tree_state_queue(st: State, free: Sequence[int]) -> list[int]:
    """The tiles to revisit in a :func:`state_from_tree` state: flagged ones and their
    neighbours."""
    around = _around(st.w, st.h)
    out: list[int] = []
    seen = bytearray(st.n)
    for t in reversed(list(compress(range(st.n), free))):
        for u in around[t]:
            if not seen[u]:
                seen[u] = 1
                out.append(u)
    return out


_AROUND_CACHE: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def _around(w: int, h: int) -> list[tuple[int, ...]]:
    """Per tile: itself, then its neighbours in direction order (cached by size)."""
    key = (w, h)
    got = _AROUND_CACHE.get(key)
    if got is None:
        nb = neighbour_table(w, h)
        got = [(t, *(u for u in nb[4 * t : 4 * t + 4] if u >= 0)) for t in range(w * h)]
        _AROUND_CACHE[key] = got
    return got


def _shape_of_mask_table() -> list[int]:
    """The shape index of every mask with 1..3 arms (-1 otherwise)."""
    out = [-1] * 16
    for s in range(4):
        for r in range(4):
            out[mask_of(s, r)] = s
    return out


_SHAPE_OF_MASK = _shape_of_mask_table()


def fix(st: State, t: int, m: int) -> None:
    """Restrict tile t to arm mask m (a guess); the caller propagates from t."""
    if SET_POP[st.cand[t]] > 1:
        st.nund -= 1
    st.cand[t] = 1 << m


def masks_of(st: State) -> list[int]:
    """The arm masks of a fully determined state."""
    return [SET_MASKS[c][0] for c in st.cand]


def propagate(st: State, stack: list[int], rules: int = ALL_RULES) -> None:
    """Deduce from the tiles on ``stack`` until nothing changes (Contradiction: no solution);
    the tiles not on it must be deduced already as far as the state goes (a fresh state with
    every tile on the stack, or a deduced one with a tile just fixed).

    The dead-end rule runs over the open tiles whenever the other rules are stuck
    (:func:`_dead_ends`). The body is one loop with the rules written out, since it is the
    engine's hot path.
    """
    n = st.n
    nb = st.nb
    cand = st.cand
    dec = st.dec
    opn = st.opn
    lab = st.lab
    csz = st.csz
    cex = st.cex
    POP = SET_POP
    INTER = _INTER
    UNION = _UNION
    MASKS = SET_MASKS
    DIRS = MASK_DIRS
    ARMS = MASK_ARMS
    ARMS_OF = _ARMS_OF
    WITH = _WITH
    WITHOUT = _WITHOUT
    NOT_BOTH = _NOT_BOTH
    WITHIN = _WITHIN
    ONE_ARM = _ONE_ARM
    loop_rule = bool(rules & LOOP)
    island_rule = bool(rules & ISLAND)
    dead_rule = bool(rules & DEADEND)
    ends_rule = not island_rule and n > 2
    inq = bytearray(n)
    for t in stack:
        inq[t] = 1
    pop = stack.pop
    push = stack.append
    nund = st.nund
    steps = st.steps
    e_local, e_loop, e_island, e_dead = st.elims
    sweeps = st.sweeps
    mem = st.members
    if mem is None:
        mem = st.members = {}
    changes = 0
    swept_at = -1
    open_tiles: list[int] | None = None
    # Classes joined down to 3 open ends or fewer since the last sweep: where the island rule
    # may newly apply (every other rule is woken exactly where its input changed).
    near_closed: list[int] = []
    marked = bytearray(n)
    try:
        while True:
            while stack:
                t = pop()
                inq[t] = 0
                c0 = cand[t]
                c = c0
                dm = dec[t]
                k4 = 4 * t
                if dm != 15:
                    steps += 1
                    free = 15 ^ dm
                    if POP[c] > 1:
                        lt = lab[t]
                        # Classes across the undecided edges (sentinels never equal a label).
                        l0 = lab[nb[k4]] if free & 1 else -1
                        l1 = lab[nb[k4 + 1]] if free & 2 else -2
                        l2 = lab[nb[k4 + 2]] if free & 4 else -3
                        l3 = lab[nb[k4 + 3]] if free & 8 else -4
                        if loop_rule and len({lt, l0, l1, l2, l3}) < 5:
                            if l0 == lt:
                                c &= WITHOUT[0]
                            if l1 == lt:
                                c &= WITHOUT[1]
                            if l2 == lt:
                                c &= WITHOUT[2]
                            if l3 == lt:
                                c &= WITHOUT[3]
                            if l0 == l1:
                                c &= NOT_BOTH[3]
                            if l0 == l2:
                                c &= NOT_BOTH[5]
                            if l0 == l3:
                                c &= NOT_BOTH[9]
                            if l1 == l2:
                                c &= NOT_BOTH[6]
                            if l1 == l3:
                                c &= NOT_BOTH[10]
                            if l2 == l3:
                                c &= NOT_BOTH[12]
                            if c != c0:
                                e_loop += POP[c0] - POP[c]
                        # Island: only when the rest of t's class has no open end left.
                        if island_rule and cex[lt] <= ARMS_OF[c0] - ARMS[opn[t]]:
                            one = 0
                            if free & 1 and cex[l0] == 1:
                                one = 1
                            if free & 2 and cex[l1] == 1:
                                one |= 2
                            if free & 4 and cex[l2] == 1:
                                one |= 4
                            if free & 8 and cex[l3] == 1:
                                one |= 8
                            bad = c & WITHIN[free << 4 | one]
                            if bad:
                                labs = (l0, l1, l2, l3)
                                base = csz[lt]
                                for m in MASKS[bad]:
                                    tot = base
                                    for d in DIRS[m & free]:
                                        tot += csz[labs[d]]
                                    if tot < n:
                                        c &= ~(1 << m)
                                        e_island += 1
                        if ends_rule and ONE_ARM[c]:
                            # Two single-arm tiles never link (the island rule covers it too).
                            c1 = c
                            for d in DIRS[free]:
                                if ONE_ARM[cand[nb[k4 + d]]]:
                                    c &= WITHOUT[d]
                            e_local += POP[c1] - POP[c]
                        if c != c0:
                            if not c:
                                raise Contradiction
                            if POP[c] == 1:
                                nund -= 1
                            cand[t] = c
                            changes += 1
                    newo = INTER[c] & free
                    for d in DIRS[newo | (free & ~UNION[c])]:
                        u = nb[k4 + d]
                        od = d ^ 2
                        b = 1 << d
                        ob = 1 << od
                        dec[t] |= b
                        dec[u] |= ob
                        cu0 = cand[u]
                        if newo & b:
                            lt = lab[t]
                            lu = lab[u]
                            if lt == lu:
                                raise Contradiction
                            if csz[lt] < csz[lu]:
                                small, big, start = lt, lu, t
                            else:
                                small, big, start = lu, lt, u
                            # Relabel the smaller class. With the loop rule, revisit tiles
                            # whose undecided edges now meet the merged class twice (or run
                            # inside it): a tile of the merged class is labelled small or big.
                            lab[start] = big
                            group = mem.get(small) if csz[small] > 1 else [start]
                            if group is None:  # unknown members: walk the class's open edges
                                group = [start]
                                walk = [start]
                                while walk:
                                    x = walk.pop()
                                    for e in DIRS[opn[x]]:
                                        y = nb[4 * x + e]
                                        if lab[y] == small:
                                            lab[y] = big
                                            walk.append(y)
                                            group.append(y)
                            for x in group:
                                lab[x] = big
                                fx = 15 ^ dec[x]
                                if fx and loop_rule:
                                    kx = 4 * x
                                    for e in DIRS[fx]:
                                        y = nb[kx + e]
                                        ly = lab[y]
                                        if ly == big or ly == small:
                                            if not inq[x]:
                                                inq[x] = 1
                                                push(x)
                                            if not inq[y]:
                                                inq[y] = 1
                                                push(y)
                                        elif not inq[y]:
                                            ky = 4 * y
                                            hits = 0
                                            for e2 in DIRS[15 ^ dec[y]]:
                                                l2 = lab[nb[ky + e2]]
                                                if l2 == big or l2 == small:
                                                    hits += 1
                                            if hits > 1:
                                                inq[y] = 1
                                                push(y)
                            joined = mem.get(big) if csz[big] > 1 else [big]
                            if joined is not None:
                                joined.extend(group)
                                mem[big] = joined
                            mem.pop(small, None)
                            opn[t] |= b
                            opn[u] |= ob
                            csz[big] += csz[small]
                            left = cex[big] + cex[small] - 2
                            cex[big] = left
                            changes += 1
                            if left <= 3 and island_rule and not marked[big]:
                                marked[big] = 1
                                near_closed.append(big)
                            if left <= 0 and csz[big] < n:
                                raise Contradiction
                            cu = cu0 & WITH[od]
                        else:
                            cu = cu0 & WITHOUT[od]
                        if cu != cu0:
                            if not cu:
                                raise Contradiction
                            e_local += POP[cu0] - POP[cu]
                            if POP[cu] == 1:
                                nund -= 1
                            cand[u] = cu
                            changes += 1
                            if not inq[u]:
                                inq[u] = 1
                                push(u)
            if nund == 0:
                break
            if swept_at == changes:
                if not dead_rule:
                    break
                # Stuck: the dead-end rule over the open tiles (current: nothing changed since
                # the sweep that listed them).
                assert open_tiles is not None
                hit, removed, revised = _dead_ends(st, open_tiles)
                steps += revised
                if not hit:
                    break
                e_dead += removed
                for t in hit:
                    c = cand[t]
                    if POP[c] == 1:
                        nund -= 1
                    changes += 1
                    if not inq[t]:
                        inq[t] = 1
                        push(t)
                continue
            # The work ran dry: revisit the undetermined tiles in or next to a class that got
            # near closed (only tiles open at the last sweep, or at the start, can be).
            swept_at = changes
            sweeps += 1
            if open_tiles is None:
                open_tiles = [t for t in range(n - 1, -1, -1) if POP[cand[t]] > 1]
            else:
                open_tiles = [t for t in open_tiles if POP[cand[t]] > 1]
            if near_closed:
                for t in open_tiles:
                    if inq[t]:
                        continue
                    near = marked[lab[t]]
                    if not near:
                        k4 = 4 * t
                        for d in DIRS[15 ^ dec[t]]:
                            if marked[lab[nb[k4 + d]]]:
                                near = 1
                                break
                    if near:
                        inq[t] = 1
                        push(t)
                for k in near_closed:
                    marked[k] = 0
                near_closed.clear()
    finally:
        st.nund = nund
        st.steps = steps
        st.elims = [e_local, e_loop, e_island, e_dead]
        st.sweeps = sweeps


def _dead_ends(st: State, tiles: list[int]) -> tuple[list[int], int, int]:
    """The dead-end rule on a stuck state whose open tiles are ``tiles``: removes the masks
    it rules out; returns the tiles that lost masks, the masks removed and the tiles revised.

    The rule, tile by tile (as in Net): entering tile v through its arm a reaches at most 1 plus
    the bounds of v's other arms, the largest over v's masks with arm a; a mask whose arms'
    bounds add up, with the tile, to fewer than all tiles is removed. Bounds only matter where
    they meet an open tile, and in a stuck state every undecided edge joins two open tiles, so
    the bounds are worked out per class instead of tile by tile (the same values, since a class
    is a tree of open edges): inside class K, an open tile w adds ``x[w]``, the largest sum of
    the bounds of its undecided arms over its masks, to K's size. Entering K at its open tile v
    through the undecided arm a then reaches at most

        size(K) + (the sum of x over K's other open tiles) + (the largest sum of the bounds of
        v's other undecided arms, over v's masks with arm a)

    and mask m of w closes off at most size(K) + (x over K's other open tiles) + (the bounds of
    m's undecided arms). The bounds start unknown (n + 1) and only fall; a class is worked out
    again whenever a bound leaving one of its tiles falls, until none does: the greatest
    fixpoint, as the tile-by-tile rule reaches in any order.
    """
    n = st.n
    nb = st.nb
    cand = st.cand
    dec = st.dec
    lab = st.lab
    csz = st.csz
    MASKS = SET_MASKS
    DIRS = MASK_DIRS
    unknown = n + 1
    groups: dict[int, list[int]] = {}
    for v in tiles:
        lv = lab[v]
        g = groups.get(lv)
        if g is None:
            groups[lv] = [v]
        else:
            g.append(v)
    out = st.bounds
    if out is None:
        out = st.bounds = [unknown] * (4 * n)
    worked: dict[int, tuple[list[int], int, int]] = {}  # class -> (x per tile, sum, unknowns)
    todo = list(groups)
    queued = set(todo)
    while todo:
        k = todo.pop()
        queued.discard(k)
        members = groups[k]
        xs = []
        total = 0
        unknowns = 0
        for v in members:
            fv = 15 ^ dec[v]
            kv = 4 * v
            # Every undecided arm is in some mask: x is unknown exactly when one of their
            # bounds is.
            for e in DIRS[fv]:
                if out[kv + e] >= unknown:
                    best = unknown
                    break
            else:
                best = 0
                for m in MASKS[cand[v]]:
                    tot = 0
                    for e in DIRS[m & fv]:
                        tot += out[kv + e]
                    if tot > best:
                        best = tot
            if best >= unknown:
                best = unknown
                unknowns += 1
                if unknowns > 1:
                    break  # every bound into K, and every total in it, passes an unknown one
            else:
                total += best
            xs.append(best)
        worked[k] = (xs, total, unknowns)
        if unknowns > 1:
            continue
        base = csz[k] + total
        for v, xv in zip(members, xs, strict=True):
            if xv >= unknown:
                rest = base
            elif unknowns:
                continue
            else:
                rest = base - xv
            fv = 15 ^ dec[v]
            kv = 4 * v
            for a in DIRS[fv]:
                val = rest
                more = 0
                for m in MASKS[cand[v]]:
                    if m >> a & 1:
                        tot = 0
                        for e in DIRS[m & fv & ~(1 << a)]:
                            tot += out[kv + e]
                        if tot > more:
                            more = tot
                val += more
                if val < unknown:
                    u = nb[kv + a]
                    j = 4 * u + (a ^ 2)
                    if val < out[j]:
                        out[j] = val
                        lu = lab[u]
                        if lu not in queued:
                            queued.add(lu)
                            todo.append(lu)
    hit: list[int] = []
    removed = 0
    for k, (xs, total, unknowns) in worked.items():
        if unknowns > 1:
            continue
        base = csz[k] + total
        for w, xw in zip(groups[k], xs, strict=True):
            if xw >= unknown:
                rest = base
            elif unknowns:
                continue
            else:
                rest = base - xw
            fw = 15 ^ dec[w]
            kw = 4 * w
            c = c0 = cand[w]
            for m in MASKS[c0]:
                tot = rest
                for e in DIRS[m & fw]:
                    tot += out[kw + e]
                if tot < n:
                    c &= ~(1 << m)
            if c != c0:
                if not c:
                    raise Contradiction
                cand[w] = c
                removed += SET_POP[c0] - SET_POP[c]
                hit.append(w)
    return hit, removed, len(tiles)


# ---------------------------------------------------------------------------------------------
# The local rules over the whole board at once, as bitboards.
#
# A bitboard is an int with bit t for tile t. ``boards[m]`` holds the tiles that may still take
# arm mask m; one round derives, per direction, where an edge may still open (both sides may
# have the arm, not two single-arm tiles) and where it may still close (both sides may lack it,
# or the edge is the border), then keeps in every ``boards[m]`` the tiles where all of m's edges
# may open and all others may close. Rounds repeat until nothing changes: the fixpoint of the
# local rules, the same the tile-by-tile loop reaches, at a small part of its cost.

_BOARD_MASKS: tuple[int, ...] = tuple(range(1, 15))  # the masks of 1..3 arms
_MASKS_WITH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in _BOARD_MASKS if m >> d & 1) for d in range(4)
)
_MASKS_WITHOUT: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in _BOARD_MASKS if not m >> d & 1) for d in range(4)
)
# _TO_ASCII[k]: byte v -> "1" if bit k of v is set, else "0".
_TO_ASCII: tuple[bytes, ...] = tuple(
    bytes(49 if v >> k & 1 else 48 for v in range(256)) for k in range(8)
)
# _FROM_ASCII[k]: "0" -> 0, "1" -> 1 << k.
_FROM_ASCII: tuple[bytes, ...] = tuple(bytes.maketrans(b"01", bytes((0, 1 << k))) for k in range(8))
_ARM_COUNT: bytes = bytes(MASK_ARMS[v & 15] for v in range(256))
_GRID_CACHE: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}


def grid_masks(w: int, h: int) -> tuple[int, int, int, int, int]:
    """(all tiles, all but the first column, all but the last column, the first row, the last
    row) as bitboards, cached by size."""
    key = (w, h)
    got = _GRID_CACHE.get(key)
    if got is None:
        n = w * h
        every = (1 << n) - 1
        first_col = sum(1 << (j * w) for j in range(h))
        got = (
            every,
            every & ~first_col,
            every & ~(first_col << (w - 1)),
            (1 << w) - 1,
            ((1 << w) - 1) << (n - w),
        )
        _GRID_CACHE[key] = got
    return got


def _boards_of(sets: Sequence[int], n: int) -> list[int]:
    """Per arm mask m, the bitboard of the tiles whose set holds m (index 0 and 15 stay 0)."""
    raw = array("H", sets)
    if sys.byteorder != "little":  # pragma: no cover - the machines at hand are little-endian
        raw.byteswap()
    data = raw.tobytes()
    halves = (data[0::2], data[1::2])
    boards = [0] * 16
    for m in _BOARD_MASKS:
        boards[m] = int(halves[m >> 3].translate(_TO_ASCII[m & 7])[::-1], 2)
    return boards


def arm_boards(masks: Sequence[int]) -> tuple[int, int, int, int]:
    """Per direction (N, E, S, W), the bitboard of the tiles whose mask (0..15) has that arm."""
    data = bytes(masks)
    out = [int(data.translate(_TO_ASCII[d])[::-1], 2) for d in range(4)]
    return out[0], out[1], out[2], out[3]


def _per_tile(n: int, parts: Iterable[tuple[int, int]]) -> bytes:
    """One byte per tile: the sum of ``1 << k`` over the (bitboard, k) pairs holding the tile
    (each k at most once)."""
    acc = 0
    for board, k in parts:
        if board:
            text = format(board, "b").zfill(n)[::-1].encode("ascii")
            acc |= int.from_bytes(text.translate(_FROM_ASCII[k]), "little")
    return acc.to_bytes(n, "little")


def local_fixpoint(w: int, h: int, boards: list[int], rules: int = 0) -> bool:
    """Apply the local rules to ``boards`` (see above) until nothing changes; False when some
    tile is left with no mask (no solution). Written out mask by mask: mask m keeps the tiles
    where the edges of its arms may open and the others may close. With ``LOOP`` in ``rules``,
    three open edges round a 2x2 square close the fourth; with ``ISLAND``, a tile keeps no mask
    whose every arm meets an end piece (both are cases of those rules, found here at once)."""
    n = w * h
    every, not_first, not_last, top, bottom = grid_masks(w, h)
    first = every & ~not_first
    last = every & ~not_last
    ends = boards[1] | boards[2] | boards[4] | boards[8]
    if n > 2:  # two single-arm tiles never link
        no_n = ~(ends & ends << w)
        no_e = ~(ends & ends >> 1)
        no_s = ~(ends & ends >> w)
        no_w = ~(ends & ends << 1)
    else:  # pragma: no cover - boards have at least 9 tiles
        no_n = no_e = no_s = no_w = -1
    if rules & ISLAND and n > 4:
        # Islets: a mask whose every arm meets a single-arm tile closes off 1 + arms tiles.
        near = (ends << w, ends >> 1, ends >> w, ends << 1)
        for m in (3, 5, 6, 7, 9, 10, 11, 12, 13, 14):
            bad = every
            for d in MASK_DIRS[m]:
                bad &= near[d]
            boards[m] &= ~bad
    squares = bool(rules & LOOP)
    square = not_last & ~bottom  # tiles with an east and a south neighbour
    _, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, _ = boards
    while True:
        # Tiles that may have (a) or lack (z) the arm of each direction.
        low = b1 | b2 | b3
        mid = b4 | b5 | b6 | b7
        high = b8 | b9 | b10 | b11
        top3 = b12 | b13 | b14
        a0 = b1 | b3 | b5 | b7 | b9 | b11 | b13
        z0 = b2 | b4 | b6 | b8 | b10 | b12 | b14
        a1 = b2 | b3 | b6 | b7 | b10 | b11 | b14
        z1 = b1 | b4 | b5 | b8 | b9 | b12 | b13
        a2 = mid | top3
        z2 = low | high
        a3 = high | top3
        z3 = low | mid
        # The neighbour's side: north t - w, east t + 1, south t + w, west t - 1.
        o0 = a0 & a2 << w & no_n
        o1 = a1 & a3 >> 1 & not_last & no_e
        o2 = a2 & a0 >> w & no_s
        o3 = a3 & a1 << 1 & not_first & no_w
        if squares:
            # Loops of four: three open edges of a 2x2 square close the fourth.
            oe = a1 & ~z1
            os_ = a2 & ~z2
            right = os_ >> 1
            below = oe >> w
            k_top = os_ & right & below & square
            k_left = oe & right & below & square
            k_right = oe & os_ & below & square
            k_bottom = oe & os_ & right & square
            no_east = k_top | k_bottom << w
            no_south = k_left | k_right << 1
            if no_east | no_south:
                o1 &= ~no_east
                o3 &= ~(no_east << 1)
                o2 &= ~no_south
                o0 &= ~(no_south << w)
        c0 = z0 & (z2 << w | top)
        c1 = z1 & (z3 >> 1 & not_last | last)
        c2 = z2 & (z0 >> w | bottom)
        c3 = z3 & (z1 << 1 & not_first | first)
        # North and east edges, south and west edges: open (o) or closed (c).
        ne_oo, ne_oc, ne_co, ne_cc = o0 & o1, o0 & c1, c0 & o1, c0 & c1
        sw_oo, sw_oc, sw_co, sw_cc = o2 & o3, o2 & c3, c2 & o3, c2 & c3
        new = (
            b1 & ne_oc & sw_cc,
            b2 & ne_co & sw_cc,
            b3 & ne_oo & sw_cc,
            b4 & ne_cc & sw_oc,
            b5 & ne_oc & sw_oc,
            b6 & ne_co & sw_oc,
            b7 & ne_oo & sw_oc,
            b8 & ne_cc & sw_co,
            b9 & ne_oc & sw_co,
            b10 & ne_co & sw_co,
            b11 & ne_oo & sw_co,
            b12 & ne_cc & sw_oo,
            b13 & ne_oc & sw_oo,
            b14 & ne_co & sw_oo,
        )
        if new == (b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14):
            break
        b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14 = new
    boards[1:15] = new
    return low | mid | high | top3 == every


def local_state(w: int, h: int, sets: Sequence[int], rules: int = 0) -> tuple[State, list[int]]:
    """The state after the local rules from ``sets`` (as :func:`initial_state`), with the
    classes of the open edges, and the undetermined tiles to revisit for the other rules (in
    the order :func:`propagate` would take them); ``rules`` adds the smallest cases of the loop
    and island rules (see :func:`local_fixpoint`). Raises Contradiction when there is no
    solution."""
    n = w * h
    boards = _boards_of(sets, n)
    if not local_fixpoint(w, h, boards, rules):
        raise Contradiction
    every = grid_masks(w, h)[0]
    lo = _per_tile(n, ((boards[m], m) for m in range(1, 8)))
    hi = _per_tile(n, ((boards[m], m - 8) for m in range(8, 15)))
    both = bytearray(2 * n)
    both[0::2] = lo
    both[1::2] = hi
    packed = array("H")
    packed.frombytes(both)
    if sys.byteorder != "little":  # pragma: no cover
        packed.byteswap()
    cand = packed.tolist()
    opened = []
    decided = []
    for d in range(4):
        a = z = 0
        for m in _MASKS_WITH[d]:
            a |= boards[m]
        for m in _MASKS_WITHOUT[d]:
            z |= boards[m]
        opened.append((every & ~z, d))
        decided.append((every & ~(a & z), d))
    opened_bytes = _per_tile(n, opened)
    opn = list(opened_bytes)
    dec = list(_per_tile(n, decided))
    # Open ends per tile: the shape's arms less the open ones (bytewise, never below 0).
    one = boards[1] | boards[2] | boards[4] | boards[8]
    two = boards[3] | boards[5] | boards[6] | boards[9] | boards[10] | boards[12]
    three = boards[7] | boards[11] | boards[13] | boards[14]
    shape_arms = _per_tile(n, ((one | three, 0), (two | three, 1)))
    ends = int.from_bytes(shape_arms, "little") - int.from_bytes(
        opened_bytes.translate(_ARM_COUNT), "little"
    )
    ex = list(ends.to_bytes(n, "little"))
    st = _empty_state(w, h)
    nb = st.nb
    dirs = MASK_DIRS
    lab = list(range(n))
    csz = [1] * n
    seen = bytearray(n)
    members: dict[int, list[int]] = {}
    exof = ex.__getitem__
    # The tiles with two masks or more, last first.
    seen_once = several = 0
    for m in _BOARD_MASKS:
        b = boards[m]
        several |= seen_once & b
        seen_once |= b
    flags = _per_tile(n, ((several, 0),))
    queue = list(compress(range(n - 1, -1, -1), flags[::-1]))
    # Every class holds an open tile (a class of determined tiles has no open end: it is closed,
    # so the whole board or no solution), so the walks start from the open tiles only.
    walked = 0
    for r in queue if queue else compress(range(n), opened_bytes):
        if seen[r] or not opened_bytes[r]:
            continue
        seen[r] = 1
        piece = [r]
        for x in piece:  # the list grows while it is read: a breadth-first walk
            lab[x] = r
            k = 4 * x
            for d in dirs[opn[x]]:
                y = nb[k + d]
                if not seen[y]:
                    seen[y] = 1
                    piece.append(y)
        size = len(piece)
        rem = sum(map(exof, piece))
        if rem <= 0 and size < n:  # a closed class
            raise Contradiction
        walked += size
        csz[r] = size
        ex[r] = rem
        members[r] = piece
    # A tile on an open edge that no walk reached is in a class without an open tile: closed.
    linked = (opened[0][0] | opened[1][0] | opened[2][0] | opened[3][0]).bit_count()
    if walked != linked:
        raise Contradiction
    # The open edges make a forest exactly when each class has one edge fewer than tiles.
    edges = opened[1][0].bit_count() + opened[2][0].bit_count()
    if edges != walked - len(members):
        raise Contradiction
    st.cand, st.dec, st.opn, st.lab, st.csz, st.cex = cand, dec, opn, lab, csz, ex
    st.nund = len(queue)
    st.members = members
    return st, queue
