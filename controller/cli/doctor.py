"""`pipesctl doctor`: every reason a room will not work, each with a one-line fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from controller.cli.common import ConfigOpt, connect, guarded, load
from controller.errors import ExitCode

__all__ = ["register"]

_MARK = {"pass": "ok  ", "fail": "FAIL", "skip": "--  "}


def doctor(
    world: Annotated[
        list[str] | None,
        typer.Option("--world", "-w", metavar="NAME", help="Room name (default: every room)."),
    ] = None,
    config: ConfigOpt = None,
    server_dir: Annotated[
        Path | None,
        typer.Option(
            "--server-dir", metavar="DIR", help="The server's folder (to read server.properties)."
        ),
    ] = None,
    world_dir: Annotated[
        Path | None,
        typer.Option("--world-dir", metavar="DIR", help="The world folder (to check map files)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Check RCON, server settings, gamerules, map files, chunks and each room's footprint;
    exit 0 only when nothing fails (1 a check failed, 4 unreachable, 5 password refused)."""
    from controller.runtime.admin.doctor import diagnose

    cfg = load(config)
    reports = [
        diagnose(cfg, name, connect=connect, server_dir=server_dir, world_dir=world_dir)
        for name in (world or list(cfg.worlds))
    ]
    if as_json:
        typer.echo(json.dumps({"rooms": [r.to_json() for r in reports]}, indent=2))
    else:
        for report in reports:
            verdict = "ok" if report.ok else "PROBLEMS"
            typer.echo(f"{report.world} (server {report.server}): {verdict}")
            for check in report.checks:
                typer.echo(f"  {_MARK[check.status]} {check.name}: {check.detail}")
                if check.fix and check.status == "fail":
                    typer.echo(f"       fix: {check.fix}")
                elif check.fix and check.status == "skip":
                    typer.echo(f"       ({check.fix})")
    worst = max((r.code for r in reports), default=ExitCode.OK)
    if worst != ExitCode.OK:
        raise typer.Exit(int(worst))


def register(app: typer.Typer) -> None:
    """Add `doctor` to the main command."""
    app.command()(guarded(doctor))
