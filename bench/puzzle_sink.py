"""Benchmark: sink mode generation, par (how often exact), hints and clicks, as a markdown table.

Run: ``.venv/bin/python -m bench.puzzle_sink [--sizes 9 15 31 64] [--boards N] [--clicks N]``.
Boards: ``generate(S, S, seed=k, params=GeneratorParams(mode="sink", ...))`` (coverage 0.6),
seeds 0..N-1, plain, with ``crosses=1.0``, and with ``crosses=1.0, holes=True``; times are
medians (max in brackets) of one call each; a click is ``PlayState.apply_rotation`` of a random
tile that is not fixed (nor a hole) to a random rotation, the median over ``--clicks`` clicks a
board (a board with crosses recomputes its whole flow by pieces on every click).

Times are CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import CROSS, HOLE
from controller.puzzle.play import PlayState
from controller.puzzle.sink import sink_hint, sink_par_report

__all__ = ["main"]

VARIANTS = (
    ("plain", GeneratorParams(mode="sink")),
    ("crosses 1.0", GeneratorParams(mode="sink", crosses=1.0)),
    ("crosses 1.0, holes", GeneratorParams(mode="sink", crosses=1.0, holes=True)),
)


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 15, 31, 64])
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--clicks", type=int, default=50)
    args = ap.parse_args()
    print(
        "| boards | size | generate | route steps | crosses | par exact | par (median) "
        "| par search | hint | click |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, params in VARIANTS:
        for size in args.sizes:
            gen, par_t, hint_t, click_t, pars, routes, crosses = [], [], [], [], [], [], []
            exact = 0
            for seed in range(args.boards):
                t0 = time.process_time()
                board = generate(size, size, seed=seed, params=params)
                gen.append(time.process_time() - t0)
                routes.append(int(str(board.meta["route"])))
                crosses.append(board.shapes.count(CROSS))
                t0 = time.process_time()
                par = sink_par_report(board)
                par_t.append(time.process_time() - t0)
                exact += par.exact
                pars.append(par.clicks)
                t0 = time.process_time()
                sink_hint(board)
                hint_t.append(time.process_time() - t0)
                play = PlayState(board.copy())
                free = [
                    t for t in range(board.size) if t not in board.fixed and board.shapes[t] != HOLE
                ]
                rng = random.Random(seed)
                times = []
                for _ in range(args.clicks):
                    t, r = rng.choice(free), rng.randrange(4)
                    t0 = time.process_time()
                    play.apply_rotation(t, r)
                    times.append(time.process_time() - t0)
                click_t.append(statistics.median(times))

            def ms(xs: list[float]) -> str:
                return f"{statistics.median(xs) * 1000:.1f} ms ({max(xs) * 1000:.0f})"

            print(
                f"| {name} | {size}x{size} | {ms(gen)} | {statistics.median(routes):.0f} "
                f"| {statistics.mean(crosses):.1f} | {exact} of {args.boards} "
                f"| {statistics.median(pars):.0f} | {ms(par_t)} | {ms(hint_t)} "
                f"| {statistics.median(click_t) * 1000:.2f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
