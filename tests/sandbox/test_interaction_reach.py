"""The server's reach for a click on an entity, and the command forms that measure from the eyes.

docs/server-behaviour.md, "Entity interaction reach", "Item frames: bounding box", "Anchors
and local coordinates" and "Selector option gamemode": handleInteract drops a click whose target
box is not closer to the player's eyes than the entity interaction range (3, creative 5) + 3;
the companion pack marks the frames around the clicker's eyes with `execute anchored eyes
positioned ^ ^ ^` and `gamemode=`.
"""

from __future__ import annotations

import math
import pathlib
import uuid

import pytest

from controller.sandbox.game import Game
from controller.versions import release
from controller.world.datapack import build
from tests.support.sandbox_game import FRAME, UUID1, check_rows, reply

U1 = uuid.UUID(UUID1)
EYE = 1.6200000047683716  # 1.62f as a double
BOX_TOP = 64.0625  # a floor frame in block y 64 is 1/16 deep


def frame(x: int = 0, y: int = 64, z: int = 0) -> str:
    return FRAME.format(x=x, y=y, z=z, rot=0, u0=1, u1=-2, u2=3, u3=4, room="lobby", i=0,
                        j=0, extra="", map=5)  # fmt: skip


def edge(reach: float, feet_y: float = 64.0) -> float:
    """The player's x (z = 0.5, feet at `feet_y`) at which the eyes are exactly `reach` from
    the box of the floor frame in block (0, 64, 0) (it spans x 0..1)."""
    dy = feet_y + EYE - BOX_TOP
    return 1.0 + math.sqrt(reach * reach - dy * dy)


@pytest.fixture
def game(tmp_path: pathlib.Path) -> Game:
    """The companion pack, a room frame on the floor at block (0, 64, 0), and Alex."""
    packs = tmp_path / "datapacks"
    for rel, data in build(release("26.1")).items():
        (packs / "pipes" / rel).parent.mkdir(parents=True, exist_ok=True)
        (packs / "pipes" / rel).write_bytes(data)
    g = Game()
    g.configure_datapacks(packs)
    g.join("Alex", (0.5, 64.0, 2.5))
    g.tick()
    g.tick()
    reply(g, "setblock 0 63 0 minecraft:stone")
    assert reply(g, frame()) == "Summoned new pipes:lobby:0:0"
    return g


def rotation(game: Game) -> int:
    found = game.world.get_entity(U1)
    assert found is not None
    return int(found.item_rotation)


def clicks(game: Game) -> str:
    return reply(game, "scoreboard players get #clicks pipes.clicks")


def test_a_map_frame_box_is_one_by_one_by_a_sixteenth_around_its_position(game: Game) -> None:
    """ItemFrame.createBoundingBox: centred on the block's centre moved 0.46875 back to the
    wall; `Pos`, what `distance=` measures to, is the box's centre (HangingEntity)."""
    e = game.world.get_entity(U1)
    assert e is not None
    assert e.pos == (0.5, 64.03125, 0.5)
    assert e.bounding_box() == (0.0, 64.0, 0.0, 1.0, BOX_TOP, 1.0)


@pytest.mark.parametrize(("mode", "reach"), [("survival", 6.0), ("adventure", 6.0),
                                             ("creative", 8.0)])  # fmt: skip
def test_a_click_just_inside_the_reach_turns_and_just_outside_is_dropped(
    game: Game, mode: str, reach: float
) -> None:
    game.set_game_mode("Alex", mode)
    game.tick()  # the creative modifier comes with the player's tick
    game.move("Alex", (edge(reach) + 0.001, 64.0, 0.5))
    assert game.interact("Alex", U1) == "ignored"
    assert rotation(game) == 0
    assert game.world.players["Alex"].tags == []  # no advancement, no reward
    assert clicks(game) == "#clicks has 0 [pipes.clicks]"
    game.move("Alex", (edge(reach) - 0.001, 64.0, 0.5))
    assert game.interact("Alex", U1) == "success"
    assert rotation(game) == 1
    assert game.world.players["Alex"].tags == ["pipes.clicked"]
    assert clicks(game) == "#clicks has 1 [pipes.clicks]"


def test_reach_is_measured_from_the_eyes_to_the_nearest_point_of_the_box(game: Game) -> None:
    """Straight above the frame, 6 blocks from the eyes down to the box's top face."""
    top = BOX_TOP + 6.0 - EYE
    game.move("Alex", (0.5, top + 0.001, 0.5))
    assert game.interact("Alex", U1) == "ignored"
    game.move("Alex", (0.5, top - 0.001, 0.5))
    assert game.interact("Alex", U1) == "success"


def test_the_creative_bonus_follows_the_game_mode_at_the_next_tick(game: Game) -> None:
    """ServerPlayer.updatePlayerAttributes runs in the player's tick, not at the mode change."""
    game.move("Alex", (edge(7.0), 64.0, 0.5))
    game.set_game_mode("Alex", "creative")
    assert game.interact("Alex", U1) == "ignored"
    game.tick()
    assert game.interact("Alex", U1) == "success"
    game.set_game_mode("Alex", "survival")
    assert game.interact("Alex", U1) == "success"  # still +2 until the tick
    game.tick()
    assert game.interact("Alex", U1) == "ignored"


def test_a_raised_interaction_range_reaches_further(game: Game) -> None:
    """`attribute … entity_interaction_range base set 6`: 6 + 3 from the eyes; the attribute
    is clamped to 0..64 with the creative bonus."""
    game.move("Alex", (edge(9.0) - 0.001, 64.0, 0.5))
    assert game.interact("Alex", U1) == "ignored"
    game.set_entity_interaction_range("Alex", 6.0)
    assert game.interact("Alex", U1) == "success"
    alex = game.world.players["Alex"]
    game.set_entity_interaction_range("Alex", 63.5)
    game.set_game_mode("Alex", "creative")
    game.tick()
    assert alex.entity_interaction_range() == 64.0
    game.set_entity_interaction_range("Alex", -1.0)
    assert alex.entity_interaction_range() == 1.0


def test_a_spectator_in_reach_passes_and_an_unloaded_target_is_dropped(game: Game) -> None:
    game.set_game_mode("Alex", "spectator")
    assert game.interact("Alex", U1) == "pass"
    game.set_game_mode("Alex", "survival")
    assert game.interact("Alex", uuid.UUID(int=3)) == "ignored"
    game.join("Nether", (0.5, 64.0, 0.5), "minecraft:the_nether")
    assert game.interact("Nether", U1) == "ignored"  # not in the player's level


def test_the_pack_marks_the_clicked_frame_at_the_edge_of_reach(game: Game) -> None:
    """The reward function tags the frames within reach of the clicker's eyes for its mode:
    the frame clicked from the very edge is among them, survival and creative."""
    for mode, reach in (("survival", 6.0), ("creative", 8.0)):
        game.set_game_mode("Alex", mode)
        game.tick()
        game.move("Alex", (edge(reach) - 0.001, 64.0, 0.5))
        assert game.interact("Alex", U1) == "success"
        assert reply(game, "tag @e[tag=pipes.near] remove pipes.near") == (
            "Removed tag 'pipes.near' from pipes:lobby:0:0"
        )


def test_anchored_eyes_moves_local_coordinates_up_to_the_eyes(game: Game) -> None:
    """LocalCoordinates start from Anchor.apply(source); `positioned` resets the anchor to feet,
    `positioned as` keeps it; with no entity (the RCON source) eyes are the position."""
    game.move("Alex", (3.5, 70.0, 4.5))
    summon = 'summon minecraft:marker ~ ~ ~ {Tags:["m"]}'
    pos = "data get entity @e[type=minecraft:marker,limit=1] Pos"
    rows = [
        (f"execute as Alex at @s anchored eyes positioned ^ ^ ^ run {summon}",
         "Summoned new Marker", "ExecuteCommand anchored, positioned"),
        (pos, "Marker has the following entity data: [3.5d, 71.62000000476837d, 4.5d]",
         "Avatar.STANDING_DIMENSIONS eye height 1.62f"),
        ("kill @e[type=minecraft:marker]", "Killed Marker", "Feedback: kill"),
        (f"execute as Alex at @s anchored eyes positioned ^ ^ ^ positioned ^ ^ ^ run {summon}",
         "Summoned new Marker", "positioned: withAnchor(FEET)"),
        (pos, "Marker has the following entity data: [3.5d, 71.62000000476837d, 4.5d]",
         "the second ^ ^ ^ starts from the feet anchor"),
        ("kill @e[type=minecraft:marker]", "Killed Marker", "Feedback: kill"),
        (f"execute as Alex anchored eyes positioned as @s positioned ^ ^ ^ run {summon}",
         "Summoned new Marker", "positioned as keeps the anchor"),
        (pos, "Marker has the following entity data: [3.5d, 71.62000000476837d, 4.5d]",
         "positioned as"),
        ("kill @e[type=minecraft:marker]", "Killed Marker", "Feedback: kill"),
        ("execute anchored eyes positioned ^ ^ ^1 run " + summon, "Summoned new Marker",
         "no entity: the position"),
        ("execute as Alex at @s anchored eyes run " + summon, "Summoned new Marker",
         "world coordinates ignore the anchor"),
        ("execute if entity @e[type=minecraft:marker,x=3,y=69.5,z=4,dx=1,dy=1,dz=1]",
         "Test passed. Count: 1", "~ ~ ~ at the feet"),
        ("execute anchored head run list", "Invalid entity anchor position head"
         "... anchored head run list<--[HERE]", "EntityAnchorArgument.parse"),
    ]  # fmt: skip
    check_rows(game, rows)


def test_gamemode_selects_players_by_mode(game: Game) -> None:
    """EntitySelectorOptions `gamemode`: players only; several inverted ones, one plain one."""
    game.join("Bea", (0.5, 64.0, 0.5))
    game.set_game_mode("Bea", "creative")
    rows = [
        ("execute if entity @a[gamemode=creative]", "Test passed. Count: 1", "gamemode"),
        ("execute if entity @e[gamemode=survival]", "Test passed. Count: 1", "players only"),
        ("execute if entity @a[gamemode=!creative,gamemode=!spectator]",
         "Test passed. Count: 1", "inverted twice"),
        ("execute if entity @a[gamemode=!survival]", "Test passed. Count: 1", "inverted"),
        ("execute as Bea if entity @s[gamemode=creative]", "Test passed. Count: 1", "@s"),
        ("execute as Bea unless entity @s[gamemode=creative]", "",
         "@s unless (a forked chain prints no failure: A failed condition before run)"),
        ("execute as @e[type=minecraft:item_frame] if entity @s[gamemode=survival]", "",
         "not a player"),
        ("execute as @e[type=minecraft:item_frame] if entity @s[gamemode=!survival]", "",
         "not a player, inverted: still no match"),
        ("execute if entity @a[gamemode=creative,gamemode=survival]",
         "Option 'gamemode' isn't applicable here...=creative,gamemode=survival]<--[HERE]",
         "applicable only without a plain one"),
        ("execute if entity @a[gamemode=!creative,gamemode=survival]",
         "Option 'gamemode' isn't applicable here...,gamemode=survival]<--[HERE]",
         "a plain one after an inverted one"),
        ("execute if entity @a[gamemode=hardcore]",
         "Invalid or unknown game mode 'hardcore'...[gamemode=hardcore]<--[HERE]",
         "lang argument.entity.options.mode.invalid"),
    ]  # fmt: skip
    check_rows(game, rows)
