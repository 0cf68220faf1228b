"""The rooms as the web page shows them: an immutable snapshot of each room, taken on the
daemon's thread whenever the room changes (its listeners), read by the web server's threads.

Nothing here touches a socket or a file; a snapshot holds copies, never the room's own lists.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.puzzle.model import Board
from controller.puzzle.paint import Canvas
from controller.puzzle.sink import RouteProgress
from controller.runtime.paint.room import PaintRoom
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.records import PlayerRecord
from controller.runtime.room import Room
from controller.web.standings import RoomRecords, RoomStandings

__all__ = ["RoomView", "LiveRooms", "view_of"]


@dataclass(frozen=True)
class RoomView:
    """One room at one moment: what the page shows of it."""

    name: str
    server: str
    kind: str
    width: int
    height: int
    revision: int  # grows with every change the room reports
    built: bool = False
    puzzle: int = 0
    progress: int = 0  # water tiles (a paint room: cells matching the target)
    total: int = 0
    solved: bool = False
    started_at: float | None = None
    solved_at: float | None = None
    route: RouteProgress | None = None  # a sink room: the water's progress along the route
    board: Board | None = None  # a pipes room's puzzle (a copy) and its tiles' classes
    classes: tuple[int, ...] = ()
    canvas: Canvas | None = None  # a paint room's canvas and target
    target: Canvas | None = None
    standings: RoomStandings | None = None


def _table(records: Mapping[str, PlayerRecord]) -> dict[str, tuple[int, float | None]]:
    return {name: (rec.solves, rec.best) for name, rec in records.items()}


def view_of(room: Room, revision: int) -> RoomView:
    """A snapshot of a room now (call it on the thread that runs the room)."""
    view = RoomView(
        room.name, room.cfg.server, room.kind, room.cfg.width, room.cfg.height, revision
    )
    status = room.status()
    if status is None:
        return view
    view = replace(
        view, built=True, puzzle=status.puzzle, progress=status.progress, total=status.total,
        solved=status.solved, started_at=status.started_at, solved_at=status.solved_at,
        route=status.route,
    )  # fmt: skip
    if isinstance(room, PipesRoom) and room.state is not None and room.play is not None:
        state = room.state
        daily = {day: _table(recs) for day, recs in state.daily.items()}
        return replace(
            view,
            board=state.board.copy(),
            classes=tuple(room.play.classes),
            standings=RoomStandings(room.name, room.cfg.server, _table(state.players), daily),
        )
    if isinstance(room, PaintRoom) and room.state is not None:
        paint = room.state
        daily = {day: _table(recs) for day, recs in paint.daily.items()}
        return replace(
            view,
            canvas=paint.canvas,
            target=paint.puzzle.target,
            standings=RoomStandings(room.name, room.cfg.server, _table(paint.players), daily),
        )
    return view


class LiveRooms:
    """The latest snapshot of every room, renewed by the room's listener at every change."""

    def __init__(self, rooms: Mapping[str, Room]) -> None:
        self._lock = threading.Lock()
        self._revision = 0
        self._views: dict[str, RoomView] = {}
        for room in rooms.values():
            self.refresh(room)
            room.listeners.append(self.refresh)

    def refresh(self, room: Room) -> None:
        """Take a new snapshot of `room` (its listener)."""
        with self._lock:
            self._revision += 1
            revision = self._revision
        view = view_of(room, revision)
        with self._lock:
            self._views[room.name] = view

    def views(self) -> list[RoomView]:
        """Every room's latest snapshot, by name."""
        with self._lock:
            return [self._views[name] for name in sorted(self._views)]

    def view(self, name: str) -> RoomView | None:
        """One room's latest snapshot (None: no such room)."""
        with self._lock:
            return self._views.get(name)

    def records(self) -> RoomRecords:
        """The rooms' records as `Records` (controller/web/standings.py)."""
        return RoomRecords({v.name: v.standings for v in self.views() if v.standings is not None})
