"""The room interface: what the daemon and the admin commands need of any room kind.

A room kind (`PipesRoom`, `PaintRoom`) is a class that satisfies `Room`; the daemon only ever
talks to rooms through it. `make_room` picks the class for a world's configured kind.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from controller.config import WorldConfig
from controller.puzzle.sink import RouteProgress
from controller.records.writer import RecordsWriter
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.lease import Fence
from controller.runtime.link import Link
from controller.runtime.repairs import Repairs
from controller.runtime.requests import Request, Response
from controller.world.geometry import Pos

__all__ = ["Progress", "Repairs", "RoomStatus", "Room", "SavedState", "make_room"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RoomStatus:
    """A room's progress as its state has it (no server needed)."""

    puzzle: int
    progress: int
    total: int
    moves: int
    started_at: float
    solved: bool
    solved_at: float | None = None  # when the current puzzle was solved (None: not yet)
    route: RouteProgress | None = None  # a sink room: how far the water got along the route


class SavedState(Protocol):
    """A room's state as its state file holds it (each kind has its own format)."""

    def save(self, path: Path) -> None:
        """Write the state file atomically."""
        ...


@runtime_checkable
class Room(Protocol):
    """One room on one server, driven by the daemon."""

    listeners: list[Callable[[Room], None]]
    fence: Fence | None  # while a lease is held: every world write conditional on it
    gestures: bool  # the server's data pack marks locks and anticlockwise turns (daemon sets it)
    clickers: bool  # the server's data pack notes who clicked each frame (daemon sets it)
    on_repairs: Callable[[Repairs], None]  # hears of repairs made outside a reconcile (daemon)

    @property
    def kind(self) -> str:
        """The room kind as configured (`pipes` or `paint`)."""
        ...

    @property
    def name(self) -> str:
        """The room's name (`worlds.<name>` in the config)."""
        ...

    @property
    def cfg(self) -> WorldConfig:
        """The room's configuration."""
        ...

    @property
    def frame_kind(self) -> str:
        """The entity type of its frames (`item_frame` or `glow_item_frame`)."""
        ...

    @property
    def dimension(self) -> str:
        """The dimension the room is built in."""
        ...

    def bounds(self) -> tuple[Pos, Pos]:
        """The inclusive box the room occupies."""
        ...

    def load(self) -> bool:
        """Adopt the saved state without touching the world; False when there is none."""
        ...

    def start(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Build the room, or reconcile it with its saved state."""
        ...

    def handle_turn(self, link: Link, i: int, j: int, value: int) -> bool:
        """The frame of tile (i, j) shows ItemRotation `value`; returns whether that was a turn
        (a value equal to the settled rotation is not)."""
        ...

    def settled(self, i: int, j: int) -> int | None:
        """The ItemRotation that tile (i, j)'s frame shows while nobody turned it (None: the room
        has no clickable frame there); `handle_turn` takes no other value as a turn either."""
        ...

    def periodic(self, link: Link, players_near: bool = True) -> None:
        """Timers: next puzzle, feedback, audits (`players_near`: anyone within wake distance)."""
        ...

    def reconcile(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Read the room back, adopt turns made meanwhile, repair the rest."""
        ...

    def handle_request(self, link: Link, request: Request) -> Response | None:
        """Carry out an admin request."""
        ...

    def remove(self, link: Link) -> Path | None:
        """Clear the room from the world and archive its state."""
        ...

    def status(self) -> RoomStatus | None:
        """Progress of the current puzzle (None before the first build)."""
        ...

    def save(self) -> None:
        """Write the state file."""
        ...

    def state_from_world(self, link: Link, salvaged: dict[str, Any]) -> SavedState:
        """`repair --from-world`: the state the room's frames and blocks describe, with the
        counters `salvaged` from the broken state file; RoomError saying why when the world
        cannot tell."""
        ...

    def frame_count_command(self) -> str:
        """A command whose `Test passed. Count: N` reply counts the room's tile frames."""
        ...


def make_room(
    name: str,
    cfg: WorldConfig,
    state_dir: Path,
    clock: Clock = SYSTEM_CLOCK,
    records: RecordsWriter | None = None,
    records_server: str | None = None,
) -> Room:
    """The room object for a configured world (`kind: pipes | paint`). With `records`, the
    room records its solves in the store under `records_server` (default: its server's key),
    and a pipes room's state file's records are queued for the one-time import
    (docs/records.md, "Importing the state files"; paint rooms kept none before the store)."""
    from controller.runtime.control import writing_into
    from controller.runtime.records import importable_records

    room: PaintRoom | PipesRoom
    if cfg.kind == "paint":
        from controller.runtime.paint.room import PaintRoom

        room = PaintRoom(name, cfg, state_dir, clock=clock)
    else:
        from controller.runtime.pipes.room import PipesRoom

        room = PipesRoom(name, cfg, state_dir, clock=clock)
    if records is not None:
        snapshot = functools.partial(importable_records, room.path)
        with writing_into(state_dir):  # the room's outbox lives in the state directory
            handle = records.add_room(name, records_server or cfg.server, snapshot)
        room.attach_records(handle)
    return room
