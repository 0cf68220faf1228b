"""Another RCON tool on the same server while a room runs (vanilla shares one output buffer
between connections: docs/server-behaviour.md, "Shared output buffer").

A second client (mcrcon as shipped, as an admin's script would use it) sends `list` and
`data get entity <uuid>` of a marker entity in turn, 10 commands a second on average at random
moments (a Poisson process, so they do not lock onto the daemon's 50 ms rhythm), while a simulated
player on the 31×31 room turns a random frame within reach about four times a second. Every
reply of the second client is compared with the reply the same command gave before the room's
daemon ran (nothing else changes them); at the end the room is checked: every turn applied
(each frame's rotation = initial + clicks, mod 4) and the world equal to a full recompute of the
engine. Modes as in `bench/detection_setup.py` (`before` = the old 80 commands/s poll).

Run: .venv/bin/python -m bench.foreign_client [--quick]   (60 s per mode; --quick: 15 s)
"""

from __future__ import annotations

import random
import sys
import threading
import time

from mcrcon import MCRcon

from bench.detection_setup import BenchMode, Setup, on_room, setup
from tests.support.harness import world_mismatches

MARKER = "00000001-0000-0002-0000-000300000004"  # UUID [I;1,2,3,4]
RATE_HZ = 10.0
CLICK_EVERY_S = 0.25
MODES: list[BenchMode] = ["before", "scan", "trigger"]


def clicker(
    s: Setup, stop: threading.Event, clicks: dict[int, int], seed: int, playing: bool
) -> None:
    """The player walks around the room and turns a random frame within reach."""
    rng = random.Random(seed)
    room, sb = s.room, s.sb
    width = room.board.width
    while playing and not stop.is_set():
        idx = rng.randrange(room.board.size)
        i, j = idx % width, idx // width
        x, y, z = room.geom.frame_pos(i, j)
        sb.move("Alex", (x + 0.5 + rng.uniform(-1, 1), y + 1, z + 0.5 + rng.uniform(-1, 1)))
        if sb.use_entity("Alex", room.uuids[idx]):
            clicks[idx] = clicks.get(idx, 0) + 1
        stop.wait(CLICK_EVERY_S)


def run_mode(mode: BenchMode, seconds: float, playing: bool) -> str:
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
        stop_loop, stop_clicks = threading.Event(), threading.Event()
        loop = threading.Thread(target=daemon.run, args=(stop_loop,), daemon=True)
        player = threading.Thread(
            target=clicker, args=(s, stop_clicks, clicks, 5, playing), daemon=True
        )
        sent_before = len(sb.command_log)
        loop.start()
        time.sleep(1.5)  # awake: the player is on the room
        player.start()
        wrong = {"wiped (empty)": 0, "another reply": 0, "mixed with another reply": 0}
        total = 0
        arrivals = random.Random(9)
        t0 = time.perf_counter()
        next_at = t0
        while time.perf_counter() - t0 < seconds:
            command = commands[total % 2]
            reply = foreign.command(command)
            total += 1
            if reply != expected[command]:
                if not reply:
                    wrong["wiped (empty)"] += 1
                elif expected[command] in reply:
                    wrong["mixed with another reply"] += 1
                else:
                    wrong["another reply"] += 1
            next_at += arrivals.expovariate(RATE_HZ)  # at random moments, 10 a second
            time.sleep(max(0.0, next_at - time.perf_counter()))
        elapsed = time.perf_counter() - t0
        stop_clicks.set()
        player.join()
        time.sleep(2.5)  # the last turns are applied within a poll or two
        stop_loop.set()
        loop.join()
        foreign.disconnect()
        daemon_rate = (len(sb.command_log) - sent_before - total - 2) / (elapsed + 4.0)
        board = room.board
        lost = sum(
            1
            for k in range(board.size)
            if board.rotations[k] != (initial[k] + clicks.get(k, 0)) % 4
        )
        mismatches = world_mismatches(sb, room)
        bad = sum(wrong.values())
        detail = ", ".join(f"{n} {what}" for what, n in wrong.items() if n) or "none"
        return (
            f"| {mode} | {'turns frames' if playing else 'stands still'} | {daemon_rate:.1f} "
            f"| {total} | {bad} ({100 * bad / total:.1f} %): {detail} "
            f"| {sum(clicks.values())} | {lost} | {len(mismatches)} |"
        )


def main() -> None:
    args = sys.argv[1:]
    seconds = 15.0 if "--quick" in args else 60.0
    if "--seconds" in args:
        seconds = float(args[args.index("--seconds") + 1])
    print(
        f"{seconds:g} s per row; the second client sends {RATE_HZ:g} commands a second "
        "(`list` and `data get entity <marker>` in turn, at random moments); the player turns "
        f"a frame every {CLICK_EVERY_S:g} s. Wrong = not the reply the command gave with no "
        "daemon running.\n"
    )
    rows = [
        "| mode | player on the room | daemon commands/s | second client's replies | wrong "
        "| turns made | frames whose rotation is not initial + turns "
        "| world blocks/frames ≠ recompute |",
        "|---|---|---:|---:|---|---:|---:|---:|",
    ]
    rows += [run_mode(mode, seconds, playing) for playing in (False, True) for mode in MODES]
    print("\n".join(rows))


if __name__ == "__main__":
    main()
