"""Install the pictures as map files into a world folder, or export them into any folder.

Nothing is written over a map at our ids that shows another picture unless forced, files already
holding our picture are left alone, and the server's map counter (``idcounts.dat`` /
``maps/last_id.dat``) is never written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import nbtlib
import numpy as np
import numpy.typing as npt
from nbtlib import File

from controller.errors import PipesError
from controller.maps.layout import map_path
from controller.maps.mapfile import atomic_save, map_file, picture_fields
from controller.maps.probe import Target

__all__ = ["Action", "PlanItem", "ForeignMapsError", "plan_install", "install_pictures"]

Action = Literal["write", "update", "unchanged", "foreign", "replace"]


class ForeignMapsError(PipesError):
    """Map files at our ids show other pictures: refuse to overwrite them without --force."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        listed = "\n".join(f"  {p}" for p in paths)
        super().__init__(
            f"{len(paths)} map file(s) at the picture ids hold other pictures:\n{listed}\n"
            "They may be maps players made: pick another --base, or pass --force to replace them."
        )


@dataclass(frozen=True)
class PlanItem:
    """What install does with one id: write new, update ours, leave, refuse, or force-replace."""

    map_id: int
    path: Path
    action: Action


def _existing_action(path: Path, wanted: File) -> Action:
    """Compare what the file shows with what we would write, never its bytes: the server
    re-saves a map in its own encoding after a framed map is removed
    (`MapItemSavedData.removedFromFrame` sets it dirty), and rewriting such a file for nothing
    would replace one the server may have loaded (docs/server-behaviour.md, "Map data files:
    caching"). Same picture and fields, and a DataVersion no older than ours → unchanged; same
    picture otherwise → update; another picture or not a map → foreign."""
    try:
        current = picture_fields(nbtlib.load(path))
    except Exception:
        return "foreign"
    ours = picture_fields(wanted)
    assert ours is not None
    if current is None or current["colors"] != ours["colors"]:
        return "foreign"
    version = current.pop("DataVersion")
    target = ours.pop("DataVersion")
    if current == ours and isinstance(version, int) and isinstance(target, int):
        return "unchanged" if version >= target else "update"
    return "update"


def plan_install(
    root: Path,
    pictures: Mapping[int, npt.NDArray[np.uint8]],
    target: Target,
    *,
    force: bool = False,
) -> list[PlanItem]:
    """Decide per id, touching nothing; a file showing another picture is foreign."""
    plan: list[PlanItem] = []
    for map_id, picture in sorted(pictures.items()):
        path = map_path(root, target.layout, map_id)
        action: Action = "write"
        if path.exists():
            action = _existing_action(path, map_file(picture, target.data_version))
            if action == "foreign" and force:
                action = "replace"
        plan.append(PlanItem(map_id, path, action))
    return plan


def install_pictures(
    root: Path,
    pictures: Mapping[int, npt.NDArray[np.uint8]],
    target: Target,
    *,
    force: bool = False,
) -> list[PlanItem]:
    """Write every picture's map file; ForeignMapsError (nothing written) if any id is foreign."""
    plan = plan_install(root, pictures, target, force=force)
    foreign = [item.path for item in plan if item.action == "foreign"]
    if foreign:
        raise ForeignMapsError(foreign)
    for item in plan:
        if item.action != "unchanged":
            atomic_save(map_file(pictures[item.map_id], target.data_version), item.path)
    return plan
