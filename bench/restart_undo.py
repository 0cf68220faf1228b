"""What restart and undo cost, and what the data pack's note of who clicked adds to a click
(sandbox counters, a 15×15 room, the data pack installed). Prints markdown.

Per click: the entities the click's reward examines and serializes on the server (the data
pack's marks and notes), and the RCON commands that find the click (trigger and scan mode).
Per undo and per restart: every RCON command the answer sends.

Run: .venv/bin/python -m bench.restart_undo
"""

from __future__ import annotations

import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.config import parse_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.ingame import RESTART, UNDO
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.datapack import build
from tests.support.harness import Harness

SIZE = 15
CLICKS = 10


@contextmanager
def room(detect: str) -> Iterator[Harness]:
    """A 15×15 room on a sandbox with the pack, Alex standing at its centre."""
    with tempfile.TemporaryDirectory() as tmp:
        world = Path(tmp) / "world"
        install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
        with Sandbox(world_dir=world) as sb:
            os.environ["BENCH_PW"] = sb.password
            lobby = {
                "server": "main", "origin": [0, 100, 0], "size": [SIZE, SIZE], "seed": 7,
                "audit_interval_s": 0, "liveness_interval_s": 0, "restart_by": ["Alex"],
            }  # fmt: skip
            server = {"host": "127.0.0.1", "port": sb.port, "password_env": "BENCH_PW"}
            cfg = parse_config(
                {"state_dir": str(Path(tmp) / "state"),
                 "servers": {"main": {**server, "detect": detect}}, "worlds": {"lobby": lobby}}
            )  # fmt: skip
            daemon = Daemon(cfg, ["lobby"], connect=connect_server)
            daemon.start()
            sb.join("Alex", (SIZE / 2, 101, SIZE / 2))
            try:
                yield Harness(sb, cfg, daemon)
            finally:
                daemon.close()


def _poll(h: Harness) -> int:
    link = h.daemon.links["main"]
    sent = link.sent
    h.daemon.last_poll["main"] = h.daemon.clock.monotonic()
    h.daemon.poll("main")
    return link.sent - sent


def _answer(h: Harness, objective: str) -> int:
    h.sb.call(lambda g: g.execute(f"scoreboard players enable Alex {objective}"))
    h.sb.trigger("Alex", objective)
    link = h.daemon.links["main"]
    sent = link.sent
    if objective == UNDO:
        h.room.ingame.check_undo(link)
    else:
        h.room.ingame.check_restart(link)
    return link.sent - sent


def measure(detect: str) -> dict[str, float]:
    """Medians over CLICKS clicks near the centre, then as many undos and one restart."""
    with room(detect) as h:
        _poll(h)
        examined: list[int] = []
        serialized: list[int] = []
        centre = SIZE // 2
        for k in range(CLICKS):
            before = h.sb.call(lambda g: dict(g.total_cost))
            i, j = centre - 2 + k % 5, centre - 1 + k // 5
            h.sb.move("Alex", (SIZE / 2, 101, SIZE / 2))
            assert h.sb.use_entity("Alex", h.room.uuids[j * SIZE + i])
            after = h.sb.call(lambda g: dict(g.total_cost))
            examined.append(after["entities_examined"] - before["entities_examined"])
            serialized.append(after["nbt_serializations"] - before["nbt_serializations"])
            _poll(h)
        undos = [_answer(h, UNDO) for _ in range(CLICKS)]
        for k in range(CLICKS):
            i, j = centre - 2 + k % 5, centre - 1 + k // 5
            h.click(i, j)
            _poll(h)
        restart = _answer(h, RESTART)
        return {
            "examined": statistics.median(examined),
            "serialized": statistics.median(serialized),
            "undo": statistics.median(undos),
            "undo_max": max(undos),
            "restart": restart,
        }


def main() -> None:
    """Print the section's tables."""
    print(
        f"{SIZE}×{SIZE} room, the data pack of protocol 4, one player at the centre clicking "
        f"{CLICKS} tiles within reach; then {CLICKS} undos and, after {CLICKS} more clicks, one "
        "restart. Per click: what the click's reward costs the server (sandbox counters). Per "
        "answer: every RCON command sent (the trigger's read and re-arm included).\n"
    )
    print(
        "| mode | entities examined per click | entities serialized per click | commands per "
        "undo, median (max) | commands per restart |"
    )
    print("|---|---:|---:|---:|---:|")
    for detect in ("trigger", "scan"):
        m = measure(detect)
        print(
            f"| {detect} | {m['examined']:.0f} | {m['serialized']:.0f} | {m['undo']:.0f} "
            f"({m['undo_max']:.0f}) | {m['restart']:.0f} |"
        )


if __name__ == "__main__":
    main()
