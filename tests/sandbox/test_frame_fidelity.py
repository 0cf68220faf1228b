"""Item frame fidelity: overlaps, sounds, attacks, drops (docs/sandbox-datapacks.md §8–§11)."""

from __future__ import annotations

import uuid

import nbtlib
import pytest
from nbtlib import tag as nbt

from controller.sandbox import Sandbox
from controller.sandbox.entities import Entity, ItemFrame
from controller.sandbox.game import Game
from tests.support.sandbox_game import FRAME, UUID1, reply

U1 = uuid.UUID(UUID1)
ROOM = FRAME.format(x=0, y=64, z=0, rot=0, u0=1, u1=-2, u2=3, u3=4, room="lobby", i=0, j=0,
                    extra="", map=5)  # fmt: skip
FOREIGN = (
    "summon minecraft:item_frame 0 64 0 {Facing:1b,UUID:[I;9,9,9,9],"
    'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":99}}}'
)
U9 = uuid.UUID("00000009-0000-0009-0000-000900000009")


@pytest.fixture
def game() -> Game:
    """Alex next to a supported room frame (Invulnerable, holding map 5)."""
    g = Game()
    g.join("Alex", (0.5, 64.0, 2.5))
    g.tick()
    g.tick()
    reply(g, "setblock 0 63 0 minecraft:stone")
    assert reply(g, ROOM) == "Summoned new pipes:lobby:0:0"
    g.world.sounds.clear()
    return g


def frame(game: Game, uid: uuid.UUID) -> ItemFrame:
    e = game.world.entities[uid]
    assert isinstance(e, ItemFrame)
    return e


def items(game: Game) -> list[Entity]:
    return [e for e in game.world.entities.values() if e.type_id == "minecraft:item"]


def dropped_map_ids(game: Game) -> list[int]:
    out = []
    for e in items(game):
        comps = e.extra["Item"].get("components", {})
        if "minecraft:map_id" in comps:
            out.append(int(comps["minecraft:map_id"]))
    return out


def sounds(game: Game) -> list[str]:
    return [str(s["sound"]) for s in game.world.sounds]


# ---------------------------------------------------------------------------- §8 overlap
def test_foreign_frame_on_a_room_frame_pops_the_room_frame(game: Game) -> None:
    """§8: both check canCoexist; the room frame's check comes first, so it pops."""
    frame(game, U1).check_interval = 40  # mid-way through its 101-tick cycle
    assert reply(game, FOREIGN) == "Summoned new Item Frame"
    for _ in range(61):  # its check is at the tick where the counter reads 100
        game.tick()
    assert U1 not in game.world.entities
    assert U9 in game.world.entities  # the foreign frame survives its own check later
    assert sorted(dropped_map_ids(game)) == [5]
    assert sorted(str(e.extra["Item"]["id"]) for e in items(game)) == [
        "minecraft:filled_map",
        "minecraft:item_frame",
    ]
    for _ in range(101):
        game.tick()
    assert U9 in game.world.entities


def test_same_tick_check_pops_the_older_frame(game: Game) -> None:
    """§8: when both checks fall on one tick, the entity list order decides (older first)."""
    frame(game, U1).check_interval = 0
    reply(game, FOREIGN)
    for _ in range(101):
        game.tick()
    assert U1 not in game.world.entities and U9 in game.world.entities


@pytest.mark.parametrize(
    ("summon", "pops"),
    [
        ("summon minecraft:glow_item_frame 0 64 0 {Facing:1b}", True),  # any hanging entity
        ("summon minecraft:item_frame 1 64 0 {Facing:1b}", False),  # the neighbour block
        ("summon minecraft:item_frame 0 64 0 {Facing:0b}", False),  # the ceiling of the block
        ("summon minecraft:item_frame 0 64 0 {Facing:1b,Fixed:1b}", True),  # Fixed still counts
    ],
)
def test_what_counts_as_overlapping(game: Game, summon: str, pops: bool) -> None:
    """§8: canCoexist(true) conflicts only with hanging entities facing the same way."""
    reply(game, "setblock 1 63 0 minecraft:stone")
    reply(game, "setblock 0 65 0 minecraft:stone")
    frame(game, U1).check_interval = 50
    assert reply(game, summon).startswith("Summoned new")
    for _ in range(60):
        game.tick()
    assert (U1 not in game.world.entities) == pops


def test_frames_of_a_room_do_not_pop_each_other(game: Game) -> None:
    """§8: neighbouring map frames (1.0 wide) only touch the 0.75 pop box: no conflict."""
    for x in (1, -1):
        reply(game, f"setblock {x} 63 0 minecraft:stone")
        cmd = FRAME.format(x=x, y=64, z=0, rot=0, u0=x + 7, u1=0, u2=0, u3=0, room="lobby",
                           i=x, j=0, extra="", map=5)  # fmt: skip
        reply(game, cmd)
    for _ in range(202):
        game.tick()
    assert sum(isinstance(e, ItemFrame) for e in game.world.entities.values()) == 3


def test_frame_inside_a_full_block_pops(game: Game) -> None:
    """§8: hasLevelCollision(popBox): a full block in the frame's own space."""
    reply(game, "setblock 0 64 0 minecraft:stone")
    for _ in range(101):
        game.tick()
    assert U1 not in game.world.entities


# ---------------------------------------------------------------------------- §9 sounds
def test_data_writes_play_add_item_unless_silent(game: Game) -> None:
    """§9: data merge/modify reload the whole entity, and setItem plays add_item."""
    reply(game, f"data merge entity {UUID1} {{ItemRotation:1b}}")
    reply(game, f'data modify entity {UUID1} Item.components."minecraft:map_id" set value 6')
    assert sounds(game) == ["minecraft:entity.item_frame.add_item"] * 2
    heard = game.world.sounds[0]
    assert heard["heard_by"] == ["Alex"] and heard["source"] == "neutral"
    assert heard["pos"] == frame(game, U1).pos
    game.world.sounds.clear()
    reply(game, f"data merge entity {UUID1} {{Silent:1b}}")  # Silent is read before the item
    reply(game, f"data merge entity {UUID1} {{ItemRotation:2b}}")
    assert sounds(game) == []
    assert game.use_entity("Alex", U1)  # and it silences the player's turn too
    assert sounds(game) == []


def test_player_turn_plays_rotate_item(game: Game) -> None:
    """§9: ItemFrame.interact plays rotate_item before turning."""
    game.use_entity("Alex", U1)
    assert sounds(game) == ["minecraft:entity.item_frame.rotate_item"]
    assert [m["sound"] for m in game.inbox("Alex") if m["type"] == "sound"] == sounds(game)


def test_glow_frames_use_their_own_sounds(game: Game) -> None:
    reply(game, "setblock 3 63 0 minecraft:stone")
    reply(game, 'summon minecraft:glow_item_frame 3 64 0 {Facing:1b,UUID:[I;5,5,5,5],'
                'Item:{id:"minecraft:filled_map",count:1}}')  # fmt: skip
    game.use_entity("Alex", uuid.UUID("00000005-0000-0005-0000-000500000005"))
    assert sounds(game)[-1] == "minecraft:entity.glow_item_frame.rotate_item"


def test_sound_range_is_sixteen_blocks(game: Game) -> None:
    """§9: Level.playSound reaches players closer than 16 blocks."""
    game.join("Far", (0.5, 64.0, 16.6))
    game.use_entity("Alex", U1)
    assert game.world.sounds[-1]["heard_by"] == ["Alex"]
    assert not [m for m in game.inbox("Far") if m["type"] == "sound"]


def test_playsound_is_recorded(game: Game) -> None:
    assert reply(game, "playsound minecraft:ui.toast.challenge_complete master Alex") == (
        "Played sound minecraft:ui.toast.challenge_complete to Alex"
    )
    (entry,) = game.world.sounds
    assert entry["sound"] == "minecraft:ui.toast.challenge_complete"
    assert entry["source"] == "master" and entry["heard_by"] == ["Alex"]


def test_summon_with_item_plays_near_the_origin(game: Game) -> None:
    """§9: the summoned entity loads (and plays add_item) before it is moved into place."""
    reply(game, "setblock 3 63 0 minecraft:stone")
    reply(
        game, 'summon minecraft:item_frame 3 64 0 {Facing:1b,Item:{id:"minecraft:stick",count:1}}'
    )
    (entry,) = game.world.sounds
    assert entry["sound"] == "minecraft:entity.item_frame.add_item"
    assert max(abs(v) for v in entry["pos"]) < 1.0  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- §10 attacks
@pytest.mark.parametrize(
    ("mode", "invulnerable", "fixed", "hurt", "item_left", "frame_left", "drops"),
    [
        ("survival", True, False, False, True, True, []),
        ("adventure", True, False, False, True, True, []),
        ("spectator", False, False, False, True, True, []),
        ("survival", False, False, True, False, True, ["minecraft:filled_map"]),
        ("survival", False, True, False, True, True, []),
        ("creative", True, False, True, False, True, []),  # takes the map, drops nothing
        ("creative", True, True, True, False, False, []),  # breaks a Fixed frame outright
    ],
)
def test_attacks(
    game: Game,
    mode: str,
    invulnerable: bool,
    fixed: bool,
    hurt: bool,
    item_left: bool,
    frame_left: bool,
    drops: list[str],
) -> None:
    """§10: Invulnerable and Fixed stop survival players; creative players get through."""
    f = frame(game, U1)
    f.invulnerable, f.fixed = invulnerable, fixed
    game.set_game_mode("Alex", mode)
    assert game.attack_entity("Alex", U1) == hurt
    assert (U1 in game.world.entities) == frame_left
    if frame_left:
        assert (f.item is not None) == item_left
    assert [str(e.extra["Item"]["id"]) for e in items(game)] == drops


def test_attack_sounds_and_empty_frame_breaks(game: Game) -> None:
    f = frame(game, U1)
    f.invulnerable = False
    assert game.attack_entity("Alex", U1)  # the map comes out
    assert sounds(game) == ["minecraft:entity.item_frame.remove_item"]
    assert game.attack_entity("Alex", U1)  # the empty frame breaks
    assert sounds(game)[-1] == "minecraft:entity.item_frame.break"
    assert U1 not in game.world.entities
    assert sorted(str(e.extra["Item"]["id"]) for e in items(game)) == [
        "minecraft:filled_map",
        "minecraft:item_frame",
    ]


# ---------------------------------------------------------------------------- §11 support
def test_support_removed_pops_with_the_map_as_an_item(game: Game) -> None:
    """§11: the frame pops on its check and drops itself and its map; a cleanup can find it."""
    reply(game, "setblock 0 63 0 minecraft:air")
    for _ in range(101):
        game.tick()
    assert U1 not in game.world.entities
    assert dropped_map_ids(game) == [5]
    assert sounds(game) == ["minecraft:entity.item_frame.break"]
    (map_item,) = [e for e in items(game) if "components" in e.extra["Item"]]
    x, y, z = map_item.pos
    assert (x, z) == (0.5, 0.5) and abs(y - 64.03125) < 1e-9  # 0.15 out along Facing up: none
    assert reply(game, 'execute if entity @e[type=minecraft:item,nbt={Item:{components:'
                       '{"minecraft:map_id":5}}}]') == "Test passed. Count: 1"  # fmt: skip
    assert reply(game, 'kill @e[type=minecraft:item,nbt={Item:{components:{"minecraft:map_id":5}}}]'
                 ) == "Killed Item"  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("gamerule entity_drops false", []),
        (f"data merge entity {UUID1} {{ItemDropChance:0.0f}}", ["minecraft:item_frame"]),
    ],
)
def test_drop_rules(game: Game, setup: str, expected: list[str]) -> None:
    """§11: entity_drops off drops nothing; ItemDropChance 0 keeps the held item back."""
    reply(game, setup)
    reply(game, "setblock 0 63 0 minecraft:air")
    for _ in range(101):
        game.tick()
    assert [str(e.extra["Item"]["id"]) for e in items(game)] == expected


def test_check_interval_restarts_after_a_reload_from_disk(tmp_path: object) -> None:
    """§8: checkInterval is not saved; a frame read back from disk starts counting at 0."""
    with Sandbox() as sb:
        sb.join("Alex", (0.5, 64.0, 2.5))
        sb.tick(3)
        sb.call(lambda g: reply(g, "setblock 0 63 0 minecraft:stone"))
        sb.call(lambda g: reply(g, ROOM))
        sb.call(lambda g: [g.tick() for _ in range(30)])  # the frame counts to 30
        sb.restart()
        sb.join("Alex", (0.5, 64.0, 2.5))
        sb.tick(3)
        counter = sb.call(lambda g: g.world.entities[U1].check_interval)
        assert 0 < counter < 10


def test_sandbox_api_attack_and_sounds() -> None:
    """The Sandbox wrappers for tests: game modes, attacks, sounds, items in hand."""
    with Sandbox() as sb:
        sb.join("Alex", (0.5, 64.0, 2.5))
        sb.tick(3)
        sb.call(lambda g: reply(g, "setblock 0 63 0 minecraft:stone"))
        sb.call(lambda g: reply(g, ROOM))
        assert not sb.attack_entity("Alex", U1)
        sb.set_game_mode("Alex", "creative")
        assert sb.attack_entity("Alex", U1)
        assert [s["sound"] for s in sb.sounds()][-1] == "minecraft:entity.item_frame.remove_item"
        sb.give("Alex", nbtlib.Compound({"id": nbt.String("minecraft:filled_map"),
                                         "count": nbt.Int(1)}))  # fmt: skip
        assert sb.use_entity("Alex", U1)
        with pytest.raises(ValueError, match="unknown game mode"):
            sb.call(lambda g: g.set_game_mode("Alex", "god"))
