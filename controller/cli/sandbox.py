"""``pipesctl sandbox``: run the loopback RCON sandbox server until Ctrl-C.

Wire it into the main app with ``register(app)``.
"""

from __future__ import annotations

import enum
import logging
import os
import pathlib
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import LogLevel, fail, guarded, logging_to_stderr
from controller.errors import ExitCode
from controller.stopping import Stop, handle_stop_signals

if TYPE_CHECKING:
    from controller.sandbox.sandbox import Sandbox
    from controller.versions import Release

__all__ = ["FlavourChoice", "register", "release_option", "run_sandbox", "sandbox"]

logger = logging.getLogger("controller.sandbox")


class FlavourChoice(enum.StrEnum):
    """Which server the sandbox imitates."""

    vanilla = "vanilla"
    paper = "paper"


def run_sandbox(sb: Sandbox, stop: Stop) -> None:
    """Start ``sb``, print the ready line, serve until ``stop`` is set, then stop (and save)."""
    sb.start()
    try:
        typer.echo(f"RCON running on {sb.host}:{sb.port}")
        while not stop.wait(0.5):
            pass
    finally:
        sb.stop()


def sandbox(
    port: Annotated[int, typer.Option(help="TCP port to listen on (0 picks a free one).")] = 25575,
    password_env: Annotated[
        str, typer.Option(help="Environment variable holding the RCON password.")
    ] = "RCON_PASSWORD",
    world_dir: Annotated[
        pathlib.Path | None,
        typer.Option(help="Load the world from here if saved; save it here on exit."),
    ] = None,
    log_commands: Annotated[
        pathlib.Path | None,
        typer.Option(help="Append every command received as JSON lines to this file."),
    ] = None,
    flavour: Annotated[FlavourChoice, typer.Option(help="Server to imitate.")] = (
        FlavourChoice.vanilla
    ),
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = "127.0.0.1",
    version: Annotated[
        str | None,
        typer.Option(
            "--version",
            help="Minecraft release to imitate (1.20.5 to 26.2; default 26.1, or the release "
            "a saved --world-dir was saved by).",
        ),
    ] = None,
) -> None:
    """Run the sandbox RCON server (a simulated vanilla/Paper server) until Ctrl-C."""
    release = release_option(version)
    with logging_to_stderr(LogLevel.info):
        _serve(port, password_env, world_dir, log_commands, flavour, host, release)


def release_option(version: str | None) -> Release | None:
    """The release a `--version` names; UnsupportedVersion (exit 2) outside the range."""
    if version is None:
        return None
    from controller.versions import release

    return release(version)


def _serve(
    port: int,
    password_env: str,
    world_dir: pathlib.Path | None,
    log_commands: pathlib.Path | None,
    flavour: FlavourChoice,
    host: str,
    release: Release | None = None,
) -> None:
    from controller.sandbox.sandbox import Sandbox

    password = os.environ.get(password_env, "")
    if not password:
        import secrets

        password = secrets.token_urlsafe(12)
        print(f"{password_env} is not set; generated RCON password: {password}", file=sys.stderr)
    sb = Sandbox(
        port=port,
        password=password,
        flavour=flavour.value,
        world_dir=world_dir,
        log_commands=log_commands,
        host=host,
        version=release,
    )
    with handle_stop_signals() as signals:
        try:
            run_sandbox(sb, signals.flag)
        except OSError as exc:
            typer.echo(f"cannot start the sandbox on {host}:{port}: {exc}", err=True)
            raise typer.Exit(1) from exc
        except (ValueError, KeyError, TypeError, IndexError) as exc:  # a saved world that is broken
            what = f"{type(exc).__name__}: {exc}"
            raise fail(f"cannot load the sandbox world saved in {world_dir} ({what})") from None
    if world_dir is not None:
        typer.echo(f"world saved to {world_dir}")
    if signals.first() == "SIGINT":  # Ctrl-C, like every interrupted command; SIGTERM: 0
        raise typer.Exit(int(ExitCode.INTERRUPTED))


def register(app: typer.Typer) -> None:
    """Add the ``sandbox`` command to ``app``."""
    app.command("sandbox")(guarded(sandbox))
