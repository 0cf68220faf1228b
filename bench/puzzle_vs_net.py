"""Benchmark: pipesctl beside Simon Tatham's Net (``sgt-net``), generation and solving.

Run: ``.venv/bin/python -m bench.puzzle_vs_net [--sizes 31 64 100 128] [--boards N]``.

Method (docs/net.md, "Command line"):

* Net's generation: ``sgt-net --generate N --time-generation 'SxS#pipesctl-bench'`` prints the
  CPU time of every single generation, measured inside Net's process (the fixed seed gives the
  same N boards every time).
* Generation on both sides runs in ``ROUNDS`` rounds (pipesctl's N boards, then Net's N, then
  again), so a slow spell of the machine meets both; the table shows, per side, the median over
  the N boards of each board's least time over the rounds.
* Net's solving: Net has no headless solve-only mode, so the user CPU time of the child
  process for ``--generate M --test-solve`` (which re-enters every id without its stored
  solution and runs Net's solver) minus that of ``--generate M`` alone, divided by M (the
  least of 3-5 runs each; M = max(N, 6000 / S) boards up to 100², max(N, 2000 / S) above, so
  the difference stands out of the noise). This bounds the solver's time from above (it also
  parses the id and applies the solution); on a loaded machine it is the noisiest figure.
* pipesctl, in this process: ``generate(S, S, seed=k)`` (unique, prim: Net's tree) for N
  seeds, and median ``count_solutions`` on the same boards and on Net's boards (ids parsed
  outside the clock).

Both sides are CPU time (``time.process_time`` here, user time there), so a busy machine slows
neither side's figures much.

When ``sgt-net`` is not installed the Net columns say so and only pipesctl is timed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import time

from controller.puzzle.generators import generate
from controller.puzzle.model import Board, shape_of_mask
from controller.puzzle.netid import parse_net_id
from controller.puzzle.solver import count_solutions

__all__ = ["find_net", "net_generation", "net_solve_time", "main"]

NET_PATHS = ("/usr/games/sgt-net", "sgt-net")
ROUNDS = 3
"""Generation rounds per size, taken in turns by pipesctl and Net."""


def find_net() -> str | None:
    """The sgt-net executable, or None when it is not installed."""
    for name in NET_PATHS:
        path = shutil.which(name) if os.sep not in name else name
        if path and os.access(path, os.X_OK):
            return path
    return None


def _child_user_time(cmd: list[str]) -> tuple[float, str]:
    """User CPU seconds of one child process and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    return after - before, out


def net_generation(net: str, size: int, boards: int) -> tuple[list[float], list[str]]:
    """Net's per-board generation times (s) and the game ids of the same boards."""
    params = f"{size}x{size}#pipesctl-bench"
    _, timed = _child_user_time([net, "--generate", str(boards), "--time-generation", params])
    times = [float(line.rsplit(":", 1)[1]) for line in timed.splitlines() if line.startswith("Net")]
    _, ids = _child_user_time([net, "--generate", str(boards), params])
    return times, [line for line in ids.splitlines() if ":" in line]


def net_solve_time(net: str, size: int, boards: int, runs: int = 3) -> float:
    """Seconds per board that ``--test-solve`` adds to generation (an upper bound on solving):
    the least user time over ``runs`` runs with and without it."""
    params = f"{size}x{size}#pipesctl-bench"
    plain = min(_child_user_time([net, "--generate", str(boards), params])[0] for _ in range(runs))
    solved = min(
        _child_user_time([net, "--generate", str(boards), "--test-solve", params])[0]
        for _ in range(runs)
    )
    return max(0.0, solved - plain) / boards


def _board_of(net_id: str) -> Board:
    """A Board of a Net id's tiles (no solution attached: counting does not need one)."""
    width, height, masks = parse_net_id(net_id)
    shapes, rots = zip(*(shape_of_mask(m) for m in masks), strict=True)
    return Board(width, height, (width // 2, height // 2), list(shapes), list(rots), list(rots))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


def _median_time(fn: object, items: list[Board]) -> float:
    out = []
    for b in items:
        t0 = time.process_time()
        fn(b)  # type: ignore[operator]
        out.append(time.process_time() - t0)
    return statistics.median(out)


def main() -> None:
    """Print the markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[31, 64, 100, 128])
    ap.add_argument("--boards", type=int, default=0, help="boards per size (default: by size)")
    args = ap.parse_args()
    net = find_net()
    if net is None:
        print("sgt-net is not installed (Debian package sgt-puzzles): Net columns left empty.")
    else:
        print(f"Net: `{net}` (`--version`: {_net_version(net)}).")
    print()
    print(
        "| size | boards | generate: pipesctl | generate: Net | ratio "
        "| count_solutions, own boards | count_solutions, Net's boards | Net solve | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        boards = args.boards or (
            60 if size <= 31 else 20 if size <= 64 else 8 if size <= 100 else 5
        )
        # Generation: ROUNDS rounds, pipesctl then Net in each, so both meet the machine in
        # the same states; each board's least time over the rounds, then the median board.
        gen_t = [float("inf")] * boards
        net_t = [float("inf")] * boards
        own: list[Board] = []
        ids: list[str] = []
        for _ in range(ROUNDS):
            own = []
            for seed in range(boards):
                t0 = time.process_time()
                own.append(generate(size, size, seed=seed))
                gen_t[seed] = min(gen_t[seed], time.process_time() - t0)
            if net is not None:
                times, ids = net_generation(net, size, boards)
                net_t = [min(a, b) for a, b in zip(net_t, times, strict=True)]
        gen = statistics.median(gen_t)
        count_own = _median_time(count_solutions, own)
        net_gen = net_count = net_solve = None
        if net is not None:
            net_gen = statistics.median(net_t)
            net_boards = [_board_of(i) for i in ids]
            net_count = _median_time(count_solutions, net_boards)
            # Many boards so the solving time stands out of the generation time's noise.
            many = max(boards, 6000 // size if size <= 100 else 2000 // size)
            net_solve = net_solve_time(net, size, many, 5 if size <= 64 else 3)
        missing = "not installed" if net is None else "n/a"
        print(
            f"| {size}x{size} | {boards} | {_ms(gen)} "
            f"| {_ms(net_gen) if net_gen is not None else missing} "
            f"| {f'{gen / net_gen:.2f}×' if net_gen else missing} "
            f"| {_ms(count_own)} | {_ms(net_count) if net_count is not None else missing} "
            f"| {_ms(net_solve) if net_solve is not None else missing} "
            f"| {f'{count_own / net_solve:.1f}×' if net_solve else missing} |",
            flush=True,
        )
    print()
    print(
        "Ratios are pipesctl / Net; the solve ratio compares `count_solutions` on pipesctl's own "
        "unique boards with Net's `--test-solve` cost per board (parse + solve, an upper bound "
        "on Net's solver)."
    )


def _net_version(net: str) -> str:
    """Net's version line."""
    proc = subprocess.run([net, "--version"], capture_output=True, text=True, check=False)
    return (proc.stdout or proc.stderr).strip().splitlines()[0] if proc.returncode == 0 else "?"


if __name__ == "__main__":
    main()
