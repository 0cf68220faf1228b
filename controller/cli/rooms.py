"""`pipesctl start` and `pipesctl demo`: run rooms, against a server or the built-in sandbox."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
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
from controller.stopping import (
    StopFlag,
    Stopping,
    StopSignals,
    exit_now,
    handle_stop_signals,
    run_until_stopped,
)

if TYPE_CHECKING:
    from controller.config import Config, ServerConfig
    from controller.metrics import Metrics
    from controller.runtime.daemon import Daemon
    from controller.runtime.link import CommandClient
    from controller.runtime.room import Progress, Room
    from controller.runtime.systemd import Notifier

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
    base: Config, worlds: list[str], port: int, password: str, state: Path, version: str = "26.1"
) -> Config:
    """The configuration with every chosen room moved onto a local sandbox server of release
    `version`, its records in SQLite in the sandbox's state folder (a rehearsal never writes
    to a network's records store)."""
    from controller.config import RecordsConfig, ServerConfig

    server = ServerConfig(host="127.0.0.1", port=port, password=password, minecraft_version=version)
    rooms = {name: base.world(name).model_copy(update={"server": "sandbox"}) for name in worlds}
    return base.model_copy(
        update={
            "servers": {"sandbox": server},
            "worlds": rooms,
            "state_dir": str(state),
            "records": RecordsConfig(),
        }
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


STOP_GRACE_S = 4.0  # after the first signal, how long the work gets before the process exits


def _serve(work: Callable[[], None], signals: StopSignals, on_stop: Callable[[str], None]) -> None:
    """Run the daemon's work beside the main thread until it ends or a signal stops it; exit 0
    within `STOP_GRACE_S` of the first signal (docs/reliability.md, "Stopping")."""
    finished = run_until_stopped(
        work, signals, grace=STOP_GRACE_S, on_stop=on_stop, on_again=_again
    )
    if finished.abandoned:
        log.warning(
            "still stopping after %.0f s (a server is not answering); exiting now: the state "
            "is saved after every move and the leases expire by themselves",
            STOP_GRACE_S,
        )
        exit_now(0)


def _stopping(signal_name: str) -> None:
    log.info("received %s; stopping", signal_name)


def _again(signal_name: str) -> None:
    log.info("received %s again; already stopping (a third signal exits at once)", signal_name)


PROGRESS_LOG_EVERY_S = 5.0


def log_progress(what: str, every: float = PROGRESS_LOG_EVERY_S) -> Progress:
    """A progress callback that logs a line at most every `every` seconds (and at the end)."""
    started = time.monotonic()
    last = started
    first: int | None = None  # a resumed build starts part-way: the rate counts from there

    def update(done: int, total: int) -> None:
        nonlocal last, first
        now = time.monotonic()
        if first is None:  # the first report is where the build starts (0, or a resume point)
            first = done
        if done < total and now - last < every:
            return
        last = now
        share = done / total if total else 1.0
        line = f"{what}: {share:.0%} ({done}/{total} commands)"
        if first < done < total:
            line += f", about {(now - started) * (total - done) / (done - first):.0f} s left"
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


def _run(daemon: Daemon, *, view: bool, metrics: Metrics | None = None) -> None:
    """Open the configured metrics and web ports, build or resume the rooms, serve them until
    the daemon's stop, then close: a stop in the middle of a build leaves it to be finished by
    the next start."""
    from controller.web import serving

    try:
        with serving(daemon, metrics):
            _start_with_progress(daemon)
            if daemon.notifier is not None:  # systemd: READY=1 once the rooms are up
                daemon.notifier.ready(f"rooms {', '.join(daemon.rooms)} ready")
            with _live_view(daemon, view):
                daemon.run()
    except Stopping:
        log.info("stopped before the rooms were ready; the next start finishes the build")
    finally:
        daemon.close()


class _Connector:
    """The daemon's `connect`: the clients it opens are kept, so a stop can close those still
    waiting to connect (a server down, in backoff) instead of waiting for them."""

    def __init__(self, notifier: Notifier | None = None) -> None:
        self.clients: list[object] = []
        self.notifier = notifier

    def __call__(self, name: str, server: ServerConfig) -> CommandClient:
        return connect(name, server, opened=self.clients.append)

    def close_waiting(self, signal_name: str) -> None:
        _stopping(signal_name)
        if self.notifier is not None:
            self.notifier.stopping()
        for client in list(self.clients):
            if not getattr(client, "connected", True):
                close = getattr(client, "close", None)
                if callable(close):
                    close()


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
    stop cleanly (exit 0, within a few seconds from any phase)."""
    json_lines = log_format is LogFormat.json
    with handle_stop_signals(json_lines=json_lines) as signals:
        with logging_to_stderr(log_level, log_format):
            _start(world, config, sandbox, signals)


def _start(world: list[str], config: Path | None, sandbox: bool, signals: StopSignals) -> None:
    from controller.cli.ui import use_colour
    from controller.config import default_config
    from controller.runtime.daemon import Daemon
    from controller.runtime.observe import NULL_OBSERVER
    from controller.web import metrics_for

    stop = signals.flag
    if not sandbox:
        from controller.runtime.systemd import Notifier

        cfg = load(config)
        notifier = Notifier.from_environment()
        connector = _Connector(notifier)

        def work() -> None:
            metrics = metrics_for(cfg, world)
            daemon = Daemon(
                cfg, world, connect=connector, stop=stop, notifier=notifier,
                observer=metrics or NULL_OBSERVER,
            )  # fmt: skip
            _run(daemon, view=False, metrics=metrics)

        _serve(work, signals, connector.close_waiting)
        return
    from controller.sandbox import Sandbox

    base = load(config) if config is not None else default_config()
    for name in world:
        base.world(name)
    import tempfile

    with Sandbox() as sb, tempfile.TemporaryDirectory(prefix="pipesctl-sandbox-") as tmp:
        log.info("sandbox RCON running on 127.0.0.1:%d", sb.port)
        cfg = _sandbox_config(base, world, sb.port, sb.password, Path(tmp))
        view = use_colour()

        def work_in_sandbox() -> None:
            metrics = metrics_for(cfg, world)
            daemon = Daemon(
                cfg, world, connect=connect, stop=stop, observer=metrics or NULL_OBSERVER
            )
            _run(daemon, view=view, metrics=metrics)

        _serve(work_in_sandbox, signals, _stopping)


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
    version: Annotated[
        str,
        typer.Option("--version", help="Minecraft release the sandbox imitates (1.20.5 to 26.2)."),
    ] = "26.1",
) -> None:
    """The sandbox server, a room, and a simulated player who solves it while you watch
    (SIGTERM or Ctrl-C end it early with exit code 130)."""
    from controller.versions import release

    with handle_stop_signals() as signals:  # first: a signal during the imports is a stop too
        if kind is RoomKind.paint and mode is not PipesMode.tree:
            raise UsageError("--mode applies to pipes rooms, not --kind paint")
        chosen = release(version)  # UnsupportedVersion: one line, exit 2
        with logging_to_stderr(log_level):
            _demo(size, rounds, click_every, kind.value, mode.value, signals, chosen.name)


def _demo(
    size: int,
    rounds: int,
    click_every: float,
    kind: str = "pipes",
    mode: str = "tree",
    signals: StopSignals | None = None,
    version: str = "26.1",
) -> None:
    from controller.cli.ui import err_console
    from controller.config import default_config
    from controller.runtime.daemon import Daemon
    from controller.runtime.demo import demo_config, play_demo, play_paint_demo
    from controller.runtime.paint.room import PaintRoom
    from controller.runtime.pipes.room import PipesRoom
    from controller.sandbox import Sandbox

    base = demo_config(default_config(), size, kind, mode)
    out = err_console()
    stop = signals.flag if signals is not None else StopFlag()
    if stop.is_set():
        out.print("demo interrupted")
        raise typer.Exit(int(ExitCode.INTERRUPTED))
    import tempfile

    with (
        Sandbox(version=version) as sb,
        tempfile.TemporaryDirectory(prefix="pipesctl-demo-") as tmp,
    ):
        out.print(f"sandbox RCON running on 127.0.0.1:{sb.port} (Minecraft {version})")
        cfg = _sandbox_config(base, ["lobby"], sb.port, sb.password, Path(tmp), version)
        daemon = Daemon(cfg, ["lobby"], connect=connect, stop=stop)
        room = daemon.rooms["lobby"]
        last = None
        try:
            if stop.is_set():
                raise Stopping("stopped before the build")
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
        except Stopping:
            pass
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
