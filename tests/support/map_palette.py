"""The map colour palette computed by vanilla's formula (an oracle for the picture tests).

Vanilla's ``MapColor`` base colours and brightness multipliers: docs/server-behaviour.md,
"Map colours".
"""

from __future__ import annotations

__all__ = ["BASE_RGB", "MULT", "PALETTE", "oracle_rgb"]


BASE_RGB = [
    0x000000, 0x7FB238, 0xF7E9A3, 0xC7C7C7, 0xFF0000, 0xA0A0FF, 0xA7A7A7, 0x007C00, 0xFFFFFF,
    0xA4A8B8, 0x976D4D, 0x707070, 0x4040FF, 0x8F7748, 0xFFFCF5, 0xD87F33, 0xB24CD8, 0x6699D8,
    0xE5E533, 0x7FCC19, 0xF27FA5, 0x4C4C4C, 0x999999, 0x4C7F99, 0x7F3FB2, 0x334CB2, 0x664C33,
    0x667F33, 0x993333, 0x191919, 0xFAEE4D, 0x5CDBD5, 0x4A80FF, 0x00D93A, 0x815631, 0x700200,
    0xD1B1A1, 0x9F5224, 0x95576C, 0x706C8A, 0xBA8524, 0x677535, 0xA04D4E, 0x392923, 0x876B62,
    0x575C5C, 0x7A4958, 0x4C3E5C, 0x4C3223, 0x4C522A, 0x8E3C2E, 0x251610, 0xBD3031, 0x943F61,
    0x5C191D, 0x167E86, 0x3A8E8C, 0x562C3E, 0x14B485, 0x646464, 0xD8AF93, 0x7FA796,
]  # fmt: skip


MULT = (180, 220, 255, 135)


def oracle_rgb(packed: int) -> tuple[int, int, int]:
    """RGB of a packed colour by vanilla's formula: channel * multiplier // 255."""
    c, m = BASE_RGB[packed >> 2], MULT[packed & 3]
    return ((c >> 16 & 255) * m // 255, (c >> 8 & 255) * m // 255, (c & 255) * m // 255)


PALETTE = {oracle_rgb(p) for p in range(4, 248)}
