"""What each of the players' controls costs, per gesture (issue 24): a clockwise click, an
anticlockwise click (stick), a lock, an unlock, a click on a locked tile (turned back), an undo
and a restart, in trigger mode and in scan mode with the data pack, with item frames and glow
item frames, on a 15×15 room. Prints markdown.

Per gesture: the RCON commands the daemon sends for it (the poll that finds and writes a
click; the answer to `/trigger pipes_undo` or `pipes_restart`, the asker's read and re-arm
included), and the sandbox's counters (entities examined, entity NBT serializations), apart
for what the click's reward costs on the server (the data pack's function, run at the click)
and for the daemon's commands. The daemon runs on a clock that moves only when told, so no
lease renewal or trigger check falls inside a measured poll; each gesture's outcome is checked
before it counts.

Run: .venv/bin/python -m bench.gestures
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from controller.config import parse_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.ingame import RESTART, UNDO
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world import turns
from controller.world.datapack import LOCKED_MESSAGE, build
from tests.support.harness import Harness
from tests.support.stepclock import StepClock

SIZE = 15
REPEATS = 10  # gestures of each kind per setup
RESTARTS = 5  # restarts per setup, each after REPEATS clockwise clicks
CENTRE = SIZE // 2
# the 5×5 tiles around the centre are within reach of a player standing there
AROUND = [(CENTRE + di, CENTRE + dj) for dj in range(-2, 3) for di in range(-2, 3)]
TILES = AROUND[5 : 5 + REPEATS]  # the gestures' tiles: two rows
MODES = ("trigger", "scan")  # scan: with the data pack installed, as trigger
FRAMES = ("item_frame", "glow_item_frame")
GESTURES = (
    "clockwise click",
    "anticlockwise click (stick)",
    "lock (sneaking click)",
    "unlock (sneaking click)",
    "another player's click on a locked tile",
    "undo (of a clockwise click)",
    f"restart (after {REPEATS} clockwise clicks)",
)


@dataclass
class Samples:
    """Per gesture: the commands sent, and the counters at the click and for the commands."""

    commands: list[int] = field(default_factory=list)
    click_examined: list[int] = field(default_factory=list)
    click_serialized: list[int] = field(default_factory=list)
    answer_examined: list[int] = field(default_factory=list)
    answer_serialized: list[int] = field(default_factory=list)

    def row(self) -> tuple[str, ...]:
        """Each figure as `median (max)`."""

        def cell(values: list[int]) -> str:
            return f"{statistics.median(values):.0f} ({max(values)})"

        return tuple(
            cell(v)
            for v in (
                self.commands,
                self.click_examined,
                self.click_serialized,
                self.answer_examined,
                self.answer_serialized,
            )
        )


@contextmanager
def room(detect: str, frame: str) -> Iterator[Harness]:
    """A 15×15 room on a sandbox with the pack, Alex and Bea standing at its centre."""
    with tempfile.TemporaryDirectory(prefix="pipesctl-bench-") as tmp:
        world = Path(tmp) / "world"
        install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
        with Sandbox(world_dir=world) as sb:
            os.environ["BENCH_PW"] = sb.password
            lobby = {
                "server": "main", "origin": [0, 100, 0], "size": [SIZE, SIZE], "seed": 7,
                "frame": frame, "audit_interval_s": 0, "liveness_interval_s": 0,
                "restart_by": ["Alex"],
            }  # fmt: skip
            server = {"host": "127.0.0.1", "port": sb.port, "password_env": "BENCH_PW"}
            cfg = parse_config(
                {"state_dir": str(Path(tmp) / "state"),
                 "servers": {"main": {**server, "detect": detect}}, "worlds": {"lobby": lobby}}
            )  # fmt: skip
            daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=StepClock())
            daemon.start()
            assert daemon.detector("main").mode == detect and daemon.detector("main").clickers
            sb.join("Alex", (CENTRE + 0.5, 101, CENTRE + 0.5))
            sb.join("Bea", (CENTRE + 0.5, 101, CENTRE + 1.5))
            try:
                yield Harness(sb, cfg, daemon)
            finally:
                daemon.close()


def _counters(h: Harness) -> tuple[int, int]:
    totals = h.sb.call(lambda g: dict(g.total_cost))
    return totals["entities_examined"], totals["nbt_serializations"]


def _measure(
    samples: Samples, h: Harness, act: Callable[[], None], answer: Callable[[], int]
) -> None:
    """`act` (the player's part) then `answer` (the daemon's, returning its commands)."""
    examined, serialized = _counters(h)
    act()
    at_click = _counters(h)
    samples.commands.append(answer())
    after = _counters(h)
    samples.click_examined.append(at_click[0] - examined)
    samples.click_serialized.append(at_click[1] - serialized)
    samples.answer_examined.append(after[0] - at_click[0])
    samples.answer_serialized.append(after[1] - at_click[1])


def _click(h: Harness, player: str, i: int, j: int) -> Callable[[], None]:
    def act() -> None:
        assert h.sb.use_entity(player, h.room.uuids[j * SIZE + i])

    return act


def _trigger(h: Harness, objective: str) -> tuple[Callable[[], None], Callable[[], int]]:
    """Alex's `/trigger <objective>` (armed first, outside the counters) and the answer."""
    h.sb.call(lambda g: g.execute(f"scoreboard players enable Alex {objective}"))

    def act() -> None:
        assert h.sb.trigger("Alex", objective).startswith("Triggered")

    def answer() -> int:
        link = h.daemon.links["main"]
        sent = link.sent
        if objective == UNDO:
            h.room.ingame.check_undo(link)
        else:
            h.room.ingame.check_restart(link)
        return link.sent - sent

    return act, answer


def _sneaking(h: Harness, on: bool) -> None:
    h.sb.sneak("Alex", on)
    h.sb.tick(1)  # the crouching pose follows the key at the player's tick


def measure(detect: str, frame: str) -> dict[str, Samples]:
    """Every gesture REPEATS times (the restart RESTARTS times) on a fresh room."""
    found = {g: Samples() for g in GESTURES}
    cw, ccw, lock, unlock, refused, undo, restart = (found[g] for g in GESTURES)
    with room(detect, frame) as h:
        r = h.room
        poll = h.regular_poll
        poll()
        for player in ("Alex", "Bea"):  # first clicks: the pack numbers each clicker once
            _click(h, player, *AROUND[-1])()
            poll()
        rotations = list(r.board.rotations)
        for i, j in TILES:
            _measure(cw, h, _click(h, "Alex", i, j), poll)
            assert r.board.rotations[j * SIZE + i] == (rotations[j * SIZE + i] + 1) % 4
        for _ in TILES:
            _measure(undo, h, *_trigger(h, UNDO))
        assert r.board.rotations == rotations
        h.sb.hold("Alex", turns.ANTICLOCKWISE_ITEM)
        for i, j in TILES:
            _measure(ccw, h, _click(h, "Alex", i, j), poll)
            assert r.board.rotations[j * SIZE + i] == (rotations[j * SIZE + i] + 3) % 4
        h.sb.hold("Alex", None)
        _sneaking(h, True)
        for i, j in TILES:
            _measure(lock, h, _click(h, "Alex", i, j), poll)
            assert r.locked(j * SIZE + i)
        _sneaking(h, False)
        moves = r.current_state.moves
        for i, j in TILES:
            _measure(refused, h, _click(h, "Bea", i, j), poll)
        assert r.current_state.moves == moves
        assert any(LOCKED_MESSAGE in str(m) for m in h.sb.inbox("Bea"))
        _sneaking(h, True)
        for i, j in TILES:
            _measure(unlock, h, _click(h, "Alex", i, j), poll)
            assert not r.locked(j * SIZE + i)
        _sneaking(h, False)
        for k in range(RESTARTS):  # other tiles each time
            for i, j in random.Random(k).sample(AROUND, REPEATS):
                _click(h, "Alex", i, j)()
                poll()
            _measure(restart, h, *_trigger(h, RESTART))
            assert r.current_state.moves == 0 and r.board.rotations == r.current_state.start
    return found


def main() -> None:
    """Print the section: the set-up, then one table per detection mode."""
    print(
        f"{SIZE}×{SIZE} room, the data pack of protocol 4, two players at the centre; each "
        f"gesture {REPEATS} times on the tiles within reach (a restart {RESTARTS} times, each "
        f"after {REPEATS} clockwise clicks), the undos taking back the {REPEATS} clockwise "
        "clicks before them. Commands: the RCON commands the daemon sent for the gesture (the "
        "poll after a click; the answer to the trigger, the asker's read and re-arm included). "
        "At the click: what the click's reward (the pack's function) cost the server. The "
        "daemon's commands: what those commands cost it. Each figure is the median over the "
        "repeats, the maximum in brackets. The figures are counts, the same on any machine "
        "(no time is measured; the machine was shared with other work).\n"
    )
    results = {(d, f): measure(d, f) for d in MODES for f in FRAMES}
    same = all(
        results[(d, "item_frame")][g].row() == results[(d, "glow_item_frame")][g].row()
        for d in MODES
        for g in GESTURES
    )
    frames = FRAMES[:1] if same else FRAMES
    kind_head, kind_rule = ("", "") if same else (" frames |", "---|")
    for detect in MODES:
        title = "Trigger mode" if detect == "trigger" else "Scan mode (the data pack installed)"
        print(f"{title}:\n")
        print(
            f"| gesture |{kind_head} commands | entities examined at the click | entities "
            "serialized at the click | examined by the daemon's commands | serialized by the "
            "daemon's commands |"
        )
        print(f"|---|{kind_rule}---:|---:|---:|---:|---:|")
        for gesture in GESTURES:
            for frame in frames:
                kind = "" if same else f" {frame} |"
                cells = " | ".join(results[(detect, frame)][gesture].row())
                print(f"| {gesture} |{kind} {cells} |")
        print()
    if same:
        print(
            "Item frames and glow item frames gave the same figures for every gesture in both "
            "modes (both were measured)."
        )


if __name__ == "__main__":
    main()
