"""The daemon: one link per server, every room on it, a poll loop, recovery after drops."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from controller.config import Config, ServerConfig
from controller.errors import RconError, RconUnavailable
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.control import (
    RoomLock,
    finish_request,
    health_path,
    take_request,
    write_json,
    write_response,
)
from controller.runtime.link import CommandClient, Link
from controller.runtime.room import Progress, Room, make_room
from controller.world.commands import poll_commands
from controller.world.replies import parse_frame_values

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
        try:
            self.links: dict[str, Link] = {
                server: Link(connect(server, config.servers[server]), server, record)
                for server in self.by_server
            }
        except BaseException:
            for lock in self.locks:
                lock.release()
            raise
        self.down: set[str] = set()
        self.polls = 0
        self.last_health = 0.0
        self.last_poll: dict[str, float] = {}

    @property
    def poll_interval(self) -> float:
        """Seconds between polls: the shortest configured interval."""
        return min(r.cfg.poll_interval_ms for r in self.rooms.values()) / 1000.0

    def start(self, progress: Progress | None = None) -> None:
        """Build or reconcile every room."""
        for server, rooms in self.by_server.items():
            for room in rooms:
                log.info("room %s: starting on server %s", room.name, server)
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
        self.write_health(every=0.0)

    def poll_commands(self, server: str, everywhere: bool = False) -> list[str]:
        """The ≤ 4 poll commands covering every room of a server (`everywhere`: every frame,
        not only those near players)."""
        rooms = self.by_server[server]
        near_only = not everywhere and all(r.cfg.poll_scope == "near_players" for r in rooms)
        scope = "near_players" if near_only else "all"
        reach = max(r.cfg.poll_reach for r in rooms)
        return poll_commands([r.frame_kind for r in rooms], scope, reach)

    def poll(self, server: str) -> int:
        """One poll of a server: read turned frames, apply each turn; returns how many.

        After a gap (a long write, a reconnect) frames far from players are polled once too:
        a player may have turned one and walked away meanwhile.
        """
        link = self.links[server]
        rooms = {r.name: r for r in self.by_server[server]}
        now = self.clock.monotonic()
        last = self.last_poll.get(server)
        gap = last is None or now - last > 2 * self.poll_interval + 0.5
        self.last_poll[server] = now
        seen: dict[tuple[str, int, int], int] = {}
        for command in self.poll_commands(server, everywhere=gap):
            for fv in parse_frame_values(link.send(command), byte=True):
                seen[(fv.room, fv.i, fv.j)] = fv.value  # frames near two players come twice
        for (name, i, j), value in seen.items():
            room = rooms.get(name)
            if room is not None:
                room.handle_turn(link, i, j, value)
        self.polls += 1
        return len(seen)

    def step(self) -> None:
        """One round over every server: recover if it was down, poll, run the room timers."""
        for server, rooms in self.by_server.items():
            link = self.links[server]
            try:
                if server in self.down:
                    for room in rooms:
                        room.reconcile(link)
                    self.down.discard(server)
                    log.info("server %s: back; rooms reconciled", server)
                self.poll(server)
                for room in rooms:
                    request = take_request(self.state_dir, room.name)
                    if request is not None:
                        try:
                            answer = room.handle_request(link, request)
                            if answer is not None:
                                write_response(self.state_dir, room.name, answer)
                        finally:
                            finish_request(self.state_dir, room.name)
                    room.periodic(link)
            except RconUnavailable as exc:
                if server not in self.down:
                    log.warning("server %s: connection lost (%s); retrying", server, exc)
                self.down.add(server)
                self.last_health = 0.0
            except RconError as exc:
                log.error("server %s: %s", server, exc)
                self.down.add(server)
                self.last_health = 0.0
        self.write_health()

    def write_health(self, every: float = 1.0) -> None:
        """Report each room's connection health for `pipesctl status` (at most every second)."""
        now = self.clock.time()
        if now - self.last_health < every:
            return
        self.last_health = now
        for room in self.rooms.values():
            write_json(
                health_path(self.state_dir, room.name),
                {
                    "at": now,
                    "server": room.cfg.server,
                    "reachable": room.cfg.server not in self.down,
                },
            )

    def run(self, stop: threading.Event) -> None:
        """Poll until `stop` is set; state is saved after every move, so stopping loses nothing."""
        while not stop.is_set():
            started = self.clock.monotonic()
            self.step()
            delay = self.poll_interval if not self.down else max(self.poll_interval, 1.0)
            stop.wait(max(0.0, delay - (self.clock.monotonic() - started)))

    def close(self) -> None:
        """Save every room and close the connections."""
        for room in self.rooms.values():
            room.save()
        for link in self.links.values():
            close = getattr(link.client, "close", None)
            if callable(close):
                close()
        for lock in self.locks:
            lock.release()
