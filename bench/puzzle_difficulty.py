"""Benchmark: what each difficulty level's boards ask of the solver, beside Net's boards.

Run: ``.venv/bin/python -m bench.puzzle_difficulty [--sizes 15 31] [--boards N]``.

Per level (``generate(S, S, seed=k, params=GeneratorParams(difficulty=level))``, prim trees)
and for Net's own boards of the same size (``sgt-net --generate N 'SxS#pipesctl-bench'``, when
installed), medians over N boards:

* steps/tile: ``solver.difficulty`` (tile revisions of deduction from scratch, search
  revisions counted twice, per tile);
* sweeps: passes over every open tile after the work ran dry (how often deduction had to look
  at the whole board again: a depth of reasoning);
* global share: masks removed by the loop, island and dead-end rules over all masks removed;
* open after deduction: tiles deduction leaves to search;
* local rules fix: share of tiles the local rules alone (``solver.LOCAL_RULES``) fix;
* the tile mix (end / straight / tee / corner, %) and the generation time.

Times are CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.puzzle_vs_net import _board_of, find_net, net_generation
from controller.puzzle.generators import DIFFICULTIES, GeneratorParams, generate
from controller.puzzle.model import Board
from controller.puzzle.solver import LOCAL_RULES, deduction, difficulty

__all__ = ["row", "main"]


def row(label: str, boards: list[Board], gen_times: list[float] | None) -> str:
    """One markdown row of medians over the boards."""
    steps, sweeps, share, open_tiles, local = [], [], [], [], []
    mix = [0, 0, 0, 0]
    for b in boards:
        steps.append(difficulty(b))
        st = deduction(b, revisions=True)
        assert st is not None
        sweeps.append(st.sweeps)
        total = sum(st.elims) or 1
        share.append(100 * sum(st.elims[1:]) / total)
        open_tiles.append(st.nund)
        weak = deduction(b, LOCAL_RULES)
        local.append(100.0 * (b.size - (weak.nund if weak is not None else b.size)) / b.size)
        for s in b.shapes:
            mix[s] += 1
    n = sum(mix) or 1
    mix_text = " / ".join(f"{100 * k / n:.0f}" for k in mix)
    gen = f"{statistics.median(gen_times) * 1000:.0f} ms" if gen_times else "(Net)"
    return (
        f"| {label} | {len(boards)} | {statistics.median(steps):.2f} | "
        f"{statistics.median(sweeps):.0f} | {statistics.median(share):.1f} % | "
        f"{statistics.median(open_tiles):.0f} | {statistics.median(local):.0f} % | {mix_text} "
        f"| {gen} |"
    )


def _timed(size: int, params: GeneratorParams, count: int) -> tuple[list[Board], list[float]]:
    """Boards of seeds 0..count-1 and the seconds each took."""
    boards, times = [], []
    for seed in range(count):
        t0 = time.process_time()
        boards.append(generate(size, size, seed=seed, params=params))
        times.append(time.process_time() - t0)
    return boards, times


def main() -> None:
    """Print one table per size."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[15, 31])
    ap.add_argument("--boards", type=int, default=8)
    args = ap.parse_args()
    net = find_net()
    for size in args.sizes:
        print(f"{size}x{size}, {args.boards} boards per row:")
        print()
        print(
            "| boards | n | steps/tile | sweeps | global share | open after deduction "
            "| local rules fix | end / straight / tee / corner % | generate |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for level in DIFFICULTIES:
            params = GeneratorParams(difficulty=level)
            boards, times = _timed(size, params, args.boards)
            print(row(level, boards, times), flush=True)
        if net is None:
            print("| Net | sgt-net is not installed | | | | | | | |")
        else:
            _, ids = net_generation(net, size, args.boards)
            print(row("Net", [_board_of(i) for i in ids], None))
        print()


if __name__ == "__main__":
    main()
