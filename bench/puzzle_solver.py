"""Benchmark: unique generation (tree + make_unique), solver time and difficulty; markdown table.

Run: ``.venv/bin/python bench/puzzle_solver.py [--seeds N] [--sizes 31,64,128]``.
"Tree + make_unique" uses a local Net-style tree (random frontier edges, never a 4th arm), so it
measures the repair alone plus a ~linear tree step; "generate" is the engine's full
``generate(w, h, seed=...)`` (tree, make_unique, shuffle).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from controller.puzzle.generators import GENERATORS, GeneratorParams, generate
from controller.puzzle.model import DELTA, Board, shape_of_mask
from controller.puzzle.solver import count_solutions, difficulty, make_unique

__all__ = ["net_tree_board", "main"]


def net_tree_board(w: int, h: int, rng: random.Random) -> Board:
    """A Net-style spanning tree board (random frontier edges from the centre, <= 3 arms)."""
    n = w * h
    arms = [0] * n
    start = (h // 2) * w + w // 2
    in_tree = bytearray(n)
    in_tree[start] = 1
    frontier: list[tuple[int, int]] = []

    def push(t: int) -> None:
        i, j = t % w, t // w
        for d, (di, dj) in enumerate(DELTA):
            ni, nj = i + di, j + dj
            if 0 <= ni < w and 0 <= nj < h and not in_tree[nj * w + ni]:
                frontier.append((t, d))

    push(start)
    while frontier:
        k = rng.randrange(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        t, d = frontier.pop()
        i, j = t % w + DELTA[d][0], t // w + DELTA[d][1]
        u = j * w + i
        if in_tree[u] or bin(arms[t]).count("1") >= 3:
            continue
        arms[t] |= 1 << d
        arms[u] |= 1 << ((d + 2) % 4)
        in_tree[u] = 1
        push(u)
    shapes, sol = zip(*(shape_of_mask(m) for m in arms), strict=True)
    return Board(w, h, (w // 2, h // 2), list(shapes), list(sol), list(sol))


def main() -> None:
    """Print the markdown table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--sizes", default="15,31,64,128")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        "| size | tree + make_unique, median (max) | generate(prim), median (max) "
        "| changed tiles | count_solutions on unique | difficulty |"
    )
    print("|---|---|---|---|---|---|")
    for size in sizes:
        uniq: list[float] = []
        gen: list[float] = []
        solve_t: list[float] = []
        diffs: list[float] = []
        changed: list[int] = []
        for seed in range(args.seeds):
            rng = random.Random(seed)
            board = net_tree_board(size, size, rng)
            before = list(board.shapes)
            t0 = time.perf_counter()
            make_unique(board, rng)
            uniq.append(time.perf_counter() - t0)
            changed.append(sum(x != y for x, y in zip(before, board.shapes, strict=True)))
            t0 = time.perf_counter()
            count = count_solutions(board)
            solve_t.append(time.perf_counter() - t0)
            assert count == 1
            diffs.append(difficulty(board))
            t0 = time.perf_counter()
            generate(size, size, seed=seed)
            gen.append(time.perf_counter() - t0)

        def fmt(xs: list[float]) -> str:
            return f"{statistics.median(xs):.3f} s ({max(xs):.3f})" if xs else "n/a"

        print(
            f"| {size}x{size} | {fmt(uniq)} | {fmt(gen)} | {statistics.median(changed):.0f} "
            f"of {size * size} | {fmt(solve_t)} | {statistics.median(diffs):.2f} |"
        )
    print()
    print("| generator | size | generate, median (max) | difficulty, median |")
    print("|---|---|---|---|")
    for name in GENERATORS:
        for size in [s for s in sizes if s <= 64]:
            times: list[float] = []
            ds: list[float] = []
            for seed in range(args.seeds):
                t0 = time.perf_counter()
                board = generate(size, size, seed=seed, params=GeneratorParams(generator=name))
                times.append(time.perf_counter() - t0)
                ds.append(difficulty(board))
            print(
                f"| {name} | {size}x{size} | {statistics.median(times):.3f} s "
                f"({max(times):.3f}) | {statistics.median(ds):.2f} |"
            )


if __name__ == "__main__":
    main()
