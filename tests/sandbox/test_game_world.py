"""World behaviour of the sandbox game: chunk loading timing, frames popping, players, save/load,
cost counters and Paper differences (docs/server-behaviour.md, "Item frames", "Loaded positions"
to "Chunk ticket levels", "Paper: chunk and entity loading").
"""

from __future__ import annotations

import pathlib
import uuid

import pytest

from controller.sandbox.game import Game
from tests.support.sandbox_game import FRAME, UUID1, reply

FRAME_A = FRAME.format(
    x=0, y=64, z=0, rot=2, u0=1, u1=-2, u2=3, u3=4, room="lobby", i=3, j=7, extra="", map=5
)
U1 = uuid.UUID(UUID1)


def frame_world(flavour: str = "vanilla") -> Game:
    game = Game(flavour)
    game.execute("forceload add 0 0")
    game.execute("setblock 0 63 0 minecraft:melon")
    assert reply(game, FRAME_A) == "Summoned new pipes:lobby:3:7"
    return game


def test_forceload_add_loads_blocks_at_once_and_entities_next_tick() -> None:
    game = Game()
    assert reply(game, "setblock 40 64 0 minecraft:melon") == "That position is not loaded"
    game.execute("forceload add 0 0")
    # forced chunk [0,0] has level 31; chunks up to 2 away have 32, 33: loaded for blocks
    assert reply(game, "setblock 40 64 0 minecraft:melon") == "Changed the block at 40, 64, 0"
    assert reply(game, "setblock 48 64 0 minecraft:melon") == "That position is not loaded"
    # `if loaded` needs level <= 31 and loaded entities
    assert reply(game, "execute if loaded 0 64 0") == "Test failed"
    game.tick()
    assert reply(game, "execute if loaded 0 64 0") == "Test passed"
    assert reply(game, "execute if loaded 16 64 0") == "Test failed"


def test_stored_entities_come_back_one_tick_after_their_chunk_loads() -> None:
    game = frame_world()
    game.tick()
    assert reply(game, "forceload remove 0 0") == (
        "Unmarked chunk [0, 0] in minecraft:overworld for force loading"
    )
    # removal takes effect at the next tick
    assert reply(game, f"data get entity {UUID1} ItemRotation").endswith("2b")
    game.tick()
    assert reply(game, f"data get entity {UUID1} ItemRotation") == "No entity was found"
    game.execute("forceload add 0 0")
    assert reply(game, "setblock 1 64 1 minecraft:melon") == "Changed the block at 1, 64, 1"
    assert reply(game, f"data get entity {UUID1} ItemRotation") == "No entity was found"
    game.tick()
    assert reply(game, f"data get entity {UUID1} ItemRotation") == (
        "pipes:lobby:3:7 has the following entity data: 2b"
    )


def test_paper_entities_come_back_with_the_chunk() -> None:
    game = frame_world("paper")
    game.execute("forceload remove 0 0")
    for _ in range(201):  # chunks.delay-chunk-unloads-by: 10 s
        game.tick()
    assert reply(game, f"data get entity {UUID1} ItemRotation") == "No entity was found"
    game.execute("forceload add 0 0")
    assert reply(game, f"data get entity {UUID1} ItemRotation") == (
        "pipes:lobby:3:7 has the following entity data: 2b"
    )


def test_player_loads_view_distance_plus_two_at_next_tick() -> None:
    game = Game()
    game.join("alex", (8.0, 64.0, 8.0))
    assert reply(game, "setblock 8 64 8 minecraft:melon") == "That position is not loaded"
    game.tick()
    assert reply(game, "setblock 8 64 8 minecraft:melon") == "Changed the block at 8, 64, 8"
    # view distance 10: chunk 12 is level 33 (loaded), chunk 13 is not
    assert reply(game, "setblock 207 64 8 minecraft:melon") == "Changed the block at 207, 64, 8"
    assert reply(game, "setblock 208 64 8 minecraft:melon") == "That position is not loaded"
    game.tick()
    assert reply(game, "execute if loaded 160 64 8") == "Test passed"
    assert reply(game, "execute if loaded 176 64 8") == "Test failed"
    game.leave("alex")
    game.tick()
    assert reply(game, "setblock 8 64 8 minecraft:pumpkin") == "That position is not loaded"


def test_summon_into_unloaded_chunk_is_hidden_until_it_loads() -> None:
    game = Game()
    assert reply(game, FRAME_A) == "Summoned new pipes:lobby:3:7"  # "Feedback: summon"
    assert reply(game, f"kill {UUID1}") == "No entity was found"
    game.execute("forceload add 0 0")
    assert reply(game, f"kill {UUID1}") == "Killed pipes:lobby:3:7"


def test_non_fixed_frame_without_support_pops_on_its_100_tick_check() -> None:
    game = frame_world()
    game.execute("setblock 0 63 0 minecraft:air")
    for _ in range(100):
        game.tick()
    assert game.entity_nbt(U1) is not None  # first check at the 101st tick
    game.tick()
    assert game.entity_nbt(U1) is None
    items = [e for e in game.world.entities.values() if e.type_id == "minecraft:item"]
    assert sorted(str(e.extra["Item"]["id"]) for e in items) == [
        "minecraft:filled_map",
        "minecraft:item_frame",
    ]


def test_supported_and_fixed_frames_survive() -> None:
    game = frame_world()
    game.execute("summon minecraft:item_frame 2 64 0 {Facing:1b,Fixed:1b,UUID:[I;7,7,7,7]}")
    for _ in range(250):
        game.tick()
    assert game.entity_nbt(U1) is not None
    assert game.entity_nbt(uuid.UUID("00000007-0000-0007-0000-000700000007")) is not None


def test_frames_do_not_tick_outside_entity_ticking_chunks() -> None:
    game = frame_world()
    game.execute("setblock 0 63 0 minecraft:air")
    game.execute("forceload remove 0 0")
    for _ in range(300):
        game.tick()
    assert game.entity_nbt(U1) is not None


def test_use_entity_rotates_inserts_and_respects_fixed() -> None:
    game = frame_world()
    game.join("alex", (0.5, 65.0, 0.5))
    assert game.frame_at(0, 64, 0) == U1
    for expected in (3, 4, 5, 6, 7, 0):
        assert game.use_entity("alex", U1)
        assert int(game.entity_nbt(U1)["ItemRotation"]) == expected  # type: ignore[index]
    game.execute("summon minecraft:item_frame 1 64 0 {Facing:1b,UUID:[I;0,0,0,2]}")
    empty = uuid.UUID(int=2)
    assert not game.use_entity("alex", empty)  # empty hand, empty frame
    from nbtlib import parse_nbt

    game.give("alex", parse_nbt('{id:"minecraft:filled_map",count:5}'))
    assert game.use_entity("alex", empty)
    item = game.entity_nbt(empty)["Item"]  # type: ignore[index]
    assert str(item["id"]) == "minecraft:filled_map" and int(item["count"]) == 1
    game.execute("summon minecraft:item_frame 1 64 1 {Facing:1b,Fixed:1b,UUID:[I;0,0,0,3]}")
    assert not game.use_entity("alex", uuid.UUID(int=3))


def test_item_rotation_is_stored_modulo_8_with_java_sign() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    game.execute("summon minecraft:item_frame 0 64 0 {UUID:[I;0,0,0,1],ItemRotation:13b}")
    game.execute("summon minecraft:item_frame 1 64 0 {UUID:[I;0,0,0,2],ItemRotation:-3b}")
    assert int(game.entity_nbt(uuid.UUID(int=1))["ItemRotation"]) == 5  # type: ignore[index]
    assert int(game.entity_nbt(uuid.UUID(int=2))["ItemRotation"]) == -3  # type: ignore[index]


def test_frame_position_and_default_facing() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    game.execute("summon minecraft:item_frame 3 64 4 {UUID:[I;0,0,0,1]}")
    data = game.entity_nbt(uuid.UUID(int=1))
    assert data is not None
    assert int(data["Facing"]) == 0  # Item frames: Facing: missing → down
    assert [float(v) for v in data["Pos"]] == [3.5, 64.96875, 4.5]
    assert [float(v) for v in data["Rotation"]] == [0.0, 90.0]


def test_save_and_load_round_trip(tmp_path: pathlib.Path) -> None:
    game = frame_world()
    game.execute('scoreboard objectives add pipes_best dummy "Best"')
    game.execute("scoreboard players set #lobby pipes_best 7")
    game.execute("gamerule max_block_modifications 100")
    game.tick()
    game.save(tmp_path)
    again = Game.load(tmp_path)
    assert again.block(0, 63, 0) == "minecraft:melon"
    assert reply(again, "forceload query 0 0") == (
        "Chunk at [0, 0] in minecraft:overworld is marked for force loading"
    )
    # entities come back from storage one tick after load (vanilla)
    assert reply(again, f"data get entity {UUID1} ItemRotation") == "No entity was found"
    again.tick()
    assert again.entity_nbt(U1) == game.entity_nbt(U1)
    assert reply(again, "scoreboard players get #lobby pipes_best") == "#lobby has 7 [Best]"
    assert reply(again, "fill 0 0 0 10 10 10 minecraft:stone") == (
        "Too many blocks in the specified area (maximum 100, but specified 1331)"
    )
    assert again.tick_count == game.tick_count + 1


def room_with_frames(n: int = 31) -> Game:
    """An n×n floor of frames at y=64 around the origin (961 frames for n=31)."""
    game = Game()
    game.execute("forceload add -32 -32 47 47")
    for i in range(n):
        for j in range(n):
            cmd = FRAME.format(
                x=i,
                y=64,
                z=j,
                rot=(i + j) % 4,
                u0=0,
                u1=0,
                u2=i,
                u3=j + 1,
                room="R",
                i=i,
                j=j,
                extra="",
                map=1000000 + i,
            )
            assert reply(game, cmd).startswith("Summoned new")
    game.tick()
    return game


POLL = (
    "execute at @a as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0,distance=..6]"
    " unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation"
)


def test_cost_of_the_poll_command_scales_with_players_not_frames() -> None:
    game = room_with_frames()
    assert reply(game, "execute if entity @e[type=minecraft:item_frame,tag=pipes.R]") == (
        "Test passed. Count: 961"
    )
    assert game.last_cost == {"entities_examined": 961, "nbt_serializations": 0}
    assert reply(game, POLL) == ""
    assert game.last_cost == {"entities_examined": 0, "nbt_serializations": 0}
    game.join("p0", (15.5, 65.0, 15.5))
    reply(game, POLL)
    one = dict(game.last_cost)
    # only frames in the sections around the player are looked at; r0 frames within 6 get one
    # NBT serialization each for the nbt= test
    near_r0 = sum(
        1
        for i in range(31)
        for j in range(31)
        if (i + j) % 4 == 0
        and (i + 0.5 - 15.5) ** 2 + (64.03125 - 65) ** 2 + (j + 0.5 - 15.5) ** 2 <= 36
    )
    assert one["nbt_serializations"] == near_r0
    assert 0 < one["entities_examined"] < 961
    for k in range(1, 8):
        game.join(f"p{k}", (3.5 + 3 * k, 65.0, 3.5 + 2 * k))
    reply(game, POLL)
    eight = dict(game.last_cost)
    assert one["entities_examined"] < eight["entities_examined"] < 8 * 961 // 4
    assert game.total_cost["nbt_serializations"] >= eight["nbt_serializations"]
    # a turned frame is reported by the poll
    game.execute(
        "execute as @e[type=minecraft:item_frame,tag=pipes.R,limit=1,sort=nearest] "
        "run data modify entity @s ItemRotation set value 1b"
    )


def test_poll_reports_turned_frames_near_players_only() -> None:
    game = room_with_frames(8)
    game.join("p0", (0.5, 65.0, 0.5))
    frame = uuid.UUID("00000000-0000-0000-0000-000000000001")  # i=0, j=0: r0
    game.use_entity("p0", frame)
    assert reply(game, POLL) == "pipes:R:0:0 has the following entity data: 1b"
    far = uuid.UUID("00000000-0000-0000-0000-000700000008")  # i=7, j=7: r2
    assert not game.use_entity("p0", far)  # out of the player's reach: the server ignores it
    reply(game, f"data modify entity {far} ItemRotation set value 3b")
    assert reply(game, POLL) == "pipes:R:0:0 has the following entity data: 1b"


@pytest.mark.parametrize("flavour", ["vanilla", "paper"])
def test_data_get_whole_frame_prints_every_key(flavour: str) -> None:
    game = frame_world(flavour)
    text = reply(game, f"data get entity {UUID1}")
    assert text.startswith("pipes:lobby:3:7 has the following entity data: {")
    if flavour == "vanilla":
        assert text.index("Motion") < text.index("Facing") < text.index("Fixed: 0b}")
    else:
        assert "Paper.SpawnReason" in text and "WorldUUIDMost" in text


def test_full_frame_dump_uses_the_derived_hashmap_order() -> None:
    """Compound key order: the derived key order of an item frame without CustomName."""
    game = Game()
    game.execute("forceload add 0 0")
    game.execute(
        'summon minecraft:item_frame 1 64 1 {Facing:1b,UUID:[I;1,-2,3,4],Tags:["pix"],'
        'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}}}'
    )
    text = reply(game, f"data get entity {UUID1}")
    body = text.removeprefix("Item Frame has the following entity data: {")
    keys = [part.split(":")[0] for part in _top_level_items(body.removesuffix("}"))]
    assert (
        keys
        == (
            "Motion Facing block_pos ItemRotation Invulnerable fall_distance Air OnGround "
            "PortalCooldown Rotation Item ItemDropChance Pos Fire Invisible UUID Tags Fixed"
        ).split()
    )
    assert (
        'Item: {components: {"minecraft:map_id": 5}, count: 1, id: "minecraft:filled_map"}' in text
    )
    assert "Pos: [1.5d, 64.03125d, 1.5d]" in text and "UUID: [I; 1, -2, 3, 4]" in text


def _top_level_items(body: str) -> list[str]:
    items, depth, start = [], 0, 0
    for k, ch in enumerate(body):
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:k].strip())
            start = k + 1
    items.append(body[start:].strip())
    return items


def test_tags_print_in_java_hashset_order() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    game.execute(
        "summon minecraft:marker 0 64 0 {UUID:[I;1,-2,3,4],"
        'Tags:["pipes","pipes.R","pipes.r2","pipes.ae"]}'
    )
    # Entity.tags is a HashSet: same order as HashMap keys (the printer's model is the oracle)
    from controller.nbt.printer import hashmap_order

    expected = hashmap_order(["pipes", "pipes.R", "pipes.r2", "pipes.ae"])
    assert expected != ["pipes", "pipes.R", "pipes.r2", "pipes.ae"]
    shown = ", ".join(f'"{t}"' for t in expected)
    assert reply(game, f"data get entity {UUID1} Tags") == (
        f"Marker has the following entity data: [{shown}]"
    )


def test_paper_keeps_removed_chunks_loaded_for_the_unload_delay() -> None:
    """Paper: chunk and entity loading: chunks.delay-chunk-unloads-by is 10 s (vanilla: none)."""
    for flavour, still_loaded in (("vanilla", False), ("paper", True)):
        game = Game(flavour)
        game.execute("forceload add 0 0")
        game.execute("forceload remove 0 0")
        game.tick()
        got = reply(game, "setblock 0 64 0 minecraft:melon")
        assert (got == "Changed the block at 0, 64, 0") == still_loaded, flavour
        assert reply(game, "execute if loaded 0 64 0") == "Test failed"
    for _ in range(200):
        game.tick()
    assert reply(game, "setblock 1 64 0 minecraft:melon") == "That position is not loaded"


def test_vanilla_pause_when_empty_stalls_entity_loading() -> None:
    """Paper: chunk and entity loading (derived): a paused empty vanilla server loads no entity."""
    game = frame_world()
    game.world.pause_when_empty_seconds = 1
    game.execute("forceload remove 0 0")
    game.tick()
    for _ in range(25):
        game.tick()
    assert game.world.paused
    frozen = game.tick_count
    game.execute("forceload add 0 0")  # loads the chunk synchronously (blocks work) ...
    assert reply(game, "setblock 1 64 1 minecraft:melon") == "Changed the block at 1, 64, 1"
    game.tick()
    # ... but the paused server never processes the entity load
    assert reply(game, f"data get entity {UUID1} ItemRotation") == "No entity was found"
    assert reply(game, "execute if loaded 0 64 0") == "Test failed"
    assert game.tick_count == frozen
    game.join("alex", (100.0, 64.0, 100.0))
    game.tick()
    game.tick()
    assert reply(game, f"data get entity {UUID1} ItemRotation").endswith("2b")
