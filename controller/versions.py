"""The Minecraft Java releases pipesctl serves, and what differs between them (pure, no I/O).

A :class:`Release` is a first-class fact about a server: its DataVersion, protocol, data pack
format, and the switches the commands, NBT, files and data pack depend on. Every difference is
written down with its primary source in docs/server-behaviour.md ("Versions: what changes
where"); the code asks a release, never a version string.

Supported: every release from 1.20.5 (item components and ``minecraft:map_id``) through the
newest listed here. Anything older or newer is refused with :class:`UnsupportedVersion`, one
line naming the range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from controller.errors import UsageError

__all__ = [
    "NEWEST",
    "OLDEST",
    "RELEASES",
    "SUPPORTED_RANGE",
    "PackFormat",
    "Release",
    "UnsupportedVersion",
    "by_data_version",
    "parse_number",
    "release",
]


class UnsupportedVersion(UsageError):
    """A version outside the supported range, or no release name at all."""


@dataclass(frozen=True)
class PackFormat:
    """A data pack format: major and minor (the minor exists from 1.21.9 on)."""

    major: int
    minor: int = 0

    @property
    def uses_range(self) -> bool:
        """Whether pack.mcmeta declares it as min_format/max_format (formats above 81)."""
        return self.major > 81

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}" if self.uses_range else str(self.major)


Number = tuple[int, int, int]

_NUMBER = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?(?![\d.])")


def parse_number(version: str) -> Number | None:
    """(major, minor, patch) of a release-style name ("26.1.2", "1.21"), or None."""
    match = _NUMBER.fullmatch(version.strip())
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3] or 0)


# Where behaviour changes: the first release that has the new form (docs/server-behaviour.md,
# "Versions: what changes where", one section each with its source).
SNBT_TEXT_FROM: Number = (1, 21, 5)  # text components as SNBT, snake_case event keys
BLOCK_POS_FROM: Number = (1, 21, 5)  # hanging entities: block_pos instead of TileX/TileY/TileZ
SNAKE_GAMERULES_FROM: Number = (1, 21, 11)  # gamerules named `send_command_feedback`, not camelCase
VERSION_COMMAND_FROM: Number = (1, 21, 6)  # vanilla's `version` command
SINGULAR_FOLDERS_FROM: Number = (1, 21, 0)  # data pack `function/`, `advancement/`
NAMESPACED_MAPS_FROM: Number = (26, 1, 0)  # map files under data/minecraft/maps/
# `minecraft:entity_interaction_range` (not `player.…`) and a click's buffer of 3 (not 1)
INTERACTION_RANGE_FROM: Number = (1, 21, 2)
PAUSE_WHEN_EMPTY_FROM: Number = (1, 21, 2)  # server.properties `pause-when-empty-seconds`


@dataclass(frozen=True)
class Release:
    """One supported Minecraft Java release and the forms it reads and writes."""

    name: str
    data_version: int
    protocol: int
    pack: PackFormat

    @property
    def number(self) -> Number:
        """(major, minor, patch), for ordering and the switches."""
        found = parse_number(self.name)
        assert found is not None, self.name
        return found

    def at_least(self, number: Number) -> bool:
        """Whether this release is ``number`` or later."""
        return self.number >= number

    @property
    def text_form(self) -> Literal["json", "snbt"]:
        """How text components are written inside NBT (`CustomName`) and in commands."""
        return "snbt" if self.at_least(SNBT_TEXT_FROM) else "json"

    @property
    def attached_position(self) -> Literal["block_pos", "tile"]:
        """How a frame's block is saved: `block_pos:[I;x,y,z]` or `TileX`/`TileY`/`TileZ`."""
        return "block_pos" if self.at_least(BLOCK_POS_FROM) else "tile"

    @property
    def snake_case_gamerules(self) -> bool:
        """Whether gamerules are named `send_command_feedback` (else `sendCommandFeedback`)."""
        return self.at_least(SNAKE_GAMERULES_FROM)

    @property
    def has_version_command(self) -> bool:
        """Whether vanilla answers `version` (the header and one line per field)."""
        return self.at_least(VERSION_COMMAND_FROM)

    @property
    def singular_pack_folders(self) -> bool:
        """Whether a data pack's folders are `function/`, `advancement/` (else plural)."""
        return self.at_least(SINGULAR_FOLDERS_FROM)

    @property
    def namespaced_maps(self) -> bool:
        """Whether map files live at `data/minecraft/maps/<id>.dat` (else `data/map_<id>.dat`)."""
        return self.at_least(NAMESPACED_MAPS_FROM)

    @property
    def interaction_range_attribute(self) -> str:
        """The attribute a player's entity interaction range is (docs/server-behaviour.md,
        "Versions: entity interaction reach")."""
        if self.at_least(INTERACTION_RANGE_FROM):
            return "minecraft:entity_interaction_range"
        return "minecraft:player.entity_interaction_range"

    @property
    def interaction_buffer(self) -> float:
        """What `handleInteract` adds to the range before it refuses a click on an entity."""
        return 3.0 if self.at_least(INTERACTION_RANGE_FROM) else 1.0

    @property
    def pauses_when_empty(self) -> bool:
        """Whether an empty server stops ticking (`pause-when-empty-seconds`, default 60)."""
        return self.at_least(PAUSE_WHEN_EMPTY_FROM)

    def __str__(self) -> str:
        return self.name


def _r(name: str, data_version: int, protocol: int, pack: PackFormat) -> Release:
    return Release(name, data_version, protocol, pack)


# Every supported release, oldest first: DataVersion and protocol (docs/server-behaviour.md,
# "Versions and DataVersion"), data pack format (docs/datapack.md, "Formats").
RELEASES: tuple[Release, ...] = (
    _r("1.20.5", 3837, 766, PackFormat(41)),
    _r("1.20.6", 3839, 766, PackFormat(41)),
    _r("1.21", 3953, 767, PackFormat(48)),
    _r("1.21.1", 3955, 767, PackFormat(48)),
    _r("1.21.2", 4080, 768, PackFormat(57)),
    _r("1.21.3", 4082, 768, PackFormat(57)),
    _r("1.21.4", 4189, 769, PackFormat(61)),
    _r("1.21.5", 4325, 770, PackFormat(71)),  # pack format unverified (wiki only)
    _r("1.21.6", 4435, 771, PackFormat(80)),
    _r("1.21.7", 4438, 772, PackFormat(81)),  # pack format unverified (wiki only)
    _r("1.21.8", 4440, 772, PackFormat(81)),
    _r("1.21.9", 4554, 773, PackFormat(88, 0)),  # pack format unverified (wiki, its snapshots)
    _r("1.21.10", 4556, 773, PackFormat(88, 0)),
    _r("1.21.11", 4671, 774, PackFormat(94, 1)),
    _r("26.1", 4786, 775, PackFormat(101, 1)),  # pack format unverified
    _r("26.1.1", 4788, 775, PackFormat(101, 1)),  # pack format unverified
    _r("26.1.2", 4790, 775, PackFormat(101, 1)),  # pack format unverified
    _r("26.2", 4903, 776, PackFormat(107, 1)),
)
OLDEST = RELEASES[0]
NEWEST = RELEASES[-1]
SUPPORTED_RANGE = f"{OLDEST.name} to {NEWEST.name}"

_BY_NUMBER = {r.number: r for r in RELEASES}
_BY_DATA_VERSION = {r.data_version: r for r in RELEASES}


def _unsupported(what: str) -> UnsupportedVersion:
    return UnsupportedVersion(f"{what} is not supported: pipesctl serves Java {SUPPORTED_RANGE}")


def release(name: str) -> Release:
    """The release called ``name`` ("1.21.4", "26.1" = "26.1.0"); UnsupportedVersion otherwise."""
    number = parse_number(name)
    if number is None:
        raise _unsupported(f"version {name!r} (not a release number)")
    found = _BY_NUMBER.get(number)
    if found is None:
        raise _unsupported(f"Minecraft {name.strip()}")
    return found


def by_data_version(data_version: int) -> Release:
    """The release with this DataVersion; UnsupportedVersion for snapshots and others."""
    found = _BY_DATA_VERSION.get(data_version)
    if found is None:
        raise _unsupported(f"DataVersion {data_version}")
    return found
