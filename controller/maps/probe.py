"""What a world folder says before we write into it: its version, map counter and session lock.

The version comes from ``level.dat`` (``Data.DataVersion``, ``Data.Version.Name``), else from the
configured version name; the server's map counter and its ``session.lock`` are only read.
"""

from __future__ import annotations

import errno
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

import nbtlib
from nbtlib import Compound

from controller.errors import UsageError
from controller.maps.layout import (
    Layout,
    counter_path,
    data_version_for,
    layout_for_data_version,
    layout_for_version,
    parse_release,
)

__all__ = [
    "LevelInfo",
    "Target",
    "check_world_folder",
    "read_level_info",
    "resolve_target",
    "read_counter",
    "server_holds_world",
]


@dataclass(frozen=True)
class LevelInfo:
    """What a world's level.dat says about the version that last saved it."""

    data_version: int | None
    version_name: str | None


def read_level_info(world_dir: Path) -> LevelInfo | None:
    """``Data.DataVersion`` and ``Data.Version.Name`` of ``<world>/level.dat``; None if absent."""
    path = Path(world_dir) / "level.dat"
    if not path.is_file():
        return None
    try:
        root = nbtlib.load(path)
        data = root["Data"]
    except Exception as exc:  # nbtlib raises many kinds on a damaged file
        raise UsageError(f"{path}: not a readable level.dat ({exc})") from None
    data_version = data.get("DataVersion")
    version = data.get("Version")
    name = version.get("Name") if isinstance(version, Compound) else None
    return LevelInfo(
        int(data_version) if data_version is not None else None,
        str(name) if name is not None else None,
    )


@dataclass(frozen=True)
class Target:
    """Where and how to write: the layout, the DataVersion, and a sentence saying why."""

    layout: Layout
    data_version: int
    reason: str


def resolve_target(world_dir: Path | None, version: str, data_version: int | None = None) -> Target:
    """Pick the layout and DataVersion: level.dat first, then ``data_version``, then ``version``."""
    level = read_level_info(world_dir) if world_dir is not None else None
    if level is not None and level.data_version is not None:
        if level.version_name and parse_release(level.version_name):
            layout = layout_for_version(level.version_name)
        else:
            layout = layout_for_data_version(level.data_version)
        named = f" ({level.version_name})" if level.version_name else ""
        return Target(
            layout,
            level.data_version,
            f"level.dat: DataVersion {level.data_version}{named}",
        )
    layout = layout_for_version(version)
    if data_version is not None:
        return Target(layout, data_version, f"version {version}, DataVersion {data_version} given")
    known = data_version_for(version)
    if known is None:
        raise UsageError(
            f"no level.dat yet and no known DataVersion for version {version!r}: "
            "pass --data-version N (the server's DataVersion)"
        )
    why = "no level.dat yet" if world_dir is not None else "export"
    return Target(layout, known, f"{why}: version {version}, DataVersion {known}")


CREATE_HINT = (
    "check --world-dir (the folder holding level.dat), or add --create for a world the server "
    "has not made yet"
)


def check_world_folder(world_dir: Path) -> None:
    """A world the server has made: an existing folder holding ``level.dat``; else UsageError.

    A mistyped ``--world-dir`` must not look like success (files written into a new folder no
    server reads), so only ``--create`` writes into a folder without ``level.dat``.
    """
    path = Path(world_dir)
    if not path.exists():
        raise UsageError(f"world folder {path} does not exist: {CREATE_HINT}")
    if not path.is_dir():
        raise UsageError(f"{path} is not a folder: check --world-dir")
    if not (path / "level.dat").is_file():
        raise UsageError(f"{path} holds no level.dat, so no server has made it yet: {CREATE_HINT}")


def read_counter(root: Path, layout: Layout) -> int | None:
    """The last map id the server handed out, or None when the counter file is absent."""
    path = counter_path(root, layout)
    if not path.is_file():
        return None
    try:
        value = nbtlib.load(path)["data"].get("map", -1)
    except Exception:
        return None
    return int(value)


def server_holds_world(world_dir: Path) -> bool:
    """Whether a running server holds the world's ``session.lock`` (Java's fcntl lock).

    Only seen from the same machine (or a container sharing the volume); False when unsure.
    """
    path = Path(world_dir) / "session.lock"
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.EAGAIN)
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
