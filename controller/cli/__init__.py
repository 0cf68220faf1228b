"""The `pipesctl` command line: a thin layer of typer commands over the package."""

from __future__ import annotations

from typing import Annotated

import typer

from controller import __version__
from controller.cli import admin, doctor, maps, puzzle, rooms, sandbox

__all__ = ["app", "main"]

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
app.add_typer(puzzle.app, name="puzzle")
app.add_typer(maps.app, name="maps")
app.command("install", help="Write the map pictures and the data pack into a world folder.")(
    maps.install
)
sandbox.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
