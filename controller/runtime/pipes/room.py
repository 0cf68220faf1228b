"""The pipes room: its lifecycle (build, resume, next puzzle, remove) and its play.

Reading the room back and repairing it lives in `reconciler.py`; what players see and hear in
`feedback.py`. World I/O goes through a `Link`; every command comes from
`controller.world.commands` and every reply is read with `controller.world.replies`. The
engine (`controller.puzzle`) decides.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.config import WorldConfig
from controller.errors import RconUnavailable, RoomError
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import HOLE, Board, Direction, TileClass
from controller.puzzle.play import Change, PlayState, TileChange
from controller.records.writer import RoomRecords
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.daily import daily_seed, utc_date
from controller.runtime.feedback import DAILY, Feedback, duration
from controller.runtime.ingame import UNDO_NOTHING, InGame
from controller.runtime.link import Link
from controller.runtime.pipes.guard import RoomGuard
from controller.runtime.pipes.mode import picture_ids, rules_for
from controller.runtime.pipes.reconciler import PipesReconciler
from controller.runtime.pipes.undo import Kind, TurnHistory, undone_rotation
from controller.runtime.placed import PlacedRoom, ignore_repairs
from controller.runtime.repairs import Repairs
from controller.runtime.requests import (
    HintGiven,
    HintRequest,
    RepairDone,
    RepairRequest,
    Request,
    ResetDone,
    ResetRequest,
    Response,
    Rotations,
    ShowRequest,
)
from controller.runtime.room import Progress, Room, RoomStatus
from controller.runtime.rounds import record_win
from controller.runtime.state import RoomState, archive_state, state_path
from controller.versions import Release
from controller.world import commands as cmd
from controller.world import turns
from controller.world.datapack import LOCKED_MESSAGE
from controller.world.geometry import (
    EDGE_OFF,
    EDGE_ON,
    Pos,
    frame_uuid,
    preload_uuid,
    shadow_of,
    state_block,
)
from controller.world.geometry import Room as Geometry
from controller.world.pipes import blockcheck
from controller.world.replies import (
    merge_applied,
    parse_count,
    parse_entity_uuids,
    parse_frame_values,
)

# picture_ids: from mode.py, kept importable here
__all__ = [
    "ACTION_BAR_EVERY_S",
    "AUDIT_IDLE_SLICE_S",
    "AUDIT_IDLE_STRETCH",
    "AUDIT_SLICE_TILES",
    "PipesRoom",
    "picture_ids",
]

log = logging.getLogger("controller.runtime")

# The rolling audit reads at most this many frames in one step (two commands).
AUDIT_SLICE_TILES = 256
# With nobody near, no click can turn a frame, so the rolling audit's round takes this many times
# `audit_interval_s`, and its slices come at most every AUDIT_IDLE_SLICE_S (docs/reliability.md,
# "Rolling audit"): its share of the idle budget does not grow with the board.
AUDIT_IDLE_STRETCH = 4
AUDIT_IDLE_SLICE_S = 30.0


ACTION_BAR_EVERY_S = 1.0  # the action bar's clock ticks once a second with players near


class PipesRoom(PlacedRoom):
    """One pipes room on one server."""

    kind = "pipes"
    geom: Geometry

    def __init__(
        self, name: str, cfg: WorldConfig, state_dir: Path, *, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.name = name
        self.cfg = cfg
        self.clock = clock
        self.geom = Geometry(
            name, cfg.origin, cfg.width, cfg.height, cfg.dimension, cfg.clear_above
        )
        self.frame_kind = cfg.frame
        self.path = state_path(state_dir, name)
        self.state_dir = state_dir
        self.uuids = [frame_uuid(name, i, j) for i, j in self.geom.tiles()]
        self.rules = rules_for(cfg.mode, self.geom, cfg.map_id_base)
        self.pictures = picture_ids(cfg.map_id_base, cfg.mode, cfg.crosses > 0)
        self.feedback = Feedback(name, self.geom, cfg)
        self.reconciler = PipesReconciler(self)
        self.ingame = InGame(self)
        self.records: RoomRecords | None = None  # the records store, when the daemon has one
        self.last_daily_check = -60.0
        self.state: RoomState | None = None
        self.play: PlayState | None = None
        self.shown_class: list[int] = []
        self.shown_parent: list[int] = []
        self.shown_closed: list[bool] = []
        self.shown_axes: list[int] = []  # a cross's wet axes as its picture shows them
        self.next_puzzle_at: float | None = None
        self.last_audit = clock.time()
        self.audit_row = 0  # the first row of the rolling audit's next slice
        self.last_actionbar = 0.0
        self.last_reset_check = 0.0
        self.listeners: list[Callable[[Room], None]] = []
        self.on_repairs: Callable[[Repairs], None] = ignore_repairs
        self.guard = RoomGuard(self)
        # whether the server's data pack speaks the gesture protocol (set by the daemon's turn
        # detection): a frame four steps on is a lock, seven steps on a quarter back
        self.gestures = False
        # whether the server's data pack notes who clicked each frame (set likewise): undo
        self.clickers = False
        self.history = TurnHistory()  # the recent turns `/trigger pipes_undo` takes back

    # -- sending --------------------------------------------------------------------------
    # -- the puzzle -----------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The current puzzle."""
        if self.state is None:
            raise RoomError(f"room {self.name} has no puzzle yet")
        return self.state.board

    @property
    def play_state(self) -> PlayState:
        """Water flow of the current puzzle."""
        if self.play is None:
            raise RoomError(f"room {self.name} has no puzzle yet")
        return self.play

    @property
    def frame_count(self) -> int:
        """How many tile frames the room has: one per tile but the holes."""
        return self.board.size - self.board.shapes.count(HOLE)

    def map_id(self, idx: int, cls: int | None = None, axes: int | None = None) -> int:
        """The picture of tile `idx` (in its current class and, on a cross, with its current
        wet axes unless `cls` or `axes` are given)."""
        play = self.play_state
        c = play.classes[idx] if cls is None else cls
        a = (play.axes[idx] if play.axes else 0) if axes is None else axes
        return self.rules.map_id(self.board, idx, c, a)

    def notify(self) -> None:
        """Tell the listeners (the live view) that something changed."""
        for listener in self.listeners:
            listener(self)

    def new_board(self, number: int, seed: int | None = None) -> Board:
        """The puzzle for a given puzzle number (seeded from the config when it has a seed)."""
        if seed is None:
            if self.cfg.seed == "daily":
                seed = self.daily_seed()
            elif self.cfg.seed is not None:
                seed = self.cfg.seed + number - 1
            else:
                seed = random.randrange(2**31)
        board = generate(
            self.cfg.width,
            self.cfg.height,
            seed=seed,
            params=GeneratorParams(
                generator=self.cfg.generator,
                branching=self.cfg.branching,
                coverage=self.cfg.coverage,
                unique=self.cfg.unique,
                difficulty=self.cfg.difficulty,
                mode=self.cfg.mode,
                crosses=self.cfg.crosses,
                holes=self.cfg.holes,
            ),
        )
        par = self.rules.par(board)
        if par is not None:
            board.meta["par"] = par  # the fewest clicks from the start, told at the win
        return board

    def daily_seed(self) -> int:
        """The seed of today's daily puzzle (UTC, on the room's clock; docs/in-game.md)."""
        return daily_seed(utc_date(self.clock.time()), self.cfg.width, self.cfg.height)

    def save(self) -> None:
        """Write the state file atomically."""
        if self.state is not None:
            self.state.save(self.path)

    def state_from_world(self, link: Link, salvaged: dict[str, Any]) -> RoomState:
        """`repair --from-world`: the state the tile frames describe (`recover.py`)."""
        from controller.runtime.pipes.recover import state_from_world

        return state_from_world(self, link, salvaged)

    def status(self) -> RoomStatus | None:
        """Progress of the current puzzle."""
        if self.state is None or self.play is None:
            return None
        return RoomStatus(
            puzzle=self.state.puzzle_number,
            progress=self.play.wet_count,
            total=self.board.size,
            moves=self.state.moves,
            started_at=self.state.started_at,
            solved=self.rules.solved(self.board, self.play),
            solved_at=self.state.solved_at,
            route=self.rules.progress(self.board, self.play),
        )

    def adopt_state(self, state: RoomState) -> None:
        """Make `state` the room's puzzle (the world is written separately)."""
        state.origin, state.dimension = self.geom.origin, self.geom.dimension
        self.state = state
        self.play = PlayState(state.board)
        self.history.clear()
        self.mark_shown()

    def mark_shown(self) -> None:
        """Record that the world now shows the engine's classes, parents and closed tiles."""
        play = self.play_state
        self.shown_class = list(play.classes)
        self.shown_parent = list(play.parents)
        self.shown_closed = list(play.closed)
        self.shown_axes = list(play.axes) if play.axes else [0] * self.board.size

    # -- lifecycle ------------------------------------------------------------------------
    def load(self) -> bool:
        """Adopt the saved state without touching the world; False when there is none."""
        saved = RoomState.load(self.path)
        if saved is None:
            return False
        self.adopt_state(saved)
        return True

    def start(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Build the room, or reconcile it with its saved state; then it is ready to play."""
        saved = RoomState.load(self.path)
        self.send_all(link, cmd.forceload(self.geom))
        self.wait_loaded(link)
        self.send_all(link, self.feedback.objectives())
        self.send_all(link, self.ingame.triggers())
        if saved is None:
            self.adopt_state(
                RoomState(
                    self.name,
                    self.new_board(1),
                    started_at=self.clock.time(),
                    world_format=self.rules.world_format,
                )
            )
            self.build(link, progress)
            self.save()
            self.guard.checked()
            return Repairs(rebuilt=True)
        self._check_placement(saved)
        self.adopt_state(saved)
        if self.build_pending():  # stopped half-way through: finish the same build
            self.build(link, progress)
            self.save()
            self.guard.checked()
            return Repairs(rebuilt=True, notes=["an interrupted build was finished"])
        was_solved = saved.solved_at is not None
        repairs = self.reconcile(link, progress)
        self.guard.checked()
        if was_solved:
            self.pay_win(link)  # a win recorded before a crash is paid now, exactly once
            self.next_puzzle_at = self.clock.time()
        return repairs

    def _check_placement(self, saved: RoomState) -> None:
        where = (saved.origin or self.geom.origin, saved.dimension or self.geom.dimension)
        remove_first = f"; run `pipesctl remove --world {self.name}` with the old settings first"
        if saved.board.mode != self.cfg.mode:
            raise RoomError(
                f"room {self.name}: the saved puzzle is a {saved.board.mode} puzzle but the "
                f"config says mode: {self.cfg.mode}" + remove_first
            )
        if saved.board.width != self.cfg.width or saved.board.height != self.cfg.height:
            raise RoomError(
                f"room {self.name}: the saved puzzle is {saved.board.width}x{saved.board.height} "
                f"but the config says {self.cfg.width}x{self.cfg.height}" + remove_first
            )
        if where != (self.geom.origin, self.geom.dimension):
            raise RoomError(
                f"room {self.name}: it was built at {list(where[0])} in {where[1]} but the config "
                f"says {list(self.geom.origin)} in {self.geom.dimension}" + remove_first
            )

    def summon(self, idx: int, *, release: Release, arms: int = 0) -> str:
        """The command that summons tile `idx`'s frame as the world format prescribes, in the
        forms of the server's `release`."""
        board = self.board
        i, j = idx % board.width, idx // board.width
        return cmd.summon_frame(
            self.geom, i, j,
            uid=self.uuids[idx],
            rotation=board.rotations[idx],
            map_id=self.map_id(idx),
            source=idx == board.source_index,
            release=release,
            kind=self.frame_kind,
            invisible=self.cfg.invisible_frames,
            arms=arms,
            fixed=bool(self.rules.fixed(board, idx)),
            locked=self.locked(idx),
        )  # fmt: skip

    def build(self, link: Link, progress: Progress | None = None) -> None:
        """Build the whole room from scratch for the current puzzle."""
        board, play, kind = self.board, self.play_state, self.frame_kind
        commands: list[str] = [
            *cmd.air_fills(self.geom),
            *cmd.border_fills(self.geom),
            *cmd.base_fills(self.geom),
            cmd.kill_room(self.geom, kind),
        ]
        release = link.release
        commands += [
            self.summon(idx, release=release, arms=board.mask(idx))
            for idx in range(board.size)
            if board.shapes[idx] != HOLE  # a hole has no frame
        ]
        commands += self.preload_commands(release)
        commands += cmd.derive_edge_layers(self.geom, kind)
        commands += cmd.clear_arm_tags(self.geom, kind)
        # the base fills left the state layer melon (dry): write the other tiles' blocks, equal
        # neighbours (a pair of closed ends, say) in one fill
        at = self.reconciler.block_at
        state_rows = [[at(0, i, j) for i in range(board.width)] for j in range(board.height)]
        commands += cmd.overlay_fills(
            self.geom.y0 - 1, self.geom.x0, self.geom.z0, state_rows, state_block(TileClass.DRY, -1)
        )
        commands += self.rules.block_commands(board, play.classes)
        commands += blockcheck.copies(self.geom)
        self.send_build(link, commands, progress)
        self.verify_frames(link)
        self.current_state.world_format = self.rules.world_format
        self.mark_shown()
        self.last_audit = self.clock.time()  # every frame was just written: the audit waits
        self.notify()

    def preload_commands(self, release: Release) -> list[str]:
        """Summon the hidden frames that hold every picture (so clients have them all), in the
        forms of the server's `release`."""
        return [
            cmd.summon_preload(
                self.geom,
                k,
                uid=preload_uuid(self.name, k),
                map_id=mid,
                kind=self.frame_kind,
                release=release,
            )  # fmt: skip
            for k, mid in enumerate(self.pictures)
        ]

    def verify_frames(self, link: Link) -> None:
        """Count the frames: a plugin may cancel a summon that still reports success (Paper)."""
        n = parse_count(self.send(link, cmd.count_frames(self.geom, self.frame_kind)))
        if n != self.frame_count:
            raise RoomError(
                f"room {self.name}: {n} of {self.frame_count} frames exist after building; "
                "a plugin may be cancelling entity spawns in this area"
            )

    def reconcile(
        self, link: Link, progress: Progress | None = None, *, every_block: bool = False
    ) -> Repairs:
        """Read the room back and repair it (see `PipesReconciler`; `every_block`: rewrite
        every block whatever the compare says); a board found solved meanwhile is won."""
        repairs = self.reconciler.reconcile(link, progress, every_block=every_block)
        if (
            self.rules.solved(self.board, self.play_state)
            and self.state is not None
            and self.state.solved_at is None
        ):
            self.win(link)
        return repairs

    def settle(self, idx: int, seen: int, cls: int | None = None) -> str:
        """Set a frame to its rotation, tags and picture (of class `cls`, default its own) if it
        still shows ItemRotation `seen`."""
        board = self.board
        return cmd.turn_frame(
            self.uuids[idx],
            seen,
            room=self.name,
            rotation=board.rotations[idx],
            source=idx == board.source_index,
            map_id=self.map_id(idx, cls),
            fixed=self.rules.fixed(board, idx),
            locked=self.locked(idx),
        )

    def locked(self, idx: int) -> bool:
        """Whether a player locked tile `idx` in this puzzle (docs/in-game.md, "Locking a
        tile")."""
        return self.state is not None and idx in self.state.locks

    # -- playing --------------------------------------------------------------------------
    @property
    def par(self) -> int | None:
        """The puzzle's par (the fewest clicks from its start) when the room knows it exactly."""
        par = self.board.meta.get("par")
        return par if isinstance(par, int) else None

    def settled(self, i: int, j: int) -> int | None:
        """Tile (i, j)'s settled rotation (0..3); None outside the board or before a puzzle."""
        if self.state is None:
            return None
        board = self.board
        if not (0 <= i < board.width and 0 <= j < board.height):
            return None
        return board.rotations[j * board.width + i]

    def handle_turn(self, link: Link, i: int, j: int, value: int) -> bool:
        """A frame shows ItemRotation `value`; unless that is its settled rotation a player
        turned it: apply the turn. Returns whether it was a turn."""
        board = self.board
        rest = self.settled(i, j)
        if rest is None or value == rest:
            return False  # settled: nothing turned
        idx = j * board.width + i
        if board.shapes[idx] == HOLE:
            return False  # a stray frame on a hole: the guard removes it
        if idx in board.fixed:
            # A fixed frame (a sink room's source or sink) turned anyway, by a command or a
            # creative player: turn it back, no move.
            self.send(link, self.settle(idx, value))
            return True
        if self.state is not None and self.state.solved_at is not None:
            # The board is solved and waits for the next puzzle: turn the frame back (with the
            # picture the win waves left on it).
            self.send(link, self.settle(idx, value, self.shown_class[idx]))
            return True
        # The read named the frame; its UUID decides (docs/reliability.md, "Look-alike frames"):
        # `apply` writes the tile's frame by UUID only if it shows `value`, and counts the move
        # only then. Otherwise the frame is read by UUID: it moved on (the player kept clicking),
        # or it never turned and the value came from a foreign frame with the tile's name.
        # A sneaking click (with the gesture protocol's pack) left the frame four steps on: a
        # lock or an unlock; a locked tile's turn goes back (docs/in-game.md, "Locking a tile").
        for _ in range(8):
            if turns.is_lock(rest, value, self.gestures):
                done = self.toggle_lock(link, idx, value)
                if done:
                    self.history.record(idx, ["lock"])
            elif self.locked(idx):
                done = self.refuse_locked(link, idx, value)
            else:
                done = self.apply(link, idx, value % 4, seen=value)
            if done:
                return True
            read = self.read_own(link, i, j)
            if read is None:
                self.guard.suspect(missing=True)  # the tile's frame is gone: repair by UUID
                return True
            value = read
            if value == board.rotations[idx]:
                self.guard.suspect(missing=False)  # a look-alike: the guard counts at once
                return False
        return True

    def _kinds(self, rest: int, value: int) -> list[Kind]:
        """The turns a frame settled at `rest` showing `value` stands for, in click order."""
        steps = turns.clicks(rest, value)
        if self.gestures and steps == turns.ANTICLOCKWISE_STEPS:
            return ["ccw"]
        return ["cw"] * steps

    def toggle_lock(self, link: Link, idx: int, seen: int) -> bool:
        """A sneaking click left the frame four steps on: lock the tile, or unlock it. The frame
        goes back to its rotation with the lock's tag and the other `Invisible`, only if it
        still shows `seen`; a frame that moved on is read again by the next poll."""
        state, board = self.current_state, self.board
        lock = idx not in state.locks
        command = cmd.turn_frame(
            self.uuids[idx], seen, room=self.name, rotation=board.rotations[idx],
            source=idx == board.source_index, map_id=self.map_id(idx),
            fixed=self.rules.fixed(board, idx), locked=lock,
            invisible=self.cfg.invisible_frames != lock,
        )  # fmt: skip
        if not merge_applied(self.send(link, command)):
            return False
        if lock:
            state.locks.add(idx)
        else:
            state.locks.discard(idx)
        self.save()
        self.notify()
        return True

    def refuse_locked(self, link: Link, idx: int, seen: int) -> bool:
        """A locked tile's frame was turned (no pack turned it back: an older pack, scan mode):
        turn it back, no move, and tell the player nearest to it why (by UUID)."""
        self.send(link, self.settle(idx, seen))
        reach = self.cfg.poll_reach or 0.0
        found = parse_entity_uuids(
            self.send(link, cmd.nearest_player_uuid(self.uuids[idx], max(reach, 8.71) + 2))
        )
        if found:
            self.send_feedback(link, [cmd.tell_player(found[-1], LOCKED_MESSAGE)])
        return True

    def read_own(self, link: Link, i: int, j: int) -> int | None:
        """Tile (i, j)'s frame's ItemRotation, read by its UUID; None when it is gone. An empty
        or unreadable reply (another RCON connection can empty or replace one:
        docs/server-behaviour.md, "Shared output buffer") is asked twice more first."""
        command = cmd.read_rotation(self.uuids[j * self.board.width + i])
        for _ in range(3):
            for fv in parse_frame_values(self.send(link, command), byte=True):
                if (fv.room, fv.i, fv.j) == (self.name, i, j):
                    return fv.value
        return None

    def apply(
        self,
        link: Link,
        idx: int,
        rotation: int,
        *,
        seen: int = -1,
        write: bool = True,
        moves: int | None = None,
    ) -> bool:
        """Apply one turn to the engine and write back only what changed; False when the tile's
        frame (by UUID) does not show `seen` (it moved on since it was read, or the read came
        from a look-alike): then nothing was written, no move counted, the engine unchanged.

        Moves are clicks: a frame showing ItemRotation `seen` was clicked `clicks(before, seen)`
        times since it was settled at `before` (docs/in-game.md, "Moves are clicks"), unless
        `moves` says how many it is (an undo)."""
        state, board, play = self.current_state, self.board, self.play_state
        before = board.rotations[idx]
        moved = rotation != before
        change: Change | None = play.apply_rotation(idx, rotation) if moved else None
        if write:
            applied = merge_applied(
                self.send(
                    link,
                    cmd.turn_frame(
                        self.uuids[idx], seen, room=self.name, rotation=rotation,
                        source=idx == board.source_index, map_id=self.map_id(idx),
                        fixed=self.rules.fixed(board, idx), locked=self.locked(idx),
                    ),
                )
            )  # fmt: skip
            if not applied:
                # The tile's frame (by UUID) does not show what was read: no move. The engine
                # goes back, and nothing else was written.
                if change is not None:
                    play.apply_rotation(idx, before)
                return False
        if moves is None and seen >= 0:
            # a turn read from the world (a poll, the audit, a resume): undo can take it back
            self.history.record(idx, self._kinds(before, seen))
        if moves is None:
            moves = turns.gesture_moves(before, seen, self.gestures) if seen >= 0 else int(moved)
        state.moves += moves
        if write:
            wetted = self._newly_wet(change)
            if change is not None:
                self._write_change(link, change, turned=idx, turned_written=True)
            w = board.width
            self.send_all(link, self.feedback.turn_sounds((idx % w, idx // w), wetted))
        if change is not None:
            self.save()
            self.notify()
            if write and self.rules.solved(board, play):
                self.win(link)
        return True

    def _newly_wet(self, change: Change | None) -> list[tuple[int, int]]:
        """Tiles the water reaches with this change (dry in the world until now)."""
        if change is None:
            return []
        w = self.board.width
        return [
            (t.index % w, t.index // w)
            for t in change.tiles
            if t.cls != TileClass.DRY and self.shown_class[t.index] == TileClass.DRY
        ]

    def _write_change(
        self, link: Link, change: Change, *, turned: int, turned_written: bool
    ) -> None:
        w = self.board.width
        extra = self.rules.block_update(self.board, self.shown_class, change.tiles)
        for t in change.tiles:
            v = t.index
            i, j = v % w, v // w
            block = state_block(t.cls, t.parent, t.closed)
            shown = state_block(self.shown_class[v], self.shown_parent[v], self.shown_closed[v])
            if block != shown:
                self._set_layer_block(link, self.geom.state_pos(i, j), block)
            repaint = t.cls != self.shown_class[v] or t.axes != self.shown_axes[v]
            if repaint and (v != turned or not turned_written):
                self.send(link, cmd.set_map_id(self.uuids[v], self.map_id(v, t.cls, t.axes)))
            self.shown_class[v] = t.cls
            self.shown_axes[v] = t.axes
            self.shown_parent[v] = t.parent
            self.shown_closed[v] = t.closed
        for e in change.edges:
            i, j = e.index % w, e.index // w
            pos = (
                self.geom.east_pos(i, j)
                if e.direction == Direction.E
                else self.geom.south_pos(i, j)
            )
            self._set_layer_block(link, pos, EDGE_ON if e.connected else EDGE_OFF)
        self.send_all(link, extra)

    def _set_layer_block(self, link: Link, pos: Pos, block: str) -> None:
        """Set a block of the block map and its shadow copy (docs/world-format.md, "Shadow
        layers"): the guard's compare finds any block that differs between the two."""
        self.send(link, cmd.setblock(pos, block))
        self.send(link, cmd.setblock(shadow_of(pos), block))

    def attach_records(self, records: RoomRecords) -> None:
        """Record every solve in the records store too (before the room starts: a shared
        store changes the sidebar)."""
        self.records = records
        self.feedback.network = records.shared

    @property
    def current_state(self) -> RoomState:
        """The room's state (an error before the first build or resume)."""
        if self.state is None:
            raise RoomError(f"room {self.name} has no puzzle yet")
        return self.state

    # -- winning and the next puzzle ------------------------------------------------------
    def win(self, link: Link) -> None:
        """Record the win in the state first (the room's and each player's time), pay the
        solve scores exactly once, then start the win waves (the celebration and
        `on_win.command` follow the last one) and schedule the next puzzle."""
        state = self.current_state
        now = self.clock.time()
        seconds, best = record_win(state, self.board.seed, now)
        solvers = self.ingame.solvers(link)
        names = [name for _, name in solvers]
        self.queue_records(solvers, seconds, now)
        scores = self.ingame.record(solvers, seconds)
        state.win_phase = "recorded"
        self.save()
        self.pay_win(link)
        par = self.par
        subtitle = f"{duration(seconds)} · {state.moves} moves" + (
            "" if par is None else f" (par {par})"
        )
        try:
            ceremony = self.feedback.celebration(
                seconds, state.moves, best, scores=False, subtitle=subtitle
            )
        except Exception:  # noqa: BLE001 - feedback never ends the daemon
            log.exception("room %s: the win message could not be composed", self.name)
            ceremony = []
        celebration = [
            *ceremony,
            *scores,
            *self.ingame.win_commands(names, seconds, state.moves),
        ]
        done = self.ingame.schedule_waves(now, celebration)
        self.ingame.run_due(link, now)
        self.next_puzzle_at = done + self.cfg.on_win.next_puzzle_after_s
        log.info("room %s: solved in %s with %d moves", self.name, duration(seconds), state.moves)
        self.notify()

    def queue_records(
        self, solvers: list[tuple[uuid.UUID, str]], seconds: float, now: float
    ) -> None:
        """Hand the win's solves to the records store's outbox (durable on disk, written to the
        store in the background) before the state says the win is recorded: a crash between
        the two records the same win again, under the same solve ids, counted once."""
        if self.records is None or not solvers:
            return
        try:
            self.records.record(self.ingame.solve_records(solvers, seconds, now))
        except OSError as exc:  # the state file still counts the solve
            log.error(
                "room %s: the solve could not be queued for the records store (%s)",
                self.name, exc.strerror or exc,
            )  # fmt: skip

    def pay_win(self, link: Link) -> None:
        """Carry a recorded win's score steps on from where the state says they stopped; each
        step is idempotent in the world, so a crash between a step and its save repeats it
        harmlessly."""
        state = self.current_state
        if state.win_phase == "recorded":
            self.send(link, self.feedback.mark_winners())
            state.win_phase = "marked"
            self.save()
        if state.win_phase == "marked":
            self.send(link, self.feedback.pay_winners())
            if state.solves:
                best = min(s.seconds for s in state.solves)
                self.send(link, self.feedback.best_time(best))
            state.win_phase = "paid"
            self.save()

    def send_feedback(self, link: Link, commands: list[str]) -> list[str]:
        """Send what players see and hear; a failing command is logged and skipped (its reply
        is ""; a lost connection still propagates, so the daemon reconnects)."""
        replies = []
        for command in commands:
            try:
                replies.append(self.send(link, command))
            except RconUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001 - feedback never ends the daemon
                log.warning("room %s: feedback command skipped (%s)", self.name, exc)
                replies.append("")
        return replies

    def next_puzzle(self, link: Link, board: Board | None = None) -> None:
        """Replace the puzzle in place, writing only frames and blocks that differ."""
        state = self.current_state
        number = state.puzzle_number + 1
        self.ingame.clear(link)
        new = board if board is not None else self.new_board(number)
        old_rot = list(self.board.rotations)
        old_cls = list(self.shown_class)
        old_axes = list(self.shown_axes)
        old_shapes = list(self.board.shapes)
        old_source = self.board.source_index
        old_fixed = self.board.fixed
        old_locks = set(state.locks)
        fresh = RoomState(
            self.name, new, number, started_at=self.clock.time(), world_format=state.world_format
        )
        fresh.carry_over(state)
        self.adopt_state(fresh)
        self.next_puzzle_at = None
        play = self.play_state
        commands = []
        release = link.release
        for idx in range(new.size):
            hole, was_hole = new.shapes[idx] == HOLE, old_shapes[idx] == HOLE
            if hole or was_hole:  # a hole has no frame: remove it, or summon the tile's
                if hole and not was_hole:
                    commands.append(cmd.kill_frame(self.uuids[idx]))
                elif was_hole and not hole:
                    commands.append(self.summon(idx, release=release))
                continue
            same = (
                old_rot[idx] == new.rotations[idx]
                and old_shapes[idx] == new.shapes[idx]
                and old_cls[idx] == play.classes[idx]
                and old_axes[idx] == self.shown_axes[idx]
                and (idx == old_source) == (idx == new.source_index)
                and (idx in old_fixed) == (idx in new.fixed)
                and idx not in old_locks
            )
            if not same:
                # a new puzzle clears every lock: the frame loses the tag and shows the room's
                # `Invisible` again
                commands.append(
                    cmd.set_frame(
                        self.uuids[idx], room=self.name, rotation=new.rotations[idx],
                        source=idx == new.source_index, map_id=self.map_id(idx),
                        fixed=self.rules.fixed(new, idx),
                        invisible=self.cfg.invisible_frames if idx in old_locks else None,
                    )
                )  # fmt: skip
        self.send_all(link, commands)
        self.reconciler.audit_blocks(link)
        self.save()
        self.notify()

    def restart(self, link: Link) -> bool:
        """Start the current puzzle over: the rotations it was dealt, no lock, the clock and the
        moves from zero (docs/in-game.md, "Restart"); only the frames and blocks that differ
        are written. False when the state does not know how the puzzle was dealt."""
        state = self.current_state
        if state.start is None:
            return False
        self.ingame.clear(link)
        before, shown, parents = self.board, list(self.shown_class), list(self.shown_parent)
        shown_axes = list(self.shown_axes)
        dealt = replace(before, rotations=list(state.start), meta=dict(before.meta))
        fresh = RoomState(
            self.name, dealt, state.puzzle_number, started_at=self.clock.time(),
            world_format=state.world_format,
        )  # fmt: skip
        fresh.carry_over(state)
        self.adopt_state(fresh)
        play, w = self.play_state, dealt.width
        for idx in range(dealt.size):
            turned = before.rotations[idx] != dealt.rotations[idx]
            repaint = shown[idx] != play.classes[idx] or shown_axes[idx] != self.shown_axes[idx]
            if turned or repaint or idx in state.locks:
                self.send(
                    link,
                    cmd.set_frame(
                        self.uuids[idx], room=self.name, rotation=dealt.rotations[idx],
                        source=idx == dealt.source_index, map_id=self.map_id(idx),
                        fixed=self.rules.fixed(dealt, idx),
                        invisible=self.cfg.invisible_frames if idx in state.locks else None,
                    ),
                )  # fmt: skip
            i, j = idx % w, idx // w
            if (shown[idx], parents[idx]) != (play.classes[idx], play.parents[idx]):
                block = state_block(play.classes[idx], play.parents[idx])
                self._set_layer_block(link, self.geom.state_pos(i, j), block)
            for d, pos in (
                (Direction.E, self.geom.east_pos(i, j)),
                (Direction.S, self.geom.south_pos(i, j)),
            ):
                if before.connected(idx, d) != dealt.connected(idx, d):
                    self._set_layer_block(
                        link, pos, EDGE_ON if dealt.connected(idx, d) else EDGE_OFF
                    )
        changed = [
            TileChange(k, play.classes[k], play.parents[k], dealt.rotations[k])
            for k in range(dealt.size)
            if shown[k] != play.classes[k]
        ]
        self.send_all(link, self.rules.block_update(dealt, shown, changed))
        self.next_puzzle_at = None
        self.save()
        self.notify()
        return True

    def undo(self, link: Link, number: int) -> str:
        """Take back the newest turn left of the player the data pack numbered `number` (the
        frames it clicked last, read from the world); returns what to tell that player
        (docs/in-game.md, "Undo")."""
        reply = self.send(link, cmd.read_clicked_by(self.geom, self.frame_kind, number))
        board, w = self.board, self.board.width
        owned = {
            j * w + i: run
            for (name, i, j), run in turns.parse_frame_scores(reply).items()
            if name == self.name and 0 <= i < w and 0 <= j < board.height
        }
        turn = self.history.last_of(owned)
        if turn is None:
            return UNDO_NOTHING
        idx = turn.tile
        where = f"column {idx % w + 1}, row {idx // w + 1}"
        rotation = board.rotations[idx]
        if turn.kind == "lock":
            done = self.toggle_lock(link, idx, rotation)
        elif self.locked(idx):
            return f"The tile at {where} is locked: sneak and click it to unlock it first"
        else:
            back = undone_rotation(turn.kind, rotation)
            done = self.apply(link, idx, back, seen=rotation, moves=1)
        if not done:
            return f"The tile at {where} is turning right now: ask again in a moment"
        self.history.take(turn)
        what = "turn"
        if turn.kind == "lock":  # toggled back just now: unlocked means it was a lock
            what = "unlock" if idx in self.current_state.locks else "lock"
        return f"Undone: your {what} of the tile at {where}"

    def reset(self, link: Link, seed: int | None = None) -> None:
        """A new puzzle now (admin command)."""
        board = None if seed is None else self.new_board(self.current_state.puzzle_number + 1, seed)
        self.next_puzzle(link, board)

    def hint(self, link: Link) -> HintGiven:
        """Tell the players near the room one tile to turn."""
        found = self.rules.hint(self.board)
        if found is None:
            return HintGiven()
        idx, rotation = found
        i, j = idx % self.board.width, idx // self.board.width
        clicks = (rotation - self.board.rotations[idx]) % 4
        # Counted first: a fenced tellraw answers "" both when it reached players and when it
        # found none (docs/server-behaviour.md, "Errors while running": a forked chain is silent).
        heard = parse_count(self.send(link, cmd.count_entities(self.feedback.near))) > 0
        self.send_feedback(link, self.feedback.hint(i, j, clicks))
        return HintGiven((i, j), rotation, clicks, heard)

    def read_rotations(self, link: Link) -> dict[int, int]:
        """Every tile frame's ItemRotation as the server has it now, by tile index."""
        command = cmd.read_rotations(self.geom, self.frame_kind)
        return self.reconciler.read_values(link, command, byte=True)

    def handle_request(self, link: Link, request: Request) -> Response | None:
        """Carry out an admin request left by `pipesctl reset|repair|hint|show`."""
        log.info("room %s: admin request: %s", self.name, request)
        if isinstance(request, ResetRequest):
            self.reset(link, request.seed)
            return ResetDone(self.current_state.puzzle_number)
        if isinstance(request, RepairRequest):
            # An explicit repair checks every frame by UUID first (a look-alike that keeps the
            # counts right, a tile frame without its tags or picture), then reconciles.
            fixed = self.guard.repair_frames(link, report=False)
            repairs = self.reconcile(link, every_block=True)
            fixed.add_to(repairs)
            return RepairDone(repairs)
        if isinstance(request, HintRequest):
            return self.hint(link)
        if isinstance(request, ShowRequest):
            return Rotations(self.read_rotations(link))
        return None

    def periodic(self, link: Link, players_near: bool = True) -> None:
        """Timers: the next puzzle after a win, the progress action bar, the audit. Feedback
        and reset requests only while players are near (`players_near`)."""
        now = self.clock.time()
        self.ingame.periodic(link, now, players_near)
        if self.next_puzzle_at is not None and now >= self.next_puzzle_at:
            self.next_puzzle(link)
        if self.cfg.seed == "daily" and now - self.last_daily_check >= 60.0:
            self.last_daily_check = now
            self.check_daily(link)
        state = self.state
        if (
            players_near
            and now - self.last_actionbar >= ACTION_BAR_EVERY_S
            and self.play is not None
            and state is not None
            and state.solved_at is None
        ):
            self.last_actionbar = now
            bar = self.feedback.action_bar(
                self.play.wet_count,
                self.board.size,
                now - state.started_at,
                state.moves,
                self.par,
                route=self.rules.progress(self.board, self.play),
            )
            self.send_feedback(link, [bar])
        if players_near and self.cfg.reset_by and now - self.last_reset_check >= 1.0:
            self.last_reset_check = now
            self.check_reset_requests(link)
        if self.cfg.audit_interval_s:
            self._rolling_audit(link, now, players_near)
        if self.state is not None:
            self.guard.periodic(link, players_near)

    def _rolling_audit(self, link: Link, now: float, players_near: bool = True) -> None:
        """The periodic read-back, a slice of at most AUDIT_SLICE_TILES frames at a time spread over
        `audit_interval_s` (AUDIT_IDLE_STRETCH times longer with nobody near, and a slice at most
        every AUDIT_IDLE_SLICE_S then), so that no step serializes the whole board
        (docs/reliability.md, "Rolling audit"); a round ends with the block round of the guard."""
        rows = max(1, AUDIT_SLICE_TILES // self.board.width)
        slices = -(-self.board.height // rows)
        every = self.cfg.audit_interval_s / slices
        if not players_near:
            every = max(every * AUDIT_IDLE_STRETCH, AUDIT_IDLE_SLICE_S)
        if now - self.last_audit < every:
            return
        self.last_audit = now
        j0 = self.audit_row if self.audit_row < self.board.height else 0
        j1 = min(self.board.height - 1, j0 + rows - 1)
        self.on_repairs(self.reconciler.audit_rows(link, j0, j1))
        self.audit_row = j1 + 1
        if self.audit_row >= self.board.height:
            self.guard.check_blocks(link)

    def check_daily(self, link: Link) -> bool:
        """A daily room switches to the new date's puzzle (and clears the daily leaderboard)
        when the UTC date has changed; returns whether it did."""
        if self.board.seed == self.daily_seed():
            return False
        log.info("room %s: a new day: the daily puzzle changes", self.name)
        self.send(link, cmd.score_reset("*", DAILY))
        self.next_puzzle(link)
        return True

    def check_reset_requests(self, link: Link) -> bool:
        """Players listed in `reset_by` ask for a new puzzle with `/trigger pipes_reset` near
        the room; returns whether a new puzzle was built."""
        asker = self.ingame.reset_asker(link)
        if asker is None:
            return False
        log.info("room %s: %s asked for a new puzzle", self.name, asker)
        self.next_puzzle(link)
        self.send_feedback(link, [self.feedback.reset_announcement(asker)])
        return True

    def remove(self, link: Link) -> Path | None:
        """Clear the room's frames and blocks, release its chunks, archive its state."""
        commands = [
            cmd.kill_room(self.geom, self.frame_kind),
            *cmd.fill_box(*self.geom.bounds(), "minecraft:air"),
            *cmd.forceload(self.geom, add=False),
        ]
        self.send_all(link, commands)
        return archive_state(self.state_dir, self.name)
