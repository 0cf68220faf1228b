"""Run every benchmark and write docs/benchmarks.md (`make bench`).

Each `bench/<area>.py` prints markdown; this collects them with the command and the machine.
Run one area alone with `.venv/bin/python -m bench.<area>`; `python -m bench.run AREA ...` reruns
only those areas and keeps the other sections of the file as they were.
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = [
    ("Puzzle engine: water flow and clicks", "bench.puzzle_flow"),
    ("Puzzle engine: generation", "bench.puzzle_generate"),
    ("Puzzle engine: solver and uniqueness", "bench.puzzle_solver"),
    ("Puzzle engine beside Simon Tatham's Net", "bench.puzzle_vs_net"),
    ("Puzzle engine: difficulty levels beside Net", "bench.puzzle_difficulty"),
    ("Puzzle engine: sink mode", "bench.puzzle_sink"),
    ("Paint puzzle: solver, hints, generators, nearest target", "bench.paint"),
    ("Sandbox server throughput", "bench.sandbox_throughput"),
    ("Sandbox game: commands and poll cost", "bench.sandbox_game"),
    ("Sandbox NBT library", "bench.nbt_speed"),
    ("RCON transport round trips", "bench.rcon_roundtrip"),
    ("Map art and map files", "bench.maps"),
    ("Room runtime", "bench.runtime_rooms"),
]


def machine() -> str:
    """One line about this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}"
    )


def _old_sections(path: Path) -> dict[str, str]:
    """The sections of an existing benchmarks file by title (kept when only some areas run)."""
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for chunk in path.read_text().split("\n## ")[1:]:
        title = chunk.split("\n", 1)[0].strip()
        out[title] = "## " + chunk.rstrip("\n") + "\n"
    return out


def main() -> None:
    only = set(sys.argv[1:])
    target = ROOT / "docs" / "benchmarks.md"
    old = _old_sections(target) if only else {}
    now = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    header = [
        "# Benchmarks\n",
        "Written by `make bench` (`.venv/bin/python -m bench.run`); each section can be rerun "
        "alone with the command under its heading. Figures are medians unless stated.\n",
        f"- machine: {machine()}",
        f"- date: {now}\n",
    ]
    if old and target.exists():  # a partial run keeps the header of the full one
        header = [target.read_text().split("\n## ", 1)[0].rstrip("\n") + "\n"]
    parts = header
    for title, module in AREAS:
        if only and module.split(".")[-1] not in only:
            if title in old:  # not rerun: keep the figures already written
                parts.append(old[title])
            continue
        if not (ROOT / (module.replace(".", "/") + ".py")).exists():
            continue
        print(f"running {module} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(
            [sys.executable, "-m", module], cwd=ROOT, capture_output=True, text=True, check=False
        )
        body = proc.stdout.strip() or f"(failed: {proc.stderr.strip()[-500:]})"
        where = f"\n\nMeasured {now} on {machine()}." if only else ""
        parts.append(f"## {title}\n\nCommand: `.venv/bin/python -m {module}`{where}\n\n{body}\n")
    target.write_text("\n".join(parts))
    print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
