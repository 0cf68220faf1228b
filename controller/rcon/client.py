"""The RCON client: mcrcon's ``MCRcon`` with every part that fails a daemon replaced.

mcrcon 0.7.0 times out with SIGALRM (main thread, integers only), reads one packet per reply
(truncating at 4096 characters and desynchronising), sleeps 3 ms per command, uses request id 0,
``send`` instead of ``sendall``, IPv4 only, and never reconnects. :class:`RconClient` subclasses
it, keeps its packet layout and context-manager API, never calls ``MCRcon.__init__`` (which
installs the SIGALRM handler) and never touches ``signal``.
"""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Literal

from mcrcon import MCRcon

from controller.errors import RconAuthError, RconProtocolError, RconUnavailable
from controller.rcon.flavour import FLAVOUR_PROBE, Flavour, detect_flavour, prefixed
from controller.rcon.protocol import (
    AUTH_FAILED_ID,
    CHUNK_UTF16_UNITS,
    MAX_COMMAND_BYTES,
    SRCDS_MIRROR_BODY,
    TYPE_AUTH,
    TYPE_AUTH_RESPONSE,
    TYPE_COMMAND,
    TYPE_PROBE,
    TYPE_RESPONSE,
    Packet,
    command_bytes,
    decode_body,
    encode_packet,
    parse_length,
    parse_payload,
    utf16_units_of_utf8,
)

__all__ = ["Framing", "RconClient"]

Framing = Literal["vanilla", "srcds"]
"""``srcds``: the server sent an empty type-0 packet before the auth reply (e.g. rconx)."""

log = logging.getLogger("controller.rcon")

_MAX_ID = 2**31 - 1
_DONTWAIT: int | None = getattr(socket, "MSG_DONTWAIT", None)
_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)
"""Linux: acknowledge at once. The server's last chunk and its probe answer are small writes
under Nagle; without a prompt ACK the probe answer waits for the 40 ms delayed-ACK timer."""


class _NotSent(Exception):
    """The command packet never fully reached the server: it cannot have run."""


class RconClient(MCRcon):
    """One RCON connection, safe to share between threads, one command in flight at a time.

    ``timeout`` is the longest silence (seconds, float) tolerated while waiting for reply bytes;
    ``connect_timeout`` bounds the TCP connect; ``backoff`` is ``(first, cap)`` of the jittered
    exponential delay between failed connection attempts; ``connect_attempts`` is how many
    attempts one call makes before raising :class:`RconUnavailable`; ``sleep``, ``clock`` and
    ``rng`` are injectable for tests (the default sleep is cut short by :meth:`close`).
    ``flavour`` fixes the server flavour instead of detecting it with ``minecraft:list`` (one
    command, counted in ``commands_sent``) on every connect.
    ``skip_short_probe`` skips the end-of-reply probe after a first packet shorter than 4096
    UTF-16 units (safe on vanilla and Paper, which fill every chunk but the last; never used
    against SRCDS-style servers, which split by bytes).
    """

    def __init__(
        self,
        host: str,
        port: int,
        password: str,
        *,
        timeout: float = 5.0,
        connect_timeout: float = 5.0,
        backoff: tuple[float, float] = (0.5, 30.0),
        connect_attempts: int = 3,
        flavour: Flavour | None = None,
        skip_short_probe: bool = False,
        sleep: Callable[[float], object] | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        if timeout <= 0 or connect_timeout <= 0:
            raise ValueError("timeouts must be positive")
        if backoff[0] <= 0 or backoff[1] < backoff[0]:
            raise ValueError("backoff must be (first, cap) with 0 < first <= cap")
        if connect_attempts < 1:
            raise ValueError("connect_attempts must be at least 1")
        self.host = host
        self.port = port
        self.tlsmode = 0
        self.timeout: float = float(timeout)
        self.connect_timeout: float = float(connect_timeout)
        self.backoff: tuple[float, float] = (float(backoff[0]), float(backoff[1]))
        self.connect_attempts = connect_attempts
        self.skip_short_probe = skip_short_probe
        self.socket: socket.socket | None = None
        self.flavour: Flavour | None = flavour
        self.framing: Framing = "vanilla"
        self.commands_sent = 0
        self.probes_sent = 0
        self.connects = 0
        self.connect_failures = 0
        self.backoff_delays: list[float] = []
        self.__password = password
        self._fixed_flavour = flavour
        self._wake = threading.Event()
        self._sleep: Callable[[float], object] = sleep or self._wake.wait
        self._clock = clock
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._closed = False
        self._next_id = 0
        self._failures = 0
        self._retry_at = 0.0

    # -- public API ------------------------------------------------------------------------

    def __repr__(self) -> str:
        state = "closed" if self._closed else "connected" if self.socket else "disconnected"
        return (
            f"RconClient(host={self.host!r}, port={self.port}, flavour={self.flavour!r}, {state})"
        )

    def __enter__(self) -> RconClient:
        self.connect()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        """True while a logged-in socket is held (it may still turn out to be dead)."""
        return self.socket is not None

    def connect(self) -> None:
        """Connect and log in now (with backoff) unless already connected; reopens if closed."""
        with self._lock:
            self._reopen()
            if self.socket is None:
                self._connect_with_backoff()

    def reconnect(self) -> None:
        """Drop the current connection (if any) and connect again, with backoff."""
        with self._lock:
            self._reopen()
            self._drop("reconnect requested")
            self._connect_with_backoff()

    def disconnect(self) -> None:
        """Close the socket; the next :meth:`command` connects again (mcrcon's API)."""
        with self._lock:
            self._drop("disconnect requested")

    @contextmanager
    def bounded(self, seconds: float) -> Iterator[None]:
        """For the block: replies waited for at most `seconds`, and at most one connection
        attempt (a stop's last commands, which must not wait out a silent server)."""
        saved = self.timeout, self.connect_attempts
        self.timeout, self.connect_attempts = min(self.timeout, seconds), 1
        try:
            yield
        finally:
            self.timeout, self.connect_attempts = saved

    def close(self) -> None:
        """Close: wakes a command or backoff wait in another thread; commands then fail.

        Only :meth:`connect` or :meth:`reconnect` open the client again.
        """
        self._closed = True
        self._wake.set()
        sock = self.socket
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        with self._lock:
            self._drop("closed")

    def command(self, command: str, *, prefix: bool = False) -> str:
        """Run one command and return its whole reply text (all packets, decoded once).

        ``prefix=True`` adds ``minecraft:`` where the connected server needs it (Paper). A
        command over 1446 UTF-8 bytes raises ``ValueError`` before any socket is touched.

        Retry rule: a dead connection found *before* the command left (the peer had closed the
        idle socket, or ``sendall`` failed, so at most a truncated packet reached a server that
        rejects truncated packets) is reconnected and the command sent once more. Once the
        packet was handed to the kernel in full, the command may have run; it is never re-sent,
        because commands such as ``summon`` or ``scoreboard players add`` are not idempotent.
        The caller gets :class:`RconUnavailable` and must re-read the world instead.
        """
        if not prefix:
            command_bytes(command)
        with self._lock:
            if self._closed:
                raise RconUnavailable(f"RCON client for {self._where} is closed")
            for attempt in (1, 2):
                if self.socket is None:
                    self._connect_with_backoff()
                text = prefixed(command, self._flavour_or_vanilla) if prefix else command
                try:
                    return self._exchange(command_bytes(text))
                except _NotSent as exc:
                    self._drop(str(exc))
                    if attempt == 2:
                        raise RconUnavailable(f"{exc}; the command was not sent") from None
                    log.info("RCON %s: %s; reconnecting before sending", self._where, exc)
            raise AssertionError("unreachable")  # pragma: no cover

    # -- mcrcon overrides ------------------------------------------------------------------

    def _read(self, length: int) -> bytes:
        """Read exactly ``length`` bytes under the socket timeout (no SIGALRM, no busy loop)."""
        sock = self.socket
        if sock is None:
            raise ConnectionError("not connected")
        buf = bytearray(length)
        view = memoryview(buf)
        got = 0
        while got < length:
            if _QUICKACK is not None:
                sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
            n = sock.recv_into(view[got:], length - got)
            if n == 0:
                raise ConnectionError("connection closed by the server")
            got += n
        return bytes(buf)

    def _send(self, out_type: int, out_data: str) -> str:
        """mcrcon's entry point, kept for compatibility: one request, its whole reply."""
        if out_type != TYPE_COMMAND:
            raise NotImplementedError("only commands go through _send; logins use connect()")
        return self.command(out_data)

    # -- internals -------------------------------------------------------------------------

    @property
    def _where(self) -> str:
        """``host:port`` for messages (never the password)."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    @property
    def _flavour_or_vanilla(self) -> Flavour:
        """The known flavour; vanilla (no prefix) when detection was skipped."""
        return self.flavour or "vanilla"

    def _reopen(self) -> None:
        """Clear a previous :meth:`close` (caller holds the lock)."""
        self._closed = False
        self._wake.clear()

    def _new_id(self) -> int:
        """The next positive request id (rconx rejects ids <= 0)."""
        self._next_id = self._next_id % _MAX_ID + 1
        return self._next_id

    def _drop(self, reason: str) -> None:
        """Forget the socket (caller holds the lock or owns the client)."""
        sock, self.socket = self.socket, None
        if sock is not None:
            log.debug("RCON %s: dropping connection (%s)", self._where, reason)
            try:
                sock.close()
            except OSError:
                pass

    def _delay(self, failures: int) -> float:
        """Jittered exponential delay after ``failures`` consecutive failed attempts."""
        first, cap = self.backoff
        base = min(cap, first * 2.0 ** min(failures - 1, 62))
        return base * (0.5 + 0.5 * self._rng.random())

    def _connect_with_backoff(self) -> None:
        """Up to ``connect_attempts`` attempts, honouring the backoff since the last failure.

        When every attempt failed, the last attempt's error is raised with how many attempts
        were made and the time they took (waits included), when more than one was made:
        ``no reply from RCON at 127.0.0.1:25575 within 5 s (3 attempts over 16.4 s)``.
        """
        last: RconUnavailable | RconProtocolError | None = None
        started = self._clock()
        for _ in range(self.connect_attempts):
            if self._closed:
                raise RconUnavailable(f"RCON client for {self._where} is closed")
            if self._failures:
                wait = self._retry_at - self._clock()
                if wait > 0:
                    self.backoff_delays.append(wait)
                    self._sleep(wait)
                if self._closed:
                    raise RconUnavailable(f"RCON client for {self._where} is closed")
            try:
                self._open()
            except (RconUnavailable, RconProtocolError) as exc:
                self._failures += 1
                self.connect_failures += 1
                self._retry_at = self._clock() + self._delay(self._failures)
                last = exc
                log.debug("RCON %s: connect attempt failed: %s", self._where, exc)
                continue
            self._failures = 0
            return
        assert last is not None
        if self.connect_attempts == 1:
            raise last
        spent = self._clock() - started
        raise type(last)(f"{last} ({self.connect_attempts} attempts over {spent:.1f} s)") from None

    def _open(self) -> None:
        """One attempt: TCP connect, login, flavour detection."""
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self.connect_timeout)
        except socket.gaierror as exc:
            raise RconUnavailable(f"cannot resolve RCON host {self.host!r}: {exc}") from None
        except TimeoutError:
            raise RconUnavailable(f"timed out connecting to RCON at {self._where}") from None
        except OSError as exc:
            why = exc.strerror or exc.__class__.__name__
            raise RconUnavailable(f"cannot connect to RCON at {self._where}: {why}") from None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(self.timeout)
        except OSError:
            sock.close()
            raise RconUnavailable(f"cannot set up the socket to {self._where}") from None
        self.socket = sock
        try:
            self._login()
            if self._fixed_flavour is None:
                self.flavour = detect_flavour(self._exchange(command_bytes(FLAVOUR_PROBE)))
            self.connects += 1
            log.info("RCON %s: connected (%s)", self._where, self.flavour or "flavour not probed")
        except _NotSent as exc:
            self._drop(str(exc))
            raise RconUnavailable(f"RCON {self._where}: {exc}") from None
        except BaseException:
            self._drop("login failed")
            raise

    def _login(self) -> None:
        """Send the password; accept vanilla's single reply or SRCDS's extra empty packet."""
        secret = self.__password.encode("utf-8")
        if len(secret) > MAX_COMMAND_BYTES or b"\x00" in secret:
            raise RconAuthError("the RCON password is too long or contains a NUL character")
        rid = self._new_id()
        self.framing = "vanilla"
        try:
            self._sendall(encode_packet(rid, TYPE_AUTH, secret))
        except _NotSent as exc:
            raise RconUnavailable(f"RCON {self._where}: {exc} during login") from None
        while True:
            packet = self._recv_packet()
            if packet.type == TYPE_RESPONSE and packet.request_id == rid and not packet.body:
                self.framing = "srcds"
                continue
            if packet.type == TYPE_AUTH_RESPONSE and packet.request_id == rid:
                return
            if packet.type == TYPE_AUTH_RESPONSE and packet.request_id == AUTH_FAILED_ID:
                raise RconAuthError(f"RCON at {self._where} refused the password")
            raise RconProtocolError(
                f"RCON {self._where}: unexpected packet (id {packet.request_id}, "
                f"type {packet.type}) in answer to the login"
            )

    def _sendall(self, data: bytes) -> None:
        """Send one whole packet; raise :class:`_NotSent` if it could not be handed over."""
        sock = self.socket
        if sock is None:
            raise _NotSent("not connected")
        try:
            sock.sendall(data)
        except OSError as exc:
            raise _NotSent(f"send failed ({exc.__class__.__name__})") from None

    def _peer_gone(self) -> bool:
        """True when the idle socket already shows end-of-file or a reset (nothing is consumed)."""
        sock = self.socket
        if sock is None:
            return True
        try:
            # A socket with a timeout would wait for data even with MSG_DONTWAIT (CPython polls
            # and retries on EAGAIN), so peek in non-blocking mode and restore the timeout.
            sock.setblocking(False)
            try:
                return sock.recv(1, socket.MSG_PEEK) == b""
            finally:
                sock.settimeout(self.timeout)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True

    def _recv_packet(self) -> Packet:
        """Read one packet; timeouts and drops raise RconUnavailable, bad frames protocol errors."""
        try:
            head = self._read(4)
            length = parse_length(head)
            return parse_payload(self._read(length))
        except ValueError as exc:
            self._drop("malformed frame")
            raise RconProtocolError(f"RCON {self._where} sent a malformed packet: {exc}") from None
        except TimeoutError:
            self._drop("timeout")
            raise RconUnavailable(
                f"no reply from RCON at {self._where} within {self.timeout:g} s"
            ) from None
        except OSError as exc:
            self._drop(str(exc))
            raise RconUnavailable(f"connection to RCON at {self._where} lost: {exc}") from None

    def _exchange(self, body: bytes) -> str:
        """Send a command, collect its packets up to the probe's answer, decode once."""
        if self._peer_gone():
            raise _NotSent("the server had closed the connection")
        cid = self._new_id()
        self._sendall(encode_packet(cid, TYPE_COMMAND, body))
        self.commands_sent += 1
        try:
            return self._collect(cid)
        except BaseException:
            self._drop("command failed")
            raise

    def _collect(self, cid: int) -> str:
        """All reply packets of command ``cid``; the end is the probe's answer.

        The probe goes out only after the first reply packet arrived, so the server's next
        single read holds exactly one packet. Skipping it for a short first packet is safe on
        vanilla and Paper: ``sendCmdResponse`` cuts ``substring(i, i + 4096)`` in UTF-16 units
        and a lone surrogate is written as one ``?``, so every chunk but the last decodes to
        exactly 4096 units; a shorter first chunk is the last one.
        """
        first = self._next_of(cid, None)
        chunks = [first.body]
        if (
            self.skip_short_probe
            and self.framing == "vanilla"
            and (
                len(first.body) < CHUNK_UTF16_UNITS
                or utf16_units_of_utf8(first.body) < CHUNK_UTF16_UNITS
            )
        ):
            return decode_body(first.body)
        pid = self._new_id()
        probe_type = TYPE_RESPONSE if self.framing == "srcds" else TYPE_PROBE
        try:
            self._sendall(encode_packet(pid, probe_type, b""))
        except _NotSent as exc:
            raise RconUnavailable(f"RCON {self._where}: {exc} after the command") from None
        self.probes_sent += 1
        while True:
            packet = self._next_of(cid, pid)
            if packet.request_id == cid:
                chunks.append(packet.body)
            elif self.framing == "vanilla" or packet.body == SRCDS_MIRROR_BODY:
                return decode_body(b"".join(chunks))

    def _next_of(self, cid: int, pid: int | None) -> Packet:
        """The next packet for the command or the probe; stale packets of old ids are skipped."""
        while True:
            packet = self._recv_packet()
            if packet.request_id == cid:
                if packet.type != TYPE_RESPONSE:
                    raise RconProtocolError(
                        f"RCON {self._where}: reply packet of type {packet.type}, expected 0"
                    )
                return packet
            if pid is not None and packet.request_id == pid:
                return packet
            if packet.request_id > 0:
                log.debug("RCON %s: skipping stale packet id %d", self._where, packet.request_id)
                continue
            raise RconProtocolError(
                f"RCON {self._where}: unexpected packet (id {packet.request_id}, "
                f"type {packet.type}) while waiting for request {cid}"
            )
