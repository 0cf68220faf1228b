"""One map data file: its NBT, its bytes, reading its colours back, and writing it atomically.

A map file is gzipped NBT ``{data: {...}, DataVersion: <the world's>}`` (docs/server-behaviour.md,
"Map data files"), built with nbtlib and written through a temp file in the same folder and
``os.replace``, because nbtlib's ``File.save`` is not atomic.
"""

from __future__ import annotations

import gzip
import io
import os
import tempfile
from pathlib import Path

import nbtlib
import numpy as np
import numpy.typing as npt
from nbtlib import Byte, ByteArray, Compound, File, Int, String

__all__ = [
    "COLORS_LEN",
    "DIMENSION",
    "map_file",
    "encode_file",
    "read_colors",
    "picture_fields",
    "atomic_save",
]

COLORS_LEN = 128 * 128
DIMENSION = "minecraft:overworld"


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
    """An nbtlib file of a locked, untracked picture map (packed colours, row-major, 128x128).

    Every field is written, defaults included: the one payload every release from 1.20.5 on
    reads alike (docs/server-behaviour.md, "Map data files: payload"); only the DataVersion
    is the release's."""
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


# The payload fields that decide what a map shows and whether the server draws on it, with the
# value the server reads when one is absent (docs/server-behaviour.md, "Map data files: payload").
_FIELD_DEFAULTS: dict[str, object] = {
    "dimension": None,
    "xCenter": None,
    "zCenter": None,
    "scale": 0,
    "trackingPosition": 1,
    "unlimitedTracking": 0,
    "locked": 0,
}


def picture_fields(root: Compound) -> dict[str, object] | None:
    """What a map file means, not how it is encoded: the decoded colours (bytes) and the
    payload fields that matter, defaults filled in (the server omits a field equal to its
    default when it re-saves a map), and DataVersion; None if it is not a map file.

    Everything else is left out: key order, compression, and the lists the server adds on
    its own (`frames`, `banners`), which change neither the picture nor the id.
    """
    data = root.get("data")
    if not isinstance(data, Compound) or "colors" not in data:
        return None
    colors = np.asarray(data["colors"])
    if colors.size != COLORS_LEN:
        return None
    out: dict[str, object] = {"colors": (colors.astype(np.int64) & 255).astype(np.uint8).tobytes()}
    for key, default in _FIELD_DEFAULTS.items():
        value = data.get(key)
        if value is None:
            out[key] = default
        elif isinstance(value, String):
            out[key] = str(value)
        else:
            try:
                out[key] = int(value)
            except (TypeError, ValueError):
                return None
    version = root.get("DataVersion")
    out["DataVersion"] = int(version) if isinstance(version, Int) else None
    return out


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
