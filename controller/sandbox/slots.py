"""Slot range names (`SlotsArgument`: `contents`, `weapon.mainhand`, `container.*`, …) per release.

``SlotRanges`` builds the same list in every release served but two: `horse.saddle` became
`saddle` (1.21.5, unverified) and `villager.N` became `mob.inventory.N` (26.1). Sources:
docs/server-behaviour.md, "Versions: slot ranges".
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["MAINHAND", "slot_ranges"]

MAINHAND = 98  # EquipmentSlot.MAINHAND.getIndex(98)
_OFFHAND = 99
_ARMOR = {"head": 103, "chest": 102, "legs": 101, "feet": 100, "body": 105}


def slot_ranges(*, saddle: bool, mob_inventory: bool) -> Mapping[str, tuple[int, ...]]:
    """SlotRanges.SLOTS: every name and the slot indices it stands for, in the game's order."""
    out: dict[str, tuple[int, ...]] = {}

    def single(name: str, index: int) -> None:
        out[name] = (index,)

    def spread(prefix: str, start: int, count: int) -> None:
        for i in range(count):
            out[f"{prefix}{i}"] = (start + i,)
        out[prefix + "*"] = tuple(range(start, start + count))

    single("contents", 0)
    spread("container.", 0, 54)
    spread("hotbar.", 0, 9)
    spread("inventory.", 9, 27)
    spread("enderchest.", 200, 27)
    spread("mob.inventory." if mob_inventory else "villager.", 300, 8)
    spread("horse.", 500, 15)
    single("weapon", MAINHAND)
    single("weapon.mainhand", MAINHAND)
    single("weapon.offhand", _OFFHAND)
    out["weapon.*"] = (MAINHAND, _OFFHAND)
    for part, index in _ARMOR.items():
        single(f"armor.{part}", index)
    out["armor.*"] = tuple(_ARMOR.values())
    if saddle:
        single("saddle", 106)  # EquipmentSlot.SADDLE.getIndex(106)
    else:
        single("horse.saddle", 400)
    single("horse.chest", 499)
    single("player.cursor", 499)
    spread("player.crafting.", 500, 4)
    return out
