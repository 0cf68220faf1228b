"""Table-driven tests per command family: input → exact reply, each row citing its source.

A source is a section of docs/server-behaviour.md (``Feedback: fill``, ``Parse errors``, …), or
a language key of the bundled registry (``lang …``).
"""

from __future__ import annotations

from controller.sandbox.game import Game, offline_uuid
from tests.support.sandbox_game import UUID1, check_rows, reply

PARSE_ROWS = [
    ("foo", "Unknown or incomplete command. See below for errorfoo<--[HERE]", "Parse errors"),
    (
        "whitelist",
        "Unknown or incomplete command. See below for errorwhitelist<--[HERE]",
        "Parse errors",
    ),
    ("setblock minecra", "Expected integersetblock minecra<--[HERE]", "Parse errors"),
    (
        "setblock 0 64 0 stone foo",
        "Incorrect argument for command...4 0 stone foo<--[HERE]",
        "Parse errors",
    ),
    ("kill @e ", "Incorrect argument for commandkill @e <--[HERE]", "Parse errors"),
    ("", "Unknown or incomplete command. See below for error<--[HERE]", "Parse errors"),
    (
        "/list",
        "There are 0 of a max of 20 players online: ",
        "Success and failure messages (one / stripped)",
    ),
    (
        "//list",
        "Unknown or incomplete command. See below for error/list<--[HERE]",
        "Success and failure messages",
    ),
    (
        "setblock 1 2",
        "Incomplete (expected 3 coordinates)setblock 1 2<--[HERE]",
        "WorldCoordinates.parseInt (argument.pos3d.incomplete)",
    ),
    (
        "setblock 0 64 0 minecraft:nope",
        "Unknown block type 'minecraft:nope'...ck 0 64 0 minecraft:nope<--[HERE]",
        "Feedback: general strings",
    ),
    (
        "setblock 0 64 0 melon[facing=north]",
        "Block minecraft:melon does not have property 'facing'...4 0 melon[facing=north]<--[HERE]",
        "Feedback: general strings",
    ),
    (
        "setblock 0 64 0 oak_log[axis=y",
        "Expected closing ] for block state properties...log[axis=y<--[HERE]",
        "lang argument.block.property.unclosed",
    ),
    (
        "setblock 0 64 0 #minecraft:logs",
        "Tags aren't allowed here; only actual blocks are...ck 0 64 0 #minecraft:logs<--[HERE]",
        "lang argument.block.tag.disallowed",
    ),
    (
        "setblock 0 64 0 stoneX",
        "Expected whitespace to end one argument, but found trailing data...64 0 stoneX<--[HERE]",
        "Feedback: general strings (command.expected.separator)",
    ),
    (
        "setblock ^ ^ ~ stone",
        "Cannot mix world & local coordinates (everything must either use ^ or not)"
        "setblock ^ ^ ~ stone<--[HERE]",
        "lang argument.pos.mixed",
    ),
    (
        "execute run foo",
        "Incorrect argument for command...ecute run foo<--[HERE]",
        "BRIG redirect + getParseException",
    ),
    (
        "execute as @e",
        "Unknown or incomplete command. See below for error...cute as @e<--[HERE]",
        "ContextChain.tryFlatten without a command",
    ),
    (
        "summon minecraft:nope",
        "Can't find element 'minecraft:nope' of type 'minecraft:entity_type'...craft:nope<--[HERE]",
        "ResourceArgument (argument.resource.not_found)",
    ),
    (
        "summon minecraft:player",
        "Can't summon entity of type minecraft:player",
        "entity.not_summonable",
    ),
    (
        "summon minecraft:marker 0 64 0 {a:",
        "Expected a valid unquoted string...0 64 0 {a:<--[HERE]",
        "SNBT parser, controller/nbt",
    ),
]


def test_parse_errors_vanilla() -> None:
    check_rows(Game(), PARSE_ROWS)


def test_parse_errors_paper_are_one_message_with_newline() -> None:
    game = Game("paper")
    for command, expected, _ in PARSE_ROWS:
        got = game.execute(command)
        if "<--[HERE]" in expected:
            assert len(got) == 1 and "\n" in got[0], command
            assert got[0].replace("\n", "") == expected, command


def test_blocks_family() -> None:
    game = Game()
    rows = [
        (
            "forceload add 0 0",
            "Marked chunk [0, 0] in minecraft:overworld to be force loaded",
            "Feedback: forceload",
        ),
        (
            "forceload query",
            "A force loaded chunk was found in minecraft:overworld at: [0, 0]",
            "Feedback: forceload",
        ),
        (
            "forceload add -16 -16",
            "Marked chunk [-1, -1] in minecraft:overworld to be force loaded",
            "Feedback: forceload",
        ),
        (
            "forceload query",
            "2 force loaded chunks were found in minecraft:overworld at: [-1, -1], [0, 0]",
            "Feedback: forceload (sorted by ChunkPos.toLong)",
        ),
        (
            "forceload add 0 0 400 0",
            "Marked 25 chunks in minecraft:overworld from [0, 0] to [25, 0] to be force loaded",
            "Feedback: forceload (count = changed)",
        ),
        (
            "forceload add 0 0 4096 0",
            "Too many chunks in the specified area (maximum 256, but specified 257)",
            "Feedback: forceload",
        ),
        ("forceload add 30000000 0", "That position is out of this world!", "Feedback: forceload"),
        (
            "forceload remove all",
            "Unmarked all force loaded chunks in minecraft:overworld",
            "Feedback: forceload",
        ),
        (
            "forceload query",
            "No force loaded chunks were found in minecraft:overworld",
            "Feedback: forceload",
        ),
        (
            "forceload add ~ ~",
            "Marked chunk [0, 0] in minecraft:overworld to be force loaded",
            "The RCON command source",
        ),
    ]
    # the Rcon source sits at the world spawn (0, 64, 0): `~ ~` is column x=0, z=0
    check_rows(game, rows)
    game.execute("forceload add 0 0")
    rows = [
        (
            "setblock ~ ~ ~ minecraft:stone",
            "Changed the block at 0, 64, 0",
            "The RCON command source (Rcon at spawn)",
        ),
        (
            "setblock 0 64 0 minecraft:stone keep",
            "Could not set the block",
            "Feedback: setblock (keep)",
        ),
        (
            "setblock 0 64 0 minecraft:stone destroy",
            "Changed the block at 0, 64, 0",
            "Feedback: setblock",
        ),
        ("setblock 0 64 0 minecraft:stone strict", "Could not set the block", "Feedback: setblock"),
        (
            "fill 0 60 0 2 62 2 minecraft:glass hollow",
            "Successfully filled 26 block(s)",
            "Feedback: fill",
        ),
        ("fill 1 61 1 1 61 1 minecraft:glass", "Successfully filled 1 block(s)", "Feedback: fill"),
        (
            "fill 0 60 0 2 62 2 minecraft:gold_block outline",
            "Successfully filled 26 block(s)",
            "Feedback: fill",
        ),
        (
            "fill 0 60 0 2 62 2 minecraft:stone replace minecraft:glass",
            "Successfully filled 1 block(s)",
            "Feedback: fill",
        ),
        ("execute if block 1 61 1 minecraft:stone", "Test passed", "Feedback: execute"),
        ("execute unless block 1 61 1 minecraft:stone", "Test failed", "Feedback: execute"),
        (
            "execute if block 500 61 1 minecraft:stone",
            "That position is not loaded",
            "Feedback: execute",
        ),
        (
            "execute if block 0 64 0 minecraft:oak_log[axis=x]",
            "Test failed",
            "Feedback: execute (block predicate with properties)",
        ),
        (
            "gamerule max_block_modifications 8",
            "Gamerule max_block_modifications is now set to: 8",
            "Feedback: fill",
        ),
        (
            "fill 0 0 0 1 1 2 minecraft:stone",
            "Too many blocks in the specified area (maximum 8, but specified 12)",
            "Feedback: fill",
        ),
        (
            "gamerule max_block_modifications 0",
            "Integer must not be less than 1: found 0...fications 0<--[HERE]",
            "Feedback: fill (minimum 1)",
        ),
    ]
    check_rows(game, rows)
    assert game.block(1, 61, 1) == "minecraft:stone"
    assert game.block(1, 60, 1) == "minecraft:gold_block"


def test_entity_and_data_family() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    summon = (
        'summon minecraft:item_frame 2 64 2 {Facing:1b,UUID:[I;1,-2,3,4],Tags:["x"],'
        'Item:{id:"minecraft:filled_map",count:1b,components:{"minecraft:map_id":5}}}'
    )
    rows = [
        (summon, "Summoned new Item Frame", "Feedback: summon"),
        (
            "summon minecraft:glow_item_frame 3 64 2",
            "Summoned new Glow Item Frame",
            "Entity display names",
        ),
        (
            'summon minecraft:marker 0 64 0 {CustomName:{text:"Bob"}}',
            "Summoned new Bob",
            "Entity display names",
        ),
        (
            "summon minecraft:marker 0 64 30000000",
            "Invalid position for summon",
            "Feedback: summon",
        ),
        (
            f"data get entity {UUID1} Item",
            "Item Frame has the following entity data:"
            ' {components: {"minecraft:map_id": 5}, count: 1, id: "minecraft:filled_map"}',
            "Item frames: the map item",
        ),
        (
            f"data get entity {UUID1} Item.count",
            "Item Frame has the following entity data: 1",
            "Item frames: the map item (count Int)",
        ),
        (
            f"data get entity {UUID1} Tags",
            'Item Frame has the following entity data: ["x"]',
            "NBT printing",
        ),
        (f"data get entity {UUID1} Nope", "Found no elements matching Nope", "Feedback: data"),
        (
            f'data get entity {UUID1} Item.components."minecraft:x"',
            'Found no elements matching Item.components."minecraft:x"',
            "Feedback: data",
        ),
        (
            f"data get entity {UUID1} Item.id 2",
            "Can't get Item.id; only numeric tags are allowed",
            "Feedback: data",
        ),
        (
            f"data get entity {UUID1} ItemDropChance 10",
            "ItemDropChance on Item Frame after scale factor of 10.00 is 10",
            "Feedback: data",
        ),
        (
            f"data merge entity {UUID1} {{Invisible:1b}}",
            "Modified entity data of Item Frame",
            "Feedback: data",
        ),
        (
            f"data merge entity {UUID1} {{Invisible:1b}}",
            "Nothing changed. The specified properties already have these values",
            "Feedback: data",
        ),
        (
            f"data merge entity {UUID1} {{UUID:[I;9,9,9,9]}}",
            "Modified entity data of Item Frame",
            "Feedback: data (UUID kept)",
        ),
        (
            f"data get entity {UUID1} UUID",
            "Item Frame has the following entity data: [I; 1, -2, 3, 4]",
            "UUIDs",
        ),
        (
            f"data modify entity {UUID1} ItemRotation set value 10b",
            "Modified entity data of Item Frame",
            "Feedback: data",
        ),
        (
            f"data get entity {UUID1} ItemRotation",
            "Item Frame has the following entity data: 2b",
            "Item frames: ItemRotation (modulo 8)",
        ),
        (
            f"data remove entity {UUID1} Item",
            "Modified entity data of Item Frame",
            "Feedback: data",
        ),
        (
            f"data remove entity {UUID1} Item",
            "Nothing changed. The specified properties already have these values",
            "Feedback: data",
        ),
        (
            f'data get entity {UUID1} Item.components."minecraft:map_id"',
            "Found no elements matching Item",
            "Feedback: data",
        ),
        (f"tag {UUID1} add y", "Added tag 'y' to Item Frame", "Feedback: tag"),
        (
            f"tag {UUID1} add y",
            "Target either already has the tag or has too many tags",
            "Feedback: tag",
        ),
        (f"tag {UUID1} list", "Item Frame has 2 tags: x, y", "Feedback: tag"),
        (
            "tag @e[type=minecraft:glow_item_frame] list",
            "Glow Item Frame has no tags",
            "Feedback: tag",
        ),
        (
            "tag @e[type=minecraft:marker] remove nope",
            "Target does not have this tag",
            "Feedback: tag",
        ),
        ("data modify storage pipes:s a set value 3", "Modified storage pipes:s", "Feedback: data"),
        (
            "data get storage pipes:s",
            "Storage pipes:s has the following contents: {a: 3}",
            "Feedback: data",
        ),
        (
            f"data modify entity {UUID1} Fixed set from storage pipes:s a",
            "Modified entity data of Item Frame",
            "Feedback: data (set from)",
        ),
        (
            f"data get entity {UUID1} Fixed",
            "Item Frame has the following entity data: 1b",
            "load coerces to byte (unverified)",
        ),
        ("data get block 0 64 0", "The target block is not a block entity", "Feedback: data"),
        ("kill @e[type=minecraft:marker]", "Killed Bob", "Feedback: kill"),
        ("kill @e", "Killed 2 entities", "Feedback: kill"),
    ]
    check_rows(game, rows)


def test_scoreboard_family() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    game.execute("summon minecraft:marker 0 64 0 {UUID:[I;1,-2,3,4]}")
    game.join("alex", (0.5, 64.0, 0.5))
    rows = [
        ("scoreboard objectives list", "There are no objectives", "lang"),
        ("scoreboard objectives add a dummy", "Created new objective [a]", "Feedback: scoreboard"),
        (
            'scoreboard objectives add t trigger "Trig"',
            "Created new objective [Trig]",
            "Feedback: scoreboard",
        ),
        (
            "scoreboard objectives add h foo",
            "Unknown criterion 'foo'...ves add h foo<--[HERE]",
            "lang argument.criteria.invalid",
        ),
        ("scoreboard objectives list", "There are 2 objective(s): [a], [Trig]", "lang"),
        ("scoreboard players set #x a 5", "Set [a] for #x to 5", "Feedback: scoreboard"),
        ("scoreboard players add #x a 3", "Added 3 to [a] for #x (now 8)", "Feedback: scoreboard"),
        (
            "scoreboard players remove #x a 10",
            "Removed 10 from [a] for #x (now -2)",
            "Feedback: scoreboard",
        ),
        (
            f"scoreboard players set {UUID1} a 7",
            "Set [a] for Marker to 7",
            "Feedback: scoreboard (entity by UUID)",
        ),
        (
            "scoreboard players set alex a 1",
            "Set [a] for alex to 1",
            "Feedback: scoreboard (player)",
        ),
        (
            "scoreboard players add @e a 1",
            "Added 1 to [a] for 2 entities",
            "Feedback: scoreboard (multiple)",
        ),
        (
            "scoreboard players get @e[type=minecraft:marker,limit=1] a",
            "Marker has 8 [a]",
            "Feedback: scoreboard",
        ),
        (
            "scoreboard players operation #x a += alex a",
            "Set [a] for #x to 0",
            "Feedback: scoreboard",
        ),
        (
            "scoreboard players operation #x a /= #zero a",
            "Cannot divide by zero",
            "lang arguments.operation.div0",
        ),
        ("scoreboard players set #zero a 0", "Set [a] for #zero to 0", "Feedback: scoreboard"),
        ("scoreboard players operation #x a /= #zero a", "Cannot divide by zero", "lang"),
        (
            "scoreboard players list",
            "There are 4 tracked entity/entities: #x, Marker, alex, #zero",
            "lang",
        ),
        ("scoreboard players list #x", "#x has 1 score(s):[a]: 0", "lang"),
        ("scoreboard players reset #x a", "Reset [a] for #x", "Feedback: scoreboard"),
        (
            "scoreboard players get #x a",
            "Can't get value of a for #x; none is set",
            "Feedback: scoreboard",
        ),
        ("scoreboard players reset #zero", "Reset all scores for #zero", "lang"),
        ("scoreboard players enable alex a", "Enable only works on trigger-objectives", "lang"),
        ("scoreboard players enable alex t", "Enabled trigger [Trig] for alex", "lang"),
        (
            "scoreboard players get #nope nope",
            "Unknown scoreboard objective 'nope'",
            "Feedback: scoreboard",
        ),
        ("execute if score alex a matches 2", "Test passed", "Feedback: execute (boolean)"),
        ("execute if score alex a matches 3..", "Test failed", "Feedback: execute"),
        (
            "execute if score alex a > #zero a",
            "Test failed",
            "Feedback: execute (unset score → false)",
        ),
        (
            "execute store result score #r a run scoreboard players get alex a",
            "alex has 2 [a]",
            "Feedback: execute (store is silent)",
        ),
        ("scoreboard players get #r a", "#r has 2 [a]", "Feedback: execute (store result)"),
        (
            "execute store success score #s a run kill @e[type=minecraft:armor_stand]",
            "No entity was found",
            "Feedback: execute",
        ),
        (
            "scoreboard players get #s a",
            "#s has 0 [a]",
            "Feedback: execute (store success on failure)",
        ),
        (
            "scoreboard objectives setdisplay sidebar a",
            "Set display slot sidebar to show objective [a]",
            "lang",
        ),
        (
            "scoreboard objectives setdisplay sidebar a",
            "Nothing changed. That display slot is already showing that objective",
            "lang",
        ),
        (
            "scoreboard objectives setdisplay sidebar",
            "Cleared any objectives in display slot sidebar",
            "lang",
        ),
        (
            "scoreboard objectives setdisplay nope",
            "Unknown display slot 'nope'...etdisplay nope<--[HERE]",
            "lang",
        ),
        (
            'scoreboard objectives modify a displayname "Aye"',
            "Changed the display name of a to [Aye]",
            "lang commands.scoreboard.objectives.modify.displayname",
        ),
        ('scoreboard objectives modify a displayname "Aye"', "", "unchanged: no feedback"),
        ("scoreboard objectives remove a", "Removed objective [Aye]", "Feedback: scoreboard"),
    ]
    check_rows(game, rows)


def test_chat_family_with_players() -> None:
    game = Game()
    game.join("alex", (0.5, 64.0, 0.5))
    game.join("sam", (100.5, 64.0, 0.5))
    box = "@a[x=-5,y=60,z=-5,dx=10,dy=10,dz=10]"
    rows = [
        (
            "list",
            "There are 2 of a max of 20 players online: alex, sam",
            "lang commands.list.players",
        ),
        (
            f'title {box} title "Solved!"',
            "Showing new title for alex",
            "Feedback: title and tellraw",
        ),
        (
            'title @a subtitle {"text":"a","color":"gold"}',
            "Showing new subtitle for 2 players",
            "Feedback: title and tellraw",
        ),
        (f'title {box} actionbar "Water: 2/9"', "Showing new actionbar title for alex", "lang"),
        (
            "title @a times 10 60 20",
            "Changed title display times for 2 players",
            "Feedback: title and tellraw",
        ),
        (
            "title @a times 1s 3s 1s",
            "Changed title display times for 2 players",
            "TimeArgument units",
        ),
        ("title alex clear", "Cleared titles for alex", "Feedback: title and tellraw"),
        ("title alex reset", "Reset title options for alex", "Feedback: title and tellraw"),
        (
            f'tellraw {box} {{"text":"hi","color":"gold"}}',
            "",
            "Feedback: title and tellraw (tellraw prints nothing)",
        ),
        ('tellraw @a "plain"', "", "Feedback: title and tellraw"),
        (
            "playsound minecraft:ui.toast.challenge_complete master @a",
            "Played sound minecraft:ui.toast.challenge_complete to 2 players",
            "lang (count = targets; sam too far)",
        ),
        (
            "playsound minecraft:ui.toast.challenge_complete master @a 50 64 0 10",
            "Played sound minecraft:ui.toast.challenge_complete to 2 players",
            "lang (range 16·volume)",
        ),
        (
            "playsound minecraft:ui.toast.challenge_complete master sam",
            "The sound is too far away to be heard",
            "lang",
        ),
        ("particle minecraft:flame 0 64 0", "Displaying particle minecraft:flame", "lang"),
        ("particle minecraft:flame 500 64 0", "The particle was not visible for anybody", "lang"),
        (
            "particle minecraft:nope",
            "Unknown particle: minecraft:nope...craft:nope<--[HERE]",
            "lang",
        ),
        ("say hello world", "", "Empty replies"),
        ("time query daytime", "The time is 0", "lang"),
        (
            "gamerule send_command_feedback false",
            "Gamerule send_command_feedback is now set to: false",
            "lang",
        ),
        (
            "gamerule max_snow_accumulation_height 9",
            "Integer must not be more than 8: found 9...on_height 9<--[HERE]",
            "GameRules.java 1.21.11 bounds",
        ),
        ("gamerule raids", "Gamerule raids is currently set to: true", "1.21.11 ids"),
        (
            "gamerule minecraft:send_command_feedback",
            "Gamerule send_command_feedback is currently set to: false",
            "unverified id",
        ),
    ]
    check_rows(game, rows)
    inbox = game.inbox("alex")
    kinds = [m["type"] for m in inbox]
    assert kinds[:5] == ["title", "subtitle", "actionbar", "times", "times"]
    assert {"type": "tellraw", "text": "hi", "tick": 0} in inbox
    assert any(m["type"] == "chat" and m["text"] == "[Rcon] hello world" for m in inbox)
    assert [m["type"] for m in game.inbox("sam")].count("sound") == 1
    times = [m for m in inbox if m["type"] == "times"]
    assert (times[1]["fade_in"], times[1]["stay"], times[1]["fade_out"]) == (20, 60, 20)


def test_execute_modifiers() -> None:
    game = Game()
    game.execute("forceload add 0 0")
    game.execute('summon minecraft:marker 3 64 3 {UUID:[I;0,0,0,1],Tags:["m"]}')
    rows = [
        (
            "execute positioned 3 64 3 run setblock ~ ~-1 ~ minecraft:stone",
            "Changed the block at 3, 63, 3",
            "Feedback: execute",
        ),
        (
            "execute at @e[tag=m] run setblock ~1 ~ ~ minecraft:stone",
            "Changed the block at 4, 64, 3",
            "Feedback: execute",
        ),
        (
            "execute at @e[tag=m] run setblock ~1 ~ ~ minecraft:stone",
            "",
            "Errors while running (fork swallows)",
        ),
        (
            "execute positioned 4 64 3 run setblock ~ ~ ~ minecraft:stone",
            "Could not set the block",
            "Errors while running (not forked)",
        ),
        (
            "execute as @e[tag=m] at @s positioned ^ ^ ^2 run setblock ~ ~ ~ minecraft:melon",
            "Changed the block at 3, 64, 5",
            "local coordinates",
        ),
        (
            "execute align xz positioned ~0.5 ~ ~0.5 run setblock ~ ~ ~ minecraft:melon",
            "Changed the block at 0, 64, 0",
            "align",
        ),
        (
            "execute in minecraft:the_nether run setblock 0 64 0 minecraft:melon",
            "That position is not loaded",
            "in",
        ),
        (
            "execute in minecraft:nope run list",
            "Unknown dimension 'minecraft:nope'",
            "DimensionArgument.getDimension at run time",
        ),
        (
            "execute if entity @e[tag=m] if entity @e[tag=nope]",
            "",
            "Errors while running (forked conditional is silent)",
        ),
        (
            "execute if data entity @e[tag=m,limit=1] Tags",
            "Test passed. Count: 1",
            "Feedback: execute (counting)",
        ),
        ("execute unless data entity @e[tag=m,limit=1] Nope", "Test passed", "Feedback: execute"),
        ("execute if data storage pipes:none a", "Test failed", "Feedback: execute"),
        (
            "execute store result entity @e[tag=m,limit=1] data.n int 2 run"
            " scoreboard objectives list",
            "There are no objectives",
            "Feedback: execute (store)",
        ),
        (
            "data get entity @e[tag=m,limit=1] data.n",
            "Marker has the following entity data: 0",
            "store result 0 × 2",
        ),
        ("execute if dimension minecraft:overworld", "Test passed", "Feedback: execute"),
        (
            "execute if blocks 3 63 3 4 64 3 3 63 3 all",
            "Test passed. Count: 4",
            "Feedback: execute (blocks)",
        ),
        ("execute if blocks 3 63 3 4 64 3 3 63 4 all", "Test failed", "Feedback: execute (blocks)"),
        (
            "execute if blocks 3 63 3 4 64 3 3 63 4 masked",
            "Test failed",
            "Feedback: execute (blocks)",
        ),
        (
            "execute unless blocks 3 63 3 4 64 3 3 63 3 all",
            "Test failed. Count: 4",
            "Feedback: execute",
        ),
        (
            "execute unless blocks 3 63 3 4 64 3 3 63 4 all",
            "Test passed",
            "Feedback: execute (blocks)",
        ),
        (
            "execute if blocks 7 63 7 8 64 8 9 63 9 masked",
            "Test passed. Count: 0",
            "Feedback: execute (masked)",
        ),
        (
            "execute if blocks 0 0 0 40 40 40 0 0 0 all",
            "Too many blocks in the specified area (maximum 32768, but specified 68921)",
            "lang commands.execute.blocks.toobig",
        ),
    ]
    check_rows(game, rows)
    assert game.block(3, 63, 3) == "minecraft:stone"


def test_uuid_strings_and_player_names_as_targets() -> None:
    game = Game()
    game.join("alex", (0.5, 64.0, 0.5))
    game.tick()
    assert reply(game, "tag alex add t") == "Added tag 't' to alex"
    uid = str(offline_uuid("alex"))
    # Java's UUID.nameUUIDFromBytes("OfflinePlayer:Notch"), a widely published value
    assert str(offline_uuid("Notch")) == "b50ad385-829d-3141-a216-7e7d7539ba7f"
    assert reply(game, f"tag {uid} list") == "alex has 1 tags: t"
    assert reply(game, f"data merge entity {uid} {{a:1}}") == "Unable to modify player data"


def test_paper_bukkit_style_version_command() -> None:
    """Paper: plugin command output: `§` codes, a `\\n` per message, no async part."""
    assert Game("paper").execute("version") == ["§f§oChecking version, please wait...\n"]
    vanilla = Game().execute("ver")
    assert vanilla == ["Unknown or incomplete command. See below for error", "ver<--[HERE]"]


def test_vanilla_version_command() -> None:
    """Feedback: version: the header and nine `key = value` lines, joined with nothing over
    RCON. id, name, data, series, protocol and `stable` are 26.1's; build_time and the pack
    versions are unverified (no 26.1 release version.json was found)."""
    assert Game().execute("version") == [
        "Server version info:",
        "id = 26.1",
        "name = 26.1",
        "data = 4786",
        "series = main",
        "protocol = 775 (0x307)",
        "build_time = Tue Mar 24 12:00:00 UTC 2026",  # unverified
        "pack_resource = 84.0",  # unverified
        "pack_data = 101.1",  # unverified
        "stable = yes",
    ]
    assert reply(Game(), "version").startswith("Server version info:id = 26.1name = 26.1data = ")
    assert reply(Game(), "version now") == "Incorrect argument for commandversion now<--[HERE]"


def test_entity_scores_go_with_the_entity_and_operations_create_their_source() -> None:
    """A killed entity (not a player) loses its scores; `players operation` creates an unset
    source score at 0, as the target (docs/server-behaviour.md, "Feedback: scoreboard")."""
    game = Game()
    game.execute("forceload add 0 0")
    game.execute("scoreboard objectives add a dummy")
    summon = "summon minecraft:marker 0 64 0 {UUID:[I;1,-2,3,4]}"
    game.execute(summon)
    game.join("alex", (0.5, 64.0, 0.5))
    rows = [
        (f"scoreboard players set {UUID1} a 7", "Set [a] for Marker to 7", "Feedback: scoreboard"),
        ("scoreboard players set alex a 2", "Set [a] for alex to 2", "Feedback: scoreboard"),
        (
            "scoreboard players operation #t a = #unset a",
            "Set [a] for #t to 0",
            "Feedback: scoreboard (getOrCreatePlayerScore)",
        ),
        ("scoreboard players get #unset a", "#unset has 0 [a]", "Feedback: scoreboard"),
        (
            "execute as @e[type=minecraft:marker,scores={a=7}] run scoreboard players get @s a",
            "Marker has 7 [a]",
            "Feedback: scoreboard",
        ),
        ("kill @e[type=minecraft:marker]", "Killed Marker", "Feedback: kill"),
        (summon, "Summoned new Marker", "Feedback: summon"),
        (
            f"scoreboard players get {UUID1} a",
            "Can't get value of a for Marker; none is set",
            "Feedback: scoreboard (Scoreboard.entityRemoved)",
        ),
        ("scoreboard players get alex a", "alex has 2 [a]", "Feedback: scoreboard"),
    ]
    check_rows(game, rows)
