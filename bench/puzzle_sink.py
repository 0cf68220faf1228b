"""Benchmark: sink mode generation, par (how often exact) and hints, as a markdown table.

Run: ``.venv/bin/python -m bench.puzzle_sink [--sizes 9 15 31 64] [--boards N]``.
Boards: ``generate(S, S, seed=k, params=GeneratorParams(mode="sink"))`` (coverage 0.6), seeds
0..N-1; times are medians (max in brackets) of one call each.

Times are CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.sink import sink_hint, sink_par_report

__all__ = ["main"]


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 15, 31, 64])
    ap.add_argument("--boards", type=int, default=10)
    args = ap.parse_args()
    params = GeneratorParams(mode="sink")
    print(
        "| size | boards | generate | route tiles | par exact | par (median) | par search | hint |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        gen, par_t, hint_t, pars, routes = [], [], [], [], []
        exact = 0
        for seed in range(args.boards):
            t0 = time.process_time()
            board = generate(size, size, seed=seed, params=params)
            gen.append(time.process_time() - t0)
            routes.append(int(str(board.meta["route"])))
            t0 = time.process_time()
            par = sink_par_report(board)
            par_t.append(time.process_time() - t0)
            exact += par.exact
            pars.append(par.clicks)
            t0 = time.process_time()
            sink_hint(board)
            hint_t.append(time.process_time() - t0)

        def ms(xs: list[float]) -> str:
            return f"{statistics.median(xs) * 1000:.1f} ms ({max(xs) * 1000:.0f})"

        print(
            f"| {size}x{size} | {args.boards} | {ms(gen)} | {statistics.median(routes):.0f} "
            f"| {exact} of {args.boards} | {statistics.median(pars):.0f} | {ms(par_t)} "
            f"| {ms(hint_t)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
