"""The room on every supported release and flavour of the sandbox: what the daemon sends to
learn the release, to build, per click; and how long the end-to-end version matrix takes.

Run: .venv/bin/python -m bench.versions [--matrix-only | --no-matrix]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.config import parse_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.versions import RELEASES, Release
from controller.world.datapack import build

ROOT = Path(__file__).resolve().parent.parent
SIZE = 9
CLICKS = 20


def _row(release: Release, flavour: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        world = Path(tmp) / "world"
        install_pack(world / "datapacks" / PACK_FOLDER, build(release))
        with Sandbox(version=release, flavour=flavour, world_dir=world) as sb:  # type: ignore[arg-type]
            os.environ["BENCH_PW"] = sb.password
            cfg = parse_config(
                {
                    "state_dir": str(Path(tmp) / "state"),
                    "servers": {"main": {"port": sb.port, "password_env": "BENCH_PW"}},
                    "worlds": {
                        "lobby": {
                            "origin": [0, 100, 0],
                            "size": [SIZE, SIZE],
                            "seed": 11,
                            "audit_interval_s": 0,
                        }
                    },
                }
            )
            t0 = time.perf_counter()
            daemon = Daemon(cfg, ["lobby"], connect=connect_server)
            # what the server received before any room command: the flavour and version probes
            learned = len(sb.log_entries())
            daemon.start()
            built = daemon.links["main"].sent
            build_s = time.perf_counter() - t0
            link, room = daemon.links["main"], daemon.rooms["lobby"]
            assert isinstance(room, PipesRoom)
            sb.join("Alex", (4.5, 101, 4.5))
            order = solution_order(room.board)
            costs = []
            for _ in range(CLICKS):
                idx = next_click(room.board, order)
                if idx is None:
                    break
                x, y, z = room.geom.frame_pos(idx % SIZE, idx // SIZE)
                sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
                sb.use_entity("Alex", room.uuids[idx])
                before = link.sent
                daemon.poll("main")
                costs.append(link.sent - before)
            daemon.close()
    costs.sort()
    median = costs[len(costs) // 2] if costs else 0
    return (
        f"| {release.name} | {flavour} | {link.release.name} | {learned} | {built} "
        f"| {build_s:.2f} | {median} ({max(costs, default=0)}) |"
    )


def releases_table() -> str:
    head = (
        f"| release | flavour | learned as | commands to learn it | build commands ({SIZE}×{SIZE}) "
        "| build + start, s | commands per click, median (max) |"
    )
    rows = [head, "|---|---|---|---:|---:|---:|---:|"]
    for release in RELEASES:
        for flavour in ("vanilla", "paper"):
            rows.append(_row(release, flavour))
    return "\n".join(rows)


def matrix_time() -> str:
    """Wall time of the end-to-end version matrix (tests/runtime/test_versions_e2e.py) alone."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/runtime/test_versions_e2e.py"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - t0
    last = (done.stdout.strip().splitlines() or ["?"])[-1]
    return (
        "| test file | result | wall time, one process |\n|---|---|---:|\n"
        f"| tests/runtime/test_versions_e2e.py | {last.strip('= ')} | {seconds:.1f} s |"
    )


def main() -> None:
    args = set(sys.argv[1:])
    print(
        f"A {SIZE}×{SIZE} tree room with the data "
        "pack (trigger mode) on the sandbox playing each release; `learned as` is the release "
        "the daemon settled for (a group it cannot split over RCON settles on its oldest "
        'release: docs/server-behaviour.md, "Versions: detecting the version"). Commands are '
        f"the portable figure; times are this machine's. {CLICKS} clicks along the solution.\n"
    )
    if "--matrix-only" not in args:
        print(releases_table())
        print()
    if "--no-matrix" not in args:
        print(matrix_time())


if __name__ == "__main__":
    main()
