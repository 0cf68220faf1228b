"""Benchmark of the sandbox NBT layer: SNBT parsing, pretty printing and NBT paths.

Run: ``.venv/bin/python bench/nbt_speed.py`` — prints a markdown table (µs per operation).
"""

from __future__ import annotations

import timeit
from collections.abc import Callable

from controller.nbt import NbtPath, data_get, parse_tag_fully, pretty
from controller.nbt.path import copy_tag
from controller.nbt.reader import StringReader
from controller.nbt.snbt import parse_compound

__all__ = ["main"]

SUMMON = (
    "{Facing:1b,Invulnerable:1b,Fixed:0b,Invisible:0b,ItemRotation:2b,UUID:[I;1,-2,3,4],"
    'CustomName:"pipes:lobby:3:7",Tags:["pipes","pipes.lobby","pipes.r2","pipes.ae"],'
    'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}}}'
)
FRAME = parse_tag_fully(
    "{Pos:[10.5d,64.03125d,10.5d],Motion:[0.0d,0.0d,0.0d],Rotation:[0.0f,-90.0f],"
    "fall_distance:0.0d,Fire:0s,Air:300s,OnGround:0b,Invulnerable:1b,PortalCooldown:0,"
    'UUID:[I;1,-2,3,4],CustomName:"pipes:lobby:3:7",Tags:["pipes","pipes.lobby","pipes.r2"],'
    "block_pos:[I;10,64,10],"
    'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}},'
    "ItemRotation:2b,ItemDropChance:1.0f,Facing:1b,Invisible:0b,Fixed:0b}"
)
MAP_ID = NbtPath.of('Item.components."minecraft:map_id"')


def _set() -> None:
    MAP_ID.set(copy_tag(FRAME), parse_tag_fully("1000009"))


CASES: list[tuple[str, Callable[[], object]]] = [
    ("parse summon SNBT (236 chars)", lambda: parse_compound(StringReader(SUMMON))),
    ("parse `{ItemRotation:0b}`", lambda: parse_compound(StringReader("{ItemRotation:0b}"))),
    ("pretty whole frame (vanilla order)", lambda: pretty(FRAME)),
    ("pretty whole frame (paper order)", lambda: pretty(FRAME, "paper")),
    ("parse path + data get map_id", lambda: data_get(FRAME, NbtPath.of(str(MAP_ID)))),
    ("copy frame + data modify set map_id", _set),
]


def main() -> None:
    """Time each case and print a markdown table."""
    print("| operation | µs/op |")
    print("| --- | ---: |")
    for name, fn in CASES:
        number = 200
        best = min(timeit.repeat(fn, number=number, repeat=5)) / number
        print(f"| {name} | {best * 1e6:.1f} |")


if __name__ == "__main__":
    main()
