"""Run every benchmark and write docs/benchmarks.md (`make bench`).

Each `bench/<area>.py` prints markdown; this collects them with the command and the machine.
Run one area alone with `.venv/bin/python -m bench.<area>`; `python -m bench.run <area> …`
rewrites only those sections of docs/benchmarks.md (each then names its own machine and date).
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AREAS = [
    ("Puzzle engine: water flow and clicks", "bench.puzzle_flow"),
    ("Puzzle engine: generation", "bench.puzzle_generate"),
    ("Puzzle engine: solver and uniqueness", "bench.puzzle_solver"),
    ("Paint puzzle: solver, hints, generators, nearest target", "bench.paint"),
    ("Sandbox server throughput", "bench.sandbox_throughput"),
    ("Sandbox game: commands and poll cost", "bench.sandbox_game"),
    ("Sandbox NBT library", "bench.nbt_speed"),
    ("RCON transport round trips", "bench.rcon_roundtrip"),
    ("Map art and map files", "bench.maps"),
    ("Room runtime", "bench.runtime_rooms"),
    ("Paint room runtime", "bench.paint_room"),
    ("Start-up", "bench.startup"),
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


def _run(module: str) -> str:
    """The markdown one benchmark prints (or why it failed)."""
    print(f"running {module} ...", file=sys.stderr, flush=True)
    proc = subprocess.run(
        [sys.executable, "-m", module], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return proc.stdout.strip() or f"(failed: {proc.stderr.strip()[-500:]})"


def _section(title: str, module: str, body: str, measured: str = "") -> str:
    return f"## {title}\n\nCommand: `.venv/bin/python -m {module}`\n\n{measured}{body}\n"


def replace_section(document: str, title: str, section: str) -> str:
    """The document with its ``## title`` section replaced by ``section`` (appended if new)."""
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(document):
        return pattern.sub(lambda _: section + "\n", document, count=1).rstrip("\n") + "\n"
    return document.rstrip("\n") + "\n\n" + section


def main() -> None:
    """Run every area (or the areas named on the command line) and write the document."""
    only = set(sys.argv[1:])
    now = datetime.datetime.now(datetime.UTC)
    if only and OUT.exists():
        document = OUT.read_text(encoding="utf-8")
        for title, module in AREAS:
            if module.split(".")[-1] in only:
                measured = f"Measured {now:%Y-%m-%d %H:%M} UTC on {machine()}.\n\n"
                section = _section(title, module, _run(module), measured)
                document = replace_section(document, title, section)
        OUT.write_text(document, encoding="utf-8")
        print(f"updated {', '.join(sorted(only))} in docs/benchmarks.md", file=sys.stderr)
        return
    parts = [
        "# Benchmarks\n",
        "Written by `make bench` (`.venv/bin/python -m bench.run`); each section can be rerun "
        "alone with the command under its heading. Figures are medians unless stated.\n",
        f"- machine: {machine()}",
        f"- date: {now:%Y-%m-%d %H:%M} UTC\n",
    ]
    for title, module in AREAS:
        if not (ROOT / (module.replace(".", "/") + ".py")).exists():
            continue
        parts.append(_section(title, module, _run(module)))
    OUT.write_text("\n".join(parts), encoding="utf-8")
    print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
