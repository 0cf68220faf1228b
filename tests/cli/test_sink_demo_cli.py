"""`pipesctl demo --mode sink`: the simulated player solves a sink room in the sandbox."""

from __future__ import annotations

import subprocess
import sys

DEMO = [sys.executable, "-m", "controller.cli", "demo", "--size", "5", "--click-every", "0"]


def test_demo_shows_a_sink_room() -> None:
    proc = subprocess.run(
        [*DEMO, "--mode", "sink"], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "solved in " in proc.stderr and " moves; " in proc.stderr


def test_demo_refuses_a_mode_for_paint_rooms() -> None:
    proc = subprocess.run(
        [*DEMO, "--kind", "paint", "--mode", "sink"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "--mode applies to pipes rooms, not --kind paint" in proc.stderr
