"""Admin requests carried out: by the running daemon when one holds the room (so no second
RCON connection is opened: docs/server-behaviour.md, "Shared output buffer"), else directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from controller.config import Config, ServerConfig
from controller.errors import RoomError
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.control import is_running, read_response, response_path, wait_done
from controller.runtime.control import write_request as leave_request
from controller.runtime.link import CommandClient, Link
from controller.runtime.requests import (
    RepairDone,
    RepairRequest,
    Request,
    Response,
    ShowRequest,
)
from controller.runtime.room import make_room

__all__ = ["Outcome", "carry_out", "remove_room", "ensure_not_running", "send_one"]

Connect = Callable[[str, ServerConfig], CommandClient]


@dataclass(frozen=True)
class Outcome:
    """A request's answer and who carried it out."""

    response: Response | None
    by_daemon: bool


def _close(client: CommandClient) -> None:
    close = getattr(client, "close", None)
    if callable(close):
        close()


def carry_out(
    cfg: Config,
    world: str,
    request: Request,
    *,
    connect: Connect,
    clock: Clock = SYSTEM_CLOCK,
    timeout: float = 15.0,
) -> Outcome:
    """Hand `request` to the daemon running `world`, or carry it out on the world itself."""
    room_cfg = cfg.world(world)
    state_dir = Path(cfg.state_dir)
    if is_running(state_dir, world):
        response_path(state_dir, world).unlink(missing_ok=True)
        path = leave_request(state_dir, world, request)
        if not wait_done(path, timeout, clock):
            raise RoomError(f"the daemon running {world} did not take the request in time")
        return Outcome(read_response(state_dir, world), by_daemon=True)
    room = make_room(world, room_cfg, state_dir, clock)
    client = connect(room_cfg.server, cfg.servers[room_cfg.server])
    try:
        link = Link(client, room_cfg.server)
        if isinstance(request, ShowRequest):
            if not room.load():
                raise RoomError(f"room {world} has no state yet; run `pipesctl start -w {world}`")
            return Outcome(room.handle_request(link, request), by_daemon=False)
        repairs = room.start(link)
        if isinstance(request, RepairRequest):
            return Outcome(RepairDone(repairs), by_daemon=False)
        return Outcome(room.handle_request(link, request), by_daemon=False)
    finally:
        _close(client)


def remove_room(
    cfg: Config, world: str, *, connect: Connect, clock: Clock = SYSTEM_CLOCK
) -> Path | None:
    """Clear a room no daemon runs from the world; returns where its state was archived."""
    ensure_not_running(cfg, world)
    room_cfg = cfg.world(world)
    room = make_room(world, room_cfg, Path(cfg.state_dir), clock)
    client = connect(room_cfg.server, cfg.servers[room_cfg.server])
    try:
        return room.remove(Link(client, room_cfg.server))
    finally:
        _close(client)


def ensure_not_running(cfg: Config, world: str) -> None:
    """Refuse when a daemon runs the room (for commands that must not race it)."""
    cfg.world(world)
    if is_running(Path(cfg.state_dir), world):
        raise RoomError(f"room {world} is run by a daemon; stop it first")


def send_one(cfg: Config, server: str, command: str, *, connect: Connect) -> tuple[str, list[str]]:
    """Send one raw command; returns its reply and the rooms a daemon runs on that server
    (their replies can mix with this one on vanilla)."""
    state_dir = Path(cfg.state_dir)
    busy = [w for w, room in cfg.worlds.items() if room.server == server and is_running(
        state_dir, w)]  # fmt: skip
    client = connect(server, cfg.servers[server])
    try:
        return client.command(command), busy
    finally:
        _close(client)
