"""The sandbox's server log: what the real server prints at WARN or ERROR for what it is sent
(docs/server-behaviour.md, "Item frames: summon and block_pos")."""

from __future__ import annotations

import pytest

from controller.sandbox.game import Game
from tests.support.sandbox_game import reply

ITEM = 'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}}'


@pytest.mark.parametrize(
    ("summon", "logged"),
    [
        # no block_pos at all: BlockAttachedEntity.readAdditionalSaveData reads null
        (f"summon minecraft:item_frame 10 64 10 {{Facing:1b,{ITEM}}}", ["null"]),
        (f"summon minecraft:glow_item_frame 10 64 10 {{Facing:1b,{ITEM}}}", ["null"]),
        # block_pos without Pos: compared with the block at 0 0 0, where Entity.load put it
        (
            "summon minecraft:item_frame 10 64 10 {block_pos:[I;10,64,10]}",
            ["BlockPos{x=10, y=64, z=10}"],
        ),
        # Pos without block_pos: still null
        ("summon minecraft:item_frame 10 64 10 {Pos:[10.5d,64.0d,10.5d]}", ["null"]),
        # 16 blocks away is not closer than 16 (distSqr < 256)
        (
            "summon minecraft:item_frame 10 64 10 {Pos:[10.5d,64.0d,10.5d],block_pos:[I;26,64,10]}",
            ["BlockPos{x=26, y=64, z=10}"],
        ),
        (
            "summon minecraft:item_frame 10 64 10 {Pos:[10.5d,64.0d,10.5d],block_pos:[I;25,64,10]}",
            [],
        ),
        (
            "summon minecraft:item_frame 10 64 10 "
            f"{{Pos:[10.5d,64.0d,10.5d],block_pos:[I;10,64,10],Facing:1b,{ITEM}}}",
            [],
        ),
        # entities that are not block-attached log nothing
        ("summon minecraft:armor_stand 10 64 10", []),
    ],
)
def test_a_block_attached_entity_without_a_valid_position_is_logged(
    summon: str, logged: list[str]
) -> None:
    g = Game()
    assert reply(g, summon).startswith("Summoned new ")
    want = [("ERROR", f"Block-attached entity at invalid position: {p}") for p in logged]
    assert g.world.server_log == want


def test_data_writes_to_a_frame_log_nothing() -> None:
    """`data merge` loads the frame's own save back, block_pos included."""
    g = Game()
    reply(g, "forceload add 0 0")
    reply(
        g,
        "summon minecraft:item_frame 3 64 3 "
        "{Pos:[3.5d,64.0d,3.5d],block_pos:[I;3,64,3],UUID:[I;1,2,3,4],Facing:1b}",
    )
    uid = "00000001-0000-0002-0000-000300000004"
    assert reply(g, f"data merge entity {uid} {{ItemRotation:2b}}").startswith("Modified")
    assert reply(g, f"data get entity {uid} block_pos").endswith("[I; 3, 64, 3]")
    assert g.world.server_log == []
