"""Run every benchmark and write docs/benchmarks.md (`make bench`).

Each `bench/<area>.py` prints markdown; this collects them with the command and the machine.
Run one area alone with `.venv/bin/python -m bench.<area>`; `python -m bench.run <area>…`
reruns only those areas and keeps the other sections of the file as they are.
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
    ("Reliability: tampering, command budget, SIGKILL", "bench.room_tamper"),
    ("Reliability: worst stop time", "bench.stop_time"),
    ("Paint room runtime", "bench.paint_room"),
    ("Records store", "bench.records"),
    ("Start-up", "bench.startup"),
    ("Metrics and the web page", "bench.web"),
    ("Every release and flavour", "bench.versions"),
    ("Server cost of a room by detection mode", "bench.server_cost --quick"),
    ("Per gesture", "bench.gestures"),
    ("Coexisting with another RCON client", "bench.foreign_client --seconds 15"),
]
OUT = ROOT / "docs" / "benchmarks.md"


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


def sections(text: str) -> dict[str, str]:
    """The `## ` sections of a benchmarks file by title (each with its heading)."""
    found: dict[str, str] = {}
    for chunk in ("\n" + text).split("\n## ")[1:]:
        title = chunk.split("\n", 1)[0].strip()
        found[title] = "## " + chunk.rstrip("\n") + "\n"
    return found


def main() -> None:
    """Run every area (or the areas named on the command line) and write the document."""
    only = set(sys.argv[1:])
    out = ROOT / "docs" / "benchmarks.md"
    old = out.read_text() if only and out.exists() else ""
    kept = sections(old)
    when = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    if kept:  # a partial run: the header keeps describing the other sections
        parts = [old.split("\n## ", 1)[0].rstrip("\n") + "\n"]
        where = f"Run on {when}: {machine()}.\n\n"
    else:
        parts = [
            "# Benchmarks\n",
            "Written by `make bench` (`.venv/bin/python -m bench.run`); each section can be rerun "
            "alone with the command under its heading. Figures are medians unless stated.\n",
            f"- machine: {machine()}",
            f"- date: {when}\n",
        ]
        where = ""
    for title, command in AREAS:
        module, *args = command.split()
        if only and module.split(".")[-1] not in only:
            if title in kept:
                parts.append(kept[title])
            continue
        if not (ROOT / (module.replace(".", "/") + ".py")).exists():
            continue
        print(f"running {command} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        body = proc.stdout.strip() or f"(failed: {proc.stderr.strip()[-500:]})"
        parts.append(f"## {title}\n\nCommand: `.venv/bin/python -m {command}`\n\n{where}{body}\n")
    out.write_text("\n".join(parts))
    print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
