"""The pipes room: builds the puzzle in the world, applies players' turns, repairs drift, wins.

World I/O goes through a `Link`; everything it sends comes from `controller.world.commands` and
every reply is read with `controller.world.replies`. The engine (`controller.puzzle`) decides.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.config import WorldConfig
from controller.errors import RoomError
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Board, Direction, TileClass, map_id
from controller.puzzle.play import Change, PlayState
from controller.runtime.link import Link, in_dimension
from controller.runtime.state import RoomState, Solve, archive_state, state_path
from controller.world import commands as cmd
from controller.world.geometry import EDGE_OFF, EDGE_ON, Room, frame_uuid, preload_uuid, state_block
from controller.world.replies import (
    fill_changed,
    merge_applied,
    parse_count,
    parse_frame_values,
)

__all__ = ["PipesRoom", "Repairs", "picture_ids"]

log = logging.getLogger("controller.runtime")

Progress = Callable[[int, int], None]

_SOLVES = "pipes_solves"
_BEST = "pipes_best_s"
_RESET = "pipes_reset"
_ASKER = re.compile(r"(\w{1,16}) has \d+ \[")


def picture_ids(base: int) -> list[int]:
    """Every map id a room can show: shapes 0..3 in classes 0..4, without ring ends."""
    return [
        map_id(base, shape, cls)
        for cls in TileClass
        for shape in range(4)
        if not (shape == 0 and cls in (TileClass.RING, TileClass.SOURCE_RING))
    ]


@dataclass
class Repairs:
    """What a reconcile found and fixed."""

    adopted_moves: int = 0
    frames_summoned: int = 0
    frames_fixed: int = 0
    preloads_rebuilt: int = 0
    blocks_fixed: int = 0
    rebuilt: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """How many things were out of place."""
        return (
            self.adopted_moves
            + self.frames_summoned
            + self.frames_fixed
            + self.preloads_rebuilt
            + self.blocks_fixed
            + int(self.rebuilt)
        )


class PipesRoom:
    """One pipes room on one server."""

    kind = "pipes"

    def __init__(
        self,
        name: str,
        cfg: WorldConfig,
        state_dir: Path,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.name = name
        self.cfg = cfg
        self.clock = clock
        self.geom = Room(name, cfg.origin, cfg.width, cfg.height, cfg.dimension, cfg.clear_above)
        self.frame_kind = cfg.frame
        self.path = state_path(state_dir, name)
        self.state_dir = state_dir
        self.uuids = [frame_uuid(name, i, j) for i, j in self.geom.tiles()]
        self.state: RoomState | None = None
        self.play: PlayState | None = None
        self.shown_class: list[int] = []
        self.shown_parent: list[int] = []
        self.next_puzzle_at: float | None = None
        self.last_audit = clock()
        self.last_actionbar = 0.0
        self.last_reset_check = 0.0
        self.listeners: list[Callable[[PipesRoom], None]] = []

    # -- helpers --------------------------------------------------------------------------
    def _send(self, link: Link, command: str) -> str:
        return link.send(in_dimension(command, self.geom.dimension))

    def _send_all(
        self, link: Link, commands: list[str], progress: Progress | None = None
    ) -> list[str]:
        out = []
        for k, c in enumerate(commands):
            out.append(self._send(link, c))
            if progress is not None and (k % 64 == 0 or k == len(commands) - 1):
                progress(k + 1, len(commands))
        return out

    @property
    def board(self) -> Board:
        """The current puzzle."""
        assert self.state is not None
        return self.state.board

    def _play(self) -> PlayState:
        assert self.play is not None
        return self.play

    def _map_id(self, idx: int, cls: int | None = None) -> int:
        c = self._play().classes[idx] if cls is None else cls
        return map_id(self.cfg.map_id_base, self.board.shapes[idx], c)

    def _notify(self) -> None:
        for listener in self.listeners:
            listener(self)

    def new_board(self, number: int) -> Board:
        """The puzzle for a given puzzle number (seeded from the config when it has a seed)."""
        seed = self.cfg.seed + number - 1 if self.cfg.seed is not None else random.randrange(2**31)
        return generate(
            self.cfg.width,
            self.cfg.height,
            seed=seed,
            params=GeneratorParams(
                generator=self.cfg.generator,
                branching=self.cfg.branching,
                coverage=self.cfg.coverage,
                unique=self.cfg.unique,
            ),
        )

    def save(self) -> None:
        """Write the state file atomically."""
        assert self.state is not None
        self.state.save(self.path)

    def _adopt_state(self, state: RoomState) -> None:
        state.origin, state.dimension = self.geom.origin, self.geom.dimension
        self.state = state
        self.play = PlayState(state.board)
        self.shown_class = list(self.play.classes)
        self.shown_parent = list(self.play.parents)

    # -- lifecycle ------------------------------------------------------------------------
    def start(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Build the room, or reconcile it with its saved state; then it is ready to play."""
        saved = RoomState.load(self.path)
        self._send_all(link, cmd.forceload(self.geom))
        self.wait_loaded(link)
        self.ensure_objectives(link)
        if saved is None:
            self._adopt_state(RoomState(self.name, self.new_board(1), started_at=self.clock()))
            self.build(link, progress)
            self.save()
            return Repairs(rebuilt=True)
        where = (saved.origin or self.geom.origin, saved.dimension or self.geom.dimension)
        if saved.board.width != self.cfg.width or saved.board.height != self.cfg.height:
            raise RoomError(
                f"room {self.name}: the saved puzzle is {saved.board.width}x{saved.board.height} "
                f"but the config says {self.cfg.width}x{self.cfg.height}; run `pipesctl remove "
                f"--world {self.name}` with the old settings first"
            )
        if where != (self.geom.origin, self.geom.dimension):
            raise RoomError(
                f"room {self.name}: it was built at {list(where[0])} in {where[1]} but the config "
                f"says {list(self.geom.origin)} in {self.geom.dimension}; run `pipesctl remove "
                f"--world {self.name}` with the old settings first"
            )
        self._adopt_state(saved)
        if saved.solved_at is not None:
            self.next_puzzle_at = self.clock()
        return self.reconcile(link, progress)

    def wait_loaded(self, link: Link, timeout: float = 10.0) -> None:
        """Wait until every chunk of the room is loaded with its entities (vanilla loads them
        a tick or more after `forceload add`)."""
        pending = cmd.is_loaded(self.geom)
        deadline = time.monotonic() + timeout
        while pending:
            pending = [c for c in pending if not self._send(link, c).startswith("Test passed")]
            if not pending:
                return
            if time.monotonic() > deadline:
                raise RoomError(
                    f"room {self.name}: its chunks did not load within {timeout:g} s after "
                    "`forceload add`; a vanilla server with nobody online may be paused "
                    "(server.properties pause-when-empty-seconds: set it to -1, or join once)"
                )
            time.sleep(0.05)

    def ensure_objectives(self, link: Link) -> None:
        """The leaderboard objectives (an existing objective answers with an error: fine)."""
        self._send(link, f'scoreboard objectives add {_SOLVES} dummy "Pipes solves"')
        self._send(link, f'scoreboard objectives add {_BEST} dummy "Pipes best time (s)"')
        if self.cfg.on_win.sidebar:
            self._send(link, f"scoreboard objectives setdisplay sidebar {_SOLVES}")
        if self.cfg.reset_by:
            self._send(link, f'scoreboard objectives add {_RESET} trigger "New pipes puzzle"')
            for name in self.cfg.reset_by:
                self._send(link, f"scoreboard players enable {name} {_RESET}")

    def build(self, link: Link, progress: Progress | None = None) -> None:
        """Build the whole room from scratch for the current puzzle."""
        board, play = self.board, self._play()
        kind = self.frame_kind
        commands: list[str] = [
            *cmd.air_fills(self.geom),
            *cmd.border_fills(self.geom),
            *cmd.base_fills(self.geom),
            cmd.kill_room(self.geom, kind),
        ]
        source = board.source_index
        for idx, (i, j) in enumerate(self.geom.tiles()):
            commands.append(
                cmd.summon_frame(
                    self.geom, i, j,
                    uid=self.uuids[idx],
                    rotation=board.rotations[idx],
                    map_id=self._map_id(idx),
                    source=idx == source,
                    kind=kind,
                    invisible=self.cfg.invisible_frames,
                    arms=board.mask(idx),
                )
            )  # fmt: skip
        commands += self._preload_commands()
        commands += cmd.derive_edge_layers(self.geom, kind)
        commands += cmd.clear_arm_tags(self.geom, kind)
        for idx, (i, j) in enumerate(self.geom.tiles()):
            if play.classes[idx] != TileClass.DRY:
                block = state_block(play.classes[idx], play.parents[idx])
                commands.append(cmd.setblock(self.geom.state_pos(i, j), block))
        self._send_all(link, commands, progress)
        self.verify_frames(link)
        self.shown_class = list(play.classes)
        self.shown_parent = list(play.parents)
        self._notify()

    def _preload_commands(self) -> list[str]:
        return [
            cmd.summon_preload(
                self.geom, k, uid=preload_uuid(self.name, k), map_id=mid, kind=self.frame_kind
            )
            for k, mid in enumerate(picture_ids(self.cfg.map_id_base))
        ]

    def verify_frames(self, link: Link) -> None:
        """Count the frames: a plugin may cancel a summon that still reports success (Paper)."""
        n = parse_count(self._send(link, cmd.count_frames(self.geom, self.frame_kind)))
        if n != self.board.size:
            raise RoomError(
                f"room {self.name}: {n} of {self.board.size} frames exist after building; "
                "a plugin may be cancelling entity spawns in this area"
            )

    # -- reconcile ------------------------------------------------------------------------
    def reconcile(self, link: Link, progress: Progress | None = None) -> Repairs:
        """Read the room back, adopt turns made while we were away, repair everything else."""
        rep = Repairs()
        board, kind = self.board, self.frame_kind
        count = self._count_frames(link)
        if count == 0:
            rep.rebuilt = True
            rep.notes.append("no frames found: rebuilt the room")
            self.build(link, progress)
            self.save()
            return rep
        if count > board.size:
            rep.notes.append(f"{count - board.size} foreign frames removed")
            self._send(link, cmd.kill_room(self.geom, kind))
        expect = min(count, board.size)
        rotations = self._read_all(link, cmd.read_rotations(self.geom, kind), True, expect)
        maps = self._read_all(link, cmd.read_map_ids(self.geom, kind), False, expect)
        # Turns made while the daemon was away are moves: adopt them.
        for idx, value in sorted(rotations.items()):
            if value % 4 != board.rotations[idx]:
                self._apply(link, idx, value % 4, write=False)
                rep.adopted_moves += 1
        play = self._play()
        fixes: list[str] = []
        for idx, (i, j) in enumerate(self.geom.tiles()):
            r, mid, source = board.rotations[idx], self._map_id(idx), idx == board.source_index
            if idx not in rotations:
                fixes.append(
                    cmd.summon_frame(
                        self.geom, i, j, uid=self.uuids[idx], rotation=r, map_id=mid,
                        source=source, kind=kind, invisible=self.cfg.invisible_frames,
                    )
                )  # fmt: skip
                rep.frames_summoned += 1
            elif rotations[idx] != r or maps.get(idx) != mid:
                fixes.append(self._settle(idx, rotations[idx]))
                rep.frames_fixed += 1
        # Conditional writes: a frame a player turns meanwhile keeps the turn for the next poll.
        self._send_all(link, fixes)
        if not self._tags_consistent(link):
            rep.notes.append("rotation tags rewritten")
            self._send_all(link, [self._settle(idx, v) for idx, v in sorted(rotations.items())])
        expected = len(picture_ids(self.cfg.map_id_base))
        preload_sel = cmd.count_frames(self.geom, kind, preload=True)
        if parse_count(self._send(link, preload_sel)) != expected:
            self._send(
                link, f"kill @e[type=minecraft:{kind},tag=pipes.{self.name},tag=pipes.preload]"
            )
            self._send_all(link, self._preload_commands())
            rep.preloads_rebuilt = expected
        rep.blocks_fixed = self.audit_blocks(link, progress)
        self.shown_class = list(play.classes)
        self.shown_parent = list(play.parents)
        self.last_audit = self.clock()
        self.save()
        if rep.total:
            log.info("room %s: reconciled %s", self.name, rep)
        self._notify()
        if play.solved and self.state is not None and self.state.solved_at is None:
            self.win(link)
        return rep

    def _count_frames(self, link: Link) -> int:
        """The room's tile frames; a zero is read twice more before it is believed (another
        RCON connection on vanilla can wipe a reply: one shared output buffer, vanilla.md §2.1)."""
        for _ in range(3):
            count = parse_count(self._send(link, cmd.count_frames(self.geom, self.frame_kind)))
            if count:
                return count
            time.sleep(0.05)
        return 0

    def _settle(self, idx: int, seen: int) -> str:
        """Set a frame to its rotation, tags and picture if it still shows ItemRotation `seen`."""
        board = self.board
        return cmd.turn_frame(
            self.uuids[idx],
            seen,
            room=self.name,
            rotation=board.rotations[idx],
            source=idx == board.source_index,
            map_id=self._map_id(idx),
        )

    def _read_all(self, link: Link, command: str, byte: bool, expect: int) -> dict[int, int]:
        """Read values of every frame; a short reply (wiped by another connection) is re-read."""
        best: dict[int, int] = {}
        for _ in range(3):
            values = self._read_values(link, command, byte=byte)
            if len(values) > len(best):
                best = values
            if len(best) >= expect:
                break
        return best

    def _read_values(self, link: Link, command: str, *, byte: bool) -> dict[int, int]:
        out: dict[int, int] = {}
        w, h = self.board.width, self.board.height
        for fv in parse_frame_values(self._send(link, command), byte=byte):
            if fv.room == self.name and fv.i < w and fv.j < h:
                out[fv.j * w + fv.i] = fv.value
        return out

    def _tags_consistent(self, link: Link) -> bool:
        counts = [0, 0, 0, 0]
        for r in self.board.rotations:
            counts[r] += 1
        for r in range(4):
            sel = f"@e[type=minecraft:{self.frame_kind},tag=pipes.{self.name},tag=pipes.r{r}]"
            if parse_count(self._send(link, f"execute if entity {sel}")) != counts[r]:
                return False
        return True

    def expected_layers(self) -> list[tuple[int, list[list[str]]]]:
        """The three block layers as rows of block states: (y, rows)."""
        board, play = self.board, self._play()
        w, h = board.width, board.height
        state_rows, east_rows, south_rows = [], [], []
        for j in range(h):
            srow, erow, arow = [], [], []
            for i in range(w):
                idx = j * w + i
                srow.append(state_block(play.classes[idx], play.parents[idx]))
                erow.append(EDGE_ON if board.connected(idx, Direction.E) else EDGE_OFF)
                arow.append(EDGE_ON if board.connected(idx, Direction.S) else EDGE_OFF)
            state_rows.append(srow)
            east_rows.append(erow)
            south_rows.append(arow)
        y0 = self.geom.y0
        return [(y0 - 1, state_rows), (y0 - 2, east_rows), (y0 - 3, south_rows)]

    def audit_blocks(self, link: Link, progress: Progress | None = None) -> int:
        """Rewrite every layer with idempotent fills; returns how many blocks were wrong."""
        commands = [*cmd.air_fills(self.geom), *cmd.border_fills(self.geom)]
        for y, rows in self.expected_layers():
            commands += cmd.layer_fills(y, self.geom.x0, self.geom.z0, rows)
        return sum(fill_changed(r) for r in self._send_all(link, commands, progress))

    # -- playing --------------------------------------------------------------------------
    def handle_turn(self, link: Link, i: int, j: int, value: int) -> None:
        """A frame shows ItemRotation `value` ≠ its settled rotation: a player turned it."""
        board = self.board
        if not (0 <= i < board.width and 0 <= j < board.height):
            return
        idx = j * board.width + i
        if self.state is not None and self.state.solved_at is not None:
            # The board is solved and waits for the next puzzle: turn the frame back.
            self._send(link, self._settle(idx, value))
            return
        for _ in range(8):  # the player may keep clicking while we write
            if self._apply(link, idx, value % 4, seen=value):
                return
            reply = self._send(link, f"data get entity {self.uuids[idx]} ItemRotation")
            values = parse_frame_values(reply, byte=True)
            if not values:
                return  # frame gone: the next audit repairs it
            value = values[0].value

    def _apply(
        self, link: Link, idx: int, rotation: int, *, seen: int = -1, write: bool = True
    ) -> bool:
        """Apply one turn to the engine and write back only what changed; False when the frame
        moved on since we read it (then nothing of the frame was written)."""
        assert self.state is not None
        board, play = self.board, self._play()
        moved = rotation != board.rotations[idx]
        change: Change | None = play.apply_rotation(idx, rotation) if moved else None
        if moved:
            self.state.moves += 1
        if write:
            applied = merge_applied(
                self._send(
                    link,
                    cmd.turn_frame(
                        self.uuids[idx], seen, room=self.name, rotation=rotation,
                        source=idx == board.source_index, map_id=self._map_id(idx),
                    ),
                )
            )  # fmt: skip
            if change is not None:
                self._write_change(link, change, turned=idx, turned_written=applied)
            if not applied:
                self.save()
                return False
        if change is not None:
            self.save()
            self._notify()
            if change.solved and write:
                self.win(link)
        return True

    def _write_change(
        self, link: Link, change: Change, *, turned: int, turned_written: bool
    ) -> None:
        w = self.board.width
        for t in change.tiles:
            i, j = t.index % w, t.index // w
            if t.cls != self.shown_class[t.index] or t.parent != self.shown_parent[t.index]:
                self._send(
                    link, cmd.setblock(self.geom.state_pos(i, j), state_block(t.cls, t.parent))
                )
            if t.cls != self.shown_class[t.index] and (t.index != turned or not turned_written):
                self._send(link, cmd.set_map_id(self.uuids[t.index], self._map_id(t.index, t.cls)))
            self.shown_class[t.index] = t.cls
            self.shown_parent[t.index] = t.parent
        for e in change.edges:
            i, j = e.index % w, e.index // w
            pos = (
                self.geom.east_pos(i, j)
                if e.direction == Direction.E
                else self.geom.south_pos(i, j)
            )
            self._send(link, cmd.setblock(pos, EDGE_ON if e.connected else EDGE_OFF))

    # -- winning and the next puzzle ---------------------------------------------------------
    def win(self, link: Link) -> None:
        """Tell the players, record the time, schedule the next puzzle."""
        assert self.state is not None
        now = self.clock()
        seconds = now - self.state.started_at
        self.state.solved_at = now
        self.state.solves.append(Solve(self.board.seed, round(seconds, 3), self.state.moves, now))
        self.save()
        near = self.geom.near_selector()
        text = self.cfg.on_win.message.format(
            time=_duration(seconds), moves=self.state.moves, room=self.name
        )
        best = min(s.seconds for s in self.state.solves)
        subtitle = cmd.text(f"{_duration(seconds)} · {self.state.moves} moves")
        self._send_all(
            link,
            [
                f"title {near} times 10 70 20",
                f"title {near} subtitle {subtitle}",
                f"title {near} title {cmd.text('Solved!')}",
                f"execute as {near} at @s run playsound {self.cfg.on_win.sound} master @s",
                f"tellraw {near} {cmd.text(text)}",
                f"scoreboard players add {near} {_SOLVES} 1",
                f"scoreboard players set #{self.name} {_BEST} {int(best)}",
            ],
        )
        self.next_puzzle_at = now + self.cfg.on_win.next_puzzle_after_s
        log.info(
            "room %s solved in %s with %d moves", self.name, _duration(seconds), self.state.moves
        )
        self._notify()

    def next_puzzle(self, link: Link, board: Board | None = None) -> None:
        """Replace the puzzle in place, writing only frames and blocks that differ."""
        assert self.state is not None
        number = self.state.puzzle_number + 1
        new = board if board is not None else self.new_board(number)
        old_rot = list(self.board.rotations)
        old_cls = list(self.shown_class)
        old_shapes = list(self.board.shapes)
        old_source = self.board.source_index
        self._adopt_state(
            RoomState(self.name, new, number, started_at=self.clock(), solves=self.state.solves)
        )
        self.next_puzzle_at = None
        play = self._play()
        commands = []
        for idx in range(new.size):
            same = (
                old_rot[idx] == new.rotations[idx]
                and old_shapes[idx] == new.shapes[idx]
                and old_cls[idx] == play.classes[idx]
                and (idx == old_source) == (idx == new.source_index)
            )
            if not same:
                commands.append(
                    cmd.set_frame(
                        self.uuids[idx], room=self.name, rotation=new.rotations[idx],
                        source=idx == new.source_index, map_id=self._map_id(idx),
                    )
                )  # fmt: skip
        self._send_all(link, commands)
        self.audit_blocks(link)
        self.save()
        self._notify()

    def reset(self, link: Link, seed: int | None = None) -> None:
        """A new puzzle now (admin command)."""
        board = None
        if seed is not None:
            board = generate(
                self.cfg.width, self.cfg.height, seed=seed, params=GeneratorParams(
                    generator=self.cfg.generator, branching=self.cfg.branching,
                    coverage=self.cfg.coverage, unique=self.cfg.unique,
                ),
            )  # fmt: skip
        self.next_puzzle(link, board)

    def hint(self, link: Link) -> tuple[int, int] | None:
        """Tell the players near the room one tile to turn; returns (tile index, rotation)."""
        from controller.puzzle.solver import hint

        found = hint(self.board)
        if found is None:
            return None
        idx, rotation = found
        i, j = idx % self.board.width, idx // self.board.width
        clicks = (rotation - self.board.rotations[idx]) % 4
        x, y, z = self.geom.frame_pos(i, j)
        near = self.geom.near_selector()
        self._send_all(
            link,
            [
                f"tellraw {near} "
                + cmd.text(
                    f"Hint: turn the glowing tile {clicks} time(s) (column {i + 1}, row {j + 1})"
                ),
                f"particle minecraft:happy_villager {x}.5 {y}.3 {z}.5 0.3 0.2 0.3 0 20 force",
            ],
        )
        return found

    def read_rotations(self, link: Link) -> dict[int, int]:
        """Every tile frame's ItemRotation as the server has it now, by tile index."""
        return self._read_values(link, cmd.read_rotations(self.geom, self.frame_kind), byte=True)

    def handle_request(self, link: Link, request: dict[str, object]) -> dict[str, object] | None:
        """Carry out an admin request left by `pipesctl reset|repair|hint|show`; the answer,
        if any, goes back to the command."""
        action = request.get("action")
        log.info("room %s: request %s", self.name, action)
        if action == "reset":
            seed = request.get("seed")
            self.reset(link, seed if isinstance(seed, int) else None)
        elif action == "repair":
            return {"repairs": vars(self.reconcile(link))}
        elif action == "hint":
            found = self.hint(link)
            return {"hint": None if found is None else list(found)}
        elif action == "show":
            return {"rotations": {str(k): v for k, v in self.read_rotations(link).items()}}
        return None

    def periodic(self, link: Link) -> None:
        """Timers: the next puzzle after a win, the progress action bar, the audit."""
        now = self.clock()
        if self.next_puzzle_at is not None and now >= self.next_puzzle_at:
            self.next_puzzle(link)
        if now - self.last_actionbar >= 2.0 and self.play is not None:
            self.last_actionbar = now
            progress = f"Water: {self.play.wet_count}/{self.board.size}"
            self._send(link, f"title {self.geom.near_selector()} actionbar {cmd.text(progress)}")
        if self.cfg.reset_by and now - self.last_reset_check >= 1.0:
            self.last_reset_check = now
            self.check_reset_requests(link)
        if self.cfg.audit_interval_s and now - self.last_audit >= self.cfg.audit_interval_s:
            self.reconcile(link)

    def check_reset_requests(self, link: Link) -> bool:
        """Players listed in `reset_by` ask for a new puzzle with `/trigger pipes_reset` near
        the room; returns whether a new puzzle was built."""
        near = self.geom.near_selector()[:-1] + f",scores={{{_RESET}=1..}}]"
        reply = self._send(link, f"execute as {near} run scoreboard players get @s {_RESET}")
        askers = _ASKER.findall(reply)
        for name in askers:
            self._send(link, f"scoreboard players set {name} {_RESET} 0")
            self._send(link, f"scoreboard players enable {name} {_RESET}")
        allowed = [name for name in askers if name in self.cfg.reset_by]
        if not allowed:
            return False
        log.info("room %s: %s asked for a new puzzle", self.name, allowed[0])
        self.next_puzzle(link)
        self._send(link, f"tellraw {self.geom.near_selector()} " + cmd.text(
            f"{allowed[0]} started a new puzzle"
        ))  # fmt: skip
        return True

    def remove(self, link: Link) -> Path | None:
        """Clear the room's frames and blocks, release its chunks, archive its state."""
        (xa, _, za), (xb, yb, zb) = self.geom.bounds()
        commands = [
            cmd.kill_room(self.geom, self.frame_kind),
            *cmd.fill_box((xa, self.geom.y0 - 3, za), (xb, yb, zb), "minecraft:air"),
            *cmd.forceload(self.geom, add=False),
        ]
        self._send_all(link, commands)
        return archive_state(self.state_dir, self.name)


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
