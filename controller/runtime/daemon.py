"""The daemon: one link and one thread per server, every room on it, recovery after drops.

Servers run independently: a server that is down (its client in reconnect backoff) delays no
other server's polls. An error in one room's play, feedback or timers is logged and never stops
the other rooms or the daemon; a lost connection marks the server down until it is back.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Protocol

from controller.config import Config, ServerConfig
from controller.errors import PipesError, RconError, RconUnavailable, RoomError
from controller.records.setup import server_name, target_of
from controller.records.writer import RecordsWriter
from controller.runtime.clock import SYSTEM_CLOCK, Clock, utc_iso
from controller.runtime.control import (
    RoomLock,
    finish_request,
    health_path,
    health_record,
    read_health,
    requeue_request,
    take_request,
    write_json,
    write_response,
)
from controller.runtime.daily import utc_date
from controller.runtime.detection import TurnDetector, choose
from controller.runtime.lease import (
    LEASE_TICKS,
    RENEW_EVERY_S,
    RENEW_IDLE_S,
    Fence,
    Lease,
    LeaseLost,
    new_owner_id,
    previous_owner,
    record_owner,
)
from controller.runtime.link import CommandClient, Link
from controller.runtime.observe import NULL_OBSERVER, Observer, RoomWatch, repair_counts
from controller.runtime.repairs import Repairs
from controller.runtime.requests import RepairDone, Request, ResetDone, ResetRequest
from controller.runtime.room import Progress, Room, RoomStatus, make_room
from controller.runtime.serverversion import ServerVersion, VersionUndetected, learn
from controller.runtime.state import state_path
from controller.stopping import Stop, Stopping, worker
from controller.versions import UnsupportedVersion

__all__ = ["Daemon", "Connect", "Notifier"]

log = logging.getLogger("controller.runtime")

Connect = Callable[[str, ServerConfig], CommandClient]

JOIN_S = 1.0  # after a stop, how long a server's thread gets to finish its step
RELEASE_S = 2.0  # how long a server gets to take a lease back at a stop
STALE_BEAT_S = 120.0  # a server thread silent this long is stuck: the watchdog stops


class Notifier(Protocol):
    """The service manager's side (controller/runtime/systemd.py): readiness and a watchdog."""

    watchdog_interval: float | None

    def ready(self, status: str) -> object: ...

    def status(self, text: str) -> object: ...

    def stopping(self) -> object: ...

    def watchdog(self) -> object: ...


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
        stop: Stop | None = None,
        notifier: Notifier | None = None,
        observer: Observer = NULL_OBSERVER,
    ) -> None:
        self.stop: Stop = stop if stop is not None else threading.Event()
        self.notifier = notifier
        self.observer = observer
        for world in worlds:
            config.world(world)  # an unknown name is a usage error that lists the known ones
        self.config = config
        self.clock = clock
        state_dir = Path(config.state_dir)
        self.state_dir = state_dir
        target = target_of(config)  # a database password that cannot be read: a ConfigError
        self.locks = [RoomLock(state_dir, name) for name in worlds]
        self.records = RecordsWriter(
            target, state_dir, today=lambda: utc_date(clock.time()),
            refresh_s=config.records.refresh_s,
        )  # fmt: skip
        taken: list[RoomLock] = []
        try:
            for lock in self.locks:
                lock.acquire()
                taken.append(lock)
            self.rooms: dict[str, Room] = {
                name: make_room(
                    name,
                    config.worlds[name],
                    state_dir,
                    clock,
                    self.records,
                    server_name(config, name),
                )  # fmt: skip
                for name in worlds
            }
        except BaseException:
            for lock in taken:
                lock.release()
            raise
        self.by_server: dict[str, list[Room]] = {}
        for room in self.rooms.values():
            self.by_server.setdefault(room.cfg.server, []).append(room)
            room.on_repairs = functools.partial(self.count_repairs, room)
        self.watches = {
            name: RoomWatch(room.cfg.server, name, observer) for name, room in self.rooms.items()
        }
        self._connect, self.record = connect, record
        self.links: dict[str, Link] = {}
        self.unreachable: dict[str, RconUnavailable] = {}
        self.versions: dict[str, ServerVersion] = {}
        self.generations: dict[str, object] = {}  # the client's connection count at detection
        self.refused: dict[str, PipesError] = {}  # servers whose version is not served
        try:
            for server in self.by_server:
                try:
                    self.connect(server)
                except RconUnavailable as exc:
                    self.unreachable[server] = exc
                except (UnsupportedVersion, VersionUndetected) as exc:
                    self.refuse(server, exc)
            serving = [s for s in self.by_server if s not in self.refused]
            if not serving:
                raise next(iter(self.refused.values()))
            if all(s in self.unreachable for s in serving):
                raise self.unreachable[serving[0]]
        except BaseException:
            self._close_links()
            self.records.close()
            for lock in self.locks:
                lock.release()
            raise
        self.records.start()
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
        self.leases = {name: Lease(name, self.owner, lease_ticks, clock) for name in worlds}
        self.last_renew: dict[str, float] = {}
        self.lost: set[str] = set()  # rooms whose lease another daemon took over: never sent to
        self.stuck: set[str] = set()  # servers whose thread did not finish its step at a stop
        self.beats: dict[str, float] = {}  # when each server's thread last went round
        self._count = threading.Lock()

    @property
    def poll_interval(self) -> float:
        """Seconds between polls: the shortest configured interval."""
        return min(r.cfg.poll_interval_ms for r in self.rooms.values()) / 1000.0

    def connect(self, server: str) -> Link:
        """Open a server's connection and learn its release (RconUnavailable when it cannot be
        reached; UnsupportedVersion or VersionUndetected, with the connection closed, when its
        release is not one pipesctl serves)."""
        client = self._connect(server, self.config.servers[server])
        link = Link(client, server, self.record, stop=self.stop, observer=self.observer)
        try:
            self.learn_version(server, link)
        except BaseException:
            _close(link)
            raise
        self.links[server] = link
        self.unreachable.pop(server, None)
        return link

    def learn_version(self, server: str, link: Link) -> ServerVersion:
        """Detect the server's release on this connection (docs/server-behaviour.md, "Versions:
        detecting the version"); the link follows it from now on."""
        version = learn(link, self.config.servers[server].release)
        self.versions[server] = version
        self.generations[server] = getattr(link.client, "connects", None)
        return version

    def refuse(self, server: str, exc: PipesError) -> None:
        """Run nothing on a server whose release pipesctl does not serve: one error line; the
        other servers keep going."""
        text = str(exc)
        lead = f"server {server}: "
        if not text.startswith(lead):
            text = lead + text
            exc = type(exc)(text)
        self.refused[server] = exc
        log.error("%s; its rooms are not run", text)

    def recheck_version(self, server: str) -> None:
        """After a reconnect (the client's connection count moved), learn the release again: a
        server that changed version between restarts is logged (old -> new), its turn
        detection chosen again and its rooms reconciled under the new release; one whose new
        release is not served is refused. Once per connection, never per poll."""
        link = self.links[server]
        if server in self.down and not self.stop.is_set():
            reconnect = getattr(link.client, "connect", None)
            if callable(reconnect):
                reconnect()  # RconUnavailable while the server is still down
                link.seen_connects()
        count = getattr(link.client, "connects", None)
        if count is None or count == self.generations.get(server):
            return
        before = self.versions.get(server)
        try:
            now = self.learn_version(server, link)
        except (UnsupportedVersion, VersionUndetected) as exc:
            self.generations[server] = count
            self.refuse(server, exc)
            return
        if before is None or before.release == now.release:
            return
        log.warning(
            "server %s: Minecraft %s -> %s since the last connection; its rooms follow %s now",
            server, before.release, now.release, now.release,
        )  # fmt: skip
        self.detectors.pop(server, None)  # the data pack and its detection are chosen again
        if server not in self.down:  # (a server coming back is reconciled in any case)
            for room in self.active(server):
                self._guarded(room, "reconcile", self.reconcile, room, link)

    def start(self, progress: Progress | None = None) -> None:
        """Start every server reached so far (a server unreachable at construction is started by
        its thread in `run` once it answers)."""
        for server in self.by_server:
            if server in self.links and server not in self.refused:
                self.start_server(server, progress)
        self.write_health(every=0.0)

    def start_server(self, server: str, progress: Progress | None = None) -> None:
        """Choose the server's turn detection, take each room's lease, then build or reconcile
        every room (a room owned by another daemon is a RoomError)."""
        rooms = self.active(server)
        detector = self.detector(server)
        if server not in self.last_poll:  # before the first poll: the starts read every frame
            detector.baseline(self.links[server])
        for room in rooms:
            log.info("room %s: starting on server %s", room.name, server)
            previous = previous_owner(self.state_dir, room.name)
            lease = self.leases[room.name]
            lease.acquire(self.links[server], previous)
            self.observer.lease(server, room.name, "held")
            record_owner(self.state_dir, room.name, self.owner)
            self.last_renew[room.name] = self.clock.monotonic()
            room.fence = Fence(lease)
            fresh = not state_path(self.state_dir, room.name).exists()
            try:
                repairs = room.start(self.links[server], progress)
            except LeaseLost as lost:
                self.lose(room.name, lost.owner)
                continue
            if fresh:  # a first build is no repair
                repairs = Repairs(**{**repairs.to_dict(), "rebuilt": False})
            self.count_repairs(room, repairs)
            status = room.status()
            self.watches[room.name].see(status, self.clock.time())
            if status is not None:
                log.info(
                    "room %s: ready, puzzle #%d (%dx%d), progress %d/%d, %s",
                    room.name,
                    status.puzzle,
                    room.cfg.width,
                    room.cfg.height,
                    status.progress,
                    status.total,
                    ("built" if repairs.rebuilt else f"{repairs.total} repair(s)")
                    + "".join(f"; {note}" for note in repairs.notes),
                )
        self.started.add(server)
        self.down.discard(server)

    def detector(self, server: str) -> TurnDetector:
        """The server's turn detector over the rooms this daemon still owns there (its mode is
        chosen on first use, on the live server)."""
        if server not in self.detectors:
            wanted = self.config.servers[server].detect
            mode, protocol = choose(self.links[server], wanted, server)
            self.detectors[server] = TurnDetector(
                self.active(server), mode, self.clock, protocol=protocol
            )
        return self.detectors[server]

    def active(self, server: str) -> list[Room]:
        """The server's rooms this daemon still owns."""
        return [r for r in self.by_server[server] if r.name not in self.lost]

    def lose(self, name: str, owner: int) -> None:
        """Give a room up whose lease another daemon holds: one log line, and from now on the
        room is sent nothing (no poll reads it, no timer or guard runs; its fence refuses every
        command). Once every room of a server is lost, that server is sent nothing at all."""
        if name in self.lost:
            return
        self.lost.add(name)
        lease = self.leases[name]
        lease.held, lease.lost_to = False, owner
        self.observer.lease(self.rooms[name].cfg.server, name, "lost")
        log.error(
            "room %s: lease lost to owner %d at %s; stopping this room",
            name, owner, utc_iso(self.clock.time()),
        )  # fmt: skip
        server = self.rooms[name].cfg.server
        detector = self.detectors.get(server)
        rooms = self.active(server)
        if detector is not None and rooms:
            self.detectors[server] = TurnDetector(
                rooms, detector.mode, self.clock, protocol=detector.protocol
            )

    def renew_leases(self, server: str) -> None:
        """Renew each room's lease every few seconds; a room whose lease another daemon took
        over is given up (`lose`). A renewal whose reply was spoiled is read back, never taken
        as a refusal (`Lease.renew`)."""
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
            if lease.lost_to is not None:
                self.lose(room.name, lease.lost_to)
                continue
            try:  # the lease vanished (objective removed, scores reset) or expired: retake it
                lease.acquire(link)
            except RoomError as exc:
                if lease.lost_to is not None:
                    self.lose(room.name, lease.lost_to)
                else:
                    log.warning("room %s: %s; tried again at the next renewal", room.name, exc)
                continue
            log.warning("room %s: lease was gone from the world; taken again", room.name)
            self.observer.lease(server, room.name, "held")
            # Its writes were refused meanwhile: read the room back and repair it.
            self._guarded(room, "reconcile", self.reconcile, room, link)

    def poll(self, server: str) -> int:
        """One poll of a server: read turned frames, apply each turn; returns how many.

        The first poll reads every frame; in scan mode so does the poll after a gap (a long
        write, a reconnect): a player may have turned one and walked away meanwhile. Trigger
        mode needs no such read: the pack marked every click, wherever its player is now, and
        a slow step at 128×128 would otherwise be followed by a slower one; its first poll
        reads the count alone when the count was read before the rooms' starts, which read
        every frame (`TurnDetector.baseline`). Rooms configured `poll_scope: all` are always
        read whole.
        """
        link = self.links[server]
        if any(self.leases[r.name].due() for r in self.active(server)):
            self.renew_leases(server)  # paused or a long step: check before the poll's marks
        rooms = {r.name: r for r in self.active(server)}
        if not rooms:
            return 0  # every room of the server was given up: nothing is sent
        detector = self.detector(server)
        now = self.clock.monotonic()
        last = self.last_poll.get(server)
        gap = last is None or now - last > 2 * detector.interval + 0.5
        # trigger mode: the pack's marks (and the first poll, the count read before the start)
        unmarked = (last is None and not detector.counted_at_start) or detector.mode == "scan"
        everywhere = (gap and unmarked) or all(r.cfg.poll_scope == "all" for r in rooms.values())
        self.last_poll[server] = now
        seen: dict[tuple[str, int, int], int] = {}
        for fv in detector.poll(link, everywhere=everywhere, marks=gap):
            seen[(fv.room, fv.i, fv.j)] = fv.value  # a frame may be named twice
        turned = 0
        for each in rooms.values():
            each.gestures = detector.gestures  # locks and anticlockwise need the pack's marks
            each.clickers = detector.clickers  # undo needs the pack's note of who clicked
        for (name, i, j), value in seen.items():
            room = rooms.get(name)
            if room is not None and self._guarded(
                room, "turn", room.handle_turn, link, i, j, value
            ):
                turned += 1
                self.observer.clicked(server, name)
        if turned:
            detector.clicked()
        self.observer.detection(server, detector.mode)
        self.next_poll[server] = now + detector.interval
        with self._count:
            self.polls += 1
        return turned

    def _guarded(self, room: Room, what: str, action: Callable[..., object], *args: object) -> bool:
        """Run one room action; its result as a bool. Any error but the server's (a lost
        connection, which marks the server down) is logged and the room keeps running; a room
        whose lease was lost (`LeaseLost`, raised by its fence) is given up, and a room given
        up runs nothing."""
        if room.name in self.lost:
            return False
        try:
            return bool(action(*args))
        except LeaseLost as lost:
            self.lose(room.name, lost.owner)
            return False
        except RconError:
            raise
        except Exception:  # noqa: BLE001 - one room's error never stops the daemon
            log.exception("room %s: %s failed; the room keeps running", room.name, what)
            return False
        finally:
            self.watches[room.name].see(room.status(), self.clock.time())

    def reconcile(self, room: Room, link: Link) -> Repairs:
        """Reconcile a room, its repairs counted."""
        repairs = room.reconcile(link)
        self.count_repairs(room, repairs)
        return repairs

    def count_repairs(self, room: Room, repairs: Repairs) -> None:
        """Tell the observer what a repair put right, by kind."""
        for kind, count in repair_counts(repairs).items():
            self.observer.repaired(room.cfg.server, room.name, kind, count)

    def _room_timers(self, link: Link, room: Room, near: bool) -> None:
        """A room's admin request (if one is waiting) and its timers."""
        request = take_request(self.state_dir, room.name)
        if request is not None:
            before = room.status()
            try:
                answer = room.handle_request(link, request)
                if isinstance(answer, RepairDone):
                    self.count_repairs(room, answer.repairs)
                if answer is not None:
                    write_response(self.state_dir, room.name, answer)
            except Stopping:
                self._cut_short(room, request, before)
                raise
            finally:
                finish_request(self.state_dir, room.name)
        room.periodic(link, near)

    def _cut_short(self, room: Room, request: Request, before: RoomStatus | None) -> None:
        """A request the stop interrupted. A reset that already has its new puzzle is done
        (the state, saved at the stop, holds it; the next start puts the world right): it is
        answered. Anything else is put back for the next daemon (hint, show and repair are safe
        to repeat), unless it expires first."""
        now = room.status()
        if isinstance(request, ResetRequest) and now is not None and now != before:
            write_response(self.state_dir, room.name, ResetDone(now.puzzle))
        else:
            requeue_request(self.state_dir, room.name)

    def step_server(self, server: str) -> None:
        """One round of a server: renew leases, recover if it was down, poll, run the room
        timers. Nothing raises out of it: the server is marked down on a transport error."""
        try:
            self._step_rooms(server)
        except LeaseLost as lost:  # a fenced command outside a room action
            self.lose(lost.room, lost.owner)
        except RconUnavailable as exc:
            if server not in self.down:
                log.warning("server %s: connection lost (%s); retrying", server, exc)
                if self.notifier is not None:
                    self.notifier.status(f"server {server} unreachable; retrying")
            self.down.add(server)
            self.last_health[server] = 0.0
        except RconError as exc:
            log.error("server %s: %s", server, exc)
            self.down.add(server)
            self.last_health[server] = 0.0
        except Exception:  # noqa: BLE001 - a server's error never ends the daemon
            log.exception("server %s: poll failed; retrying", server)
        self.write_health(server)

    def _step_rooms(self, server: str) -> None:
        """The rooms' part of a step; a room given up meanwhile is skipped, and once none is
        left the server is sent nothing more."""
        if not self.active(server) or server in self.refused:
            return
        self.recheck_version(server)
        if server in self.refused:
            return
        link = self.links[server]
        self.renew_leases(server)
        if server in self.down:
            for room in self.active(server):
                self._guarded(room, "reconcile", self.reconcile, room, link)
            self.down.discard(server)
            log.info("server %s: back; rooms reconciled", server)
            if self.notifier is not None:
                self.notifier.status(f"server {server} back; rooms running")
        if self.clock.monotonic() >= self.next_poll.get(server, 0.0):
            self.poll(server)
        if not self.active(server):
            return
        near = self.detector(server).awake
        for room in self.active(server):
            if room.fence is not None:
                room.fence.idle = not near  # (Fence: a lost lease is found by the renewal)
            self._guarded(room, "timers", self._room_timers, link, room, near)

    def step(self) -> None:
        """One round over every started server, one after another (tests and the demo)."""
        for server in self.by_server:
            if server in self.started and server not in self.refused:
                self.step_server(server)

    def write_health(self, server: str | None = None, every: float = 1.0) -> None:
        """Report each room's connection health for `pipesctl status`, `doctor` and the admin
        commands (at most every second per server; `server` None: every server). `since` keeps
        the time the server went down (or came back) across rewrites (control.health_record)."""
        now = self.clock.time()
        for name in list(self.by_server) if server is None else [server]:
            if now - self.last_health.get(name, 0.0) < every:
                continue
            self.last_health[name] = now
            version = self.versions.get(name)
            refused = self.refused.get(name)
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
                        version=None if version is None else version.to_json(),
                        refused=None if refused is None else str(refused),
                    ),
                )

    def reach(self, server: str) -> bool:
        """Connect and start a server unreachable so far, retrying with backoff (1 s doubling
        to 30 s) until the stop; False when stopped or when a room is owned elsewhere."""
        delay = 1.0
        while not self.stop.is_set():
            self.beats[server] = self.clock.monotonic()
            try:
                if server not in self.links:
                    self.connect(server)
                self.start_server(server)
                log.info("server %s: reached; its rooms run", server)
                return True
            except RconUnavailable as exc:
                log.warning("server %s: unreachable (%s); next try in %.0f s", server, exc, delay)
            except (UnsupportedVersion, VersionUndetected) as exc:
                self.refuse(server, exc)
                self.write_health(server, every=0.0)
                return False
            except RoomError as exc:
                log.error("server %s: %s", server, exc)
                return False
            self.write_health(server, every=0.0)
            self.stop.wait(delay)
            delay = min(delay * 2, 30.0)
        return False

    def serve(self, server: str) -> None:
        """A server's thread: reach it if need be, then step it until the stop, waiting for its
        next poll. A stop in the middle of a step (a build, a repair) ends it at its next
        command."""
        try:
            if server not in self.started and not self.reach(server) and server not in self.refused:
                return  # (a refused server's thread stays, idle, so the watchdog sees it alive)
            while not self.stop.is_set():
                self.beats[server] = self.clock.monotonic()
                if server in self.refused:  # its release is not served: send nothing more
                    self.write_health(server)
                    self.stop.wait(1.0)
                    continue
                if not self.active(server):  # every room given up: send nothing, until the stop
                    self.write_health(server)
                    self.stop.wait(1.0)
                    continue
                self.step_server(server)
                now = self.clock.monotonic()
                due = self.next_poll.get(server, now + self.poll_interval)
                delay = max(self.poll_interval, 1.0) if server in self.down else due - now
                self.stop.wait(min(1.0, max(0.0, delay)))
        except Stopping:
            return

    def use_stop(self, stop: Stop) -> None:
        """Stop on `stop` from now on (every link checks it before each command)."""
        self.stop = stop
        for link in self.links.values():
            link.stop = stop

    def run(self, stop: Stop | None = None) -> None:
        """Serve every server in its own thread until the stop; state is saved after every
        move, so stopping loses nothing. Waits are bounded: the service manager's watchdog is
        fed while every server thread goes round, and after the stop each thread gets
        `JOIN_S` to finish its step (one stuck on a silent server is left behind)."""
        if stop is not None:
            self.use_stop(stop)
        threads = {
            server: worker(functools.partial(self.serve, server), f"pipesctl-{server}")
            for server in self.by_server
            if server not in self.refused  # refused at start: nothing to serve
        }
        interval = self.notifier.watchdog_interval if self.notifier is not None else None
        while not self.stop.wait(min(interval or 1.0, 1.0)):
            if self.notifier is not None and interval is not None and self._alive(threads):
                self.notifier.watchdog()
        if self.notifier is not None:
            self.notifier.stopping()
        deadline = self.clock.monotonic() + JOIN_S
        for server, thread in threads.items():
            thread.join(max(0.0, deadline - self.clock.monotonic()))
            if thread.is_alive():  # waiting on a silent server, or in its client's backoff
                self.stuck.add(server)
                link = self.links.get(server)
                close = getattr(link.client, "close", None) if link is not None else None
                if callable(close):
                    close()

    def _alive(self, threads: dict[str, threading.Thread]) -> bool:
        """Every server thread is running and went round recently."""
        now = self.clock.monotonic()
        return all(
            thread.is_alive() and now - self.beats.get(server, now) < STALE_BEAT_S
            for server, thread in threads.items()
        )

    def close(self) -> None:
        """Save every room, give the leases back, close the connections.

        A server gets `RELEASE_S` to take each lease back; a server that is down, or whose
        thread was stuck at the stop, is not asked: its leases expire by themselves
        (`LEASE_TICKS` game ticks after the last renewal)."""
        for room in self.rooms.values():
            room.save()
        self.records.close()
        for name, lease in self.leases.items():
            server = self.rooms[name].cfg.server
            link = self.links.get(server)
            if link is None or not lease.held:
                continue
            if server in self.down or server in self.stuck or not _connected(link):
                log.warning(
                    "room %s: lease left to expire (server %s not answering); it ends "
                    "%.0f s after its last renewal",
                    name, server, lease.ticks / 20,
                )  # fmt: skip
                continue
            link.stop = None
            try:
                with _bounded(link, RELEASE_S):  # reply within RELEASE_S, no reconnecting
                    lease.release(link)
                self.observer.lease(server, name, "released")
            except RconError as exc:  # it expires by itself
                log.warning("room %s: lease not given back (%s); it expires by itself", name, exc)
                self.down.add(server)
        self._close_links()
        for lock in self.locks:
            lock.release()

    def _close_links(self) -> None:
        for link in self.links.values():
            _close(link)


def _close(link: Link) -> None:
    """Close the link's client (a fake without `close`: nothing)."""
    close = getattr(link.client, "close", None)
    if callable(close):
        close()


def _connected(link: Link) -> bool:
    """Whether the link's client holds a live connection (fakes without the notion: yes)."""
    return bool(getattr(link.client, "connected", True))


def _bounded(link: Link, seconds: float) -> AbstractContextManager[None]:
    """The client's `bounded` (the RCON client's; a fake without one: no bound)."""
    bounded = getattr(link.client, "bounded", None)
    return bounded(seconds) if callable(bounded) else nullcontext()
