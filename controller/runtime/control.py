"""How admin commands reach a running daemon: a lock per room and request files.

The daemon holds an exclusive `flock` on `<state>/<room>.lock` while it runs the room. An admin
command that finds the lock taken drops a request (`<room>.request.json`) which the daemon
carries out at its next poll (answering in `<room>.response.json` when there is something to
say) and then deletes; otherwise the command acts on the world itself. The daemon also keeps
`<room>.health.json` current, so `status` never needs a second RCON connection while it runs:
vanilla shares one output buffer between all RCON connections, so a second connection could swap
replies with the daemon's (docs/server-behaviour.md, "Shared output buffer").
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from controller.errors import PipesError, RoomError
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.requests import (
    Request,
    Response,
    request_from_json,
    request_to_json,
    response_from_json,
    response_to_json,
)

__all__ = [
    "StateDirError",
    "writing_into",
    "ensure_writable",
    "state_dir_error",
    "RoomLock",
    "is_running",
    "write_request",
    "take_request",
    "finish_request",
    "wait_done",
    "write_response",
    "read_response",
    "write_json",
    "read_json",
    "response_path",
    "health_path",
]


class StateDirError(PipesError):
    """The state directory cannot be written (read-only, not a directory, no space, ...)."""


@contextmanager
def writing_into(folder: Path) -> Iterator[None]:
    """Turn a file-system error while writing into the state directory `folder` into one
    StateDirError naming the folder and the reason (`cannot write state directory /srv/state:
    Read-only file system`)."""
    try:
        yield
    except BlockingIOError:
        raise
    except OSError as exc:
        raise state_dir_error(folder, exc) from None


def state_dir_error(folder: Path, exc: OSError, verb: str = "write") -> StateDirError:
    """The StateDirError for `exc`, met while reading or writing in the state directory."""
    if folder.exists() and not folder.is_dir():
        reason = "it is a file, not a directory"
    elif exc.errno == errno.EEXIST or isinstance(exc, NotADirectoryError):
        reason = "a part of its path is a file, not a directory"
    else:
        reason = exc.strerror or str(exc)
    return StateDirError(f"cannot {verb} state directory {folder}: {reason}")


def ensure_writable(state_dir: Path) -> None:
    """Raise StateDirError unless files can be made in `state_dir` (or in the folder that will
    hold it, when it does not exist yet): checked before an admin action touches the world, so
    a read-only state directory stops it before anything changes rather than halfway."""
    folder = state_dir
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    if not folder.is_dir():
        where = "it is" if folder == state_dir else f"{folder} is"
        raise StateDirError(
            f"cannot write state directory {state_dir}: {where} a file, not a directory"
        )
    if os.access(folder, os.W_OK | os.X_OK):
        return
    probe = folder / ".pipesctl-write-check"
    try:  # the reason in the system's words (read-only file system, permission denied)
        os.close(os.open(probe, os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise StateDirError(f"cannot write state directory {state_dir}: {reason}") from None
    probe.unlink()


def _lock_path(state_dir: Path, room: str) -> Path:
    return state_dir / f"{room}.lock"


def _request_path(state_dir: Path, room: str) -> Path:
    return state_dir / f"{room}.request.json"


class RoomLock:
    """The daemon's claim on a room (released when the process ends, even by SIGKILL)."""

    def __init__(self, state_dir: Path, room: str) -> None:
        self.path = _lock_path(state_dir, room)
        self.room = room
        self._fh: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock or raise RoomError naming the holder (StateDirError when the state
        directory cannot be written)."""
        with writing_into(self.path.parent):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fh = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise RoomError(f"room {self.room} is already run by pid {holder}") from None
        try:
            with writing_into(self.path.parent):
                fh.seek(0)
                fh.truncate()
                fh.write(str(os.getpid()))
                fh.flush()
        except BaseException:
            fh.close()
            raise
        self._fh = fh

    def release(self) -> None:
        """Give the room back."""
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None


def is_running(state_dir: Path, room: str) -> bool:
    """Whether a daemon currently holds the room."""
    path = _lock_path(state_dir, room)
    if not path.exists():
        return False
    try:
        fh = path.open("a+", encoding="utf-8")
    except FileNotFoundError:
        return False
    except OSError:  # a read-only state directory: flock needs no write access
        try:
            fh = path.open(encoding="utf-8")
        except OSError:
            return False
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
        return False


def write_request(state_dir: Path, room: str, request: Request) -> Path:
    """Leave a request for the daemon (atomically)."""
    path = _request_path(state_dir, room)
    write_json(path, request_to_json(request))
    return path


def _working_path(state_dir: Path, room: str) -> Path:
    return state_dir / f"{room}.request.working"


def take_request(state_dir: Path, room: str) -> Request | None:
    """The pending request, moved aside while it is carried out; None when there is none.

    An unreadable or unknown request is dropped. Call `finish_request` once it has been
    carried out.
    """
    path, working = _request_path(state_dir, room), _working_path(state_dir, room)
    try:
        os.replace(path, working)
    except FileNotFoundError:
        return None
    try:
        data = json.loads(working.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
        working.unlink(missing_ok=True)
        return None
    request = request_from_json(data) if isinstance(data, dict) else None
    if request is None:
        working.unlink(missing_ok=True)
    return request


def finish_request(state_dir: Path, room: str) -> None:
    """Mark the request taken by `take_request` as done."""
    _working_path(state_dir, room).unlink(missing_ok=True)


def wait_done(path: Path, timeout: float = 15.0, clock: Clock = SYSTEM_CLOCK) -> bool:
    """Wait until the daemon has carried out a request (written to `path`)."""
    working = path.with_name(path.name.removesuffix(".json") + ".working")
    deadline = clock.monotonic() + timeout
    while path.exists() or working.exists():
        if clock.monotonic() > deadline:
            return False
        clock.sleep(0.05)
    return True


def write_response(state_dir: Path, room: str, response: Response) -> None:
    """The daemon's answer to the request it carried out."""
    write_json(response_path(state_dir, room), response_to_json(response))


def read_response(state_dir: Path, room: str) -> Response | None:
    """Take the daemon's answer (None when there is none or it is unreadable)."""
    data = read_json(response_path(state_dir, room), remove=True)
    return None if data is None else response_from_json(data)


def response_path(state_dir: Path, room: str) -> Path:
    """Where the daemon answers a request."""
    return state_dir / f"{room}.response.json"


def health_path(state_dir: Path, room: str) -> Path:
    """Where the daemon reports its connection health."""
    return state_dir / f"{room}.health.json"


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write a small JSON file atomically."""
    tmp = path.with_name(path.name + ".tmp")
    with writing_into(path.parent):
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)


def read_json(path: Path, remove: bool = False) -> dict[str, Any] | None:
    """Read a small JSON file (None when missing or unreadable), optionally removing it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
        return None
    if remove:
        path.unlink(missing_ok=True)
    return data if isinstance(data, dict) else None
