"""Install the companion data pack into a world (`<world>/datapacks/pipesctl/`), or export it.

Each file is written atomically (a temp file in the same folder, then `os.replace`) and only when
its content differs, so installing twice changes nothing. Files of the pack folder that the pack
no longer has (an older version's, another release's) are removed, and the folders they leave
empty. The content is `controller.world.datapack`'s.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["PACK_FOLDER", "PackItem", "install_pack", "write_atomic"]

PACK_FOLDER = "pipesctl"  # the server lists it as `file/pipesctl`

Action = Literal["write", "update", "unchanged", "remove"]


@dataclass(frozen=True)
class PackItem:
    """What happened to one file of the pack."""

    path: Path
    action: Action


def write_atomic(path: Path, data: bytes) -> None:
    """Write `path` so that it holds either the old or the whole new content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install_pack(folder: Path, files: dict[str, bytes]) -> list[PackItem]:
    """Write `files` (relative path → bytes) under `folder`; returns what was done to each."""
    done: list[PackItem] = []
    for rel, data in sorted(files.items()):
        path = folder / rel
        try:
            old: bytes | None = path.read_bytes()
        except FileNotFoundError:
            old = None
        if old == data:
            done.append(PackItem(path, "unchanged"))
            continue
        write_atomic(path, data)
        done.append(PackItem(path, "write" if old is None else "update"))
    wanted = {folder / rel for rel in files}
    if folder.is_dir():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path not in wanted:
                path.unlink()
                done.append(PackItem(path, "remove"))
        # folders left empty (another release's `functions/`, say) go too, deepest first
        for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return done
