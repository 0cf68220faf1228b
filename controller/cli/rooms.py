"""`pipesctl start` and `pipesctl demo`: run rooms, against a server or the built-in sandbox."""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import (
    ConfigOpt,
    LogFormat,
    LogFormatOpt,
    LogLevel,
    LogOpt,
    connect,
    guarded,
    load,
    logging_to_stderr,
)
from controller.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from controller.config import Config
    from controller.runtime.daemon import Daemon
    from controller.runtime.room import Progress, Room

__all__ = ["register"]

log = logging.getLogger("controller.cli")


class RoomKind(StrEnum):
    """The room kinds `demo` can show."""

    pipes = "pipes"
    paint = "paint"


class PipesMode(StrEnum):
    """The pipes room modes `demo` can show."""

    tree = "tree"
    sink = "sink"


WorldsOpt = Annotated[
    list[str], typer.Option("--world", "-w", metavar="NAME", help="Room name (repeatable).")
]


def _sandbox_config(
    base: Config, worlds: list[str], port: int, password: str, state: Path
) -> Config:
    """The configuration with every chosen room moved onto a local sandbox server."""
    from controller.config import ServerConfig

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

    from controller.cli.ui import console, room_panel

    rooms = list(daemon.rooms.values())
    out = console()

    def panels() -> Group:
        now = daemon.clock.time()
        return Group(*(room_panel(r, now, width=out.width) for r in rooms))

    with Live(panels(), console=out, refresh_per_second=8) as live:

        def update(_: Room) -> None:
            live.update(panels())

        for room in rooms:
            room.listeners.append(update)
        yield


def _stop_on_signals() -> threading.Event:
    """An event set by SIGTERM or SIGINT (Ctrl-C)."""
    stop = threading.Event()

    def handler(signum: int, frame: object) -> None:
        log.info("received %s; stopping", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return stop


PROGRESS_LOG_EVERY_S = 5.0


def log_progress(what: str, every: float = PROGRESS_LOG_EVERY_S) -> Progress:
    """A progress callback that logs a line at most every `every` seconds (and at the end)."""
    started = time.monotonic()
    last = started

    def update(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done < total and now - last < every:
            return
        last = now
        share = done / total if total else 1.0
        line = f"{what}: {share:.0%} ({done}/{total} commands)"
        if 0 < done < total:
            line += f", about {(now - started) * (total - done) / done:.0f} s left"
        log.info(line)

    return update


def _start_with_progress(daemon: Daemon) -> None:
    """Build or resume every room: a bar with percentage and time left on a terminal, a log
    line every few seconds otherwise."""
    from controller.cli.ui import err_console, use_colour

    what = f"building {', '.join(daemon.rooms)}"
    if not use_colour(None):
        daemon.start(progress=log_progress(what))
        return
    from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    bar = Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    )
    task = bar.add_task(what, total=None)

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


def start(
    world: WorldsOpt,
    config: ConfigOpt = None,
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Run against the built-in sandbox server.")
    ] = False,
    log_level: LogOpt = LogLevel.info,
    log_format: LogFormatOpt = LogFormat.text,
) -> None:
    """Build the rooms (or resume them) and keep them alive until SIGTERM or Ctrl-C, which
    stop cleanly (exit 0)."""
    with logging_to_stderr(log_level, log_format):
        _start(world, config, sandbox)


def _start(world: list[str], config: Path | None, sandbox: bool) -> None:
    from controller.cli.ui import use_colour
    from controller.config import default_config
    from controller.runtime.daemon import Daemon

    if not sandbox:
        cfg = load(config)
        _run(Daemon(cfg, world, connect=connect), view=False, stop=_stop_on_signals())
        return
    from controller.sandbox import Sandbox

    base = load(config) if config is not None else default_config()
    for name in world:
        base.world(name)
    import tempfile

    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-sandbox-") as tmp:
        log.info("sandbox RCON running on 127.0.0.1:%d", sb.port)
        cfg = _sandbox_config(base, world, sb.port, sb.password, Path(tmp))
        _run(Daemon(cfg, world, connect=connect), view=use_colour(), stop=_stop_on_signals())


def demo(
    size: Annotated[int, typer.Option(help="Board size (tiles per side).", min=3, max=31)] = 9,
    rounds: Annotated[int, typer.Option(help="Puzzles the simulated player solves.", min=1)] = 1,
    click_every: Annotated[float, typer.Option(help="Seconds between the player's clicks.")] = 0.12,
    log_level: LogOpt = LogLevel.warning,
    kind: Annotated[
        RoomKind, typer.Option("--kind", help="The room kind: pipes or paint.")
    ] = RoomKind.pipes,
    mode: Annotated[
        PipesMode, typer.Option("--mode", help="A pipes room's mode: tree or sink.")
    ] = PipesMode.tree,
) -> None:
    """The sandbox server, a room, and a simulated player who solves it while you watch
    (SIGTERM or Ctrl-C end it early with exit code 130)."""
    if kind is RoomKind.paint and mode is not PipesMode.tree:
        raise UsageError("--mode applies to pipes rooms, not --kind paint")
    with logging_to_stderr(log_level):
        _demo(size, rounds, click_every, kind.value, mode.value)


def _demo(
    size: int, rounds: int, click_every: float, kind: str = "pipes", mode: str = "tree"
) -> None:
    from controller.cli.ui import err_console
    from controller.config import default_config
    from controller.runtime.daemon import Daemon
    from controller.runtime.demo import demo_config, play_demo, play_paint_demo
    from controller.runtime.paint_room import PaintRoom
    from controller.runtime.pipes_room import PipesRoom
    from controller.sandbox import Sandbox

    base = demo_config(default_config(), size, kind, mode)
    out = err_console()
    stop = _stop_on_signals()
    import tempfile

    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-demo-") as tmp:
        out.print(f"sandbox RCON running on 127.0.0.1:{sb.port}")
        cfg = _sandbox_config(base, ["lobby"], sb.port, sb.password, Path(tmp))
        daemon = Daemon(cfg, ["lobby"], connect=connect)
        room = daemon.rooms["lobby"]
        try:
            daemon.start()
            with _live_view(daemon, True):
                if isinstance(room, PaintRoom):
                    last = play_paint_demo(
                        sb, daemon, room, rounds=rounds, click_every=click_every, stop=stop
                    )
                else:
                    assert isinstance(room, PipesRoom)
                    last = play_demo(
                        sb, daemon, room, rounds=rounds, click_every=click_every, stop=stop
                    )
        finally:
            daemon.close()
        if stop.is_set():
            out.print("demo interrupted")
            raise typer.Exit(int(ExitCode.INTERRUPTED))
        if last is not None:
            moves = "strokes" if kind == "paint" else "moves"
            out.print(
                f"solved in {last.seconds:.1f} s with {last.moves} {moves}; "
                f"{daemon.links['sandbox'].sent} RCON commands sent"
            )


def register(app: typer.Typer) -> None:
    """Add `start` and `demo` to the main command."""
    app.command()(guarded(start))
    app.command()(guarded(demo))
