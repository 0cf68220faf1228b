"""What a world folder says before we write into it: its release, map counter and session lock.

The release comes from ``--version`` when given, else from ``level.dat`` (``Data.DataVersion``,
the number the game itself goes by; ``Data.Version.Name`` is shown beside it), else from the
configured version; the server's map counter and its ``session.lock`` are only read.
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
from controller.maps.layout import Layout, counter_path, layout_for
from controller.versions import (
    SUPPORTED_RANGE,
    Release,
    UnsupportedVersion,
    by_data_version,
    release,
)

__all__ = [
    "LevelInfo",
    "Target",
    "check_world_folder",
    "level_release",
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
    """The release to write for, and a sentence saying why; the layout and DataVersion follow."""

    release: Release
    reason: str

    @property
    def layout(self) -> Layout:
        """Where the release keeps map files."""
        return layout_for(self.release)

    @property
    def data_version(self) -> int:
        """The DataVersion the release writes into its files."""
        return self.release.data_version


def _level_text(level: LevelInfo) -> str:
    named = f" ({level.version_name})" if level.version_name else ""
    return f"DataVersion {level.data_version}{named}"


def level_release(world_dir: Path, level: LevelInfo) -> Release:
    """The release that last saved the world, by its DataVersion; one clear error otherwise."""
    where = Path(world_dir) / "level.dat"
    hint = "pass --version V with the server's release"
    if level.data_version is None:
        raise UsageError(
            f"{where} has no Data.DataVersion (pipesctl serves Java {SUPPORTED_RANGE}): {hint}"
        )
    try:
        return by_data_version(level.data_version)
    except UnsupportedVersion:
        raise UnsupportedVersion(
            f"{where}: {_level_text(level)} is not a release pipesctl serves "
            f"(Java {SUPPORTED_RANGE}): {hint}"
        ) from None


def resolve_target(world_dir: Path | None, version: str | None, fallback: str) -> Target:
    """The release to write for: ``version`` (``--version``) when given, else the one that
    last saved ``<world_dir>/level.dat``, else ``fallback`` (the configured version).

    A version outside the supported range is refused (UnsupportedVersion names the range).
    """
    level = read_level_info(world_dir) if world_dir is not None else None
    if version is not None:
        chosen = release(version)
        why = f"--version {chosen.name}, DataVersion {chosen.data_version}"
        if level is not None and level.data_version != chosen.data_version:
            why += f"; level.dat says {_level_text(level)}"
        return Target(chosen, why)
    if level is not None:
        assert world_dir is not None
        found = level_release(world_dir, level)
        return Target(found, f"level.dat: {_level_text(level)}")
    chosen = release(fallback)
    why = "no level.dat yet" if world_dir is not None else "export"
    return Target(chosen, f"{why}: version {chosen.name}, DataVersion {chosen.data_version}")


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
