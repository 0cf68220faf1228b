"""Benchmark: simple RCON commands per second per connection through the sandbox server.

A raw-socket client, in its own process like the real controller, sends one command and waits
for its single reply packet before sending the next (as vanilla requires: docs/server-behaviour.md,
"RCON: one read per packet").
Runs against a trivial echo game (the server and main thread alone) and, when
``controller.sandbox.game`` exists, the real Game on ``time query gametime``; with one and with
four connections in parallel. Each row is the median of ``--repeat`` runs. Prints a markdown
table.

Run: ``.venv/bin/python bench/sandbox_throughput.py [--seconds 2] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import pathlib
import socket
import struct
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from controller.sandbox import Sandbox

__all__ = ["EchoGame", "main", "measure"]


class EchoGame:
    """A game whose every command answers with its own text."""

    def __init__(self, flavour: str = "vanilla") -> None:
        self.flavour = flavour
        self.tick_count = 0
        self.last_cost: dict[str, int] = {}

    def execute(self, command: str) -> list[str]:
        """Echo the command."""
        return [command]

    def tick(self) -> None:
        """Count ticks."""
        self.tick_count += 1

    def save(self, directory: pathlib.Path) -> None:
        """Nothing to save."""

    @classmethod
    def load(cls, directory: pathlib.Path, flavour: str = "vanilla") -> EchoGame:
        """A fresh echo game."""
        return cls(flavour)


def _packet(request_id: int, packet_type: int, body: bytes) -> bytes:
    """Encode one request packet."""
    payload = struct.pack("<ii", request_id, packet_type) + body + b"\0\0"
    return struct.pack("<i", len(payload)) + payload


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    """Read exactly n bytes."""
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def _client(host: str, port: int, password: str, command: str, seconds: float) -> int:
    """Send ``command`` repeatedly for ``seconds``; returns how many replies came back."""
    with socket.create_connection((host, port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(_packet(1, 3, password.encode()))
        _recv_exact(sock, 14)
        packet = _packet(7, 2, command.encode())
        count = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            sock.sendall(packet)
            (length,) = struct.unpack("<i", _recv_exact(sock, 4))
            _recv_exact(sock, length)
            count += 1
        return count


def measure(sb: Sandbox, command: str, connections: int, seconds: float) -> tuple[float, float]:
    """(commands/s per connection, total commands/s) for ``connections`` parallel clients.

    Each client runs in its own process, like the real controller, so the clients do not
    compete with the server for this process's GIL.
    """
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(connections, mp_context=context) as pool:
        pool.submit(time.sleep, 0).result()  # start the workers before timing
        futures = [
            pool.submit(_client, sb.host, sb.port, sb.password, command, seconds)
            for _ in range(connections)
        ]
        counts = [future.result() for future in futures]
    total = sum(counts) / seconds
    return total / connections, total


def _real_game_factory() -> Any:
    """The real Game class, or None while it does not exist."""
    try:
        return importlib.import_module("controller.sandbox.game").Game
    except ImportError:
        return None


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="duration of each run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (median is shown)")
    args = parser.parse_args()
    setups: list[tuple[str, Any, str]] = [("echo (fake game)", EchoGame, "echo hi")]
    game = _real_game_factory()
    if game is not None:
        setups.append(("real Game", game, "time query gametime"))
    rows = []
    for label, factory, command in setups:
        for flavour in ("vanilla", "paper"):
            with Sandbox(game_factory=factory, flavour=flavour) as sb:
                for connections in (1, 4):
                    runs = sorted(
                        measure(sb, command, connections, args.seconds) for _ in range(args.repeat)
                    )
                    per, total = runs[len(runs) // 2]
                    rows.append((label, flavour, command, connections, per, total))
    print("| game | flavour | command | connections | commands/s per connection | total/s |")
    print("|---|---|---|---:|---:|---:|")
    for label, flavour, command, connections, per, total in rows:
        print(f"| {label} | {flavour} | `{command}` | {connections} | {per:,.0f} | {total:,.0f} |")


if __name__ == "__main__":
    main()
