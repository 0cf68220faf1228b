"""Benchmark: the paint puzzle's solver, par, hints, generators and nearest target; markdown.

Run: ``.venv/bin/python -m bench.paint [--seeds N]``. Targets come from the ``strokes``
generator (paintable, with the par named) and from random cells (almost never paintable).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import deque
from collections.abc import Callable

from controller.puzzle.paint.generators import generate, max_par, walk_cells
from controller.puzzle.paint.model import Canvas
from controller.puzzle.paint.solver import (
    completion,
    hint,
    is_solvable,
    nearest_solvable,
    par,
    solve,
)

__all__ = ["main"]


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    """Seconds as µs or ms."""
    return f"{seconds * 1e6:.0f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def random_canvas(w: int, h: int, rng: random.Random) -> Canvas:
    return Canvas(w, h, tuple(rng.getrandbits(w) for _ in range(h)))


def solver_table(seeds: int) -> None:
    print("| size | target | par | `par` | `solve` | `completion` from a random canvas | `hint` |")
    print("|---|---|---|---|---|---|---|")
    for n in (32, 128):
        cases: list[tuple[str, list[Canvas]]] = [
            (
                f"strokes, par {p}",
                [generate(n, n, seed=s, generator="strokes", par=p).target for s in range(seeds)],
            )
            for p in (n, max_par(n, n))
        ]
        rng = random.Random(n)
        cases.append(("random cells", [random_canvas(n, n, rng) for _ in range(seeds)]))
        for name, targets in cases:
            canvases = [random_canvas(n, n, rng) for _ in targets]
            pars = {par(t) for t in targets}
            t_par = statistics.median(timed(lambda t=t: par(t), 20) for t in targets)
            t_solve = statistics.median(timed(lambda t=t: solve(t), 5) for t in targets)
            t_comp = statistics.median(
                timed(lambda t=t, c=c: completion(t, c), 5)
                for t, c in zip(targets, canvases, strict=True)
            )
            hints = [
                timed(lambda t=t, c=c: hint(t, c), 5)
                for t, c in zip(targets, canvases, strict=True)
                if completion(t, c) is not None
            ]
            shown = "unpaintable" if pars == {None} else "/".join(str(p) for p in sorted(pars))
            print(
                f"| {n}x{n} | {name} | {shown} | {fmt(t_par)} | {fmt(t_solve)} | {fmt(t_comp)} "
                f"| {fmt(statistics.median(hints)) if hints else 'n/a (unreachable)'} |"
            )


def walk_table(walks: int) -> None:
    sizes = (8, 16, 32, 128)
    lengths = (4, 8, 16, 32, 64)
    print(f"Share of random walks that are paintable ({walks} walks per cell):\n")
    print("| cells | " + " | ".join(f"{n}x{n}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for cells in lengths:
        row = []
        for n in sizes:
            if cells > n * n // 2:
                row.append("–")
                continue
            rng = random.Random(cells * 1000 + n)
            ok = sum(is_solvable(walk_cells(n, n, cells, rng)) for _ in range(walks))
            row.append(f"{100 * ok / walks:.1f} %")
        print(f"| {cells} | " + " | ".join(row) + " |")


def generate_table(seeds: int) -> None:
    print("| generator | size | generate, median | walks tried, median (max) | par, median |")
    print("|---|---|---|---|---|")
    for gen in ("walk", "strokes"):
        for n in (8, 32, 128):
            times, tried, pars = [], [], []
            for s in range(seeds):
                t0 = time.perf_counter()
                puzzle = generate(n, n, seed=s, generator=gen)
                times.append(time.perf_counter() - t0)
                pars.append(puzzle.par)
                walks = puzzle.meta.get("walks_tried")
                if isinstance(walks, int):
                    tried.append(walks)
            walks_text = f"{statistics.median(tried):.0f} ({max(tried)})" if tried else "–"
            print(
                f"| {gen} | {n}x{n} | {fmt(statistics.median(times))} | {walks_text} "
                f"| {statistics.median(pars):.0f} |"
            )


def _reachable(w: int, h: int) -> list[int]:
    """Every canvas paintable from blank, as W*H-bit integers (BFS)."""
    every = (1 << (w * h)) - 1
    table = [(((1 << w) - 1) << (j * w), every) for j in range(h)]
    table += [(0, every & ~sum(1 << (j * w + i) for j in range(h))) for i in range(w)]
    seen = {0}
    queue = deque([0])
    while queue:
        c = queue.popleft()
        for add, keep in table:
            n = (c | add) & keep
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return list(seen)


def nearest_table(samples: int) -> None:
    w = h = 4
    reach = _reachable(w, h)
    rng = random.Random(0)
    worse = excess = flips = 0
    for _ in range(samples):
        target = random_canvas(w, h, rng)
        value = sum(r << (j * w) for j, r in enumerate(target.rows))
        best = min((value ^ x).bit_count() for x in reach)
        got = len(target.diff(nearest_solvable(target)))
        flips += best
        worse += got > best
        excess += got - best
    print(
        f"Nearest paintable target on {samples} random 4x4 targets against the exact nearest "
        f"(over all {len(reach)} paintable 4x4 canvases): {worse} worse, {excess} cells more "
        f"than the {flips} cells of the exact answers in total. Every target up to 3x3 gets "
        "the exact nearest (checked exhaustively in the tests).\n"
    )
    print("| size | target | cells flipped, median | `nearest_solvable`, median |")
    print("|---|---|---|---|")
    for n in (32, 128):
        kinds: list[tuple[str, Callable[[random.Random], Canvas]]] = [
            ("random cells", lambda r, n=n: random_canvas(n, n, r)),
            ("walk of n*n/8 cells", lambda r, n=n: walk_cells(n, n, n * n // 8, r)),
        ]
        for name, make in kinds:
            targets = [make(random.Random(s)) for s in range(3)]
            changed = [len(t.diff(nearest_solvable(t))) for t in targets]
            t_near = statistics.median(timed(lambda t=t: nearest_solvable(t), 1) for t in targets)
            print(
                f"| {n}x{n} | {name} | {statistics.median(changed):.0f} of {n * n} "
                f"| {fmt(t_near)} |"
            )


def main() -> None:
    """Print the markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--walks", type=int, default=2000)
    args = ap.parse_args()
    solver_table(args.seeds)
    print()
    generate_table(args.seeds)
    print()
    walk_table(args.walks)
    print()
    nearest_table(1000)


if __name__ == "__main__":
    main()
