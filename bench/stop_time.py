"""Benchmark: how long a real `pipesctl start` takes to exit after the first SIGTERM / SIGINT.

Each run starts the daemon on the sandbox, drives it into a phase (building a 31×31 room,
playing a 7×7 one, its server down with the daemon in reconnect backoff, its server silent
(the sandbox's main thread busy until the exit, 8 s at most: commands unanswered), carrying
out an admin request, or just after a SIGSTOP/SIGCONT pause), waits a random moment and sends
a random pattern of signals (one or two, SIGTERM or SIGINT, up to 50 ms apart); the figure is
the wall time from the first signal to the exit (`tests/support/stop_runs.py`). Target: every
run exits 0 within 5 s. Prints a markdown table.

Run: ``.venv/bin/python -m bench.stop_time [--runs 10] [--seed 1]`` (runs per phase)
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

from controller.sandbox import Sandbox
from tests.support.stop_runs import PHASES, RoomSetup, StopRun, stop_once

__all__ = ["main", "runs"]

TARGET_S = 5.0


def runs(per_phase: int, seed: int) -> list[StopRun]:
    """`per_phase` runs of every phase, in turns, each on a fresh sandbox."""
    rng = random.Random(seed)
    done: list[StopRun] = []
    with tempfile.TemporaryDirectory(prefix="pipesctl-stop-") as tmp:
        for k in range(per_phase):
            for phase in PHASES:
                folder = Path(tmp) / f"{phase}-{k}"
                with Sandbox() as sb:
                    size = 31 if phase == "build" else 7
                    setup = RoomSetup.write(folder, sb, "lobby", size)
                    done.append(stop_once(sb, setup, phase, rng, folder / "daemon.log"))
    return done


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9, help="runs per phase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    done = runs(args.runs, args.seed)
    print("| phase | runs | exit 0 | median s | worst s | signal patterns |")
    print("|---|---:|---:|---:|---:|---|")
    for phase in PHASES:
        mine = [r for r in done if r.phase == phase]
        patterns = sorted({"+".join(r.signals) for r in mine})
        print(
            f"| {phase} | {len(mine)} | {sum(r.exit_code == 0 for r in mine)} | "
            f"{statistics.median(r.seconds for r in mine):.2f} | "
            f"{max(r.seconds for r in mine):.2f} | {', '.join(patterns)} |"
        )
    worst = max(done, key=lambda r: r.seconds)
    clean = sum(r.exit_code == 0 and "Traceback" not in r.log for r in done)
    print(
        f"| **all** | {len(done)} | {clean} | "
        f"{statistics.median(r.seconds for r in done):.2f} | **{worst.seconds:.2f}** | |"
    )
    print()
    print(
        f"Worst stop time (first signal → exit) over {len(done)} runs: **{worst.seconds:.2f} s** "
        f"({worst.phase}, {'+'.join(worst.signals)}); target ≤ {TARGET_S:.0f} s. "
        f"{clean} of {len(done)} runs exited 0 with no traceback. Builds stopped half-way: "
        f"{sum(r.journal_left for r in done if r.phase == 'build')} of "
        f"{sum(r.phase == 'build' for r in done)} (each finished by the next start in "
        "`tests/cli/test_stop_signals.py`)."
    )


if __name__ == "__main__":
    main()
