"""Where a world keeps its map files, by version: the layout, DataVersions and file paths.

A map file lives at ``<world>/data/map_<id>.dat`` up to 1.21.x and at
``<world>/data/minecraft/maps/<id>.dat`` from 26.1 (docs/server-behaviour.md, "Map data files").
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

from controller.errors import UsageError

__all__ = [
    "Layout",
    "NAMESPACED_FROM_DATA_VERSION",
    "KNOWN_DATA_VERSIONS",
    "parse_release",
    "layout_for_version",
    "layout_for_data_version",
    "data_version_for",
    "map_path",
    "counter_path",
]


class Layout(Enum):
    """Where a world keeps its map files."""

    LEGACY = "data/map_<id>.dat"  # 1.20.5 .. 1.21.11
    NAMESPACED = "data/minecraft/maps/<id>.dat"  # 26.1 and later


# 26.1 release; its worlds keep maps under data/minecraft/maps/.
NAMESPACED_FROM_DATA_VERSION = 4786

# DataVersion per release (docs/server-behaviour.md, "Versions and DataVersion"), for worlds
# without a level.dat yet.
KNOWN_DATA_VERSIONS: dict[str, int] = {
    "26.2": 4903,
    "26.1.2": 4790,
    "26.1.1": 4788,
    "26.1": 4786,
    "1.21.11": 4671,
    "1.21.10": 4556,
    "1.21.9": 4554,
    "1.21.5": 4325,
    "1.21.4": 4189,
    "1.21.3": 4082,
    "1.21.2": 4080,
    "1.21.1": 3955,
    "1.21": 3953,
}

_RELEASE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?(?![\d.])")


def parse_release(version: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a release-style version ("26.1.2", "26.1-snapshot-6"), or None."""
    match = _RELEASE.match(version.strip())
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3] or 0)


def layout_for_version(version: str) -> Layout:
    """The map layout of a version name; UsageError for names that are no release number."""
    release = parse_release(version)
    if release is None:
        raise UsageError(f"cannot tell the map file layout from version {version!r}")
    return Layout.NAMESPACED if release[0] >= 26 else Layout.LEGACY


def layout_for_data_version(data_version: int) -> Layout:
    """The map layout of a DataVersion."""
    if data_version >= NAMESPACED_FROM_DATA_VERSION:
        return Layout.NAMESPACED
    return Layout.LEGACY


def data_version_for(version: str) -> int | None:
    """The DataVersion of a known release ("26.1" and "26.1.0" alike), else None."""
    release = parse_release(version)
    if release is None:
        return None
    major, minor, patch = release
    key = f"{major}.{minor}.{patch}" if patch else f"{major}.{minor}"
    return KNOWN_DATA_VERSIONS.get(key)


def map_path(root: Path, layout: Layout, map_id: int) -> Path:
    """The file of map ``map_id`` under a world folder."""
    if map_id < 0:
        raise ValueError(f"map ids are not negative: {map_id}")
    if layout is Layout.LEGACY:
        return Path(root) / "data" / f"map_{map_id}.dat"
    return Path(root) / "data" / "minecraft" / "maps" / f"{map_id}.dat"


def counter_path(root: Path, layout: Layout) -> Path:
    """The server's map id counter file (read only, never written here)."""
    if layout is Layout.LEGACY:
        return Path(root) / "data" / "idcounts.dat"
    return Path(root) / "data" / "minecraft" / "maps" / "last_id.dat"
