"""Where a world keeps its map files, by release: the layout and the file paths.

A map file lives at ``<world>/data/map_<id>.dat`` up to 1.21.11 and at
``<world>/data/minecraft/maps/<id>.dat`` from 26.1 (docs/server-behaviour.md, "Map data files:
location"); the release (``controller.versions``) says which, and its DataVersion goes into
the file.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from controller.versions import Release

__all__ = ["Layout", "counter_path", "layout_for", "map_path"]


class Layout(Enum):
    """Where a world keeps its map files."""

    LEGACY = "data/map_<id>.dat"  # 1.20.5 .. 1.21.11
    NAMESPACED = "data/minecraft/maps/<id>.dat"  # 26.1 and later


def layout_for(release: Release) -> Layout:
    """The map layout ``release`` reads and writes."""
    return Layout.NAMESPACED if release.namespaced_maps else Layout.LEGACY


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
