"""Benchmark: start-up of the `pipesctl` command, measured as whole processes.

Each row runs the installed console script (``.venv/bin/pipesctl``, falling back to
``python -m controller.cli``) with ``subprocess.run`` and times it with ``perf_counter`` from
before the start to after the exit: interpreter start-up, imports, the command itself and exit.
The figure is the median of ``--repeat`` runs (10 by default) after one warm-up run, which also
writes the bytecode caches an installed program has (``PYTHONDONTWRITEBYTECODE`` is dropped from
the environment: without the caches every run compiles every module it imports). The target is
at most 120 ms for ``--help`` and ``puzzle new --size 3x3``. Prints a markdown table.

Run: ``.venv/bin/python -m bench.startup [--repeat 10]``
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["COMMANDS", "import_costs", "main", "pipesctl", "run_ms"]

COMMANDS = [
    ["--help"],
    ["puzzle", "new", "--size", "3x3", "--seed", "1"],
    ["puzzle", "new", "--size", "3x3", "--seed", "1", "--json"],
    ["puzzle", "--help"],
    ["start", "--help"],
]
TARGET_MS = 120.0


def pipesctl() -> list[str]:
    """The command that starts pipesctl: the console script beside this interpreter if any."""
    script = Path(sys.executable).with_name("pipesctl")
    if script.exists():
        return [str(script)]
    found = shutil.which("pipesctl")
    return [found] if found else [sys.executable, "-m", "controller.cli"]


def _children_cpu_s() -> float:
    """User plus system CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _with_bytecode_cache() -> dict[str, str]:
    """This environment, with bytecode caches allowed (as in any installed program)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_ms(argv: list[str], repeat: int) -> tuple[float, float, float]:
    """``repeat`` whole-process runs of ``argv``: median and best wall ms, median CPU ms."""
    env = {**_with_bytecode_cache(), "NO_COLOR": "1", "COLUMNS": "100"}
    subprocess.run(argv, capture_output=True, check=True, env=env)  # warm the file cache
    wall, cpu = [], []
    for _ in range(repeat):
        cpu_before = _children_cpu_s()
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True, env=env)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((_children_cpu_s() - cpu_before) * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu)


_IMPORT_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \|( +)(\S+)")


def import_costs(command: list[str], repeat: int) -> dict[str, float]:
    """``python -X importtime``: each top-level import's cumulative ms (best of ``repeat``)."""
    code = (
        f"import sys; sys.argv = ['pipesctl', *{command!r}]\n"
        "from controller.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
    )
    best: dict[str, float] = {}
    for _ in range(repeat):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            capture_output=True,
            text=True,
            env=_with_bytecode_cache(),
        ).stderr
        for match in _IMPORT_LINE.finditer(err):
            if len(match.group(2)) == 1:  # depth 0: imported by the command itself
                ms = int(match.group(1)) / 1000
                best[match.group(3)] = min(ms, best.get(match.group(3), ms))
    return best


def main(argv: list[str] | None = None) -> None:
    """Print the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10, help="runs per row")
    args = parser.parse_args(argv)
    base = pipesctl()
    load = os.getloadavg()[0]
    wall, best, cpu = run_ms([sys.executable, "-c", "pass"], args.repeat)
    print("| command | wall ms, median | wall ms, best | CPU ms, median |")
    print("|---|---:|---:|---:|")
    print(f"| `python -c pass` (the interpreter alone) | {wall:.0f} | {best:.0f} | {cpu:.0f} |")
    for command in COMMANDS:
        wall, best, cpu = run_ms([*base, *command], args.repeat)
        print(f"| `pipesctl {' '.join(command)}` | {wall:.0f} | {best:.0f} | {cpu:.0f} |")
    print(
        f"\nWhole processes (`{Path(base[-1]).name}` started by `subprocess.run`), medians of "
        f"{args.repeat} runs after a warm-up: wall time from start to exit (and the best run), "
        "and the user + system CPU time the process used (both less sensitive to other load "
        "on the machine than the median wall time). "
        f"Target: at most {TARGET_MS:.0f} ms wall for `--help` and `puzzle new`. Load average "
        f"when the run started: {load:.1f} on {os.cpu_count()} cores."
    )
    print("\nWhere the imports go (`python -X importtime`, best of 5, cumulative ms):\n")
    print("| command | largest top-level imports |")
    print("|---|---|")
    for command in (["--help"], ["puzzle", "new", "--size", "3x3"]):
        costs = sorted(import_costs(command, 5).items(), key=lambda kv: -kv[1])[:6]
        shown = ", ".join(f"{name} {ms:.0f}" for name, ms in costs)
        print(f"| `pipesctl {' '.join(command)}` | {shown} |")


if __name__ == "__main__":
    main()
