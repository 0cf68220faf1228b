"""How admin commands reach a running daemon: a lock per room and request files.

The daemon holds an exclusive `flock` on `<state>/<room>.lock` while it runs the room. An admin
command that finds the lock taken drops a request (`<room>.request.json`) which the daemon
carries out at its next poll (answering in `<room>.response.json` when there is something to
say) and then deletes; otherwise the command acts on the world itself. The daemon takes a
request by renaming it to `<room>.request.working`; a request whose `expires` has passed
(`controller.runtime.requests`) is dropped with a log line instead of carried out, and an admin
command that gives up removes its request itself unless the daemon has already taken it
(`withdraw_request`: the unlink and the daemon's rename cannot both succeed).

The daemon also keeps `<room>.health.json` current (`Health`), so `status`, `doctor` and the
admin commands never need a second RCON connection while it runs: vanilla shares one output
buffer between all RCON connections, so a second connection could swap replies with the
daemon's (docs/server-behaviour.md, "Shared output buffer"). A health file is only believed
while a daemon holds the room's lock: one left by a daemon that has ended says nothing. The
files' fields and the admin command's side: docs/reliability.md, "Admin requests and the health
file".
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from controller.errors import PipesError, RoomError
from controller.runtime.clock import SYSTEM_CLOCK, Clock, utc_iso
from controller.runtime.requests import (
    REQUEST_TIMEOUT_S,
    Request,
    Response,
    request_expiry,
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
    "withdraw_request",
    "finish_request",
    "requeue_request",
    "wait_done",
    "write_response",
    "read_response",
    "write_json",
    "read_json",
    "response_path",
    "health_path",
    "Health",
    "read_health",
    "health_record",
]

log = logging.getLogger("controller.runtime")


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


def write_request(
    state_dir: Path, room: str, request: Request, expires: float | None = None
) -> Path:
    """Leave a request for the daemon (atomically); `expires` is the wall time (seconds since
    the epoch) after which the daemon must drop it instead of carrying it out."""
    path = _request_path(state_dir, room)
    write_json(path, request_to_json(request, expires))
    return path


def _working_path(state_dir: Path, room: str) -> Path:
    return state_dir / f"{room}.request.working"


def take_request(state_dir: Path, room: str, clock: Clock = SYSTEM_CLOCK) -> Request | None:
    """The pending request, moved aside while it is carried out; None when there is none.

    An unreadable or unknown request is dropped, and so is an expired one (its admin command
    has given up and told its user so), with a log line. Call `finish_request` once the
    request has been carried out.
    """
    path, working = _request_path(state_dir, room), _working_path(state_dir, room)
    try:
        os.replace(path, working)
    except FileNotFoundError:
        return None
    try:
        data = json.loads(working.read_text(encoding="utf-8"))
        written = working.stat().st_mtime  # a rename keeps the modification time
    except (OSError, ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
        working.unlink(missing_ok=True)
        return None
    request = request_from_json(data) if isinstance(data, dict) else None
    if request is None:
        working.unlink(missing_ok=True)
        return None
    assert isinstance(data, dict)
    expires = request_expiry(data, written)
    if clock.time() > expires:
        log.warning(
            "room %s: request %s expired at %s (the admin command gave up); dropped",
            room,
            request,
            utc_iso(expires),
        )
        working.unlink(missing_ok=True)
        return None
    return request


def withdraw_request(path: Path) -> bool:
    """Take back a request the daemon has not taken yet (`path` as `write_request` returned
    it): True when it was removed, False when the daemon had already taken it (or it is gone).

    One unlink: the daemon takes a request by renaming it, so either the unlink finds the file
    and the daemon's rename then finds nothing, or the rename came first and the unlink finds
    nothing.
    """
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


def finish_request(state_dir: Path, room: str) -> None:
    """Mark the request taken by `take_request` as done."""
    _working_path(state_dir, room).unlink(missing_ok=True)


def requeue_request(state_dir: Path, room: str) -> None:
    """Put the request taken by `take_request` back, unfinished (the daemon stopped in the
    middle of it): the next daemon carries it out unless it has expired meanwhile (its expiry
    travels with it), or the waiting command withdraws it when it gives up. A newer request
    left meanwhile wins: the old one is dropped."""
    working, path = _working_path(state_dir, room), _request_path(state_dir, room)
    try:
        os.link(working, path)
    except OSError:  # a newer request is waiting, or the working file is gone
        pass
    working.unlink(missing_ok=True)


def wait_done(path: Path, timeout: float = REQUEST_TIMEOUT_S, clock: Clock = SYSTEM_CLOCK) -> bool:
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


@dataclass(frozen=True)
class Health:
    """A daemon's report on a room's server (`<room>.health.json`).

    `at`: when it was written; `since`: when `reachable` last changed while this daemon ran
    (the time the server went down, or came back or was first reached), kept across rewrites;
    None in a file from before it was recorded. `owner`: the daemon's lease owner id, which
    tells the same daemon's earlier reports from another's. `version`: the server's release as
    the daemon settled it (`ServerVersion.to_json`: `release`, `source`, `how`, `server_says`,
    `disagrees`, `flavour`), None before it connected; `refused`: why the daemon runs nothing
    on the server (a release it does not serve).
    """

    at: float
    server: str
    reachable: bool
    since: float | None = None
    owner: int | None = None
    version: dict[str, Any] | None = None
    refused: str | None = None


def _number(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def read_health(state_dir: Path, room: str) -> Health | None:
    """The room's health file (None when missing, unreadable or malformed). Only a daemon that
    holds the room (`is_running`) keeps it current: check that before believing it."""
    data = read_json(health_path(state_dir, room))
    if data is None:
        return None
    at, reachable = _number(data.get("at")), data.get("reachable")
    if at is None or not isinstance(reachable, bool):
        return None
    owner = data.get("owner")
    version, refused = data.get("version"), data.get("refused")
    return Health(
        at,
        str(data.get("server", "")),
        reachable,
        _number(data.get("since")),
        owner if isinstance(owner, int) and not isinstance(owner, bool) else None,
        version if isinstance(version, dict) and isinstance(version.get("release"), str) else None,
        refused if isinstance(refused, str) else None,
    )


def health_record(
    previous: Health | None,
    *,
    at: float,
    server: str,
    reachable: bool,
    owner: int,
    version: dict[str, Any] | None = None,
    refused: str | None = None,
) -> dict[str, Any]:
    """The health file's next content: `since` stays as it was while the same daemon (`owner`)
    reports the same reachability of the same server, and is `at` otherwise; the server's
    release (`version`) and a refusal go along when known."""
    same = (
        previous is not None
        and previous.since is not None
        and (previous.owner, previous.server, previous.reachable) == (owner, server, reachable)
    )
    since = previous.since if same and previous is not None else at
    out: dict[str, Any] = {
        "at": at,
        "server": server,
        "reachable": reachable,
        "since": since,
        "owner": owner,
    }
    if version is not None:
        out["version"] = version
    if refused is not None:
        out["refused"] = refused
    return out


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
