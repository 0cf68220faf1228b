"""Benchmark: map art rendering, map file install, and the mecha grammar check.

Measures (medians of several runs): rendering all 20 pictures, the labelled preview sheet,
``install_pictures`` into an empty world (20 atomic gzipped writes) and again over our own files
(all "unchanged"), the size of one map file, and one ``tools/mecha_check.py`` run over the
runtime's command forms (mecha start-up dominates). Prints a markdown table.

Run: ``.venv/bin/python -m bench.maps [--repeat 7]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from controller.maps import Layout, Target, install_pictures, map_path, preview_image
from controller.world.mapart import PICTURE_COUNT, all_pictures

__all__ = ["timed", "main"]

ROOT = Path(__file__).resolve().parent.parent


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    target = Target(Layout.NAMESPACED, 4790, "bench")
    rows: list[tuple[str, str]] = []
    rows.append(("render all pictures", f"{timed(lambda: all_pictures(0), args.repeat):.1f} ms"))
    rows.append(
        ("preview sheet (640x768)", f"{timed(lambda: preview_image(0), args.repeat):.1f} ms")
    )
    pictures = all_pictures(1_000_000)

    def fresh() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            install_pictures(Path(tmp), pictures, target)

    rows.append(
        (f"install {PICTURE_COUNT} files, empty world", f"{timed(fresh, args.repeat):.1f} ms")
    )
    with tempfile.TemporaryDirectory() as tmp:
        install_pictures(Path(tmp), pictures, target)
        again = timed(lambda: install_pictures(Path(tmp), pictures, target), args.repeat)
        rows.append((f"install again ({PICTURE_COUNT} unchanged)", f"{again:.1f} ms"))
        size = map_path(Path(tmp), Layout.NAMESPACED, 1_000_000).stat().st_size
        rows.append(("one map file (gzipped)", f"{size} bytes"))

    python = ROOT / ".venv-mecha" / "bin" / "python"
    if python.exists():
        sys.path.insert(0, str(ROOT))
        from tests.support.command_forms import GOOD

        payload = json.dumps(GOOD)

        def check() -> None:
            subprocess.run(
                [str(python), str(ROOT / "tools" / "mecha_check.py")],
                input=payload,
                capture_output=True,
                text=True,
                check=True,
            )

        ms = timed(check, max(3, args.repeat // 2))
        rows.append((f"mecha check, {len(GOOD)} commands, one process", f"{ms:.0f} ms"))
    else:
        rows.append(("mecha check", "skipped (no .venv-mecha)"))

    print("| step | median |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
