"""`pipesctl start` and `pipesctl demo`: run rooms, against a server or the built-in sandbox."""

from __future__ import annotations

import logging
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
import yaml
from rich.console import Group
from rich.live import Live
from rich.text import Text

from controller.cli.common import guarded, setup_logging
from controller.cli.ui import board_text, err_console, use_colour
from controller.config import Config, ServerConfig, default_config_text, load_config, parse_config
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.link import CommandClient
from controller.runtime.pipes_room import PipesRoom

__all__ = ["register"]

log = logging.getLogger("controller.cli")

WorldOpt = Annotated[list[str], typer.Option("--world", "-w", help="Room name (repeatable).")]
ConfigOpt = Annotated[
    Path | None, typer.Option("--config", "-c", help="Configuration file (default: lookup).")
]
LogOpt = Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")]


def _sandbox_config(
    base: Config, worlds: list[str], port: int, password: str, state: Path
) -> Config:
    """The configuration with every chosen room moved onto a local sandbox server."""
    server = ServerConfig(host="127.0.0.1", port=port, password=password, minecraft_version="26.1")
    rooms = {name: base.worlds[name].model_copy(update={"server": "sandbox"}) for name in worlds}
    return base.model_copy(
        update={"servers": {"sandbox": server}, "worlds": rooms, "state_dir": str(state)}
    )


def _default_config() -> Config:
    return parse_config(yaml.safe_load(default_config_text()), "(built-in default)")


def _room_panel(room: PipesRoom) -> Group:
    state, play = room.state, room.play
    if state is None or play is None:
        return Group(Text(f"{room.name}: starting…"))
    elapsed = int(room.clock() - state.started_at)
    head = Text(
        f"{room.name}  puzzle #{state.puzzle_number}  water {play.wet_count}/{room.board.size}  "
        f"moves {state.moves}  time {elapsed // 60}:{elapsed % 60:02d}"
        + ("  SOLVED!" if play.solved else ""),
        style="bold",
    )
    return Group(head, board_text(room.board, play.classes))


@contextmanager
def _live_view(daemon: Daemon, enabled: bool) -> Iterator[None]:
    if not enabled:
        yield
        return
    rooms = list(daemon.rooms.values())
    with Live(Group(*(_room_panel(r) for r in rooms)), refresh_per_second=8) as live:

        def update(_: PipesRoom) -> None:
            live.update(Group(*(_room_panel(r) for r in rooms)))

        for room in rooms:
            room.listeners.append(update)
        yield


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: object) -> None:
        log.info("signal %s: stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return stop


def _progress(room_label: str) -> tuple[object, object]:
    from rich.progress import Progress

    bar = Progress(console=err_console(), transient=True)
    task = bar.add_task(f"building {room_label}", total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


def _run(daemon: Daemon, *, view: bool, stop: threading.Event) -> None:
    tty = use_colour(None) or view
    if tty:
        bar, update = _progress(", ".join(daemon.rooms))
        with bar:  # type: ignore[attr-defined]
            daemon.start(progress=update)  # type: ignore[arg-type]
    else:
        daemon.start()
    try:
        with _live_view(daemon, view):
            daemon.run(stop)
    finally:
        daemon.close()


def start(
    world: WorldOpt,
    config: ConfigOpt = None,
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Run against the built-in sandbox server.")
    ] = False,
    log_level: LogOpt = "info",
) -> None:
    """Build the rooms (or resume them) and keep them alive until SIGTERM/SIGINT."""
    setup_logging(log_level)
    if not sandbox:
        cfg = load_config(config)
        daemon = Daemon(cfg, world, connect=_connect)
        _run(daemon, view=False, stop=_stop_on_signals())
        return
    from controller.sandbox import Sandbox

    base = load_config(config) if config is not None else _default_config()
    missing = [w for w in world if w not in base.worlds]
    if missing:
        raise typer.BadParameter(f"no such world: {', '.join(missing)}", param_hint="--world")
    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-sandbox-") as tmp:
        log.info("sandbox RCON running on 127.0.0.1:%d", sb.port)
        cfg = _sandbox_config(base, world, sb.port, sb.password, Path(tmp))
        daemon = Daemon(cfg, world, connect=_connect)
        _run(daemon, view=use_colour(), stop=_stop_on_signals())


def _connect(name: str, server: ServerConfig) -> CommandClient:
    from controller.runtime.connect import connect_server

    return connect_server(name, server)


def demo(
    size: Annotated[int, typer.Option(help="Board size (tiles per side).", min=3, max=31)] = 9,
    rounds: Annotated[int, typer.Option(help="Puzzles the simulated player solves.", min=1)] = 1,
    click_every: Annotated[float, typer.Option(help="Seconds between the player's clicks.")] = 0.12,
    log_level: LogOpt = "warning",
) -> None:
    """The sandbox server, a room, and a simulated player who solves it while you watch."""
    from controller.sandbox import Sandbox

    setup_logging(log_level)
    base = _default_config()
    lobby = base.worlds["lobby"].model_copy(
        update={
            "size": (size, size),
            "on_win": base.worlds["lobby"].on_win.model_copy(update={"next_puzzle_after_s": 2.0}),
        }
    )
    base = base.model_copy(update={"worlds": {"lobby": lobby}})
    out = err_console()
    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-demo-") as tmp:
        out.print(f"sandbox RCON running on 127.0.0.1:{sb.port}")
        cfg = _sandbox_config(base, ["lobby"], sb.port, sb.password, Path(tmp))
        daemon = Daemon(cfg, ["lobby"], connect=_connect)
        room = daemon.rooms["lobby"]
        daemon.start()
        x0, y0, z0 = lobby.origin
        sb.join("Alex", (x0 + size / 2, y0 + 1, z0 + size / 2))
        stop = _stop_on_signals()
        solved = 0
        with _live_view(daemon, True):
            order = solution_order(room.board)
            puzzle = room.state.puzzle_number if room.state else 1
            next_at = time.monotonic()
            while not stop.is_set() and solved < rounds:
                daemon.step()
                state = room.state
                assert state is not None
                if state.puzzle_number != puzzle:
                    puzzle, order = state.puzzle_number, solution_order(room.board)
                if state.solved_at is not None:
                    solved = len(state.solves)
                    continue
                if time.monotonic() >= next_at:
                    idx = next_click(room.board, order)
                    if idx is not None:
                        i, j = idx % room.board.width, idx // room.board.width
                        sb.move("Alex", (x0 + i + 0.5, y0 + 1, z0 + j + 0.5))
                        sb.use_entity("Alex", room.uuids[idx])
                    next_at = time.monotonic() + click_every
                time.sleep(room.cfg.poll_interval_ms / 1000)
        daemon.close()
        best = room.state.solves[-1] if room.state and room.state.solves else None
        if best is not None:
            out.print(
                f"solved in {best.seconds:.1f} s with {best.moves} moves; "
                f"{daemon.links['sandbox'].sent} RCON commands sent"
            )


def register(app: typer.Typer) -> None:
    """Add `start` and `demo` to the main command."""
    app.command()(guarded(start))
    app.command()(guarded(demo))
