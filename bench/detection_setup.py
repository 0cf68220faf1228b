"""Shared set-up of the server-cost benchmarks: a sandbox and a daemon per detection mode.

Modes:

- `trigger`: the companion data pack is installed in the sandbox's world (`detect: trigger`);
- `scan`: no data pack (`detect: scan`);
- `before`: the poll pipesctl used before turn detection had modes, rebuilt here for comparison
  (`LegacyDetector`): every `poll_interval_ms` (50 ms), whoever is online, the four
  `world.commands.poll_commands` with scope `near_players` and reach 8 (the old `poll_reach`
  default): `execute at @a as @e[…,tag=pipes.r<r>,distance=..8] unless entity
  @s[nbt={ItemRotation:<r>b}] run data get entity @s ItemRotation`, so every frame within 8 blocks
  of a player is serialized by the `nbt=` check once per poll and once more per extra player near
  it. No presence check, no slow rate.

Every other setting is the configuration default (poll 50 ms, the server's reach rule: 6.71
blocks from a survival player's eyes; wake distance 48).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from controller.config import parse_config
from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.detection import TurnDetector
from controller.runtime.link import Link
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.room import Room
from controller.sandbox import Sandbox
from controller.versions import release
from controller.world.commands import poll_commands
from controller.world.datapack import build
from controller.world.replies import FrameValue, parse_frame_values

__all__ = [
    "BenchMode",
    "LEGACY_REACH",
    "LegacyDetector",
    "Setup",
    "setup",
    "serializations",
    "frames_within",
    "on_room",
    "turns_applied",
]

BenchMode = Literal["trigger", "scan", "before"]
LEGACY_REACH = 8.0


class LegacyDetector(TurnDetector):
    """The poll before detection modes: four `nbt=` commands every poll, reach 8, never asleep."""

    def __init__(self, rooms: Sequence[Room]) -> None:
        super().__init__(rooms, "scan")

    @property
    def interval(self) -> float:
        """Always the fast interval."""
        return self.fast_interval

    def poll(
        self, link: Link, *, everywhere: bool = False, marks: bool = False
    ) -> list[FrameValue]:
        """The four commands (every frame after a gap)."""
        self.awake = True
        scope = "all" if everywhere else "near_players"
        seen: list[FrameValue] = []
        for command in poll_commands(self.kinds, scope, LEGACY_REACH):
            seen += parse_frame_values(link.send(command), byte=True)
        return seen


@dataclass
class Setup:
    """A running sandbox and a started daemon with one room `lobby` at (0, 100, 0)."""

    sb: Sandbox
    daemon: Daemon
    mode: BenchMode

    @property
    def room(self) -> PipesRoom:
        room = self.daemon.rooms["lobby"]
        assert isinstance(room, PipesRoom)
        return room

    @property
    def link(self) -> Link:
        return self.daemon.links["main"]

    @property
    def detector(self) -> TurnDetector:
        return self.daemon.detector("main")


@contextmanager
def setup(mode: BenchMode, size: int = 31, seed: int = 11) -> Iterator[Setup]:
    """A sandbox (with the data pack for `trigger`) and a daemon that has built the room."""
    with tempfile.TemporaryDirectory(prefix="pipesctl-bench-") as tmp:
        world = Path(tmp) / "world"
        if mode == "trigger":
            install_pack(world / "datapacks" / PACK_FOLDER, build(release("26.1")))
        with Sandbox(world_dir=world if mode == "trigger" else None) as sb:
            os.environ["BENCH_PW"] = sb.password
            cfg = parse_config(
                {
                    "state_dir": str(Path(tmp) / "state"),
                    "servers": {
                        "main": {
                            "port": sb.port,
                            "password_env": "BENCH_PW",
                            "detect": "trigger" if mode == "trigger" else "scan",
                        }
                    },
                    "worlds": {
                        "lobby": {"origin": [0, 100, 0], "size": [size, size], "seed": seed}
                    },
                }
            )
            daemon = Daemon(cfg, ["lobby"], connect=connect_server)
            if mode == "before":
                daemon.detectors["main"] = LegacyDetector(daemon.by_server["main"])
            try:
                daemon.start()
                yield Setup(sb, daemon, mode)
            finally:
                daemon.close()


def serializations(sb: Sandbox) -> int:
    """Entity NBT serializations so far: commands plus work no command asked for (the data
    pack's advancement check on a click)."""
    total: int = sb.call(lambda g: g.total_cost["nbt_serializations"])
    return total


def frames_within(
    sb: Sandbox, reach: float, player: str | None = None, *, eyes: bool = True
) -> int:
    """Distinct room frames within `reach` of a player's eyes (its feet when not `eyes`, as the
    old poll measured) (of any online player when None).

    Counted with the game's own selector (tags added and removed outside the command log)."""
    who = "@a" if player is None else f"@a[name={player}]"
    at = "at @s anchored eyes positioned ^ ^ ^" if eyes else "at @s"

    def count(game: object) -> int:
        run = game.execute  # type: ignore[attr-defined]
        run(f"execute as {who} {at} run tag @e[tag=pipes,distance=..{reach:g}] add bench.reach")
        reply = run("execute if entity @e[tag=bench.reach]")[0]
        run("tag @e[tag=bench.reach] remove bench.reach")
        return int(reply.rsplit(" ", 1)[1]) if "Count" in reply else 0

    found: int = sb.call(count)
    return found


def on_room(k: int, n: int, size: int = 31) -> tuple[float, float, float]:
    """Where player `k` of `n` stands on a room at (0, 100, 0): along the diagonal through the
    centre, three blocks apart, so neighbours share frames within reach."""
    centre = size // 2 + 0.5
    offset = 3 * (k - (n - 1) / 2)
    return (centre + offset, 101.0, centre + offset)


@contextmanager
def turns_applied(room: PipesRoom) -> Iterator[list[tuple[int, float]]]:
    """While inside: every turn the room applies, as (tile index, `perf_counter` time)."""
    applied: list[tuple[int, float]] = []
    original = room.handle_turn

    def timed(link: Link, i: int, j: int, value: int) -> bool:
        turned = original(link, i, j, value)
        if turned:
            applied.append((j * room.board.width + i, time.perf_counter()))
        return turned

    room.handle_turn = timed  # type: ignore[method-assign]
    try:
        yield applied
    finally:
        room.handle_turn = original  # type: ignore[method-assign]
