"""`repair --from-world`: a pipes room's state rebuilt from its frames when the state file is lost.

Each tile frame names its tile (`pipes.<room>.<i>.<j>`), shows its shape and class in its map
id (`base + shape + 4 * class`) and its rotation in `ItemRotation`; the source is the tile whose
picture is of a source class. The solution is not in the world: the solver finds one.

A sink room's source and sink show their own pictures (`base + 40`, `base + 41/42`, both an end;
docs/world-format.md, "Sink rooms"); its solution is the cheapest route the sink solver finds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.errors import RoomError
from controller.puzzle.model import CROSS, HOLE, Board, Shape, TileClass
from controller.puzzle.solver import solve
from controller.runtime.link import Link
from controller.runtime.state import RoomState
from controller.world import commands as cmd
from controller.world.mapids import CROSS_OFFSET, CROSS_PICTURES, SINK_OFFSET, SINK_PICTURES
from controller.world.replies import parse_frame_values

if TYPE_CHECKING:
    from controller.runtime.pipes.room import PipesRoom

__all__ = ["state_from_world"]


def _values(room: PipesRoom, link: Link, command: str, byte: bool) -> dict[int, int]:
    w, h = room.cfg.width, room.cfg.height
    out: dict[int, int] = {}
    for fv in parse_frame_values(room.send(link, command), byte=byte):
        if fv.room == room.name and 0 <= fv.i < w and 0 <= fv.j < h:
            out[fv.j * w + fv.i] = fv.value
    return out


def state_from_world(room: PipesRoom, link: Link, salvaged: dict[str, Any]) -> RoomState:
    """The state the frames in the world describe (with counters salvaged from the broken
    file); RoomError saying why when the board cannot be recovered."""
    cannot = f"room {room.name}: the board cannot be recovered from the world"
    hint = f"; `pipesctl repair -w {room.name} --reset` builds a new puzzle instead"
    sink_mode = room.cfg.mode == "sink"
    room.send_all(link, cmd.forceload(room.geom))
    room.wait_loaded(link)
    w, h = room.cfg.width, room.cfg.height
    size = w * h
    pictures = _values(room, link, cmd.read_map_ids(room.geom, room.frame_kind), byte=False)
    rotations = _values(room, link, cmd.read_rotations(room.geom, room.frame_kind), byte=True)
    found = min(len(pictures), len(rotations))
    holes = sink_mode and room.cfg.holes  # a tile without a frame is a hole
    if found < size and not holes:
        raise RoomError(f"{cannot}: {found} of {size} tile frames found{hint}")
    shapes: list[int] = []
    sources: list[int] = []
    sinks: list[int] = []
    for idx in range(size):
        if holes and (idx not in pictures or idx not in rotations):
            shapes.append(HOLE)
            continue
        offset = pictures[idx] - room.cfg.map_id_base
        fixed = offset - SINK_OFFSET
        if sink_mode and 0 <= fixed < len(SINK_PICTURES):
            shapes.append(Shape.END)
            (sources if fixed == 0 else sinks).append(idx)
            continue
        if sink_mode and 0 <= offset - CROSS_OFFSET < len(CROSS_PICTURES):
            shapes.append(CROSS)
            continue
        if not 0 <= offset < 20:
            raise RoomError(f"{cannot}: tile {idx} shows map {pictures[idx]}, not a pipe{hint}")
        shapes.append(offset % 4)
        if offset // 4 in (TileClass.SOURCE, TileClass.SOURCE_RING):
            sources.append(idx)
    if len(sources) != 1:
        raise RoomError(f"{cannot}: {len(sources)} source tiles found, not one{hint}")
    if sink_mode and len(sinks) != 1:
        raise RoomError(f"{cannot}: {len(sinks)} sink tiles found, not one{hint}")
    turned = [rotations.get(idx, 0) % 4 for idx in range(size)]
    source = (sources[0] % w, sources[0] // w)
    if sink_mode:
        board = _sink_board(w, h, source, sinks[0], shapes, turned)
        if board is None:
            raise RoomError(f"{cannot}: the pieces in the frames cannot reach the sink{hint}")
    else:
        board = Board(w, h, source, shapes, turned, list(turned))
        solution = solve(board)
        if solution is None:
            raise RoomError(f"{cannot}: the pieces in the frames have no solution{hint}")
        board = Board(w, h, source, shapes, turned, solution, meta={"recovered": True})
    dealt = salvaged.get("start")  # how the puzzle was dealt, for a restart, when still readable
    if not (
        isinstance(dealt, list)
        and len(dealt) == board.size
        and all(type(v) is int and 0 <= v <= 3 for v in dealt)
    ):
        dealt = None
    return RoomState(
        room.name,
        board,
        puzzle_number=int(salvaged.get("puzzle_number", 1)),
        moves=int(salvaged.get("moves", 0)),
        started_at=float(salvaged.get("started_at", room.clock.time())),
        solves=list(salvaged.get("solves", [])),
        origin=room.geom.origin,
        dimension=room.geom.dimension,
        start=dealt,
    )


def _sink_board(
    w: int, h: int, source: tuple[int, int], sink: int, shapes: list[int], turned: list[int]
) -> Board | None:
    """The sink board the frames show, its solution the cheapest route to the sink (None when
    no route exists)."""
    from controller.puzzle.sink import sink_route

    crosses = [t for t, s in enumerate(shapes) if s == CROSS]
    fixed = frozenset({source[1] * w + source[0], sink, *crosses})
    where = (sink % w, sink // w)
    board = Board(w, h, source, shapes, turned, list(turned), mode="sink", sink=where, fixed=fixed)
    try:
        route = sink_route(board)
    except ValueError:
        return None
    solution = list(turned)
    for t, r in route:
        solution[t] = r
    return Board(
        w, h, source, shapes, turned, solution, meta={"recovered": True},
        mode="sink", sink=where, fixed=fixed,
    )  # fmt: skip
