"""What every command shares: options, error → exit code mapping, configuration loading with
its warnings, the RCON connection, logging setup."""

from __future__ import annotations

import functools
import json
import logging
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from controller.errors import ExitCode, PipesError
from controller.stopping import Stopping

if TYPE_CHECKING:
    from controller.config import Config, ServerConfig
    from controller.runtime.link import CommandClient

__all__ = [
    "guarded",
    "os_error_text",
    "logging_to_stderr",
    "fail",
    "warn",
    "load",
    "connect",
    "ConfigOpt",
    "WorldOpt",
    "YesOpt",
    "SeedOpt",
    "LogOpt",
    "LogFormatOpt",
    "LogLevel",
    "LogFormat",
]


class LogLevel(StrEnum):
    """`--log-level` choices."""

    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


class LogFormat(StrEnum):
    """`--log-format` choices: human lines, or JSON lines for log shippers."""

    text = "text"
    json = "json"


ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", "-c", metavar="FILE", help="Configuration file (default: lookup)."),
]
WorldOpt = Annotated[str, typer.Option("--world", "-w", metavar="NAME", help="Room name.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", metavar="INT", help="Seed of the puzzle.")
]
LogOpt = Annotated[LogLevel, typer.Option("--log-level", help="How much to log.")]
LogFormatOpt = Annotated[
    LogFormat, typer.Option("--log-format", help="text, or JSON lines for log shippers.")
]

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> typer.Exit:
    """Print `error: message` to stderr and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(int(code))


def warn(message: str) -> None:
    """Print `warning: message` to stderr."""
    typer.echo(f"warning: {message}", err=True)


def os_error_text(exc: OSError) -> str:
    """`<file>: <reason>` for a file-system error (`/srv/pipes.yaml: Permission denied`), the
    reason alone when it names no file."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    names = [str(name) for name in (exc.filename, exc.filename2) if name is not None]
    return f"{' -> '.join(names)}: {reason}" if names else reason


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn pipesctl errors into one clear line on stderr and the documented exit code.

    A file-system error that no command turned into a pipesctl error is the last resort:
    `error: <file>: <reason>` and exit 1, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except PipesError as exc:
            raise fail(str(exc), exc.exit_code) from None
        except (KeyboardInterrupt, Stopping):
            typer.echo("interrupted", err=True)
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
        except OSError as exc:
            raise fail(os_error_text(exc)) from None

    wrapper.guarded = True  # type: ignore[attr-defined]  # tests/cli/test_no_traceback.py
    return wrapper


def load(config: Path | None) -> Config:
    """Find, read and validate the configuration; print its warnings (one line each)."""
    from controller.config import load_config

    cfg = load_config(config)
    for message in cfg.warnings:
        warn(message)
    return cfg


_warned: set[str] = set()


def connect(
    name: str, server: ServerConfig, *, opened: Callable[[Any], None] | None = None
) -> CommandClient:
    """Open the RCON connection of a configured server, warning once about a weak password
    (`opened` sees the client before it connects)."""
    from controller.config import weak_password
    from controller.runtime.connect import connect_server

    if name not in _warned and not server.password:
        _warned.add(name)
        if weak_password(server.resolve_password(name)):
            warn(
                f"servers.{name}: weak RCON password (fewer than 12 characters or a common "
                "word); use a long random one"
            )
    return connect_server(name, server, opened=opened)


class _StderrHandler(logging.Handler):
    """Writes to whatever `sys.stderr` is when a record is emitted (test runners swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
        except Exception:
            self.handleError(record)


_SUBJECT = re.compile(r"(room|server) ([^\s:]+): ")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and `room`/`server` when known:
    from the record (`log.info(..., extra={"room": name})`), else from the message's leading
    `room <name>: ` or `server <name>: ` (how every runtime log line starts)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one JSON line."""
        message = record.getMessage()
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": message,
        }
        for key in ("room", "server"):
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        subject = _SUBJECT.match(message)
        if subject is not None and subject.group(1) not in out:
            out[subject.group(1)] = subject.group(2)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


@contextmanager
def logging_to_stderr(
    level: LogLevel | str, fmt: LogFormat | str = LogFormat.text
) -> Iterator[None]:
    """Log pipesctl's records to stderr while the command runs, then take the handler away
    again (so nothing leaks into the next command run in the same process, e.g. in tests)."""
    numeric = getattr(logging, str(getattr(level, "value", level)).upper())
    handler = _StderrHandler()
    if str(getattr(fmt, "value", fmt)) == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("controller")
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(numeric)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        logger.propagate = old_propagate
