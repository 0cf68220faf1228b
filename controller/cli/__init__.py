"""The `pipesctl` command line: a thin layer of typer commands over the package."""

from __future__ import annotations

import typer

from controller.cli import admin, maps, puzzle, rooms, sandbox

__all__ = ["app", "main"]

app = typer.Typer(
    name="pipesctl",
    help="Run pipes rotation-puzzle rooms inside a live Minecraft server over RCON.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


@app.callback()
def root() -> None:
    """pipesctl: puzzle rooms for Minecraft servers."""


rooms.register(app)
admin.register(app)
app.add_typer(puzzle.app, name="puzzle")
app.add_typer(maps.app, name="maps")
sandbox.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
