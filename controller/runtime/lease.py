"""One owner per room, anywhere: a lease kept in the world's scoreboard (docs/reliability.md).

The server is the single source of truth, so the claim lives there: `#pipes.<room>.owner` holds
the owner's id and `#pipes.<room>.renewed` the game time of its last renewal. Taking and renewing
are each one conditional command, so no other daemon's command can run between the check and
the write. A daemon that stops renewing (killed) loses the room `ticks` game ticks after its last
renewal; a clean stop gives the lease back at once. A daemon restarted on the same state
directory takes its dead predecessor's lease over at once: the id is kept in `<room>.owner`
next to the state, and holding the room's file lock proves that predecessor has ended.

Every world write of a room runs behind its lease's `Fence`: the write and the ownership check
are one command, so a daemon that lost the room (paused past its lease) changes nothing.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.errors import RoomError
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.control import writing_into
from controller.runtime.link import Link, in_dimension
from controller.world import commands as cmd
from controller.world.replies import parse_game_time, parse_score, score_missing

__all__ = [
    "LEASE_TICKS",
    "RENEW_EVERY_S",
    "RENEW_IDLE_S",
    "Fence",
    "Lease",
    "LeaseLost",
    "LeaseUnreadable",
    "PAUSE_SHARE",
    "READ_TRIES",
    "RECHECK_S",
    "new_owner_id",
    "holding",
    "owner_path",
    "previous_owner",
    "record_owner",
]

log = logging.getLogger("controller.runtime")

LEASE_TICKS = 400  # 20 s at 20 TPS: four missed renewals
RENEW_EVERY_S = 5.0
RENEW_IDLE_S = 10.0  # with nobody near the server's rooms: still two renewals per lease
PAUSE_SHARE = 0.75  # no renewal within this share of the lease: renew before the next write
READ_TRIES = 3  # reads of a lease whose replies came back spoiled
RECHECK_S = 1.0  # an empty reply to a write re-checks a lease renewed longer ago than this


def new_owner_id() -> int:
    """A random positive 31-bit id for this daemon process (scores are 32-bit ints)."""
    return random.SystemRandom().randrange(1, 2**31 - 1)


def owner_path(state_dir: Path, room: str) -> Path:
    """Where a daemon keeps the lease id it runs a room under."""
    return state_dir / f"{room}.owner"


def previous_owner(state_dir: Path, room: str) -> int | None:
    """The id the last daemon on this state directory ran the room under (None if unknown)."""
    try:
        text = owner_path(state_dir, room).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def record_owner(state_dir: Path, room: str, owner: int) -> None:
    """Remember this daemon's lease id (written whole: a temporary file, then a rename)."""
    path = owner_path(state_dir, room)
    tmp = path.with_name(f".{path.name}.tmp")
    with writing_into(state_dir):
        tmp.write_text(f"{owner}\n", encoding="utf-8")
        tmp.replace(path)


class LeaseLost(BaseException):
    """The room's lease is held by another owner: this daemon stops the room at once.

    A BaseException like `Stopping`, so that no room guard (`except Exception`) logs it as a
    room error and carries on writing: the daemon catches it where it runs a room."""

    def __init__(self, room: str, owner: int) -> None:
        super().__init__(f"room {room}: lease lost to owner {owner}")
        self.room = room
        self.owner = owner


class LeaseUnreadable(RoomError):
    """Every read of the lease's owner came back spoiled (another RCON connection)."""


class Lease:
    """This daemon's lease on one room.

    `held`: the last renewal (or read of the owner) found this daemon owning it. `lost_to`:
    another owner seen holding it (then the room is given up). `renewed_at`: the monotonic time
    of the last renewal known to have run, for noticing a pause (`due`)."""

    def __init__(
        self, room: str, owner: int, ticks: int = LEASE_TICKS, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.room = room
        self.owner = owner
        self.ticks = ticks
        self.clock = clock
        self.held = False
        self.lost_to: int | None = None
        self.renewed_at: float | None = None

    @property
    def seconds(self) -> float:
        """The lease's length in seconds at 20 ticks per second."""
        return self.ticks / 20

    def since_renewal(self) -> float:
        """Seconds since the last renewal known to have run (infinite before the first)."""
        if self.renewed_at is None:
            return float("inf")
        return self.clock.monotonic() - self.renewed_at

    def due(self) -> bool:
        """Whether the lease must be checked before the next write: no renewal known to have
        run within `PAUSE_SHARE` of its length (the process was paused, or a step took long)."""
        if self.renewed_at is None:
            return True
        return self.clock.monotonic() - self.renewed_at > PAUSE_SHARE * self.seconds

    def acquire(self, link: Link, previous: int | None = None) -> None:
        """Take the lease, or raise RoomError naming its owner and when it expires.

        `previous`: a predecessor known to be dead (see the module notes), whose lease is taken
        over without waiting for it to expire."""
        link.send(cmd.lease_objective())
        if previous is not None and previous != self.owner:
            link.send(cmd.lease_adopt(self.room, previous, self.owner))
        self.lost_to = None
        for _ in range(READ_TRIES):
            for command in cmd.lease_stale_mark(self.owner, self.ticks):
                link.send(command)
            for command in cmd.lease_take(self.room, self.owner):
                link.send(command)
            if self.renew(link):
                log.info("room %s: lease taken (owner id %d)", self.room, self.owner)
                return
            if self.lost_to is not None:
                raise RoomError(self.refusal(link, self.lost_to))
            # Gone again, or every reply spoiled: take once more.
        raise LeaseUnreadable(
            f"room {self.room}: its lease could not be read back (replies spoiled by another "
            "RCON connection?); try again"
        )

    def refusal(self, link: Link, owner: int) -> str:
        """Why the room cannot be taken: the other owner's id and the lease's expiry."""
        _, renewed_reply, now_reply = cmd.lease_read(self.room)
        renewed, now = parse_score(link.send(renewed_reply)), parse_game_time(link.send(now_reply))
        left = ""
        if renewed is not None and now is not None:
            until = renewed + self.ticks
            left = (
                f"; its lease expires at game tick {until}, in about "
                f"{max(until - now, 0) / 20:.0f} s unless renewed"
            )
        return (
            f"room {self.room} is run by another pipesctl (owner id {owner}){left}; stop that "
            "daemon first, or start this one after its lease expired"
        )

    def read_owner(self, link: Link) -> int | None:
        """The owner id the world holds now; None when the lease is gone (no score, or no
        objective). A spoiled reply is read again; LeaseUnreadable after `READ_TRIES`."""
        for _ in range(READ_TRIES):
            reply = link.send(cmd.lease_owner(self.room))
            owner = parse_score(reply)
            if owner is not None:
                return owner
            if score_missing(reply):
                return None
        raise LeaseUnreadable(f"room {self.room}: the lease's owner could not be read")

    def renew(self, link: Link) -> bool:
        """Renew the lease (one command); False when another daemon owns it now (`lost_to`) or
        it is gone from the world. A reply that is not the game time (empty, or spoiled by
        another RCON connection) is never taken as a refusal: the owner is read back, and if
        that cannot be read either, nothing is learnt (`held` stays as it was)."""
        if parse_game_time(link.send(cmd.lease_renew(self.room, self.owner))) is not None:
            return self._renewed()
        try:
            owner = self.read_owner(link)
        except LeaseUnreadable:
            return self.held
        if owner == self.owner:
            return self._renewed()  # its condition held, so the renewal ran: the reply was lost
        self.held = False
        if owner is not None:
            self.lost_to = owner
        return False

    def _renewed(self) -> bool:
        self.held = True
        self.lost_to = None
        self.renewed_at = self.clock.monotonic()
        return True

    def release(self, link: Link) -> None:
        """Give the lease up (a clean stop)."""
        if self.held:
            link.send(cmd.lease_release(self.room, self.owner))
            self.held = False


class Fence:
    """Every world write of a room, conditional on its lease in the same command.

    A write goes out as `execute if score #pipes.<room>.owner pipes_lease matches <me> … run
    <write>` (`commands.fenced`), so a daemon that lost the room (paused past its lease, another
    daemon took it) changes nothing even before it notices. Reads go out as they are. Before a
    write, a lease not renewed for `PAUSE_SHARE` of its length is renewed first; an empty reply
    to a write that always answers is a refusal, a spoiled reply, or the write's own failure
    (a fenced chain is forked, so vanilla drops its error message: docs/server-behaviour.md,
    "Errors while running"), and the lease is renewed at once unless it was within `RECHECK_S`
    (so failing writes cost at most one more command a second), or nobody is near the server's
    rooms (`idle`, set by the daemon): then the regular renewal, every `RENEW_IDLE_S`, finds a
    lost lease, and the refused write changed nothing meanwhile; so the guard's idle fills,
    which change nothing as a rule, cost no renewal each. Another owner there raises
    `LeaseLost`; after that the room sends nothing at all."""

    def __init__(self, lease: Lease) -> None:
        self.lease = lease
        self.idle = False  # nobody near the server's rooms: an empty reply renews nothing

    def send(self, link: Link, command: str, dimension: str) -> str:
        """Send one vanilla-form command of the room in its dimension, writes fenced."""
        lease = self.lease
        if lease.lost_to is not None:
            raise LeaseLost(lease.room, lease.lost_to)
        if not cmd.writes(command):
            return link.send(in_dimension(command, dimension))
        if lease.due():
            self.check(link)
        reply = link.send(cmd.fenced(command, lease.room, lease.owner, dimension))
        if (
            not reply
            and not self.idle
            and cmd.always_answers(command)
            and lease.since_renewal() >= RECHECK_S
        ):
            self.check(link)
        return reply

    def check(self, link: Link) -> None:
        """Renew the lease now; LeaseLost when another owner holds it."""
        lease = self.lease
        if not lease.renew(link) and lease.lost_to is not None:
            raise LeaseLost(lease.room, lease.lost_to)


@contextmanager
def holding(link: Link, room: str, state_dir: Path) -> Iterator[Lease]:
    """Hold a room's lease for one offline admin action (repair, reset, remove while no local
    daemon holds the room's lock), so a daemon running the room from another folder or host
    is never raced."""
    lease = Lease(room, new_owner_id())
    lease.acquire(link, previous_owner(state_dir, room))
    try:
        yield lease
    except LeaseLost as lost:
        raise RoomError(
            f"room {room}: lease lost to owner {lost.owner}; stopped (a daemon elsewhere runs "
            "the room)"
        ) from None
    finally:
        lease.release(link)
