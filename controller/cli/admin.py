"""Admin commands: init, status, show, reset, repair, remove, rcon, hint."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from controller.cli.common import fail, guarded
from controller.cli.ui import board_text, console
from controller.config import Config, default_config_text, load_config, locate_config
from controller.errors import ExitCode, RconError
from controller.puzzle.flow import compute_flow
from controller.runtime.connect import connect_server
from controller.runtime.control import (
    health_path,
    is_running,
    read_json,
    response_path,
    wait_done,
    write_request,
)
from controller.runtime.link import Link
from controller.runtime.pipes_room import PipesRoom
from controller.runtime.state import RoomState, state_path
from controller.world import commands as cmd
from controller.world.replies import parse_count

__all__ = ["register"]

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", "-c", help="Configuration file (default: lookup).")
]
WorldOpt = Annotated[str, typer.Option("--world", "-w", help="Room name.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


def init(
    config: ConfigOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented configuration with a `lobby` room and safe defaults."""
    path = locate_config(config)
    if path.exists() and not force:
        raise fail(f"{path} exists; use --force to overwrite it", ExitCode.USAGE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(default_config_text(), encoding="utf-8")
    typer.echo(f"wrote {path}; set $RCON_PASSWORD (or password_file) and run "
               "`pipesctl maps install` before the server first starts")  # fmt: skip


def _room(cfg: Config, world: str) -> PipesRoom:
    if world not in cfg.worlds:
        raise fail(f"--world {world}: no such world in {cfg.path}", ExitCode.USAGE)
    return PipesRoom(world, cfg.worlds[world], Path(cfg.state_dir))


@contextmanager
def _link(cfg: Config, room: PipesRoom) -> Iterator[Link]:
    server = room.cfg.server
    client = connect_server(server, cfg.servers[server])
    try:
        yield Link(client, server)
    finally:
        client.close()


def _status_of(cfg: Config, name: str) -> dict[str, Any]:
    room = _room(cfg, name)
    state = RoomState.load(state_path(Path(cfg.state_dir), name))
    info: dict[str, Any] = {
        "world": name,
        "server": room.cfg.server,
        "daemon_running": is_running(Path(cfg.state_dir), name),
        "built": state is not None,
    }
    if state is not None:
        flow = compute_flow(state.board)
        last = state.solves[-1] if state.solves else None
        info.update(
            puzzle=state.puzzle_number,
            wet=flow.wet_count,
            total=state.board.size,
            moves=state.moves,
            running_s=round(time.time() - state.started_at, 1),
            solves=len(state.solves),
            last_solve=None if last is None else vars(last),
        )
    if info["daemon_running"]:
        # Ask the daemon, not the server: a second connection could swap replies with it.
        health = read_json(health_path(Path(cfg.state_dir), name)) or {}
        fresh = time.time() - float(health.get("at", 0)) < 15
        info["server_reachable"] = bool(fresh and health.get("reachable"))
        info["frames"] = info.get("total") if info["server_reachable"] else None
        if not info["server_reachable"]:
            info["server_error"] = "the daemon reports no connection" if fresh else "no report"
    else:
        try:
            with _link(cfg, room) as link:
                reply = link.send(cmd.count_frames(room.geom, room.frame_kind))
            info["server_reachable"] = True
            info["frames"] = parse_count(reply)
        except RconError as exc:
            info["server_reachable"] = False
            info["server_error"] = str(exc)
    info["healthy"] = bool(
        info["server_reachable"] and info["built"] and info["daemon_running"]
        and info.get("frames") == info.get("total")
    )  # fmt: skip
    return info


def status(
    world: Annotated[list[str] | None, typer.Option("--world", "-w")] = None,
    config: ConfigOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Connection health, rooms, water, moves, time running, last solve; exit 0 when healthy."""
    cfg = load_config(config)
    rooms = [_status_of(cfg, name) for name in (world or list(cfg.worlds))]
    if as_json:
        typer.echo(json.dumps({"rooms": rooms}, indent=2))
    else:
        for r in rooms:
            mark = "ok" if r["healthy"] else "UNHEALTHY"
            line = f"{r['world']}: {mark}  server {r['server']} "
            line += (
                "reachable" if r["server_reachable"] else f"unreachable ({r.get('server_error')})"
            )
            line += "  daemon " + ("running" if r["daemon_running"] else "stopped")
            if r["built"]:
                last = r["last_solve"]
                line += (
                    f"  puzzle #{r['puzzle']}  water {r['wet']}/{r['total']}  moves {r['moves']}"
                    f"  running {int(r['running_s'] // 60)} min  solves {r['solves']}"
                    + (f" (last {last['seconds']:.0f} s, {last['moves']} moves)" if last else "")
                )
            else:
                line += "  not built"
            typer.echo(line)
    if not all(r["healthy"] for r in rooms):
        raise typer.Exit(int(ExitCode.ERROR))


def show(
    world: WorldOpt,
    config: ConfigOpt = None,
    png: Annotated[
        Path | None, typer.Option("--png", help="Write the board as map pictures.")
    ] = None,
) -> None:
    """The live board read back from the server, as unicode pipes (or a PNG of the pictures)."""
    cfg = load_config(config)
    room = _room(cfg, world)
    state = RoomState.load(room.path)
    if state is None:
        raise fail(f"room {world} has no state yet; run `pipesctl start --world {world}`")
    board = state.board.copy()
    answer = _act(cfg, world, "show", quiet=True)
    if isinstance(answer, PipesRoom):
        with _link(cfg, room) as link:
            rotations = room.read_rotations(link)
    else:
        rotations = {int(k): int(v) for k, v in answer.get("rotations", {}).items()}
    for idx, value in rotations.items():
        board.rotations[idx] = value % 4
    flow = compute_flow(board)
    if png is not None:
        from controller.maps.png import board_png

        board_png(png, board, flow.classes)
        typer.echo(f"wrote {png}")
        return
    out = console()
    out.print(f"{world}: water {flow.wet_count}/{board.size}" + ("  solved" if flow.solved else ""))
    out.print(board_text(board, flow.classes), end="")


def _act(cfg: Config, world: str, action: str, quiet: bool = False, **extra: Any) -> Any:
    """Hand an action to the running daemon and return its answer (a dict); when no daemon
    runs the room, return the room for the caller to act on itself."""
    state_dir = Path(cfg.state_dir)
    if not is_running(state_dir, world):
        return _room(cfg, world)
    response_path(state_dir, world).unlink(missing_ok=True)
    path = write_request(state_dir, world, {"action": action, **extra})
    if not wait_done(path):
        raise fail(f"the daemon running {world} did not take the request in time")
    if not quiet:
        typer.echo(f"{action}: carried out by the running daemon")
    return read_json(response_path(state_dir, world), remove=True) or {}


def reset(
    world: WorldOpt,
    seed: Annotated[int | None, typer.Option(help="Seed of the new puzzle.")] = None,
    config: ConfigOpt = None,
    yes: YesOpt = False,
) -> None:
    """A new puzzle in place."""
    cfg = load_config(config)
    if not yes:
        typer.confirm(f"Replace the puzzle in room {world}?", abort=True)
    room = _act(cfg, world, "reset", seed=seed)
    if isinstance(room, PipesRoom):
        with _link(cfg, room) as link:
            room.start(link)
            room.reset(link, seed)
        typer.echo(f"{world}: new puzzle #{room.state.puzzle_number if room.state else '?'}")


def _repair_line(world: str, r: dict[str, Any]) -> str:
    counted = (
        "adopted_moves",
        "frames_summoned",
        "frames_fixed",
        "preloads_rebuilt",
        "blocks_fixed",
    )
    total = sum(int(r[k]) for k in counted) + int(r["rebuilt"])
    return (
        f"{world}: {total} repair(s): {r['adopted_moves']} turns adopted, "
        f"{r['frames_summoned']} frames summoned, {r['frames_fixed']} frames fixed, "
        f"{r['preloads_rebuilt']} preload frames rebuilt, {r['blocks_fixed']} blocks fixed"
        + ("; room rebuilt" if r["rebuilt"] else "")
    )


def repair(world: WorldOpt, config: ConfigOpt = None) -> None:
    """Rebuild whatever in the world differs from the saved state; report what was fixed."""
    cfg = load_config(config)
    answer = _act(cfg, world, "repair", quiet=True)
    if isinstance(answer, PipesRoom):
        with _link(cfg, answer) as link:
            answer = {"repairs": vars(answer.start(link))}
    typer.echo(_repair_line(world, answer["repairs"]))


def remove(world: WorldOpt, config: ConfigOpt = None, yes: YesOpt = False) -> None:
    """Clear the room's blocks and frames, release its chunks, archive its state."""
    cfg = load_config(config)
    if is_running(Path(cfg.state_dir), world):
        raise fail(f"room {world} is run by a daemon; stop it first")
    if not yes:
        typer.confirm(f"Remove room {world} from the world?", abort=True)
    room = _room(cfg, world)
    with _link(cfg, room) as link:
        archived = room.remove(link)
    typer.echo(f"{world}: removed" + (f"; state archived to {archived}" if archived else ""))


def hint(world: WorldOpt, config: ConfigOpt = None) -> None:
    """Tell the players near the room one tile to turn."""
    cfg = load_config(config)
    room = _act(cfg, world, "hint")
    if isinstance(room, PipesRoom):
        with _link(cfg, room) as link:
            room.start(link)
            found = room.hint(link)
        typer.echo("solved: no hint" if found is None else f"hint sent: tile {found[0]}")


def rcon(
    command: Annotated[str, typer.Argument(help="The command to send.")],
    server: Annotated[str | None, typer.Option(help="Server name (default: the first).")] = None,
    config: ConfigOpt = None,
) -> None:
    """Send one command with the configured credentials and print the reply."""
    cfg = load_config(config)
    if not cfg.servers:
        raise fail("no servers configured", ExitCode.CONFIG)
    name = server or next(iter(cfg.servers))
    if name not in cfg.servers:
        raise fail(f"--server {name}: no such server", ExitCode.USAGE)
    busy = [w for w, room in cfg.worlds.items() if room.server == name and is_running(
        Path(cfg.state_dir), w)]  # fmt: skip
    if busy:
        typer.echo(
            f"warning: a daemon runs {', '.join(busy)} on this server; on vanilla all RCON "
            "connections share one output buffer, so replies can mix",
            err=True,
        )
    client = connect_server(name, cfg.servers[name])
    try:
        typer.echo(client.command(command))
    finally:
        client.close()


def register(app: typer.Typer) -> None:
    """Add the admin commands to the main command."""
    for fn in (init, status, show, reset, repair, remove, hint, rcon):
        app.command()(guarded(fn))
