"""Test doubles for the sandbox server tests: a fake game and a raw-socket RCON client.

The fake game stands in for the sandbox ``Game`` so the wire protocol can be tested on its own.
"""

from __future__ import annotations

import json
import pathlib
import socket
import struct
import threading
import uuid

__all__ = ["PARSE_ERROR", "FakeGame", "RawClient", "free_port", "packet"]

PARSE_ERROR = "Unknown or incomplete command. See below for error"


class FakeGame:
    """A tiny game: commands chosen to exercise the server (echo, long, multi, parse, boom...)."""

    def __init__(self, flavour: str = "vanilla") -> None:
        self.flavour = flavour
        self.tick_count = 0
        self.in_tick = False
        self.last_cost: dict[str, int] = {}
        self.total_cost: dict[str, int] = {}
        self.state: dict[str, str] = {}
        self.players: dict[str, tuple[float, float, float]] = {}
        self.calls: list[tuple[str, str]] = []  # (what, thread name)
        self.gate = threading.Event()
        self.gate.set()
        self.executed: list[str] = []

    def _record(self, what: str) -> None:
        self.calls.append((what, threading.current_thread().name))

    def execute(self, command: str) -> list[str]:
        """Run one fake command."""
        self.executed.append(command)
        self.last_cost = {"entities_examined": 0, "nbt_serializations": 0}
        if command.startswith("/"):
            command = command[1:]
        word, _, rest = command.partition(" ")
        if word == "echo":
            return [rest]
        if word == "multi":
            return rest.split(" ")
        if word == "long":
            count, _, char_prefix = rest.partition(" ")
            char, _, prefix = char_prefix.partition(" ")
            return [prefix + (char or "x") * int(count)]
        if word == "empty":
            return []
        if word == "boom":
            raise RuntimeError("kaboom")
        if word == "wait":
            self.gate.wait(10)
            return [rest]
        if word == "thread":
            return [threading.current_thread().name]
        if word == "intick":
            return [str(self.in_tick)]
        if word == "cost":
            examined, serialized = (int(x) for x in rest.split(" "))
            self.last_cost = {"entities_examined": examined, "nbt_serializations": serialized}
            for key, value in self.last_cost.items():
                self.total_cost[key] = self.total_cost.get(key, 0) + value
            return [f"cost {rest}"]
        if word == "set":
            key, _, value = rest.partition(" ")
            self.state[key] = value
            return [f"set {key}"]
        if word == "get":
            return [self.state.get(rest, "<none>")]
        context = command + "<--[HERE]"  # Parse errors: unknown root literal, cursor 0
        if self.flavour == "paper":
            return [PARSE_ERROR + "\n" + context]
        return [PARSE_ERROR, context]

    def tick(self) -> None:
        """Count ticks."""
        self.in_tick = True
        self.tick_count += 1
        self.in_tick = False

    def save(self, directory: pathlib.Path) -> None:
        """Write the state as JSON."""
        data = {"state": self.state, "tick_count": self.tick_count}
        (directory / "fake.json").write_text(json.dumps(data))

    @classmethod
    def load(cls, directory: pathlib.Path, flavour: str = "vanilla") -> FakeGame:
        """Read a saved state back."""
        data = json.loads((directory / "fake.json").read_text())
        game = cls(flavour)
        game.state = dict(data["state"])
        game.tick_count = int(data["tick_count"])
        return game

    def join(self, name: str, pos: tuple[float, float, float], dimension: str = "") -> None:
        """Add a player."""
        self._record(f"join {name}")
        self.players[name] = pos

    def leave(self, name: str) -> None:
        """Remove a player."""
        self._record(f"leave {name}")
        del self.players[name]

    def move(self, name: str, pos: tuple[float, float, float]) -> None:
        """Move a player."""
        self._record(f"move {name}")
        self.players[name] = pos

    def frame_at(self, x: int, y: int, z: int) -> uuid.UUID | None:
        """A frame exists only at 1 2 3."""
        self._record("frame_at")
        return uuid.UUID(int=123) if (x, y, z) == (1, 2, 3) else None

    def use_entity(self, name: str, entity: uuid.UUID) -> bool:
        """Using works for the known frame."""
        self._record(f"use {name} {entity}")
        return entity == uuid.UUID(int=123)

    def inbox(self, name: str) -> list[dict[str, object]]:
        """One title per player."""
        self._record("inbox")
        return [{"kind": "title", "text": f"hi {name}"}]


def free_port() -> int:
    """A port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def packet(request_id: int, packet_type: int, body: bytes | str) -> bytes:
    """Encode one request packet with a correct length field."""
    data = body.encode() if isinstance(body, str) else body
    payload = struct.pack("<ii", request_id, packet_type) + data + b"\0\0"
    return struct.pack("<i", len(payload)) + payload


class RawClient:
    """A raw-socket RCON client for poking at protocol quirks."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 10.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the socket."""
        self.sock.close()

    def send(self, data: bytes) -> None:
        """Send raw bytes."""
        self.sock.sendall(data)

    def send_packet(self, request_id: int, packet_type: int, body: bytes | str = b"") -> None:
        """Send one well-formed packet."""
        self.send(packet(request_id, packet_type, body))

    def _recv_exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError(f"closed after {len(data)} of {n} bytes")
            data += chunk
        return data

    def read_packet(self) -> tuple[int, int, bytes]:
        """(request id, type, body bytes) of the next packet; checks length and terminator."""
        (length,) = struct.unpack("<i", self._recv_exact(4))
        payload = self._recv_exact(length)
        request_id, packet_type = struct.unpack("<ii", payload[:8])
        assert payload[-2:] == b"\0\0", payload
        return request_id, packet_type, payload[8:-2]

    def login(self, password: str, request_id: int = 1) -> int:
        """Send a login; returns the reply's request id (-1 = refused)."""
        self.send_packet(request_id, 3, password)
        reply_id, reply_type, body = self.read_packet()
        assert (reply_type, body) == (2, b"")
        return reply_id

    def command_packets(self, command: str | bytes, request_id: int = 7) -> list[bytes]:
        """Run a command; return every reply packet body (marker: "RCON: other packet types")."""
        self.send_packet(request_id, 2, command)
        first = self.read_packet()
        bodies = [first[2]]
        assert first[:2] == (request_id, 0), first
        self.send_packet(4242, 100)  # answered only after the whole reply was sent
        while True:
            reply_id, reply_type, body = self.read_packet()
            if reply_id == 4242:
                assert body == b"Unknown request 64"
                return bodies
            assert (reply_id, reply_type) == (request_id, 0)
            bodies.append(body)

    def command(self, command: str | bytes, request_id: int = 7) -> str:
        """Run a command; the whole reply text."""
        return b"".join(self.command_packets(command, request_id)).decode()

    def closed_without_reply(self) -> bool:
        """True when the server closes the connection without sending anything."""
        try:
            data = self.sock.recv(1)
        except ConnectionResetError:
            return True
        return data == b""
