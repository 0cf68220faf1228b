"""Paint room figures against the sandbox: RCON commands to build, resume and read back a paint
room, and per stroke. Prints markdown.

Run: .venv/bin/python -m bench.paint_room
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from controller.config import parse_config
from controller.puzzle.paint import hint
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.paint_room import PaintRoom
from controller.runtime.requests import ShowRequest
from controller.sandbox import Sandbox

__all__ = ["main"]


def _daemon(sb: Sandbox, state: Path, size: int) -> Daemon:
    os.environ["BENCH_PW"] = sb.password
    room = {
        "kind": "paint",
        "origin": [0, 100, 0],
        "size": [size, size],
        "seed": 11,
        "audit_interval_s": 0,
        "paint": {"generator": "strokes"},
    }
    cfg = parse_config(
        {
            "state_dir": str(state),
            "servers": {"main": {"port": sb.port, "password_env": "BENCH_PW", "detect": "scan"}},
            "worlds": {"lobby": room},
        }
    )
    return Daemon(cfg, ["lobby"], connect=connect_server)


def commands_table(sizes: list[int]) -> str:
    """Build, idle poll, stroke, resume and `show` read-back in RCON commands."""
    rows = [
        "| canvas | build commands (time) | idle poll | stroke median (max) | resume | show |",
        "|---|---|---|---|---|---|",
    ]
    for size in sizes:
        with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
            d = _daemon(sb, Path(tmp), size)
            t0 = time.perf_counter()
            d.start()
            build_s = time.perf_counter() - t0
            link = d.links["main"]
            build = link.sent
            room = d.rooms["lobby"]
            assert isinstance(room, PaintRoom)
            sb.join("Alex", (0.5, 101, 0.5))
            d.poll("main")
            before = link.sent
            d.poll("main")
            idle = link.sent - before
            costs = []
            for _ in range(min(20, room.puzzle.par)):
                stroke = hint(room.puzzle.target, room.canvas)
                if stroke is None:
                    break
                brush = next(b for b in room.brushes if (b.axis, b.number) == stroke)
                x, y, z = room.geom.frame_pos(brush.i, brush.j)
                sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
                sb.use_entity("Alex", room.uuids[(brush.i, brush.j)])
                before = link.sent
                d.poll("main")
                costs.append(link.sent - before - idle)
            before = link.sent
            room.handle_request(link, ShowRequest())
            show = link.sent - before
            d.close()
            again = _daemon(sb, Path(tmp), size)
            again.start()
            resume = again.links["main"].sent
            again.close()
            rows.append(
                f"| {size}² | {build} ({build_s:.2f} s) | {idle} | "
                f"{statistics.median(costs):g} ({max(costs)}) | {resume} | {show} |"
            )
    return "\n".join(rows)


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "8,32,128").split(",")]
    print(
        "Scan detection, one player next to the brush; a stroke's commands exclude the idle "
        "poll (they are the stroke's fill, its sound, the settle and the scan's frame read; the "
        "maximum includes the win ceremony); resume is a restart on a matching world; show "
        "reads the canvas back.\n"
    )
    print(commands_table(sizes))


if __name__ == "__main__":
    main()
