"""Every command form pipesctl sends, as one deterministic script for sandbox ↔ server parity.

`tests/docker/test_parity_record.py` runs it against a real server and stores the replies in
`tests/golden/<flavour>-<version>.json` (the folder is created by the first recording);
`tests/sandbox/test_parity_replay.py` replays it against the sandbox and requires identical
replies. The script builds a tiny room far from spawn (x, z ≈ 10 000) with fixed UUIDs, so every
reply is deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.versions import NEWEST, Release
from controller.world import commands as cmd
from controller.world.geometry import Room, frame_uuid

__all__ = ["GOLDEN_DIR", "parity_script", "golden_path", "load_golden"]

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


def parity_script(release: Release = NEWEST) -> list[str]:
    """The commands, in order, in the forms of the server's `release`."""
    room = Room("parity", (10001, 100, 10001), 3, 3)
    a, b = frame_uuid("parity", 0, 0), frame_uuid("parity", 1, 0)
    x, y, z = room.frame_pos(0, 0)
    script = [
        *cmd.forceload(room),
        *cmd.forceload(room),  # already forced
        "forceload query 10001 10001",
        "list",
        "minecraft:list",
        "foo",
        "setblock 0 64 0 stone foo",
        *cmd.air_fills(room),
        *cmd.border_fills(room),
        *cmd.base_fills(room),
        *cmd.base_fills(room),  # nothing changes the second time
        cmd.setblock(room.state_pos(0, 0), "minecraft:shroomlight"),
        cmd.setblock(room.state_pos(0, 0), "minecraft:shroomlight"),
        cmd.setblock(room.state_pos(1, 0), "minecraft:jack_o_lantern[facing=west]"),
        "setblock 10002 99 10001 minecraft:jack_o_lantern[facing=up]",
        "setblock 10002 99 10001 minecraft:no_such_block",
        cmd.summon_frame(
            room, 0, 0, uid=a, rotation=0, map_id=1_000_014, source=True, arms=2, release=release
        ),
        cmd.summon_frame(
            room, 1, 0, uid=b, rotation=1, map_id=1_000_005, source=False, arms=8, release=release
        ),
        cmd.summon_frame(
            room, 1, 0, uid=b, rotation=1, map_id=1_000_005, source=False, release=release
        ),
        cmd.summon_preload(
            room,
            0,
            uid=frame_uuid("parity", 9, 9),
            map_id=1_000_000,
            kind="item_frame",
            release=release,
        ),  # fmt: skip
        *cmd.derive_edge_layers(room),
        *cmd.clear_arm_tags(room),
        cmd.count_frames(room, "item_frame"),
        cmd.count_frames(room, "item_frame", preload=True),
        f"data get entity {a} ItemRotation",
        f'data get entity {a} Item.components."minecraft:map_id"',
        f"data get entity {a} ItemRotation 1",
        cmd.read_rotations(room, "item_frame"),
        cmd.read_map_ids(room, "item_frame"),
        *cmd.poll_commands(["item_frame"], "all", 8),
        f"data modify entity {b} ItemRotation set value 6b",
        *cmd.poll_commands(["item_frame"], "all", 8),
        *cmd.poll_commands(["item_frame"], "near_players", 8),
        cmd.turn_frame(b, 5, room="parity", rotation=2, source=False, map_id=1_000_009),
        cmd.turn_frame(b, 6, room="parity", rotation=2, source=False, map_id=1_000_009),
        cmd.set_frame(b, room="parity", rotation=2, source=False, map_id=1_000_009),
        cmd.set_map_id(a, 1_000_018),
        cmd.set_map_id(a, 1_000_018),
        f"execute if block {x} {y - 2} {z} minecraft:pumpkin",
        f"execute if block {x} {y - 1} {z} minecraft:shroomlight",
        *cmd.layer_fills(
            y - 1, x, z, [["minecraft:shroomlight", "minecraft:melon", "minecraft:melon"]]
        ),
        'scoreboard objectives add pipes_solves dummy "Pipes solves"',
        'scoreboard objectives add pipes_solves dummy "Pipes solves"',
        "scoreboard players set #parity pipes_solves 3",
        "scoreboard players get #parity pipes_solves",
        f"title {room.near_selector()} actionbar " + cmd.text("Water: 2/9"),
        f"tellraw {room.near_selector()} " + cmd.text("Solved!"),
        f"execute as {room.near_selector()} at @s run playsound "
        "minecraft:ui.toast.challenge_complete master @s",
        f"data get entity {frame_uuid('parity', 2, 2)} ItemRotation",
        cmd.kill_frame(a),
        cmd.kill_room(room, "item_frame"),
        cmd.kill_room(room, "item_frame"),
        *cmd.forceload(room, add=False),
    ]
    return script


def golden_path(flavour: str, version: str) -> Path:
    """Where the replies of one server version are stored."""
    return GOLDEN_DIR / f"{flavour}-{version}.json"


def load_golden() -> list[tuple[Path, list[dict[str, str]]]]:
    """Every recorded golden file: [{"command", "reply"}, ...] each."""
    out = []
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        out.append((path, json.loads(path.read_text(encoding="utf-8"))))
    return out
