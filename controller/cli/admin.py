"""Admin commands: init, status, show, reset, repair, remove, rcon, hint.

Each parses its arguments, calls one runtime function and renders the answer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import (
    ConfigOpt,
    SeedOpt,
    WorldOpt,
    YesOpt,
    connect,
    fail,
    guarded,
    load,
)
from controller.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from controller.runtime.requests import Request, Response

__all__ = ["register"]


def _carry_out(config: Path | None, world: str, request: Request) -> tuple[Response | None, bool]:
    from controller.runtime.admin.actions import carry_out

    outcome = carry_out(load(config), world, request, connect=connect)
    return outcome.response, outcome.by_daemon


def init_target(explicit: Path | None) -> Path:
    """Where `init` writes: `--config`, else `$PIPESCTL_CONFIG`, else `./config/pipes.yaml`."""
    from controller.config import DEFAULT_CONFIG

    return explicit or Path(os.environ.get("PIPESCTL_CONFIG") or DEFAULT_CONFIG)


def init(
    config: ConfigOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented configuration with a `lobby` room and safe defaults (to --config,
    else $PIPESCTL_CONFIG, else ./config/pipes.yaml)."""
    from controller.config import default_config_text

    path = init_target(config)
    if path.exists() and not force:
        raise fail(f"{path} exists; use --force to overwrite it", ExitCode.USAGE)
    if path.is_dir():
        raise fail(f"cannot write {path}: it is a directory", ExitCode.ERROR)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(default_config_text(), encoding="utf-8")
    except FileExistsError:  # a file where a folder of the path should be
        raise fail(f"cannot write {path}: a part of its path is a file, not a folder") from None
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc.strerror or exc}") from None
    typer.echo(f"wrote {path}; set $RCON_PASSWORD (or password_file) and run "
               "`pipesctl maps install` before the server first starts")  # fmt: skip


def status(
    world: Annotated[
        list[str] | None, typer.Option("--world", "-w", metavar="NAME", help="Room name.")
    ] = None,
    config: ConfigOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Connection health, rooms, water, moves, time running, last solve; exit 0 when healthy
    (4 unreachable, 5 password refused, 1 otherwise unhealthy)."""
    from controller.runtime.admin.status import room_health

    cfg = load(config)
    rooms = [room_health(cfg, name, connect) for name in (world or list(cfg.worlds))]
    if as_json:
        typer.echo(json.dumps({"rooms": [r.to_json() for r in rooms]}, indent=2))
    else:
        for r in rooms:
            line = f"{r.world}: {'ok' if r.healthy else 'UNHEALTHY'}  server {r.server} "
            line += "reachable" if r.server_reachable else f"unreachable ({r.server_error})"
            if r.version is not None:
                line += f"  Minecraft {r.version} ({r.version_source})"
            line += "  daemon " + ("running" if r.daemon_running else "stopped")
            if r.built:
                last = r.last_solve
                progress = (
                    f"cells {r.cells_right}/{r.total}  strokes {r.moves} (par {r.par})"
                    if r.kind == "paint"
                    else f"water {r.wet}/{r.total}  moves {r.moves}"
                )
                if r.route is not None:
                    route = r.route
                    sink = " + sink" if route["sink"] else ""
                    progress = (
                        f"route {route['reached']}/{route['length']}{sink} "
                        f"(connectivity {route['connectivity']:.2f})  moves {r.moves}"
                    )
                line += (
                    f"  puzzle #{r.puzzle}  {progress}"
                    f"  running {int((r.running_s or 0) // 60)} min  solves {r.solves}"
                    + (f" (last {last['seconds']:.0f} s, {last['moves']} moves)" if last else "")
                )
            elif r.state_error:
                line += "  state unreadable"
            else:
                line += "  not built"
            typer.echo(line)
            if r.version_refused:
                typer.echo(f"  {r.version_refused}")
            elif r.version_how is not None and r.version_source == "configured":
                typer.echo(f"  version: {r.version_how}")
            if r.state_error:
                typer.echo(f"  {r.state_error}")
    worst = max((r.exit_code for r in rooms), default=ExitCode.OK)
    if worst != ExitCode.OK:
        raise typer.Exit(int(worst))


def show(
    world: WorldOpt,
    config: ConfigOpt = None,
    png: Annotated[
        Path | None, typer.Option("--png", metavar="FILE", help="Write the board as map pictures.")
    ] = None,
) -> None:
    """The live board read back from the server, as unicode pipes (or a PNG of the pictures);
    for a paint room its canvas beside its target."""
    from controller.cli.ui import board_text, console
    from controller.puzzle.closed import closed_tiles
    from controller.puzzle.flow import compute_flow
    from controller.puzzle.sink import route_progress
    from controller.runtime.feedback import route_text
    from controller.runtime.requests import Rotations, ShowRequest
    from controller.runtime.state import RoomState, state_path

    cfg = load(config)
    if cfg.world(world).kind == "paint":
        _show_paint(config, world, png)
        return
    state = RoomState.load(state_path(Path(cfg.state_dir), world))
    if state is None:
        raise fail(f"room {world} has no state yet; run `pipesctl start -w {world}`")
    answer, _ = _carry_out(config, world, ShowRequest())
    board = state.board.copy()
    if isinstance(answer, Rotations):
        for idx, value in answer.values.items():
            if 0 <= idx < board.size:
                board.rotations[idx] = value % 4
    flow = compute_flow(board)
    found = closed_tiles(board)
    closed = [t in found for t in range(board.size)]
    if png is not None:
        from controller.maps.png import board_png

        board_png(png, board, flow.classes, closed)
        typer.echo(f"wrote {png}")
        return
    out = console()
    route = route_progress(board, flow.classes, flow.axes) if board.mode == "sink" else None
    out.print(
        f"{world}: water {flow.wet_count}/{board.size}"
        + (f"  route {route_text(route)}" if route is not None else "")
        + (f"  closed {len(found)}" if found else "")
        + ("  solved" if flow.solved else "")
    )
    out.print(board_text(board, flow.classes, closed=closed), end="")


def _show_paint(config: Path | None, world: str, png: Path | None) -> None:
    from controller.cli.ui import canvas_text, console
    from controller.puzzle.paint import Canvas
    from controller.runtime.paint.state import PaintState
    from controller.runtime.requests import CanvasRead, ShowRequest
    from controller.runtime.state import state_path

    state = PaintState.load(state_path(Path(load(config).state_dir), world))
    if state is None:
        raise fail(f"room {world} has no state yet; run `pipesctl start -w {world}`")
    answer, _ = _carry_out(config, world, ShowRequest())
    canvas = state.canvas
    if isinstance(answer, CanvasRead) and len(answer.rows) == canvas.height:
        canvas = Canvas(canvas.width, canvas.height, answer.rows)
    target = state.puzzle.target
    if png is not None:
        from controller.maps.paintpng import paint_png

        paint_png(png, canvas, target)
        typer.echo(f"wrote {png}")
        return
    right = canvas.size - len(target.diff(canvas))
    out = console()
    out.print(
        f"{world}: cells {right}/{canvas.size}  strokes {state.moves} (par {state.puzzle.par})"
        + ("  solved" if right == canvas.size else "")
        + "  (canvas, then target)"
    )
    out.print(canvas_text(canvas, target), end="")


def reset(
    world: WorldOpt, seed: SeedOpt = None, config: ConfigOpt = None, yes: YesOpt = False
) -> None:
    """A new puzzle in place."""
    from controller.runtime.requests import ResetDone, ResetRequest

    load(config).world(world)
    if not yes:
        typer.confirm(f"Replace the puzzle in room {world}?", abort=True)
    answer, by_daemon = _carry_out(config, world, ResetRequest(seed))
    if by_daemon:
        typer.echo("reset: carried out by the running daemon")
    if isinstance(answer, ResetDone):
        typer.echo(f"{world}: new puzzle #{answer.puzzle}")


def repair(
    world: WorldOpt,
    config: ConfigOpt = None,
    from_world: Annotated[
        bool,
        typer.Option(
            "--from-world", help="Rebuild a broken state file from the frames in the world."
        ),
    ] = False,
    reset_state: Annotated[
        bool,
        typer.Option("--reset", help="Archive the state file and build a new puzzle."),
    ] = False,
) -> None:
    """Rebuild whatever in the world differs from the saved state; report what was fixed."""
    from controller.runtime.admin.actions import RepairMode, repair_room

    if from_world and reset_state:
        raise UsageError("--from-world and --reset exclude each other")
    mode: RepairMode = "from_world" if from_world else "reset" if reset_state else "reconcile"
    repairs = repair_room(load(config), world, mode, connect=connect)
    typer.echo(f"{world}: {repairs.describe()}")


def remove(world: WorldOpt, config: ConfigOpt = None, yes: YesOpt = False) -> None:
    """Clear the room's blocks and frames, its scores, release its chunks, archive its state."""
    from controller.runtime.admin.actions import ensure_not_running, remove_room

    cfg = load(config)
    ensure_not_running(cfg, world)
    if not yes:
        typer.confirm(f"Remove room {world} from the world?", abort=True)
    archived = remove_room(cfg, world, connect=connect)
    typer.echo(f"{world}: removed" + (f"; state archived to {archived}" if archived else ""))


def hint(world: WorldOpt, config: ConfigOpt = None) -> None:
    """Tell the players near the room one tile to turn (tiles are numbered column, row from 1
    at the north-west corner, as the players see them)."""
    from controller.runtime.requests import HintGiven, HintRequest

    answer, by_daemon = _carry_out(config, world, HintRequest())
    if by_daemon:
        typer.echo("hint: carried out by the running daemon")
    if not isinstance(answer, HintGiven):
        raise fail(f"room {world}: no answer to the hint request")
    if answer.tile is None:
        typer.echo(f"{world}: solved, no hint to give")
        return
    i, j = answer.tile
    what = (
        f"column {i + 1}, row {j + 1}: turn it {answer.clicks} time(s) "
        f"to rotation {answer.rotation}"
    )
    if answer.stroke is not None:
        axis, number = answer.stroke
        what = f"pull the brush of {'row' if axis == 'row' else 'column'} {number + 1}"
    if answer.heard:
        typer.echo(f"{world}: hint sent: {what}")
    else:
        typer.echo(f"{world}: no player near the room, nobody saw the hint ({what})")


def rcon(
    command: Annotated[
        list[str], typer.Argument(metavar="COMMAND...", help="The command (words are joined).")
    ],
    server: Annotated[
        str | None,
        typer.Option("--server", metavar="NAME", help="Server name (default: the first)."),
    ] = None,
    config: ConfigOpt = None,
) -> None:
    """Send one command with the configured credentials and print the reply
    (`pipesctl rcon say hi there`, like rcon-cli)."""
    from controller.runtime.admin.actions import send_one

    cfg = load(config)
    if not cfg.servers:
        raise fail("no servers configured", ExitCode.CONFIG)
    name = server or next(iter(cfg.servers))
    if name not in cfg.servers:
        raise UsageError(f"--server {name}: no such server (known: {', '.join(cfg.servers)})")
    reply, busy = send_one(cfg, name, " ".join(command), connect=connect)
    if busy:
        typer.echo(
            f"warning: a daemon runs {', '.join(busy)} on this server; on vanilla all RCON "
            "connections share one output buffer, so replies can mix",
            err=True,
        )
    typer.echo(reply)


def register(app: typer.Typer) -> None:
    """Add the admin commands to the main command."""
    for fn in (init, status, show, reset, repair, remove, hint, rcon):
        app.command()(guarded(fn))
