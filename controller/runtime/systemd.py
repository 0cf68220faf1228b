"""The systemd notification protocol (sd_notify), standard library only (docs/systemd.md).

A service started by systemd with `Type=notify` finds the address of the service manager's
socket in `$NOTIFY_SOCKET` and sends it datagrams of newline-separated `KEY=VALUE` lines
(sd_notify(3), https://www.freedesktop.org/software/systemd/man/latest/sd_notify.html, and
https://systemd.io/NOTIFY/). An address starting with `/` is an `AF_UNIX` path, one starting
with `@` a name in the Linux abstract namespace (the `@` stands for a leading NUL byte); any
other address (`vsock:…`) is not supported here and makes every call a no-op. The messages used
are in "The notification protocol"; `$WATCHDOG_USEC` and `$WATCHDOG_PID` are read as
sd_watchdog_enabled(3) says ("The watchdog").

`Notifier.from_environment()` outside systemd (no `$NOTIFY_SOCKET`) gives a notifier whose
calls return at once. A failed send is logged at debug level once and never raised, and the
socket never blocks (a message that finds the manager's queue full is dropped): the service
manager's bookkeeping must not stop a room. A `Notifier` may be shared between threads.

How the daemon uses it (docs/systemd.md, "What the daemon sends"): `ready(status)` once every
room is up, `watchdog()` every `watchdog_interval` seconds from its loop while that loop is
healthy, `stopping()` at the first stop signal, then `close()`.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
from collections.abc import Mapping
from types import TracebackType

__all__ = ["STATUS_MAX_BYTES", "Notifier", "clean_status", "watchdog_interval"]

log = logging.getLogger("controller.runtime")

STATUS_MAX_BYTES = 1024
"""A STATUS= value is cut to this many bytes of UTF-8: the whole datagram must fit the
4096-byte buffer the service manager reads ("The notification protocol")."""

_CONTROL = re.compile(r"\s*[\x00-\x1f\x7f]+\s*")


def clean_status(text: str) -> str:
    """`text` as a STATUS= value: one line (each run of control characters, newlines included,
    becomes one space with the spaces around it), stripped, at most `STATUS_MAX_BYTES` bytes of
    UTF-8 (cut on a character boundary, ending in `…` when cut)."""
    line = _CONTROL.sub(" ", text).strip()
    raw = line.encode("utf-8", errors="replace")
    if len(raw) <= STATUS_MAX_BYTES:
        return raw.decode("utf-8")
    ellipsis = "…".encode()
    cut = raw[: STATUS_MAX_BYTES - len(ellipsis)].decode("utf-8", errors="ignore")
    return cut.rstrip() + "…"


def watchdog_interval(env: Mapping[str, str], pid: int | None = None) -> float | None:
    """Seconds between two `WATCHDOG=1` pings: half of `$WATCHDOG_USEC`, as sd_watchdog_enabled(3)
    recommends, when that is a positive integer and `$WATCHDOG_PID` is unset or this process's
    id (`pid`, `os.getpid()` by default); None otherwise (no watchdog expected from us)."""
    usec = env.get("WATCHDOG_USEC", "").strip()
    if not usec.isdigit() or int(usec) <= 0:
        return None
    owner = env.get("WATCHDOG_PID", "").strip()
    if owner:
        if not owner.isdigit() or int(owner) != (os.getpid() if pid is None else pid):
            return None
    return int(usec) / 1_000_000 / 2


def _address(value: str) -> str | None:
    """The `socket.sendto` address of a `$NOTIFY_SOCKET` value: a path as it is, `@name` as the
    abstract name `\\0name`; None for an empty or unsupported value."""
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return "\0" + value[1:]
    return None


class Notifier:
    """Sends sd_notify messages to one service manager socket (or nowhere).

    Each method returns True when the datagram was handed to the kernel, False otherwise
    (no socket, or a send error, logged at debug level the first time only).
    """

    def __init__(self, address: str | None, *, watchdog_interval: float | None = None) -> None:
        """`address`: a `$NOTIFY_SOCKET` value (`/path` or `@abstract`); None or an unsupported
        value gives a notifier that sends nothing."""
        self._address = _address(address) if address else None
        if address and self._address is None:
            log.debug("systemd: NOTIFY_SOCKET %s is not supported; not notifying", address)
        self.watchdog_interval = watchdog_interval if self._address is not None else None
        """Seconds between `watchdog()` calls, or None when the manager expects none."""
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._warned = False
        self._closed = False

    @classmethod
    def from_environment(
        cls, env: Mapping[str, str] | None = None, *, pid: int | None = None
    ) -> Notifier:
        """The notifier systemd asks for through `$NOTIFY_SOCKET`, `$WATCHDOG_USEC` and
        `$WATCHDOG_PID` (of `env`, `os.environ` by default; `pid` is this process's id)."""
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        return cls(address, watchdog_interval=watchdog_interval(env, pid))

    @property
    def enabled(self) -> bool:
        """True when a service manager listens (messages are sent)."""
        return self._address is not None and not self._closed

    def ready(self, status: str | None = None) -> bool:
        """`READY=1`: start-up is finished (for `Type=notify`), with an optional status line."""
        return self.send("READY=1", *self._status_line(status))

    def status(self, text: str) -> bool:
        """`STATUS=…`: the one line `systemctl status` shows."""
        return self.send(*self._status_line(text))

    def stopping(self, status: str | None = None) -> bool:
        """`STOPPING=1`: the service has begun to shut down."""
        return self.send("STOPPING=1", *self._status_line(status))

    def reloading(self) -> bool:
        """`RELOADING=1` with `MONOTONIC_USEC=` (systemd 253 or newer uses it to match the
        reload with `Type=notify-reload`; older versions ignore it); send `ready()` when the
        reload is done."""
        return self.send("RELOADING=1", f"MONOTONIC_USEC={time.monotonic_ns() // 1000}")

    def watchdog(self) -> bool:
        """`WATCHDOG=1`: the keep-alive ping (a no-op when no watchdog is expected)."""
        if self.watchdog_interval is None:
            return False
        return self.send("WATCHDOG=1")

    def extend_timeout(self, seconds: float) -> bool:
        """`EXTEND_TIMEOUT_USEC=…`: the current start or stop needs `seconds` more (resend
        before they run out)."""
        return self.send(f"EXTEND_TIMEOUT_USEC={max(0, int(seconds * 1_000_000))}")

    def send(self, *lines: str) -> bool:
        """Send `lines` (`KEY=VALUE` each, without newlines) as one datagram."""
        if self._address is None or not lines:
            return False
        payload = "\n".join(lines).encode("utf-8")
        with self._lock:
            if self._closed:
                return False
            try:
                if self._sock is None:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                    sock.setblocking(False)  # a full queue drops the message, never stalls
                    self._sock = sock
                self._sock.sendto(payload, self._address)
            except OSError as exc:
                if not self._warned:
                    self._warned = True
                    log.debug("systemd: cannot notify %s (%s)", self._shown(), exc)
                return False
        return True

    def close(self) -> None:
        """Close the socket; later calls send nothing."""
        with self._lock:
            self._closed = True
            if self._sock is not None:
                self._sock.close()
                self._sock = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @staticmethod
    def _status_line(text: str | None) -> tuple[str, ...]:
        return () if text is None else (f"STATUS={clean_status(text)}",)

    def _shown(self) -> str:
        address = self._address or ""
        return "@" + address[1:] if address.startswith("\0") else address
