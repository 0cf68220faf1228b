"""Paint room figures against the sandbox: RCON commands to build, resume and read back a paint
room, and per stroke; the player features' commands (triggers, a hint, a win). Prints markdown.

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
from controller.runtime.clock import Clock
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.ingame import HINT
from controller.runtime.paint.room import PaintRoom
from controller.runtime.requests import ShowRequest
from controller.sandbox import Sandbox

__all__ = ["main"]


class StepClock:
    """Simulated time: the room's timers run without waiting (sleeps wait a little for real)."""

    def __init__(self) -> None:
        self.t = 1_796_126_400.0

    def time(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, 0.01))
        self.t += seconds


def _daemon(
    sb: Sandbox, state: Path, size: int, clock: Clock | None = None, **world: object
) -> Daemon:
    os.environ["BENCH_PW"] = sb.password
    room = {
        "kind": "paint",
        "origin": [0, 100, 0],
        "size": [size, size],
        "seed": 11,
        "audit_interval_s": 0,
        "paint": {"generator": "strokes"},
        **world,
    }
    cfg = parse_config(
        {
            "state_dir": str(state),
            "servers": {"main": {"port": sb.port, "password_env": "BENCH_PW", "detect": "scan"}},
            "worlds": {"lobby": room},
        }
    )
    if clock is None:
        return Daemon(cfg, ["lobby"], connect=connect_server)
    return Daemon(cfg, ["lobby"], connect=connect_server, clock=clock, record=True)


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


def features_table(size: int = 8) -> str:
    """The player features' commands on a simulated clock: a minute of the room's timers with
    two players near and nobody asking, and with nobody near; one hint; a win's commands (one
    player, `on_win.command` per player)."""
    clock = StepClock()
    with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
        d = _daemon(
            sb, Path(tmp), size, clock, liveness_interval_s=0,
            on_win={"command": "give {player} minecraft:cookie"},
        )  # fmt: skip
        d.start()
        link, room = d.links["main"], d.rooms["lobby"]
        assert isinstance(room, PaintRoom) and link.record is not None
        record = link.record
        sb.join("Alex", (0.5, 101, 0.5))
        sb.join("Bea", (1.5, 101, 1.5))

        def minute(near: bool) -> tuple[int, int]:
            before, bars = link.sent, 0
            for _ in range(240):  # every 0.25 s, as often as a busy daemon loop gets there
                clock.t += 0.25
                start = len(record)
                room.periodic(link, near)
                bars += sum(" actionbar " in c for c in record[start:])
            return link.sent - before - bars, bars

        minute(True)  # everyone armed and greeted
        near, bars = minute(True)
        nobody, _ = minute(False)
        clock.t += 5
        room.periodic(link, True)  # armed again: the hint round below is measured alone
        sb.trigger("Alex", HINT)
        clock.t += 1
        before, cost = link.sent, sb.total_cost["nbt_serializations"]
        start = len(record)
        room.periodic(link, True)
        hint_cmds = sum(" actionbar " not in c for c in record[start:])
        hint_nbt = sb.total_cost["nbt_serializations"] - cost
        win = 0
        while (stroke := hint(room.puzzle.target, room.canvas)) is not None:
            brush = next(b for b in room.brushes if (b.axis, b.number) == stroke)
            x, y, z = room.geom.frame_pos(brush.i, brush.j)
            sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
            sb.use_entity("Alex", room.uuids[(brush.i, brush.j)])
            before = link.sent
            d.poll("main")
            win = link.sent - before
        d.close()
    return "\n".join(
        [
            "| two players near, nobody asking (per minute) | nobody near (per minute) | "
            "one hint (serializations) | the winning stroke's poll |",
            "|---|---|---|---|",
            f"| {near} trigger commands + {bars} action bars | {nobody} | "
            f"{hint_cmds} ({hint_nbt}) | {win} |",
        ]
    )


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "8,32,128").split(",")]
    print(
        "Scan detection, one player next to the brush; a stroke's commands exclude the idle "
        "poll (they are the stroke's fill, its sound, the settle and the scan's frame read; the "
        "maximum includes the win ceremony); resume is a restart on a matching world; show "
        "reads the canvas back.\n"
    )
    print(commands_table(sizes))
    print(
        "\nPlayer features (8² canvas, simulated clock, the room's timers every 0.25 s): per "
        "minute with two players near and nobody asking, the commands besides the action bar "
        "(the triggers' question once a second; every 5 s the three triggers armed, the "
        "first-visit read and the lease's renewal), and with nobody near; one hint (the "
        "question, the asker read and re-armed, the read that finds nobody else, the tell, the "
        "glow, the help and stats reads); the poll of the winning stroke (the stroke, the "
        "solvers' UUIDs and names, the ceremony, two best-time scores, `on_win.command` for "
        "each of the two players near).\n"
    )
    print(features_table())


if __name__ == "__main__":
    main()
