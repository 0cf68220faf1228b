"""Source → sink mode (docs/puzzle.md): a route from a fixed source to a fixed sink among decoys.

The board holds one random route (``walk_route`` of the ``walk`` generator, grown towards its
``coverage`` target and cut at the last tile it has on the board's edge, which becomes the sink;
at least one tile lies between source and sink);
the source and the sink are end pieces that cannot be turned (``Board.fixed``); every other tile
is a random decoy piece. The puzzle is solved when water reaches the sink (``flow.sink_reached``).
The route is *not* made unique: decoys may open other routes, so par and hints consider every
route.

A route is a simple path of tiles from the source to the sink whose arms face each other along
it; the tiles off it do not matter. Turning tile t so that it has arms towards both its route
neighbours costs ``clicks(t, arms)``: the fewest clockwise clicks to a rotation with those arms.
Par is the fewest clicks over all routes: a depth-first branch and bound over simple paths from
the source, guided and pruned by exact distances of the *relaxed* problem (paths allowed to pass
a tile twice, found by a backward Dijkstra from the sink). It is exact whenever the search ends
within its node budget; otherwise the search goes on to its first route (an upper bound) and the
least relaxed distance still open is the stated lower bound.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .deduce import neighbour_table
from .flow import sink_reached
from .model import CROSS, HOLE, Board, TileClass, distinct_rotations, mask_of, shape_of_mask
from .solver import Par

__all__ = [
    "MODES",
    "SINK_PAR_BUDGET",
    "edge_tiles",
    "sink_board",
    "sink_shuffle",
    "sink_par_report",
    "sink_par",
    "sink_route",
    "sink_hint",
    "RouteProgress",
    "route_steps",
    "route_progress",
]

MODES: tuple[str, ...] = ("tree", "sink")
SINK_PAR_BUDGET = 5_000
"""Search nodes :func:`sink_par_report` may expand before it settles for a bound."""
_INF = 1 << 30
_DECOY_SHAPES = (0, 1, 1, 2, 2, 3, 3, 3)  # end, straight, tee, corner: more pipe than ends


def _on_edge(t: int, width: int, height: int) -> bool:
    """Whether flat tile t lies on the board's edge."""
    i, j = t % width, t // width
    return i == 0 or j == 0 or i == width - 1 or j == height - 1


def edge_tiles(width: int, height: int) -> list[int]:
    """The flat indices of the tiles on the board's edge, ascending."""
    return [t for t in range(width * height) if _on_edge(t, width, height)]


def _route_to_edge(
    width: int, height: int, source: tuple[int, int], target: int, rng: random.Random
) -> list[int]:
    """A walk route from the source cut at its last edge tile (the sink), at least 3 tiles (so
    one tile between the two fixed ends can be turned).

    A few walks are tried; the longest cut wins once one reaches half the target. When no walk
    reaches the edge two steps or more away (tiny coverage), a straight line to the farthest
    edge is used.
    """
    from .generators import walk_route  # generators imports this module

    src = source[1] * width + source[0]
    best: list[int] = []
    for _ in range(8):
        path = walk_route(width, height, source, max(3, target), rng)
        cut = max((k for k in range(2, len(path)) if _on_edge(path[k], width, height)), default=0)
        if cut + 1 > len(best):
            best = path[: cut + 1]
        if 2 * len(best) >= target:
            break
    if len(best) >= 3:
        return best
    si, sj = source
    steps, d = max([(si, 3), (width - 1 - si, 1), (sj, 0), (height - 1 - sj, 2)])
    di, dj = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
    return [src + k * (dj * width + di) for k in range(steps + 1)]  # steps >= 2 on 3x3 and up


def _direction(nb: Sequence[int], a: int, b: int) -> int:
    """The direction from tile a to its neighbour b."""
    return next(d for d in range(4) if nb[4 * a + d] == b)


def _crossing_walk(
    nb: Sequence[int], n: int, start: int, target: int, share: float, rng: random.Random
) -> list[int]:
    """A random route from ``start`` that may cross itself, as PipeMania's does: a step may run
    straight across a straight tile of the route into a free tile beyond it (that tile becomes a
    cross), taken with probability ``share`` whenever one is possible. Otherwise the free end
    extends by Warnsdorff's rule with noise (the free neighbour with the fewest onward free
    neighbours); the walk ends when stuck or at ``target`` steps. A cross tile is listed twice."""
    visits = [0] * n
    path = [start]
    visits[start] = 1

    def free(t: int) -> int:
        return sum(1 for d in range(4) if nb[4 * t + d] >= 0 and not visits[nb[4 * t + d]])

    while len(path) < target:
        h = path[-1]
        crossings = []
        for d in range(4):
            x = nb[4 * h + d]
            if x < 0 or visits[x] != 1 or x == start:
                continue
            m = path.index(x)
            y = nb[4 * x + d]
            straight = 0 < m < len(path) - 1 and {path[m - 1], path[m + 1]} == {
                nb[4 * x + ((d + 1) & 3)],
                nb[4 * x + ((d + 3) & 3)],
            }
            if straight and y >= 0 and not visits[y]:
                crossings.append((x, y))
        if crossings and rng.random() < share:
            x, y = crossings[rng.randrange(len(crossings))]
            path += [x, y]
            visits[x] += 1
            visits[y] = 1
            continue
        steps = [u for d in range(4) if (u := nb[4 * h + d]) >= 0 and not visits[u]]
        if not steps:
            break
        u = min(steps, key=lambda u: free(u) + 1.5 * rng.random())
        path.append(u)
        visits[u] = 1
    return path


def _crossing_route(
    width: int,
    height: int,
    source: tuple[int, int],
    target: int,
    share: float,
    rng: random.Random,
) -> list[int]:
    """The longest of 8 crossing walks, each cut at its last edge tile visited once (the
    sink; at least 3 tiles); the straight line of :func:`_route_to_edge` when none reaches."""
    nb = neighbour_table(width, height)
    src = source[1] * width + source[0]
    best: list[int] = []
    for _ in range(8):
        path = _crossing_walk(nb, width * height, src, max(3, target), share, rng)
        seen: dict[int, int] = {}
        cut = 0
        for k, t in enumerate(path):
            seen[t] = seen.get(t, 0) + 1
            if k >= 2 and seen[t] == 1 and _on_edge(t, width, height):
                cut = k
        # the sink must be visited once in the cut route, and nothing after it matters
        if cut + 1 > len(best):
            best = path[: cut + 1]
        if 2 * len(set(best)) >= target:
            break
    if len(best) >= 3:
        return best
    return _route_to_edge(width, height, source, 0, rng)


def _route_arms(path: Sequence[int], nb: Sequence[int], n: int) -> list[int]:
    """The arms every tile gets from the route (a cross: both straights)."""
    arms = [0] * n
    for a, b in zip(path, path[1:], strict=False):
        d = _direction(nb, a, b)
        arms[a] |= 1 << d
        arms[b] |= 1 << (d ^ 2)
    return arms


def sink_board(
    width: int,
    height: int,
    source: tuple[int, int],
    coverage: float,
    rng: random.Random,
    *,
    crosses: float = 0.0,
    holes: bool = False,
) -> Board:
    """An unshuffled sink-mode board: the route at its solution rotations, decoys at random
    (holes instead with ``holes``); with ``crosses`` > 0 the route may cross itself."""
    n = width * height
    nb = neighbour_table(width, height)
    target = max(3, math.ceil(coverage * n - 1e-9))
    if crosses > 0:
        path = _crossing_route(width, height, source, target, crosses, rng)
    else:
        path = _route_to_edge(width, height, source, target, rng)
    arms = _route_arms(path, nb, n)
    shapes = [0] * n
    solution = [0] * n
    on_route = set(path)
    for t in range(n):
        if t in on_route:
            shapes[t], solution[t] = shape_of_mask(arms[t])
        elif holes:
            shapes[t] = HOLE
        else:
            shapes[t] = _DECOY_SHAPES[rng.randrange(len(_DECOY_SHAPES))]
            solution[t] = rng.randrange(4)
    sink = path[-1]
    cross_tiles = [t for t in on_route if shapes[t] == CROSS]
    meta: dict[str, object] = {
        "coverage_target": coverage,
        "coverage": len(on_route) / n,
        "route": len(path),
    }
    if crosses > 0:
        meta["crosses"] = len(cross_tiles)
    if holes:
        meta["holes"] = True
    return Board(
        width,
        height,
        source,
        shapes,
        list(solution),
        solution,
        None,
        "walk",
        meta,
        mode="sink",
        sink=(sink % width, sink // width),
        fixed=frozenset((path[0], sink, *cross_tiles)),
    )


def sink_shuffle(board: Board, rng: random.Random, rounds: int = 100) -> None:
    """Turn every tile that is not fixed (nor a hole) at random; re-roll while water reaches
    the sink."""
    free = [t for t in range(board.size) if t not in board.fixed and board.shapes[t] != HOLE]
    for _ in range(rounds):
        for t in free:
            board.rotations[t] = rng.randrange(4)
        if not sink_reached(board):
            return
    for t in free:  # pragma: no cover - only when every rotation reaches the sink
        board.rotations[t] = (board.solution[t] + 1) & 3


def _clicks(board: Board) -> list[list[int]]:
    """``table[t][need]``: fewest clockwise clicks turning t to a rotation whose arms include
    ``need`` (_INF when none does; a fixed tile only counts its current rotation, a cross or a
    hole its one distinct rotation)."""
    out: list[list[int]] = []
    for t, (s, r) in enumerate(zip(board.shapes, board.rotations, strict=True)):
        row = [_INF] * 16
        for k in range(1 if t in board.fixed else distinct_rotations(s)):
            m = mask_of(s, (r + k) & 3)
            sub = m
            while True:
                if k < row[sub]:
                    row[sub] = k
                if sub == 0:
                    break
                sub = (sub - 1) & m
        out.append(row)
    return out


def _relaxed(board: Board, clicks: Sequence[Sequence[int]]) -> list[int]:
    """``dist[4 t + e]``: fewest clicks from "water enters t through its side e" to the sink,
    t included, over paths that may pass a tile twice (a lower bound for simple paths)."""
    n = board.size
    nb = neighbour_table(board.width, board.height)
    sink = board.index(*board.sink) if board.sink is not None else -1
    src = board.source_index
    cross = [s == CROSS for s in board.shapes]
    dist = [_INF] * (4 * n)
    heap: list[tuple[int, int]] = []
    for e in range(4):
        c = clicks[sink][1 << e]
        if c < _INF and nb[4 * sink + e] >= 0:
            dist[4 * sink + e] = c
            heap.append((c, 4 * sink + e))
    heapq.heapify(heap)
    while heap:
        dv, key = heapq.heappop(heap)
        if dv != dist[key]:
            continue
        t, e = key >> 2, key & 3
        p = nb[4 * t + e]  # the tile the water came from, leaving it through side e ^ 2
        if p < 0 or p == src or p == sink:
            continue
        out = 1 << (e ^ 2)
        row = clicks[p]
        for e2 in range(4):
            if e2 == e ^ 2 or nb[4 * p + e2] < 0 or (cross[p] and e2 != e):
                continue  # a cross passes water straight through only
            c = row[out | 1 << e2]
            if c < _INF and dv + c < dist[4 * p + e2]:
                dist[4 * p + e2] = dv + c
                heapq.heappush(heap, (dv + c, 4 * p + e2))
    return dist


def _search(board: Board, budget: int) -> tuple[int, bool, int, list[tuple[int, int]]]:
    """(clicks, exact, lower bound, route as (tile, arms needed)) of the cheapest route."""
    if board.sink is None:
        raise ValueError("sink: the board has no sink")
    n = board.size
    nb = neighbour_table(board.width, board.height)
    clicks = _clicks(board)
    dist = _relaxed(board, clicks)
    src, sink = board.source_index, board.index(*board.sink)
    src_mask = board.mask(src)
    starts = [
        (dist[4 * nb[4 * src + d] + (d ^ 2)], nb[4 * src + d], d ^ 2)
        for d in range(4)
        if src_mask >> d & 1 and nb[4 * src + d] >= 0
    ]
    root = min((f for f, _, _ in starts), default=_INF)
    if root >= _INF:
        raise ValueError("board: the sink cannot be reached")
    best = _INF
    best_route: list[tuple[int, int]] = []
    cross = [s == CROSS for s in board.shapes]
    # Per tile, the pieces on the path: bit 0 a cross's N-S, bit 1 its E-W; 3 any other tile.
    on_path = bytearray(n)
    on_path[src] = 3

    def piece(t: int, e: int) -> int:
        """The on_path bits of tile t entered through side e."""
        return 1 << (e & 1) if cross[t] else 3

    route: list[tuple[int, int]] = []  # (tile, arms) of the tiles entered so far
    # Frames: (g before the tile, tile, side entered, options still to try, best first last).
    frames: list[tuple[int, int, int, list[tuple[int, int, int]]]] = []
    nodes = 0
    pending = _INF

    def enter(g: int, t: int, e: int) -> None:
        """Put tile t (entered through side e, g clicks so far) on the path and open it."""
        nonlocal best, best_route
        on_path[t] |= piece(t, e)
        if t == sink:
            route.append((t, 1 << e))
            if g < best:
                best, best_route = g, route[:]
            frames.append((g, t, e, []))
            return
        opts: list[tuple[int, int, int]] = []
        row = clicks[t]
        for d in range(4):
            u = nb[4 * t + d]
            if u < 0 or d == e or on_path[u] & piece(u, d ^ 2) or (cross[t] and d != e ^ 2):
                continue  # a cross passes water straight through only
            c = row[1 << e | 1 << d]
            if c >= _INF:
                continue
            f = g + c + dist[4 * u + (d ^ 2)]
            if f < best:
                opts.append((f, d, c))
        opts.sort(reverse=True)  # cheapest popped first
        route.append((t, 1 << e))
        frames.append((g, t, e, opts))

    starts.sort(reverse=True)
    while starts:
        f, t, e = starts.pop()
        if f >= best:
            break
        if nodes >= budget and best < _INF:
            pending = min(pending, f)
            break
        enter(0, t, e)
        while frames:
            g, t, e, opts = frames[-1]
            if opts and opts[-1][0] >= best:
                opts.clear()
            if not opts:
                frames.pop()
                route.pop()
                on_path[t] &= ~piece(t, e)
                continue
            if nodes >= budget and best < _INF:  # out of budget: keep the first route found
                pending = min(pending, min(o[0] for o in opts))
                frames.pop()
                route.pop()
                on_path[t] &= ~piece(t, e)
                continue
            if nodes >= 5 * budget + 1000:  # no route yet, long past the budget
                frames.clear()
                starts.clear()
                pending = root
                break
            f, d, c = opts.pop()
            nodes += 1
            route[-1] = (t, 1 << e | 1 << d)
            enter(g + c, nb[4 * t + d], d ^ 2)
    for f, _, _ in starts:
        pending = min(pending, f)
    if nodes > budget:  # cut short: the solution's own route may still be cheaper
        own = _solution_route(board, clicks)
        cost = sum(clicks[t][need] for t, need in own) if own else _INF
        if cost < best:
            best, best_route = cost, own
    if best >= _INF:
        raise ValueError("board: the sink cannot be reached")
    exact = pending >= best
    return best, exact, best if exact else max(root, min(pending, best)), best_route


def _solution_route(board: Board, clicks: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """The route the board's solution rotations give (a breadth-first path of pieces from the
    source to the sink through facing arms, straight through crosses) as (tile, arms needed),
    or [] when the solution is dry."""
    from .crossing import piece_arms

    if board.sink is None:
        return []
    nb = neighbour_table(board.width, board.height)
    masks = [mask_of(s, r) for s, r in zip(board.shapes, board.solution, strict=True)]
    arms = piece_arms(board.shapes, masks)
    cross = [s == CROSS for s in board.shapes]

    def piece(u: int, side: int) -> int:
        return 2 * u + (side & 1 if cross[u] else 0)

    src, sink = 2 * board.source_index, 2 * board.index(*board.sink)
    came = {src: -1}
    queue = [src]
    for p in queue:
        if p == sink:
            break
        for d in range(4):
            u = nb[4 * (p >> 1) + d]
            if not arms[p] >> d & 1 or u < 0:
                continue
            q = piece(u, d ^ 2)
            if q not in came and arms[q] >> (d ^ 2) & 1:
                came[q] = d ^ 2  # the side of u the water enters by
                queue.append(q)
    if sink not in came:
        return []
    route: list[tuple[int, int]] = []
    p, out = sink, 0
    while p != src:
        e = came[p]
        route.append((p >> 1, 1 << e | out))
        out = 1 << (e ^ 2)
        u = nb[4 * (p >> 1) + e]
        p = piece(u, e ^ 2)
    route.reverse()
    if any(clicks[t][need] >= _INF for t, need in route):  # pragma: no cover - fixed tiles hold
        return []
    return route


def _rotation_with(board: Board, t: int, need: int) -> int:
    """The rotation of t fewest clockwise clicks away that has the arms ``need``."""
    r0 = board.rotations[t]
    for k in range(4):
        r = (r0 + k) & 3
        if mask_of(board.shapes[t], r) & need == need:
            return r
    raise ValueError(f"tile {t}: cannot show arms {need}")


def sink_route(board: Board, budget: int = SINK_PAR_BUDGET) -> list[tuple[int, int]]:
    """The cheapest route found: (tile, rotation) from the tile after the source to the sink."""
    _, _, _, route = _search(board, budget)
    return [(t, _rotation_with(board, t, need)) for t, need in route]


def sink_par_report(board: Board, budget: int = SINK_PAR_BUDGET) -> Par:
    """Fewest clicks until water reaches the sink (exact within the budget, else a bound);
    ``masks`` are the arms after those clicks. ValueError when the sink cannot be reached."""
    clicks, exact, lower, route = _search(board, budget)
    masks = [board.mask(t) for t in range(board.size)]
    for t, need in route:
        masks[t] = mask_of(board.shapes[t], _rotation_with(board, t, need))
    return Par(clicks, exact, lower, masks)


def sink_par(board: Board) -> int:
    """Fewest clicks until water reaches the sink (see :func:`sink_par_report`)."""
    return sink_par_report(board).clicks


def sink_hint(board: Board, budget: int = SINK_PAR_BUDGET) -> tuple[int, int] | None:
    """The next tile to turn and its rotation, or None when water reaches the sink already.

    Greedy from the source: along the cheapest route found, the first tile that does not pass the
    water on yet (every tile before it is wet, so it is the one that extends the water towards
    the sink). Following the hints reaches the sink in par clicks.
    """
    if sink_reached(board):
        return None
    for t, r in sink_route(board, budget):
        if r != board.rotations[t]:
            return t, r
    return None  # pragma: no cover - a route of right tiles means the sink is wet


@dataclass(frozen=True, slots=True)
class RouteProgress:
    """How far the water got along the generating route (docs/puzzle.md, "Route progress").

    ``reached`` of the route's ``length`` steps carry water (the source counts as one, a cross
    as one per pass); ``connectivity`` is ``reached / length``, plus one once the sink is wet."""

    reached: int
    length: int
    sink: bool

    @property
    def connectivity(self) -> float:
        """The reached share of the route, plus one when the sink is reached (0 .. 2)."""
        return self.reached / self.length + (1 if self.sink else 0)

    def as_json(self) -> dict[str, int | bool | float]:
        """As `pipesctl status --json` and the web page's `/rooms.json` give it."""
        return {
            "reached": self.reached,
            "length": self.length,
            "sink": self.sink,
            "connectivity": round(self.connectivity, 4),
        }


def route_steps(board: Board) -> list[tuple[int, int]]:
    """The generating route as (tile, side the water enters by; -1 for the source), from the
    source to the sink: followed along the solution's arms (straight through a cross). [] when
    the solution's arms do not make such a route (a board not built by ``sink_board``)."""
    if board.sink is None:
        return []
    nb = neighbour_table(board.width, board.height)
    sink = board.index(*board.sink)
    t = board.source_index
    arms = board.solved_mask(t)
    steps = [(t, -1)]
    for _ in range(2 * board.size):
        if arms & (arms - 1) or not arms:
            return []
        d = arms.bit_length() - 1
        u = nb[4 * t + d]
        e = d ^ 2
        if u < 0 or not board.solved_mask(u) >> e & 1:
            return []
        steps.append((u, e))
        if u == sink:
            return steps
        t = u
        arms = 1 << (e ^ 2) if board.shapes[u] == CROSS else board.solved_mask(u) & ~(1 << e)
    return []


def route_progress(
    board: Board,
    classes: Sequence[int],
    axes: Sequence[int] = (),
    steps: Sequence[tuple[int, int]] | None = None,
) -> RouteProgress | None:
    """The route progress for these tile classes (and a cross's wet ``axes``, bit 0 N-S, bit 1
    E-W); None when the board has no generating route. ``steps`` saves the walk of
    :func:`route_steps` when given."""
    route = route_steps(board) if steps is None else steps
    if not route:
        return None
    dry = int(TileClass.DRY)
    reached = 0
    for t, e in route:
        if board.shapes[t] == CROSS and axes:
            reached += axes[t] >> (e & 1) & 1
        else:
            reached += classes[t] != dry
    sink = route[-1][0]
    return RouteProgress(reached, len(route), classes[sink] != dry)
