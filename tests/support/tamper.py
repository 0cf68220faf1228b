"""Tampering with a pipes room in the sandbox, and waiting for the daemon to repair it (the
tamper tests and `bench/room_tamper.py`): a clock the caller drives, each tamper kind's console
commands, and the checks that the room is whole again."""

from __future__ import annotations

from controller.runtime.daemon import Daemon
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from controller.world.geometry import frame_name
from controller.world.replies import parse_count
from tests.support.harness import world_mismatches

__all__ = [
    "KINDS",
    "StepClock",
    "commands_sent",
    "pipes_room",
    "run",
    "frames_in_box",
    "dropped_maps",
    "until_repaired",
    "tamper_commands",
]


class StepClock:
    """Time that moves only when the test says so (sleeping moves it too)."""

    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return 1_800_000_000.0 + self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def pipes_room(daemon: Daemon) -> PipesRoom:
    room = daemon.rooms["lobby"]
    assert isinstance(room, PipesRoom)
    return room


def run(sb: Sandbox, command: str) -> list[str]:
    return sb.call(lambda g: g.execute(command))


def frames_in_box(sb: Sandbox, room: PipesRoom) -> int:
    both = [cmd.count_frames_in_box(room.geom, kind) for kind in cmd.FRAME_KINDS]
    return sum(parse_count(run(sb, c)[0]) for c in both)


def dropped_maps(sb: Sandbox, room: PipesRoom) -> int:
    box = cmd.guard_box(room.geom, grow=2)
    reply = run(
        sb, f"execute if items entity @e[type=minecraft:item,{box}] contents {cmd.MAP_ITEM}"
    )
    return parse_count(reply[0])


def commands_sent(daemon: Daemon) -> int:
    """Every command the daemon sent so far, over all its servers."""
    return sum(link.sent for link in daemon.links.values())


def until_repaired(sb: Sandbox, daemon: Daemon, clock: StepClock, limit: float) -> float:
    """Step the daemon in 50 ms of its time until the room equals its state; the time taken.

    Only the daemon's commands repair the room, so the world is compared after the first step
    and after each step that sent a command (a step that sent none changed nothing that a
    comparison could see, and comparing costs a few ms of the server's main thread)."""
    room = pipes_room(daemon)
    start = clock.now
    seen = -1
    while clock.now - start <= limit:
        clock.now += 0.05
        daemon.step()
        sent = commands_sent(daemon)
        if sent == seen:
            continue
        seen = sent
        if (
            not world_mismatches(sb, room)
            and frames_in_box(sb, room) == room.board.size
            and dropped_maps(sb, room) == 0
        ):
            return clock.now - start
    raise AssertionError(f"not repaired in {limit} s: {world_mismatches(sb, room)}")


def tamper_commands(room: PipesRoom, kind: str) -> list[str]:
    """The console commands of one tamper kind (on tile (1, 1) or its blocks)."""
    i, j = 1, 1
    idx = j * room.board.width + i
    uid = room.uuids[idx]
    x, y, z = room.geom.frame_pos(i, j)
    rotation = room.board.rotations[idx]
    if kind == "kill_frame":
        return [f"kill {uid}"]
    if kind == "break_state_block":
        sx, sy, sz = room.geom.state_pos(i, j)
        return [f"setblock {sx} {sy} {sz} minecraft:air"]
    if kind == "replace_edge_block":
        ex, ey, ez = room.geom.east_pos(i, j)
        return [f"setblock {ex} {ey} {ez} minecraft:stone"]
    if kind == "empty_frame":
        return [f"data remove entity {uid} Item"]
    if kind == "remove_tags":
        return [f"data merge entity {uid} {{Tags:[]}}"]
    if kind == "same_named_foreign_frame":
        bx, by, bz = room.geom.x0 - 1, room.geom.y0, room.geom.z0  # on the border log
        return [
            f"summon minecraft:item_frame {bx} {by} {bz} "
            f'{{Facing:1b,CustomName:"{frame_name(room.name, i, j)}"}}'
        ]
    if kind == "look_alike_frame":
        tags = ",".join(f'"{t}"' for t in cmd.frame_tags(room.name, rotation))
        return [
            f"summon minecraft:item_frame {x} {y} {z} {{Facing:1b,Invulnerable:1b,"
            f'CustomName:"{frame_name(room.name, i, j)}",Tags:[{tags}],'
            f'Item:{{id:"minecraft:filled_map",count:1,components:{{"minecraft:map_id":'
            f"{room.map_id(idx)}}}}}}}"
        ]
    if kind == "item_rotation_7":
        return [f"data merge entity {uid} {{ItemRotation:7b}}"]
    if kind == "foreign_map_id":
        return [f'data modify entity {uid} Item.components."minecraft:map_id" set value 4242']
    raise AssertionError(kind)


KINDS = [
    "kill_frame",
    "break_state_block",
    "replace_edge_block",
    "empty_frame",
    "remove_tags",
    "same_named_foreign_frame",
    "look_alike_frame",
    "item_rotation_7",
    "foreign_map_id",
]
