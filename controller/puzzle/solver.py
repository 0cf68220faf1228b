"""The tree puzzle's solver: solution counting, solving, hints, exact par, difficulty, repair.

A *solution* gives every tile a rotation such that every arm faces a matching arm of its
neighbour (no arm leaves the board or faces a non-arm) and the connection graph is one tree over
all tiles. Solutions are compared by arm masks, so the two rotations of a straight that give the
same arms are the same solution; the current rotations play no part except in par and hints.

Deduction (``controller.puzzle.deduce``: local edge rules, loop avoidance, the island rule and
Net's dead-end bounds) comes first; a depth-first search on the most constrained tile, cloning
the flat state, finds further solutions or proves there are none. Deduction alone is sound, so a
board it solves completely has exactly one solution.

:func:`make_unique` repairs a tree until that happens (Net's perturbation: in every region that
deduction leaves undecided, add a link that gives no tile a 4th arm and cut the loop it closes at
a random edge near the region). After a repair only the repaired neighbourhood is re-solved, with
the rest of the board fixed to the tree; when that succeeds, a from-scratch deduction over the
whole board is the proof, and any region it leaves undecided is repaired in turn. Every
``_SEARCH_EVERY`` rounds a search checks whether the rest is really ambiguous (then it repairs
where two solutions differ) or unique though beyond deduction (then it stops).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress

from .deduce import (
    ALL_RULES,
    MASK_ARMS,
    MASK_DIRS,
    SET_MASKS,
    SET_POP,
    SHAPE_SET,
    Contradiction,
    State,
    arm_boards,
    fix,
    grid_masks,
    initial_state,
    local_state,
    masks_of,
    neighbour_table,
    propagate,
    state_from_tree,
    tree_state_queue,
)
from .model import Board, mask_of

LOCAL_RULES = 0
"""Rule flags of the local rules alone: a tile's masks agree with its decided edges, an edge
every mask opens is open, one none opens is closed, two end pieces never link."""

__all__ = [
    "Par",
    "count_solutions",
    "deduction",
    "deduced",
    "solve",
    "solution_masks",
    "ambiguous_tiles",
    "make_unique",
    "make_unique_by_search",
    "LOCAL_RULES",
    "hint",
    "par",
    "par_report",
    "difficulty",
    "is_solution",
    "rotation_for",
]


def deduction(board: Board, rules: int = ALL_RULES, *, revisions: bool = False) -> State | None:
    """Deduction only, from the shapes, with the given rules; None when it finds no solution.

    The local rules run first over the whole board as bitboards, then the tile-by-tile loop
    adds the other rules; with ``revisions`` the tile-by-tile loop does all of it, so the
    state's ``steps``, ``sweeps`` and ``elims`` count every tile revision from scratch (the
    difficulty figure). Both reach the same state.
    """
    sets = [SHAPE_SET[s] for s in board.shapes]
    try:
        if revisions:
            st = initial_state(board.width, board.height, sets)
            if 0 in st.cand:  # a shape that fits nowhere (a tee in a corner)
                return None
            queue = list(range(st.n - 1, -1, -1))
        else:
            st, queue = local_state(board.width, board.height, sets, rules)
        propagate(st, queue, rules)
    except Contradiction:
        return None
    return st


def _most_constrained(st: State) -> int:
    """The undetermined tile with the fewest masks left (the first such in index order)."""
    best, best_pop = -1, 5
    pop = SET_POP
    for t, c in enumerate(st.cand):
        p = pop[c]
        if 1 < p < best_pop:
            best, best_pop = t, p
            if p == 2:
                break
    return best


def _search(
    st: State,
    limit: int,
    solutions: list[list[int]] | None = None,
    weight: int = 1,
    prefer: Sequence[int] | None = None,
) -> tuple[int, int]:
    """Count solutions of a propagated state up to limit; returns (count, search steps)."""
    count = 0
    work = 0
    # Each frame: a propagated state and the guesses still to try at its chosen tile.
    frames: list[tuple[State, int, list[int]]] = []

    def push(s: State) -> bool:
        """Record a solution or open a frame at the most constrained tile; True to stop."""
        nonlocal count
        if s.nund == 0:
            count += 1
            if solutions is not None:
                solutions.append(masks_of(s))
            return count >= limit
        best = _most_constrained(s)
        guesses = list(SET_MASKS[s.cand[best]])
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
        fix(child, t, m)
        before = child.steps
        try:
            propagate(child, [t])
        except Contradiction:
            work += weight * (child.steps - before)
            continue
        work += weight * (child.steps - before)
        if push(child):
            break
    return count, work


def is_solution(board: Board, masks: Sequence[int]) -> bool:
    """Whether arm masks (one per tile, of the board's shapes) form a solution."""
    w, h, n = board.width, board.height, board.size
    if len(masks) != n or min(masks) < 0 or max(masks) > 15:
        return False
    fits = _FITS
    if not all(fits[s << 4 | m] for s, m in zip(board.shapes, masks, strict=True)):
        return False
    # Every arm faces an arm (bitboards: north t - w, east t + 1, south t + w, west t - 1).
    north, east, south, west = arm_boards(masks)
    _, not_first, not_last, _, _ = grid_masks(w, h)
    if (
        north & ~(south << w)
        or south & ~(north >> w)
        or east & ~(west >> 1 & not_last)
        or west & ~(east << 1 & not_first)
    ):
        return False
    if east.bit_count() + south.bit_count() != n - 1:
        return False
    # n - 1 edges: a spanning tree exactly when they connect every tile.
    nb = neighbour_table(w, h)
    dirs = MASK_DIRS
    seen = bytearray(n)
    seen[0] = 1
    stack = [0]
    reached = 1
    while stack:
        t = stack.pop()
        k = 4 * t
        for d in dirs[masks[t]]:
            u = nb[k + d]
            if not seen[u]:
                seen[u] = 1
                reached += 1
                stack.append(u)
    return reached == n


_FITS: tuple[bool, ...] = tuple(bool(SHAPE_SET[s] >> m & 1) for s in range(4) for m in range(16))


# ---------------------------------------------------------------------------------------------
# Public API


def count_solutions(board: Board, limit: int = 2, rules: int = ALL_RULES) -> int:
    """Number of solutions of the board's shapes: 0, 1, ..., or ``limit`` meaning "that many or
    more" (solutions compared by arm masks)."""
    if limit < 1:
        raise ValueError(f"limit: must be at least 1, got {limit}")
    st = deduction(board, rules)
    if st is None:
        return 0
    return _search(st, limit)[0]


def deduced(board: Board, rules: int = ALL_RULES) -> bool:
    """Whether deduction alone (no search) fixes every tile: then the solution is unique."""
    st = deduction(board, rules)
    return st is not None and st.nund == 0


def solution_masks(board: Board) -> list[int] | None:
    """The arm masks of one solution (deduction, then search), or None when there is none."""
    st = deduction(board)
    if st is None:
        return None
    found: list[list[int]] = []
    _search(st, 1, found)
    return found[0] if found else None


def rotation_for(shape: int, current: int, arms: int) -> int:
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
        rotation_for(s, r, m) for s, r, m in zip(board.shapes, board.rotations, masks, strict=True)
    ]


def ambiguous_tiles(board: Board) -> set[int]:
    """Tiles left undetermined by deduction (a superset of the tiles whose arms differ between
    solutions; empty means exactly one solution). Every tile when there is no solution."""
    st = deduction(board)
    if st is None:
        return set(range(board.size))
    return {t for t, c in enumerate(st.cand) if SET_POP[c] > 1}


# ---------------------------------------------------------------------------------------------
# Par: the fewest clicks to any solution


@dataclass(frozen=True, slots=True)
class Par:
    """Fewest clockwise clicks from the current rotations to a solution.

    ``exact``: no solution needs fewer than ``clicks`` (the search finished); otherwise the
    search budget ran out and the true par lies in ``lower .. clicks``. ``masks`` are the arms of
    the closest solution found (the generating solution when nothing closer was found).
    """

    clicks: int
    exact: bool
    lower: int
    masks: list[int]


def _click_costs(board: Board) -> list[list[int]]:
    """``costs[t][m]``: clockwise clicks that turn tile t from its rotation to arm mask m."""
    out: list[list[int]] = []
    for s, r in zip(board.shapes, board.rotations, strict=True):
        row = [0] * 16
        for k in range(3, -1, -1):  # the fewest clicks win
            row[mask_of(s, (r + k) & 3)] = k
        out.append(row)
    return out


def _lower_bound(st: State, costs: list[list[int]]) -> int:
    """Sum over tiles of the cheapest mask still possible: no solution of the state costs less."""
    total = 0
    for c, row in zip(st.cand, costs, strict=True):
        masks = SET_MASKS[c]
        if len(masks) == 1:
            total += row[masks[0]]
        else:
            total += min(row[m] for m in masks)
    return total


PAR_BUDGET = 4000
"""Search nodes :func:`par_report` may expand before it settles for a bound."""


def par_report(board: Board, budget: int = PAR_BUDGET) -> Par:
    """The fewest clicks to any solution, by branch and bound over the deduction state.

    Exact whenever the search finishes within ``budget`` nodes (always when deduction leaves
    few tiles open, e.g. on unique boards); otherwise a stated bound. Raises ValueError when the
    board has no solution at all.
    """
    costs = _click_costs(board)
    own = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    best_masks: list[int] | None = own if is_solution(board, own) else None
    best = sum(row[m] for row, m in zip(costs, own, strict=True)) if best_masks else 1 << 30
    st = deduction(board)
    if st is None:
        if best_masks is None:
            raise ValueError("board: has no solution")
        return Par(best, True, best, best_masks)  # pragma: no cover - deduction is sound
    root = _lower_bound(st, costs)
    # Depth-first, cheapest guess first; a frame holds a state, its bound, its tile, guesses.
    frames: list[tuple[State, int, int, list[int]]] = []
    nodes = 0

    def open_state(s: State, bound: int) -> None:
        nonlocal best, best_masks
        if bound >= best and best_masks is not None:
            return
        if s.nund == 0:
            best, best_masks = bound, masks_of(s)
            return
        t = _most_constrained(s)
        row = costs[t]
        guesses = sorted(SET_MASKS[s.cand[t]], key=lambda m: -row[m])  # cheapest popped first
        frames.append((s, bound, t, guesses))

    open_state(st, root)
    while frames and nodes < budget:
        s, bound, t, rest = frames[-1]
        if not rest or bound >= best:
            frames.pop()
            continue
        m = rest.pop()
        child = s.clone() if rest else s
        if not rest:
            frames.pop()
        nodes += 1
        fix(child, t, m)
        try:
            propagate(child, [t])
        except Contradiction:
            continue
        open_state(child, _lower_bound(child, costs))
    if best_masks is None:
        raise ValueError("board: has no solution")
    pending = [bound for _, bound, _, rest in frames if rest and bound < best]
    if not pending:
        return Par(best, True, best, best_masks)
    return Par(best, False, max(root, min(pending)), best_masks)


def par(board: Board) -> int:
    """Fewest clockwise clicks from the current rotations to any solution (see
    :func:`par_report` for whether it is exact)."""
    return par_report(board).clicks


# ---------------------------------------------------------------------------------------------
# Hints and difficulty


def hint(board: Board, target: Sequence[int] | None = None) -> tuple[int, int] | None:
    """A tile whose arms differ from the solution and the rotation it needs, or None if solved.

    ``target`` gives the solution's arm masks (default: the board's own solution). Preference,
    taking the tiles already right as given: (1) a wrong tile that its right and off-board
    neighbours leave a single possible arm mask (most known sides first); (2) a wrong tile the
    full deduction fixes from the right tiles (most right neighbours first); (3) the first wrong
    tile. The rotation is the nearest clockwise one showing the solution's arms.
    """
    n = board.size
    nb = neighbour_table(board.width, board.height)
    if target is None:
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
        options = [m for m in SET_MASKS[SHAPE_SET[board.shapes[t]]] if m & known == want]
        if len(options) == 1 and MASK_ARMS[known] > best_known:
            chosen, best_known = t, MASK_ARMS[known]
    if chosen < 0:
        sets = [SHAPE_SET[board.shapes[t]] if t in wrong_set else 1 << target[t] for t in range(n)]
        st = initial_state(board.width, board.height, sets)
        try:
            if 0 in st.cand:
                raise Contradiction
            propagate(st, [t for t in range(n) if t not in wrong_set] + wrong[::-1])
            fixed = [t for t in wrong if SET_POP[st.cand[t]] == 1]
            if fixed:
                chosen = min(fixed, key=lambda t: _hint_key(board, t, wrong_set))
        except Contradiction:  # the target is not a solution of the board's shapes
            chosen = -1
    if chosen < 0:
        chosen = wrong[0]
    return chosen, rotation_for(board.shapes[chosen], board.rotations[chosen], target[chosen])


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
    the number of tiles. Raises ValueError when the board has no solution."""
    st = deduction(board, revisions=True)
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
    """The edges (tile, direction) on the tree path from a to b, listed from b's end: searches
    from both ends, a level of the smaller one at a time, until they meet (in a tree the first
    meeting is on the only path)."""
    if a == b:
        return []
    back = {a: -1, b: -1}  # tile -> the tile it was reached from
    side = {a: 0, b: 1}
    fronts = [[a], [b]]
    dirs = MASK_DIRS
    meet: tuple[int, int] = (-1, -1)
    while meet[0] < 0:
        k = 0 if len(fronts[0]) <= len(fronts[1]) else 1
        nxt = []
        for x in fronts[k]:
            for d in dirs[arms[x]]:
                y = nb[4 * x + d]
                if y == back[x]:
                    continue
                if y in side:
                    meet = (x, y) if k == 0 else (y, x)
                    break
                back[y] = x
                side[y] = k
                nxt.append(y)
            if meet[0] >= 0:
                break
        fronts[k] = nxt
    # Tiles from a to b: a's half back from meet[0], then b's half from meet[1].
    tiles = []
    x = meet[0]
    while x >= 0:
        tiles.append(x)
        x = back[x]
    tiles.reverse()
    x = meet[1]
    while x >= 0:
        tiles.append(x)
        x = back[x]
    step = {-w: 0, 1: 1, w: 2, -1: 3}
    return [(p, step[q - p]) for p, q in zip(tiles[-2::-1], tiles[:0:-1], strict=True)]


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
        if MASK_ARMS[ma] >= 3:
            continue
        for d in range(4):
            if ma >> d & 1:
                continue
            b = nb[4 * a + d]
            if b >= 0 and MASK_ARMS[arms[b]] < 3:
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
_FULL_SHARE = 4  # a repair region over 1/_FULL_SHARE of the board: deduce all (the proof)
_MARGIN = 3  # tiles around a repair that are re-solved with it


def make_unique(
    board: Board,
    rng: random.Random,
    rules: int = ALL_RULES,
    *,
    search: bool = True,
    check: bool = True,
) -> bool:
    """Change the board's tree (shapes and solution together) until its puzzle has exactly one
    solution, proved by deduction with ``rules`` (or, after many rounds, by search unless
    ``search`` is false: then only deduction with ``rules`` ends it); repairs
    only where the solver is left undecided and re-solves only around the repairs until the
    final proof. Returns whether deduction alone proves it (False: search was needed).

    The tree stays a spanning tree with at most 3 arms per tile. Changed tiles get their new
    solution rotation as current rotation; other rotations are kept. Raises ValueError when the
    board's solution is not a spanning tree of its shapes with at most 3 arms per tile;
    ``check=False`` skips the spanning-tree test, for trees a generator has just built.
    """
    w, h, n = board.width, board.height, board.size
    nb = neighbour_table(w, h)
    arms = solution_arms(board)
    if check and not is_solution(board, arms):
        raise ValueError("solution: is not a spanning tree of the board's shapes")
    if any(MASK_ARMS[m] > 3 for m in arms):
        raise ValueError("solution: has a tile with 4 arms")
    original = arms[:]
    rounds = 0
    full = True  # deduce from scratch (a proof) rather than around the last repairs
    proved = True
    free = bytearray(n)
    while True:
        try:
            if full:
                st, queue = local_state(w, h, [_SHAPE_SET_OF_MASK[m] for m in arms], rules)
            else:
                st = state_from_tree(w, h, arms, free)
                queue = tree_state_queue(st, free)
            propagate(st, queue, rules)
        except Contradiction as exc:  # pragma: no cover - arms is a solution
            raise AssertionError("solver found no solution for a tree") from exc
        if st.nund == 0:
            if full:
                break
            full = True  # the repairs look done: check the whole board
            continue
        rounds += 1
        undecided = list(compress(range(n), map(_OPEN_SET.__getitem__, st.cand)))
        if search and rounds % _SEARCH_EVERY == 0:
            if not full:
                full = True
                rounds -= 1
                continue
            # Many rounds: make sure the rest is really ambiguous, and find where.
            found: list[list[int]] = []
            if _search(st, 2, found, prefer=arms)[0] < 2:
                proved = False
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
        full = sum(free) * _FULL_SHARE > n
    _apply_arms(board, arms, original)
    return proved


def solution_arms(board: Board) -> list[int]:
    """The arm masks of the board's solution."""
    table = _MASK_OF
    return [table[s << 2 | r] for s, r in zip(board.shapes, board.solution, strict=True)]


_MASK_OF: tuple[int, ...] = tuple(mask_of(s, r) for s in range(4) for r in range(4))
_OPEN_SET: bytes = bytes(p > 1 for p in SET_POP)  # per mask set: more than one mask left


def _apply_arms(board: Board, arms: Sequence[int], original: Sequence[int]) -> None:
    """Give the changed tiles their new shape, with the solution rotation as current rotation."""
    for t in range(board.size):
        if arms[t] != original[t]:
            shape, rot = _SHAPE_ROT_OF_MASK[arms[t]]
            board.shapes[t] = shape
            board.solution[t] = rot
            board.rotations[t] = rot


def make_unique_by_search(board: Board, rng: random.Random, max_rounds: int = 60) -> bool:
    """Change the board's tree until its puzzle has exactly one solution that deduction alone
    does not find (it leaves tiles open; search proves the count is 1). Returns False, the
    board unchanged, when ``max_rounds`` repairs do not get there.

    Each round deduces from scratch. While deduction solves the board (too easy), a link moves at
    a random tile each round, a random walk over trees until deduction leaves tiles open. Then a
    search for two solutions either proves uniqueness (done) or repairs where the two differ;
    a repair that makes the board too easy is undone and another one tried at the same place.
    """
    w, h, n = board.width, board.height, board.size
    nb = neighbour_table(w, h)
    arms = solution_arms(board)
    if not is_solution(board, arms):
        raise ValueError("solution: is not a spanning tree of the board's shapes")
    original = arms[:]
    ambiguous: list[int] | None = None  # the last tree deduction left open, with 2 solutions
    spot: list[int] = []
    for _ in range(max_rounds):
        try:
            st, queue = local_state(w, h, [_SHAPE_SET_OF_MASK[m] for m in arms], ALL_RULES)
            propagate(st, queue)
        except Contradiction as exc:  # pragma: no cover - arms is a solution
            raise AssertionError("solver found no solution for a tree") from exc
        if st.nund == 0:
            if ambiguous is not None:
                arms = ambiguous[:]  # the repair made it too easy: try another one
            else:
                spot = [rng.randrange(n)]
        else:
            found: list[list[int]] = []
            if _search(st, 2, found, prefer=arms)[0] < 2:
                _apply_arms(board, arms, original)
                return True
            spot = [t for t in range(n) if found[0][t] != found[1][t]]
            ambiguous = arms[:]
        region = spot
        while not _perturb(arms, nb, w, region, rng):
            region = _grow_region(region, nb)
    return False


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
    SHAPE_SET[_SHAPE_ROT_OF_MASK[m][0]] if m in _SHAPE_ROT_OF_MASK else 0 for m in range(16)
]
