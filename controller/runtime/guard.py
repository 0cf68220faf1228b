"""Tampering repaired in seconds: a cheap liveness check of a pipes room's frames and a sliced
audit of its blocks (docs/reliability.md, "Tampering").

Room frames are known by their deterministic UUID (`world.geometry.frame_uuid`), never by name
or tag alone. The liveness check counts, without serializing any entity, the room's tagged
frames, every frame of either kind in the room's box and the frames there that hold a map; any
count off by one starts a frame repair at once. With it go two block commands: a `keep` fill of
the room's solid layers (it fills only holes and counts them) and the air fill above; a broken
block makes the whole block audit run at once. The sliced audit rewrites the room's layers with
the same idempotent fills as the full audit, a slice at a time, so a replaced block is found
within one cycle; the same cycle counts the frames showing each of the room's pictures (an item
test per picture, no serialization), which finds a foreign map id.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from controller.world import commands as cmd
from controller.world.geometry import preload_uuid
from controller.world.replies import (
    fill_changed,
    killed_count,
    merge_applied,
    summoned,
    tag_added,
    whole_count,
)

if TYPE_CHECKING:
    from controller.runtime.link import Link
    from controller.runtime.pipes_room import PipesRoom
    from controller.runtime.repairs import Repairs

__all__ = [
    "FrameRepair",
    "RoomGuard",
    "IDLE_BLOCK_CHECK_S",
    "IDLE_FRAME_CHECK_S",
    "IDLE_QUICK_CHECK_S",
]

log = logging.getLogger("controller.runtime")

# Nobody near the room (docs/reliability.md, "Tampering"): one count of the room's kind of frame
# in its box every IDLE_QUICK_CHECK_S (a killed, popped or added frame), the two block commands
# that close holes every IDLE_BLOCK_CHECK_S, all four frame counts every IDLE_FRAME_CHECK_S,
# and the sliced audit waits (the full audit of `audit_interval_s` still runs): about 0.27
# commands a second, so that with the turn detection (one command every 2 s) and the lease (one
# every 10 s) an idle server gets fewer than one command a second (docs/turn-detection.md,
# "Adaptive rate").
IDLE_QUICK_CHECK_S = 10.0
IDLE_BLOCK_CHECK_S = 20.0
IDLE_FRAME_CHECK_S = 60.0


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
    """The liveness check and the sliced block audit of one pipes room."""

    def __init__(self, room: PipesRoom) -> None:
        self.room = room
        self.next_check = 0.0
        self.next_frame_check = 0.0
        self.next_block_check = 0.0
        self.audit_at = 0  # index of the next fill in the audit's command list
        self.audit_credit = 0.0  # fills owed to the audit (fractions carry over)
        self.audit_last: float | None = None
        self.commands_sent = 0
        self.blocks_fixed = 0
        self.repairs: list[FrameRepair] = []
        self.repair_due = False  # a read by UUID found a tile's frame gone: repair at once

    def suspect(self, *, missing: bool) -> None:
        """A turn read by name was refuted by the tile's UUID: a foreign frame carries the
        tile's name (`missing`: the tile's own frame is gone too). The frame counts run at the
        room's next timers; a missing frame means a repair by UUID then."""
        self.next_check = self.next_frame_check = 0.0
        self.repair_due = self.repair_due or missing

    # -- scheduling -----------------------------------------------------------------------
    def periodic(self, link: Link, players_near: bool) -> None:
        """Run what is due: the liveness check (and a repair when it finds a fault), then a
        slice of the block audit; with nobody near, the slower idle schedule."""
        cfg = self.room.cfg
        now = self.room.clock.monotonic()
        if self.repair_due:
            self.repair_due = False
            self.repair_frames(link)
        if cfg.liveness_interval_s and now >= self.next_check:
            every = cfg.liveness_interval_s
            self.next_check = now + (every if players_near else max(every, IDLE_QUICK_CHECK_S))
            full = players_near or now >= self.next_frame_check or not self.frames_in_box(link)
            if full:
                self.next_frame_check = now + max(every, IDLE_FRAME_CHECK_S)
                if self.alive(link) is False:
                    self.repair_frames(link)
            if players_near or now >= self.next_block_check:
                self.next_block_check = now + max(every, IDLE_BLOCK_CHECK_S)
                self.check_blocks(link)
        if not cfg.block_audit_cycle_s:
            return
        if players_near:
            self.audit_slice(link, now, cfg.block_audit_cycle_s)
        else:
            self.audit_last = now  # no slice owed for the time nobody was near

    def _send(self, link: Link, command: str) -> str:
        self.commands_sent += 1
        return self.room.send(link, command)

    # -- frames ---------------------------------------------------------------------------
    def liveness_commands(self) -> list[str]:
        """The check's commands: tagged frames, frames of each kind in the box, filled frames."""
        room = self.room
        return [
            cmd.count_frames(room.geom, room.frame_kind),
            *(cmd.count_frames_in_box(room.geom, kind) for kind in cmd.FRAME_KINDS),
            cmd.count_filled_frames(room.geom, room.frame_kind),
        ]

    def frames_in_box(self, link: Link) -> bool:
        """The quick idle check: as many frames of the room's kind in its box as tiles."""
        room = self.room
        reply = self._send(link, cmd.count_frames_in_box(room.geom, room.frame_kind))
        return whole_count(reply) == room.board.size

    def alive(self, link: Link) -> bool | None:
        """Whether every count is what the room should show (no serialization); None when a
        reply was spoiled by another RCON connection (the next check asks again)."""
        size = self.room.board.size
        counts = [whole_count(self._send(link, c)) for c in self.liveness_commands()]
        if None in counts:
            return None
        tagged, own_kind, other_kind, filled = counts
        if self.room.frame_kind == "glow_item_frame":
            own_kind, other_kind = other_kind, own_kind
        return tagged == size and own_kind == size and other_kind == 0 and filled == size

    def block_check_commands(self) -> list[str]:
        """Holes in the solid layers closed (and counted), anything built above cleared."""
        geom = self.room.geom
        return [*cmd.hole_fills(geom), *cmd.air_fills(geom)]

    def check_blocks(self, link: Link) -> int:
        """The quick block check; when it changed anything, the whole block audit runs at once
        (a hole was filled with a placeholder). Returns the blocks the check changed."""
        changed = sum(fill_changed(self._send(link, c)) for c in self.block_check_commands())
        if changed:
            fixed = self.room.reconciler.audit_blocks(link)
            self.commands_sent += len(self.room.reconciler.audit_commands())
            self.blocks_fixed += changed
            log.warning(
                "room %s: %d broken block(s) found and put back (%d fixed by the audit)",
                self.room.name, changed, fixed,
            )  # fmt: skip
            self.room.notify()
        return changed

    def repair_frames(self, link: Link) -> FrameRepair:
        """Make the room's frames the room's own again, by UUID: kill every other frame in the
        box, summon the missing, re-tag and refill the present, and remove the map items that
        popped frames dropped. Every step's reply is checked."""
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
            if not here:
                reply = self._send(link, cmd.summon_if_missing(uid, room.summon(idx)))
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
        for k, summon in enumerate(room.preload_commands()):
            uid = preload_uuid(room.name, k)
            done += summoned(self._send(link, cmd.summon_if_missing(uid, summon)))
        return done

    # -- blocks ---------------------------------------------------------------------------
    def audit_cycle(self) -> list[tuple[str, int]]:
        """One audit cycle: (command, expected count) — a fill (-1: its reply says how many
        blocks it changed) or a picture count (the number of tiles that show that picture)."""
        room = self.room
        items: list[tuple[str, int]] = [(c, -1) for c in room.reconciler.audit_commands()]
        shown = Counter(room.map_id(idx) for idx in range(room.board.size))
        items += [
            (cmd.count_frames_showing(room.geom, room.frame_kind, mid), shown.get(mid, 0))
            for mid in room.pictures
        ]
        items.append(
            (cmd.count_frames(room.geom, room.frame_kind, preload=True), len(room.pictures))
        )
        return items

    def audit_slice(self, link: Link, now: float, cycle: float) -> int:
        """Send the audit commands owed since the last slice, so the whole audit takes `cycle`
        seconds; returns how many blocks they changed. The commands are recomputed from the
        board each time, so a slice never writes back a block a move just changed; a picture
        count that is off starts a frame repair."""
        commands = self.audit_cycle()
        last = self.audit_last if self.audit_last is not None else now
        self.audit_last = now
        self.audit_credit = min(
            self.audit_credit + len(commands) * max(now - last, 0.0) / cycle, len(commands)
        )
        n = math.floor(self.audit_credit)
        if n <= 0:
            return 0
        self.audit_credit -= n
        changed = 0
        pictures_off = False
        for k in range(n):
            command, expected = commands[(self.audit_at + k) % len(commands)]
            reply = self._send(link, command)
            if expected < 0:
                changed += fill_changed(reply)
            elif (seen := whole_count(reply)) is not None and seen != expected:
                pictures_off = True  # a spoiled reply is asked again next cycle
        self.audit_at = (self.audit_at + n) % len(commands)
        if pictures_off:
            self.repair_frames(link)
        if changed:
            self.blocks_fixed += changed
            log.warning("room %s: block audit: %d block(s) put back", self.room.name, changed)
            self.room.notify()
        return changed
