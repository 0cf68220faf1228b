"""Turn detection for one server: which commands a poll sends, and how often.

Two modes (`servers.<name>.detect`):

- **trigger** — the companion data pack marks a player who uses a room frame, tags the frames
  within reach at that moment and counts the click; an idle poll reads the count (one command,
  no entity examined, nothing serialized). A changed count → the marked frames are read back
  once each, and the pack's `done` function clears the marks if that read was whole. When the
  count moved by more clicks than the read frames show turns (a player whose reach the marks do
  not cover), every frame is read at once, in the same poll.
- **scan** — no data pack: the frames within reach of any player are tagged (no serialization)
  and read back once each; nobody near the frames → one command.

Reach is the server's own rule: the frames close enough to a player's eyes for its game mode
(`controller.world.reach`; docs/turn-detection.md, "Reach").

Both poll at the rooms' `poll_interval_ms` only while a player is within `wake_distance` of a
room; otherwise one command every 2 s (docs/turn-detection.md, "Adaptive rate").

Trigger mode's poll asks for the click count only if the pack's `version` function answers, so
every poll also proves that the pack is loaded. A pack that disappears (disabled, removed and
reloaded, failed to load after an upgrade) is noticed at the next poll: scan mode from then on,
every frame read once; while a player is near, each presence check asks whether the pack is
back, and trigger mode resumes when it is (docs/turn-detection.md, "Pack liveness").
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
from controller.world.reach import marks
from controller.world.replies import FrameValue, parse_count, parse_frame_values

__all__ = ["Mode", "TurnDetector", "choose", "choose_mode", "pack_protocol", "PACK_ID"]

log = logging.getLogger("controller.runtime")

Mode = Literal["trigger", "scan"]
PACK_ID = "file/pipesctl"
SLOW_INTERVAL_S = 2.0  # nobody near: one command every 2 s (docs/turn-detection.md)
QUIET_INTERVAL_S = 0.1  # players near, a click within ACTIVE_S: ten polls a second
IDLE_NEAR_INTERVAL_S = 0.2  # players near, no click for ACTIVE_S: five polls a second
ACTIVE_S = 10.0  # after a click, the quiet cadence holds for this long
FAST_HOLD_S = 0.25  # after a click, polls at `poll_interval_ms` for this long
PROOF_INTERVAL_S = 1.0  # trigger mode: the poll that proves the pack is loaded, once a second
STUCK_ROUNDS = 4  # reads in a row the pack's `done` did not accept → clear the marks, read all
# A poll this early for the presence schedule is on time: the daemon sets its next poll from its
# own reading of the clock, a moment before the poll's own (a poll that found the schedule a hair
# ahead would send nothing, and the next command would come 4 s after the last instead of 2).
SCHEDULE_SLACK_S = 0.05


def choose_mode(link: Link, wanted: str, server: str) -> Mode:
    """The detection mode for a server (see `choose`)."""
    return choose(link, wanted, server)[0]


def choose(link: Link, wanted: str, server: str) -> tuple[Mode, int | None]:
    """The detection mode for a server and the protocol its data pack speaks (None: no pack
    answers). `scan` as configured, the pack asked once all the same: its marks carry the
    gestures in either mode. For `trigger` and `auto`, trigger when the data pack answers with
    a protocol the daemon reads (for `auto` also only when it is enabled). A clear log line says
    why not otherwise, and what an older pack lacks (docs/in-game.md, "Gestures")."""
    if wanted == "scan":
        protocol = pack_protocol(link)
        if protocol is not None and protocol >= turns.GESTURE_PROTOCOL:
            log.info(
                "server %s: scan mode; data pack %s answers protocol %d: locks and "
                "anticlockwise turns are read from its marks", server, PACK_ID, protocol,
            )  # fmt: skip
            if protocol < turns.UNDO_PROTOCOL:
                _no_undo(server, protocol)
            return "scan", protocol
        _no_gestures(server, protocol)
        _no_undo(server, protocol)
        return "scan", None
    if wanted == "trigger" or f"[{PACK_ID}" in link.send("datapack list enabled"):
        protocol = _pack_ready(link, server)
        if protocol is None:
            _no_gestures(server, None)
            _no_undo(server, None)
            return "scan", None
        return "trigger", protocol
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
    _no_gestures(server, None)
    _no_undo(server, None)
    return "scan", None


def _no_gestures(server: str, protocol: int | None) -> None:
    """Log that players can only turn clockwise on this server, and why."""
    found = "no data pack answers" if protocol is None else f"the data pack speaks {protocol}"
    log.warning(
        "server %s: locking tiles and anticlockwise turns need data pack %s protocol %d (%s); "
        "every click turns clockwise. Run `pipesctl install --world-dir <world>` and `reload`",
        server, PACK_ID, turns.GESTURE_PROTOCOL, found,
    )  # fmt: skip


def _no_undo(server: str, protocol: int | None) -> None:
    """Log that `/trigger pipes_undo` is refused on this server, and why."""
    found = "no data pack answers" if protocol is None else f"the data pack speaks {protocol}"
    log.warning(
        "server %s: /trigger pipes_undo needs data pack %s protocol %d, which notes who clicked "
        "a tile (%s); players asking are told so. Run `pipesctl install --world-dir <world>` "
        "and `reload`",
        server, PACK_ID, turns.UNDO_PROTOCOL, found,
    )  # fmt: skip


def pack_protocol(link: Link) -> int | None:
    """The protocol the pack's `version` function returns; None when it does not answer (a
    spoiled reply is asked once more)."""
    reply = link.send(turns.pack_version())
    version = turns.function_result(reply, "version")
    if version is None and not turns.function_unknown(reply, "version"):
        version = turns.function_result(link.send(turns.pack_version()), "version")  # spoiled
    return version


def _pack_ready(link: Link, server: str) -> int | None:
    """The protocol of the enabled pack when the daemon reads it (it makes sure the counter
    exists), else None."""
    version = pack_protocol(link)
    if version not in turns.PACK_PROTOCOLS:
        found = "no answer" if version is None else f"protocol {version}"
        log.warning(
            "server %s: data pack %s does not speak protocol %s (`%s`: %s; not installed, "
            "disabled, or from an older pipesctl); turns are detected by scanning frames near "
            "players. Run `pipesctl install --world-dir <world>` and `reload`",
            server, PACK_ID, " or ".join(map(str, turns.PACK_PROTOCOLS)), turns.pack_version(),
            found,
        )  # fmt: skip
        return None
    ensure_counter(link)
    log.info("server %s: data pack %s enabled: turns detected by trigger", server, PACK_ID)
    if version < turns.GESTURE_PROTOCOL:
        _no_gestures(server, version)
    if version < turns.UNDO_PROTOCOL:
        _no_undo(server, version)
    return version


def ensure_counter(link: Link) -> None:
    """Create the click counter if it is gone (the pack's load function makes it at load)."""
    make_objective, add_zero = turns.create_counter()
    if "Unknown scoreboard objective" in link.send(add_zero):
        link.send(make_objective)
        link.send(add_zero)


class TurnDetector:
    """Finds the frames players turned on one server."""

    def __init__(
        self,
        rooms: Sequence[Room],
        mode: Mode,
        clock: Clock = SYSTEM_CLOCK,
        protocol: int | None = None,
    ) -> None:
        self.rooms = list(rooms)
        self.mode = mode
        self.protocol = protocol  # the data pack's protocol; None: no pack answers
        self.clock = clock
        self.kinds = [r.frame_kind for r in self.rooms]
        self.by_name = {r.name: r for r in self.rooms}
        floors = [r.cfg.poll_reach for r in self.rooms if r.cfg.poll_reach is not None]
        self.marks = marks(max(floors, default=None))
        self.fast_interval = min(r.cfg.poll_interval_ms for r in self.rooms) / 1000.0
        wake = max(r.cfg.wake_distance for r in self.rooms)
        by_dimension: dict[str, list[Room]] = {}
        for room in self.rooms:
            by_dimension.setdefault(room.dimension, []).append(room)
        self.presence_commands = [
            in_dimension(turns.presence(turns.union_box([r.bounds() for r in rs], wake)), dim)
            for dim, rs in by_dimension.items()
        ]
        # asleep until a presence check finds a player; the first comes at the next poll, so
        # nothing is armed or shown for players before it (docs/turn-detection.md, "Adaptive rate")
        self.awake = False
        self.presence_checked = False
        self.awake_until = 0.0
        self.fast_until = 0.0  # polls at the fast interval until then (a click came)
        self.active_until = 0.0  # polls at the quiet interval until then, then the idle one
        self.proof_at = 0.0  # trigger mode: the next poll through the pack's `version`
        self.doubt = False
        self.slow_turn = 0
        self.clicks_read: int | None = None  # the count whose marks the pack last cleared
        self.clicks_seen: int | None = None  # every click up to this count has been read
        self.credit = 0  # turns read before their clicks were counted
        self.widened = 0  # reads of every frame for clicks the marked frames did not show
        self.count: int | None = None  # the click count the last poll read
        self.stuck = 0
        self.server = self.rooms[0].cfg.server if self.rooms else ""
        self.pack_lost = False  # trigger mode fell back to scan because the pack stopped answering
        self.counted_at_start = False  # the count was read before the rooms started (`baseline`)

    @property
    def gestures(self) -> bool:
        """Whether the server's pack leaves locks and anticlockwise turns on the frames (its
        protocol has them and it still answers); docs/in-game.md, "Gestures"."""
        return (
            not self.pack_lost
            and self.protocol is not None
            and self.protocol >= turns.GESTURE_PROTOCOL
        )

    @property
    def clickers(self) -> bool:
        """Whether the server's pack notes who clicked each frame (its protocol has it and it
        still answers), which `/trigger pipes_undo` needs (docs/in-game.md, "Undo")."""
        return (
            not self.pack_lost
            and self.protocol is not None
            and self.protocol >= turns.UNDO_PROTOCOL
        )

    @property
    def interval(self) -> float:
        """Seconds until the next poll: fast while clicks come, ten a second while players are
        near and clicked within ACTIVE_S, five a second while they are near and idle, one every
        2 s with nobody near (docs/turn-detection.md, "Adaptive rate")."""
        if not self.awake:
            return SLOW_INTERVAL_S if self.presence_checked else self.fast_interval
        now = self.clock.monotonic()
        if now < self.fast_until:
            return self.fast_interval
        quiet = QUIET_INTERVAL_S if now < self.active_until else IDLE_NEAR_INTERVAL_S
        return max(self.fast_interval, quiet)

    def clicked(self) -> None:
        """A click or a turn was seen: poll fast for the next FAST_HOLD_S, at the quiet
        cadence for the next ACTIVE_S."""
        now = self.clock.monotonic()
        self.fast_until, self.active_until = now + FAST_HOLD_S, now + ACTIVE_S

    def baseline(self, link: Link) -> bool:
        """Trigger mode, before the rooms start: read the click count. A room's start reads or
        writes every frame (a build, a reconcile), so every click counted so far shows in it
        and the first poll needs the count alone, not a read of every frame (a 128×128 room's
        16,384 at once). The marks of those clicks stay until the next click's read, whose
        `done` clears them with its own. False outside trigger mode or when the count cannot
        be read: the first poll then reads every frame."""
        if self.mode != "trigger":
            return False
        count = turns.parse_click_count(link.send(turns.click_count()))
        if not isinstance(count, int):
            return False
        self.count = self.clicks_read = self.clicks_seen = count
        self.credit = 0
        self.counted_at_start = True
        return True

    def check_presence(self, link: Link, now: float) -> bool:
        """Whether a player is within wake distance of a room (one command per dimension); the
        next check is due SLOW_INTERVAL_S after `now`, the poll's time (not the reply's: the
        daemon's next poll comes SLOW_INTERVAL_S after the poll began)."""
        found = any(parse_count(link.send(c)) > 0 for c in self.presence_commands)
        self.awake, self.presence_checked = found, True
        self.awake_until = now + SLOW_INTERVAL_S
        return found

    def poll(
        self, link: Link, *, everywhere: bool = False, marks: bool = False
    ) -> list[FrameValue]:
        """One poll: the frame values worth handing to the rooms (a room ignores a value equal to
        its settled rotation). `everywhere`: every frame (the first poll, a gap in scan mode, a
        doubtful reply); `marks`: in trigger mode, the pack's marks now, asleep or not (after a
        gap: a player may have clicked and walked away)."""
        if marks and self.mode == "trigger" and not everywhere and not self.doubt:
            seen, unexplained = self._poll_trigger(link)
            if unexplained and self.mode == "trigger" and not self.doubt:
                seen += self._widen(link)
            return seen
        if everywhere or self.doubt:
            self.doubt = False
            # Trigger mode takes the marks first (a read of the near frames and `done` when
            # the count moved), so the full read after it sees every turn made before.
            seen = self._poll_trigger(link)[0] if self.mode == "trigger" else []
            return seen + self._read_everywhere(link)
        now = self.clock.monotonic()
        if now >= self.awake_until - SCHEDULE_SLACK_S:
            if self.awake or self.mode == "scan":
                if not self.check_presence(link, now):
                    return []
                if self.pack_lost and self._pack_back(link):
                    return self.poll(link, everywhere=True)
            else:
                # Asleep in trigger mode: one command every 2 s, presence and clicks in turn.
                self.slow_turn ^= 1
                if self.slow_turn and not self.check_presence(link, now):
                    return []
                self.awake_until = now + SLOW_INTERVAL_S
        elif not self.awake:
            return []
        if self.mode == "trigger":
            seen, unexplained = self._poll_trigger(link)
            if unexplained and self.mode == "trigger" and not self.doubt:
                seen += self._widen(link)  # (a lost pack or stuck marks: all read next poll)
            if seen and not self.awake:
                self.awake = True  # a click means someone is near: poll fast until the check
            return seen
        return self._poll_scan(link)

    def _read_everywhere(self, link: Link) -> list[FrameValue]:
        """Every room frame whose rotation differs from its settled tag (each serialized once);
        every click counted so far is read with it."""
        seen: list[FrameValue] = []
        for command in poll_commands(self.kinds, "all", self.marks.creative):
            seen += parse_frame_values(link.send(command), byte=True)
        if self.mode == "trigger" and self.count is not None:
            self.clicks_seen, self.credit = self.count, 0
        return seen

    def _turns(self, seen: Sequence[FrameValue]) -> int:
        """How many clicks the values read show: each frame's steps past its settled rotation
        (a click adds one, modulo 8), once per frame; frames of no room here show none."""
        last = {(fv.room, fv.i, fv.j): fv.value for fv in seen}
        total = 0
        for (name, i, j), value in last.items():
            room = self.by_name.get(name)
            rest = room.settled(i, j) if room is not None else None
            if rest is not None:
                steps = turns.clicks(rest, value)
                gesture = self.gestures and steps in (turns.LOCK_STEPS, turns.ANTICLOCKWISE_STEPS)
                total += 1 if gesture else steps
        return total

    def _widen(self, link: Link) -> list[FrameValue]:
        """The pack counted clicks its marks did not cover: read every frame now."""
        self.widened += 1
        log.log(
            logging.INFO if self.widened == 1 else logging.DEBUG,
            "server %s: a counted click turned no frame the pack marked; every frame read "
            "(%d time(s) so far). Often: players whose entity_interaction_range is raised "
            "(set poll_reach), or a pack from an older pipesctl (`pipesctl install` and "
            "`reload`); docs/turn-detection.md, \"Reach\"",
            self.server, self.widened,
        )  # fmt: skip
        return self._read_everywhere(link)

    def _poll_scan(self, link: Link) -> list[FrameValue]:
        marked = "".join(link.send(c) for c in turns.mark_near_players(self.kinds, self.marks))
        # Read the tagged frames even when nothing was newly tagged: frames keep their tag when
        # an earlier poll's replies were spoiled by another RCON connection, and would never
        # count as newly tagged again (reading none replies nothing and serializes nothing).
        seen = parse_frame_values(link.send(turns.read_tagged(self.kinds, turns.NEAR)), byte=True)
        if "Added tag" not in marked and not seen:
            return []
        count = turns.tagged_count(link.send(turns.untag(self.kinds, turns.NEAR)))
        if count is None or len(seen) != count:  # a look-alike of a room frame is one more
            self.doubt = True  # a reply was cut or mixed: read every frame next time
        return seen

    def _poll_trigger(self, link: Link) -> tuple[list[FrameValue], bool]:
        """The marked frames read when the count moved, and whether that count holds more
        clicks than the read shows turns (then every frame is to be read too)."""
        # One command while nobody clicks. The marks stay in the world until the pack's `done`
        # finds that no click came since the count was read and that the read named every
        # marked frame; otherwise the count has moved and the next poll reads again. A spoiled
        # reply anywhere only repeats a step (docs/turn-detection.md, "Trigger mode").
        now = self.clock.monotonic()
        if now >= self.proof_at:
            # once a second the count is asked only if the pack's `version` answers: the proof
            # that the pack is loaded (a gone pack counts no click, so the polls in between
            # cannot miss one: its turns are read once the proof fails)
            self.proof_at = now + PROOF_INTERVAL_S
            reply = link.send(turns.click_poll())
        else:
            reply = link.send(turns.click_count())
        if reply == "":
            # The pack's `version` did not pass (the pack is gone), or the count failed (the
            # counter was removed), or another RCON connection emptied the reply: ask directly.
            version = link.send(turns.pack_version())
            if turns.function_unknown(version, "version"):
                self._lose_pack(link, "`function pipes:version`: unknown function")
                return [], False
            if turns.function_result(version, "version") not in turns.PACK_PROTOCOLS:
                return [], False  # spoiled too: the next poll asks again
            reply = link.send(turns.click_count())
        count = turns.parse_click_count(reply)
        if count == turns.MISSING:
            log.warning("the click counter %s was gone; made again, every frame read", turns.CLICKS)
            ensure_counter(link)
            self.doubt, self.clicks_read, self.clicks_seen, self.credit = True, None, None, 0
            return [], False
        if not isinstance(count, int):
            return [], False
        self.count = count
        if count == self.clicks_read:
            return [], False
        self.clicked()
        seen = parse_frame_values(link.send(turns.read_near()), byte=True)
        # Clicks counted since the last read that the frames read now do not show turned: a
        # clicker whose reach the marks missed (a raised attribute, an older pack's marks), or
        # a turn a room took in while settling a frame. The first case loses turns, so every
        # frame is read. More turns than clicks are clicks made after the count was read: the
        # next count holds them, already read (a credit for the next read, at most these turns).
        shown, credit = self._turns(seen), self.credit
        since = None if self.clicks_seen is None else count - self.clicks_seen
        unexplained = since is not None and since > shown + credit
        surplus = 0 if since is None or unexplained else shown + credit - since
        self.clicks_seen, self.credit = count, max(0, min(shown, surplus))
        # Every message counts, a frame named twice included: a look-alike of a room frame
        # (another UUID, the same name and tags) is marked and counted by the pack like any
        # frame; the room that the read names it to tells it from its own frame by UUID.
        reply = link.send(turns.done(count, len(seen)))
        if turns.function_result(reply, "done") == 1:
            self.clicks_read, self.stuck = count, 0
        elif turns.function_unknown(reply, "done"):
            self._lose_pack(link, "`function pipes:done`: unknown function")
        else:
            self.stuck += 1
            if self.stuck >= STUCK_ROUNDS:
                # A frame marked near that the read cannot name (its name was changed?) would
                # stop the pack from ever clearing: clear by hand, then read every frame.
                log.warning("frames marked %s could not be read back whole; all read", turns.NEAR)
                for command in turns.clear_marks():
                    link.send(command)
                self.doubt, self.clicks_read, self.stuck = True, count, 0
        return seen, unexplained

    def _lose_pack(self, link: Link, why: str) -> None:
        """The pack stopped answering: scan mode at once, every frame read at the next poll."""
        log.warning(
            "server %s: data pack %s no longer answers (%s): disabled, removed, or it failed to "
            "load after an upgrade; turns are detected by scanning frames near players until "
            'it is back. Fix: `datapack enable "%s"`, or `pipesctl install --world-dir <world>` '
            "and `reload`",
            self.server, PACK_ID, why, PACK_ID,
        )  # fmt: skip
        self.mode, self.doubt, self.pack_lost = "scan", True, True
        self.clicks_read, self.clicks_seen, self.credit, self.stuck = None, None, 0, 0
        link.send(turns.clear_marks()[1])  # the players' marks: nothing clears them in scan mode

    def _pack_back(self, link: Link) -> bool:
        """Whether the lost pack answers with the current protocol again (asked while a player
        is near, on the presence check's cadence); then trigger mode resumes."""
        reply = link.send(turns.pack_version())
        protocol = turns.function_result(reply, "version")
        if protocol not in turns.PACK_PROTOCOLS:
            return False
        self.protocol = protocol
        ensure_counter(link)
        log.warning(
            "server %s: data pack %s answers again; turns are detected by trigger", self.server,
            PACK_ID,
        )  # fmt: skip
        self.mode, self.pack_lost, self.clicks_read, self.stuck = "trigger", False, None, 0
        self.clicks_seen, self.credit = None, 0
        return True
