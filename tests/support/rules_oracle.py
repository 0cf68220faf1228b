"""The deduction rules of ``controller.puzzle.deduce`` written out literally: slow, simple, and
independent of the engine's data structures, to check the engine's fixpoint against.

Every rule removes masks from a tile; they are applied over and over to every tile until none
removes anything. Each rule is monotone (less left elsewhere never keeps more here), so the
result does not depend on the order, and the engine, whatever its order and shortcuts, must end
in exactly the same masks.
"""

from __future__ import annotations

from controller.puzzle.deduce import ALL_RULES, DEADEND, ISLAND, LOOP
from controller.puzzle.model import Board, mask_of
from tests.support.brute_force import neighbour

__all__ = ["oracle_bounds", "oracle_deduction"]


def _arms(m: int) -> list[int]:
    return [d for d in range(4) if m >> d & 1]


class _NoSolution(Exception):
    pass


def oracle_deduction(board: Board, rules: int = ALL_RULES) -> list[set[int]] | None:
    """The masks each tile keeps under the local rules plus ``rules`` (LOOP must be among them
    when ISLAND is); None when the rules find that there is no solution."""
    w, h, n = board.width, board.height, board.size
    nb = [[neighbour(w, h, t, d) for d in range(4)] for t in range(n)]
    cand: list[set[int]] = []
    for t, s in enumerate(board.shapes):
        masks = {mask_of(s, r) for r in range(4)}
        cand.append({m for m in masks if all(nb[t][d] >= 0 for d in _arms(m))})
    try:
        while _round(cand, nb, n, rules):
            pass
    except _NoSolution:
        return None
    return cand


def oracle_bounds(board: Board, cand: list[set[int]]) -> dict[tuple[int, int], int]:
    """The dead-end bounds of these masks at their fixpoint (see ``_bounds``)."""
    w, h, n = board.width, board.height, board.size
    nb = [[neighbour(w, h, t, d) for d in range(4)] for t in range(n)]
    return _bounds(cand, nb, n)


def _round(cand: list[set[int]], nb: list[list[int]], n: int, rules: int) -> bool:
    """Apply every rule once to every tile; whether anything was removed."""
    if any(not c for c in cand):
        raise _NoSolution
    is_open, is_closed = _edges(cand, nb, n)
    label, size, ends = _classes(cand, nb, n, is_open)
    bound = _bounds(cand, nb, n) if rules & DEADEND else None
    changed = False
    for t in range(n):
        keep = set()
        for m in cand[t]:
            if _allowed(t, m, nb, n, rules, is_open, is_closed, label, size, ends, bound):
                keep.add(m)
        if keep != cand[t]:
            cand[t] = keep
            changed = True
    return changed


def _edges(
    cand: list[set[int]], nb: list[list[int]], n: int
) -> tuple[dict[tuple[int, int], bool], dict[tuple[int, int], bool]]:
    """Per directed edge (t, d): whether every mask of t opens it (then it is open), and whether
    it can no longer open (a side lacks the arm in every mask, or two single-arm tiles meet)."""
    single = [all(len(_arms(m)) == 1 for m in c) for c in cand]
    is_open: dict[tuple[int, int], bool] = {}
    is_closed: dict[tuple[int, int], bool] = {}
    for t in range(n):
        for d in range(4):
            u = nb[t][d]
            if u < 0:
                is_open[t, d], is_closed[t, d] = False, True
                continue
            can_open = any(m >> d & 1 for m in cand[t]) and any(m >> (d ^ 2) & 1 for m in cand[u])
            if n > 2 and single[t] and single[u]:
                can_open = False
            is_closed[t, d] = not can_open
            is_open[t, d] = all(m >> d & 1 for m in cand[t]) or all(
                m >> (d ^ 2) & 1 for m in cand[u]
            )
    return is_open, is_closed


def _classes(
    cand: list[set[int]], nb: list[list[int]], n: int, is_open: dict[tuple[int, int], bool]
) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Tiles joined by open edges: label per tile, size and open ends (arms not on an open
    edge) per label. A loop of open edges, or a class with no open end smaller than the board,
    has no solution."""
    label = [-1] * n
    size: dict[int, int] = {}
    ends: dict[int, int] = {}
    for r in range(n):
        if label[r] >= 0:
            continue
        label[r] = r
        todo, tiles, links = [r], [], 0
        while todo:
            x = todo.pop()
            tiles.append(x)
            for d in range(4):
                if is_open[x, d]:
                    links += 1
                    y = nb[x][d]
                    if label[y] < 0:
                        label[y] = r
                        todo.append(y)
        if links // 2 >= len(tiles):
            raise _NoSolution
        arms = sum(len(_arms(next(iter(cand[x])))) for x in tiles)
        size[r] = len(tiles)
        ends[r] = arms - links
        if ends[r] <= 0 and len(tiles) < n:
            raise _NoSolution
    return label, size, ends


def _bounds(cand: list[set[int]], nb: list[list[int]], n: int) -> dict[tuple[int, int], int]:
    """The dead-end bounds to their fixpoint: ``bound[t, d]`` is at most how many tiles lie
    beyond the edge leaving t in direction d (n + 1: unknown). Entering u through its arm a
    reaches at most 1 plus the bounds of u's other arms, taking the largest over u's masks
    with arm a (unknown when one of them has an unknown other arm)."""
    unknown = n + 1
    bound = {(t, d): unknown for t in range(n) for d in range(4)}
    changed = True
    while changed:
        changed = False
        for u in range(n):
            for a in range(4):
                t = nb[u][a]
                if t < 0:
                    continue
                best = 0
                for m in cand[u]:
                    if not m >> a & 1:
                        continue
                    rest = [bound[u, e] for e in _arms(m) if e != a]
                    if any(b >= unknown for b in rest):
                        best = unknown
                        break
                    best = max(best, 1 + sum(rest))
                if 0 < best < unknown and best < bound[t, a ^ 2]:
                    bound[t, a ^ 2] = best
                    changed = True
    return bound


def _allowed(
    t: int,
    m: int,
    nb: list[list[int]],
    n: int,
    rules: int,
    is_open: dict[tuple[int, int], bool],
    is_closed: dict[tuple[int, int], bool],
    label: list[int],
    size: dict[int, int],
    ends: dict[int, int],
    bound: dict[tuple[int, int], int] | None,
) -> bool:
    """Whether mask m of tile t survives every rule."""
    arms = _arms(m)
    for d in range(4):  # local: agree with the known edges
        if d in arms and is_closed[t, d]:
            return False
        if d not in arms and is_open[t, d]:
            return False
    undecided = [d for d in arms if not is_open[t, d]]
    reached = [label[nb[t][d]] for d in undecided]
    if rules & LOOP:
        if label[t] in reached or len(set(reached)) < len(reached):
            return False
    if rules & ISLAND:
        own = label[t]
        others_closed = ends[own] == len(undecided)  # t's own open ends are its undecided arms
        if others_closed and all(ends[c] == 1 for c in reached):
            if size[own] + sum(size[c] for c in set(reached)) < n:
                return False
    if bound is not None:
        parts = [bound[t, d] for d in arms]
        if all(b <= n for b in parts) and 1 + sum(parts) < n:
            return False
    return True
