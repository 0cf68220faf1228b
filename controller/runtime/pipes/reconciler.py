"""Reading a pipes room back from the server and repairing it to match its saved state.

Used on start, after the server comes back, on the periodic audit and on `pipesctl repair`.
Every write is conditional or idempotent, so a matching room changes nothing and a turn a
player makes meanwhile is kept for the next poll.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from controller.puzzle.model import HOLE, Direction
from controller.runtime.link import Link
from controller.runtime.repairs import Repairs
from controller.runtime.state import (
    CROSS_FORMAT,
    LOCK_FORMAT,
    LOOP_FORMAT,
    SHADOW_FORMAT,
    SILENT_FORMAT,
)
from controller.world import commands as cmd
from controller.world import turns
from controller.world.geometry import (
    CLOSED_BLOCK,
    EDGE_OFF,
    EDGE_ON,
    HOLE_BLOCK,
    SHADOW_DROP,
    state_block,
)
from controller.world.pipes import blockcheck
from controller.world.replies import (
    fill_changed,
    merge_applied,
    parse_count,
    parse_frame_values,
    summoned,
)

if TYPE_CHECKING:
    from controller.runtime.pipes.room import PipesRoom
    from controller.runtime.room import Progress

__all__ = ["PipesReconciler"]

log = logging.getLogger("controller.runtime")


class PipesReconciler:
    """Compares a pipes room in the world with its state and repairs the difference."""

    def __init__(self, room: PipesRoom) -> None:
        self.room = room

    def reconcile(
        self, link: Link, progress: Progress | None = None, *, every_block: bool = False
    ) -> Repairs:
        """Read the room back, adopt turns made while we were away, repair everything else:
        every block rewritten and the shadow copied again, unless every frame was as the board
        says and the block map equals its shadow (`every_block`: rewritten in any case)."""
        room = self.room
        rep = Repairs()
        board, kind, geom = room.board, room.frame_kind, room.geom
        count = self.count_frames(link)
        if count == 0:
            rep.rebuilt = True
            rep.notes.append("no frames found: rebuilt the room")
            room.build(link, progress)
            room.save()
            return rep
        # Frames are the room's by UUID (docs/reliability.md, "Tampering"): when the guard's
        # counts are off (a look-alike, a frame with the tile's name but another UUID, a missing
        # hidden picture frame…), its repair by UUID runs before anything is read by name.
        if room.guard.alive(link) is False:
            fixed = room.guard.repair_frames(link, report=False)
            fixed.add_to(rep)
            count = self.count_frames(link)
        framed = room.frame_count
        if count > framed:
            rep.notes.append(f"{count - framed} foreign frames removed")
            room.send(link, cmd.kill_room(geom, kind))
        built_at = room.current_state.world_format
        if built_at < SILENT_FORMAT:
            room.send(link, cmd.silence_frames(geom, kind))
            rep.notes.append(f"frames made Silent (world format {SILENT_FORMAT})")
        expect = min(count, framed)
        rotations = self.read_all(link, cmd.read_rotations(geom, kind), True, expect)
        maps = self.read_all(link, cmd.read_map_ids(geom, kind), False, expect)
        # Turns made while the daemon was away are moves: adopt them (a locked tile's are
        # turned back by the settles below).
        locks = room.current_state.locks
        for idx, value in sorted(rotations.items()):
            if board.shapes[idx] == HOLE:
                continue  # a frame where a hole is: removed below
            if value != board.rotations[idx] and idx not in board.fixed and idx not in locks:
                rep.adopted_moves += turns.clicks(board.rotations[idx], value)
                room.apply(link, idx, value % 4, seen=value, write=False)
        fixes: list[str] = []
        for idx in range(board.size):
            if board.shapes[idx] == HOLE:
                if idx in rotations:  # a hole has no frame (world format 8)
                    fixes.append(cmd.kill_frame(room.uuids[idx]))
                    rep.notes.append(f"frame {idx} removed from a hole")
                continue
            if idx not in rotations:
                self.restore_frame(link, idx, rep)
            elif rotations[idx] != board.rotations[idx] or maps.get(idx) != room.map_id(idx):
                fixes.append(room.settle(idx, rotations[idx]))
                rep.frames_fixed += 1
        # Conditional writes: a frame a player turns meanwhile keeps the turn for the next poll.
        room.send_all(link, fixes)
        if not self.tags_consistent(link):
            rep.notes.append("rotation tags rewritten")
            room.send_all(link, [room.settle(idx, v) for idx, v in sorted(rotations.items())])
        check = room.rules.frames_check(kind, board)
        if check is not None and parse_count(room.send(link, check[0])) != check[1]:
            rep.notes.append("fixed frames made Fixed again")
            room.send_all(
                link,
                [
                    room.settle(idx, rotations[idx])
                    for idx in sorted(board.fixed)
                    if idx in rotations
                ],
            )
        expected = len(room.pictures)
        if parse_count(room.send(link, cmd.count_frames(geom, kind, preload=True))) != expected:
            room.send(link, cmd.kill_preloads(geom, kind))
            room.send_all(link, room.preload_commands(link.release))
            rep.preloads_rebuilt = expected
        # (a world built at an older format is rewritten once: its blocks follow older rules)
        current = built_at >= room.rules.world_format
        trusted = current and not every_block and not rep.total
        if trusted and not rep.notes and self.shadowed(link):
            # every frame as the board says and the block map equal to its shadow: the blocks
            # are the board's (both copies follow every move); only holes, the sink and the air
            # are written (docs/reliability.md, "Block check")
            replies = room.send_all(link, room.guard.block_check_commands(air=True))
            rep.blocks_fixed = sum(fill_changed(r) for r in replies)
        else:
            rep.blocks_fixed = self.audit_blocks(link, progress)
        if built_at < SHADOW_FORMAT:
            rep.notes.append(f"shadow layers written (world format {SHADOW_FORMAT})")
            log.info(
                "room %s: world format %d: the block map is copied %d blocks lower (%d..%d) for "
                "the tamper guard's compare", room.name, SHADOW_FORMAT, SHADOW_DROP,
                geom.y0 - 3 - SHADOW_DROP, geom.y0 - 1 - SHADOW_DROP,
            )  # fmt: skip
        if built_at < LOCK_FORMAT <= room.rules.world_format:
            log.info(
                "room %s: world format %d: players may lock tiles (tag %s); the world needs no "
                "change", room.name, LOCK_FORMAT, cmd.LOCKED_TAG,
            )  # fmt: skip
        if built_at < LOOP_FORMAT <= room.rules.world_format:
            closed = sum(room.play_state.closed)
            rep.notes.append(f"dry loops and closed islands shown (world format {LOOP_FORMAT})")
            log.info(
                "room %s: world format %d: tiles on dry loops and in closed islands show %s "
                "(%d now)", room.name, LOOP_FORMAT, CLOSED_BLOCK, closed,
            )  # fmt: skip
        if built_at < CROSS_FORMAT <= room.rules.world_format:
            log.info(
                "room %s: world format %d: sink rooms may deal crosses and holes (`crosses`, "
                "`holes`); a puzzle without them needs no change", room.name, CROSS_FORMAT,
            )  # fmt: skip
        room.current_state.world_format = max(built_at, room.rules.world_format)
        room.mark_shown()
        room.last_audit = room.clock.time()
        room.save()
        if rep.total:
            log.info("room %s: reconciled: %s", room.name, rep.describe())
        room.notify()
        return rep

    def audit_rows(self, link: Link, j0: int, j1: int) -> Repairs:
        """One slice of the rolling audit: rows j0..j1 read back (their rotations and pictures,
        two commands), a turn no poll saw adopted as a move, a frame that differs settled. A
        frame the read does not name is left to the guard's frame counts."""
        room = self.room
        board, kind, geom = room.board, room.frame_kind, room.geom
        rep = Repairs()
        rows = (j0, j1)
        rotations = self.read_values(link, cmd.read_rotations(geom, kind, rows), byte=True)
        maps = self.read_values(link, cmd.read_map_ids(geom, kind, rows), byte=False)
        fixes: list[str] = []
        locks = room.current_state.locks
        for idx, value in sorted(rotations.items()):
            if board.shapes[idx] == HOLE:
                continue  # a stray frame on a hole: the guard's counts find it
            if value != board.rotations[idx] and idx not in board.fixed and idx not in locks:
                moves = turns.clicks(board.rotations[idx], value)
                if room.apply(link, idx, value % 4, seen=value):
                    rep.adopted_moves += moves
            elif value != board.rotations[idx] or maps.get(idx) != room.map_id(idx):
                fixes.append(room.settle(idx, value))
                rep.frames_fixed += 1
        room.send_all(link, fixes)
        if rep.total:
            log.info("room %s: audit of rows %d..%d: %s", room.name, j0, j1, rep.describe())
        return rep

    def restore_frame(self, link: Link, idx: int, rep: Repairs) -> None:
        """A frame the tagged read did not name: re-tag it by UUID if it is there untagged,
        else summon it; each reply is checked (a refused summon is reported, not counted)."""
        room, board = self.room, self.room.board
        uid = room.uuids[idx]
        source = idx == board.source_index
        fixed = bool(room.rules.fixed(board, idx))
        retag = cmd.retag_frame(
            uid,
            room=room.name,
            rotation=board.rotations[idx],
            source=source,
            fixed=fixed,
            locked=idx in room.current_state.locks,
        )
        if merge_applied(room.send(link, retag)):
            rep.frames_fixed += 1
            rep.notes.append(f"frame {idx} re-tagged")
            return
        reply = room.send(link, cmd.summon_if_missing(uid, room.summon(idx, release=link.release)))
        if summoned(reply):
            rep.frames_summoned += 1
        elif reply:
            rep.notes.append(f"frame {idx} could not be summoned: {reply}")
            log.error("room %s: frame %d could not be summoned: %s", room.name, idx, reply)

    def count_frames(self, link: Link) -> int:
        """The room's tile frames; a zero is read twice more before it is believed (another
        RCON connection on vanilla can wipe a reply: docs/server-behaviour.md, "Shared
        output buffer")."""
        room = self.room
        for _ in range(3):
            count = parse_count(room.send(link, cmd.count_frames(room.geom, room.frame_kind)))
            if count:
                return count
            room.clock.sleep(0.05)
        return 0

    def read_all(self, link: Link, command: str, byte: bool, expect: int) -> dict[int, int]:
        """Read values of every frame; a short reply (wiped by another connection) is re-read."""
        best: dict[int, int] = {}
        for _ in range(3):
            values = self.read_values(link, command, byte=byte)
            if len(values) > len(best):
                best = values
            if len(best) >= expect:
                break
        return best

    def read_values(self, link: Link, command: str, *, byte: bool) -> dict[int, int]:
        """The values named in one reply, by tile index (other rooms' frames ignored)."""
        room = self.room
        out: dict[int, int] = {}
        w, h = room.board.width, room.board.height
        for fv in parse_frame_values(room.send(link, command), byte=byte):
            if fv.room == room.name and fv.i < w and fv.j < h:
                out[fv.j * w + fv.i] = fv.value
        return out

    def tags_consistent(self, link: Link) -> bool:
        """Whether as many frames carry each `pipes.r<r>` tag as the board has rotations r (on
        tiles with a frame: not on holes)."""
        room = self.room
        counts = [0, 0, 0, 0]
        for r, shape in zip(room.board.rotations, room.board.shapes, strict=True):
            if shape != HOLE:
                counts[r] += 1
        for r in range(4):
            command = cmd.count_rotation_tag(room.geom, room.frame_kind, r)
            if parse_count(room.send(link, command)) != counts[r]:
                return False
        return True

    def block_at(self, layer: int, i: int, j: int) -> str:
        """The block the board puts at tile (i, j) of a layer: 0 = state (y0-1), 1 = east
        edges (y0-2), 2 = south edges (y0-3)."""
        room = self.room
        board, play = room.board, room.play_state
        idx = j * board.width + i
        if layer == 0:
            if board.shapes[idx] == HOLE:
                return HOLE_BLOCK
            return state_block(play.classes[idx], play.parents[idx], play.closed[idx])
        direction = Direction.E if layer == 1 else Direction.S
        return EDGE_ON if board.connected(idx, direction) else EDGE_OFF

    def expected_layers(self) -> list[tuple[int, list[list[str]]]]:
        """The three block layers as rows of block states: (y, rows)."""
        board, y0 = self.room.board, self.room.geom.y0
        return [
            (
                y0 - 1 - layer,
                [
                    [self.block_at(layer, i, j) for i in range(board.width)]
                    for j in range(board.height)
                ],
            )
            for layer in range(3)
        ]

    def audit_commands(self) -> list[str]:
        """The idempotent fills that put every block of the room as the board says (a sink
        room's cauldron included, the air around it)."""
        room = self.room
        geom, rules = room.geom, room.rules
        commands = [*cmd.air_fills(geom, rules.sink_pos(room.board)), *cmd.border_fills(geom)]
        for y, rows in self.expected_layers():
            commands += cmd.layer_fills(y, geom.x0, geom.z0, rows)
        commands += rules.block_commands(room.board, room.play_state.classes)
        return commands

    def shadowed(self, link: Link) -> bool:
        """Whether the block map equals its shadow (`execute if blocks`, one command per
        32,768 blocks, nothing changed); a spoiled reply counts as a difference."""
        geom = self.room.geom
        return all(
            blockcheck.compared(self.room.send(link, blockcheck.compare(geom, cols))) is True
            for cols in blockcheck.chunks(geom)
        )

    def audit_blocks(self, link: Link, progress: Progress | None = None) -> int:
        """Rewrite every layer with idempotent fills, then `clone` the layers onto their shadow
        (docs/world-format.md, "Shadow layers"); returns how many blocks of the room were wrong."""
        replies = self.room.send_all(link, self.audit_commands(), progress)
        self.room.send_all(link, blockcheck.copies(self.room.geom))
        return sum(fill_changed(r) for r in replies)
