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

import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

from controller.errors import RoomError
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
        """Take the lock or raise RoomError naming the holder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise RoomError(f"room {self.room} is already run by pid {holder}") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
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
    with path.open("a+", encoding="utf-8") as fh:
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
    except (OSError, json.JSONDecodeError):
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
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def read_json(path: Path, remove: bool = False) -> dict[str, Any] | None:
    """Read a small JSON file (None when missing or unreadable), optionally removing it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if remove:
        path.unlink(missing_ok=True)
    return data if isinstance(data, dict) else None
