"""Admin requests carried out: by the running daemon when one holds the room (so no second
RCON connection is opened: docs/server-behaviour.md, "Shared output buffer"), else directly.

While the daemon's health file says its server is unreachable, a request is refused at once
(`RconUnavailable`, exit 4) instead of waiting for a daemon that cannot carry it out. A request
the daemon has not taken when the command gives up is withdrawn, and it expires at that moment
anyway, so it never runs later (controller.runtime.control).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from controller.config import Config, ServerConfig
from controller.errors import RconUnavailable, RoomError, UsageError
from controller.rcon.protocol import MAX_COMMAND_BYTES
from controller.records.writer import OUTBOX_DIR, forget_room
from controller.runtime.clock import SYSTEM_CLOCK, Clock, utc_iso
from controller.runtime.control import (
    ensure_writable,
    health_path,
    is_running,
    read_health,
    read_response,
    response_path,
    wait_done,
    withdraw_request,
    writing_into,
)
from controller.runtime.control import write_request as leave_request
from controller.runtime.journal import journal_path
from controller.runtime.lease import Fence, holding
from controller.runtime.link import CommandClient
from controller.runtime.repairs import Repairs
from controller.runtime.requests import (
    REQUEST_TIMEOUT_S,
    RepairDone,
    RepairRequest,
    Request,
    Response,
    ShowRequest,
)
from controller.runtime.room import make_room
from controller.runtime.serverversion import server_link
from controller.runtime.state import archive_state, state_path

__all__ = [
    "Outcome",
    "carry_out",
    "repair_room",
    "remove_room",
    "ensure_not_running",
    "send_one",
    "RepairMode",
]

log = logging.getLogger("controller.runtime")

RepairMode = Literal["reconcile", "reset", "from_world"]

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
    timeout: float = REQUEST_TIMEOUT_S,
) -> Outcome:
    """Hand `request` to the daemon running `world`, or carry it out on the world itself.

    With a daemon: `RconUnavailable` at once when its health file says the server is down;
    otherwise the request waits at most `timeout` seconds, then is withdrawn (`RconUnavailable`
    when the server went down meanwhile, else `RoomError`)."""
    room_cfg = cfg.world(world)
    state_dir = Path(cfg.state_dir)
    if is_running(state_dir, world):
        down = _daemon_server_down(state_dir, world, room_cfg.server)
        if down is not None:
            raise down
        with writing_into(state_dir):
            response_path(state_dir, world).unlink(missing_ok=True)
        path = leave_request(state_dir, world, request, expires=clock.time() + timeout)
        done = withdrawn = False
        try:
            done = wait_done(path, timeout, clock)
        finally:
            if not done:  # given up (or interrupted): the request must not run later
                withdrawn = withdraw_request(path)
        if not done:
            down = _daemon_server_down(state_dir, world, room_cfg.server)
            if down is not None:
                raise down
            if withdrawn:
                raise RoomError(
                    f"the daemon running {world} did not take the request within {timeout:g} s;"
                    " it was withdrawn and will not run"
                )
            raise RoomError(
                f"the daemon running {world} took the request but did not finish it within "
                f"{timeout:g} s; it is still being carried out"
            )
        return Outcome(read_response(state_dir, world), by_daemon=True)
    room = make_room(world, room_cfg, state_dir, clock)
    if not room.load():
        raise RoomError(
            f"room {world} has no state (never built, or removed); "
            f"`pipesctl start -w {world}` builds it"
        )
    if not isinstance(request, ShowRequest):
        ensure_writable(state_dir)  # the room's state is saved, its lease recorded
    client = connect(room_cfg.server, cfg.servers[room_cfg.server])
    try:
        link, _ = server_link(client, room_cfg.server, cfg.servers[room_cfg.server].release)
        if isinstance(request, ShowRequest):
            room.load()
            return Outcome(room.handle_request(link, request), by_daemon=False)
        with holding(link, world, state_dir) as lease:
            room.fence = Fence(lease)
            repairs = room.start(link)
            if isinstance(request, RepairRequest):
                return Outcome(RepairDone(repairs), by_daemon=False)
            return Outcome(room.handle_request(link, request), by_daemon=False)
    finally:
        _close(client)


def _daemon_server_down(state_dir: Path, world: str, server: str) -> RconUnavailable | None:
    """The error to give when the health file of the daemon running `world` says its server is
    unreachable (call only while the daemon holds the room); None otherwise."""
    health = read_health(state_dir, world)
    if health is None or health.reachable:
        return None
    since = "" if health.since is None else f" since {utc_iso(health.since)}"
    return RconUnavailable(
        f"server {health.server or server} unreachable{since} "
        f"(the daemon running {world} keeps retrying)"
    )


def repair_room(
    cfg: Config,
    world: str,
    mode: RepairMode,
    *,
    connect: Connect,
    clock: Clock = SYSTEM_CLOCK,
) -> Repairs:
    """`repair --reset` (archive the state, build a new puzzle) or `repair --from-world` (rebuild
    the state from the frames, then reconcile); the plain repair goes through `carry_out`."""
    if mode == "reconcile":
        outcome = carry_out(cfg, world, RepairRequest(), connect=connect, clock=clock)
        if not isinstance(outcome.response, RepairDone):
            raise RoomError(f"room {world}: no answer to the repair request")
        return outcome.response.repairs
    ensure_not_running(cfg, world)
    room_cfg = cfg.world(world)
    state_dir = Path(cfg.state_dir)
    path = state_path(state_dir, world)
    ensure_writable(state_dir)  # the state is archived and written again
    if mode == "from_world" and not path.exists():
        raise RoomError(
            f"room {world} has no state file to repair; `pipesctl start -w {world}` builds it"
        )
    room = make_room(world, room_cfg, state_dir, clock)
    client = connect(room_cfg.server, cfg.servers[room_cfg.server])
    try:
        link, _ = server_link(client, room_cfg.server, cfg.servers[room_cfg.server].release)
        notes: list[str] = []
        with holding(link, world, state_dir) as lease:
            room.fence = Fence(lease)
            if mode == "from_world":
                state = room.state_from_world(link, _salvage(path))
                archived = archive_state(state_dir, world, clock.time(), suffix="-corrupt")
                state.save(path)
                notes.append(f"state rebuilt from the world; the old file is in {archived}")
            else:
                archived = archive_state(state_dir, world, clock.time(), suffix="-reset")
                if archived is not None:
                    notes.append(f"old state archived to {archived}")
            repairs = room.start(link)
        repairs.notes[:0] = notes
        return repairs
    finally:
        _close(client)


def _salvage(path: Path) -> dict[str, Any]:
    """Whatever counters of a broken state file still read (moves, puzzle number, solves, and
    the deal a restart goes back to)."""
    from controller.runtime.state import _FIELDS

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # ValueError: not UTF-8, not JSON
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, Any] = {}
    for key, parse, _ in _FIELDS:
        if key in ("puzzle_number", "moves", "started_at", "solves", "start") and key in data:
            try:
                out[key] = parse(data[key])
            except (KeyError, TypeError, ValueError):
                continue
    return out


def remove_room(
    cfg: Config, world: str, *, connect: Connect, clock: Clock = SYSTEM_CLOCK
) -> Path | None:
    """Clear a room no daemon runs from the world, with its score holder (and the shared
    objectives when no other room of the server is configured) and its control files;
    returns where its state was archived."""
    from controller.runtime.feedback import BEST, DAILY, NETWORK, RESET, SOLVES
    from controller.world import commands as cmd

    ensure_not_running(cfg, world)
    room_cfg = cfg.world(world)
    state_dir = Path(cfg.state_dir)
    room = make_room(world, room_cfg, state_dir, clock)
    others = [w for w, c in cfg.worlds.items() if w != world and c.server == room_cfg.server]
    ensure_writable(state_dir)  # the state is archived, the control files deleted
    client = connect(room_cfg.server, cfg.servers[room_cfg.server])
    try:
        link, _ = server_link(client, room_cfg.server, cfg.servers[room_cfg.server].release)
        with holding(link, world, state_dir) as lease:
            room.fence = fence = Fence(lease)
            archived = room.remove(link)
            fence.send(link, cmd.score_reset(f"#{world}", BEST), room.dimension)
            if not others:  # a removal of one that is not there is answered with an error
                shared = (DAILY, *NETWORK.values()) if cfg.records.url else (DAILY,)
                for name in (SOLVES, BEST, RESET, *shared):
                    fence.send(link, cmd.objective_remove(name), room.dimension)
    finally:
        _close(client)
    with writing_into(state_dir):
        for leftover in (
            state_dir / f"{world}.lock",
            state_dir / f"{world}.owner",
            health_path(state_dir, world),
            journal_path(state_dir, world),
            response_path(state_dir, world),
            state_dir / f"{world}.request.json",
        ):
            leftover.unlink(missing_ok=True)
        if forget_room(state_dir, world):
            log.warning(
                "room %s: solves not yet in the records store stay in %s/%s.jsonl until a "
                "daemon runs a room of that name again", world, OUTBOX_DIR, world,
            )  # fmt: skip
    return archived


def ensure_not_running(cfg: Config, world: str) -> None:
    """Refuse when a daemon runs the room (for commands that must not race it)."""
    cfg.world(world)
    if is_running(Path(cfg.state_dir), world):
        raise RoomError(f"room {world} is run by a daemon; stop it first")


def send_one(cfg: Config, server: str, command: str, *, connect: Connect) -> tuple[str, list[str]]:
    """Send one raw command; returns its reply and the rooms a daemon runs on that server
    (their replies can mix with this one on vanilla). A command longer than RCON carries is a
    usage error."""
    size = len(command.encode("utf-8"))
    if size > MAX_COMMAND_BYTES:
        raise UsageError(
            f"the command is {size} UTF-8 bytes; RCON carries at most {MAX_COMMAND_BYTES} "
            "(split it, or use a function in a datapack)"
        )
    state_dir = Path(cfg.state_dir)
    busy = [w for w, room in cfg.worlds.items() if room.server == server and is_running(
        state_dir, w)]  # fmt: skip
    client = connect(server, cfg.servers[server])
    try:
        return client.command(command), busy
    finally:
        _close(client)
