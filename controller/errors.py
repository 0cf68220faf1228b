"""The error hierarchy and the exit codes the CLI maps them to."""

from __future__ import annotations

import errno
from enum import IntEnum

__all__ = [
    "ExitCode",
    "PipesError",
    "UsageError",
    "ConfigError",
    "RconError",
    "RconUnavailable",
    "RconAuthError",
    "RconProtocolError",
    "RoomError",
    "ListenError",
]


class ExitCode(IntEnum):
    """Documented, stable exit codes of the `pipesctl` command."""

    OK = 0
    ERROR = 1
    USAGE = 2
    CONFIG = 3
    UNREACHABLE = 4
    AUTH = 5
    INTERRUPTED = 130


class PipesError(Exception):
    """Base class of every error pipesctl reports to a user."""

    exit_code: ExitCode = ExitCode.ERROR


class UsageError(PipesError):
    """Bad input on the command line or in a file given on it."""

    exit_code = ExitCode.USAGE


class ConfigError(PipesError):
    """The configuration file is missing or invalid; carries every problem found (one problem
    reads as one line, several as a list below the file's name)."""

    exit_code = ExitCode.CONFIG

    def __init__(self, problems: list[str], path: str = "") -> None:
        self.problems = problems
        self.path = path
        head = f"invalid configuration {path}" if path else "invalid configuration"
        if len(problems) == 1:  # one line; a problem that starts with the path names it
            only = problems[0]
            text = f"invalid configuration {only}" if path and only.startswith(path) else None
            super().__init__(text or f"{head}: {only}")
            return
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in problems))


class RconError(PipesError):
    """Base class of transport errors."""

    exit_code = ExitCode.UNREACHABLE


class RconUnavailable(RconError):
    """The server cannot be reached, or the connection dropped."""


class RconAuthError(RconError):
    """The server refused the RCON password."""

    exit_code = ExitCode.AUTH


class RconProtocolError(RconError):
    """The server sent something that is not valid RCON."""


class RoomError(PipesError):
    """A room cannot be built or run as asked (overlap, out of world, tampered beyond repair)."""


class ListenError(PipesError):
    """A configured port cannot be listened on (in use, not permitted, no such address)."""

    exit_code = ExitCode.CONFIG

    @classmethod
    def of(cls, key: str, bind: str, port: int, exc: OSError) -> ListenError:
        """The error for config key `key` (`web_port`, …) failing to listen with `exc`."""
        why = {
            errno.EADDRINUSE: "the port is in use (by another program, or another pipesctl)",
            errno.EACCES: "not permitted (ports below 1024 need privileges)",
            errno.EADDRNOTAVAIL: "no interface of this machine has that address",
        }.get(exc.errno or 0, exc.strerror or str(exc))
        return cls(f"{key}: cannot listen on {bind} port {port}: {why}; choose another")
