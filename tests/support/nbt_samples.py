"""SNBT samples and a tag comparison shared by the NBT tests."""

from __future__ import annotations

import math
from typing import Any

from nbtlib.tag import ByteArray, Compound, IntArray, List, LongArray

__all__ = ["SUMMON_NBT", "same"]


SUMMON_NBT = (
    "{Facing:1b,Invulnerable:1b,Fixed:0b,Invisible:0b,ItemRotation:2b,UUID:[I;1,-2,3,4],"
    'CustomName:"pipes:R:3:7",Tags:["pipes","pipes.R","pipes.r2","pipes.ae"],'
    'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":1000005}}}'
)


def same(a: Any, b: Any) -> bool:
    """Structural equality that also compares tag classes (Byte(1) != Int(1))."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Compound):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, List):
        return a.subtype is b.subtype and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, ByteArray | IntArray | LongArray):
        return [int(x) for x in a] == [int(x) for x in b]
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)
