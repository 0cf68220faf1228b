"""The grammar helper: every command form the runtime sends parses; malformed ones do not."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.grammar import CHECKER, assert_valid_commands, grammar_errors, mecha_python

U = "00000001-fffe-0003-0000-000400000005"
ITEM = '{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}}'
AREA = "@a[x=-20,y=60,z=-20,dx=40,dy=10,dz=40]"
# Every command form of controller/world/commands.py in a concrete form (room "lobby").
GOOD = [
    "list",
    "list uuids",
    "execute as @a[x=-8,y=92,z=-8,dx=30,dy=19,dz=30,scores={pipes_hint=1..},limit=1] run data get "
    "entity @s UUID",
    'execute as 5627dd98-e6be-3c21-b8a8-e92344183641 run tellraw @s "Next hint in 12 s"',
    "data merge entity 5627dd98-e6be-3c21-b8a8-e92344183641 {Glowing:1b}",
    "scoreboard players enable 5627dd98-e6be-3c21-b8a8-e92344183641 pipes_hint",
    "execute positioned 7.5 100 7.5 run setblock ~ ~-5 ~ minecraft:redstone_block",
    "forceload add -16 -16 31 31",
    "forceload remove -16 -16 31 31",
    "forceload query 0 0",
    "execute if loaded 10 64 10",
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
    "summon minecraft:item_frame 3 63 7 {Facing:1b,Invulnerable:1b,Fixed:0b,Invisible:0b,"
    'ItemRotation:2b,UUID:[I;1,-2,3,4],CustomName:"pipes:lobby:3:7",'
    'Tags:["pipes","pipes.lobby","pipes.r2","pipes.ae"],Item:' + ITEM + "}",
    "summon minecraft:item_frame 5 59 0 {Facing:0b,Fixed:1b,Invisible:1b,UUID:[I;5,6,7,8],"
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
    "say Room lobby is ready",
    "gamerule max_block_modifications",
    "time query gametime",
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


def test_every_runtime_form_parses() -> None:
    assert_valid_commands(GOOD)


def test_forms_cover_each_command_family() -> None:
    roots = {c.split()[0] for c in GOOD}
    assert roots >= {
        "list", "forceload", "execute", "fill", "setblock", "summon", "tag", "data", "kill",
        "title", "tellraw", "playsound", "scoreboard", "say", "gamerule", "time",
    }  # fmt: skip


@pytest.fixture(scope="module")
def mixed_errors() -> list[dict[str, str]]:
    """One checker run over good and bad commands interleaved (each run starts mecha: ~1 s)."""
    mixed = [c for pair in zip(GOOD, BAD + PAPER_ONLY, strict=False) for c in pair]
    return grammar_errors(mixed)


def test_every_malformed_command_is_reported_in_order(mixed_errors: list[dict[str, str]]) -> None:
    assert [e["command"] for e in mixed_errors] == BAD + PAPER_ONLY
    assert all(e["error"] for e in mixed_errors)


def test_error_names_the_problem(mixed_errors: list[dict[str, str]]) -> None:
    by_command = {e["command"]: e["error"] for e in mixed_errors}
    assert "coordinate" in by_command["summon minecraft:item_frame 10 64"].lower()
    assert "fly" in by_command["fly @a"]
    assert by_command["say one\nsay two"] == "a command is one line"


def test_assert_valid_commands_fails_with_the_list() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"2 of 3 commands are not valid") as info:
        assert_valid_commands(["list", "fly @a", "summon minecraft:item_frame 10 64"])
    assert "fly @a" in str(info.value)


def test_checker_protocol_exit_codes() -> None:
    python = mecha_python()
    if not python.exists():
        pytest.skip(f"no mecha interpreter at {python}")
    ok = subprocess.run(
        [str(python), str(CHECKER)], input="[]", capture_output=True, text=True, check=False
    )
    assert (ok.returncode, json.loads(ok.stdout)) == (0, [])
    bad = subprocess.run(
        [str(python), str(CHECKER)], input="not json", capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "not JSON" in bad.stderr


def test_missing_interpreter_skips_with_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PIPESCTL_MECHA_PYTHON", str(tmp_path / "nope" / "python"))
    with pytest.raises(pytest.skip.Exception, match="no mecha interpreter"):
        assert_valid_commands(["list"])
