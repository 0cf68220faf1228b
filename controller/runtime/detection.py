"""Turn detection for one server: which commands a poll sends, and how often.

Two modes (`servers.<name>.detect`):

- **trigger** — the companion data pack marks a player who uses a room frame (and tags the
  frames within reach at that moment); an idle poll is one command that examines online players
  only and serializes nothing. After a click the marked frames are read back once each.
- **scan** — no data pack: the frames within reach of any player are tagged (no serialization)
  and read back once each; nobody near the frames → one command.

Both poll at the rooms' `poll_interval_ms` only while a player is within `wake_distance` of a
room; otherwise once a second, one command (docs/turn-detection.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.link import Link, in_dimension
from controller.runtime.room import Room
from controller.world import turns
from controller.world.commands import poll_commands
from controller.world.replies import FrameValue, parse_count, parse_frame_values

__all__ = ["Mode", "TurnDetector", "choose_mode", "PACK_ID"]

log = logging.getLogger("controller.runtime")

Mode = Literal["trigger", "scan"]
PACK_ID = "file/pipesctl"
SLOW_INTERVAL_S = 1.0


def choose_mode(link: Link, wanted: str, server: str) -> Mode:
    """The detection mode for a server: `trigger` or `scan` as configured, or for `auto`
    trigger when the data pack is enabled (a clear log line says why not otherwise)."""
    if wanted in ("trigger", "scan"):
        return "trigger" if wanted == "trigger" else "scan"
    if f"[{PACK_ID}" in link.send("datapack list enabled"):
        log.info("server %s: data pack %s enabled: turns detected by trigger", server, PACK_ID)
        return "trigger"
    if f"[{PACK_ID}" in link.send("datapack list available"):
        log.warning(
            "server %s: data pack %s is installed but disabled; turns are detected by scanning "
            'frames near players. Enable it with `datapack enable "%s"` (a running server '
            "reads new packs with `reload`)",
            server, PACK_ID, PACK_ID,
        )  # fmt: skip
    else:
        log.warning(
            "server %s: data pack %s not found; turns are detected by scanning frames near "
            "players. Install it with `pipesctl install --world-dir <world>` for near-zero cost",
            server, PACK_ID,
        )  # fmt: skip
    return "scan"


class TurnDetector:
    """Finds the frames players turned on one server."""

    def __init__(self, rooms: Sequence[Room], mode: Mode, clock: Clock = SYSTEM_CLOCK) -> None:
        self.rooms = list(rooms)
        self.mode = mode
        self.clock = clock
        self.kinds = [r.frame_kind for r in self.rooms]
        self.reach = max(r.cfg.poll_reach for r in self.rooms)
        self.fast_interval = min(r.cfg.poll_interval_ms for r in self.rooms) / 1000.0
        wake = max(r.cfg.wake_distance for r in self.rooms)
        by_dimension: dict[str, list[Room]] = {}
        for room in self.rooms:
            by_dimension.setdefault(room.dimension, []).append(room)
        self.presence_commands = [
            in_dimension(turns.presence(turns.union_box([r.bounds() for r in rs], wake)), dim)
            for dim, rs in by_dimension.items()
        ]
        self.awake = True  # until the first presence check says otherwise
        self.awake_until = 0.0
        self.pending_scan = False
        self.doubt = False
        self.slow_turn = 0

    @property
    def interval(self) -> float:
        """Seconds until the next poll."""
        return self.fast_interval if self.awake else SLOW_INTERVAL_S

    def check_presence(self, link: Link) -> bool:
        """Whether a player is within wake distance of a room (one command per dimension)."""
        found = any(parse_count(link.send(c)) > 0 for c in self.presence_commands)
        self.awake = found
        self.awake_until = self.clock.monotonic() + SLOW_INTERVAL_S
        return found

    def poll(self, link: Link, *, everywhere: bool = False) -> list[FrameValue]:
        """One poll: the frame values worth handing to the rooms (a room ignores a value equal to
        its settled rotation). `everywhere`: every frame (after a gap or a doubtful reply)."""
        if everywhere or self.doubt:
            self.doubt = False
            return self._read_everywhere(link)
        now = self.clock.monotonic()
        if now >= self.awake_until:
            if self.awake or self.mode == "scan":
                if not self.check_presence(link):
                    return []
            else:
                # Asleep in trigger mode: one command a second, presence and clicks in turn.
                self.slow_turn ^= 1
                if self.slow_turn and not self.check_presence(link):
                    return []
                self.awake_until = now + SLOW_INTERVAL_S
        elif not self.awake:
            return []
        if self.mode == "trigger":
            return self._poll_trigger(link)
        return self._poll_scan(link)

    def _read_everywhere(self, link: Link) -> list[FrameValue]:
        seen: list[FrameValue] = []
        for command in poll_commands(self.kinds, "all", self.reach):
            seen += parse_frame_values(link.send(command), byte=True)
        return seen

    def _poll_scan(self, link: Link) -> list[FrameValue]:
        marked = link.send(turns.mark_near_players(self.kinds, self.reach))
        # Read the tagged frames even when nothing was newly tagged: frames keep their tag when
        # an earlier poll's replies were spoiled by another RCON connection, and would never
        # count as newly tagged again (reading none replies nothing and serializes nothing).
        seen = parse_frame_values(link.send(turns.read_tagged(self.kinds, turns.NEAR)), byte=True)
        if "Added tag" not in marked and not seen:
            return []
        count = turns.tagged_count(link.send(turns.untag(self.kinds, turns.NEAR)))
        if count is None or len({(v.room, v.i, v.j) for v in seen}) != count:
            self.doubt = True  # a reply was cut or mixed: read every frame next time
        return seen

    def _poll_trigger(self, link: Link) -> list[FrameValue]:
        # Ask without removing the marks: a reply lost to another RCON connection is asked
        # again next poll. The marks go before the near frames move into the scan set, so a
        # click in between keeps its mark and its frames for the next poll.
        clicked = turns.someone_marked(link.send(turns.marked_players()))
        if not (clicked or self.pending_scan):
            return []
        if clicked:
            link.send(turns.take_clicks())
        for command in turns.promote_near(self.kinds):
            link.send(command)
        seen = parse_frame_values(link.send(turns.read_tagged(self.kinds, turns.SCAN)), byte=True)
        expected = turns.scan_count(link.send(turns.count_tagged(self.kinds, turns.SCAN)))
        if expected is not None and len({(v.room, v.i, v.j) for v in seen}) == expected:
            if expected:
                link.send(turns.untag(self.kinds, turns.SCAN))
            self.pending_scan = False
        else:
            self.pending_scan = True  # keep the scan set; read it again next poll
        return seen
