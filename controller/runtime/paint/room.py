"""The paint room: a canvas of blocks, its target beside it, and brush frames players click.

A click on a brush frame is a rotation change found by the same turn detection as a pipe turn
(the frames carry the `pipes` and `pipes.r0` tags and are named `pipes:<room>:<i>:<j>` by their
plane position). The engine (`controller.puzzle.paint`) decides; every command comes from
`controller.world.commands` and every reply is read with `controller.world.replies`. The layout
is docs/world-format.md, "Paint rooms".
"""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.config import WorldConfig
from controller.errors import RoomError
from controller.puzzle.paint import Canvas, PaintPuzzle, Stroke, generate, hint
from controller.records.writer import RoomRecords
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.daily import daily_seed, utc_date
from controller.runtime.feedback import DAILY, Feedback, duration
from controller.runtime.ingame import PlayerHint, RoomTriggers, paint_controls_text
from controller.runtime.link import Link
from controller.runtime.paint.state import PAINT_WORLD_FORMAT, PaintState
from controller.runtime.placed import PlacedRoom, ignore_repairs
from controller.runtime.repairs import Repairs
from controller.runtime.requests import (
    CanvasRead,
    HintGiven,
    HintRequest,
    RepairDone,
    RepairRequest,
    Request,
    ResetDone,
    ResetRequest,
    Response,
    ShowRequest,
)
from controller.runtime.room import Progress, Room, RoomStatus
from controller.runtime.rounds import record_win
from controller.runtime.state import archive_state, state_path
from controller.versions import Release
from controller.world import commands as cmd
from controller.world.geometry import Pos
from controller.world.mapids import brush_map_id
from controller.world.paint.geometry import BORDER_BLOCK, Brush, Placement, brush_uuid
from controller.world.replies import fill_changed, merge_applied, parse_count, parse_frame_values

__all__ = ["PaintRoom", "PaintTriggers", "CHECK_CHUNK"]

log = logging.getLogger("controller.runtime")

CHECK_CHUNK = 24  # blocks tested by one `execute if block …` chain (stays under the RCON limit)


class PaintTriggers(RoomTriggers["PaintRoom"]):
    """The player features of a paint room (docs/paint.md, "Player features"): the help,
    hint and stats triggers and the first visit's controls; a win's records and
    `on_win.command`."""

    title = "Paint"
    nothing_to_hint = "Nothing to paint: the canvas shows the target"

    def player_hint(self) -> PlayerHint | None:
        """The brush of the first stroke of a shortest completion from the canvas as it is."""
        room = self.room
        brush = room.hint_brush()
        if brush is None:
            return None
        text = (
            f"Hint: pull the glowing brush of {brush.describe()} "
            f"({room.remaining()} stroke(s) left at best)"
        )
        return PlayerHint(text, room.uuids[(brush.i, brush.j)])

    def controls(self) -> str:
        """What the brushes do."""
        return paint_controls_text(self.cfg.hint.enabled)

    def record_kind(self) -> str:
        """Paint solves are of kind `paint`."""
        return "paint"

    def puzzle_seed(self) -> int | None:
        """The puzzle's seed."""
        return self.room.puzzle.seed

    def puzzle_par(self) -> int | None:
        """The puzzle's par (the engine knows it exactly)."""
        return self.room.puzzle.par

    def centre(self) -> tuple[float, float, float]:
        """The middle of the frames' layer in front of the canvas."""
        geom = self.room.geom
        xa, ya, za = geom.frame_pos(0, 0)
        xb, yb, zb = geom.frame_pos(geom.width - 1, geom.height - 1)
        return (
            (min(xa, xb) + max(xa, xb) + 1) / 2,
            (min(ya, yb) + max(ya, yb) + 1) / 2,
            (min(za, zb) + max(za, zb) + 1) / 2,
        )


class PaintRoom(PlacedRoom):
    """One paint room on one server."""

    kind = "paint"
    geom: Placement

    def __init__(
        self, name: str, cfg: WorldConfig, state_dir: Path, *, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.name = name
        self.cfg = cfg
        self.paint = cfg.paint_keys
        self.clock = clock
        self.geom = Placement(
            name, cfg.origin, cfg.width, cfg.height, cfg.dimension,
            self.paint.orientation, self.paint.target, cfg.clear_above,
        )  # fmt: skip
        self.frame_kind = cfg.frame
        self.path = state_path(state_dir, name)
        self.state_dir = state_dir
        self.brushes = self.geom.brushes()
        self.by_pos = {(b.i, b.j): b for b in self.brushes}
        self.uuids = {(b.i, b.j): brush_uuid(name, b.i, b.j) for b in self.brushes}
        self.feedback = Feedback(name, self.geom, cfg)
        self.ingame = PaintTriggers(self)
        self.records: RoomRecords | None = None  # the records store, when the daemon has one
        self.last_daily_check = -60.0
        self.state: PaintState | None = None
        self.next_puzzle_at: float | None = None
        self.last_audit = clock.time()
        self.last_actionbar = 0.0
        self.last_reset_check = 0.0
        self.listeners: list[Callable[[Room], None]] = []
        self.on_repairs: Callable[[Repairs], None] = ignore_repairs
        self.gestures = False  # paint rooms have no gestures: every click is a stroke
        self.clickers = False  # nor undo

    # -- sending --------------------------------------------------------------------------
    def notify(self) -> None:
        """Tell the listeners (the live view) that something changed."""
        for listener in self.listeners:
            listener(self)

    # -- the puzzle -----------------------------------------------------------------------
    @property
    def current_state(self) -> PaintState:
        """The room's state (an error before the first build or resume)."""
        if self.state is None:
            raise RoomError(f"room {self.name} has no puzzle yet")
        return self.state

    @property
    def puzzle(self) -> PaintPuzzle:
        """The current puzzle."""
        return self.current_state.puzzle

    @property
    def canvas(self) -> Canvas:
        """The canvas as the room's state has it."""
        return self.current_state.canvas

    def new_puzzle(self, number: int, seed: int | None = None) -> PaintPuzzle:
        """The puzzle for a puzzle number (seeded from the config when it has a seed; today's
        daily puzzle with `seed: daily`)."""
        if seed is None:
            first = self.cfg.seed
            if first == "daily":
                seed = self.daily_seed()
            elif isinstance(first, int):
                seed = first + number - 1
            else:
                seed = random.randrange(2**31)
        try:
            return generate(
                self.cfg.width,
                self.cfg.height,
                seed=seed,
                generator=self.paint.generator,
                cells=self.paint.cells,
                par=self.paint.par,
            )
        except ValueError as exc:  # e.g. no paintable walk of that many cells
            raise RoomError(f"room {self.name}: worlds.{self.name}.paint.{exc}") from None

    def daily_seed(self) -> int:
        """The seed of today's daily paint puzzle (UTC, on the room's clock; docs/paint.md)."""
        return daily_seed(utc_date(self.clock.time()), self.cfg.width, self.cfg.height, "paint")

    def new_state(self, puzzle: PaintPuzzle, number: int = 1) -> PaintState:
        """A fresh round of `puzzle` on the blank canvas (the players' records carried over)."""
        old = self.state
        fresh = PaintState(
            self.name,
            puzzle,
            puzzle.blank(),
            number,
            started_at=self.clock.time(),
            solves=old.solves if old is not None else [],
            origin=self.geom.origin,
            dimension=self.geom.dimension,
            orientation=self.geom.orientation,
            target_side=self.geom.target,
        )
        if old is not None:
            fresh.players, fresh.daily, fresh.told = old.players, old.daily, old.told
        return fresh

    def attach_records(self, records: RoomRecords) -> None:
        """Record every solve in the records store too (before the room starts: a shared
        store changes the sidebar)."""
        self.records = records
        self.feedback.network = records.shared

    def save(self) -> None:
        """Write the state file atomically."""
        if self.state is not None:
            self.state.save(self.path)

    def state_from_world(self, link: Link, salvaged: dict[str, Any]) -> PaintState:
        """`repair --from-world`: the state the canvas and target copy describe
        (`recover.py`)."""
        from controller.runtime.paint.recover import state_from_world

        return state_from_world(self, link, salvaged)

    def status(self) -> RoomStatus | None:
        """Progress: the canvas cells that already show the target."""
        if self.state is None:
            return None
        puzzle, canvas = self.state.puzzle, self.state.canvas
        return RoomStatus(
            puzzle=self.state.puzzle_number,
            progress=canvas.size - len(puzzle.target.diff(canvas)),
            total=canvas.size,
            moves=self.state.moves,
            started_at=self.state.started_at,
            solved=puzzle.is_done(canvas),
            solved_at=self.state.solved_at,
        )

    def block(self, colour: int) -> str:
        """The block of a colour (0 or 1)."""
        return self.paint.blocks[colour]

    def brush_map(self, brush: Brush) -> int:
        """The picture a brush frame shows."""
        return brush_map_id(self.cfg.map_id_base, brush.axis)

    # -- lifecycle ------------------------------------------------------------------------
    def load(self) -> bool:
        """Adopt the saved state without touching the world; False when there is none."""
        saved = PaintState.load(self.path)
        if saved is None:
            return False
        self.state = saved
        return True

    def start(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Build the room, or reconcile it with its saved state; then it is ready to play."""
        saved = PaintState.load(self.path)
        self.send_all(link, cmd.forceload(self.geom))
        self.wait_loaded(link)
        self.send_all(link, self.feedback.objectives())
        self.send_all(link, self.ingame.triggers())
        if saved is None:
            self.state = self.new_state(self.new_puzzle(1))
            self.build(link, progress)
            self.save()
            return Repairs(rebuilt=True)
        self._check_placement(saved)
        self.state = saved
        if self.build_pending():  # stopped half-way through: finish the same build
            self.build(link, progress)
            self.save()
            return Repairs(rebuilt=True, notes=["an interrupted build was finished"])
        if saved.solved_at is not None:
            self.next_puzzle_at = self.clock.time()
        return self.reconcile(link, progress)

    def _check_placement(self, saved: PaintState) -> None:
        remove_first = f"; run `pipesctl remove --world {self.name}` with the old settings first"
        g = self.geom
        was = (
            saved.puzzle.width, saved.puzzle.height, saved.origin or g.origin,
            saved.dimension or g.dimension, saved.orientation or g.orientation,
            saved.target_side or g.target,
        )  # fmt: skip
        now = (g.width, g.height, g.origin, g.dimension, g.orientation, g.target)
        if was != now:
            raise RoomError(
                f"room {self.name}: it was built as {was[0]}x{was[1]} at {list(was[2])} in "
                f"{was[3]} ({was[4]}, target {was[5]}) but the config says {now[0]}x{now[1]} at "
                f"{list(now[2])} in {now[3]} ({now[4]}, target {now[5]})" + remove_first
            )

    def summon(self, brush: Brush, *, release: Release) -> str:
        """The command that summons a brush frame as the format prescribes, in the forms of the
        server's `release`."""
        return cmd.summon_brush(
            self.geom, brush.i, brush.j,
            uid=self.uuids[(brush.i, brush.j)], map_id=self.brush_map(brush), release=release,
            kind=self.frame_kind, invisible=self.cfg.invisible_frames,
        )  # fmt: skip

    def settle(self, brush: Brush, seen: int) -> str:
        """Turn a brush frame back to rotation 0 if it still shows ItemRotation `seen`."""
        return cmd.settle_brush(
            self.uuids[(brush.i, brush.j)], seen, room=self.name, map_id=self.brush_map(brush)
        )

    def expected_plane(self) -> tuple[int, int, list[list[str]]]:
        """The plane's blocks as rows (`rows[j][i]`) and the plane position of `rows[0][0]`."""
        i0, j0, i1, j1 = self.geom.plane_extent()
        rows = [[BORDER_BLOCK] * (i1 - i0 + 1) for _ in range(j1 - j0 + 1)]
        canvas, target = self.canvas, self.puzzle.target
        offset = self.geom.target_offset
        for i, j in self.geom.cells():
            rows[j - j0][i - i0] = self.block(canvas[i, j])
            if offset is not None:
                rows[j + offset[1] - j0][i + offset[0] - i0] = self.block(target[i, j])
        return i0, j0, rows

    def plane_commands(self) -> list[str]:
        """Idempotent fills writing the canvas, the target copy and the border."""
        i0, j0, rows = self.expected_plane()
        return cmd.plane_fills(self.geom, rows, i0, j0)

    def build(self, link: Link, progress: Progress | None = None) -> None:
        """Build the whole room from scratch for the current state."""
        commands = [
            *cmd.fill_box(*self.geom.front_box(), "minecraft:air"),
            *self.plane_commands(),
            cmd.kill_room(self.geom, self.frame_kind),
            *(self.summon(b, release=link.release) for b in self.brushes),
        ]
        self.send_build(link, commands, progress)
        self.verify_frames(link)
        self.current_state.world_format = PAINT_WORLD_FORMAT
        self.notify()

    def verify_frames(self, link: Link) -> None:
        """Count the frames: a plugin may cancel a summon that still reports success (Paper)."""
        n = parse_count(self.send(link, cmd.count_frames(self.geom, self.frame_kind)))
        if n != len(self.brushes):
            raise RoomError(
                f"room {self.name}: {n} of {len(self.brushes)} brush frames exist after "
                "building; a plugin may be cancelling entity spawns in this area"
            )

    # -- playing --------------------------------------------------------------------------
    def settled(self, i: int, j: int) -> int | None:
        """A brush frame rests at ItemRotation 0; None where no brush hangs."""
        return 0 if (i, j) in self.by_pos else None

    def handle_turn(self, link: Link, i: int, j: int, value: int) -> bool:
        """The brush frame at plane (i, j) shows ItemRotation `value`; anything but 0 is a
        click: paint its line (once however often it was clicked) and settle the frame."""
        brush = self.by_pos.get((i, j))
        if brush is None or value % 8 == 0:
            return False
        state = self.current_state
        if state.solved_at is None:
            self.stroke(link, brush)
        uid = self.uuids[(i, j)]
        for _ in range(8):  # the player may keep clicking while we write
            if merge_applied(self.send(link, self.settle(brush, value))):
                break
            values = parse_frame_values(self.send(link, cmd.read_rotation(uid)))
            if not values or values[0].value % 8 == 0:
                break  # gone (the audit repairs it) or already settled
            value = values[0].value  # more clicks of the same brush paint nothing new
        return True

    def painted(self, brush: Brush) -> Canvas:
        """The canvas after pulling a brush."""
        if brush.axis == "clear":
            return self.puzzle.blank()
        return self.canvas.apply(Stroke(brush.axis, brush.number))

    def line_fill(self, brush: Brush) -> list[str]:
        """The one fill that paints a brush's line (the whole canvas for clear)."""
        w, h = self.geom.width, self.geom.height
        if brush.axis == "row":
            lo, hi = self.geom.plane_box(0, brush.number, w - 1, brush.number)
            return cmd.fill_box(lo, hi, self.block(1))
        if brush.axis == "col":
            lo, hi = self.geom.plane_box(brush.number, 0, brush.number, h - 1)
        else:
            lo, hi = self.geom.plane_box(0, 0, w - 1, h - 1)
        return cmd.fill_box(lo, hi, self.block(0))

    def stroke(self, link: Link, brush: Brush, *, write: bool = True) -> bool:
        """Apply a brush to the canvas; False (and nothing written) when it changes nothing.
        A clear starts a new attempt: the stroke count goes back to 0."""
        state = self.current_state
        after = self.painted(brush)
        if after == state.canvas:
            return False
        state.canvas = after
        if brush.axis == "clear":
            state.moves = 0
            state.clears += 1
        else:
            state.moves += 1
        if write:
            self.send_all(link, self.line_fill(brush))
            self.send_all(link, self.feedback.turn_sounds((brush.i, brush.j), []))
        self.save()
        self.notify()
        if write and self.puzzle.is_done(after):
            self.win(link)
        return True

    # -- winning and the next puzzle ------------------------------------------------------
    def win(self, link: Link) -> None:
        """Record the win (the room's time, each player's near the room, the records store's
        solves), tell the players (strokes against par), run `on_win.command`, schedule the
        next puzzle."""
        state = self.current_state
        now = self.clock.time()
        seconds, best = record_win(state, self.puzzle.seed, now)
        solvers = self.ingame.solvers(link)
        names = [name for _, name in solvers]
        self.queue_records(solvers, seconds, now)
        scores = self.ingame.record(solvers, seconds)
        self.save()
        par = self.puzzle.par
        self.send_all(
            link,
            [
                *self.feedback.celebration(
                    seconds, state.moves, best,
                    message=self.paint.message,
                    subtitle=f"{duration(seconds)} · {state.moves} strokes (par {par})",
                    fields={"strokes": state.moves, "par": par},
                ),
                *scores,
                *self.ingame.win_commands(names, seconds, state.moves),
            ],
        )  # fmt: skip
        self.next_puzzle_at = now + self.cfg.on_win.next_puzzle_after_s
        log.info(
            "room %s: painted in %s with %d strokes (par %d)",
            self.name, duration(seconds), state.moves, par,
        )  # fmt: skip
        self.notify()

    def queue_records(
        self, solvers: list[tuple[uuid.UUID, str]], seconds: float, now: float
    ) -> None:
        """Hand the win's solves to the records store's outbox (durable on disk, written to the
        store in the background), as a pipes room does."""
        if self.records is None or not solvers:
            return
        try:
            self.records.record(self.ingame.solve_records(solvers, seconds, now))
        except OSError as exc:  # the state file still counts the solve
            log.error(
                "room %s: the solve could not be queued for the records store (%s)",
                self.name, exc.strerror or exc,
            )  # fmt: skip

    def next_puzzle(self, link: Link, puzzle: PaintPuzzle | None = None) -> None:
        """Replace the puzzle in place: a blank canvas and the new target, only changed blocks
        rewritten (idempotent fills)."""
        self.ingame.clear(link)
        number = self.current_state.puzzle_number + 1
        self.state = self.new_state(puzzle or self.new_puzzle(number), number)
        self.next_puzzle_at = None
        self.audit_blocks(link)
        self.save()
        self.notify()

    def reset(self, link: Link, seed: int | None = None) -> None:
        """A new puzzle now (admin command)."""
        number = self.current_state.puzzle_number + 1
        self.next_puzzle(link, None if seed is None else self.new_puzzle(number, seed))

    def hint(self, link: Link) -> HintGiven:
        """Tell the players near the room which brush to pull next (the first stroke of a
        shortest completion from the canvas as it is)."""
        stroke = hint(self.puzzle.target, self.canvas)
        if stroke is None:
            return HintGiven()
        brush = self.by_stroke(stroke)
        x, y, z = self.geom.frame_pos(brush.i, brush.j)
        left = self.remaining()
        # Counted first: a fenced tellraw answers "" both when it reached players and when it
        # found none (docs/server-behaviour.md, "Errors while running": a forked chain is silent).
        heard = parse_count(self.send(link, cmd.count_entities(self.feedback.near))) > 0
        self.send_all(
            link,
            [
                cmd.tellraw(
                    self.feedback.near,
                    f"Hint: pull the glowing brush of {brush.describe()} "
                    f"({left} stroke(s) left at best)",
                ),
                cmd.particle(
                    "minecraft:happy_villager", (x + 0.5, y + 0.5, z + 0.5), (0.3, 0.3, 0.3), 0, 20
                ),
            ],
        )
        return HintGiven((brush.i, brush.j), 0, 1, heard, (stroke.axis, stroke.number))

    def by_stroke(self, stroke: Stroke) -> Brush:
        """The brush that paints `stroke`."""
        return next(b for b in self.brushes if (b.axis, b.number) == tuple(stroke))

    def hint_brush(self) -> Brush | None:
        """The brush of the engine's hint from the canvas as it is; None when it is done."""
        stroke = hint(self.puzzle.target, self.canvas)
        return None if stroke is None else self.by_stroke(stroke)

    def remaining(self) -> int:
        """The fewest strokes that finish the canvas."""
        from controller.puzzle.paint import remaining

        left = remaining(self.puzzle.target, self.canvas)
        return 0 if left is None else left

    # -- reading back and repairing -------------------------------------------------------
    def count_frames(self, link: Link) -> int:
        """The room's brush frames; a zero is read twice more before it is believed (another
        RCON connection on vanilla can wipe a reply: docs/server-behaviour.md, "Shared output
        buffer")."""
        for _ in range(3):
            count = parse_count(self.send(link, cmd.count_frames(self.geom, self.frame_kind)))
            if count:
                return count
            self.clock.sleep(0.05)
        return 0

    def read_values(self, link: Link, command: str, *, byte: bool) -> dict[tuple[int, int], int]:
        """The values named in one reply, by brush position (other rooms' frames ignored)."""
        out: dict[tuple[int, int], int] = {}
        for fv in parse_frame_values(self.send(link, command), byte=byte):
            if fv.room == self.name and (fv.i, fv.j) in self.by_pos:
                out[(fv.i, fv.j)] = fv.value
        return out

    def read_all(self, link: Link, command: str, byte: bool) -> dict[tuple[int, int], int]:
        """Read every brush's value; a short reply (wiped by another connection) is re-read."""
        best: dict[tuple[int, int], int] = {}
        for _ in range(3):
            values = self.read_values(link, command, byte=byte)
            if len(values) > len(best):
                best = values
            if len(best) >= len(self.brushes):
                break
        return best

    def reconcile(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Read the room back: brushes clicked meanwhile are strokes (adopted in the order
        clear, rows, columns: the server keeps no order), missing or wrong frames are fixed,
        the canvas, target and border are rewritten where they differ."""
        rep = Repairs()
        count = self.count_frames(link)
        if count == 0:
            rep.rebuilt = True
            rep.notes.append("no frames found: rebuilt the room")
            self.build(link, progress)
            self.save()
            return rep
        if count > len(self.brushes):
            rep.notes.append(f"{count - len(self.brushes)} foreign frames removed")
            self.send(link, cmd.kill_room(self.geom, self.frame_kind))
        rotations = self.read_all(link, cmd.read_rotations(self.geom, self.frame_kind), True)
        maps = self.read_all(link, cmd.read_map_ids(self.geom, self.frame_kind), False)
        state = self.current_state
        order = {"clear": 0, "row": 1, "col": 2}
        for brush in sorted(self.brushes, key=lambda b: (order[b.axis], b.number)):
            value = rotations.get((brush.i, brush.j), 0)
            if value % 8 and state.solved_at is None and self.stroke(link, brush, write=False):
                rep.adopted_moves += 1
        fixes: list[str] = []
        for brush in self.brushes:
            key = (brush.i, brush.j)
            if key not in rotations:
                fixes.append(self.summon(brush, release=link.release))
                rep.frames_summoned += 1
            elif rotations[key] != 0 or maps.get(key) != self.brush_map(brush):
                fixes.append(self.settle(brush, rotations[key]))
                rep.frames_fixed += 1
        self.send_all(link, fixes)
        tagged = cmd.count_rotation_tag(self.geom, self.frame_kind, 0)
        if parse_count(self.send(link, tagged)) != len(self.brushes):
            rep.notes.append("rotation tags rewritten")
            seen = [(b, rotations.get((b.i, b.j), 0)) for b in self.brushes]
            self.send_all(link, [self.settle(b, value) for b, value in seen])
        rep.blocks_fixed = self.audit_blocks(link, progress)
        state.world_format = PAINT_WORLD_FORMAT
        self.last_audit = self.clock.time()
        self.save()
        if rep.total:
            log.info("room %s: reconciled: %s", self.name, rep.describe())
        if self.puzzle.is_done(state.canvas) and state.solved_at is None:
            self.win(link)
        self.notify()
        return rep

    def audit_blocks(self, link: Link, progress: Progress | None = None) -> int:
        """Rewrite the air in front, the canvas, target and border with idempotent fills;
        returns how many blocks were wrong."""
        commands = [*cmd.fill_box(*self.geom.front_box(), "minecraft:air"), *self.plane_commands()]
        return sum(fill_changed(r) for r in self.send_all(link, commands, progress))

    def read_canvas(self, link: Link) -> CanvasRead:
        """The canvas as the world shows it (see `read_cells`)."""
        return CanvasRead(self.read_cells(link, self.geom.cell_pos, self.canvas))

    def read_cells(
        self, link: Link, where: Callable[[int, int], Pos], expected: Canvas
    ) -> tuple[int, ...]:
        """A picture of W x H cells at `where(i, j)` as the world shows it: runs of cells tested
        against `expected` in one command each, the cells of a failing run one by one (a cell
        that shows neither block reads as colour 0)."""
        geom = self.geom
        rows = []
        for j in range(geom.height):
            mask = expected.rows[j]
            for start in range(0, geom.width, CHECK_CHUNK):
                run = range(start, min(geom.width, start + CHECK_CHUNK))
                cells = [(where(i, j), self.block(expected[i, j])) for i in run]
                if self._passed(link, cells):
                    continue
                for i in run:
                    one = [(where(i, j), self.block(1))]
                    mask = mask | (1 << i) if self._passed(link, one) else mask & ~(1 << i)
            rows.append(mask)
        return tuple(rows)

    def _passed(self, link: Link, cells: list[tuple[Pos, str]]) -> bool:
        return self.send(link, cmd.blocks_are(cells)).startswith("Test passed")

    def handle_request(self, link: Link, request: Request) -> Response | None:
        """Carry out an admin request left by `pipesctl reset|repair|hint|show`."""
        log.info("room %s: request %s", self.name, type(request).__name__)
        if isinstance(request, ResetRequest):
            self.reset(link, request.seed)
            return ResetDone(self.current_state.puzzle_number)
        if isinstance(request, RepairRequest):
            return RepairDone(self.reconcile(link))
        if isinstance(request, HintRequest):
            return self.hint(link)
        if isinstance(request, ShowRequest):
            return self.read_canvas(link)
        return None

    def periodic(self, link: Link, players_near: bool = True) -> None:
        """Timers: the next puzzle after a win, the stroke count in the action bar, in-game
        reset requests, the audit."""
        now = self.clock.time()
        if self.state is not None:
            self.ingame.periodic(link, now, players_near)
        if self.next_puzzle_at is not None and now >= self.next_puzzle_at:
            self.next_puzzle(link)
        if self.cfg.seed == "daily" and now - self.last_daily_check >= 60.0:
            self.last_daily_check = now
            self.check_daily(link)
        if players_near and now - self.last_actionbar >= 2.0 and self.state is not None:
            self.last_actionbar = now
            text = f"Strokes: {self.state.moves} · par {self.puzzle.par}"
            self.send(link, cmd.title(self.feedback.near, "actionbar", text))
        if players_near and self.cfg.reset_by and now - self.last_reset_check >= 1.0:
            self.last_reset_check = now
            self.check_reset_requests(link)
        if self.cfg.audit_interval_s and now - self.last_audit >= self.cfg.audit_interval_s:
            self.reconcile(link)

    def check_daily(self, link: Link) -> bool:
        """A daily room switches to the new date's puzzle (and clears the daily leaderboard)
        when the UTC date has changed; returns whether it did."""
        if self.state is None or self.puzzle.seed == self.daily_seed():
            return False
        log.info("room %s: a new day: the daily paint puzzle changes", self.name)
        self.send(link, cmd.score_reset("*", DAILY))
        self.next_puzzle(link)
        return True

    def check_reset_requests(self, link: Link) -> bool:
        """Players listed in `reset_by` ask for a new puzzle with `/trigger pipes_reset`."""
        asker = self.feedback.reset_asker(lambda command: self.send(link, command))
        if asker is None:
            return False
        log.info("room %s: %s asked for a new puzzle", self.name, asker)
        self.next_puzzle(link)
        self.send(link, self.feedback.reset_announcement(asker))
        return True

    def remove(self, link: Link) -> Path | None:
        """Clear the room's frames and blocks, release its chunks, archive its state."""
        self.send_all(
            link,
            [
                cmd.kill_room(self.geom, self.frame_kind),
                *cmd.fill_box(*self.geom.bounds(), "minecraft:air"),
                *cmd.forceload(self.geom, add=False),
            ],
        )
        return archive_state(self.state_dir, self.name)
