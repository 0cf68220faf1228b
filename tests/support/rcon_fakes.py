"""A vanilla-like RCON server on loopback for transport tests (and ``bench/rcon_roundtrip.py``).

Described in docs/libraries.md, "The vanilla-like fake server".

It reproduces the vanilla read rules that break naive clients: one ``recv(1460)`` per packet,
the connection closed when the length field does not match what that one read got (so two
packets in one read, or one split over two reads, kill the connection, and the server counts
it), 4096-UTF-16-unit reply splitting with optional delays between chunks, ``Unknown request
<hex>`` for other types, a Paper mode (``minecraft:`` commands exist, parse errors carry ``\\n``),
commands that close the socket, slow replies, and restart on the same port.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["FakeServer", "ServerFactory", "java_chunks", "packet"]

Responder = Callable[[str], str]

_UNKNOWN = "Unknown or incomplete command. See below for error"


def packet(req_id: int, ptype: int, body: bytes) -> bytes:
    """Frame one packet the way vanilla's ``RconClient.send`` does."""
    payload = struct.pack("<ii", req_id, ptype) + body + b"\x00\x00"
    return struct.pack("<i", len(payload)) + payload


def java_chunks(text: str) -> list[bytes]:
    """``sendCmdResponse``: 4096 UTF-16 units per chunk, lone surrogates written as ``?``."""
    units: list[int] = []
    for ch in text:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        else:
            units.append(cp)
    out: list[bytes] = []
    start = 0
    while True:  # do/while: an empty reply still sends one packet
        piece = units[start : start + 4096]
        chars: list[str] = []
        i = 0
        while i < len(piece):
            u = piece[i]
            if 0xD800 <= u <= 0xDBFF and i + 1 < len(piece) and 0xDC00 <= piece[i + 1] <= 0xDFFF:
                chars.append(chr(0x10000 + ((u - 0xD800) << 10) + (piece[i + 1] - 0xDC00)))
                i += 2
            else:
                chars.append("?" if 0xD800 <= u <= 0xDFFF else chr(u))
                i += 1
        out.append("".join(chars).encode("utf-8"))
        start += 4096
        if start >= len(units):
            return out


@dataclass
class FakeServer:
    """Vanilla-like (or Paper-like) RCON server; ``start()`` binds, ``stop()`` drops everyone."""

    password: str = "pw"
    host: str = "127.0.0.1"
    flavour: str = "vanilla"
    split_delay: float = 0.0
    reply_delay: float = 0.0
    close_on: set[str] = field(default_factory=set)
    responses: dict[str, str] = field(default_factory=dict)
    raw_replies: dict[str, bytes | Callable[[int], bytes]] = field(default_factory=dict)
    slow: dict[str, float] = field(default_factory=dict)
    responder: Responder | None = None
    port: int = 0
    commands: list[str] = field(default_factory=list)
    probes: list[int] = field(default_factory=list)
    logins: int = 0
    connections: int = 0
    bad_reads: int = 0

    def __post_init__(self) -> None:
        self._listener: socket.socket | None = None
        self._clients: list[socket.socket] = []
        self._lock = threading.Lock()
        self._running = False
        self._thread: threading.Thread | None = None

    def start(self) -> FakeServer:
        """Listen on ``port`` (a free one the first time) and serve in daemon threads."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(16)
        listener.settimeout(0.02)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._running = True
        self._thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and close every client connection (a server shutdown)."""
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            clients, self._clients = self._clients, []
        for conn in clients:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def kick_all(self) -> None:
        """Close every client connection but keep listening."""
        with self._lock:
            clients, self._clients = self._clients, []
        for conn in clients:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def __enter__(self) -> FakeServer:
        """Start serving."""
        return self.start()

    def __exit__(self, *exc: object) -> None:
        """Stop serving."""
        self.stop()

    def _accept(self, listener: socket.socket) -> None:
        """Accept loop: one thread per connection, as vanilla's ``RconThread``."""
        while self._running:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            with self._lock:
                self._clients.append(conn)
                self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _reply_text(self, body: str) -> str:
        """The whole reply text of one command (before splitting)."""
        if body.startswith("/"):
            body = body[1:]
        if body in self.responses:
            return self.responses[body]
        if self.responder is not None:
            return self.responder(body)
        if body.startswith("minecraft:"):
            if self.flavour == "vanilla":
                return self._parse_error(_UNKNOWN, body)
            body = body.removeprefix("minecraft:")
        if body == "list":
            return "There are 0 of a max of 20 players online: "
        if body.startswith("bad "):
            return self._parse_error("Incorrect argument for command", body)
        return "echo:" + body

    def _parse_error(self, message: str, command: str) -> str:
        """A parse error in this flavour's form (cursor at the end of the command)."""
        context = command if len(command) <= 10 else "..." + command[-10:]
        sep = "\n" if self.flavour == "paper" else ""
        return f"{message}{sep}{context}<--[HERE]"

    def _serve(self, conn: socket.socket) -> None:
        """``RconClient.run``: one read per packet; any framing error closes the socket."""
        authed = False
        try:
            while True:
                buf = conn.recv(1460)  # vanilla: exactly one read of at most 1460 bytes
                if len(buf) < 10:
                    return
                if struct.unpack("<i", buf[:4])[0] != len(buf) - 4:
                    with self._lock:
                        self.bad_reads += 1
                    return  # vanilla closes without a word
                rid, ptype = struct.unpack("<ii", buf[4:12])
                text = buf[12:].split(b"\x00")[0].decode("utf-8", "replace")
                if ptype == 3:
                    self.logins += 1
                    authed = text == self.password and text != ""
                    conn.sendall(packet(rid if authed else -1, 2, b""))
                elif ptype == 2:
                    if not authed:
                        conn.sendall(packet(-1, 2, b""))
                        continue
                    self.commands.append(text)
                    if text in self.close_on:
                        return
                    delay = self.slow.get(text, self.reply_delay)
                    if delay:
                        time.sleep(delay)
                    if text in self.raw_replies:
                        raw = self.raw_replies[text]
                        conn.sendall(raw(rid) if callable(raw) else raw)
                        continue
                    for i, chunk in enumerate(java_chunks(self._reply_text(text))):
                        if i and self.split_delay:
                            time.sleep(self.split_delay)
                        conn.sendall(packet(rid, 0, chunk))
                else:
                    self.probes.append(ptype)
                    conn.sendall(packet(rid, 0, b"Unknown request %x" % (ptype & 0xFFFFFFFF)))
        except OSError:
            pass
        finally:
            with self._lock:
                if conn in self._clients:
                    self._clients.remove(conn)
            conn.close()


ServerFactory = Callable[..., FakeServer]
"""Builds and starts a ``FakeServer`` with the given options (the ``make_server`` fixture)."""
