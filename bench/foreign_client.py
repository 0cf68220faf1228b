"""Another RCON tool on the same server while a room runs (vanilla shares one output buffer
between connections: docs/server-behaviour.md, "Shared output buffer").

A second client (mcrcon as shipped, as an admin's script would use it) sends `list` and
`data get entity <uuid>` of a marker entity in turn, at a given rate at random moments (a
Poisson process, so they do not lock onto the daemon's rhythm), while a simulated player on the
31×31 room turns a random frame near them at a given interval. Every reply of the second client
is compared with the reply the same command gave before the room's daemon ran (nothing else
changes them); each click is timed until the daemon has applied it (click → last write); at the
end the room is checked: every turn applied (each frame's rotation = initial + clicks, mod 4) and
the world equal to a full recompute of the engine. Modes as in `bench/detection_setup.py`.

Run: .venv/bin/python -m bench.foreign_client [--seconds S] [--rates 5,20]
     [--clicks still,1,0.25] [--modes trigger,scan]   (defaults: 20 s per row; `still`: the
     player stands on the room without clicking)
"""

from __future__ import annotations

import random
import sys
import threading
import time

from mcrcon import MCRcon

from bench.detection_setup import BenchMode, Setup, on_room, setup, turns_applied
from tests.support.harness import world_mismatches

MARKER = "00000001-0000-0002-0000-000300000004"  # UUID [I;1,2,3,4]


def clicker(
    s: Setup, stop: threading.Event, every: float, clicks: dict[int, int], latencies: list[float]
) -> None:
    """The player moves next to a random frame and turns it, then waits `every` seconds; each
    click is timed until the daemon has applied a turn of that frame."""
    rng = random.Random(5)
    room, sb = s.room, s.sb
    width = room.board.width
    with turns_applied(room) as applied:
        while not stop.is_set():
            idx = rng.randrange(room.board.size)
            x, y, z = room.geom.frame_pos(idx % width, idx // width)
            sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
            seen = len(applied)
            t_click = time.perf_counter()
            if sb.use_entity("Alex", room.uuids[idx]):
                clicks[idx] = clicks.get(idx, 0) + 1
                done = None
                while done is None and time.perf_counter() - t_click < 3.0:
                    done = next((t for k, t in applied[seen:] if k == idx), None)
                    time.sleep(0.001)
                if done is not None:
                    latencies.append(done - t_click)
            stop.wait(every)


def _pct(xs: list[float], q: float) -> str:
    if not xs:
        return "—"
    ordered = sorted(xs)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.0f}"


def run_row(mode: BenchMode, seconds: float, rate: float, every: float | None) -> str:
    """One row: the second client at `rate` commands a second; the player clicks every `every`
    seconds (None: stands still)."""
    with setup(mode) as s:
        sb, room, daemon = s.sb, s.room, s.daemon
        sb.join("Alex", on_room(0, 1))
        sb.call(lambda g: g.execute("summon minecraft:marker 15.5 110 15.5 {UUID:[I;1,2,3,4]}"))
        sb.tick(2)
        foreign = MCRcon("127.0.0.1", sb.password, sb.port)
        foreign.connect()
        commands = ["list", f"data get entity {MARKER}"]
        expected = {c: foreign.command(c) for c in commands}
        assert all(expected.values()) and all(foreign.command(c) == expected[c] for c in commands)
        initial = list(room.board.rotations)
        clicks: dict[int, int] = {}
        latencies: list[float] = []
        stop_loop, stop_clicks = threading.Event(), threading.Event()
        loop = threading.Thread(target=daemon.run, args=(stop_loop,), daemon=True)
        player = threading.Thread(
            target=clicker, args=(s, stop_clicks, every or 0.0, clicks, latencies), daemon=True
        )
        loop.start()
        time.sleep(1.5)  # awake: the player is on the room
        if every is not None:
            player.start()
        sent_before = len(sb.command_log)
        wrong = 0
        total = 0
        arrivals = random.Random(9)
        t0 = time.perf_counter()
        next_at = t0
        while time.perf_counter() - t0 < seconds:
            command = commands[total % 2]
            reply = foreign.command(command)
            total += 1
            wrong += reply != expected[command]
            next_at += arrivals.expovariate(rate)
            time.sleep(max(0.0, next_at - time.perf_counter()))
        elapsed = time.perf_counter() - t0
        daemon_rate = (len(sb.command_log) - sent_before - total) / elapsed
        stop_clicks.set()
        if every is not None:
            player.join()
        time.sleep(2.5)  # the last turns are applied within a poll or two
        stop_loop.set()
        loop.join()
        foreign.disconnect()
        board = room.board
        lost = sum(
            1
            for k in range(board.size)
            if board.rotations[k] != (initial[k] + clicks.get(k, 0)) % 4
        )
        mismatches = len(world_mismatches(sb, room))
        player_cell = "stands still" if every is None else f"clicks every {every:g} s"
        return (
            f"| {mode} | {rate:g} | {player_cell} | {daemon_rate:.1f} | {total} "
            f"| {wrong} ({100 * wrong / total:.1f} %) | {sum(clicks.values())} "
            f"| {_pct(latencies, 0.5)} / {_pct(latencies, 0.95)} | {lost} | {mismatches} |"
        )


def _arg(args: list[str], name: str, default: str) -> str:
    return args[args.index(name) + 1] if name in args else default


def main() -> None:
    args = sys.argv[1:]
    seconds = float(_arg(args, "--seconds", "20"))
    rates = [float(r) for r in _arg(args, "--rates", "5,20").split(",")]
    intervals = [
        None if c == "still" else float(c)
        for c in _arg(args, "--clicks", "still,1,0.25").split(",")
    ]
    modes: list[BenchMode] = _arg(args, "--modes", "trigger,scan").split(",")  # type: ignore[assignment]
    print(
        f"{seconds:g} s per row; the second client sends `list` and `data get entity <marker>` "
        "in turn at random moments; wrong = not the reply the command gave with no daemon "
        "running; click latency = the player's click → the daemon's last write of that turn.\n"
    )
    rows = [
        "| mode | second client, commands/s | player | daemon commands/s | second client's "
        "replies | wrong | clicks | click → applied, p50 / p95 (ms) | frames whose rotation is "
        "not initial + clicks | world blocks/frames ≠ recompute |",
        "|---|---:|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for mode in modes:
        for rate in rates:
            for every in intervals:
                rows.append(run_row(mode, seconds, rate, every))
                print(rows[-1], file=sys.stderr, flush=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
