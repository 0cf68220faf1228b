"""A room's queued records writes on disk (docs/records.md, "Exactly once").

One JSON object a line, each with a unique `key`. `append` returns only once the lines are
written and fsynced, so an acknowledged write survives a crash or a power cut; `remove` rewrites
the file atomically without the entries the store has taken. A torn last line (a crash in the
middle of an append, never acknowledged) is dropped when the file is read; any other line that
is not an entry is moved to `<name>.rejected` beside it, so nothing is lost silently.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["Outbox"]

log = logging.getLogger("controller.records")


def _fsync_dir(folder: Path) -> None:
    """Make a file's creation or rename in `folder` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Outbox:
    """Entries waiting for the records store, in the order they were queued."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._entries: list[dict[str, Any]] = self._load()

    def _load(self) -> list[dict[str, Any]]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        lines = raw.split(b"\n")
        torn = lines.pop()  # b"" when the file ends with a newline
        entries, rejected = [], []
        for line in lines:
            try:
                entry = json.loads(line)
                if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
                    raise ValueError("not an entry")
                entries.append(entry)
            except ValueError:
                rejected.append(line)
        if torn:
            log.warning("records outbox %s: an unfinished last line was dropped", self.path)
        if rejected:
            bad = self.path.with_suffix(".rejected")
            with bad.open("ab") as fh:
                fh.write(b"".join(line + b"\n" for line in rejected))
                fh.flush()
                os.fsync(fh.fileno())
            log.warning(
                "records outbox %s: %d unreadable line(s) moved to %s",
                self.path,
                len(rejected),
                bad,
            )
        if torn or rejected:
            self._rewrite(entries)
        return entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def pending(self) -> list[dict[str, Any]]:
        """The entries not taken yet, oldest first."""
        with self._lock:
            return list(self._entries)

    def keys(self) -> set[str]:
        """The keys of the entries not taken yet."""
        with self._lock:
            return {e["key"] for e in self._entries}

    def append(self, entries: Iterable[dict[str, Any]]) -> None:
        """Queue entries durably: written and fsynced before this returns."""
        batch = list(entries)
        if not batch:
            return
        data = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in batch)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            new = not self.path.exists()
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if new:
                _fsync_dir(self.path.parent)
            self._entries.extend(batch)

    def remove(self, keys: set[str]) -> None:
        """Forget the entries the store has taken (an atomic rewrite of the file)."""
        with self._lock:
            left = [e for e in self._entries if e["key"] not in keys]
            if len(left) == len(self._entries):
                return
            self._rewrite(left)
            self._entries = left

    def _rewrite(self, entries: list[dict[str, Any]]) -> None:
        if not entries:
            self.path.unlink(missing_ok=True)
            _fsync_dir(self.path.parent)
            return
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                for e in entries:
                    fh.write(json.dumps(e, separators=(",", ":")) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            _fsync_dir(self.path.parent)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
