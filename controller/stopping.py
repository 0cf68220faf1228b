"""Stopping a process cleanly on SIGTERM / SIGINT, from any phase (docs/reliability.md, "Stopping").

The rules, each one closing a way a stop used to hang:

- The signal handler only records: it appends the signal number to a list and writes one byte
  to a pipe. It logs nothing and takes no lock, so it cannot deadlock against the code it
  interrupts (a handler calling `threading.Event.set` can block forever on the lock the
  interrupted `Event.set` holds).
- Waiting for the stop is `select` on that pipe with a timeout, from any thread. The pipe is never
  drained: once written, every waiter sees it at once.
- Worker threads block SIGTERM and SIGINT, so the kernel delivers them to the main thread; the
  interpreter's wake-up fd (`signal.set_wakeup_fd`) wakes the main thread's wait even when a
  thread the process did not start (a library's) takes the signal.
- The main thread never blocks without a timeout: `run_until_stopped` runs the work in a worker
  and gives it a bounded grace period after the stop.
- A third signal exits at once (the state is saved after every move), with a line on stderr.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

__all__ = [
    "Stop",
    "StopFlag",
    "Stopping",
    "StopSignals",
    "handle_stop_signals",
    "worker",
    "run_until_stopped",
    "Finished",
    "exit_now",
    "STOP_SIGNALS",
]

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
FORCE_AFTER = 3  # the third signal exits at once

T = TypeVar("T")


class Stop(Protocol):
    """What the runtime needs of a stop request (`StopFlag`, or `threading.Event` in tests)."""

    def is_set(self) -> bool:
        """Whether a stop was asked for."""
        ...

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to `timeout` seconds for the stop; whether it was asked for."""
        ...


class Stopping(BaseException):  # noqa: N818 - like KeyboardInterrupt: not an error
    """Raised out of a command sequence when a stop was asked for (see `Link.send`).

    A BaseException, like KeyboardInterrupt, so that no room's `except Exception` guard takes
    it for a room error: it unwinds to the code that runs the daemon.
    """


class StopFlag:
    """A stop request that a signal handler may set: a flag and a never-drained pipe."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._set = False

    def set(self) -> None:
        """Ask for the stop (safe in a signal handler: one flag, one non-blocking write)."""
        self._set = True
        try:
            os.write(self._write, b"s")
        except OSError:  # the pipe is full (it already says stop) or closed
            pass

    def is_set(self) -> bool:
        """Whether the stop was asked for."""
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to `timeout` seconds (None: for ever) for the stop; whether it was asked for."""
        if not self._set:
            try:
                select.select([self._read], [], [], timeout)
            except (OSError, ValueError):  # closed meanwhile: fall back to a plain sleep
                if timeout:
                    time.sleep(min(timeout, 0.05))
        return self._set

    def fileno(self) -> int:
        """The pipe's read end: readable once the stop was asked for."""
        return self._read

    def close(self) -> None:
        """Close the pipe (the flag keeps its value)."""
        _close_fds(self._read, self._write)


def _close_fds(*fds: int) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:  # closed already
            pass


def _emergency_line(message: str, json_lines: bool) -> bytes:
    """A log line built without the logging module (no locks), in the configured format."""
    now = time.time()
    millis = int(now % 1 * 1000)
    if json_lines:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{millis:03d}Z"
        record = {"time": stamp, "level": "warning", "logger": "controller.cli", "message": message}
        return (json.dumps(record) + "\n").encode()
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now)) + f",{millis:03d}"
    return f"{stamp} WARNING controller.cli: {message}\n".encode()


class StopSignals:
    """SIGTERM and SIGINT turned into a `StopFlag`; the signals received, in order."""

    def __init__(self, flag: StopFlag, *, json_lines: bool = False) -> None:
        self.flag = flag
        self.received: list[int] = []
        self.json_lines = json_lines
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)

    def handler(self, signum: int, frame: object) -> None:
        """Record the signal and set the flag; the third one exits at once."""
        self.received.append(signum)
        if len(self.received) >= FORCE_AFTER:
            name = signal.Signals(signum).name
            line = f"{name} received {len(self.received)} times: exiting at once"
            try:
                os.write(2, _emergency_line(line, self.json_lines))
            except OSError:
                pass
            os._exit(128 + signum)
        self.flag.set()

    def first(self) -> str | None:
        """The name of the first signal received (None before any)."""
        return signal.Signals(self.received[0]).name if self.received else None

    def drain_wakeups(self) -> None:
        """Empty the interpreter's wake-up pipe (the main thread's select reads it)."""
        try:
            while os.read(self.wake_read, 512):
                pass
        except OSError:
            pass

    def close(self) -> None:
        """Close the wake-up pipe."""
        _close_fds(self.wake_read, self.wake_write)


@contextmanager
def handle_stop_signals(
    flag: StopFlag | None = None, *, json_lines: bool = False
) -> Iterator[StopSignals]:
    """Install the stop handlers (main thread only) for the block, then restore the previous
    ones, unless a signal came: then the process is on its way out, and a later signal must
    not kill it on the last stretch, so the stop signals are ignored from then on (the
    interpreter resets Python-level handlers to the default, deadly, action while it shuts
    down; an ignored signal stays ignored)."""
    signals = StopSignals(flag or StopFlag(), json_lines=json_lines)
    previous = {sig: signal.signal(sig, signals.handler) for sig in STOP_SIGNALS}
    old_wakeup = signal.set_wakeup_fd(signals.wake_write, warn_on_full_buffer=False)
    try:
        yield signals
    finally:
        signal.set_wakeup_fd(old_wakeup)
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_IGN if signals.received else handler)
        signals.close()


def worker(target: Callable[[], object], name: str) -> threading.Thread:
    """A started daemon thread that blocks the stop signals (they go to the main thread)."""

    def run() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        target()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


@dataclass
class Finished(Generic[T]):
    """How `run_until_stopped` ended: the work's result, whether a stop was asked for, and
    whether the work was still running when its grace period ran out."""

    result: T | None
    stopped: bool
    abandoned: bool = False


def run_until_stopped(
    work: Callable[[], T],
    signals: StopSignals,
    *,
    grace: float = 4.0,
    on_stop: Callable[[str], None] | None = None,
    on_again: Callable[[str], None] | None = None,
    name: str = "pipesctl-main",
) -> Finished[T]:
    """Run `work` in a worker thread while the main thread waits, never without a timeout.

    After the first signal `on_stop` is called once (in the main thread) with its name, later
    ones call `on_again`; the work sees the flag and gets `grace` seconds to finish, past which
    the call returns without it (`abandoned`: its thread is a daemon thread, and the state is
    saved after every move). An error raised by the work is raised here, unless it came after
    the stop was asked for (a connection closed under it on the way out).
    """
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            failure.append(exc)

    thread = worker(run, name)
    flag = signals.flag
    deadline: float | None = None
    told = 0
    while thread.is_alive():
        try:
            select.select([flag.fileno(), signals.wake_read], [], [], 0.25)
        except (OSError, ValueError):
            time.sleep(0.05)
        signals.drain_wakeups()
        if flag.is_set() and deadline is None:
            told = len(signals.received)
            deadline = time.monotonic() + grace
            if on_stop is not None:
                on_stop(signals.first() or "a stop request")
        elif len(signals.received) > told:
            told = len(signals.received)
            if on_again is not None:
                on_again(signal.Signals(signals.received[-1]).name)
        if deadline is not None and time.monotonic() >= deadline:
            return Finished(None, True, abandoned=True)
    thread.join()
    stopped = flag.is_set()
    if failure and not stopped:
        raise failure[0]
    return Finished(outcome[0] if outcome else None, stopped)


def exit_now(code: int) -> None:
    """Leave the process at once after flushing the standard streams (the work's thread may
    still be running: a stuck server)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
