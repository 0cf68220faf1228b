"""Benchmark: median puzzle generation time per generator and size, as a markdown table.

Two columns per (generator, size): *raw* = spanning tree + shuffle (``unique=False``) and
*unique* = tree + ``solver.make_unique`` + shuffle (the default of ``generate``). Each unique
run happens in a child process with a timeout, so one slow size cannot stall the table; a
timed-out cell shows "> T s" and the remaining seeds of that cell are skipped.

    .venv/bin/python bench/puzzle_generate.py                 # 15, 31, 64, 128
    .venv/bin/python bench/puzzle_generate.py --sizes 15 31 --seeds 5 --timeout 60
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import platform
import statistics
import time

from controller.puzzle.generators import GENERATORS, GeneratorParams, generate

__all__ = ["time_one", "main"]


def time_one(size: int, generator: str, seed: int, unique: bool) -> float:
    """Seconds to generate one board."""
    start = time.perf_counter()
    generate(size, size, seed=seed, params=GeneratorParams(generator=generator, unique=unique))
    return time.perf_counter() - start


def _seeds_for(size: int, base: int) -> int:
    """Fewer seeds for bigger boards."""
    return max(1, base if size <= 31 else base // 2 if size <= 64 else min(base, 3))


def _fmt(seconds: list[float], timed_out: float | None) -> str:
    """A median cell: ms below a second, else s; "> T s" on a timeout."""
    if timed_out is not None and not seconds:
        return f"> {timed_out:g} s"
    med = statistics.median(seconds)
    text = f"{med * 1000:.1f} ms" if med < 1 else f"{med:.2f} s"
    if timed_out is not None:
        text += f" ({len(seconds)} runs, then > {timed_out:g} s)"
    return text


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 31, 64, 128])
    parser.add_argument("--generators", nargs="+", default=list(GENERATORS), choices=GENERATORS)
    parser.add_argument("--seeds", type=int, default=10, help="seeds at sizes <= 31 (fewer above)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per unique run")
    parser.add_argument("--no-unique", action="store_true", help="skip the unique column")
    args = parser.parse_args()
    has_unique = not args.no_unique

    print(f"CPython {platform.python_version()} on {platform.machine()}, median over seeds")
    print()
    print("| generator | size | seeds | raw: tree + shuffle | unique: + make_unique |")
    print("|---|---|---|---|---|")
    ctx = mp.get_context("spawn")
    for size in args.sizes:
        for gen in args.generators:
            n = _seeds_for(size, args.seeds)
            raw = [time_one(size, gen, seed, False) for seed in range(n)]
            cell = "skipped"
            if has_unique:
                done: list[float] = []
                timed_out: float | None = None
                with ctx.Pool(1) as pool:
                    for seed in range(n):
                        job = pool.apply_async(time_one, (size, gen, seed, True))
                        try:
                            done.append(job.get(timeout=args.timeout))
                        except mp.TimeoutError:
                            timed_out = args.timeout
                            pool.terminate()
                            break
                cell = _fmt(done, timed_out)
            print(f"| {gen} | {size}x{size} | {n} | {_fmt(raw, None)} | {cell} |", flush=True)


if __name__ == "__main__":
    main()
