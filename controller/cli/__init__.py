"""The `pipesctl` command line: a thin layer of typer commands over the package."""

from __future__ import annotations

import typer

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


@app.command()
def demo() -> None:
    """Run the sandbox server with a room and a simulated player (what `make demo` runs)."""
    typer.echo("pipesctl demo: not built yet (the sandbox and room runtime issues add it).")


def main() -> None:
    """Console-script entry point."""
    app()
