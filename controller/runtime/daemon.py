"""The daemon: one link and one thread per server, every room on it, recovery after drops.

Servers run independently: a server that is down (its client in reconnect backoff) delays no
other server's polls. An error in one room's play, feedback or timers is logged and never stops
the other rooms or the daemon; a lost connection marks the server down until it is back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from controller.config import Config, ServerConfig
from controller.errors import RconError, RconUnavailable, RoomError
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.control import (
    RoomLock,
    finish_request,
    health_path,
    take_request,
    write_json,
    write_response,
)
from controller.runtime.detection import TurnDetector, choose_mode
from controller.runtime.lease import (
    LEASE_TICKS,
    RENEW_EVERY_S,
    RENEW_IDLE_S,
    Lease,
    new_owner_id,
    previous_owner,
    record_owner,
)
from controller.runtime.link import CommandClient, Link
from controller.runtime.room import Progress, Room, make_room

__all__ = ["Daemon", "Connect"]

log = logging.getLogger("controller.runtime")

Connect = Callable[[str, ServerConfig], CommandClient]


class Daemon:
    """Runs the configured rooms: start (build or reconcile), then poll until stopped."""

    def __init__(
        self,
        config: Config,
        worlds: list[str],
        *,
        connect: Connect,
        clock: Clock = SYSTEM_CLOCK,
        record: bool = False,
        lease_ticks: int = LEASE_TICKS,
    ) -> None:
        for world in worlds:
            config.world(world)  # an unknown name is a usage error that lists the known ones
        self.config = config
        self.clock = clock
        state_dir = Path(config.state_dir)
        self.state_dir = state_dir
        self.locks = [RoomLock(state_dir, name) for name in worlds]
        taken: list[RoomLock] = []
        try:
            for lock in self.locks:
                lock.acquire()
                taken.append(lock)
        except BaseException:
            for lock in taken:
                lock.release()
            raise
        self.rooms: dict[str, Room] = {
            name: make_room(name, config.worlds[name], state_dir, clock) for name in worlds
        }
        self.by_server: dict[str, list[Room]] = {}
        for room in self.rooms.values():
            self.by_server.setdefault(room.cfg.server, []).append(room)
        self._connect, self.record = connect, record
        self.links: dict[str, Link] = {}
        self.unreachable: dict[str, RconUnavailable] = {}
        try:
            for server in self.by_server:
                try:
                    self.connect(server)
                except RconUnavailable as exc:
                    self.unreachable[server] = exc
            if len(self.unreachable) == len(self.by_server):
                raise next(iter(self.unreachable.values()))
        except BaseException:
            self._close_links()
            for lock in self.locks:
                lock.release()
            raise
        for server, failure in self.unreachable.items():
            log.warning(
                "server %s: unreachable at start (%s); retrying in the background", server, failure
            )
        self.started: set[str] = set()
        self.down: set[str] = set(self.unreachable)
        self.polls = 0
        self.last_health: dict[str, float] = {}
        self.last_poll: dict[str, float] = {}
        self.next_poll: dict[str, float] = {}
        self.detectors: dict[str, TurnDetector] = {}
        self.owner = new_owner_id()
        self.leases = {name: Lease(name, self.owner, lease_ticks) for name in worlds}
        self.last_renew: dict[str, float] = {}
        self.lost: set[str] = set()  # rooms whose lease another daemon took over
        self._count = threading.Lock()

    @property
    def poll_interval(self) -> float:
        """Seconds between polls: the shortest configured interval."""
        return min(r.cfg.poll_interval_ms for r in self.rooms.values()) / 1000.0

    def connect(self, server: str) -> Link:
        """Open a server's connection (RconUnavailable when it cannot be reached)."""
        link = Link(self._connect(server, self.config.servers[server]), server, self.record)
        self.links[server] = link
        self.unreachable.pop(server, None)
        return link

    def start(self, progress: Progress | None = None) -> None:
        """Start every server reached so far (a server unreachable at construction is started by
        its thread in `run` once it answers)."""
        for server in self.by_server:
            if server in self.links:
                self.start_server(server, progress)
        self.write_health(every=0.0)

    def start_server(self, server: str, progress: Progress | None = None) -> None:
        """Choose the server's turn detection, take each room's lease, then build or reconcile
        every room (a room owned by another daemon is a RoomError)."""
        rooms = self.by_server[server]
        self.detector(server)
        for room in rooms:
            log.info("room %s: starting on server %s", room.name, server)
            previous = previous_owner(self.state_dir, room.name)
            self.leases[room.name].acquire(self.links[server], previous)
            record_owner(self.state_dir, room.name, self.owner)
            self.last_renew[room.name] = self.clock.monotonic()
            repairs = room.start(self.links[server], progress)
            status = room.status()
            if status is not None:
                log.info(
                    "room %s: ready, puzzle #%d (%dx%d), progress %d/%d, %s",
                    room.name,
                    status.puzzle,
                    room.cfg.width,
                    room.cfg.height,
                    status.progress,
                    status.total,
                    "built" if repairs.rebuilt else f"{repairs.total} repair(s)",
                )
        self.started.add(server)
        self.down.discard(server)

    def detector(self, server: str) -> TurnDetector:
        """The server's turn detector (its mode is chosen on first use, on the live server)."""
        if server not in self.detectors:
            wanted = self.config.servers[server].detect
            mode = choose_mode(self.links[server], wanted, server)
            self.detectors[server] = TurnDetector(self.by_server[server], mode, self.clock)
        return self.detectors[server]

    def active(self, server: str) -> list[Room]:
        """The server's rooms this daemon still owns."""
        return [r for r in self.by_server[server] if r.name not in self.lost]

    def renew_leases(self, server: str) -> None:
        """Renew each room's lease every few seconds; a room whose lease another daemon took
        over is no longer run (and never written to) by this one."""
        link = self.links[server]
        now = self.clock.monotonic()
        detector = self.detectors.get(server)
        every = RENEW_EVERY_S if detector is None or detector.awake else RENEW_IDLE_S
        for room in self.active(server):
            if now - self.last_renew.get(room.name, -every) < every:
                continue
            self.last_renew[room.name] = now
            lease = self.leases[room.name]
            if lease.renew(link):
                continue
            try:  # the lease vanished (objective removed, scores reset) or expired: retake it
                lease.acquire(link)
                log.warning("room %s: lease was gone from the world; taken again", room.name)
            except RoomError as exc:
                log.error("room %s: %s; this daemon stops running the room", room.name, exc)
                self.lost.add(room.name)

    def poll(self, server: str) -> int:
        """One poll of a server: read turned frames, apply each turn; returns how many.

        After a gap (a long write, a reconnect) every frame is read once: a player may have
        turned one and walked away meanwhile. Rooms configured `poll_scope: all` are always
        read whole.
        """
        link = self.links[server]
        detector = self.detector(server)
        rooms = {r.name: r for r in self.active(server)}
        now = self.clock.monotonic()
        last = self.last_poll.get(server)
        gap = last is None or now - last > 2 * detector.interval + 0.5
        everywhere = gap or all(r.cfg.poll_scope == "all" for r in rooms.values())
        self.last_poll[server] = now
        seen: dict[tuple[str, int, int], int] = {}
        for fv in detector.poll(link, everywhere=everywhere):
            seen[(fv.room, fv.i, fv.j)] = fv.value  # a frame may be named twice
        turned = 0
        for (name, i, j), value in seen.items():
            room = rooms.get(name)
            if room is not None and self._guarded(
                room, "turn", room.handle_turn, link, i, j, value
            ):
                turned += 1
        self.next_poll[server] = now + detector.interval
        with self._count:
            self.polls += 1
        return turned

    def _guarded(self, room: Room, what: str, action: Callable[..., object], *args: object) -> bool:
        """Run one room action; its result as a bool. Any error but the server's (a lost
        connection, which marks the server down) is logged and the room keeps running."""
        try:
            return bool(action(*args))
        except RconError:
            raise
        except Exception:  # noqa: BLE001 - one room's error never stops the daemon
            log.exception("room %s: %s failed; the room keeps running", room.name, what)
            return False

    def _room_timers(self, link: Link, room: Room, near: bool) -> None:
        """A room's admin request (if one is waiting) and its timers."""
        request = take_request(self.state_dir, room.name)
        if request is not None:
            try:
                answer = room.handle_request(link, request)
                if answer is not None:
                    write_response(self.state_dir, room.name, answer)
            finally:
                finish_request(self.state_dir, room.name)
        room.periodic(link, near)

    def step_server(self, server: str) -> None:
        """One round of a server: renew leases, recover if it was down, poll, run the room
        timers. Nothing raises out of it: the server is marked down on a transport error."""
        link = self.links[server]
        try:
            self.renew_leases(server)
            rooms = self.active(server)
            if server in self.down:
                for room in rooms:
                    self._guarded(room, "reconcile", room.reconcile, link)
                self.down.discard(server)
                log.info("server %s: back; rooms reconciled", server)
            if self.clock.monotonic() >= self.next_poll.get(server, 0.0):
                self.poll(server)
            near = self.detector(server).awake
            for room in rooms:
                self._guarded(room, "timers", self._room_timers, link, room, near)
        except RconUnavailable as exc:
            if server not in self.down:
                log.warning("server %s: connection lost (%s); retrying", server, exc)
            self.down.add(server)
            self.last_health[server] = 0.0
        except RconError as exc:
            log.error("server %s: %s", server, exc)
            self.down.add(server)
            self.last_health[server] = 0.0
        except Exception:  # noqa: BLE001 - a server's error never ends the daemon
            log.exception("server %s: poll failed; retrying", server)
        self.write_health(server)

    def step(self) -> None:
        """One round over every started server, one after another (tests and the demo)."""
        for server in self.by_server:
            if server in self.started:
                self.step_server(server)

    def write_health(self, server: str | None = None, every: float = 1.0) -> None:
        """Report each room's connection health for `pipesctl status`, `doctor` and the admin
        commands (at most every second per server; `server` None: every server). `since` keeps
        the time the server went down (or came back) across rewrites (control.health_record)."""
        from controller.runtime.control import health_record, read_health

        now = self.clock.time()
        for name in list(self.by_server) if server is None else [server]:
            if now - self.last_health.get(name, 0.0) < every:
                continue
            self.last_health[name] = now
            for room in self.by_server[name]:
                previous = read_health(self.state_dir, room.name)
                write_json(
                    health_path(self.state_dir, room.name),
                    health_record(
                        previous,
                        at=now,
                        server=name,
                        reachable=name not in self.down,
                        owner=self.owner,
                    ),
                )

    def reach(self, server: str, stop: threading.Event) -> bool:
        """Connect and start a server unreachable so far, retrying with backoff (1 s doubling
        to 30 s) until `stop`; False when stopped or when a room is owned elsewhere."""
        delay = 1.0
        while not stop.is_set():
            try:
                if server not in self.links:
                    self.connect(server)
                self.start_server(server)
                log.info("server %s: reached; its rooms run", server)
                return True
            except RconUnavailable as exc:
                log.warning("server %s: unreachable (%s); next try in %.0f s", server, exc, delay)
            except RoomError as exc:
                log.error("server %s: %s", server, exc)
                return False
            self.write_health(server, every=0.0)
            stop.wait(delay)
            delay = min(delay * 2, 30.0)
        return False

    def serve(self, server: str, stop: threading.Event) -> None:
        """A server's thread: reach it if need be, then step it until `stop` is set, waiting
        for its next poll."""
        if server not in self.started and not self.reach(server, stop):
            return
        while not stop.is_set():
            self.step_server(server)
            now = self.clock.monotonic()
            due = self.next_poll.get(server, now + self.poll_interval)
            delay = max(self.poll_interval, 1.0) if server in self.down else due - now
            stop.wait(min(1.0, max(0.0, delay)))

    def run(self, stop: threading.Event) -> None:
        """Serve every server in its own thread until `stop` is set; state is saved after every
        move, so stopping loses nothing."""
        threads = {
            server: threading.Thread(
                target=self.serve, args=(server, stop), name=f"pipesctl-{server}", daemon=True
            )
            for server in self.by_server
        }
        for thread in threads.values():
            thread.start()
        stop.wait()
        for server, thread in threads.items():
            thread.join(1.0)
            link = self.links.get(server)
            if thread.is_alive() and link is not None:  # in its client's backoff: wake it
                close = getattr(link.client, "close", None)
                if callable(close):
                    close()
            thread.join(10.0)

    def close(self) -> None:
        """Save every room, give the leases back, close the connections."""
        for room in self.rooms.values():
            room.save()
        for name, lease in self.leases.items():
            link = self.links.get(self.rooms[name].cfg.server)
            if link is None or not lease.held:
                continue
            try:
                lease.release(link)
            except RconError as exc:  # an unreachable server keeps the lease until it expires
                log.warning("room %s: lease not given back (%s)", name, exc)
        self._close_links()
        for lock in self.locks:
            lock.release()

    def _close_links(self) -> None:
        for link in self.links.values():
            close = getattr(link.client, "close", None)
            if callable(close):
                close()
