"""The sandbox's RCON server: vanilla's wire protocol, connection threads and console buffer.

Every behaviour follows docs/server-behaviour.md: its RCON sections (wire protocol, from the
26.1 ``RconClient``/``PktUtils`` decompile), "Main thread" to "Output assembly"
(``DedicatedServer.runCommand`` and ``RconConsoleSource``), and its Paper sections for the Paper
flavour; sections are named below in quotes. The pure parts (framing, body decoding, reply
splitting) are plain functions; :class:`RconServer` does the socket I/O.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Literal, Protocol, overload

from controller.sandbox.mainthread import MainThread

__all__ = [
    "MAX_PACKET_SIZE",
    "REPLY_CHUNK_UNITS",
    "CommandGame",
    "CommandLog",
    "CommandLogEntry",
    "ConsoleBuffer",
    "RconServer",
    "body_from_packet",
    "encode_packet",
    "encode_reply",
    "error_executing",
    "java_is_blank",
    "split_reply",
    "unknown_request",
]

logger = logging.getLogger("controller.sandbox")

MAX_PACKET_SIZE = 1460  # PktUtils.MAX_PACKET_SIZE ("RCON: one read per packet")
REPLY_CHUNK_UNITS = 4096  # sendCmdResponse splits by UTF-16 units ("RCON reply splitting")
_RECV_SIZE = 8192  # BufferedInputStream's default buffer: bytes past the 1460 are lost
SERVERDATA_AUTH = 3
SERVERDATA_EXECCOMMAND = 2
SERVERDATA_RESPONSE_VALUE = 0
SERVERDATA_AUTH_RESPONSE = 2
SERVERDATA_AUTH_FAILURE = -1

Flavour = Literal["vanilla", "paper"]


class CommandGame(Protocol):
    """What the server needs from a game (called on the main thread only)."""

    def execute(self, command: str) -> list[str]:
        """Run one command as the Rcon source; the feedback messages in order."""

    @property
    def last_cost(self) -> dict[str, int]:
        """Cost counters of the last execute()."""


# -- pure protocol functions ---------------------------------------------------------------------


def _int32(value: int) -> bytes:
    """A Java int as 4 little-endian bytes (wrapping like Java arithmetic)."""
    return (value & 0xFFFFFFFF).to_bytes(4, "little")


def encode_packet(request_id: int, packet_type: int, body: str) -> bytes:
    """One packet as ``RconClient.send`` writes it: length = utf8(body) + 10 ("RCON packets").

    Lone surrogates (half of a non-BMP character cut by the 4096-unit split) become ``?``, as
    Java's ``String.getBytes(UTF_8)`` replaces unmappable characters.
    """
    data = body.encode("utf-8", "replace") if body else b""
    return _int32(len(data) + 10) + _int32(request_id) + _int32(packet_type) + data + b"\0\0"


def split_reply(text: str) -> list[str]:
    """``sendCmdResponse``: chunks of at most 4096 UTF-16 code units; "" gives one empty chunk.

    Source: "RCON reply splitting" (do/while over ``String.substring``). A surrogate pair
    straddling a chunk boundary is cut in two, as Java's ``substring`` does.
    """
    if len(text) <= REPLY_CHUNK_UNITS // 2:  # fast path: at most 4096 UTF-16 units
        return [text]
    units = text.encode("utf-16-le", "surrogatepass")
    step = REPLY_CHUNK_UNITS * 2
    if len(units) <= step:
        return [text]
    return [
        units[i : i + step].decode("utf-16-le", "surrogatepass") for i in range(0, len(units), step)
    ]


def encode_reply(request_id: int, text: str) -> bytes:
    """All type-0 packets of one command reply, no terminator packet ("RCON reply splitting")."""
    return b"".join(
        encode_packet(request_id, SERVERDATA_RESPONSE_VALUE, chunk) for chunk in split_reply(text)
    )


def body_from_packet(buf: bytes | bytearray, read: int) -> str | None:
    """``PktUtils.stringFromByteArray(buf, 12, read)``: UTF-8 from 12 to the first NUL or read-1.

    Returns None where Java's ``new String(buf, 12, negative)`` throws (read of 10..12 bytes),
    which makes the client thread close the socket ("RCON: one read per packet"; the exception
    path is derived from the decompiled arithmetic, unverified on a live server). Malformed UTF-8
    becomes U+FFFD like Java's decoder (replacement-count details unverified).
    """
    offset = 12
    last = read - 1
    if offset > last:
        return None  # i = last < offset: negative length
    i = buf.find(b"\0", offset, last)  # Java: while (buf[i] != 0 && i < last) i++
    if i < 0:
        i = last
    return bytes(buf[offset:i]).decode("utf-8", "replace")


def unknown_request(packet_type: int) -> str:
    """The reply to any type but 2 and 3: ``Integer.toHexString`` ("RCON: other packet types")."""
    return f"Unknown request {packet_type & 0xFFFFFFFF:x}"


def error_executing(command: str, exc: BaseException) -> str:
    """``"Error executing: " + cmd + " (" + e.getMessage() + ")"`` ("RCON commands")."""
    message = str(exc) if exc.args else "null"
    return f"Error executing: {command} ({message})"


_JAVA_NON_WHITESPACE_SPACES = {"\u00a0", "\u2007", "\u202f"}


def _java_is_whitespace(ch: str) -> bool:
    """``Character.isWhitespace``: Unicode space separators except no-break ones, and controls."""
    if ch in "\t\n\u000b\f\r\u001c\u001d\u001e\u001f":
        return True
    if ch in _JAVA_NON_WHITESPACE_SPACES:
        return False
    return unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def java_is_blank(text: str) -> bool:
    """Java ``String.isBlank()``: Paper's ``if (command.isBlank()) return ""``.

    Source: "Paper: blank commands".
    """
    return all(_java_is_whitespace(ch) for ch in text)


# -- console buffer and command log ----------------------------------------------------------------


class ConsoleBuffer:
    """``RconConsoleSource``'s StringBuffer: messages joined with nothing ("Output assembly")."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._lock = threading.Lock()

    def prepare_for_command(self) -> None:
        """Clear the buffer (``prepareForCommand``, run on the RCON thread)."""
        with self._lock:
            self._parts.clear()

    def send_system_message(self, text: str) -> None:
        """Append one feedback message (``buffer.append(c.getString())``)."""
        with self._lock:
            self._parts.append(text)

    def get_command_response(self) -> str:
        """The buffer's whole content (``getCommandResponse``)."""
        with self._lock:
            return "".join(self._parts)


@dataclass(frozen=True)
class CommandLogEntry:
    """One command received: when, on which connection, what, how long the reply, its cost."""

    time: float
    connection: int
    command: str
    reply_length: int
    cost: dict[str, int] = field(default_factory=dict)


class CommandLog(Sequence[CommandLogEntry]):
    """Thread-safe in-memory log of commands, optionally also written as JSON lines to a file."""

    def __init__(self, path: Path | str | None = None) -> None:
        self._entries: list[CommandLogEntry] = []
        self._lock = threading.Lock()
        self.path = Path(path) if path is not None else None
        self._file: IO[str] | None = None
        if self.path is not None:
            self._file = self.path.open("a", encoding="utf-8")

    def append(self, entry: CommandLogEntry) -> None:
        """Record one entry (and write it as a JSON line when a file is configured)."""
        with self._lock:
            self._entries.append(entry)
            if self._file is not None:
                self._file.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
                self._file.flush()

    def close(self) -> None:
        """Close the JSON-lines file, if any."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def clear(self) -> None:
        """Forget the in-memory entries (the file keeps them)."""
        with self._lock:
            self._entries.clear()

    @property
    def total_cost(self) -> dict[str, int]:
        """Sum of every entry's cost counters."""
        totals: dict[str, int] = {}
        for entry in self.entries():
            for key, value in entry.cost.items():
                totals[key] = totals.get(key, 0) + value
        return totals

    def entries(self) -> list[CommandLogEntry]:
        """A snapshot of the entries."""
        with self._lock:
            return list(self._entries)

    @overload
    def __getitem__(self, index: int) -> CommandLogEntry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[CommandLogEntry]: ...

    def __getitem__(self, index: int | slice) -> CommandLogEntry | Sequence[CommandLogEntry]:
        """Entry (or entries) by position."""
        with self._lock:
            return self._entries[index]

    def __len__(self) -> int:
        """Number of entries."""
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[CommandLogEntry]:
        """Iterate over a snapshot."""
        return iter(self.entries())


# -- the server ------------------------------------------------------------------------------------


class _Connection:
    """One accepted client socket and its RCON client thread's state."""

    def __init__(self, sock: socket.socket, number: int, address: str) -> None:
        self.sock = sock
        self.number = number
        self.address = address
        self.authed = False
        self.console = ConsoleBuffer()  # used by the Paper flavour only ("Paper: RCON connections")
        self.buf = bytearray(MAX_PACKET_SIZE)  # RconClient.buf persists across reads

    def shutdown(self) -> None:
        """Wake the client thread and make it close the socket."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class RconServer:
    """Vanilla's ``RconThread`` and ``RconClient``s, running commands on a :class:`MainThread`."""

    def __init__(
        self,
        main: MainThread,
        game: CommandGame,
        password: str,
        host: str = "127.0.0.1",
        port: int = 0,
        flavour: Flavour = "vanilla",
        command_log: CommandLog | None = None,
    ) -> None:
        self.main = main
        self.game = game
        self.password = password
        self.host = host
        self.port = port
        self.flavour = flavour
        self.command_log = command_log if command_log is not None else CommandLog()
        self.console = ConsoleBuffer()  # the ONE RconConsoleSource ("Shared output buffer")
        self._listener: socket.socket | None = None
        self._accept_thread: threading.Thread | None = None
        self._connections: set[_Connection] = set()
        self._lock = threading.Lock()
        self._next_connection = 0
        self._reopen_timer: threading.Timer | None = None
        self._stopped = False

    # -- listener ----------------------------------------------------------------------------

    def start(self) -> None:
        """Bind, listen, log ``RCON running on <host>:<port>`` ("RCON listener and start-up")."""
        self._stopped = False
        self._open_listener()

    def _open_listener(self) -> None:
        """Open the listening socket and start the accept thread."""
        logger.info("Starting remote control listener")
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((self.host, self.port))
            listener.listen(50)  # java.net.ServerSocket's default backlog
        except OSError:
            listener.close()
            raise
        listener.settimeout(0.5)  # soTimeout 500 ms paces the accept loop
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        self._accept_thread = threading.Thread(
            target=self._accept_loop, args=(listener,), name="RCON Listener #1", daemon=True
        )
        self._accept_thread.start()
        logger.info("Thread RCON Listener started")
        logger.info("RCON running on %s:%d", self.host, self.port)

    def _close_listener(self) -> None:
        """Close the listening socket so new connections are refused."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is None:
            return
        try:
            listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        listener.close()
        thread = self._accept_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self._accept_thread = None

    @property
    def listening(self) -> bool:
        """Whether new connections are accepted right now."""
        return self._listener is not None

    def _accept_loop(self, listener: socket.socket) -> None:
        """Accept clients, one thread each (``RCON Client /<ip>``)."""
        while True:
            try:
                sock, addr = listener.accept()
            except TimeoutError:
                if self._listener is not listener:
                    return
                continue
            except OSError:
                return
            if self._listener is not listener:
                sock.close()
                return
            sock.settimeout(None)  # setSoTimeout(0): no read timeout ("RCON listener and start-up")
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._next_connection += 1
                conn = _Connection(sock, self._next_connection, str(addr[0]))
                self._connections.add(conn)
            name = f"RCON Client /{conn.address}"
            threading.Thread(target=self._serve, args=(conn,), name=name, daemon=True).start()
            logger.info("Thread %s started", name)

    # -- faults and shutdown -----------------------------------------------------------------

    def drop_connections(self) -> int:
        """Close every client connection now; returns how many were open."""
        with self._lock:
            conns = list(self._connections)
        for conn in conns:
            conn.shutdown()
        return len(conns)

    def refuse_connections(self, seconds: float) -> None:
        """Close the listener now and reopen it on the same port after ``seconds``."""
        self._cancel_reopen()
        self._close_listener()

        def reopen() -> None:
            if not self._stopped and self._listener is None:
                try:
                    self._open_listener()
                except OSError:
                    logger.exception("could not reopen the RCON listener on port %d", self.port)

        timer = threading.Timer(seconds, reopen)
        timer.daemon = True
        self._reopen_timer = timer
        timer.start()

    def _cancel_reopen(self) -> None:
        """Cancel a pending listener reopen."""
        timer, self._reopen_timer = self._reopen_timer, None
        if timer is not None:
            timer.cancel()
            if timer is not threading.current_thread():
                timer.join()

    def stop(self) -> None:
        """Stop listening and close every connection (``RconThread.stop``)."""
        self._stopped = True
        self._cancel_reopen()
        self._close_listener()
        self.drop_connections()

    def connection_count(self) -> int:
        """Open client connections."""
        with self._lock:
            return len(self._connections)

    # -- one client --------------------------------------------------------------------------

    def _read_packet(self, conn: _Connection) -> int:
        """One ``BufferedInputStream.read(buf, 0, 1460)``: returns the byte count (-1 at EOF).

        The buffered stream fills up to 8192 bytes from the socket and keeps reading only while
        the socket reports bytes available; it is thrown away after the read, so anything past
        1460 bytes is lost ("RCON: one read per packet").
        """
        data = conn.sock.recv(_RECV_SIZE)
        if not data:
            return -1
        while len(data) < MAX_PACKET_SIZE:
            try:
                more = conn.sock.recv(_RECV_SIZE, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                break
            if not more:
                break
            data += more
        read = min(len(data), MAX_PACKET_SIZE)
        conn.buf[:read] = data[:read]
        return read

    def _serve(self, conn: _Connection) -> None:
        """``RconClient.run``: one read per packet; any framing error closes the socket."""
        try:
            while not self._stopped:
                reply = self._handle_one(conn)
                if reply is None:
                    return
                # vanilla writes each chunk with its own write(); the bytes on the wire are the
                # same, only TCP segmentation may differ (one sendall keeps replies whole).
                conn.sock.sendall(reply)
        except OSError:
            pass
        except Exception:
            logger.exception("Exception whilst parsing RCON input")
        finally:
            with self._lock:
                self._connections.discard(conn)
            try:
                conn.sock.close()
            except OSError:
                pass
            logger.info("Thread RCON Client /%s shutting down", conn.address)

    def _handle_one(self, conn: _Connection) -> bytes | None:
        """Read and answer one packet; None means close the connection without a reply."""
        read = self._read_packet(conn)
        if read < 10:
            return None
        buf = conn.buf
        length = int.from_bytes(buf[0:4], "little", signed=True)
        if length != read - 4:
            return None
        request_id = int.from_bytes(buf[4:8], "little", signed=True)
        packet_type = int.from_bytes(buf[8:12], "little", signed=True)
        if packet_type == SERVERDATA_AUTH:
            password = body_from_packet(buf, read)
            if password is None:
                return None
            if password and password == self.password:
                conn.authed = True
                return encode_packet(request_id, SERVERDATA_AUTH_RESPONSE, "")
            conn.authed = False
            return encode_packet(SERVERDATA_AUTH_FAILURE, SERVERDATA_AUTH_RESPONSE, "")
        if packet_type == SERVERDATA_EXECCOMMAND:
            if not conn.authed:
                return encode_packet(SERVERDATA_AUTH_FAILURE, SERVERDATA_AUTH_RESPONSE, "")
            command = body_from_packet(buf, read)
            if command is None:
                return None
            return encode_reply(request_id, self._run_command(conn, command))
        return encode_reply(request_id, unknown_request(packet_type))

    def _run_command(self, conn: _Connection, command: str) -> str:
        """``DedicatedServer.runCommand`` ("Main thread").

        Paper's variant: "Paper: tick loop", "Paper: blank commands", "Paper: RCON connections".
        """
        received = time.time()
        cost: dict[str, int] = {}
        if self.flavour == "paper":
            if java_is_blank(command):
                self._log(received, conn, command, "", cost)
                return ""
            console = conn.console
        else:
            console = self.console
        console.prepare_for_command()
        game = self.game

        def task() -> dict[str, int]:
            for message in game.execute(command):
                console.send_system_message(message)
            return dict(game.last_cost)

        try:
            cost = self.main.call(task)
            reply = console.get_command_response()
        except Exception as exc:  # RconClient's catch (Exception e)
            reply = error_executing(command, exc)
        self._log(received, conn, command, reply, cost)
        return reply

    def _log(
        self, received: float, conn: _Connection, command: str, reply: str, cost: dict[str, int]
    ) -> None:
        """Append to the command log (time = when the command was received)."""
        entry = CommandLogEntry(received, conn.number, command, len(reply), cost)
        self.command_log.append(entry)
