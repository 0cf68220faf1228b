"""`pipesctl start` and `pipesctl demo`: run rooms, against a server or the built-in sandbox."""

from __future__ import annotations

import logging
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import ConfigOpt, LogOpt, guarded, setup_logging
from controller.cli.ui import err_console, room_panel, use_colour
from controller.config import Config, ServerConfig, default_config, load_config

if TYPE_CHECKING:
    from controller.runtime.daemon import Daemon
    from controller.runtime.link import CommandClient
    from controller.runtime.room import Progress, Room

__all__ = ["register"]

log = logging.getLogger("controller.cli")

WorldsOpt = Annotated[list[str], typer.Option("--world", "-w", help="Room name (repeatable).")]


def _sandbox_config(
    base: Config, worlds: list[str], port: int, password: str, state: Path
) -> Config:
    """The configuration with every chosen room moved onto a local sandbox server."""
    server = ServerConfig(host="127.0.0.1", port=port, password=password, minecraft_version="26.1")
    rooms = {name: base.world(name).model_copy(update={"server": "sandbox"}) for name in worlds}
    return base.model_copy(
        update={"servers": {"sandbox": server}, "worlds": rooms, "state_dir": str(state)}
    )


@contextmanager
def _live_view(daemon: Daemon, enabled: bool) -> Iterator[None]:
    if not enabled:
        yield
        return
    from rich.console import Group
    from rich.live import Live

    rooms = list(daemon.rooms.values())

    def panels() -> Group:
        now = daemon.clock.time()
        return Group(*(room_panel(r, now) for r in rooms))

    with Live(panels(), refresh_per_second=8) as live:

        def update(_: Room) -> None:
            live.update(panels())

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


def _start_with_progress(daemon: Daemon) -> None:
    """Build or resume every room, with a progress bar on a terminal."""
    if not use_colour(None):
        daemon.start()
        return
    from rich.progress import Progress as Bar

    bar = Bar(console=err_console(), transient=True)
    task = bar.add_task(f"building {', '.join(daemon.rooms)}", total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    progress: Progress = update
    with bar:
        daemon.start(progress=progress)


def _run(daemon: Daemon, *, view: bool, stop: threading.Event) -> None:
    try:
        _start_with_progress(daemon)
        with _live_view(daemon, view):
            daemon.run(stop)
    finally:
        daemon.close()


def _connect(name: str, server: ServerConfig) -> CommandClient:
    from controller.runtime.connect import connect_server

    return connect_server(name, server)


def start(
    world: WorldsOpt,
    config: ConfigOpt = None,
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Run against the built-in sandbox server.")
    ] = False,
    log_level: LogOpt = "info",
) -> None:
    """Build the rooms (or resume them) and keep them alive until SIGTERM/SIGINT."""
    from controller.runtime.daemon import Daemon

    setup_logging(log_level)
    if not sandbox:
        _run(Daemon(load_config(config), world, connect=_connect), view=False,
             stop=_stop_on_signals())  # fmt: skip
        return
    from controller.sandbox import Sandbox

    base = load_config(config) if config is not None else default_config()
    for name in world:
        base.world(name)
    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-sandbox-") as tmp:
        log.info("sandbox RCON running on 127.0.0.1:%d", sb.port)
        cfg = _sandbox_config(base, world, sb.port, sb.password, Path(tmp))
        _run(Daemon(cfg, world, connect=_connect), view=use_colour(), stop=_stop_on_signals())


def demo(
    size: Annotated[int, typer.Option(help="Board size (tiles per side).", min=3, max=31)] = 9,
    rounds: Annotated[int, typer.Option(help="Puzzles the simulated player solves.", min=1)] = 1,
    click_every: Annotated[float, typer.Option(help="Seconds between the player's clicks.")] = 0.12,
    log_level: LogOpt = "warning",
) -> None:
    """The sandbox server, a room, and a simulated player who solves it while you watch."""
    from controller.runtime.daemon import Daemon
    from controller.runtime.demo import demo_config, play_demo
    from controller.runtime.pipes_room import PipesRoom
    from controller.sandbox import Sandbox

    setup_logging(log_level)
    base = demo_config(default_config(), size)
    out = err_console()
    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-demo-") as tmp:
        out.print(f"sandbox RCON running on 127.0.0.1:{sb.port}")
        cfg = _sandbox_config(base, ["lobby"], sb.port, sb.password, Path(tmp))
        daemon = Daemon(cfg, ["lobby"], connect=_connect)
        room = daemon.rooms["lobby"]
        assert isinstance(room, PipesRoom)
        try:
            daemon.start()
            with _live_view(daemon, True):
                last = play_demo(
                    sb, daemon, room, rounds=rounds, click_every=click_every,
                    stop=_stop_on_signals(),
                )  # fmt: skip
        finally:
            daemon.close()
        if last is not None:
            out.print(
                f"solved in {last.seconds:.1f} s with {last.moves} moves; "
                f"{daemon.links['sandbox'].sent} RCON commands sent"
            )


def register(app: typer.Typer) -> None:
    """Add `start` and `demo` to the main command."""
    app.command()(guarded(start))
    app.command()(guarded(demo))
