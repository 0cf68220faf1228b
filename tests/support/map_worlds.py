"""Sample targets, pictures and world folders shared by the map file tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from nbtlib import Compound, File, Int, String

from controller.maps.probe import Target
from controller.versions import release

__all__ = ["BASE", "T26", "T121", "foreign_picture", "write_level_dat"]

BASE = 1_000_000
T26 = Target(release("26.1.2"), "test")  # data/minecraft/maps/, DataVersion 4790
T121 = Target(release("1.21.4"), "test")  # data/map_<id>.dat, DataVersion 4189


def foreign_picture() -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.full((128, 128), 34, dtype=np.uint8)  # a snowy map a player made


def write_level_dat(world: Path, data_version: int | None, name: str | None) -> None:
    """A minimal level.dat like the server writes (gzipped, Data.DataVersion, Data.Version.Name)."""
    data: dict[str, Any] = {"LevelName": String("world")}
    if data_version is not None:
        data["DataVersion"] = Int(data_version)
    if name is not None:
        data["Version"] = Compound({"Name": String(name), "Id": Int(data_version or 0)})
    world.mkdir(parents=True, exist_ok=True)
    File({"Data": Compound(data)}, gzipped=True).save(world / "level.dat")
