"""Room runtime figures against the sandbox: commands per layout / poll / click, server-side
work of an idle poll, and latencies. Prints markdown tables.

Run: .venv/bin/python -m bench.runtime_rooms
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from controller.config import parse_config
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.sandbox import Sandbox


def _daemon(sb: Sandbox, state: Path, size: int, **world: object) -> Daemon:
    os.environ["BENCH_PW"] = sb.password
    lobby = {"origin": [0, 100, 0], "size": [size, size], "seed": 11, "audit_interval_s": 0}
    lobby.update(world)
    cfg = parse_config(
        {
            "state_dir": str(state),
            "servers": {"main": {"port": sb.port, "password_env": "BENCH_PW"}},
            "worlds": {"lobby": lobby},
        }
    )
    return Daemon(cfg, ["lobby"], connect=connect_server)


def commands_table(sizes: list[int]) -> str:
    head = (
        "| size | layout commands | per tile | reconcile (restart) | idle poll "
        "| click median (max) |"
    )
    rows = [head, "|---|---|---|---|---|---|"]
    for size in sizes:
        with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
            d = _daemon(sb, Path(tmp), size)
            t0 = time.perf_counter()
            d.start()
            layout = d.links["main"].sent
            build_s = time.perf_counter() - t0
            room = d.rooms["lobby"]
            sb.join("Alex", (0.5, 101, 0.5))
            before = d.links["main"].sent
            d.poll("main")
            idle = d.links["main"].sent - before
            order = solution_order(room.board)
            costs = []
            for _ in range(40):
                idx = next_click(room.board, order)
                if idx is None:
                    break
                i, j = idx % size, idx // size
                sb.move("Alex", (i + 0.5, 101, j + 0.5))
                sb.use_entity("Alex", room.uuids[idx])
                before = d.links["main"].sent
                d.poll("main")
                costs.append(d.links["main"].sent - before - idle)
            d.close()
            again = _daemon(sb, Path(tmp), size)
            again.start()
            reconcile = again.links["main"].sent
            again.close()
            rows.append(
                f"| {size}² | {layout} ({build_s:.1f} s) | {layout / size / size:.2f} | "
                f"{reconcile} | {idle} | {statistics.median(costs):g} ({max(costs)}) |"
            )
    return "\n".join(rows)


def idle_cost_table() -> str:
    """Server-side work of one idle poll (scan detection: no data pack in the sandbox world)."""
    rows = [
        "| players on a 31×31 room | commands | entities examined | NBT serializations |",
        "|---|---|---|---|",
    ]
    with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
        d = _daemon(sb, Path(tmp), 31)
        d.start()
        d.poll("main")
        for players in (0, 1, 4, 8):
            for k in range(players):
                sb.join(f"P{k}", (3.5 + 3 * k, 101, 3.5 + 3 * k))
            d.detector("main").awake_until = 0.0
            d.poll("main")  # wake up (or fall asleep)
            sent, before = d.links["main"].sent, dict(sb.total_cost)
            d.poll("main")
            after = sb.total_cost
            rows.append(
                f"| {players} | {d.links['main'].sent - sent} "
                f"| {after['entities_examined'] - before['entities_examined']} "
                f"| {after['nbt_serializations'] - before['nbt_serializations']} |"
            )
            for k in range(players):
                sb.leave(f"P{k}")
        d.close()
    return "\n".join(rows)


def latency_table(size: int = 31, clicks: int = 40) -> str:
    """Detection → last write (handle_turn) and click → last write with the 50 ms poll loop."""
    with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
        d = _daemon(sb, Path(tmp), size)
        d.start()
        room = d.rooms["lobby"]
        sb.join("Alex", (0.5, 101, 0.5))
        detect: list[float] = []
        done_at: list[float] = []
        original = room.handle_turn

        def timed(link: object, i: int, j: int, value: int) -> bool:
            t0 = time.perf_counter()
            turned = original(link, i, j, value)  # type: ignore[arg-type]
            t1 = time.perf_counter()
            if turned:
                detect.append(t1 - t0)
                done_at.append(t1)
            return turned

        room.handle_turn = timed  # type: ignore[method-assign]
        stop = threading.Event()
        loop = threading.Thread(target=d.run, args=(stop,), daemon=True)
        loop.start()
        order = solution_order(room.board)
        click_to_write = []
        for _ in range(clicks):
            idx = next_click(room.board, order)
            if idx is None:
                break
            sb.move("Alex", (idx % size + 0.5, 101, idx // size + 0.5))
            n = len(done_at)
            t_click = time.perf_counter()
            sb.use_entity("Alex", room.uuids[idx])
            while len(done_at) == n:
                time.sleep(0.001)
            click_to_write.append(done_at[-1] - t_click)
            time.sleep(0.03)
        stop.set()
        loop.join()
        d.close()

    def pct(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000

    return "\n".join(
        [
            f"| {size}×{size}, {len(detect)} clicks | p50 | p95 |",
            "|---|---|---|",
            f"| detection → last write | {pct(detect, 0.5):.1f} ms | {pct(detect, 0.95):.1f} ms |",
            f"| click → last write (50 ms polls) | {pct(click_to_write, 0.5):.1f} ms | "
            f"{pct(click_to_write, 0.95):.1f} ms |",
        ]
    )


def main() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "15,31,64,128").split(",")]
    print("### Room runtime: RCON commands\n")
    print(commands_table(sizes))
    print("\n### Server-side work of one idle poll (sandbox cost accounting)\n")
    print(idle_cost_table())
    print("\n### Latency against the sandbox\n")
    print(latency_table())


if __name__ == "__main__":
    main()
