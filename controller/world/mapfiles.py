"""Map data files on disk: where they go per version, how they are written, and what is ours.

A map file is gzipped NBT ``{data: {...}, DataVersion: <the world's>}`` at
``<world>/data/map_<id>.dat`` up to 1.21.x and ``<world>/data/minecraft/maps/<id>.dat`` from 26.1
(docs/server-behaviour.md, "Map data files"). Files are written with nbtlib, atomically (temp
file in the same folder, then ``os.replace``), and never over a map at our ids that shows another
picture unless forced. The server's map counter (``idcounts.dat`` / ``maps/last_id.dat``) is
never written.
"""

from __future__ import annotations

import errno
import fcntl
import gzip
import io
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Literal

import nbtlib
import numpy as np
import numpy.typing as npt
from nbtlib import Byte, ByteArray, Compound, File, Int, String

from controller.errors import PipesError, UsageError

__all__ = [
    "Layout",
    "NAMESPACED_FROM_DATA_VERSION",
    "KNOWN_DATA_VERSIONS",
    "LevelInfo",
    "Target",
    "PlanItem",
    "ForeignMapsError",
    "parse_release",
    "layout_for_version",
    "layout_for_data_version",
    "data_version_for",
    "read_level_info",
    "resolve_target",
    "map_path",
    "counter_path",
    "read_counter",
    "server_holds_world",
    "map_file",
    "encode_file",
    "read_colors",
    "atomic_save",
    "plan_install",
    "install_pictures",
]

COLORS_LEN = 128 * 128
DIMENSION = "minecraft:overworld"


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


class ForeignMapsError(PipesError):
    """Map files at our ids show other pictures: refuse to overwrite them without --force."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        listed = "\n".join(f"  {p}" for p in paths)
        super().__init__(
            f"{len(paths)} map file(s) at the picture ids hold other pictures:\n{listed}\n"
            "They may be maps players made: pick another --base, or pass --force to replace them."
        )


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


def _colors_bytes(colors: npt.ArrayLike) -> bytes:
    arr = np.asarray(colors)
    if arr.size != COLORS_LEN:
        raise ValueError(f"a map picture has {COLORS_LEN} pixels, got {arr.size}")
    return (arr.astype(np.int64) & 255).astype(np.uint8).tobytes()


def map_file(
    colors: npt.ArrayLike,
    data_version: int,
    *,
    x_center: int = 0,
    z_center: int = 0,
    dimension: str = DIMENSION,
) -> File:
    """An nbtlib file of a locked, untracked picture map (packed colours, row-major, 128x128)."""
    raw = np.frombuffer(_colors_bytes(colors), dtype=np.uint8)
    return File(
        {
            "data": Compound(
                {
                    "dimension": String(dimension),
                    "xCenter": Int(x_center),
                    "zCenter": Int(z_center),
                    "scale": Byte(0),
                    "locked": Byte(1),
                    # Written although false: the default is true, and a tracking map would get a
                    # green frame marker painted over the picture for every frame showing it.
                    "trackingPosition": Byte(0),
                    "unlimitedTracking": Byte(0),
                    "colors": ByteArray(raw.view(np.int8)),
                }
            ),
            "DataVersion": Int(data_version),
        },
        gzipped=True,
        root_name="",
    )


def encode_file(nbt: File) -> bytes:
    """The uncompressed big-endian NBT bytes of a file (what gzip wraps)."""
    buff = io.BytesIO()
    nbt.write(buff, byteorder="big")
    return buff.getvalue()


def read_colors(path: Path) -> npt.NDArray[np.uint8]:
    """The packed colours of a map file as a (128, 128) uint8 array; ValueError if not a map."""
    try:
        root = nbtlib.load(path)
        colors = root["data"]["colors"]
    except Exception as exc:
        raise ValueError(f"{path}: not a map file ({exc})") from None
    arr = np.asarray(colors)
    if arr.size != COLORS_LEN:
        raise ValueError(f"{path}: colors has {arr.size} bytes, not {COLORS_LEN}")
    return arr.astype(np.int64).astype(np.uint8).reshape(128, 128)


def atomic_save(nbt: File, path: Path) -> None:
    """Write a gzipped NBT file so that ``path`` holds either the old or the whole new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            # mtime=0: identical pictures give byte-identical files (reproducible exports).
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
                nbt.write(gz, byteorder="big")
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


Action = Literal["write", "update", "unchanged", "foreign", "replace"]


@dataclass(frozen=True)
class PlanItem:
    """What install does with one id: write new, update ours, leave, refuse, or force-replace."""

    map_id: int
    path: Path
    action: Action


def _existing_action(path: Path, picture: npt.NDArray[np.uint8], wanted: bytes) -> Action:
    try:
        current = gzip.decompress(path.read_bytes())
    except (OSError, EOFError):
        current = b""
    if current == wanted:
        return "unchanged"
    try:
        colors = read_colors(path)
    except ValueError:
        return "foreign"
    return "update" if np.array_equal(colors, picture) else "foreign"


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
            wanted = encode_file(map_file(picture, target.data_version))
            action = _existing_action(path, picture, wanted)
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
