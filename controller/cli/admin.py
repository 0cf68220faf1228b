"""Admin commands: init, status, show, reset, repair, remove, rcon, hint.

Each parses its arguments, calls one runtime function and renders the answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import ConfigOpt, WorldOpt, YesOpt, fail, guarded
from controller.cli.ui import board_text, console
from controller.config import ServerConfig, default_config_text, load_config, locate_config
from controller.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from controller.runtime.link import CommandClient
    from controller.runtime.requests import Request, Response

__all__ = ["register"]


def _connect(name: str, server: ServerConfig) -> CommandClient:
    from controller.runtime.connect import connect_server

    return connect_server(name, server)


def _carry_out(config: Path | None, world: str, request: Request) -> tuple[Response | None, bool]:
    from controller.runtime.admin import carry_out

    outcome = carry_out(load_config(config), world, request, connect=_connect)
    return outcome.response, outcome.by_daemon


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


def status(
    world: Annotated[list[str] | None, typer.Option("--world", "-w", help="Room name.")] = None,
    config: ConfigOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Connection health, rooms, water, moves, time running, last solve; exit 0 when healthy
    (4 unreachable, 5 password refused, 1 otherwise unhealthy)."""
    from controller.runtime.status import room_health

    cfg = load_config(config)
    rooms = [room_health(cfg, name, _connect) for name in (world or list(cfg.worlds))]
    if as_json:
        typer.echo(json.dumps({"rooms": [r.to_json() for r in rooms]}, indent=2))
    else:
        for r in rooms:
            line = f"{r.world}: {'ok' if r.healthy else 'UNHEALTHY'}  server {r.server} "
            line += "reachable" if r.server_reachable else f"unreachable ({r.server_error})"
            line += "  daemon " + ("running" if r.daemon_running else "stopped")
            if r.built:
                last = r.last_solve
                line += (
                    f"  puzzle #{r.puzzle}  water {r.wet}/{r.total}  moves {r.moves}"
                    f"  running {int((r.running_s or 0) // 60)} min  solves {r.solves}"
                    + (f" (last {last['seconds']:.0f} s, {last['moves']} moves)" if last else "")
                )
            else:
                line += "  not built"
            typer.echo(line)
    worst = max((r.exit_code for r in rooms), default=ExitCode.OK)
    if worst != ExitCode.OK:
        raise typer.Exit(int(worst))


def show(
    world: WorldOpt,
    config: ConfigOpt = None,
    png: Annotated[
        Path | None, typer.Option("--png", help="Write the board as map pictures.")
    ] = None,
) -> None:
    """The live board read back from the server, as unicode pipes (or a PNG of the pictures)."""
    from controller.puzzle.flow import compute_flow
    from controller.runtime.requests import Rotations, ShowRequest
    from controller.runtime.state import RoomState, state_path

    cfg = load_config(config)
    cfg.world(world)
    state = RoomState.load(state_path(Path(cfg.state_dir), world))
    if state is None:
        raise fail(f"room {world} has no state yet; run `pipesctl start --world {world}`")
    answer, _ = _carry_out(config, world, ShowRequest())
    board = state.board.copy()
    if isinstance(answer, Rotations):
        for idx, value in answer.values.items():
            if 0 <= idx < board.size:
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


def reset(
    world: WorldOpt,
    seed: Annotated[int | None, typer.Option(help="Seed of the new puzzle.")] = None,
    config: ConfigOpt = None,
    yes: YesOpt = False,
) -> None:
    """A new puzzle in place."""
    from controller.runtime.requests import ResetDone, ResetRequest

    load_config(config).world(world)
    if not yes:
        typer.confirm(f"Replace the puzzle in room {world}?", abort=True)
    answer, by_daemon = _carry_out(config, world, ResetRequest(seed))
    if by_daemon:
        typer.echo("reset: carried out by the running daemon")
    if isinstance(answer, ResetDone):
        typer.echo(f"{world}: new puzzle #{answer.puzzle}")


def repair(world: WorldOpt, config: ConfigOpt = None) -> None:
    """Rebuild whatever in the world differs from the saved state; report what was fixed."""
    from controller.runtime.requests import RepairDone, RepairRequest

    answer, _ = _carry_out(config, world, RepairRequest())
    if not isinstance(answer, RepairDone):
        raise fail(f"room {world}: no answer to the repair request")
    typer.echo(f"{world}: {answer.repairs.describe()}")


def remove(world: WorldOpt, config: ConfigOpt = None, yes: YesOpt = False) -> None:
    """Clear the room's blocks and frames, release its chunks, archive its state."""
    from controller.runtime.admin import ensure_not_running, remove_room

    cfg = load_config(config)
    ensure_not_running(cfg, world)
    if not yes:
        typer.confirm(f"Remove room {world} from the world?", abort=True)
    archived = remove_room(cfg, world, connect=_connect)
    typer.echo(f"{world}: removed" + (f"; state archived to {archived}" if archived else ""))


def hint(world: WorldOpt, config: ConfigOpt = None) -> None:
    """Tell the players near the room one tile to turn."""
    from controller.runtime.requests import HintGiven, HintRequest

    answer, by_daemon = _carry_out(config, world, HintRequest())
    if by_daemon:
        typer.echo("hint: carried out by the running daemon")
    if isinstance(answer, HintGiven):
        if answer.tile is None:
            typer.echo("solved: no hint")
        else:
            i, j = answer.tile
            typer.echo(
                f"hint sent: column {i + 1}, row {j + 1}: turn it {answer.clicks} time(s) "
                f"to rotation {answer.rotation}"
            )


def rcon(
    command: Annotated[str, typer.Argument(help="The command to send.")],
    server: Annotated[str | None, typer.Option(help="Server name (default: the first).")] = None,
    config: ConfigOpt = None,
) -> None:
    """Send one command with the configured credentials and print the reply."""
    from controller.runtime.admin import send_one

    cfg = load_config(config)
    if not cfg.servers:
        raise fail("no servers configured", ExitCode.CONFIG)
    name = server or next(iter(cfg.servers))
    if name not in cfg.servers:
        raise UsageError(f"--server {name}: no such server (known: {', '.join(cfg.servers)})")
    reply, busy = send_one(cfg, name, command, connect=_connect)
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
