"""The `pipesctl` command line: a thin layer of typer commands over the package.

Start-up stays quick (docs/benchmarks.md, "Start-up"): the command modules import their heavy
libraries (the runtime, the configuration, rich, numpy, ...) inside the commands, and the
`puzzle` group is imported only when it runs; a command's parameters are built only when it runs
(``controller/cli/lazy.py``).
"""

from __future__ import annotations

from typing import Annotated

import typer

from controller import __version__
from controller.cli import admin, doctor, maps, rooms, sandbox, stats
from controller.cli.lazy import RootGroup, install_plain_checks

__all__ = ["app", "main"]

install_plain_checks()

app = typer.Typer(
    name="pipesctl",
    help="Run pipes rotation-puzzle rooms inside a live Minecraft server over RCON.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pipesctl {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """pipesctl: puzzle rooms for Minecraft servers."""


rooms.register(app)
admin.register(app)
doctor.register(app)
app.add_typer(maps.app, name="maps")
app.command("install", help="Write the map pictures and the data pack into a world folder.")(
    maps.install
)
sandbox.register(app)
stats.register(app)
app.info.cls = RootGroup.defer(app)


def main() -> None:
    """Console-script entry point."""
    app()
