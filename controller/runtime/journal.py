"""A build's progress on disk, so that a build stopped half-way resumes where it stopped.

A room's build is a fixed list of commands for the puzzle in the state file (the state is saved
before the first one). `<room>.build.json` names that list by a digest and counts the commands
the server has answered; it is rewritten every `EVERY` commands and at a stop, and removed
when the build is complete. The next start finds it, rebuilds the same list from the same
state, checks the digest and sends the rest. After a kill (no chance to write the count) up to
`EVERY` commands are sent again: a build's fills and setblocks are idempotent, and a summon of
a frame whose UUID exists already is refused by the server (docs/reliability.md, "Stopping").
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from controller.runtime.control import write_json

__all__ = ["BuildJournal", "journal_path", "EVERY"]

EVERY = 64


def journal_path(state_dir: Path, room: str) -> Path:
    """Where a room's unfinished build is recorded."""
    return state_dir / f"{room}.build.json"


def _digest(commands: list[str]) -> str:
    h = hashlib.sha256()
    for c in commands:
        h.update(c.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


class BuildJournal:
    """The journal of one room's build."""

    def __init__(self, state_dir: Path, room: str) -> None:
        self.path = journal_path(state_dir, room)
        self.digest = ""
        self.total = 0

    def pending(self) -> bool:
        """Whether a build was left unfinished."""
        return self.path.exists()

    def begin(self, commands: list[str]) -> int:
        """Start (or resume) the build of `commands`; the index of the first one to send."""
        self.digest, self.total = _digest(commands), len(commands)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if (
            isinstance(data, dict)
            and data.get("digest") == self.digest
            and isinstance(data.get("sent"), int)
            and 0 <= data["sent"] <= self.total
        ):
            return int(data["sent"])
        self.record(0)
        return 0

    def record(self, sent: int) -> None:
        """Note that the server has answered the first `sent` commands."""
        write_json(self.path, {"digest": self.digest, "total": self.total, "sent": sent})

    def finish(self) -> None:
        """The build is complete."""
        self.path.unlink(missing_ok=True)
