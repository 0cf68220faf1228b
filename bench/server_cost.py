"""What a 31×31 room costs the server, per detection mode (sandbox counters): commands and entity
NBT serializations per second and per poll with nobody online, a player far away and 1/4/8
players on the room; per click; click → last write. Prints markdown.

The modes and the `before` poll are described in `bench/detection_setup.py`.

Run: .venv/bin/python -m bench.server_cost [--quick]   (--quick: 3 s windows instead of 10 s)
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from bench.detection_setup import (
    LEGACY_REACH,
    BenchMode,
    Setup,
    frames_within,
    on_room,
    serializations,
    setup,
    turns_applied,
)
from controller.runtime.demo import next_click, solution_order
from controller.runtime.link import Link
from controller.world.replies import FrameValue

SIZE = 31
SETTLE_S = 2.5  # asleep in trigger mode, the presence check comes every two seconds
IDLE_AFTER_BUILD_S = 60.0  # nobody online from the build's end on: the idle budget's window

MODES: list[BenchMode] = ["before", "scan", "trigger"]
SITUATIONS: list[tuple[str, int | None]] = [
    ("nobody online", None),
    ("1 online, 200 blocks away", 0),
    ("1 on the room", 1),
    ("4 on the room", 4),
    ("8 on the room", 8),
]


@dataclass
class PollLog:
    """Commands and serializations of every detector poll (not the writes after it)."""

    commands: list[int] = field(default_factory=list)
    serialized: list[int] = field(default_factory=list)


@contextmanager
def running(s: Setup, measure: bool = True) -> Iterator[PollLog]:
    """The daemon's own loop in a thread, each detector poll measured (when `measure`)."""
    log = PollLog()
    detector = s.detector
    original = detector.poll

    def measured(link: Link, *, everywhere: bool = False) -> list[FrameValue]:
        sent, ser = link.sent, serializations(s.sb)
        seen = original(link, everywhere=everywhere)
        log.commands.append(link.sent - sent)
        log.serialized.append(serializations(s.sb) - ser)
        return seen

    if measure:
        detector.poll = measured  # type: ignore[method-assign]
    stop = threading.Event()
    loop = threading.Thread(target=s.daemon.run, args=(stop,), daemon=True)
    loop.start()
    try:
        yield log
    finally:
        stop.set()
        loop.join()
        detector.poll = original  # type: ignore[method-assign]


def place(s: Setup, players: int | None) -> None:
    """Nobody online (None), one player far away (0), or `players` on the room."""
    online = s.sb.call(lambda g: list(g.world.players))
    for name in online:
        s.sb.leave(name)
    if players == 0:
        s.sb.join("Far", (200.5, 101, 200.5))
    for k in range(players or 0):
        s.sb.join(f"P{k}", on_room(k, players or 0, SIZE))


def fmt_mean_max(xs: list[int]) -> str:
    if not xs:
        return "–"
    return f"{statistics.fmean(xs):.1f} ({max(xs)})"


def per_second_table(window_s: float) -> str:
    notes: list[str] = []
    rows = [
        "| mode | players | commands/s | serializations/s | polls/s | commands per poll, "
        "mean (max) | serializations per poll, mean (max) | frames within reach |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for mode in MODES:
        with setup(mode, SIZE) as s:
            s.daemon.poll("main")  # the first poll after start reads every frame once
            with running(s) as log:
                for label, players in SITUATIONS:
                    place(s, players)
                    before = mode == "before"
                    reach = LEGACY_REACH if before else s.detector.marks.survival
                    within = frames_within(s.sb, reach, eyes=not before) if players else 0
                    time.sleep(SETTLE_S)
                    n_polls = len(log.commands)
                    commands = len(s.sb.command_log)
                    ser = serializations(s.sb)
                    t0 = time.perf_counter()
                    time.sleep(window_s)
                    elapsed = time.perf_counter() - t0
                    commands = len(s.sb.command_log) - commands
                    ser = serializations(s.sb) - ser
                    polls_c = log.commands[n_polls:]
                    polls_s = log.serialized[n_polls:]
                    rate = len(polls_c) / elapsed
                    if players and rate < 0.9 / s.detector.interval:
                        nominal = statistics.fmean(polls_s) / s.detector.interval
                        notes.append(
                            f"{mode}, {label}: the sandbox kept only {rate:.1f} of the "
                            f"{1 / s.detector.interval:g} polls a second the schedule asks for "
                            f"(each poll serializes {statistics.fmean(polls_s):,.0f} frames in "
                            f"Python); at the full rate that is {nominal:,.0f} serializations/s."
                        )
                    rows.append(
                        f"| {mode} | {label} | {commands / elapsed:,.1f} | {ser / elapsed:,.0f} "
                        f"| {rate:.1f} | {fmt_mean_max(polls_c)} "
                        f"| {fmt_mean_max(polls_s)} | {within} |"
                    )
    return "\n".join(rows + [""] + [f"- {n}" for n in notes])


IDLE_WINDOW_S = 60.0


def idle_table(window_s: float = IDLE_WINDOW_S) -> str:
    """Every command a room's daemon sends with nobody online, over a long window (the idle
    schedules run every 2 to 60 s), grouped by what sends it."""
    rows = [
        "| mode | commands/s | detection | tamper guard | lease | other | serializations |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for mode in ("scan", "trigger"):
        with setup(mode, SIZE) as s:
            s.daemon.poll("main")
            with running(s, measure=False):
                place(s, None)
                time.sleep(SETTLE_S)
                first, ser = len(s.sb.command_log), serializations(s.sb)
                t0 = time.perf_counter()
                time.sleep(window_s)
                elapsed = time.perf_counter() - t0
                sent = [e.command for e in s.sb.log_entries()[first:]]
                ser = serializations(s.sb) - ser
        kinds = {"detection": 0, "guard": 0, "lease": 0, "other": 0}
        for c in sent:
            kinds[_idle_kind(c)] += 1
        rate = {k: f"{v / elapsed:.2f}" for k, v in kinds.items()}
        rows.append(
            f"| {mode} | {len(sent) / elapsed:.2f} | {rate['detection']} | {rate['guard']} "
            f"| {rate['lease']} | {rate['other']} | {ser} |"
        )
    return "\n".join(rows)


def _idle_kind(command: str) -> str:
    """Which part of the daemon sent an idle command (by its form)."""
    if command.startswith("scoreboard players get") or command.startswith("execute if entity @a["):
        return "detection"
    if "pipes_lease" in command:
        return "lease"
    if command.startswith(("fill ", "execute if entity @e[", "execute if items ")):
        return "guard"
    return "other"


def per_click_table(clicks: int = 40) -> str:
    rows = [
        "| mode | clicks | frames within reach of the clicker, median (max) | detection "
        "serializations, median (max) | max(detection − frames within reach) | write "
        "serializations, median (max) | commands, median (max) | max(commands − 2 × changed "
        "tiles) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows += [per_click_row(mode, clicks) for mode in ("scan", "trigger")]
    return "\n".join(rows)


def per_click_row(mode: BenchMode, clicks: int) -> str:
    """Clicks along the solution, each found by one direct poll with the player near."""
    with setup(mode, SIZE) as s:
        room, sb, daemon = s.room, s.sb, s.daemon
        sb.join("Alex", on_room(0, 1, SIZE))
        daemon.poll("main")
        detector = s.detector
        detector.awake, detector.awake_until = True, float("inf")  # a player is near
        daemon.poll("main")
        entry: list[int] = []
        original = room.handle_turn

        def timed(link: Link, i: int, j: int, value: int) -> bool:
            if not entry:
                entry.append(serializations(sb))
            return original(link, i, j, value)

        room.handle_turn = timed  # type: ignore[method-assign]
        order = solution_order(room.board)
        within, detect, write, commands, excess = [], [], [], [], []
        for _ in range(clicks):
            idx = next_click(room.board, order)
            if idx is None:
                break
            i, j = idx % SIZE, idx // SIZE
            x, y, z = room.geom.frame_pos(i, j)
            sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
            within.append(frames_within(sb, detector.marks.survival, "Alex"))
            old = [
                (room.play.classes[k], room.play.parents[k], room.board.rotations[k])
                for k in range(room.board.size)
            ]
            entry.clear()
            before_ser, before_sent = serializations(sb), s.link.sent
            assert sb.use_entity("Alex", room.uuids[idx])
            assert daemon.poll("main") == 1
            after = serializations(sb)
            detect.append(entry[0] - before_ser)
            write.append(after - entry[0])
            used = s.link.sent - before_sent
            changed = sum(
                1
                for k in range(room.board.size)
                if old[k] != (room.play.classes[k], room.play.parents[k], room.board.rotations[k])
            )
            commands.append(used)
            excess.append(used - 2 * changed)
        room.handle_turn = original  # type: ignore[method-assign]
    gap = max(d - w for d, w in zip(detect, within, strict=True))
    return (
        f"| {mode} | {len(detect)} | {statistics.median(within):g} ({max(within)}) "
        f"| {statistics.median(detect):g} ({max(detect)}) | {gap} "
        f"| {statistics.median(write):g} ({max(write)}) "
        f"| {statistics.median(commands):g} ({max(commands)}) | {max(excess)} |"
    )


def latency_row(mode: BenchMode, clicks: int) -> str:
    """Click → last write of the turn with the daemon's own loop, a player on the room."""
    with setup(mode, SIZE) as s:
        room, sb = s.room, s.sb
        sb.join("Alex", on_room(0, 1, SIZE))
        order = solution_order(room.board)
        latencies: list[float] = []
        with turns_applied(room) as done_at, running(s, measure=False):
            time.sleep(SETTLE_S)  # awake: the player is near
            for _ in range(clicks):
                idx = next_click(room.board, order)
                if idx is None:
                    break
                i, j = idx % SIZE, idx // SIZE
                x, y, z = room.geom.frame_pos(i, j)
                sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
                n = len(done_at)
                t_click = time.perf_counter()
                assert sb.use_entity("Alex", room.uuids[idx])
                deadline = t_click + 5.0
                while len(done_at) == n and time.perf_counter() < deadline:
                    time.sleep(0.0005)
                if len(done_at) > n:
                    latencies.append(done_at[-1][1] - t_click)
                time.sleep(0.03)

    def pct(q: float) -> float:
        xs = sorted(latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000

    return f"| {mode} | {len(latencies)} of {clicks} | {pct(0.5):.1f} ms | {pct(0.95):.1f} ms |"


def latency_table(clicks: int = 40) -> str:
    rows = ["| mode | clicks applied | p50 | p95 |", "|---|---:|---:|---:|"]
    rows += [latency_row(mode, clicks) for mode in MODES]
    return "\n".join(rows)


def size_row(size: int, clicks: int = 20) -> str:
    """One board size in trigger mode: the whole daemon and its tamper guard for 60 s with
    nobody online right after the build, then 15 s with one player standing on the room (the
    daemon thread's CPU time besides), then clicks along the solution while the guard narrows
    down and repairs a 10×10 patch of replaced blocks."""
    with setup("trigger", size) as s:
        sb, room, daemon = s.sb, s.room, s.daemon
        link, guard = daemon.links["main"], room.guard
        cpu = [0.0]
        step_server = daemon.step_server

        def timed_step(server: str) -> None:
            t = time.thread_time()
            step_server(server)
            cpu[0] += time.thread_time() - t

        daemon.step_server = timed_step  # type: ignore[method-assign]
        stop = threading.Event()
        loop = threading.Thread(target=daemon.run, args=(stop,), daemon=True)
        loop.start()
        sent, by_guard = link.sent, guard.commands_sent
        time.sleep(IDLE_AFTER_BUILD_S)
        idle = (
            f"{(link.sent - sent) / IDLE_AFTER_BUILD_S:.2f} / "
            f"{(guard.commands_sent - by_guard) / IDLE_AFTER_BUILD_S:.2f}"
        )
        sb.join("Alex", on_room(0, 1, size))
        time.sleep(SETTLE_S + 1.0)
        sent, by_guard, blocks, used = link.sent, guard.commands_sent, guard.blocks_examined, cpu[0]
        time.sleep(15.0)
        near = f"{(link.sent - sent) / 15:.1f} / {(guard.commands_sent - by_guard) / 15:.1f}"
        blocks_s = f"{(guard.blocks_examined - blocks) / 15:,.0f}"
        share = f"{100 * (cpu[0] - used) / 15:.1f} %"
        y = room.geom.y0 - 2
        sb.call(lambda g: g.execute(f"fill 2 {y} 2 11 {y} 11 minecraft:stone"))
        order = solution_order(room.board)
        latencies: list[float] = []
        with turns_applied(room) as done_at:
            for _ in range(clicks):
                idx = next_click(room.board, order)
                if idx is None:
                    break
                x, fy, z = room.geom.frame_pos(idx % size, idx // size)
                sb.move("Alex", (x + 0.5, fy + 1, z + 0.5))
                n = len(done_at)
                t_click = time.perf_counter()
                assert sb.use_entity("Alex", room.uuids[idx])
                while len(done_at) == n and time.perf_counter() - t_click < 5.0:
                    time.sleep(0.0005)
                if len(done_at) > n:
                    latencies.append(done_at[-1][1] - t_click)
                time.sleep(0.2)
        stop.set()
        loop.join()
        ordered = sorted(latencies)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000 if ordered else 0.0
        return (
            f"| {size}×{size} | {idle} | {near} | {blocks_s} | {share} "
            f"| {len(latencies)} of {clicks}, p95 {p95:.0f} ms | {guard.blocks_fixed} |"
        )


def size_table(sizes: list[int]) -> str:
    rows = [
        "| room | nobody online, the 60 s after the build: all / guard commands/s | one player on "
        "the room: all / guard commands/s | guard: blocks compared or filled/s | daemon CPU, "
        "one player on the room | clicks applied during a repair (10×10 blocks replaced) "
        "| blocks put back |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    rows += [size_row(size) for size in sizes]
    return "\n".join(rows)


BEFORE_QUOTED = """\
As first measured before detection modes (31×31 room, default settings, sandbox counters):

| players standing on the room | commands per second | entity NBT serializations per second |
|---:|---:|---:|
| 0 (nobody online) | 80 | 0 |
| 1 | 80 | ~3,900 |
| 4 | 80 | ~15,400 |
| 8 | 80 | ~28,200 |
"""


def section(title: str, body: Callable[[], str]) -> None:
    print(f"### {title}\n")
    print(body())
    print()


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    window = 3.0 if quick else 10.0
    print(
        "31×31 room, configuration defaults (poll 50 ms, the server's reach: 6.71 from a "
        "survival player's eyes, wake distance 48); "
        "`before` is the old poll (four `nbt=` commands every 50 ms, reach 8, never asleep; "
        f"`bench/detection_setup.py`). Windows of {window:g} s after {SETTLE_S:g} s to settle. "
        "Commands are every command the daemon sent (action bar included); serializations "
        "include the data pack's advancement check.\n"
    )
    print(BEFORE_QUOTED)
    section("Per second and per poll", lambda: per_second_table(window))
    section(f"Nobody online, {IDLE_WINDOW_S:g} s, every command by sender", idle_table)
    section("Per click (one player on the room, 40 clicks along the solution)", per_click_table)
    section("Click → last write, one player on the room (daemon loop)", latency_table)
    sizes = [31, 64] if quick else [31, 64, 128]
    if "--sizes" in sys.argv:
        sizes = [int(v) for v in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
    section("By board size (trigger mode, the tamper guard included)", lambda: size_table(sizes))
    print(
        "The sandbox and the daemon share one Python process, and a command whose selector "
        "walks the ~1,000 entities of the room costs the sandbox about 1.5 ms (`bench."
        "sandbox_game`), so the commands that find a click (scan: 3, trigger: 3) add to the "
        "delay beyond the poll interval."
    )


if __name__ == "__main__":
    main()
