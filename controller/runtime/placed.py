"""What every room kind shares through its placement in the world: commands sent in its
dimension, the box it occupies and the count of its frames (controller/runtime/room.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.runtime.link import Link, in_dimension, send_all_in
from controller.world import commands as cmd
from controller.world.geometry import Pos

__all__ = ["PlacedRoom", "RoomPlacement"]


class RoomPlacement(cmd.Placed, Protocol):
    """A room kind's placement: what the room-wide commands need, its dimension and box."""

    @property
    def dimension(self) -> str: ...

    def bounds(self) -> tuple[Pos, Pos]: ...


class PlacedRoom:
    """A base of the room kinds: everything here follows from `geom` and `frame_kind`."""

    geom: RoomPlacement
    frame_kind: str

    def send(self, link: Link, command: str) -> str:
        """Send one command in the room's dimension."""
        return link.send(in_dimension(command, self.geom.dimension))

    def send_all(
        self,
        link: Link,
        commands: list[str],
        progress: Callable[[int, int], None] | None = None,
    ) -> list[str]:
        """Send commands in order, reporting progress every 64 commands."""
        return send_all_in(link, self.geom.dimension, commands, progress)

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
