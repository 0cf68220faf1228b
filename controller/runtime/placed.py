"""What every room kind shares through its placement in the world: commands sent in its
dimension (its writes behind its lease's fence while a lease is held, controller/runtime/lease.py),
the box it occupies, the count of its frames and waiting for its chunks
(controller/runtime/room.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from controller.errors import RoomError
from controller.runtime.clock import Clock
from controller.runtime.journal import EVERY, BuildJournal
from controller.runtime.lease import Fence
from controller.runtime.link import Link, in_dimension
from controller.runtime.repairs import Repairs
from controller.versions import Release
from controller.world import commands as cmd
from controller.world.geometry import Pos

__all__ = ["PlacedRoom", "RoomPlacement", "ignore_repairs", "not_loaded_hint"]


def ignore_repairs(repairs: Repairs) -> None:
    """A room's `on_repairs` until the daemon sets one: nothing."""


def not_loaded_hint(release: Release) -> str:
    """Why a room's chunks may not load, for the server's release: from 1.21.2 a vanilla server
    with nobody online pauses (docs/server-behaviour.md, "Versions: what changes where")."""
    if release.pauses_when_empty:
        return (
            "; a vanilla server with nobody online may be paused (server.properties "
            "pause-when-empty-seconds: set it to -1, or join once)"
        )
    return "; is the server ticking (its log, `tick query`)?"


class RoomPlacement(cmd.Placed, Protocol):
    """A room kind's placement: what the room-wide commands need, its dimension and box."""

    @property
    def dimension(self) -> str: ...

    def bounds(self) -> tuple[Pos, Pos]: ...


class PlacedRoom:
    """A base of the room kinds: everything here follows from `geom` and `frame_kind`."""

    name: str
    clock: Clock
    geom: RoomPlacement
    frame_kind: str
    state_dir: Path
    fence: Fence | None = None  # set while the room's lease is held: its writes are fenced
    # hears of the repairs made outside a reconcile (the tamper guard's); the daemon sets it
    on_repairs: Callable[[Repairs], None]

    def save(self) -> None:
        """Write the state file (each room kind has its own)."""
        raise NotImplementedError

    def build_pending(self) -> bool:
        """Whether a build of the saved state was left unfinished (`send_build`)."""
        return BuildJournal(self.state_dir, self.name).pending()

    def send_build(
        self, link: Link, commands: list[str], progress: Callable[[int, int], None] | None = None
    ) -> None:
        """Send a build's commands under its journal (controller/runtime/journal.py): the state
        is saved first, and a build stopped half-way resumes at its first unanswered command."""
        self.save()
        journal = BuildJournal(self.state_dir, self.name)
        start = journal.begin(commands)
        total = len(commands)
        sent = start
        if progress is not None:
            progress(start, total)  # where it starts: 0, or where a stopped build got to
        try:
            for k in range(start, total):
                self.send(link, commands[k])
                sent = k + 1
                if sent % EVERY == 0 or sent == total:
                    journal.record(sent)
                    if progress is not None:
                        progress(sent, total)
        except BaseException:  # a stop, a lost lease, a dropped connection: resume from here
            journal.record(sent)
            raise
        journal.finish()

    def send(self, link: Link, command: str) -> str:
        """Send one command in the room's dimension; with a fence, a write runs only while the
        room's lease is held (`Fence.send`), and a room whose lease was lost sends nothing."""
        if self.fence is not None:
            return self.fence.send(link, command, self.geom.dimension)
        return link.send(in_dimension(command, self.geom.dimension))

    def send_all(
        self,
        link: Link,
        commands: list[str],
        progress: Callable[[int, int], None] | None = None,
    ) -> list[str]:
        """Send commands in order (each as `send` does), reporting progress every 64 commands."""
        out = []
        for k, c in enumerate(commands):
            out.append(self.send(link, c))
            if progress is not None and (k % 64 == 0 or k == len(commands) - 1):
                progress(k + 1, len(commands))
        return out

    @property
    def dimension(self) -> str:
        """The dimension the room is built in."""
        return self.geom.dimension

    def bounds(self) -> tuple[Pos, Pos]:
        """The inclusive box the room occupies."""
        return self.geom.bounds()

    def frame_count_command(self) -> str:
        """A command whose `Test passed. Count: N` reply counts the room's frames."""
        return in_dimension(cmd.count_frames(self.geom, self.frame_kind), self.geom.dimension)

    def wait_loaded(self, link: Link, timeout: float = 10.0) -> None:
        """Wait until every chunk of the room is loaded with its entities (vanilla loads them
        a tick or more after `forceload add`)."""
        pending = cmd.is_loaded(self.geom)
        deadline = self.clock.monotonic() + timeout
        while pending:
            pending = [c for c in pending if not self.send(link, c).startswith("Test passed")]
            if not pending:
                return
            if self.clock.monotonic() > deadline:
                raise RoomError(
                    f"room {self.name}: its chunks did not load within {timeout:g} s after "
                    f"`forceload add`{not_loaded_hint(link.release)}"
                )
            self.clock.sleep(0.05)
