"""Benchmark: full water-flow recompute vs. the incremental per-click update, and memory.

For each size (15, 31, 64, 128) it builds random no-cross spanning trees (Net's frontier rule,
local copy so the benchmark depends only on the engine's flow code) and measures:

- ``compute_flow`` on the solved board (every tile wet: the worst case) and on a shuffled board;
- ``PlayState.apply_rotation`` in three click patterns: random clicks on or next to the wet
  network of a shuffled board ("play"), a shuffled board solved tile by tile in BFS order from
  the source ("solve"), and turning a random tile of a solved board away and back ("solved");
  with the median and 90th percentile time, the median tiles visited per click and the share of
  clicks that re-ran BFS + bridges over the whole wet component; the tiles the closed-tile scans
  (dry loops and closed islands, ``controller.puzzle.closed``) visited per click and the share
  of clicks whose scans fell back to a whole-board pass;
- a click on the source tile of a solved board (64 and 128): ``compute_flow`` against the click
  as played (its incremental work is bounded and falls back to one whole-board pass) and against
  the incremental passes without that bound;
- memory of a board plus its play state at 128x128 (tracemalloc, after warm-up).

Prints markdown tables. Run: ``.venv/bin/python bench/puzzle_flow.py [--clicks 2000]``
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections import deque

from controller.puzzle.closed import closed_tiles
from controller.puzzle.flow import compute_flow
from controller.puzzle.model import Board, bit, opposite, shape_of_mask
from controller.puzzle.play import PlayState

__all__ = ["tree_board", "time_full", "time_clicks", "time_source_click", "main"]

SIZES = (15, 31, 64, 128)
_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


def tree_board(size: int, seed: int) -> Board:
    """A random no-cross spanning tree on a size x size board, source at the centre, solved."""
    rng = random.Random(seed)
    n = size * size
    masks = [0] * n
    centre = (size // 2) * size + size // 2
    used = bytearray(n)
    used[centre] = 1

    def options(v: int) -> list[tuple[int, int]]:
        i, j = v % size, v // size
        return [
            (v, d) for d, (di, dj) in enumerate(_DELTA) if 0 <= i + di < size and 0 <= j + dj < size
        ]

    frontier = options(centre)
    while frontier:
        k = rng.randrange(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        v, d = frontier.pop()
        di, dj = _DELTA[d]
        u = v + dj * size + di
        if used[u] or bin(masks[v]).count("1") >= 3:
            continue
        masks[v] |= bit(d)
        masks[u] |= bit(opposite(d))
        used[u] = 1
        frontier.extend(options(u))
    shapes, solution = zip(*(shape_of_mask(m) for m in masks), strict=True)
    return Board(
        size, size, (size // 2, size // 2), list(shapes), list(solution), list(solution), seed
    )


def shuffled(board: Board, seed: int) -> Board:
    """A copy with every tile turned at random."""
    rng = random.Random(seed)
    out = board.copy()
    out.rotations = [rng.randrange(4) for _ in out.rotations]
    return out


def time_full(board: Board, repeat: int) -> tuple[float, float]:
    """(median, best) seconds of one compute_flow."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        compute_flow(board)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def _bfs_order(board: Board) -> list[int]:
    """Tiles in BFS order from the source over the solution's connections."""
    solved = board.copy()
    solved.rotations = list(solved.solution)
    seen = {solved.source_index}
    order = [solved.source_index]
    todo = deque(order)
    while todo:
        v = todo.popleft()
        for d in range(4):
            if solved.connected(v, d):
                u = solved.neighbour(v, d)
                if u not in seen:
                    seen.add(u)
                    order.append(u)
                    todo.append(u)
    return order


def time_clicks(board: Board, pattern: str, clicks: int, seed: int) -> dict[str, float]:
    """Run a click pattern; median/p90 microseconds, median visited, recompute share."""
    rng = random.Random(seed)
    if pattern == "solved":
        board = board.copy()
        board.rotations = list(board.solution)
    else:
        board = shuffled(board, seed)
    state = PlayState(board)
    n = board.size
    adj = [[board.neighbour(v, d) for d in range(4)] for v in range(n)]
    times: list[float] = []
    visited: list[int] = []
    closed_visited: list[int] = []
    recomputes = 0
    closed_full = 0

    def click(v: int, r: int) -> None:
        nonlocal recomputes, closed_full
        t0 = time.perf_counter()
        state.apply_rotation(v, r)
        times.append(time.perf_counter() - t0)
        visited.append(state.visited)
        recomputes += state.recomputed
        closed_visited.append(state.closed_tracker.visited)
        closed_full += state.closed_tracker.full

    if pattern == "play":
        classes = state.classes
        for _ in range(clicks):
            # A random tile that is wet or next to a wet tile (rejection sampling).
            while True:
                v = rng.randrange(n)
                if classes[v] or any(u >= 0 and classes[u] for u in adj[v]):
                    break
            click(v, rng.randrange(4))
    elif pattern == "solve":
        for v in _bfs_order(board)[:clicks]:
            click(v, board.solution[v])
    else:
        for _ in range(clicks // 2):
            v = rng.randrange(n)
            right = board.rotations[v]
            click(v, (right + rng.randrange(1, 4)) % 4)
            click(v, right)
    times.sort()
    return {
        "median_us": statistics.median(times) * 1e6,
        "p90_us": times[int(0.9 * (len(times) - 1))] * 1e6,
        "visited": statistics.median(visited),
        "mean_visited": statistics.fmean(visited),
        "recomputed": recomputes / len(times),
        "closed_visited": statistics.fmean(closed_visited),
        "closed_full": closed_full / len(times),
        "clicks": len(times),
    }


def time_source_click(board: Board, repeat: int) -> dict[str, tuple[float, float]]:
    """A click on the source tile of the solved board, turned away and back (median, best
    seconds each): ``compute_flow`` of the board, ``closed_tiles`` of the board with its source
    turned away (a flow and a closed-tile pass from scratch), the click as played (falling back to a
    whole-board pass past its budget), and the click with an unbounded budget (the
    incremental passes alone, as before the fallback existed). Interleaved, so a busy
    machine slows all three alike."""
    solved = board.copy()
    solved.rotations = list(solved.solution)
    played = PlayState(solved.copy())
    unbounded = PlayState(solved.copy(), budget=board.size * 4)
    src = solved.source_index
    right = solved.rotations[src]
    times: dict[str, list[float]] = {"full": [], "closed": [], "played": [], "unbounded": []}
    for k in range(repeat):
        turn = (right + 1 + k % 3) % 4
        t0 = time.perf_counter()
        compute_flow(played.board)
        times["full"].append(time.perf_counter() - t0)
        away = played.board.copy()
        away.rotations[src] = turn
        t0 = time.perf_counter()
        closed_tiles(away)  # the flow and the closed tiles from scratch, the source turned
        times["closed"].append(time.perf_counter() - t0)
        for key, state in (("played", played), ("unbounded", unbounded)):
            for r in (turn, right):
                t0 = time.perf_counter()
                state.apply_rotation(src, r)
                times[key].append(time.perf_counter() - t0)
        assert played.full
    return {k: (statistics.median(v), min(v)) for k, v in times.items()}


def memory_128() -> tuple[int, int]:
    """(bytes held, peak bytes) by a 128x128 board plus its play state, measured by tracemalloc."""
    tree_board(8, 0)
    PlayState(tree_board(8, 0))  # warm caches of small tables
    tracemalloc.start()
    board = shuffled(tree_board(128, 1), 1)
    state = PlayState(board)
    state.apply_rotation(board.source_index, (board.rotations[board.source_index] + 1) % 4)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del state
    return current, peak


def main(argv: list[str] | None = None) -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clicks", type=int, default=2000, help="clicks per pattern and size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()}"
    )
    print()
    print(
        "| size | tiles | full recompute, solved (all wet): median / best "
        "| full recompute, shuffled: median / best |"
    )
    print("|---|---|---|---|")
    boards = {}
    for size in SIZES:
        board = tree_board(size, args.seed)
        boards[size] = board
        repeat = max(9, 100_000 // (size * size))
        full, full_best = time_full(board, repeat)
        shuf, shuf_best = time_full(shuffled(board, args.seed), repeat)
        print(
            f"| {size}x{size} | {size * size} | {full * 1e3:.2f} / {full_best * 1e3:.2f} ms "
            f"| {shuf * 1e3:.3f} / {shuf_best * 1e3:.3f} ms |"
        )
    print()
    print(
        "| size | clicks | pattern | median | p90 | tiles visited: median / mean "
        "| component recomputes | closed scans: tiles visited, mean | closed: whole-board passes |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in SIZES:
        for pattern in ("play", "solve", "solved"):
            r = time_clicks(boards[size], pattern, args.clicks, args.seed)
            print(
                f"| {size}x{size} | {int(r['clicks'])} | {pattern} | {r['median_us']:.0f} µs "
                f"| {r['p90_us']:.0f} µs | {r['visited']:g} / {r['mean_visited']:.1f} "
                f"| {r['recomputed'] * 100:.1f} % | {r['closed_visited']:.1f} "
                f"| {r['closed_full'] * 100:.1f} % |"
            )
        sys.stdout.flush()
    print()
    print(
        "Source-tile click on a solved board (turned away and back; the wet component is the "
        "whole board, so the click falls back to one whole-board pass):"
    )
    print()
    print(
        "| size | full recompute (`compute_flow`): median / best "
        "| flow and closed tiles from scratch (`closed_tiles`, source turned): median / best "
        "| click as played (fallback): median / best "
        "| incremental passes alone (unbounded budget): median / best |"
    )
    print("|---|---|---|---|---|")
    for size in (64, 128):
        r = time_source_click(boards[size], 15)
        cells = " | ".join(f"{r[k][0] * 1e3:.2f} / {r[k][1] * 1e3:.2f} ms" for k in r)
        print(f"| {size}x{size} | {cells} |")
    print()
    current, peak = memory_128()
    print(
        f"Memory, 128x128 board + play state (tracemalloc): {current / 1e6:.2f} MB held, "
        f"{peak / 1e6:.2f} MB peak."
    )


if __name__ == "__main__":
    main()
