"""What every command shares: error → exit code mapping, logging setup."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from controller.errors import ExitCode, PipesError

__all__ = ["guarded", "setup_logging", "fail", "ConfigOpt", "WorldOpt", "YesOpt", "LogOpt"]

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", "-c", help="Configuration file (default: lookup).")
]
WorldOpt = Annotated[str, typer.Option("--world", "-w", help="Room name.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
LogOpt = Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")]

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> typer.Exit:
    """Print `error: message` to stderr and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(int(code))


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn pipesctl errors into one clear line on stderr and the documented exit code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except PipesError as exc:
            raise fail(str(exc), exc.exit_code) from None
        except KeyboardInterrupt:
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

    return wrapper


class _StderrHandler(logging.Handler):
    """Writes to whatever `sys.stderr` is when a record is emitted (test runners swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
        except Exception:
            self.handleError(record)


def setup_logging(level: str) -> None:
    """Log to stderr at the given level (never the RCON password: nothing logs it)."""
    numeric = getattr(logging, level.upper(), None)
    if not isinstance(numeric, int):
        raise typer.BadParameter(f"unknown log level {level!r}", param_hint="--log-level")
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=numeric, handlers=[handler], force=True)
