"""Spanning-tree puzzle generators: prim (Net-style), eller, walk and growing_tree.

Every generator builds a spanning tree of the W x H grid as per-tile arm masks (bit d set when the
tile links to its neighbour in direction d) and never gives a tile a 4th arm: crosses are not part
of the world format. All of them are deterministic for the same seed and parameters.

Why growth never gets stuck (Simon Tatham's argument in Net's ``new_game_desc``): suppose a tree
with at most 3 arms per tile cannot grow. Every tree tile next to an untouched region then has 3
arms pointing away from it, so it is an interior tile linked to all its other neighbours; walking
around the region, those tiles are linked to one another and close a loop, which a tree cannot
have. The argument holds for any starting subtree, so it covers ``prim``, the growth phase of
``walk`` and ``growing_tree`` alike; the tests check it over many seeds and sizes anyway.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from controller.puzzle.deduce import LOOP, neighbour_table
from controller.puzzle.model import MAX_SIZE, MIN_SIZE, Board, shape_of_mask
from controller.puzzle.shuffle import shuffle
from controller.puzzle.sink import MODES, sink_board, sink_shuffle
from controller.puzzle.solver import LOCAL_RULES, deduced, make_unique, make_unique_by_search

__all__ = [
    "GENERATORS",
    "DIFFICULTIES",
    "MODES",
    "DEFAULT_BRANCHING",
    "DEFAULT_COVERAGE",
    "TreeStuck",
    "GeneratorParams",
    "check_size",
    "tree_prim",
    "tree_eller",
    "tree_walk",
    "walk_route",
    "tree_growing",
    "board_from_arms",
    "build_tree",
    "generate",
]

GENERATORS: tuple[str, ...] = ("prim", "eller", "walk", "growing_tree")
DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard", "expert")
"""Levels of a unique board (docs/puzzle.md): easy = the local rules solve it; normal = the full
deduction (Net's rules and the island rule) solves it; hard = the full deduction solves it but
the local rules with loop avoidance do not; expert = one solution that deduction alone does not
find (search needed)."""
DEFAULT_BRANCHING = 0.5
DEFAULT_COVERAGE = 0.6

_POP = (0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4)  # arms per mask


def _mask_table(part: int) -> tuple[int, ...]:
    """Per arm mask, the pipe shape (part 0) or smallest rotation (part 1) showing it; -1 for
    none (no arms, or four: a tree has no crosses)."""
    out = []
    for m in range(16):
        try:
            out.append(shape_of_mask(m)[part] if m != 15 else -1)
        except KeyError:
            out.append(-1)
    return tuple(out)


_SHAPE_OF_MASK = _mask_table(0)
_ROTATION_OF_MASK = _mask_table(1)


class TreeStuck(RuntimeError):
    """Growth found no legal edge before the tree spanned the board (never expected)."""


def _neighbours(width: int, height: int) -> list[int]:
    """Flat table ``nb[cell * 4 + d]``: the neighbour in direction d, or -1 off the board (shared
    and cached: never modify it)."""
    return neighbour_table(width, height)


def check_size(width: object, height: object) -> tuple[int, int]:
    """Return (width, height) or raise ValueError naming the one not an int in 3..128."""
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: must be an integer, got {value!r}")
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise ValueError(f"{name}: must be {MIN_SIZE}..{MAX_SIZE}, got {value}")
    assert isinstance(width, int) and isinstance(height, int)
    return width, height


def _check_unit(name: str, value: object) -> float:
    """Return value as a float in [0, 1] or raise ValueError naming the knob."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name}: must be a number in [0, 1], got {value!r}")
    f = float(value)
    if not 0.0 <= f <= 1.0:  # also rejects NaN
        raise ValueError(f"{name}: must be in [0, 1], got {value}")
    return f


@dataclass(frozen=True, slots=True)
class GeneratorParams:
    """Everything that shapes a generated board besides its size and seed.

    Checked on construction: a bad field raises ValueError whose message starts with its name
    (``branching: must be in [0, 1], got 1.5``). ``source`` is checked against the board size
    by :meth:`source_for` (``None`` means the centre).
    """

    generator: str = "prim"
    """Tree generator, one of ``GENERATORS``."""
    branching: float = DEFAULT_BRANCHING
    """``growing_tree``: 0 long corridors .. 1 bushy."""
    coverage: float = DEFAULT_COVERAGE
    """``walk``: share of tiles on the long route."""
    unique: bool = True
    """Repair the tree until its puzzle has exactly one solution."""
    source: tuple[int, int] | None = None
    """The source tile (i, j); ``None`` for the default."""
    difficulty: str = "normal"
    """One of ``DIFFICULTIES``; anything but ``normal`` needs ``unique``."""
    mode: str = "tree"
    """``tree`` (connect every tile) or ``sink`` (a route from the source to a sink on the
    edge among decoys, from the ``walk`` route with ``coverage``; ``generator``, ``unique`` and
    ``difficulty`` play no part)."""
    crosses: float = 0.0
    """Sink mode: the chance that the route crosses itself where it can (a cross piece; 0 keeps
    a seed's board as it was without crosses)."""
    holes: bool = False
    """Sink mode: the tiles off the route are holes (no piece) instead of decoys."""

    def __post_init__(self) -> None:
        self.validate()
        object.__setattr__(self, "branching", float(self.branching))
        object.__setattr__(self, "coverage", float(self.coverage))
        object.__setattr__(self, "crosses", float(self.crosses))
        if self.source is not None:
            object.__setattr__(self, "source", (int(self.source[0]), int(self.source[1])))

    def validate(self) -> None:
        """Raise ValueError naming the first bad field (the size-independent checks)."""
        if self.generator not in GENERATORS:
            raise ValueError(
                f"generator: unknown {self.generator!r}, expected one of {', '.join(GENERATORS)}"
            )
        _check_unit("branching", self.branching)
        _check_unit("coverage", self.coverage)
        _check_unit("crosses", self.crosses)
        if not isinstance(self.holes, bool):
            raise ValueError(f"holes: must be true or false, got {self.holes!r}")
        if self.mode != "sink" and (self.crosses or self.holes):
            raise ValueError("crosses: crosses and holes are sink-mode pieces (mode: sink)")
        if not isinstance(self.unique, bool):
            raise ValueError(f"unique: must be true or false, got {self.unique!r}")
        if self.difficulty not in DIFFICULTIES:
            levels = ", ".join(DIFFICULTIES)
            raise ValueError(f"difficulty: unknown {self.difficulty!r}, expected one of {levels}")
        if self.difficulty != "normal" and not self.unique:
            raise ValueError(f"difficulty: {self.difficulty} needs unique boards")
        if self.mode not in MODES:
            raise ValueError(f"mode: unknown {self.mode!r}, expected one of {', '.join(MODES)}")
        if self.mode == "sink" and self.difficulty != "normal":
            raise ValueError(f"difficulty: {self.difficulty} applies to tree boards, not sink mode")
        src = self.source
        if src is not None and (
            not isinstance(src, tuple | list)
            or len(src) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in src)
        ):
            raise ValueError(f"source: must be a pair of integers (i, j), got {src!r}")

    def source_for(self, width: int, height: int) -> tuple[int, int]:
        """The source tile on a board of this size; ValueError naming source when outside."""
        if self.source is None:
            return width // 2, height // 2
        si, sj = self.source
        if not (0 <= si < width and 0 <= sj < height):
            raise ValueError(f"source: ({si}, {sj}) is outside the {width}x{height} board")
        return si, sj


def _grow_frontier(
    width: int, height: int, arms: list[int], in_tree: list[bool], rng: random.Random
) -> None:
    """Net's growth: add random frontier edges until the tree spans; a tile never gets 4 arms.

    A possibility is an edge from a tree tile with < 3 arms to a tile outside the tree, stored as
    ``cell * 4 + d`` in a list with an index table so removal is O(1) (written out inline: this
    loop runs once per tile).
    """
    nb = _neighbours(width, height)
    poss: list[int] = []
    where = [-1] * (width * height * 4)
    n = width * height
    remaining = n
    for c in range(n):
        if in_tree[c]:
            remaining -= 1
            if _POP[arms[c]] < 3:
                for d in range(4):
                    m = nb[c * 4 + d]
                    if m >= 0 and not in_tree[m]:
                        where[c * 4 + d] = len(poss)
                        poss.append(c * 4 + d)
    bits = rng.getrandbits
    append = poss.append
    pop = poss.pop
    arm_count = _POP
    into, out = _frontier_tables(width, height)
    while remaining:
        size = len(poss)
        if not size:
            raise TreeStuck(f"frontier growth stuck with {remaining} tiles left")
        # rng.randrange(size), drawing the same bits: bit_length bits until one fits.
        k = size.bit_length()
        r = bits(k)
        while r >= size:
            r = bits(k)
        p = poss[r]
        u = p >> 2
        v = nb[p]
        arms[u] |= 1 << (p & 3)
        arms[v] |= 1 << ((p & 3) ^ 2)
        in_tree[v] = True
        remaining -= 1
        for q in into[v]:  # nothing may point into v any more
            k = where[q]
            if k >= 0:
                last = pop()
                if last != q:
                    poss[k] = last
                    where[last] = k
                where[q] = -1
        if arm_count[arms[u]] == 3:  # u's 4th possibility goes: no crosses
            for q in range(u * 4, u * 4 + 4):
                k = where[q]
                if k >= 0:
                    last = pop()
                    if last != q:
                        poss[k] = last
                        where[last] = k
                    where[q] = -1
        for q, x in out[v]:
            if not in_tree[x]:
                where[q] = len(poss)
                append(q)


_FRONTIER_CACHE: dict[
    tuple[int, int], tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]
] = {}


def _frontier_tables(
    width: int, height: int
) -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]:
    """Per tile v, the possibilities ``w * 4 + d`` of its neighbours that point into v, and its
    own ones ``v * 4 + e`` that point onto the board with the tile each points at, in direction
    order (cached by size)."""
    key = (width, height)
    got = _FRONTIER_CACHE.get(key)
    if got is None:
        nb = _neighbours(width, height)
        n = width * height
        into = [
            tuple(nb[4 * v + e] * 4 + (e ^ 2) for e in range(4) if nb[4 * v + e] >= 0)
            for v in range(n)
        ]
        out = [
            tuple((4 * v + e, nb[4 * v + e]) for e in range(4) if nb[4 * v + e] >= 0)
            for v in range(n)
        ]
        got = _FRONTIER_CACHE[key] = (into, out)
    return got


def tree_prim(width: int, height: int, source: tuple[int, int], rng: random.Random) -> list[int]:
    """Random frontier-edge growth from the source (Simon Tatham's Net); arm masks per tile."""
    n = width * height
    arms = [0] * n
    in_tree = [False] * n
    in_tree[source[1] * width + source[0]] = True
    _grow_frontier(width, height, arms, in_tree, rng)
    return arms


def tree_eller(width: int, height: int, rng: random.Random) -> list[int]:
    """Eller's row-by-row algorithm, O(width) working state, at most 3 arms per tile.

    Within a row, the two ends of every horizontal run have at most 2 arms (north and one side),
    so each set always has a tile that may link south; tiles with north, east and west arms never
    do. The last row joins every pair of adjacent different sets, which leaves one tree.
    """
    arms = [0] * (width * height)
    sets = list(range(width))  # set label of each column in the current row
    next_label = width
    for j in range(height):
        base = j * width
        last = j == height - 1
        for i in range(width - 1):
            a, b = sets[i], sets[i + 1]
            if a != b and (last or rng.random() < 0.5):
                arms[base + i] |= 2  # east
                arms[base + i + 1] |= 8  # west
                for k in range(width):
                    if sets[k] == b:
                        sets[k] = a
        if last:
            break
        groups: dict[int, list[int]] = {}
        for i in range(width):
            groups.setdefault(sets[i], []).append(i)
        below = [-1] * width
        for label, cols in groups.items():
            eligible = [i for i in cols if _POP[arms[base + i]] < 3]
            if not eligible:  # impossible by the run-end argument above
                raise TreeStuck(f"eller: set {label} in row {j} cannot continue south")
            first = rng.randrange(len(eligible))
            for k, i in enumerate(eligible):
                if k == first or rng.random() < 0.3:
                    arms[base + i] |= 4  # south
                    arms[base + width + i] |= 1  # north
                    below[i] = label
        for i in range(width):
            if below[i] < 0:
                below[i] = next_label
                next_label += 1
        sets = below
    return arms


def walk_route(
    width: int, height: int, source: tuple[int, int], target: int, rng: random.Random
) -> list[int]:
    """A random self-avoiding route from source (flat tile indices), grown to ``target`` tiles.

    The free end extends by Warnsdorff's rule (the free neighbour with the fewest onward free
    neighbours, plus random noise). When it is stuck it either makes a "backbite" move (join the
    end to a route neighbour m and reverse the part after m: the end moves, the source stays,
    the tiles covered stay the same), preferring moves whose new end can extend, or now and then
    backtracks by dropping a few tiles off the end, so the covered set can change too. Work is
    bounded per attempt, with a few fresh attempts; if the target is never reached (e.g. 1.0
    where grid parity forbids it) the longest route seen is returned.
    """
    n = width * height
    nb = _neighbours(width, height)
    start = source[1] * width + source[0]
    best = [start]
    for _attempt in range(6):
        path = _walk_attempt(nb, n, start, target, rng, 200 * n + 2000)
        if len(path) > len(best):
            best = path
        if len(best) >= target:
            break
    return best


def _walk_attempt(
    nb: list[int], n: int, start: int, target: int, rng: random.Random, budget: int
) -> list[int]:
    """One attempt of :func:`walk_route` with a work budget."""
    pos = [-1] * n  # index on the route, -1 when off it
    path = [start]
    pos[start] = 0
    best = [start]
    work = 0

    def free_of(c: int) -> list[int]:
        out = []
        for d in range(4):
            m = nb[c * 4 + d]
            if m >= 0 and pos[m] < 0:
                out.append(m)
        return out

    def key(m: int) -> float:
        return len(free_of(m)) + rng.random()

    while len(path) < target and work < budget:
        work += 1
        end = path[-1]
        free = free_of(end)
        if free:
            nxt = min(free, key=key)
            pos[nxt] = len(path)
            path.append(nxt)
            continue
        if len(path) > len(best):
            best = list(path)
        prev = path[-2] if len(path) > 1 else -1
        opts = [nb[end * 4 + d] for d in range(4) if nb[end * 4 + d] not in (-1, prev)]
        good = [m for m in opts if free_of(path[pos[m] + 1])]
        if good:
            m = max(good, key=lambda x: pos[x])
        elif opts and rng.random() < 0.9:
            m = opts[rng.randrange(len(opts))]
        else:  # backtrack: drop up to sqrt(len) tiles off the end, never the source
            drop = 1 + rng.randrange(max(1, math.isqrt(len(path))))
            for _ in range(min(drop, len(path) - 1)):
                pos[path.pop()] = -1
            work += drop
            continue
        k = pos[m]
        seg = path[k + 1 :]
        seg.reverse()
        path[k + 1 :] = seg
        for t in range(k + 1, len(path)):
            pos[path[t]] = t
        work += len(seg)
    return path if len(path) > len(best) else best


def tree_walk(
    width: int, height: int, source: tuple[int, int], rng: random.Random, coverage: float
) -> tuple[list[int], float]:
    """One long self-avoiding route from the source, the rest attached by frontier growth.

    Returns the arm masks and the fraction of tiles on the route (``coverage`` is the target; if
    the bounded search cannot reach it, e.g. 1.0 where grid parity forbids it, the route grown so
    far is used and the returned fraction says so).
    """
    n = width * height
    nb = _neighbours(width, height)
    src = source[1] * width + source[0]
    target = max(1, math.ceil(coverage * n - 1e-9))
    path = walk_route(width, height, source, target, rng)
    arms = [0] * n
    in_tree = [False] * n
    in_tree[src] = True
    for a, b in zip(path, path[1:], strict=False):
        for d in range(4):
            if nb[a * 4 + d] == b:
                arms[a] |= 1 << d
                arms[b] |= 1 << ((d + 2) & 3)
        in_tree[b] = True
    _grow_frontier(width, height, arms, in_tree, rng)
    return arms, len(path) / n


def tree_growing(
    width: int, height: int, source: tuple[int, int], rng: random.Random, branching: float
) -> list[int]:
    """Growing Tree: each step extends the newest active tile, or a random one with probability
    ``branching`` (0: long corridors, a recursive backtracker; 1: bushy, Prim on cells)."""
    n = width * height
    nb = _neighbours(width, height)
    arms = [0] * n
    in_tree = [False] * n
    src = source[1] * width + source[0]
    in_tree[src] = True
    active = [src]
    remaining = n - 1
    while remaining:
        if not active:
            raise TreeStuck(f"growing_tree stuck with {remaining} tiles left")
        k = rng.randrange(len(active)) if rng.random() < branching else len(active) - 1
        c = active[k]
        free = [d for d in range(4) if nb[c * 4 + d] >= 0 and not in_tree[nb[c * 4 + d]]]
        if not free or _POP[arms[c]] >= 3:
            active.pop(k)
            continue
        d = free[rng.randrange(len(free))]
        m = nb[c * 4 + d]
        arms[c] |= 1 << d
        arms[m] |= 1 << ((d + 2) & 3)
        in_tree[m] = True
        remaining -= 1
        if _POP[arms[c]] >= 3:
            active.pop(k)
        active.append(m)
    return arms


def board_from_arms(
    width: int,
    height: int,
    source: tuple[int, int],
    arms: list[int],
    *,
    seed: int | None = None,
    generator: str = "prim",
    meta: dict[str, object] | None = None,
) -> Board:
    """A Board whose solution has these arms; rotations start equal to the solution."""
    try:
        shapes = [_SHAPE_OF_MASK[m] for m in arms]
        solution = [_ROTATION_OF_MASK[m] for m in arms]
    except (IndexError, TypeError):
        shapes = [-1]
    if -1 in shapes or (arms and min(arms) < 0):
        idx = next(t for t, m in enumerate(arms) if not 0 <= m < 16 or _SHAPE_OF_MASK[m] < 0)
        i, j = idx % width, idx // width
        raise ValueError(f"arms: tile ({i}, {j}) has mask {arms[idx]:#06b}, not a pipe")
    return Board(
        width,
        height,
        source,
        shapes,
        list(solution),
        solution,
        seed,
        generator,
        dict(meta or {}),
    )


def build_tree(
    width: int,
    height: int,
    *,
    seed: int | None,
    params: GeneratorParams = GeneratorParams(),
    rng: random.Random | None = None,
) -> Board:
    """The generator's spanning tree as an unshuffled Board (rotations == solution)."""
    check_size(width, height)
    src = params.source_for(width, height)
    r = rng if rng is not None else random.Random(seed)
    meta: dict[str, object] = {}
    generator = params.generator
    if generator == "prim":
        arms = tree_prim(width, height, src, r)
    elif generator == "eller":
        arms = tree_eller(width, height, r)
    elif generator == "walk":
        arms, got = tree_walk(width, height, src, r, params.coverage)
        meta["coverage_target"] = params.coverage
        meta["coverage"] = got
    else:
        arms = tree_growing(width, height, src, r, params.branching)
        meta["branching"] = params.branching
    return board_from_arms(width, height, src, arms, seed=seed, generator=generator, meta=meta)


def generate(
    width: int,
    height: int,
    *,
    seed: int | None,
    params: GeneratorParams = GeneratorParams(),
) -> Board:
    """Build a tree, make its solution unique when asked, then shuffle the rotations (in sink
    mode: a route to the sink among decoys, see ``controller.puzzle.sink``).

    ``params.unique`` runs :func:`controller.puzzle.solver.make_unique`, which may change the
    tree locally (``meta["coverage"]`` of ``walk`` describes the route before that repair).
    """
    rng = random.Random(seed)
    if params.mode == "sink":
        check_size(width, height)
        board = sink_board(
            width,
            height,
            params.source_for(width, height),
            params.coverage,
            rng,
            crosses=params.crosses,
            holes=params.holes,
        )
        board.seed = seed
        sink_shuffle(board, rng)
        return board
    board = build_tree(width, height, seed=seed, params=params, rng=rng)
    if params.unique and params.difficulty == "normal":
        make_unique(board, rng, check=False)
    elif params.unique:
        board = _make_level(board, width, height, seed, params, rng)
    board.rotations = list(board.solution)
    board.seed = seed
    board.generator = params.generator
    board.meta["unique"] = params.unique
    shuffle(board, rng)
    return board


LEVEL_ATTEMPTS = {"hard": 1000, "expert": 200}
"""Fresh trees :func:`generate` tries for a ``hard`` or ``expert`` board before it keeps the last
(``meta["difficulty_met"]`` is then false: tiny boards may have no such puzzle). About 3 % of
7×7 trees make a hard board, so 200 tries missed about once in 400 boards; an attempt costs
about 0.4 ms there, and hard boards get more common as boards grow."""


def _make_level(
    board: Board,
    width: int,
    height: int,
    seed: int | None,
    params: GeneratorParams,
    rng: random.Random,
) -> Board:
    """Repair the tree to a unique board of ``params.difficulty`` other than normal; for hard
    and expert, redraw the tree (same random stream) until one qualifies."""
    level = params.difficulty
    board.meta["difficulty"] = level
    if level == "easy":
        make_unique(board, rng, LOCAL_RULES, search=False, check=False)
        return board
    for attempt in range(LEVEL_ATTEMPTS[level]):
        if attempt:
            board = build_tree(width, height, seed=seed, params=params, rng=rng)
            board.meta["difficulty"] = level
        if level == "hard":
            met = make_unique(board, rng, check=False) and not deduced(board, LOOP)
        else:
            met = make_unique_by_search(board, rng)
        if met:
            return board
    if level == "expert":  # keep a unique board at least
        make_unique(board, rng, check=False)
    board.meta["difficulty_met"] = False
    return board
