"""Tampering repaired in seconds at a cost that does not grow with the board: frame counts and a
block compare of a pipes room (docs/reliability.md, "Tampering").

Room frames are known by their deterministic UUID (`world.geometry.frame_uuid`), never by name
or tag alone. The frame round counts, without serializing any entity, the room's tagged frames,
every frame of either kind in the room's box and the frames there that show one of the room's
pictures (a foreign map id, an emptied frame); any count off starts a frame repair at once. The
block round compares the block map with its shadow copy (`execute if blocks`, one command per
32,768 blocks), closes holes under the frames, clears anything built above and counts the hidden
picture frames. A failed compare is narrowed down by halves to a few columns, written back from
the board into both copies, at most REPAIR_PER_S commands a second.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, cast

from controller.puzzle.model import HOLE
from controller.runtime.repairs import Repairs
from controller.world import commands as cmd
from controller.world.geometry import preload_uuid
from controller.world.pipes import blockcheck
from controller.world.pipes.blockcheck import Columns
from controller.world.replies import (
    fill_changed,
    killed_count,
    merge_applied,
    summoned,
    tag_added,
    whole_count,
    whole_item_count,
)

if TYPE_CHECKING:
    from controller.runtime.link import Link
    from controller.runtime.pipes.room import PipesRoom

__all__ = [
    "FrameRepair",
    "RoomGuard",
    "IDLE_BLOCK_CHECK_S",
    "IDLE_FRAME_CHECK_S",
    "IDLE_QUICK_CHECK_S",
    "REPAIR_PER_S",
]

log = logging.getLogger("controller.runtime")
T = TypeVar("T")

# Players near: the frame round (the four counts and the hidden picture frames' count) and the
# block round (the compares, the hole and air fills: 3 at 31×31, 6 at 128×128) each every
# 2 × liveness_interval_s, so the guard sends 4–6 commands a second at any size. Nobody near
# (docs/reliability.md, "Tampering"): one count of the room's kind of frame in its box every
# IDLE_QUICK_CHECK_S (a killed, popped or added frame), the block round every
# IDLE_BLOCK_CHECK_S, the frame round every IDLE_FRAME_CHECK_S: 0.15–0.2 commands a second,
# so that with the turn detection (one command every 2 s), the lease (one every 10 s) and the
# rolling audit (two every 30 s at most) an idle server gets fewer than one command a second
# (docs/turn-detection.md, "Adaptive rate").
IDLE_QUICK_CHECK_S = 10.0
IDLE_BLOCK_CHECK_S = 30.0
IDLE_FRAME_CHECK_S = 60.0
# Narrowing a failed compare down and writing the columns back: commands a second, and the most
# a step may spend at once (so a large tamper is repaired steadily, never in one burst).
REPAIR_PER_S = 40.0
# The air above the frames is cleared every this many block rounds (10 s near players): a fill
# over every block of it is real work for the server (67,600 blocks at 128×128), and a block
# built there breaks nothing.
AIR_EVERY_ROUNDS = 5
REPAIR_BURST = 2.0


@dataclass
class FrameRepair:
    """What one frame repair found and did (each count from the server's replies)."""

    foreign_killed: int = 0
    summoned: int = 0
    preloads_summoned: int = 0
    retagged: int = 0
    refilled: int = 0
    dropped_maps_removed: int = 0
    failed: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Repairs made."""
        return (
            self.foreign_killed
            + self.summoned
            + self.preloads_summoned
            + self.retagged
            + self.refilled
        )

    def add_to(self, repairs: Repairs) -> None:
        """Count this repair in a reconcile's figures (nothing when nothing was wrong)."""
        if self.total:
            fixed = self.foreign_killed + self.retagged + self.refilled
            repairs.add_frame_repair(self.summoned, self.preloads_summoned, fixed, self.describe())

    def describe(self) -> str:
        """One line for the log."""
        parts = [
            f"{n} {what}"
            for n, what in (
                (self.foreign_killed, "foreign frame(s) killed"),
                (self.summoned, "frame(s) summoned"),
                (self.preloads_summoned, "hidden picture frame(s) summoned"),
                (self.retagged, "frame(s) re-tagged"),
                (self.refilled, "frame(s) refilled"),
                (self.dropped_maps_removed, "dropped map(s) removed"),
            )
            if n
        ]
        parts += [f"failed: {f}" for f in self.failed]
        return ", ".join(parts) or "nothing to repair"


class RoomGuard:
    """The frame counts and the block compare of one pipes room, each on its own timer, and the
    narrowing of a failed compare down to the columns to write back, under a budget."""

    def __init__(self, room: PipesRoom) -> None:
        self.room = room
        self.last_frames = -math.inf  # the frame round: the four counts
        self.last_quick = -math.inf  # nobody near: one count of the room's kind of frame
        self.last_blocks: float | None = None  # the block round (staggered half a period)
        self.suspect_now = False
        self.pending: deque[Columns] = deque()  # columns whose compare failed, to narrow down
        self.rounds: deque[tuple[str, Generator[None, None, object]]] = deque()  # under way
        self.writes: deque[tuple[Columns, int]] = deque()  # leaf layers to write back
        self.repair_credit = 0.0
        self.repair_last: float | None = None
        self.found = 0  # blocks put back since the narrowing began
        self.block_rounds = 0
        self.commands_sent = 0
        self.blocks_fixed = 0
        self.blocks_examined = 0  # blocks compared or filled over (most left unchanged)
        self.repairs: list[FrameRepair] = []
        self.repair_due = False  # a read by UUID found a tile's frame gone: repair at once
        if room.cfg.block_audit_cycle_s is not None:
            log.warning(
                "room %s: block_audit_cycle_s is no longer used (the block map is compared with "
                "its shadow copy every %g s with players near); remove it from the config",
                room.name, 2 * room.cfg.liveness_interval_s,
            )  # fmt: skip

    def checked(self) -> None:
        """The room was just built or read back whole (its frames counted): the frame round and
        the idle count start their periods from now, since one at once would find nothing."""
        self.last_frames = self.last_quick = self.room.clock.monotonic()

    def suspect(self, *, missing: bool) -> None:
        """A turn read by name was refuted by the tile's UUID: a foreign frame carries the
        tile's name (`missing`: the tile's own frame is gone too). The frame counts run at the
        next step; a missing frame means a repair by UUID then."""
        self.suspect_now = True
        self.repair_due = self.repair_due or missing

    # -- scheduling -----------------------------------------------------------------------
    def periodic(self, link: Link, players_near: bool) -> None:
        """Run what is due. Players near: the frame round and the block round each every
        2 × `liveness_interval_s`, half a period apart; nobody near: the idle schedule. A round
        sends one command per step; narrowing a failed compare at most REPAIR_PER_S commands a
        second. Timers never catch up: time spent in a slow step earns nothing."""
        every = self.room.cfg.liveness_interval_s
        now = self.room.clock.monotonic()
        if self.repair_due:
            self.repair_due = False
            self.repair_frames(link)
        if self.pending or self.writes:
            self.narrow(link, now)
        if not every:
            return
        if self.last_blocks is None:
            self.last_blocks = now - every  # the block round runs half a period after the frames
        period = 2 * every
        if players_near or self.suspect_now:
            if self.suspect_now or now - self.last_frames >= period:
                self.suspect_now = False
                self.last_frames = self.last_quick = now
                self._queue("frames", self._frame_round(link))
        else:
            if now - self.last_frames >= max(period, IDLE_FRAME_CHECK_S):
                self.last_frames = self.last_quick = now
                self._queue("frames", self._frame_round(link))
            elif now - self.last_quick >= max(period, IDLE_QUICK_CHECK_S):
                self.last_quick = now
                self._queue("frames", self._quick_round(link))
        if now - self.last_blocks >= (period if players_near else max(period, IDLE_BLOCK_CHECK_S)):
            self.last_blocks = now
            self._queue("blocks", self._block_round(link))
        self._advance()

    def _queue(self, kind: str, round_: Generator[None, None, object]) -> None:
        """Start a round unless one of its kind is still under way."""
        if kind in (k for k, _ in self.rounds):
            round_.close()
            return
        self.rounds.append((kind, round_))

    def _advance(self) -> None:
        """Send the next command of the oldest round under way: a round is spread over steps,
        one command each, so that turn detection never waits behind a whole round."""
        if not self.rounds:
            return
        _, round_ = self.rounds[0]
        try:
            next(round_)
        except StopIteration:
            self.rounds.popleft()

    def _send(self, link: Link, command: str) -> str:
        self.commands_sent += 1
        return self.room.send(link, command)

    # -- frames ---------------------------------------------------------------------------
    def liveness_commands(self) -> list[str]:
        """The frame round's counts: tagged frames, frames of each kind in the box, and the frames
        in the box that show one of the room's pictures (the hidden picture frames are counted
        after them)."""
        room = self.room
        return [
            cmd.count_frames(room.geom, room.frame_kind),
            *(cmd.count_frames_in_box(room.geom, kind) for kind in cmd.FRAME_KINDS),
            cmd.count_frames_pictured(room.geom, room.frame_kind, room.pictures),
        ]

    def frames_in_box(self, link: Link) -> bool:
        """The quick idle check: as many frames of the room's kind in its box as tiles."""
        room = self.room
        reply = self._send(link, cmd.count_frames_in_box(room.geom, room.frame_kind))
        return whole_count(reply) == room.frame_count

    def alive(self, link: Link) -> bool | None:
        """Whether every count is what the room should show (no serialization); None when a
        reply was spoiled by another RCON connection (the next check asks again). Sent at once
        (a reconcile); the guard's own rounds spread the same commands over steps."""
        return _run(self._counts(link))

    def _counts(self, link: Link) -> Generator[None, None, bool | None]:
        """The frame round's counts, one command per step; then, when they are right, the hidden
        picture frames' count (and any summoned again)."""
        size = self.room.frame_count  # a hole has no frame
        counts: list[int | None] = []
        commands = self.liveness_commands()
        for k, command in enumerate(commands):
            reply = self._send(link, command)
            last = k == len(commands) - 1  # `execute if items`: none in the box is an error
            counts.append(whole_item_count(reply) if last else whole_count(reply))
            yield
        if None in counts:
            return None
        tagged, own_kind, other_kind, pictured = counts
        if self.room.frame_kind == "glow_item_frame":
            own_kind, other_kind = other_kind, own_kind
        ok = tagged == size and own_kind == size and other_kind == 0 and pictured == size
        restored = self.restore_preloads(link) if ok else 0  # else the frame repair does
        if restored:
            log.warning("room %s: hidden picture frames summoned again", self.room.name)
            self.room.on_repairs(Repairs(preloads_rebuilt=restored))
            self.room.notify()
        return ok

    def _frame_round(self, link: Link) -> Generator[None, None, None]:
        """The counts, then a frame repair at once when one is off."""
        if (yield from self._counts(link)) is False:
            self.repair_frames(link)

    def _quick_round(self, link: Link) -> Generator[None, None, None]:
        """Nobody near: the count of the room's kind of frame; the whole round when it is off."""
        if not self.frames_in_box(link):
            yield
            yield from self._frame_round(link)

    # -- blocks ---------------------------------------------------------------------------
    def block_check_commands(self, *, air: bool = True) -> list[str]:
        """The block round's writes: holes under the frames closed (and counted), the sink
        block, and (`air`) anything built above cleared, a sink room's sink block kept."""
        room = self.room
        keep = room.rules.sink_pos(room.board)
        return [
            *cmd.hole_fills(room.geom),
            *room.rules.block_commands(room.board, room.play_state.classes),
            *(cmd.air_fills(room.geom, keep) if air else []),
        ]

    def check_blocks(self, link: Link) -> int:
        """The block round sent at once (the rolling audit's end); see `_block_round`."""
        return _run(self._block_round(link))

    def _block_round(self, link: Link) -> Generator[None, None, int]:
        """The block round, one command per step: the block map compared with its shadow (no
        block changed), then the writes of `block_check_commands` (the air every
        AIR_EVERY_ROUNDS rounds). A failed compare is narrowed down from the next step on.
        Returns the blocks the writes changed."""
        room = self.room
        for cols in blockcheck.chunks(room.geom):
            self.blocks_examined += cols.count * 3
            if blockcheck.compared(self._send(link, blockcheck.compare(room.geom, cols))) is False:
                self.pending.append(cols)
            yield
        changed = 0
        self.block_rounds += 1
        air = self.block_rounds % AIR_EVERY_ROUNDS == 1 or AIR_EVERY_ROUNDS == 1
        for command in self.block_check_commands(air=air):
            self.blocks_examined += cmd.fill_volume(command)
            changed += fill_changed(self._send(link, command))
            yield
        if changed:
            self.blocks_fixed += changed
            log.warning("room %s: %d broken or foreign block(s) put back", room.name, changed)
            room.on_repairs(Repairs(blocks_fixed=changed))
            room.notify()
        return changed

    def narrow(self, link: Link, now: float) -> None:
        """Spend the repair budget on the failed compares: split a failed box in halves and
        compare each; write a box of LEAF_COLUMNS or fewer from the board into both copies."""
        last = self.repair_last if self.repair_last is not None else now
        self.repair_last = now
        self.repair_credit = min(
            self.repair_credit + REPAIR_PER_S * max(now - last, 0.0), REPAIR_BURST
        )
        geom = self.room.geom
        while (self.pending or self.writes) and self.repair_credit >= 1.0:
            self.repair_credit -= 1
            if self.writes:
                # one layer of a leaf, computed from the board now: a move made since the leaf
                # was found is never written back
                cols, layer = self.writes.popleft()
                at = self.room.reconciler.block_at
                solid, shadow = blockcheck.leaf_fills(geom, cols, at, layers=[layer])
                for command in solid:
                    self.found += fill_changed(self._send(link, command))
                for command in shadow:
                    self._send(link, command)
                self.blocks_examined += 2 * cols.count
                self.repair_credit -= len(solid) + len(shadow) - 1
                continue
            cols = self.pending.popleft()
            if cols.count <= blockcheck.LEAF_COLUMNS:
                self.writes.extend((cols, layer) for layer in range(3))
                self.repair_credit += 1  # queuing the layers sent nothing
                continue
            for half in cols.halves():
                self.blocks_examined += half.count * 3
                reply = self._send(link, blockcheck.compare(geom, half))
                if blockcheck.compared(reply) is not True:  # a spoiled reply: look closer too
                    self.pending.append(half)
            self.repair_credit -= 1  # two compares
        if not self.pending and not self.writes:
            self.repair_last = None
            self.repair_credit = 0.0
            if self.found:
                self.blocks_fixed += self.found
                log.warning("room %s: block map: %d block(s) put back", self.room.name, self.found)
                self.room.on_repairs(Repairs(blocks_fixed=self.found))
                self.room.notify()
            self.found = 0

    def repair_frames(self, link: Link, *, report: bool = True) -> FrameRepair:
        """Make the room's frames the room's own again, by UUID: kill every other frame in the
        box, summon the missing, re-tag and refill the present, and remove the map items that
        popped frames dropped. Every step's reply is checked. With `report`, what was put right
        goes to the room's `on_repairs` (a reconcile that folds it into its own figures passes
        False: the daemon reports those)."""
        room = self.room
        board = room.board
        rep = FrameRepair()
        for kind in cmd.FRAME_KINDS:
            self._send(link, cmd.unmark_own(kind))
        present = [tag_added(self._send(link, cmd.mark_own(uid))) for uid in room.uuids]
        for kind in cmd.FRAME_KINDS:
            rep.foreign_killed += killed_count(
                self._send(link, cmd.kill_foreign_frames(room.geom, kind))
            )
        # a look-alike hung outside the box: it carries the room's tile tags, not its UUID
        for kind in cmd.FRAME_KINDS:
            rep.foreign_killed += killed_count(
                self._send(link, cmd.kill_foreign_tagged(room.name, kind))
            )
        self._send(link, cmd.unmark_own(room.frame_kind))
        for idx, here in enumerate(present):
            uid = room.uuids[idx]
            if board.shapes[idx] == HOLE:  # no frame belongs there (world format 8)
                if here:
                    rep.foreign_killed += killed_count(self._send(link, cmd.kill_frame(uid)))
                continue
            if not here:
                reply = self._send(
                    link, cmd.summon_if_missing(uid, room.summon(idx, release=link.release))
                )
                if summoned(reply):
                    rep.summoned += 1
                    continue
                if reply:  # refused (a duplicate UUID out of reach, an unloaded chunk)
                    rep.failed.append(f"summon of frame {idx}: {reply}")
                    continue
                # not run: the frame is there after all (the mark's reply was lost)
            retag = cmd.retag_frame(
                uid,
                room=room.name,
                rotation=board.rotations[idx],
                source=idx == board.source_index,
                fixed=bool(room.rules.fixed(board, idx)),
                locked=idx in room.current_state.locks,
            )
            if merge_applied(self._send(link, retag)):
                rep.retagged += 1
            if merge_applied(self._send(link, cmd.refill_frame(uid, room.map_id(idx)))):
                rep.refilled += 1
        rep.preloads_summoned = self.restore_preloads(link)
        if rep.summoned:
            for mid in room.pictures:
                rep.dropped_maps_removed += killed_count(
                    self._send(link, cmd.kill_dropped_maps(room.geom, mid))
                )
        if rep.total or rep.failed:
            log.warning("room %s: tampering repaired: %s", room.name, rep.describe())
            room.notify()
        if report and rep.total:
            counted = Repairs()
            rep.add_to(counted)
            room.on_repairs(counted)
        self.repairs.append(rep)
        return rep

    def restore_preloads(self, link: Link) -> int:
        """Summon the hidden picture frames that are missing (one count when none is); returns
        how many were summoned."""
        room = self.room
        expected = len(room.pictures)
        reply = self._send(link, cmd.count_frames(room.geom, room.frame_kind, preload=True))
        if whole_count(reply) == expected:
            return 0
        done = 0
        for k, summon in enumerate(room.preload_commands(link.release)):
            uid = preload_uuid(room.name, k)
            done += summoned(self._send(link, cmd.summon_if_missing(uid, summon)))
        return done


def _run(round_: Generator[None, None, T]) -> T:
    """Send a whole round at once; its result."""
    while True:
        try:
            next(round_)
        except StopIteration as done:
            return cast(T, done.value)
