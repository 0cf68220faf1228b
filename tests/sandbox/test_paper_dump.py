"""Whole-entity dumps on Paper: the extra keys in fastutil order (docs/server-behaviour.md,
"Paper: entity dumps and key order").
"""

from __future__ import annotations

import re

from controller.sandbox.game import Game

# Paper: entity dumps and key order: "a frame summoned with CustomName and Tags would print ..."
PAPER_ORDER = (
    "Paper.SpawnReason, Invisible, ItemDropChance, Tags, Bukkit.updateLevel, ItemRotation, Item, "
    "block_pos, OnGround, Air, UUID, Invulnerable, Spigot.ticksLived, Paper.Origin, Fixed, "
    "WorldUUIDLeast, Motion, Paper.OriginWorld, Facing, Rotation, CustomName, Fire, Pos, "
    "WorldUUIDMost, fall_distance, PortalCooldown"
).split(", ")


def _top_level_keys(dump: str) -> list[str]:
    body = dump.split(" has the following entity data: ", 1)[1]
    keys, depth, token = [], 0, ""
    for ch in body:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if depth == 1 and ch == ":" and token.strip():
            keys.append(token.strip().lstrip("{, "))
            token = ""
        elif depth == 1 and ch == ",":
            token = ""
        elif depth == 1:
            token += ch
    return keys


def test_paper_frame_dump_has_paper_keys_in_paper_order() -> None:
    g = Game("paper")
    g.execute("forceload add 0 0")
    nbt = (
        '{Facing:1b,CustomName:"x",Tags:["a"],UUID:[I;1,2,3,4],'
        'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}}}'
    )
    assert g.execute(f"summon minecraft:item_frame 1 64 1 {nbt}") == ["Summoned new x"]
    (dump,) = g.execute("data get entity 00000001-0000-0002-0000-000300000004")
    assert _top_level_keys(dump) == PAPER_ORDER
    assert re.search(r'Item: \{id: "minecraft:filled_map", count: 1, components: ', dump)


def test_vanilla_frame_dump_has_no_paper_keys() -> None:
    g = Game("vanilla")
    g.execute("forceload add 0 0")
    g.execute("summon minecraft:item_frame 1 64 1 {Facing:1b,UUID:[I;1,2,3,4]}")
    (dump,) = g.execute("data get entity 00000001-0000-0002-0000-000300000004")
    assert "Paper." not in dump and "WorldUUID" not in dump
