"""`repair --from-world` for a paint room: the state rebuilt from the blocks in the world.

The target copy beside the canvas is the puzzle (its shortest solution is computed again), the
canvas is what the players painted; counters come from what the broken file still holds. A room
configured `paint.target: none` keeps no target in the world and cannot be recovered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.errors import RoomError
from controller.puzzle.paint import Canvas, Unpaintable, puzzle_of
from controller.runtime.link import Link
from controller.runtime.paint.state import PaintState
from controller.world import commands as cmd

if TYPE_CHECKING:
    from controller.runtime.paint.room import PaintRoom

__all__ = ["state_from_world"]


def state_from_world(room: PaintRoom, link: Link, salvaged: dict[str, Any]) -> PaintState:
    """The state the canvas and target copy describe; RoomError saying why when they cannot."""
    cannot = f"room {room.name}: the puzzle cannot be recovered from the world"
    hint = f"; `pipesctl repair -w {room.name} --reset` builds a new puzzle instead"
    if room.geom.target_offset is None:
        raise RoomError(f"{cannot}: the room shows no target copy (paint.target: none){hint}")
    room.send_all(link, cmd.forceload(room.geom))
    room.wait_loaded(link)
    blank = Canvas.blank(room.cfg.width, room.cfg.height)
    target = Canvas(blank.width, blank.height, room.read_cells(link, room.geom.target_pos, blank))
    canvas = Canvas(blank.width, blank.height, room.read_cells(link, room.geom.cell_pos, blank))
    try:
        puzzle = puzzle_of(target, generator="recovered")
    except Unpaintable as exc:
        raise RoomError(f"{cannot}: the target copy is not paintable ({exc}){hint}") from None
    return PaintState(
        room.name,
        puzzle,
        canvas,
        puzzle_number=int(salvaged.get("puzzle_number", 1)),
        moves=int(salvaged.get("moves", 0)),
        started_at=float(salvaged.get("started_at", room.clock.time())),
        solves=list(salvaged.get("solves", [])),
        origin=room.geom.origin,
        dimension=room.geom.dimension,
        orientation=room.geom.orientation,
        target_side=room.geom.target,
    )
