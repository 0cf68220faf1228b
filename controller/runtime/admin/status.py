"""A room's health as `pipesctl status` reports it: state file, daemon, server, frames.

While a daemon runs the room the server is not asked (a second RCON connection could swap
replies with the daemon's: docs/server-behaviour.md, "Shared output buffer"); the daemon's health
file answers instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from controller.config import Config, ServerConfig, WorldConfig
from controller.errors import ExitCode, RconAuthError, RconError
from controller.runtime.clock import SYSTEM_CLOCK, Clock, utc_iso
from controller.runtime.control import Health, is_running, read_health
from controller.runtime.link import CommandClient
from controller.runtime.room import make_room
from controller.runtime.serverversion import VersionUndetected, server_link
from controller.runtime.state import RoomState, StateError, state_path
from controller.versions import UnsupportedVersion
from controller.world.replies import parse_count

__all__ = ["RoomHealth", "room_health", "HEALTH_FRESH_S"]

HEALTH_FRESH_S = 15.0  # a daemon's health report older than this is no report

Connect = Callable[[str, ServerConfig], CommandClient]


@dataclass
class RoomHealth:
    """Everything `status` says about one room."""

    world: str
    server: str
    daemon_running: bool
    built: bool
    kind: str = "pipes"
    server_reachable: bool = False
    server_error: str | None = None
    auth_refused: bool = False
    frames: int | None = None
    puzzle: int | None = None
    wet: int | None = None
    total: int | None = None
    moves: int | None = None
    running_s: float | None = None
    solves: int | None = None
    last_solve: dict[str, Any] | None = None
    state_error: str | None = None
    cells_right: int | None = None  # paint rooms: canvas cells that show the target
    par: int | None = None  # paint rooms: the fewest strokes of the current puzzle
    route: dict[str, Any] | None = None  # sink rooms: reached, length, sink, connectivity
    frames_expected: int | None = None  # paint rooms: brush frames (pipes: one per tile)
    version: str | None = None  # the server's release the room follows
    version_source: str | None = None  # `detected` or `configured`
    version_how: str | None = None  # e.g. "from `version`", "configured, the server agrees"
    version_refused: str | None = None  # why the daemon runs nothing on the server

    @property
    def healthy(self) -> bool:
        """Reachable, built, run by a daemon, every frame present, on a release it serves."""
        return bool(
            self.server_reachable
            and self.built
            and self.daemon_running
            and self.version_refused is None
            and self.frames == (self.frames_expected or self.total)
        )

    def take_version(self, version: dict[str, Any] | None) -> None:
        """Fill in the release from a `ServerVersion.to_json` record."""
        if version is None:
            return
        self.version = str(version.get("release"))
        self.version_source = str(version.get("source"))
        self.version_how = str(version.get("how"))

    @property
    def exit_code(self) -> ExitCode:
        """The exit code this room alone would give `status`."""
        if self.healthy:
            return ExitCode.OK
        if self.auth_refused:
            return ExitCode.AUTH
        if not self.server_reachable:
            return ExitCode.UNREACHABLE
        return ExitCode.ERROR

    @property
    def problem(self) -> str | None:
        """`unreachable`, `auth`, `unhealthy`, or None when healthy."""
        code = self.exit_code
        if code == ExitCode.OK:
            return None
        return {ExitCode.AUTH: "auth", ExitCode.UNREACHABLE: "unreachable"}.get(code, "unhealthy")

    def to_json(self) -> dict[str, Any]:
        """The `status --json` object (fields that do not apply are left out)."""
        out = {k: v for k, v in asdict(self).items() if v is not None or k == "frames"}
        out["healthy"] = self.healthy
        out["problem"] = self.problem
        return out


def room_health(
    cfg: Config, name: str, connect: Connect, clock: Clock = SYSTEM_CLOCK
) -> RoomHealth:
    """Compose a room's health from its state file, its lock, and the daemon or the server."""
    world = cfg.world(name)
    state_dir = Path(cfg.state_dir)
    if world.kind == "paint":
        health = _paint_health(name, world, state_dir, clock)
        return _reach_server(health, cfg, name, connect, clock)
    state_error = None
    try:
        state = RoomState.load(state_path(state_dir, name))
    except StateError as exc:
        state, state_error = None, str(exc)
    health = RoomHealth(name, world.server, is_running(state_dir, name), state is not None)
    health.state_error = state_error
    if state is not None:
        from controller.puzzle.flow import compute_flow
        from controller.puzzle.model import HOLE

        flow = compute_flow(state.board)
        last = state.solves[-1] if state.solves else None
        health.puzzle = state.puzzle_number
        health.wet = flow.wet_count
        health.total = state.board.size
        holes = state.board.shapes.count(HOLE)
        if holes:
            health.frames_expected = state.board.size - holes  # a hole has no frame
        if state.board.mode == "sink":
            from controller.puzzle.sink import route_progress

            route = route_progress(state.board, flow.classes, flow.axes)
            if route is not None:
                health.route = route.as_json()
        health.moves = state.moves
        health.running_s = round(clock.time() - state.started_at, 1)
        health.solves = len(state.solves)
        health.last_solve = None if last is None else vars(last)
    return _reach_server(health, cfg, name, connect, clock)


def _paint_health(name: str, world: WorldConfig, state_dir: Path, clock: Clock) -> RoomHealth:
    """A paint room's health from its state file."""
    from controller.runtime.paint.state import PaintState

    try:
        state, state_error = PaintState.load(state_path(state_dir, name)), None
    except StateError as exc:
        state, state_error = None, str(exc)
    health = RoomHealth(name, world.server, is_running(state_dir, name), state is not None, "paint")
    health.state_error = state_error
    health.frames_expected = world.width + world.height + 1  # a brush per row and column, clear
    if state is not None:
        last = state.solves[-1] if state.solves else None
        health.puzzle = state.puzzle_number
        health.total = state.canvas.size
        health.cells_right = state.canvas.size - len(state.puzzle.target.diff(state.canvas))
        health.par = state.puzzle.par
        health.moves = state.moves
        health.running_s = round(clock.time() - state.started_at, 1)
        health.solves = len(state.solves)
        health.last_solve = None if last is None else vars(last)
    return health


def _no_connection(report: Health | None) -> str:
    since = None if report is None else report.since
    return "the daemon reports no connection" + (
        "" if since is None else f" since {utc_iso(since)}"
    )


def _reach_server(
    health: RoomHealth, cfg: Config, name: str, connect: Connect, clock: Clock
) -> RoomHealth:
    """Fill in the server side: the daemon's health file, or one frame count over RCON."""
    world = cfg.world(name)
    state_dir = Path(cfg.state_dir)
    if health.daemon_running:
        report = read_health(state_dir, name)
        fresh = report is not None and clock.time() - report.at < HEALTH_FRESH_S
        health.server_reachable = bool(fresh and report is not None and report.reachable)
        if fresh and report is not None:
            health.take_version(report.version)
            health.version_refused = report.refused
        expected = health.frames_expected or health.total
        health.frames = expected if health.server_reachable else None
        if not health.server_reachable:
            health.server_error = _no_connection(report) if fresh else "no report"
        return health
    room = make_room(name, world, state_dir, clock)
    try:
        client = connect(world.server, cfg.servers[world.server])
        try:
            try:
                link, version = server_link(client, world.server, cfg.servers[world.server].release)
            except (UnsupportedVersion, VersionUndetected) as exc:
                health.server_reachable, health.version_refused = True, str(exc)
                return health
            health.take_version(version.to_json())
            reply = link.send(room.frame_count_command())
        finally:
            close = getattr(client, "close", None)
            if callable(close):
                close()
        health.server_reachable = True
        health.frames = parse_count(reply)
    except RconError as exc:
        health.server_error = str(exc)
        health.auth_refused = isinstance(exc, RconAuthError)
    return health
