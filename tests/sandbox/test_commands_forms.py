"""Every command form the runtime sends (``controller/world/commands.py``), against a world built
by earlier rows.

Each row: command → exact RCON reply (messages joined with no separator), with its source: a
section of docs/server-behaviour.md, or a language key of the bundled registry.
"""

from __future__ import annotations

from controller.sandbox.game import Game
from tests.support.sandbox_game import FRAME, UUID1, check_rows, reply

FRAME_A = FRAME.format(
    x=0,
    y=64,
    z=0,
    rot=2,
    u0=1,
    u1=-2,
    u2=3,
    u3=4,
    room="lobby",
    i=3,
    j=7,
    extra=',"pipes.ae"',
    map=1000005,
)
FRAME_B = FRAME.format(
    x=1,
    y=64,
    z=0,
    rot=0,
    u0=5,
    u1=6,
    u2=7,
    u3=8,
    room="lobby",
    i=4,
    j=7,
    extra=',"pipes.aw"',
    map=1000006,
)
PRELOAD = (
    "summon minecraft:item_frame 0 60 0 {Facing:0b,Fixed:1b,Invisible:1b,UUID:[I;9,9,9,9],"
    'Tags:["pipes.lobby","pipes.preload"],Item:{id:"minecraft:filled_map",count:1,'
    'components:{"minecraft:map_id":1000000}}}'
)
UUID_B = "00000005-0000-0006-0000-000700000008"
BOX = "@a[x=-8,y=56,z=-8,dx=24,dy=16,dz=24]"

ROWS = [
    ("list", "There are 0 of a max of 20 players online: ", "lang commands.list.players"),
    (
        "minecraft:list",
        "Unknown or incomplete command. See below for errorminecraft:list<--[HERE]",
        "Paper: the minecraft: prefix (vanilla: unknown)",
    ),
    (
        "forceload add 0 0 31 15",
        "Marked 2 chunks in minecraft:overworld from [0, 0] to [1, 0] to be force loaded",
        "Feedback: forceload",
    ),
    ("forceload add 0 0 31 15", "No chunks were marked for force loading", "Feedback: forceload"),
    (
        "forceload query 5 5",
        "Chunk at [0, 0] in minecraft:overworld is marked for force loading",
        "Feedback: forceload",
    ),
    (
        "forceload query 40 5",
        "Chunk at [2, 0] in minecraft:overworld is not marked for force loading",
        "Feedback: forceload",
    ),
    (
        "execute if loaded 0 64 0",
        "Test failed",
        "Chunk ticket levels (entities load next tick)",
    ),
    (
        "fill -1 61 -1 2 63 2 minecraft:oak_log[axis=y]",
        "Successfully filled 48 block(s)",
        "Feedback: fill",
    ),
    ("fill 0 61 0 1 63 1 minecraft:melon", "Successfully filled 12 block(s)", "Feedback: fill"),
    ("fill 0 61 0 1 63 1 minecraft:melon", "No blocks were filled", "Feedback: fill"),
    (
        "fill 0 61 0 1 61 1 minecraft:pumpkin replace minecraft:melon",
        "Successfully filled 4 block(s)",
        "Feedback: fill",
    ),
    ("fill 0 64 0 1 64 1 minecraft:air", "No blocks were filled", "Feedback: fill"),
    (
        "fill 0 65 0 1 65 1 minecraft:stone keep",
        "Successfully filled 4 block(s)",
        "Feedback: fill",
    ),
    ("fill 0 65 0 1 65 1 minecraft:pumpkin keep", "No blocks were filled", "Feedback: fill"),
    ("fill 0 65 0 1 65 1 minecraft:air", "Successfully filled 4 block(s)", "Feedback: fill"),
    (
        "fill 0 0 0 40 40 40 minecraft:melon",
        "Too many blocks in the specified area (maximum 32768, but specified 68921)",
        "Feedback: fill",
    ),
    (
        "setblock 0 62 0 minecraft:jack_o_lantern[facing=east]",
        "Changed the block at 0, 62, 0",
        "Feedback: setblock",
    ),
    (
        "setblock 0 62 0 minecraft:jack_o_lantern[facing=east]",
        "Could not set the block",
        "Feedback: setblock",
    ),
    ("setblock 1 62 0 minecraft:melon", "Could not set the block", "Feedback: setblock"),
    ("setblock 1 62 0 minecraft:pumpkin", "Changed the block at 1, 62, 0", "Feedback: setblock"),
    (
        "setblock 0 62 1 minecraft:shroomlight",
        "Changed the block at 0, 62, 1",
        "Feedback: setblock",
    ),
    (
        "setblock 1 62 1 minecraft:verdant_froglight",
        "Changed the block at 1, 62, 1",
        "Feedback: setblock",
    ),
    (
        "setblock 1 62 1 minecraft:jack_o_lantern[facing=up]",
        "Block minecraft:jack_o_lantern does not accept 'up' for facing property"
        "...rn[facing=up]<--[HERE]",
        "Block states",
    ),
    ("setblock 500 62 1 minecraft:melon", "That position is not loaded", "Loaded positions"),
    ("setblock 0 320 0 minecraft:melon", "That position is out of this world!", "Loaded positions"),
    ("#tick", "", ""),
    ("execute if loaded 0 64 0", "Test passed", "Chunk ticket levels"),
    (FRAME_A, "Summoned new pipes:lobby:3:7", "Feedback: summon (custom name)"),
    (FRAME_B, "Summoned new pipes:lobby:4:7", "Feedback: summon"),
    (FRAME_A, "Unable to summon entity due to duplicate UUIDs", "Feedback: summon"),
    (PRELOAD, "Summoned new Item Frame", "Feedback: summon"),
    (
        "execute at @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.ae] positioned ~1 ~ ~"
        " if entity @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.aw,distance=..0.1]"
        " run setblock ~-1 ~-2 ~ minecraft:pumpkin",
        "Changed the block at 0, 62, 0",
        "Feedback: setblock; Feedback: execute",
    ),
    (
        "execute at @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.ae] positioned ~1 ~ ~"
        " if entity @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.aw,distance=..0.1]"
        " run setblock ~-1 ~-2 ~ minecraft:pumpkin",
        "",
        "Errors while running (failure inside a fork is silent)",
    ),
    (
        "tag @e[type=minecraft:item_frame,tag=pipes.lobby] remove pipes.ae",
        "Removed tag 'pipes.ae' from 3 entities",
        "Feedback: tag (count = targets)",
    ),
    (
        "tag @e[type=minecraft:item_frame,tag=pipes.lobby] remove pipes.ae",
        "Target does not have this tag",
        "Feedback: tag",
    ),
    (
        "execute at @a as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0,distance=..6]"
        " unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation",
        "",
        "Empty replies (no players: no sources)",
    ),
    (
        "execute as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0]"
        " unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation",
        "",
        "Empty replies",
    ),
    (
        "execute as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r2]"
        " unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation",
        "pipes:lobby:3:7 has the following entity data: 2b",
        "Feedback: data",
    ),
    (
        f"execute as {UUID1} if entity @s[nbt={{ItemRotation:5b}}] run data merge entity @s"
        ' {ItemRotation:1b,Tags:["pipes","pipes.lobby","pipes.r1"],Item:{id:"minecraft:filled_map",'
        'count:1,components:{"minecraft:map_id":1000005}}}',
        "",
        "Empty replies (condition fails before run)",
    ),
    (
        f"execute as {UUID1} if entity @s[nbt={{ItemRotation:2b}}] run data merge entity @s"
        ' {ItemRotation:1b,Tags:["pipes","pipes.lobby","pipes.r1"],Item:{id:"minecraft:filled_map",'
        'count:1,components:{"minecraft:map_id":1000005}}}',
        "Modified entity data of pipes:lobby:3:7",
        "Feedback: data",
    ),
    (
        f"data get entity {UUID1} ItemRotation",
        "pipes:lobby:3:7 has the following entity data: 1b",
        "Feedback: data",
    ),
    (
        f'data modify entity {UUID1} Item.components."minecraft:map_id" set value 1000009',
        "Modified entity data of pipes:lobby:3:7",
        "Feedback: data",
    ),
    (
        f'data modify entity {UUID1} Item.components."minecraft:map_id" set value 1000009',
        "Nothing changed. The specified properties already have these values",
        "Feedback: data",
    ),
    (
        f'data get entity {UUID1} Item.components."minecraft:map_id"',
        "pipes:lobby:3:7 has the following entity data: 1000009",
        "Feedback: data",
    ),
    (
        f"data get entity {UUID1} ItemRotation 1",
        "ItemRotation on pipes:lobby:3:7 after scale factor of 1.00 is 1",
        "Feedback: data",
    ),
    (
        "execute as @e[type=minecraft:item_frame,tag=pipes.lobby] run"
        " data get entity @s ItemRotation",
        "pipes:lobby:3:7 has the following entity data: 1b"
        "pipes:lobby:4:7 has the following entity data: 0b"
        "Item Frame has the following entity data: 0b",
        "Output assembly (selector order)",
    ),
    (
        "execute as @e[type=minecraft:item_frame,tag=pipes.lobby] run data get entity @s"
        ' Item.components."minecraft:map_id"',
        "pipes:lobby:3:7 has the following entity data: 1000009"
        "pipes:lobby:4:7 has the following entity data: 1000006"
        "Item Frame has the following entity data: 1000000",
        "Feedback: data",
    ),
    (
        "execute if entity @e[type=minecraft:item_frame,tag=pipes.lobby]",
        "Test passed. Count: 3",
        "Feedback: execute",
    ),
    (
        "execute if entity @e[type=minecraft:item_frame,tag=pipes.nothing]",
        "Test failed",
        "Feedback: execute",
    ),
    (
        "execute unless entity @e[type=minecraft:item_frame,tag=pipes.lobby]",
        "Test failed. Count: 3",
        "Feedback: execute",
    ),
    (f'title {BOX} title "Solved!"', "No player was found", "Feedback: title and tellraw"),
    (f'tellraw {BOX} "text"', "No player was found", "Feedback: title and tellraw"),
    (
        f"playsound minecraft:ui.toast.challenge_complete master {BOX}",
        "No player was found",
        "Feedback: title and tellraw (players argument)",
    ),
    (
        'scoreboard objectives add pipes_solves dummy "Pipes solves"',
        "Created new objective [Pipes solves]",
        "Feedback: scoreboard",
    ),
    (
        'scoreboard objectives add pipes_solves dummy "Pipes solves"',
        "An objective already exists by that name",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard objectives setdisplay sidebar pipes_solves",
        "Set display slot sidebar to show objective [Pipes solves]",
        "lang commands.scoreboard.objectives.display.set",
    ),
    (
        "scoreboard players set #lobby pipes_best 123",
        "Unknown scoreboard objective 'pipes_best'",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard objectives add pipes_best dummy",
        "Created new objective [pipes_best]",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard players set #lobby pipes_best 123",
        "Set [pipes_best] for #lobby to 123",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard players get #lobby pipes_best",
        "#lobby has 123 [pipes_best]",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard players get #other pipes_best",
        "Can't get value of pipes_best for #other; none is set",
        "Feedback: scoreboard",
    ),
    (f"scoreboard players add {BOX} pipes_solves 1", "No entity was found", "Feedback: scoreboard"),
    ("say text", "", "Empty replies"),
    # The lease fence: a write runs only while the owner score matches (the lease objective is
    # made here; #pipes.lobby.owner holds 17).
    (
        "scoreboard objectives add pipes_lease dummy",
        "Created new objective [pipes_lease]",
        "Feedback: scoreboard",
    ),
    (
        "scoreboard players set #pipes.lobby.owner pipes_lease 17",
        "Set [pipes_lease] for #pipes.lobby.owner to 17",
        "Feedback: scoreboard",
    ),
    (
        "execute if score #pipes.lobby.owner pipes_lease matches 17 run "
        "setblock 3 62 7 minecraft:melon",
        "Changed the block at 3, 62, 7",
        "Feedback: setblock",
    ),
    (
        "execute if score #pipes.lobby.owner pipes_lease matches 18 run "
        "setblock 3 62 7 minecraft:stone",
        "",
        "A failed condition before run",
    ),
    (
        "execute if score #pipes.nobody.owner pipes_lease matches 17 run "
        "setblock 3 62 7 minecraft:stone",
        "",
        "A failed condition before run (no score set)",
    ),
    (
        "scoreboard players get #pipes.lobby.owner pipes_lease",
        "#pipes.lobby.owner has 17 [pipes_lease]",
        "Feedback: scoreboard",
    ),
    (
        "gamerule max_block_modifications",
        "Gamerule max_block_modifications is currently set to: 32768",
        "Feedback: fill (rule name unverified)",
    ),
    ("time query gametime", "The game time is 1 tick(s)", "lang commands.time.query.gametime"),
    (
        "execute if items entity @e[type=minecraft:item_frame,tag=pipes] contents "
        "minecraft:filled_map",
        "Test passed. Count: 2",
        "Feedback: execute if items",
    ),
    (
        "execute if items entity @e[type=minecraft:item_frame,tag=pipes] contents "
        "minecraft:filled_map[minecraft:map_id=4242]",
        "Test failed",
        "Feedback: execute if items",
    ),
    (f"tag {UUID1} add pipes.own", "Added tag 'pipes.own' to pipes:lobby:3:7", "lang tag.add"),
    (
        f"tag {UUID1} add pipes.own",
        "Target either already has the tag or has too many tags",
        "lang",
    ),
    ("list uuids", "There are 0 of a max of 20 players online: ", "Feedback: list"),
    (
        f"execute as {BOX[:-1]},scores={{pipes_solves=1..}},limit=1] run data get entity @s UUID",
        "",
        "Player display names (nobody matched: nothing runs)",
    ),
    (f"scoreboard players enable {BOX} pipes_solves", "No entity was found", "Feedback: trigger"),
    (f'execute as {UUID_B} run tellraw @s "hi"', "", "Player display names"),
    (
        f"data merge entity {UUID1} {{Glowing:1b}}",
        "Modified entity data of pipes:lobby:3:7",
        "Feedback: data",
    ),
    (
        f"data merge entity {UUID1} {{Glowing:0b}}",
        "Modified entity data of pipes:lobby:3:7",
        "Feedback: data",
    ),
    (f"kill {UUID1}", "Killed pipes:lobby:3:7", "Feedback: kill"),
    (f"kill {UUID1}", "No entity was found", "Feedback: kill"),
    ("kill @e[type=minecraft:item_frame,tag=pipes.lobby]", "Killed 2 entities", "Feedback: kill"),
    ("kill @e[type=minecraft:item_frame,tag=pipes.lobby]", "No entity was found", "Feedback: kill"),
    (f"data get entity {UUID_B} ItemRotation", "No entity was found", "Single-entity arguments"),
    (
        "forceload remove 0 0 31 15",
        "Unmarked 2 chunks in minecraft:overworld from [0, 0] to [1, 0] for force loading",
        "Feedback: forceload",
    ),
    ("forceload remove 0 0", "No chunks were removed from force loading", "Feedback: forceload"),
]


def test_command_forms_vanilla() -> None:
    game = Game()
    rows = []
    for command, expected, source in ROWS:
        if command == "#tick":
            check_rows(game, rows)
            rows = []
            game.tick()
            continue
        rows.append((command, expected, source))
    check_rows(game, rows)


def test_paper_differences_on_the_same_forms() -> None:
    game = Game("paper")
    assert game.execute("minecraft:list") == ["There are 0 of a max of 20 players online: "]
    assert game.execute("foo") == [
        "Unknown or incomplete command. See below for error\nfoo<--[HERE]"
    ]
    assert reply(game, "forceload add 0 0") == (
        "Marked chunk [0, 0] in minecraft:overworld to be force loaded"
    )
    # Paper loads entities together with the chunk (Paper: chunk and entity loading): no tick needed
    assert reply(game, "execute if loaded 0 64 0") == "Test passed"
    assert reply(game, "execute run minecraft:summon minecraft:marker 1 64 1") == (
        "Summoned new Marker"
    )
    assert game.execute("execute run foo") == [
        "Incorrect argument for command\n...ecute run foo<--[HERE]"
    ]
