"""What differs between a tree room and a sink room (docs/world-format.md, "Sink rooms").

A `PipesRoom` asks its `Rules` when the puzzle is solved, which tile to hint, which picture a
tile shows, which frames are fixed and which extra block the room has. `TreeRules` is the
classic room (every tile wet); `SinkRules` the source → sink room (water reaches the sink,
whose cauldron beside the board fills).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from controller.puzzle.model import CROSS, Board, TileClass, map_id
from controller.puzzle.play import PlayState, TileChange
from controller.puzzle.sink import RouteProgress, route_progress
from controller.runtime.state import SINK_WORLD_FORMAT, WORLD_FORMAT
from controller.world import commands as cmd
from controller.world.geometry import Pos, sink_block
from controller.world.geometry import Room as Geometry
from controller.world.mapids import SINK_PICTURES, cross_map_id, sink_map_id

__all__ = ["Rules", "TreeRules", "SinkRules", "rules_for", "picture_ids"]


def picture_ids(base: int, mode: str = "tree", crosses: bool = False) -> list[int]:
    """Every map id a room can show: shapes 0..3 in classes 0..4, without ring ends; a sink
    room adds its three fixed pictures, and its five cross pictures when it deals crosses."""
    ids = [
        map_id(base, shape, cls)
        for cls in TileClass
        for shape in range(4)
        if not (shape == 0 and cls in (TileClass.RING, TileClass.SOURCE_RING))
    ]
    if mode == "sink":
        ids += [sink_map_id(base, p) for p in SINK_PICTURES]
    if mode == "sink" and crosses:
        ids += [cross_map_id(base, k) for k in range(4)]
        ids.append(cross_map_id(base, 0, source=True))
    return ids


HINT_WORK = 40_000  # search nodes × tiles a room's hint may spend looking for the nearest solution


class Rules:
    """The tree room: solved when every tile is wet; no fixed frames, no extra block."""

    mode = "tree"
    world_format = WORLD_FORMAT

    def __init__(self, geom: Geometry, base: int) -> None:
        self.geom = geom
        self.base = base

    def solved(self, board: Board, play: PlayState) -> bool:
        """Whether the puzzle is solved."""
        return play.solved

    def hint(self, board: Board) -> tuple[int, int] | None:
        """The next tile to turn and its rotation towards the nearest solution found, None when
        solved. On a board with several solutions that is not always the generating one: the
        search for the fewest clicks (`solver.par_report`) gets `HINT_WORK` tiles' worth of
        nodes, so a hint costs about the same at every size (docs/in-game.md, "Hints towards
        the nearest solution")."""
        from controller.puzzle.solver import hint, par_report

        nearest = par_report(board, budget=max(8, HINT_WORK // board.size))
        return hint(board, nearest.masks)

    def par(self, board: Board) -> int | None:
        """The fewest clicks from the start, when the search proves it with `HINT_WORK` tiles'
        worth of nodes (always on unique boards, which deduction solves); None otherwise: a
        bound is never announced as par."""
        from controller.puzzle.solver import par_report

        report = par_report(board, budget=max(8, HINT_WORK // board.size))
        return report.clicks if report.exact else None

    def map_id(self, board: Board, idx: int, cls: int, axes: int = 0) -> int:
        """The picture of tile `idx` in class `cls` (`axes`: a cross's wet axes)."""
        return map_id(self.base, board.shapes[idx], cls)

    def fixed(self, board: Board, idx: int) -> bool | None:
        """Whether the frame is Fixed (None: the room writes no `Fixed` in merges)."""
        return None

    def sink_pos(self, board: Board) -> Pos | None:
        """Where the sink block stands, if the room has one."""
        return None

    def block_commands(self, board: Board, classes: Sequence[int]) -> list[str]:
        """Idempotent commands that set the room's extra blocks for these tile classes."""
        return []

    def block_update(
        self, board: Board, shown: Sequence[int], tiles: Iterable[TileChange]
    ) -> list[str]:
        """Commands for the extra blocks when `tiles` change from the `shown` classes."""
        return []

    def frames_check(self, kind: str, board: Board) -> tuple[str, int] | None:
        """A count command and the count it must give for the fixed frames, if any."""
        return None

    def progress(self, board: Board, play: PlayState) -> RouteProgress | None:
        """How far the water got along the route (sink rooms; None for a tree room)."""
        return None


TreeRules = Rules


class SinkRules(Rules):
    """The sink room: solved when water reaches the sink; source and sink frames are Fixed and
    show their own pictures; a cauldron beside the sink fills with the water."""

    mode = "sink"
    world_format = SINK_WORLD_FORMAT

    @staticmethod
    def _sink(board: Board) -> int:
        if board.sink is None:
            raise ValueError("sink: the board has no sink")
        return board.index(*board.sink)

    def solved(self, board: Board, play: PlayState) -> bool:
        """The sink tile is wet: the water reaches it (the same as `flow.sink_reached`)."""
        return play.classes[self._sink(board)] != TileClass.DRY

    def hint(self, board: Board) -> tuple[int, int] | None:
        """Greedy from the source along the cheapest route (`sink.sink_hint`)."""
        from controller.puzzle.sink import sink_hint

        return sink_hint(board)

    def par(self, board: Board) -> int | None:
        """The fewest clicks until water reaches the sink, when the search proved it within its
        budget (`sink.sink_par_report`); a bound is never announced as par."""
        from controller.puzzle.sink import sink_par_report

        report = sink_par_report(board)
        return report.clicks if report.exact else None

    def map_id(self, board: Board, idx: int, cls: int, axes: int = 0) -> int:
        """The fixed source and sink show their own pictures, a cross the one of its wet
        `axes` (the source's colours in the win waves); the others the pipe pictures."""
        if board.shapes[idx] == CROSS:
            win = cls in (TileClass.SOURCE, TileClass.SOURCE_RING)
            return cross_map_id(self.base, axes, source=win)
        if idx == board.source_index:
            return sink_map_id(self.base, "source")
        if idx == self._sink(board):
            return sink_map_id(self.base, "sink_dry" if cls == TileClass.DRY else "sink_wet")
        return map_id(self.base, board.shapes[idx], cls)

    def fixed(self, board: Board, idx: int) -> bool | None:
        """Source and sink frames are Fixed; every merge says so either way."""
        return idx in board.fixed

    def sink_pos(self, board: Board) -> Pos | None:
        """The border block at the frames' level beside the sink tile."""
        i, j = board.sink if board.sink is not None else (0, 0)
        return self.geom.sink_pos(i, j)

    def block_commands(self, board: Board, classes: Sequence[int]) -> list[str]:
        """One idempotent `fill` of the sink block (its reply counts a repaired block)."""
        pos = self.geom.sink_pos(*(board.sink or (0, 0)))
        wet = classes[self._sink(board)] != TileClass.DRY
        return cmd.fill_box(pos, pos, sink_block(wet))

    def block_update(
        self, board: Board, shown: Sequence[int], tiles: Iterable[TileChange]
    ) -> list[str]:
        """A `setblock` of the sink block only when the water arrives or leaves."""
        k = self._sink(board)
        for t in tiles:
            if t.index == k and (t.cls == TileClass.DRY) != (shown[k] == TileClass.DRY):
                pos = self.geom.sink_pos(*(board.sink or (0, 0)))
                return [cmd.setblock(pos, sink_block(t.cls != TileClass.DRY))]
        return []

    def frames_check(self, kind: str, board: Board) -> tuple[str, int] | None:
        """The fixed frames (source, sink, crosses) are all tagged fixed and `Fixed:1b`."""
        return cmd.count_fixed_frames(self.geom, kind), len(board.fixed)

    def progress(self, board: Board, play: PlayState) -> RouteProgress | None:
        """The route progress (docs/puzzle.md, "Route progress"): the route's steps that carry
        water, and whether the sink does; None for a board without a generating route."""
        return route_progress(board, play.classes, play.axes)


def rules_for(mode: str, geom: Geometry, base: int) -> Rules:
    """The rules of a room's mode (`tree` or `sink`)."""
    return SinkRules(geom, base) if mode == "sink" else TreeRules(geom, base)
