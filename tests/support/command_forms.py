"""Every command form of ``controller/world/commands.py`` in a concrete form, and malformed ones.

``GOOD`` must parse under vanilla's grammar, ``BAD`` and ``PAPER_ONLY`` must not
(``tests/test_grammar_helper.py``). Plain data with no test-framework import, so ``bench/maps.py``
times one grammar check over ``GOOD`` from here too.
"""

from __future__ import annotations

__all__ = ["BAD", "GOOD", "PAPER_ONLY"]

U = "00000001-fffe-0003-0000-000400000005"

ITEM = '{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}}'

AREA = "@a[x=-20,y=60,z=-20,dx=40,dy=10,dz=40]"

# The forms of room "lobby".
GOOD = [
    "list",
    "forceload add -16 -16 31 31",
    "forceload remove -16 -16 31 31",
    "forceload query 0 0",
    "execute if loaded 10 64 10",
    "execute if function pipes:version run scoreboard players get #clicks pipes.clicks",
    "fill 0 60 0 14 62 14 minecraft:melon",
    "fill 0 64 0 14 67 14 minecraft:air",
    "fill 0 62 0 14 62 14 minecraft:pumpkin",
    "fill -1 60 -1 15 62 -1 minecraft:oak_log[axis=y]",
    "fill 0 60 0 14 62 14 minecraft:melon replace minecraft:pumpkin",
    "fill 0 60 0 14 62 14 minecraft:melon keep",
    "setblock 3 62 7 minecraft:jack_o_lantern[facing=east]",
    "setblock 3 62 7 minecraft:melon",
    "setblock 3 61 7 minecraft:pumpkin",
    "setblock 3 62 7 minecraft:shroomlight",
    "setblock 3 62 7 minecraft:verdant_froglight",
    "setblock 3 62 7 minecraft:pearlescent_froglight",
    "setblock 3 63 -1 minecraft:cauldron",
    "setblock 3 63 -1 minecraft:water_cauldron[level=3]",
    "fill 3 63 -1 3 63 -1 minecraft:water_cauldron[level=3]",
    "summon minecraft:item_frame 3 63 0 {Pos:[3.5d,63.0d,0.5d],block_pos:[I;3,63,0],"
    "Facing:1b,Invulnerable:1b,Fixed:1b,Invisible:0b,"
    'ItemRotation:2b,UUID:[I;1,-2,3,4],CustomName:"pipes:lobby:3:0",'
    'Tags:["pipes","pipes.lobby","pipes.r2","pipes.fixed"],Item:' + ITEM + "}",
    f"data merge entity {U} "
    '{ItemRotation:1b,Silent:1b,Fixed:1b,Tags:["pipes","pipes.lobby","pipes.r1","pipes.fixed"],'
    "Item:" + ITEM + "}",
    "execute if entity @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.fixed,"
    "nbt={Fixed:1b}]",
    "summon minecraft:item_frame 3 63 7 {Pos:[3.5d,63.0d,7.5d],block_pos:[I;3,63,7],"
    "Facing:1b,Invulnerable:1b,Fixed:0b,Invisible:0b,"
    'ItemRotation:2b,UUID:[I;1,-2,3,4],CustomName:"pipes:lobby:3:7",'
    'Tags:["pipes","pipes.lobby","pipes.r2","pipes.ae"],Item:' + ITEM + "}",
    "summon minecraft:item_frame 5 59 0 {Pos:[5.5d,59.0d,0.5d],block_pos:[I;5,59,0],"
    "Facing:0b,Fixed:1b,Invisible:1b,UUID:[I;5,6,7,8],"
    'Tags:["pipes.lobby","pipes.preload"],Item:' + ITEM + "}",
    "execute at @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.ae] positioned ~1 ~ ~ "
    "if entity @e[type=minecraft:item_frame,tag=pipes.lobby,tag=pipes.aw,distance=..0.1] "
    "run setblock ~-1 ~-2 ~ minecraft:pumpkin",
    "tag @e[type=minecraft:item_frame,tag=pipes.lobby] remove pipes.ae",
    "execute at @a as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0,distance=..6] "
    "unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation",
    "execute as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r0] "
    "unless entity @s[nbt={ItemRotation:0b}] run data get entity @s ItemRotation",
    f"execute as {U} if entity @s[nbt={{ItemRotation:5b}}] run data merge entity @s "
    '{ItemRotation:1b,Tags:["pipes","pipes.lobby","pipes.r1"],Item:' + ITEM + "}",
    f'data modify entity {U} Item.components."minecraft:map_id" set value 1000009',
    f"data get entity {U} ItemRotation",
    f'data get entity {U} Item.components."minecraft:map_id"',
    "execute as @e[type=minecraft:item_frame,tag=pipes.lobby] run data get entity @s ItemRotation",
    "execute as @e[type=minecraft:item_frame,tag=pipes.lobby] run data get entity @s "
    'Item.components."minecraft:map_id"',
    "execute if entity @e[type=minecraft:item_frame,tag=pipes.lobby]",
    "kill @e[type=minecraft:item_frame,tag=pipes.lobby]",
    f"kill {U}",
    f'title {AREA} title "Solved!"',
    f'title {AREA} subtitle "in 42 moves"',
    f'title {AREA} actionbar "Turn the pipes"',
    f"title {AREA} times 10 60 20",
    f'tellraw {AREA} "The water flows!"',
    f'tellraw {AREA} {{"text":"Solved in 1:02","color":"gold"}}',
    f'tellraw {AREA} {{text:"Solved in 1:02",color:"gold"}}',
    f"playsound minecraft:ui.toast.challenge_complete master {AREA}",
    'scoreboard objectives add pipes_solves dummy "Pipes solves"',
    "scoreboard objectives setdisplay sidebar pipes_solves",
    f"scoreboard players add {AREA} pipes_solves 1",
    "scoreboard players set #lobby pipes_best 123",
    "scoreboard players get #lobby pipes_best",
    # paint rooms: a wall brush, its settle, a canvas line, a read-back chain
    "summon minecraft:item_frame 6 99 0 {Pos:[6.5d,99.0d,0.5d],block_pos:[I;6,99,0],"
    "Facing:3b,Invulnerable:1b,Fixed:0b,Invisible:0b,"
    'Silent:1b,ItemRotation:0b,UUID:[I;1,-2,3,4],CustomName:"pipes:art:5:1",'
    'Tags:["pipes","pipes.art","pipes.r0","pipes.paint"],Item:' + ITEM + "}",
    f"execute as {U} if entity @s[nbt={{ItemRotation:3b}}] run data merge entity @s "
    '{ItemRotation:0b,Silent:1b,Tags:["pipes","pipes.art","pipes.r0","pipes.paint"],Item:'
    + ITEM
    + "}",
    "fill 0 99 -1 4 99 -1 minecraft:blue_concrete",
    "execute if block 0 99 -1 minecraft:blue_concrete if block 1 99 -1 minecraft:white_concrete",
    "list uuids",
    "execute as @a[x=-8,y=92,z=-8,dx=30,dy=19,dz=30,scores={pipes_hint=1..},limit=1] run data get "
    "entity @s UUID",
    'execute as 5627dd98-e6be-3c21-b8a8-e92344183641 run tellraw @s "Next hint in 12 s"',
    "data merge entity 5627dd98-e6be-3c21-b8a8-e92344183641 {Glowing:1b}",
    "scoreboard players enable 5627dd98-e6be-3c21-b8a8-e92344183641 pipes_hint",
    "execute positioned 7.5 100 7.5 run setblock ~ ~-5 ~ minecraft:redstone_block",
    "say Room lobby is ready",
    "gamerule max_block_modifications",
    "time query gametime",
    # The lease fence (controller/runtime/lease.py, `Fence`): a write, a merged chain, a
    # dimension, and the owner read that follows a refused write.
    "execute if score #pipes.lobby.owner pipes_lease matches 2147483646 run setblock 3 62 7 "
    "minecraft:melon",
    "execute if score #pipes.lobby.owner pipes_lease matches 17 in minecraft:the_nether run fill "
    "0 60 0 14 62 14 minecraft:melon",
    f"execute if score #pipes.lobby.owner pipes_lease matches 17 as {U} if entity "
    "@s[nbt={ItemRotation:3b}] run data merge entity @s {ItemRotation:0b,Silent:1b}",
    "execute if score #pipes.lobby.owner pipes_lease matches 17 in minecraft:the_end as @a at @s "
    "run playsound minecraft:block.note_block.bell master @s",
    'execute if score #pipes.lobby.owner pipes_lease matches 17 run title @a actionbar "3/9"',
    "scoreboard players get #pipes.lobby.owner pipes_lease",
]


# The flavour probe: Bukkit/Paper register namespaced aliases, vanilla has none, so the vanilla
# grammar must reject it (that rejection is what tells the runtime it talks to vanilla).
PAPER_ONLY = ["minecraft:list"]


BAD = [
    "summon minecraft:item_frame 10 64",
    "fly @a",
    "summon minecraft:item_frame 1 2 3 {Facing:1b",
    "setblock 3 62 7 minecraft:jack_o_lantern[facing=east",
    "fill 0 60 0 14 62 minecraft:melon",
    "data get entity @e[type=minecraft:item_frame,tag=pipes ItemRotation",
    "title @a[x=0] bogus",
    "say one\nsay two",
    "",
]
