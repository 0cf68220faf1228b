"""One owner per room, anywhere: a lease kept in the world's scoreboard (docs/reliability.md).

The server is the single source of truth, so the claim lives there: `#pipes.<room>.owner` holds
the owner's id and `#pipes.<room>.renewed` the game time of its last renewal. Taking and renewing
are each one conditional command, so no other daemon's command can run between the check and
the write. A daemon that stops renewing (killed) loses the room `ticks` game ticks after its last
renewal; a clean stop gives the lease back at once. A daemon restarted on the same state
directory takes its dead predecessor's lease over at once: the id is kept in `<room>.owner`
next to the state, and holding the room's file lock proves that predecessor has ended.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.errors import RoomError
from controller.runtime.control import writing_into
from controller.runtime.link import Link
from controller.world import commands as cmd
from controller.world.replies import parse_game_time, parse_score

__all__ = [
    "LEASE_TICKS",
    "RENEW_EVERY_S",
    "RENEW_IDLE_S",
    "Lease",
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


class Lease:
    """This daemon's lease on one room."""

    def __init__(self, room: str, owner: int, ticks: int = LEASE_TICKS) -> None:
        self.room = room
        self.owner = owner
        self.ticks = ticks
        self.held = False

    def acquire(self, link: Link, previous: int | None = None) -> None:
        """Take the lease, or raise RoomError naming its owner and when it expires.

        `previous`: a predecessor known to be dead (see the module notes), whose lease is taken
        over without waiting for it to expire."""
        link.send(cmd.lease_objective())
        if previous is not None and previous != self.owner:
            link.send(cmd.lease_adopt(self.room, previous, self.owner))
        for command in cmd.lease_stale_mark(self.owner, self.ticks):
            link.send(command)
        for command in cmd.lease_take(self.room, self.owner):
            link.send(command)
        if not self.renew(link):
            raise RoomError(self.refusal(link))
        log.info("room %s: lease taken (owner id %d)", self.room, self.owner)

    def refusal(self, link: Link) -> str:
        """Why the room cannot be taken: the other owner's id and the lease's expiry."""
        owner_reply, renewed_reply, now_reply = (link.send(c) for c in cmd.lease_read(self.room))
        owner = parse_score(owner_reply)
        renewed, now = parse_score(renewed_reply), parse_game_time(now_reply)
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

    def renew(self, link: Link) -> bool:
        """Renew the lease (one command); False when another daemon owns it now."""
        self.held = parse_game_time(link.send(cmd.lease_renew(self.room, self.owner))) is not None
        return self.held

    def release(self, link: Link) -> None:
        """Give the lease up (a clean stop)."""
        if self.held:
            link.send(cmd.lease_release(self.room, self.owner))
            self.held = False


@contextmanager
def holding(link: Link, room: str, state_dir: Path) -> Iterator[Lease]:
    """Hold a room's lease for one offline admin action (repair, reset, remove while no local
    daemon holds the room's lock), so a daemon running the room from another folder or host
    is never raced."""
    lease = Lease(room, new_owner_id())
    lease.acquire(link, previous_owner(state_dir, room))
    try:
        yield lease
    finally:
        lease.release(link)
